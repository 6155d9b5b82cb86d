"""The command-line options several commands share, declared once.

``xtarot simulate``, ``tournament``, ``data export`` and the lab's studies take the
same game argument and the same ``--players``, ``--games``, ``--option``, ``--json``,
``--lang``, ``--workers`` and ``--ray``; each is an ``Annotated`` alias here, so their
names, short forms and help read the same everywhere.  ``xtarot data export`` and
``xtarot train`` also share a recorded ``--seed`` (:data:`RunSeedOpt`, with
:func:`run_seed` for its default) and ``--force``.
"""

from __future__ import annotations

import random
from typing import Annotated

import typer

__all__ = [
    "ForceOpt",
    "GameArg",
    "GamesOpt",
    "JsonOpt",
    "LangOpt",
    "OptionOpt",
    "PlayersOpt",
    "RayOpt",
    "RunSeedOpt",
    "WorkersOpt",
    "run_seed",
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
RunSeedOpt = Annotated[
    int | None,
    typer.Option("--seed", help="Seed of the run (default: random, printed and recorded)."),
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace the --out file when it exists.")]


def run_seed(seed: int | None) -> int:
    """The seed a run uses: the one given, or a fresh random one (which the command
    then prints or records, so the run can be made again)."""
    return random.SystemRandom().randrange(1, 10**9) if seed is None else seed
