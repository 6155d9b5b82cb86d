"""What the lab's commands share: the options every study takes, running a study with
progress and clear errors, and the small formatters of its tables."""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import math
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

import xtarot
from xtarot.cli.i18n import pick_lang, say_error
from xtarot.cli.lab.text import tr
from xtarot.cli.options import (
    JsonOpt,
    LangOpt,
    OptionOpt,
    RayOpt,
    WorkersOpt,
)
from xtarot.cli.progress import progress
from xtarot.engine import ConfigError

Printer = Callable[[Console, dict[str, Any], str], None]


# -- options --------------------------------------------------------------------------------
GamesOpt = Annotated[int, typer.Option("--games", "-n", help="Matches (deals) to play.", min=1)]
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Seed of the run: every match's seed derives from it.")
]
StartOpt = Annotated[
    int,
    typer.Option(
        "--start", min=0, help="First game index (split one design across machines: 0, 5000, …)."
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Lab directory: one Parquet row per match + manifest; resumes and merges.",
    ),
]
AgentsOpt = Annotated[
    str,
    typer.Option(
        "--agents",
        "-a",
        help="Bots, comma-separated, rotated over the seats (random, heuristic, ismcts, pimc; "
        "ismcts:N / pimc:N set a budget; package.module:factory for your own).",
    ),
]
StrongOpt = Annotated[str, typer.Option("--strong", help="The stronger bot.")]
WeakOpt = Annotated[str, typer.Option("--weak", help="The weaker bots' name.")]
RestrictOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--restrict",
        metavar="SEAT:RULE",
        help="Restrict a seat (in play order, from 1): '2:no-chi', '1:max-bid=7', "
        "'3:never=draw discard' (repeatable; `xtarot lab restrictions GAME` lists them).",
    ),
]


@dataclass(frozen=True)
class Run:
    """The options every study command shares, as given on its command line."""

    lang: str
    seed: int
    workers: int | None
    ray: str | None
    out: Path | None
    option: list[str] | None
    restrict: list[str] | None
    as_json: bool
    start: int | None = None  # None: the study has no --start (tune)

    def study_kwargs(self, options: dict[str, Any], update: Callable[..., None]) -> dict[str, Any]:
        """The keyword arguments every ``run_*`` study function takes from them."""
        kwargs: dict[str, Any] = {
            "seed": self.seed,
            "options": options,
            "restrict": self.restrict or [],
            "workers": self.workers,
            "ray": self.ray,
            "out": self.out,
            "command": command_line(),
            "on_progress": update,
        }
        if self.start is not None:
            kwargs["start"] = self.start
        return kwargs


def _shared(start: bool, out: Any) -> list[inspect.Parameter]:
    names: list[tuple[str, Any, Any]] = [
        ("seed", SeedOpt, 1),
        ("start", StartOpt, 0),
        ("workers", WorkersOpt, None),
        ("ray", RayOpt, None),
        ("out", out, None),
        ("option", OptionOpt, None),
        ("restrict", RestrictOpt, None),
        ("as_json", JsonOpt, False),
        ("lang", LangOpt, None),
    ]
    kind = inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter(name, kind, annotation=annotation, default=default)
        for name, annotation, default in names
        if start or name != "start"
    ]


def study_command(
    *, start: bool = True, out: Any = OutOpt
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a study command the options every study shares (--seed, --start, --workers,
    --ray, --out, --option, --restrict, --json, --lang): typer reads them from the
    command's signature, after its own; the command receives them as one ``run``
    argument (:class:`Run`)."""

    def decorate(func: Callable[..., None]) -> Callable[..., None]:
        own = [
            p for p in inspect.signature(func, eval_str=True).parameters.values() if p.name != "run"
        ]
        shared = _shared(start, out)
        names = [p.name for p in shared]

        @functools.wraps(func)
        def command(**kwargs: Any) -> None:
            given = {name: kwargs.pop(name) for name in names}
            lang = lang_of(given.pop("lang"))
            func(**kwargs, run=Run(lang=lang, **given))

        parameters = [*own, *shared]
        command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in parameters}
        return command

    return decorate


def play(
    run: Run,
    game: str,
    players: int | None,
    study: str,
    printer: Printer,
    *,
    module: str = "studies",
    **own: Any,
) -> None:
    """Run the study function ``xtarot.lab.<module>.<study>`` for GAME with the command's
    own arguments and the shared ones, then print its tables (or its JSON)."""
    # the game, options, bots and variants first: a typo is reported at once, before the
    # analysis libraries (pandas, scipy) take seconds to load
    n = players_of(game, players, run.lang)
    options = options_of(run.option, run.lang)
    precheck(own, run.lang)
    found = lab_module(module, run.lang)
    call = getattr(found, study)
    run_study(
        run.lang,
        run.out,
        run.as_json,
        lambda update: call(game, n, **own, **run.study_kwargs(options, update)),
        printer,
    )


# -- plumbing -------------------------------------------------------------------------------
def err_console() -> Console:
    return Console(stderr=True, highlight=False, markup=False, soft_wrap=True)


def out_console() -> Console:
    return Console(highlight=False, markup=False)


def fail(message: str, lang: str = "en", code: int = 2) -> NoReturn:
    sep = "：" if lang == "ja" else ": "
    err_console().print(Text(f"{tr('error', lang)}{sep}{say_error(message, lang)}", style="red"))
    raise typer.Exit(code)


def lang_of(chosen: str | None) -> str:
    try:
        return pick_lang(chosen)
    except ValueError as err:
        fail(str(err))


def lab_module(name: str, lang: str) -> Any:
    """``xtarot.lab.<name>`` (fails clearly without the lab extra)."""
    try:
        return importlib.import_module(f"xtarot.lab.{name}")
    except ImportError as err:
        fail(str(err), lang, code=1)


def players_of(game: str, players: int | None, lang: str) -> int:
    for info in xtarot.games():
        if info.id == game:
            if players is not None:
                return players
            return 4 if 4 in info.players else info.min_players
    known = ", ".join(i.id for i in xtarot.games())
    fail(f"unknown game {game!r}; games: {known}", lang)


def options_of(items: list[str] | None, lang: str) -> dict[str, Any]:
    from xtarot.lab.runner import Variant

    try:
        return Variant.parse_options(",".join(items or []))
    except ValueError as err:
        fail(str(err), lang)


def precheck(own: dict[str, Any], lang: str) -> None:
    """Parse a study's bots (``agents``, ``strong``, ``weak``) and rule variants the way
    the study will, failing with the same message."""
    from xtarot.lab.runner import Bot, Variant

    bots = [*(own.get("agents") or []), own.get("strong"), own.get("weak")]
    try:
        for bot in bots:
            if isinstance(bot, str):
                Bot.parse(bot)
        for variant in own.get("variants") or []:
            if isinstance(variant, str):
                Variant.parse_options(variant)
    except ValueError as err:
        fail(str(err), lang)


def comma_list(spec: str) -> list[str]:
    return [a.strip() for a in spec.split(",") if a.strip()]


def command_line() -> str:
    return shlex.join(["xtarot", *sys.argv[1:]])


def guarded(lang: str, out: Path | None, call: Callable[[], Any]) -> Any:
    """Run a study; turn the lab's errors into messages and Ctrl-C into advice."""
    from xtarot.lab.store import LabError

    try:
        return call()
    except KeyboardInterrupt:
        saved = (
            tr("interrupted_saved", lang, out=out)
            if out is not None
            else tr("interrupted_lost", lang)
        )
        err_console().print(Text(tr("interrupted", lang, saved=saved), style="yellow"))
        raise typer.Exit(130) from None
    except (ConfigError, LabError, ValueError) as err:
        fail(str(err), lang)
    except ImportError as err:
        fail(str(err), lang, code=1)


def run_study(
    lang: str,
    out: Path | None,
    as_json: bool,
    call: Callable[[Callable[..., None]], Any],
    printer: Printer,
) -> None:
    """Run a study with progress on stderr, then print it: one JSON object with
    ``--json``, else the study's tables."""
    with progress(tr("progress", lang), lang, quiet=as_json) as update:
        result = guarded(lang, out, lambda: call(update))
    data = result.to_dict()
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        printer(out_console(), data, lang)


# -- formatting -----------------------------------------------------------------------------
def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def p_text(x: float | None) -> str:
    return "–" if x is None else f"{x:.3g}"


def seat_name(n: int, by: str, lang: str) -> str:
    return tr("table_seat" if by == "table" else "seat", lang, n=n + 1)


def share_ci(x: float | None, ci: list[float | None]) -> str:
    lo, hi = ci
    if x is None or lo is None or hi is None:
        return "–"
    return f"{100 * x:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def hands_text(x: float | None, lang: str, longest: int) -> str:
    """Whole hands (the first length that reaches the target)."""
    return tr("luck_never", lang, n=longest) if x is None else str(math.ceil(x - 1e-9))


def study_title(key: str, data: dict[str, Any], lang: str) -> str:
    """The title of a study's table: the text ``key`` with the game, players, matches
    and bots of ``data``."""
    return tr(
        key,
        lang,
        game=data["game"],
        players=data["players"],
        games=data["games"],
        agents=",".join(data["agents"]),
    )


def print_footer(console: Console, data: dict[str, Any], lang: str) -> None:
    seconds = data.get("seconds") or 0.0
    rate = data.get("played", data["matches"]) / seconds if seconds > 0 else 0.0
    out = tr("saved_in", lang, out=data["out"]) if data.get("out") else ""
    seeds = ",".join(map(str, data.get("seeds") or [data.get("seed")]))
    console.print(
        Text(tr("footer", lang, seed=seeds, seconds=seconds, rate=rate, out=out), style="dim")
    )


def print_restricted(console: Console, data: dict[str, Any], lang: str) -> None:
    rules = data.get("restrictions") or []
    if rules:
        console.print(Text(tr("restricted", lang, rules=", ".join(rules)), style="dim"))
