"""``xtarot lab feel``: how a match feels (length, choices, lead changes, drama,
comebacks, kingmaking), per option set on the same deals."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from xtarot.cli.lab.common import (
    AgentsOpt,
    GamesOpt,
    Run,
    comma_list,
    num,
    play,
    print_footer,
    print_restricted,
    share_ci,
    study_command,
    study_title,
)
from xtarot.cli.lab.text import tr
from xtarot.cli.options import (
    GameArg,
    PlayersOpt,
)


@study_command()
def feel(
    game: GameArg,
    players: PlayersOpt = None,
    agents: AgentsOpt = "heuristic",
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="An option set to measure as KEY=VALUE[,KEY=VALUE] "
            "(repeatable, on the same deals; none: the defaults with -o).",
        ),
    ] = None,
    n_games: GamesOpt = 200,
    *,
    run: Run,
) -> None:
    """How a match feels: length (decisions, hands, minutes), branching, forced moves,
    lead changes, drama, when the winner was settled, comebacks, ties, kingmaking."""
    play(
        run,
        game,
        players,
        "run_feel",
        print_feel,
        agents=comma_list(agents),
        variants=variant or [],
        games=n_games,
    )


def _mean_ci(m: dict[str, Any] | None, share: bool = False, digits: int = 2) -> str:
    if not m or m.get("mean") is None:
        return "–"
    lo, hi = m["ci95"]
    if share:
        return share_ci(m["mean"], [lo, hi])
    if lo is None or hi is None:
        return num(m["mean"], digits)
    return f"{m['mean']:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def print_feel(console: Console, data: dict[str, Any], lang: str) -> None:
    from xtarot.lab.analysis import FEEL_METRICS

    variants = data.get("variants") or []
    table = Table(title=study_title("feel_title", data, lang))
    table.add_column(tr("col_metric", lang))
    for v in variants:
        table.add_column(v["variant"], justify="right", overflow="fold")
    shares = {"forced_share", "settled_at", "comeback", "kingmaking"}
    for name in FEEL_METRICS:
        digits = 1 if name in ("decisions", "choices", "minutes") else 2
        cells = [_mean_ci(v["metrics"].get(name), name in shares, digits) for v in variants]
        table.add_row(tr(f"f_{name}", lang), *cells)
    for key in ("shared_first", "all_level"):
        table.add_row(
            tr(f"f_{key}", lang),
            *[share_ci(v["ties"][key], v["ties"][f"{key}_ci95"]) for v in variants],
        )
    console.print(table)
    print_restricted(console, data, lang)
    if variants:
        console.print(Text(tr("feel_note", lang, **variants[0]["pace"]), style="dim"))
    print_footer(console, data, lang)
