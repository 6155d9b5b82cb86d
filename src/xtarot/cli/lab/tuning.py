"""``xtarot lab tune``: search the rule options (and deals, komi) toward targets with
Optuna, and say how to confirm what it found."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from xtarot.cli.lab.common import (
    AgentsOpt,
    Run,
    comma_list,
    play,
    print_restricted,
    seat_name,
    share_ci,
    study_command,
)
from xtarot.cli.lab.text import tr
from xtarot.cli.options import (
    GameArg,
    PlayersOpt,
)

TuneOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Study directory: Optuna's SQLite storage and each option "
        "set's matches; the same command resumes.",
    ),
]


@study_command(start=False, out=TuneOutOpt)
def tune(
    game: GameArg,
    target: Annotated[
        list[str],
        typer.Option(
            "--target",
            "-t",
            help="What to aim at: seats (no seat advantage), "
            "minutes=M, drama, skill=H (skill shows within H hands); one, or two "
            "for a Pareto front.",
        ),
    ],
    space: Annotated[
        list[str] | None,
        typer.Option(
            "--space",
            "-s",
            help="What may change: KEY=LO..HI[:STEP], KEY=A|B|C, a "
            "bare bool option; the game's options and deals=1..N, komi=LO..HI.",
        ),
    ] = None,
    players: PlayersOpt = None,
    trials: Annotated[int, typer.Option("--trials", min=1, help="Trials in all.")] = 20,
    batch: Annotated[
        int, typer.Option("--batch", min=1, help="Trials proposed and played together.")
    ] = 4,
    n_games: Annotated[
        int, typer.Option("--games", "-n", min=2, help="Matches per trial (the same deals).")
    ] = 100,
    agents: AgentsOpt = "heuristic",
    strong: Annotated[
        str, typer.Option("--strong", help="The stronger bot of the skill target.")
    ] = "normal",
    weak: Annotated[str, typer.Option("--weak", help="The weaker bot of the skill target.")] = (
        "easy"
    ),
    no_prune: Annotated[
        bool, typer.Option("--no-prune", help="Play every trial in full (no pruning).")
    ] = False,
    confirm_games: Annotated[
        int | None,
        typer.Option(
            "--confirm-games",
            min=1,
            help="Matches in the confirming commands (default: 4 × --games, at least 200).",
        ),
    ] = None,
    *,
    run: Run,
) -> None:
    """Search the rule options (and deals, komi) toward targets with Optuna: the trials,
    the best with intervals or the Pareto front, and the commands that confirm them."""
    play(
        run,
        game,
        players,
        "run_tune",
        print_tune,
        module="tune",
        targets=target,
        space=space or [],
        trials=trials,
        batch=batch,
        games=n_games,
        agents=comma_list(agents),
        strong=strong,
        weak=weak,
        prune=not no_prune,
        confirm_games=confirm_games,
    )


def _settings(trial: dict[str, Any]) -> str:
    items = {**trial.get("options", {}), **trial.get("levers", {})}
    return ", ".join(f"{k}={v}" for k, v in items.items()) or "default"


def print_tune(console: Console, data: dict[str, Any], lang: str) -> None:
    title = tr(
        "tune_title",
        lang,
        game=data["game"],
        players=data["players"],
        targets=", ".join(data["targets"]),
        trials=len(data["trials"]),
        games=data["games"],
    )
    table = Table(title=title)
    table.add_column(tr("col_trial", lang), justify="right")
    table.add_column(tr("col_state", lang))
    table.add_column(tr("col_settings", lang), overflow="fold")
    table.add_column(tr("col_values", lang), justify="right")
    for t in data["trials"]:
        values = ", ".join(f"{v:.4g}" for v in t["values"]) if t["values"] else "–"
        table.add_row(str(t["number"]), t["state"], _settings(t), values)
    console.print(table)
    print_restricted(console, data, lang)
    chosen = [data["best"]] if data.get("best") else data.get("pareto") or []
    if not chosen:
        console.print(tr("tune_none", lang))
    if data.get("best"):
        console.print(
            tr("tune_best", lang, n=data["best"]["number"], settings=_settings(data["best"]))
        )
    elif chosen:
        console.print(
            tr(
                "tune_pareto",
                lang,
                trials=", ".join(f"{t['number']} ({_settings(t)})" for t in chosen),
            )
        )
    for t in chosen:
        _print_figures(console, data, t, lang)
    if data.get("confirm"):
        console.print(tr("tune_confirm", lang))
        for item in data["confirm"]:
            for command in item["commands"]:
                console.print(Text("  " + command, style="bold"))
    console.print(
        Text(
            tr(
                "footer",
                lang,
                seed=data["seed"],
                seconds=data["seconds"],
                rate=data["played"] / data["seconds"] if data["seconds"] else 0.0,
                out=tr("saved_in", lang, out=data["out"]) if data.get("out") else "",
            ),
            style="dim",
        )
    )


def _print_figures(console: Console, data: dict[str, Any], t: dict[str, Any], lang: str) -> None:
    summary = t.get("summary") or {}
    if "seats" in summary:
        s = summary["seats"]
        shares = "; ".join(
            f"{seat_name(i, 'order', lang)} {share_ci(w, ci)}"
            for i, (w, ci) in enumerate(zip(s["win_shares"], s["win_shares_ci95"], strict=True))
        )
        console.print(tr("tune_best_seats", lang, shares=shares, gap=s["gap"]))
    if summary.get("minutes") and summary["minutes"]["ci95"][0] is not None:
        m = summary["minutes"]
        console.print(
            tr("tune_best_minutes", lang, mean=m["mean"], lo=m["ci95"][0], hi=m["ci95"][1])
        )
    if summary.get("drama") and summary["drama"]["ci95"][0] is not None:
        d = summary["drama"]
        console.print(tr("tune_best_drama", lang, mean=d["mean"], lo=d["ci95"][0], hi=d["ci95"][1]))
    if summary.get("skill"):
        k = summary["skill"]
        console.print(
            tr(
                "tune_best_skill",
                lang,
                strong=data["strong"],
                weak=data["weak"],
                share=k["win_share"],
                hands=k["hands"],
                lo=k["ci95"][0],
                hi=k["ci95"][1],
            )
        )
