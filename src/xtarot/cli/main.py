"""The ``xtarot`` command: games, rules, play against bots, simulate, tournament, replay,
the lab (``xtarot lab``) and data for researchers (``xtarot data export``).

Run ``xtarot --help`` (or ``python -m xtarot.cli.main --help``).  Output is in
English or Japanese (``--lang en|ja``; by default Japanese when ``LC_ALL`` /
``LANG`` start with ``ja``), error messages included.  Seats are numbered from 1 on
the command line and on screen (``--seat 1`` is the first seat); records and the
Python API count from 0.

Exit codes: 0 done; 1 a corrupt record; 2 a bad game, player count, option or bot
(or a ``--save`` file that cannot be written); 3 a match abandoned (``q`` or the input
closed); 130 Ctrl-C.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

import xtarot
from xtarot import agents as _agents
from xtarot.agents.heuristic import STRATEGIES
from xtarot.cli.data import app as data_app
from xtarot.cli.front import Front, PlainFront
from xtarot.cli.i18n import (
    os_reason,
    paren,
    pick_lang,
    rules_text,
    say_error,
    seat_label,
    t,
)
from xtarot.cli.lab import app as lab_app
from xtarot.cli.options import (
    GameArg,
    GamesOpt,
    JsonOpt,
    LangOpt,
    OptionOpt,
    PlayersOpt,
    RayOpt,
    WorkersOpt,
    run_seed,
)
from xtarot.cli.play import PlaySession, make_bot, rebuild, unwritable
from xtarot.cli.progress import progress
from xtarot.cli.replay import perspective, steps
from xtarot.cli.simulate import simulate as run_simulation
from xtarot.cli.text import JMarkdown
from xtarot.cli.train import app as train_app
from xtarot.engine import ConfigError, Game, GameInfo, Option, RecordError
from xtarot.lab import run_tournament
from xtarot.lab.tournament import planned_matches

__all__ = ["app", "main"]

app = typer.Typer(
    name="xtarot",
    help="Play and study the card games of the Xtarot rules collection.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

BOT_NAMES = ", ".join(getattr(_agents, "AGENTS", {"random": None}))

PlainOpt = Annotated[
    bool,
    typer.Option(
        "--plain",
        help="Line by line, without the full-screen app (also when the input or the "
        "output is not a terminal, with TERM=dumb, or with XTAROT_PLAIN=1).",
    ),
]


def _out() -> Console:
    return Console(highlight=False, markup=False)


def full_screen(plain: bool = False, env: dict[str, str] | None = None) -> bool:
    """Whether ``play`` and ``replay`` open the full-screen app: on a terminal (input
    and output), unless ``--plain``, ``XTAROT_PLAIN`` (not empty or ``0``) or a
    terminal that cannot draw one (``TERM=dumb``).

    >>> full_screen(True), full_screen(env={"TERM": "dumb"})
    (False, False)
    """
    env = dict(os.environ) if env is None else env
    if plain or env.get("XTAROT_PLAIN", "") not in ("", "0") or env.get("TERM") == "dumb":
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def _front(plain: bool, console: Console) -> Front:
    """The line-by-line terminal or the full-screen app (imported only when used)."""
    if not full_screen(plain):
        return PlainFront(console)
    from xtarot.tui.play import AppFront

    return AppFront()


def _run(session: PlaySession, console: Console) -> int:
    """Play the session on its front end; the exit code.  After the full-screen app,
    the end of the match (the result, the command to play it again, where it was
    saved) is printed on the terminal, where it stays."""
    if isinstance(session.front, PlainFront):
        return session.run()
    from xtarot.tui.play import AppFront, PlayApp

    code = PlayApp(session).run()
    assert isinstance(session.front, AppFront)
    for item in session.front.epilogue:
        console.print(item, soft_wrap=isinstance(item, Text))
    return 1 if code is None else code


def _err() -> Console:
    return Console(stderr=True, highlight=False, markup=False, soft_wrap=True)


def fail(message: str, lang: str = "en", code: int = 2) -> NoReturn:
    """Print ``message`` (an engine message is said in ``lang``) in red on stderr and
    exit with ``code`` (no traceback)."""
    sep = "：" if lang == "ja" else ": "
    _err().print(Text(f"{t('error', lang)}{sep}{say_error(message, lang)}", style="red"))
    raise typer.Exit(code)


def _lang(chosen: str | None) -> str:
    try:
        return pick_lang(chosen)
    except ValueError as err:
        fail(str(err))


def _info(game_id: str, lang: str) -> GameInfo:
    for info in xtarot.games():
        if info.id == game_id:
            return info
    known = ", ".join(i.id for i in xtarot.games())
    fail(t("unknown_game", lang, game=game_id, games=known), lang)


def _options(info: GameInfo, items: list[str] | None, lang: str) -> dict[str, Any]:
    """``KEY=VALUE`` texts -> keyword options (the engine converts and checks them)."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            fail(t("option_form", lang, text=item), lang)
        parsed: Any = value.strip()
        try:
            opt = info.option(key)
        except KeyError:
            opt = None  # the engine names the allowed options
        if opt is not None and opt.nullable and parsed.lower() in ("none", "null"):
            parsed = None
        out[key] = parsed
    return out


def default_players(info: GameInfo) -> int:
    """The smallest sensible table: 4 when the game allows it, else its minimum."""
    preferred = getattr(info, "default_players", None)
    if isinstance(preferred, int) and preferred in info.players:
        return preferred
    return 4 if 4 in info.players else info.min_players


def _load(info: GameInfo, players: int | None, options: dict[str, Any], lang: str) -> Game:
    try:
        return xtarot.load(
            info.id, players=default_players(info) if players is None else players, **options
        )
    except ConfigError as err:
        fail(str(err), lang)


def _bots(spec: str, seats: list[int], lang: str, game_id: str) -> dict[int, str]:
    """``random`` (every bot seat) or a comma list, one name per bot seat."""
    names = [b.strip() for b in spec.split(",") if b.strip()] or ["random"]
    if len(names) == 1:
        names = names * len(seats)
    if len(names) != len(seats):
        fail(t("bots_count", lang, need=len(seats), got=len(names)), lang)
    for name in set(names):
        _check_bot(name, game_id, lang)
    return dict(zip(seats, names, strict=True))


def _check_bot(name: str, game_id: str, lang: str) -> None:
    """Fail early (exit 2) for an unknown bot or a heuristic the game does not have."""
    try:
        make_bot(name, 0)
    except ValueError as err:
        fail(str(err), lang)
    if name == "heuristic" and game_id not in STRATEGIES:
        known = ", ".join(STRATEGIES)
        fail(t("no_heuristic", lang, game=game_id, known=known), lang)


def default_bot(game_id: str) -> str:
    """The bot a person plays against by default: the game's heuristic if it has one,
    else a light search (ISMCTS, 200 iterations a move: about 0.2-0.6 s)."""
    return "heuristic" if game_id in STRATEGIES else "ismcts:200"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"xtarot {xtarot.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Play and study the card games of the Xtarot rules collection (エクスタロット)."""


# -- games -------------------------------------------------------------------------------
#: Option help that names seats: shown to people with seats counted from 1.
_HELP_SEATS = {
    ("sono-arcana", "teams"): (
        "4 players: seats 1+3 against 2+4, team score = sum",
        "4人戦：向かい合った2人（1番席+3番席 対 2番席+4番席）のチーム戦、得点は合計",
    ),
}


def _players_text(info: GameInfo, lang: str) -> str:
    """``3–8 players`` / ``2 players`` (``3〜8人``)."""
    if info.min_players == info.max_players:
        return t("players_n", lang, n=info.min_players)
    dash = "〜" if lang == "ja" else "–"
    return t("players_n", lang, n=f"{info.min_players}{dash}{info.max_players}")


def _value_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _option_lines(info: GameInfo, o: Option, lang: str) -> list[RenderableType]:
    """``teams = true | false   default false · 4 players only`` and the help."""
    head = Text(o.name, style="bold")
    if o.choices is not None:
        values = " | ".join(_value_text(c) for c in o.choices)
    elif o.kind is bool:
        values = "true | false"
    else:
        values = t("opt_number" if o.kind is int else "opt_text", lang)
    head.append(f" = {values}")
    default = t("opt_auto", lang) if o.default is None else _value_text(o.default)
    head.append("   " + t("opt_default", lang, value=default), style="cyan")
    if o.players:
        counts = "/".join(map(str, o.players))
        head.append("  ·  " + t("opt_only", lang, counts=counts), style="dim")
    en, ja = _HELP_SEATS.get((info.id, o.name), (o.help_en, o.help_ja))
    return [head, Padding(Text(ja if lang == "ja" else en, style="dim"), (0, 0, 0, 4))]


@app.command()
def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    lang: LangOpt = None,
) -> None:
    """List the registered games: names, player counts, options and their defaults."""
    infos = xtarot.games()
    if as_json:
        typer.echo(json.dumps([i.to_dict() for i in infos], ensure_ascii=False, indent=1))
        return
    lang = _lang(lang)
    console = _out()
    console.print(Text(t("games_title", lang), style="bold"))
    console.print(Text(t("games_usage", lang), style="dim"))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    for info in infos:
        names = Text(f"{info.name_ja} / {info.name_en}", style="bold")
        deck = t("deck_classic" if info.deck.lower() == "classic" else "deck_xtarot", lang)
        facts = Text(f"{_players_text(info, lang)} · {deck}")
        lines: list[RenderableType] = [names, facts]
        for o in info.options:
            lines += _option_lines(info, o, lang)
        grid.add_row("", "")
        grid.add_row(info.id, Group(*lines))
    console.print(grid)


# -- rules -------------------------------------------------------------------------------
@app.command()
def rules(
    game: GameArg,
    lang: LangOpt = None,
) -> None:
    """Show a game's rules summary."""
    lang = _lang(lang)
    info = _info(game, lang)
    found = rules_text(info.id, lang)
    if found is None:
        fail(t("rules_missing", lang, game=info.id, lang=lang), lang, code=1)
    text, got = found
    console = _out()
    if got != lang:
        console.print(Text(t("rules_fallback", lang), style="yellow"))
    console.print(JMarkdown(text))


# -- play --------------------------------------------------------------------------------
def _meta_bots(meta: dict[str, Any], players: int, seat: int) -> dict[int, str]:
    """The bot names a record's meta stores (a list per seat, or a seat -> name map)."""
    raw = meta.get("bots")
    names: dict[int, str] = {}
    if isinstance(raw, list):
        names = {s: n for s, n in enumerate(raw) if isinstance(n, str)}
    elif isinstance(raw, dict):
        names = {int(s): n for s, n in raw.items() if isinstance(n, str)}
    return {s: names.get(s, "random") for s in range(players) if s != seat}


@app.command()
def play(
    game: Annotated[
        str | None, typer.Argument(help="Game id (see `xtarot games`); not with --resume.")
    ] = None,
    players: PlayersOpt = None,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Your seat, 1..players (default 1).")
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Bot for the other seats, or a comma list, one per other seat: a level, "
            "easy | normal | hard (hard: the expert bot, 0.8 s a move), or a bot "
            f"by name ({BOT_NAMES}; ismcts:N / pimc:N / expert:N set a budget); default: "
            "the game's heuristic bot (= normal) when it has one, else ismcts:200.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the match (default: random, shown at the end)."),
    ] = None,
    lang: LangOpt = None,
    option: OptionOpt = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Write the game record to this file (checked before the match starts).",
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Continue a match saved by `xtarot play` from this file."),
    ] = None,
    fast: Annotated[bool, typer.Option("--fast", help="Do not pause between bot moves.")] = False,
    delay: Annotated[
        float | None,
        typer.Option("--delay", help="Seconds to pause after each bot move (default 0.6)."),
    ] = None,
    auto: Annotated[
        bool,
        typer.Option("--auto", help="Play your forced moves (a single legal move) at once."),
    ] = False,
    plain: PlainOpt = False,
) -> None:
    """Play one seat in the terminal against bots (or continue a saved match): full
    screen on a terminal, line by line with --plain."""
    if resume is not None:
        _resume(
            resume, game, players, seat, bots, seed, lang, option, save, fast, delay, auto, plain
        )
        return
    lang = _lang(lang)
    if game is None:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            fail(t("need_game", lang), lang)
        game = _choose_game(lang)
    info = _info(game, lang)
    options = _options(info, option, lang)
    g = _load(info, players, options, lang)
    number = 1 if seat is None else seat
    if not 1 <= number <= g.players:
        fail(t("bad_seat", lang, seat=number, last=g.players), lang)
    you = number - 1  # the API's seats count from 0
    bots = bots or default_bot(info.id)
    names = _bots(bots, [s for s in range(g.players) if s != you], lang, info.id)
    _check_save(save, lang)
    chosen = seed is not None
    seed = run_seed(seed)
    console = _out()
    front = _front(plain, console)
    _start_lines(front, g, you, lang)
    # A seed drawn at random is shown only when the match ends: it fixes the deal.
    front.say(Text(t("seed_line" if chosen else "seed_hidden", lang, seed=seed), style="dim"))
    command = f"xtarot play {info.id} --players {g.players} --seat {number} --seed {seed}"
    command += f" --bots {bots}" + "".join(
        f" --option {k}={_value_text(g.options.get(k, v))}" for k, v in options.items()
    )
    meta = {
        "client": "xtarot play",
        "human_seat": you,
        "bots": [names.get(s) for s in range(g.players)],
        "lang": lang,
        "fast": fast,
        "delay": delay,
        "auto": auto,
        "command": command,
    }
    session = PlaySession(
        console,
        g,
        you,
        names,
        seed,
        lang,
        save=save,
        fast=fast,
        delay=0.6 if delay is None else delay,
        meta=meta,
        command=command,
        auto=auto,
        front=front,
    )
    raise typer.Exit(_run(session, console))


def _check_save(save: Path | None, lang: str) -> None:
    """Refuse (exit 2, before anything is played) a ``--save`` file that cannot be
    written: a missing or read-only folder, a folder's name."""
    if save is None:
        return
    err = unwritable(save)
    if err is not None:
        fail(t("save_unwritable", lang, path=save, why=os_reason(err, lang)), lang)


def _choose_game(lang: str) -> str:
    """Ask which game to play (``xtarot play`` alone, in a terminal)."""
    console = _out()
    infos = xtarot.games()
    console.print(Text(t("games_title", lang), style="bold"))
    for i, info in enumerate(infos, 1):
        line = Text(f"{i:>2}. ", style="cyan")
        line.append(info.name(lang), style="bold")
        line.append(paren(f"{info.id}, {_players_text(info, lang)}", lang), style="dim")
        console.print(line)
    ids = {info.id for info in infos}
    while True:
        try:
            answer = console.input(Text(t("which_game", lang) + " ", style="bold")).strip()
        except (EOFError, KeyboardInterrupt):
            raise typer.Exit(0) from None
        if answer.isdigit() and 1 <= int(answer) <= len(infos):
            return infos[int(answer) - 1].id
        if answer in ids:
            return answer


def _options_line(g: Game, lang: str) -> str | None:
    """The options that differ from the game's defaults (``Options: hands=1``)."""
    defaults = {o.name: o.default for o in g.info.options}
    chosen = {k: v for k, v in g.options.items() if defaults.get(k, v) != v}
    if not chosen:
        return None
    # Canonical values: -o teams=yes (or 1, or TRUE) is shown as teams=true.
    shown = ", ".join(f"{k}={_value_text(v)}" for k, v in chosen.items())
    return t("options_line", lang, options=shown)


def _start_lines(front: Front, g: Game, seat: int, lang: str) -> None:
    info = g.info
    title = t(
        "match_start",
        lang,
        game=info.name(lang) + paren(info.id, lang),
        players=g.players,
        seat=seat_label(seat, lang),
    )
    front.say(Text(title, style="bold"))
    line = _options_line(g, lang)
    if line:
        front.say(line)


def _resume(
    path: Path,
    game: str | None,
    players: int | None,
    seat: int | None,
    bots: str | None,
    seed: int | None,
    lang: str | None,
    option: list[str] | None,
    save: Path | None,
    fast: bool,
    delay: float | None,
    auto: bool,
    plain: bool = False,
) -> None:
    """``xtarot play --resume FILE``: the saved session, exactly as it was.  It speaks
    the language of ``--lang`` or the locale (not the one the record was played in)."""
    given = [
        name
        for name, value in (
            ("--players", players),
            ("--seat", seat),
            ("--bots", bots),
            ("--seed", seed),
            ("--option", option),
        )
        if value
    ]
    lang = _lang(lang)
    try:
        record = xtarot.load_record(path)
        state = rebuild(record)
    except RecordError as err:
        fail(str(err), lang, code=1)
    meta = dict(record.get("meta") or {})
    if given:
        fail(t("resume_conflict", lang, what=", ".join(given)), lang)
    if game is not None and game != record["game"]:
        fail(t("resume_other_game", lang, game=game, saved=record["game"]), lang)
    g = state.game
    you = meta.get("human_seat", 0)
    if not isinstance(you, int) or not 0 <= you < g.players:
        you = 0
    names = _meta_bots(meta, g.players, you)
    for name in set(names.values()):
        _check_bot(name, g.id, lang)
    _check_save(save, lang)
    if delay is None:
        saved_delay = meta.get("delay")
        delay = saved_delay if isinstance(saved_delay, int | float) else 0.6
    fast = fast or bool(meta.get("fast"))
    auto = auto or bool(meta.get("auto"))
    meta.update({"human_seat": you, "lang": lang, "fast": fast, "delay": delay, "auto": auto})
    console = _out()
    front = _front(plain, console)
    _start_lines(front, g, you, lang)
    session = PlaySession(
        console,
        g,
        you,
        names,
        record["seed"],
        lang,
        save=save if save is not None else path,
        fast=fast,
        delay=delay,
        meta=meta,
        command=meta.get("command") if isinstance(meta.get("command"), str) else None,
        state=state,
        resumed_from=path,
        auto=auto,
        front=front,
    )
    raise typer.Exit(_run(session, console))


# -- simulate ----------------------------------------------------------------------------
@app.command()
def simulate(
    game: GameArg,
    players: PlayersOpt = None,
    n_games: GamesOpt = 100,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the run (default: random, printed).")
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", help=f"Bot for every seat, or a comma list, one per seat ({BOT_NAMES})."
        ),
    ] = "random",
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    records: Annotated[
        Path | None, typer.Option("--records", help="Save every match's record in this folder.")
    ] = None,
    lang: LangOpt = None,
) -> None:
    """Bots-only matches: per-seat mean score and win share."""
    lang = _lang(lang)
    info = _info(game, lang)
    g = _load(info, players, _options(info, option, lang), lang)
    if n_games < 1:
        fail(t("games_count", lang), lang)
    names = _bots(bots, list(range(g.players)), lang, info.id)
    seed = run_seed(seed)
    with progress(t("sim_progress", lang), lang, total=n_games, quiet=as_json) as update:
        result = run_simulation(
            g,
            [names[s] for s in range(g.players)],
            games=n_games,
            seed=seed,
            records=records,
            on_game=update,
        )
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
        return
    console = _out()
    bots_text = ",".join(result["bots"]) if len(set(result["bots"])) > 1 else result["bots"][0]
    title = t(
        "sim_title", lang, games=n_games, game=info.name(lang), players=g.players, bots=bots_text
    )
    table = Table(title=title)
    table.add_column(t("col_seat", lang))
    table.add_column(t("col_mean", lang), justify="right")
    table.add_column(t("col_wins", lang), justify="right")
    for s in range(g.players):
        table.add_row(
            f"{seat_label(s, lang)} ({names[s]})",
            f"{result['mean_score'][s]:.3f}",
            f"{100 * result['win_share'][s]:.1f}%",
        )
    console.print(table)
    rate = result["games_per_second"] or float("inf")
    console.print(t("sim_time", lang, seconds=result["seconds"], rate=rate, seed=seed))


def _num(x: float) -> str:
    """A score as wide as it needs: ``-424``, ``32.5``, ``0.83``.

    >>> _num(-424.38), _num(32.5), _num(0.8312)
    ('-424', '32.5', '0.83')
    """
    if abs(x) >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"


# -- tournament ----------------------------------------------------------------------------
@app.command()
def tournament(
    game: GameArg,
    agents: Annotated[
        str, typer.Option("--agents", "-a", help=f"Comma list of bots to compare ({BOT_NAMES}).")
    ] = "heuristic,random",
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Number of players (default as for play)."),
    ] = None,
    n_games: GamesOpt = 100,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the run (default: random, printed).")
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--seconds",
            help="Thinking time per move of the search bots (ismcts, pimc, expert, hard).",
        ),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option("--iterations", help="ISMCTS iterations (expert, hard: play-outs) per move."),
    ] = None,
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Lab directory: one Parquet row per match + a manifest; resumes and merges "
            "(needs the lab extra).",
        ),
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="Play each deal once per seat arrangement (every bot holds every seat's "
            "cards, neighbours change); --games counts deals.",
        ),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Bots against bots with rotating seats (or duplicate deals): win shares with 95%
    intervals and ratings."""
    lang = _lang(lang)
    info = _info(game, lang)
    g = _load(info, players, _options(info, option, lang), lang)
    if n_games < 1:
        fail(t("games_count", lang), lang)
    names = [n.strip() for n in agents.split(",") if n.strip()]
    if not names:
        fail(t("tour_agents", lang, bots=BOT_NAMES), lang)
    for name in names:
        if name not in _agents.AGENTS:
            fail(t("unknown_bot", lang, name=name, bots=BOT_NAMES), lang)
    settings: dict[str, dict[str, Any]] = {}
    if seconds is not None:
        for name in sorted(_agents.SEARCHING):
            settings[name] = {"seconds": seconds}
    if iterations is not None:
        for name in ("ismcts", "expert", "hard"):
            settings.setdefault(name, {})["iterations"] = iterations
    seed = run_seed(seed)
    total = planned_matches(g.players, len(names), n_games, duplicate=duplicate)
    try:
        with progress(t("tour_progress", lang), lang, total=total, quiet=as_json) as update:
            result = run_tournament(
                info.id,
                g.players,
                names,
                n_games,
                seed=seed,
                options=g.options,
                settings=settings,
                on_game=lambda i: update(i + 1),
                workers=workers,
                ray=ray,
                out=out,
                duplicate=duplicate,
                command=shlex.join(["xtarot", *sys.argv[1:]]),
            )
    except ValueError as error:
        fail(str(error), lang)
    except ImportError as error:
        fail(str(error), lang, code=1)
    if as_json:
        typer.echo(json.dumps({**result.to_dict(), "seed": seed}, ensure_ascii=False))
        return
    title = t("tour_title", lang, games=result.games, game=info.name(lang), players=g.players)
    # Fits 80 columns: no side borders, each interval on its own line under its value
    # (a line is never cut: a cell too wide for the terminal folds, it is not elided).
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for key in ("col_agent", "col_seats", "col_win_ci", "col_vs_fair", "col_mean_ci", "col_rating"):
        table.add_column(
            t(key, lang), justify="left" if key == "col_agent" else "right", overflow="fold"
        )
    for row in result.to_dict()["agents"]:
        lo, hi = row["win_share_ci95"]
        mlo, mhi = row["mean_score_ci95"]
        table.add_row(
            row["agent"],
            str(row["seats"]),
            f"{100 * row['win_share']:.1f}%\n({100 * lo:.1f}–{100 * hi:.1f})",
            f"{row['win_share_vs_fair']:.2f}",
            f"{_num(row['mean_score'])}\n({_num(mlo)}–{_num(mhi)})",
            _rating(row),
        )
    console = _out()
    console.print(table)
    if not result.to_dict()["ratings_separate"]:
        console.print(t("tour_ratings_same", lang))
    console.print(t("tour_time", lang, seconds=result.seconds, players=g.players, seed=seed))


def _rating(row: dict[str, Any]) -> str:
    """The openskill skill ``mu`` with its 95% interval."""
    lo, hi = row["rating_ci95"]
    return f"{row['mu']:.1f}\n({lo:.1f}–{hi:.1f})"


# -- replay ------------------------------------------------------------------------------
@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON) saved by xtarot.")],
    lang: LangOpt = None,
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Line by line: wait for Enter after each move (q stops). The full-screen "
            "app always goes step by step.",
        ),
    ] = False,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            help="Show every card and the seed of an unfinished match too (by default it "
            "is shown only as the seat that saved it saw it).",
        ),
    ] = False,
    plain: PlainOpt = False,
) -> None:
    """Replay a saved match: every move as it was seen, trick winners, combats, draws,
    hand results and the final result; on a terminal, a full-screen app that shows the
    board at every step (forwards and back), line by line with --plain."""
    lang = _lang(lang)
    try:
        record = xtarot.load_record(file)
        state = xtarot.replay(record)
    except RecordError as err:
        fail(str(err), lang, code=1)
    info = state.game.info
    seat = perspective(record, state, reveal)
    game = info.name(lang) + paren(info.id, lang)
    if seat is None:
        title = t("replay_title", lang, game=game, players=state.players, seed=record["seed"])
    else:
        title = t("replay_title_secret", lang, game=game, players=state.players)
    intro: list[RenderableType] = [Text(title, style="bold")]
    line = _options_line(state.game, lang)
    if line:
        intro.append(Text(line))
    if seat is not None:
        note = t("replay_as_seat", lang, seat=seat_label(seat, lang))
        intro.append(Text(note, style="yellow"))
    if full_screen(plain):
        from xtarot.tui.replay import ReplayApp

        ReplayApp(record, lang, seat, intro).run()
        return
    console = _out()
    for item in intro:
        console.print(item)
    for item in steps(record, lang, seat):
        for line in item.items:
            console.print(line)
        if step and item.number:
            try:
                answer = console.input(Text(t("press_enter", lang), style="dim"))
            except (EOFError, KeyboardInterrupt):
                console.print("")
                step = False
                continue
            if answer.strip().lower() in ("q", "quit", "exit", "終了"):
                return


# -- serve -------------------------------------------------------------------------------
@app.command()
def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (0.0.0.0: your whole network).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="XTAROT_DB",
            help="SQLAlchemy URL of the tables' database (default: a SQLite file in your "
            "data folder), e.g. postgresql+psycopg://user:pw@host/xtarot.",
        ),
    ] = None,
    bot_processes: Annotated[
        int | None,
        typer.Option(
            "--bot-processes",
            min=0,
            max=64,
            help="Worker processes for the searching bots (hard, expert, ismcts, pimc), so "
            "that a thinking bot never delays another table. Default: one per CPU but one "
            "(at least 1, at most 8); 0: they think in threads of the server's process.",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            help="Server processes sharing this port and the database (PostgreSQL only; "
            "any process serves any table). Several `xtarot serve` on other ports or "
            "machines may share the database too (docs/deploy.md).",
        ),
    ] = 1,
    lease_seconds: Annotated[
        float,
        typer.Option(
            "--lease-seconds",
            min=1.0,
            max=600.0,
            help="PostgreSQL: seconds a server process may be silent before the others "
            "take over the tables it runs (its bots and move clocks).",
        ),
    ] = 6.0,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="Seconds before each bot move.")
    ] = 0.6,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            metavar="ORIGIN",
            help="Another web origin allowed to create tables and connect, e.g. "
            "https://cards.example (repeatable; '*' for any).",
        ),
    ] = None,
    max_tables: Annotated[
        int, typer.Option("--max-tables", min=1, help="Tables held in memory at once.")
    ] = 500,
    max_bot_tables: Annotated[
        int,
        typer.Option("--max-bot-tables", min=0, help="Bots-only tables playing at once."),
    ] = 2,
    tables_per_minute: Annotated[
        float,
        typer.Option("--tables-per-minute", min=0.1, help="New tables one address may create."),
    ] = 30.0,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the lobby in your default browser.")
    ] = False,
    root_path: Annotated[
        str,
        typer.Option(
            "--root-path",
            metavar="PREFIX",
            help="The path a reverse proxy serves xtarot under, e.g. /cards (the proxy "
            "strips it; see docs/deploy.md).",
        ),
    ] = "",
    ws_compression: Annotated[
        bool,
        typer.Option(
            "--ws-compression",
            help="Compress websocket messages for clients that ask (permessage-deflate): "
            "less traffic on slow links, more CPU per move (off by default).",
        ),
    ] = False,
) -> None:
    """Play in the browser: tables with friends and bots (prints the address to open)."""
    if root_path and (not root_path.startswith("/") or any(c in root_path for c in "?#\\ ")):
        fail(f"--root-path must be a path such as /cards, not {root_path!r}", code=2)
    try:  # lazy: the server's libraries load only for this command
        from xtarot.server import ServeError
        from xtarot.server import serve as run_server
        from xtarot.server.hub import Limits

        limits = Limits(
            tables_per_minute=tables_per_minute,
            table_burst=max(1.0, tables_per_minute / 3),
            max_live_tables=max_tables,
            max_bot_tables=max_bot_tables,
            allow_origins=tuple(o.rstrip("/") for o in allow_origin or ()),
        )
        run_server(
            host,
            port,
            db,
            bot_delay=bot_delay,
            limits=limits,
            root_path=root_path.rstrip("/"),
            open_browser=open_browser,
            bot_processes=bot_processes,
            workers=workers,
            lease_seconds=lease_seconds,
            ws_compression=ws_compression,
        )
    except ImportError as err:
        fail(
            f"{err}; the web server's libraries are missing: pip install --force-reinstall xtarot",
            code=1,
        )
    except ServeError as err:
        fail(str(err), code=1)


# -- plugins and the conformance kit -----------------------------------------------------------
@app.command("plugins")
def plugins_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    lang: LangOpt = None,
) -> None:
    """List the installed plugins (entry points) and any that failed to load."""
    from xtarot.cli.checks import plugin_rows

    lang = _lang(lang)
    rows = plugin_rows()
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    console = _out()
    if not rows:
        console.print(t("plugins_none", lang))
        return
    table = Table(title=t("plugins_title", lang))
    for key in ("group", "name", "package", "status"):
        table.add_column(t(f"plugins_col_{key}", lang))
    for row in rows:
        ok = row["status"] == "ok"
        status = Text(
            t("plugins_ok", lang) if ok else row["status"], style="green" if ok else "red"
        )
        table.add_row(row["group"], row["name"], row["package"] or "—", status)
    console.print(table)


@app.command()
def check(
    game: Annotated[str, typer.Argument(help="Game id (see `xtarot games`), built-in or plugin.")],
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Check only this player count (default: all)."),
    ] = None,
    n_games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, help="Random games per player count (a quarter per option)."
        ),
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="First seed of the random games.")] = 1000,
    lang: LangOpt = None,
) -> None:
    """Run the conformance kit on a game: rules exact enough to trust (exit 1 on failure).

    Every configuration (player count x option value): card conservation and the game's
    invariants at every step, legal masks and action ids, illegal and junk input refused
    without change, clones independent, the hidden-information leak test, records that
    replay exactly; every bot asked for every move of a few games; and the companions:
    rules texts, terminal screen, web layout, adapter tensors.
    """
    from xtarot.cli.checks import companions
    from xtarot.testing import check_game, configurations

    lang = _lang(lang)
    info = _info(game, lang)
    if players is not None and players not in info.players:
        _load(info, players, {}, lang)  # the game's own error names the counts
    configs = [c for c in configurations(info) if players is None or c["players"] == players]
    console = _out()
    console.print(Text(t("check_title", lang, game=info.id, name=info.name(lang), n=len(configs))))
    done: list[str] = []
    try:
        with progress(
            t("check_progress", lang), lang, total=len(configs), line="progress_line_configs"
        ) as update:

            def step(label: str) -> None:
                update(len(done))
                done.append(label)

            results = check_game(info.id, players=players, games=n_games, seed=seed, progress=step)
            update(len(configs))
    except AssertionError as err:
        console.print(Text(f"✗ {done[-1] if done else info.id}", style="red bold"))
        fail(t("check_failed", lang, error=str(err).splitlines()[0] if str(err) else "?"), lang, 1)
    for r in results:
        rep = r.report
        console.print(Text("✓ ", style="green") + Text(r.label, style="bold"))
        row = t(
            "check_row",
            lang,
            games=rep.games,
            moves=rep.actions,
            leaks=rep.leak_checks,
            worlds=rep.worlds,
            clones=rep.clone_checks,
            illegal=rep.illegal_checks,
        )
        console.print(Padding(Text(row, style="dim"), (0, 0, 0, 2)))
        if r.agents:
            bots = ", ".join(a.agent for a in r.agents)
            decisions = sum(a.decisions for a in r.agents)
            text = t("check_bots", lang, bots=bots, n=f"{decisions:,}")
            console.print(Padding(Text(text, style="dim"), (0, 0, 0, 2)))
    findings = companions(_load(info, players, {}, lang))
    errors = warnings = skipped = 0
    for f in findings:
        mark, style = ("✓", "green") if f.ok and not f.warning else ("!", "yellow")
        if f.skipped:  # an optional extra is not installed: not checked, not failed
            mark, style = "–", "dim"
            skipped += 1
        elif not f.ok:
            mark, style = "✗", "red"
            errors += 1
        warnings += f.warning
        console.print(Text(f"{mark} ", style=style) + Text(f.text(lang)))
    if errors:
        fail(t("check_companion_failed", lang, n=errors), lang, 1)
    key = "check_passed_skipped" if skipped else "check_passed"
    done_line = t(key, lang, warnings=warnings, skipped=skipped)
    console.print(Text(done_line, style="green bold"))


app.add_typer(lab_app, name="lab")
app.add_typer(data_app, name="data")
app.add_typer(train_app, name="train")


def main() -> None:
    """Entry point of the ``xtarot`` console script."""
    try:
        app(prog_name="xtarot")
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
