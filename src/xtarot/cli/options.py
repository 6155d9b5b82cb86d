"""The command-line options several commands share, declared once.

``xtarot simulate``, ``tournament``, ``data export`` and the lab's studies take the
same game argument and the same ``--players``, ``--games``, ``--option``, ``--json``,
``--lang``, ``--workers`` and ``--ray``; each is an ``Annotated`` alias here, so their
names, short forms and help read the same everywhere.
"""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = [
    "GameArg",
    "GamesOpt",
    "JsonOpt",
    "LangOpt",
    "OptionOpt",
    "PlayersOpt",
    "RayOpt",
    "WorkersOpt",
]

GameArg = Annotated[str, typer.Argument(help="Game id (see `xtarot games`).")]
PlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        "-p",
        help="Number of players (default: 4 when the game allows it, else its minimum).",
    ),
]
GamesOpt = Annotated[int, typer.Option("--games", "-n", help="Number of matches.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", help="Language of the output: ja or en (default: from LC_ALL/LANG)."),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="A game option as KEY=VALUE (repeatable), e.g. --option teams=true.",
    ),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", "-w", min=1, help="Processes (default: every CPU; 1: no pool)."),
]
RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="local|ADDRESS",
        help="Run on Ray: 'local' starts one here (with --workers CPUs), an address joins "
        "a cluster (every node needs xtarot installed; needs the lab extra).",
    ),
]
