"""``xtarot data``: self-play matches as data for researchers.

``xtarot data export GAME -p N --games K --agents a,b --out FILE.parquet`` plays bots
against bots and writes one Parquet row per decision (the acting seat's view tensor,
the legal mask, the move, the true hidden cards for training, the results); the schema
is in ``docs/adapters/data.md``.  Needs pyarrow: ``pip install "xtarot[data]"``.
Messages in English or Japanese (``--lang``), as the other commands.
"""

from __future__ import annotations

import errno
import json
import os
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from xtarot import agents as _agents
from xtarot.agents import Agent, make_agent
from xtarot.cli.i18n import os_reason, t
from xtarot.cli.options import (
    ForceOpt,
    GameArg,
    GamesOpt,
    JsonOpt,
    LangOpt,
    OptionOpt,
    PlayersOpt,
    RunSeedOpt,
    run_seed,
)
from xtarot.cli.play import make_bot, unwritable
from xtarot.cli.progress import progress

__all__ = ["DEFAULT_PLAYOUTS", "BotFactory", "app", "bot_settings"]

#: play-outs a move for ``expert`` and ``hard`` when no budget is given (their own
#: default is a clock, which would make a file depend on the machine's speed)
DEFAULT_PLAYOUTS = 100

app = typer.Typer(
    name="data",
    help="Self-play matches as data for researchers: one Parquet row per decision "
    "(needs pyarrow: pip install 'xtarot\\[data]').",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

BOT_NAMES = ", ".join(_agents.AGENTS)


def _size(n: int) -> str:
    """A file size for people: ``812 kB``, ``3.4 MB``.

    >>> _size(812_000), _size(3_400_000), _size(999)
    ('812 kB', '3.4 MB', '999 B')
    """
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} MB"
    return f"{n / 1000:.0f} kB" if n >= 1000 else f"{n} B"


def bot_settings(iterations: int | None, seconds: float | None) -> dict[str, dict[str, Any]]:
    """The settings of the search bots named without a budget: ``--seconds`` for every
    one, ``--iterations`` for ismcts, expert and hard, and expert and hard at
    :data:`DEFAULT_PLAYOUTS` play-outs when neither is given.

    >>> bot_settings(None, None)["expert"], bot_settings(50, None)["ismcts"]
    ({'iterations': 100}, {'iterations': 50})
    """
    settings: dict[str, dict[str, Any]] = {}
    if seconds is not None:
        for name in sorted(_agents.SEARCHING):
            settings[name] = {"seconds": seconds}
    if iterations is not None:
        for name in ("ismcts", "expert", "hard"):
            settings.setdefault(name, {})["iterations"] = iterations
    if iterations is None and seconds is None:
        for name in ("expert", "hard"):
            settings[name] = {"iterations": DEFAULT_PLAYOUTS}
    return settings


class BotFactory:
    """``name`` (with the run's settings for it) or ``name:N`` (a budget) -> fresh
    agents by seed; picklable, for the worker processes."""

    def __init__(self, spec: str, settings: dict[str, dict[str, Any]]) -> None:
        self.spec = spec
        name, sep, _budget = spec.partition(":")
        self.settings = {} if sep else dict(settings.get(name, {}))

    def __call__(self, seed: int) -> Agent:
        if ":" in self.spec:
            return make_bot(self.spec, seed)
        return make_agent(self.spec, seed, **self.settings)


@app.command("export")
def export(
    game: GameArg,
    out: Annotated[
        Path,
        typer.Option("--out", help="The Parquet file to write (FILE.parquet)."),
    ],
    players: PlayersOpt = None,
    n_games: GamesOpt = 100,
    agents: Annotated[
        str | None,
        typer.Option(
            "--agents",
            "-a",
            help="Comma list of bots, in seat order, turned by one seat each match (one "
            f"name: every seat). A budget as NAME:N, e.g. expert:200. Bots: {BOT_NAMES}. "
            "Default: the game's heuristic.",
        ),
    ] = None,
    seed: RunSeedOpt = None,
    option: OptionOpt = None,
    iterations: Annotated[
        int | None,
        typer.Option(
            "--iterations",
            min=1,
            help="ISMCTS iterations (expert, hard: play-outs) per move; expert and hard "
            f"default to {DEFAULT_PLAYOUTS} here, so that a seed fixes the file.",
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--seconds",
            help="Thinking time per move of the search bots instead (the file then depends "
            "on the machine's speed).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-w",
            min=1,
            help="Processes playing the matches (the file is the same for any number).",
        ),
    ] = 1,
    force: ForceOpt = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Play bots against bots and write every decision to a Parquet file: the acting
    seat's view tensor, the legal mask, the move, the true hidden cards (for training
    only) and the results. Schema: docs/adapters/data.md."""
    from xtarot.cli import main as cli

    lang = cli._lang(lang)
    info = cli._info(game, lang)
    g = cli._load(info, players, cli._options(info, option, lang), lang)
    if n_games < 1:
        cli.fail(t("games_count", lang), lang)
    specs = [s.strip() for s in (agents or cli.default_bot(info.id)).split(",") if s.strip()]
    if not specs:
        cli.fail(t("tour_agents", lang, bots=BOT_NAMES), lang)
    for spec in dict.fromkeys(specs):
        cli._check_bot(spec, info.id, lang)
    if out.suffix != ".parquet":
        cli.fail(t("data_suffix", lang, path=out), lang)
    if out.is_dir():
        err: OSError | None = IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    elif out.exists() and not force:
        cli.fail(t("data_exists", lang, path=out), lang)
    else:  # written beside the file first (see export_matches)
        err = unwritable(out.with_name(out.name + ".partial"))
    if err is not None:
        cli.fail(t("data_unwritable", lang, path=out, why=os_reason(err, lang)), lang)
    from xtarot.adapters.dataset import export_matches

    settings = bot_settings(iterations, seconds)
    seed = run_seed(seed)
    command = ["xtarot", "data", "export", info.id, "-p", str(g.players)]
    command += ["--games", str(n_games), "--agents", ",".join(specs), "--seed", str(seed)]
    for item in option or []:
        command += ["-o", item]
    if iterations is not None:
        command += ["--iterations", str(iterations)]
    if seconds is not None:
        command += ["--seconds", f"{seconds:g}"]
    command += ["--out", str(out)]
    err_console = Console(stderr=True, highlight=False, markup=False, soft_wrap=True)
    if seconds is not None and not as_json:
        err_console.print(Text(t("data_clock", lang), style="yellow"))
    try:
        with progress(t("data_progress", lang), lang, total=n_games, quiet=as_json) as update:
            summary = export_matches(
                g,
                [(spec, BotFactory(spec, settings)) for spec in specs],
                games=n_games,
                seed=seed,
                out=out,
                command=shlex.join(command),
                deterministic=seconds is None,
                on_game=update,
                workers=workers,
            )
    except ImportError:
        cli.fail(t("data_no_pyarrow", lang), lang, code=1)
    except OSError as error:
        cli.fail(t("data_unwritable", lang, path=out, why=os_reason(error, lang)), lang)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "path": str(summary.path),
                    "game": info.id,
                    "players": g.players,
                    "options": dict(g.options),
                    "matches": summary.matches,
                    "rows": summary.rows,
                    "bytes": summary.bytes,
                    "seconds": summary.seconds,
                    "rows_per_second": summary.rows_per_second,
                    "seed": seed,
                    "command": shlex.join(command),
                },
                ensure_ascii=False,
            )
        )
        return
    console = Console(highlight=False, markup=False, soft_wrap=True)
    console.print(
        t(
            "data_done",
            lang,
            rows=summary.rows,
            games=summary.matches,
            path=out,
            size=_size(summary.bytes),
            seconds=summary.seconds,
            rate=summary.rows_per_second,
            seed=seed,
        )
    )
    console.print(Text(t("data_schema", lang), style="dim"))
