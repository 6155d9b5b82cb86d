"""The ``xtarot`` command: games, rules, play against bots, simulate, tournament, replay.

Run ``xtarot --help`` (or ``python -m xtarot.cli.main --help``).  Output is in
English or Japanese (``--lang en|ja``; by default Japanese when ``LC_ALL`` /
``LANG`` start with ``ja``).  Errors print the engine's message and exit with
code 2 (bad game, player count, option or bot) or 1 (a corrupt record).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

import xtarot
from xtarot import agents as _agents
from xtarot.agents.heuristic import STRATEGIES
from xtarot.cli.i18n import pick_lang, rules_text, seat_label, t
from xtarot.cli.play import PlaySession, make_bot, rebuild
from xtarot.cli.render import scores_table, ui_for
from xtarot.cli.simulate import simulate as run_simulation
from xtarot.engine import ConfigError, Game, GameInfo, RecordError
from xtarot.lab import run_tournament

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


def _out() -> Console:
    return Console(highlight=False, markup=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False, markup=False, soft_wrap=True)


def _progress(label: str, *, quiet: bool) -> Progress:
    """A progress bar on stderr, shown only in a terminal and not with ``--json``."""
    err = _err()
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=quiet or not err.is_terminal,
        transient=True,
    )


def fail(message: str, lang: str = "en", code: int = 2) -> NoReturn:
    """Print ``message`` in red on stderr and exit with ``code`` (no traceback)."""
    _err().print(Text(f"{t('error', lang)}: {message}", style="red"))
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
def _describe_options(info: GameInfo, lang: str) -> Text:
    out = Text()
    for i, o in enumerate(info.options):
        if i:
            out.append("\n")
        where = ""
        if o.players:
            counts = "/".join(map(str, o.players))
            where = f" ({counts}人)" if lang == "ja" else f" ({counts} players)"
        out.append(f"{o.name}={o.default!r}", style="bold")
        out.append(where)
        out.append("\n  " + (o.help_ja if lang == "ja" else o.help_en), style="dim")
    return out if info.options else Text(t("none", lang), style="dim")


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
    table = Table(title=t("games_title", lang), show_lines=True)
    table.add_column(t("col_id", lang), style="bold cyan", no_wrap=True)
    table.add_column(f"{t('col_name_ja', lang)} / {t('col_name_en', lang)}", min_width=24)
    table.add_column(t("col_players", lang), justify="center", no_wrap=True)
    table.add_column(t("col_options", lang), min_width=24, overflow="fold")
    for info in infos:
        table.add_row(
            info.id,
            f"{info.name_ja}\n{info.name_en}",
            f"{info.min_players}-{info.max_players}",
            _describe_options(info, lang),
        )
    _out().print(table)


# -- rules -------------------------------------------------------------------------------
@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="Game id (see `xtarot games`).")],
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
    console.print(Markdown(text))


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
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="Number of players (default: 4 when the game allows it, else its minimum).",
        ),
    ] = None,
    seat: Annotated[int | None, typer.Option("--seat", help="Your seat, 0..players-1.")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help=f"Bot for the other seats, or a comma list, one per other seat ({BOT_NAMES}; "
            "ismcts:N / pimc:N set a budget); default: the game's heuristic bot when it "
            "has one, else ismcts:200.",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the match (default: random, printed).")
    ] = None,
    lang: LangOpt = None,
    option: OptionOpt = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Write the game record to this file.")
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
) -> None:
    """Play one seat in the terminal against bots (or continue a saved match)."""
    if resume is not None:
        _resume(resume, game, players, seat, bots, seed, lang, option, save, fast, delay)
        return
    lang = _lang(lang)
    if game is None:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            fail(t("need_game", lang), lang)
        game = _choose_game(lang)
    info = _info(game, lang)
    options = _options(info, option, lang)
    g = _load(info, players, options, lang)
    seat = 0 if seat is None else seat
    if not 0 <= seat < g.players:
        fail(t("bad_seat", lang, seat=seat, last=g.players - 1), lang)
    bots = bots or default_bot(info.id)
    names = _bots(bots, [s for s in range(g.players) if s != seat], lang, info.id)
    chosen = seed is not None
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    console = _out()
    _start_lines(console, g, seat, lang)
    # A seed drawn at random is shown only when the match ends: it fixes the deal.
    console.print(Text(t("seed_line" if chosen else "seed_hidden", lang, seed=seed), style="dim"))
    command = f"xtarot play {info.id} --players {g.players} --seat {seat} --seed {seed}"
    command += f" --bots {bots}" + "".join(f" --option {k}={v}" for k, v in options.items())
    meta = {
        "client": "xtarot play",
        "human_seat": seat,
        "bots": [names.get(s) for s in range(g.players)],
        "lang": lang,
        "fast": fast,
        "delay": delay,
        "command": command,
    }
    session = PlaySession(
        console,
        g,
        seat,
        names,
        seed,
        lang,
        save=save,
        fast=fast,
        delay=0.6 if delay is None else delay,
        meta=meta,
        command=command,
    )
    raise typer.Exit(session.run())


def _choose_game(lang: str) -> str:
    """Ask which game to play (``xtarot play`` alone, in a terminal)."""
    console = _out()
    infos = xtarot.games()
    console.print(Text(t("games_title", lang), style="bold"))
    for i, info in enumerate(infos, 1):
        line = Text(f"{i:>2}. ", style="cyan")
        line.append(info.name(lang), style="bold")
        line.append(f"  ({info.id}, {info.min_players}-{info.max_players})", style="dim")
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


def _start_lines(console: Console, g: Game, seat: int, lang: str) -> None:
    info = g.info
    title = t(
        "match_start",
        lang,
        game=f"{info.name(lang)} ({info.id})",
        players=g.players,
        seat=seat_label(seat, lang),
    )
    console.print(Text(title, style="bold"))
    if g.options:
        opts = ", ".join(f"{k}={v}" for k, v in g.options.items())
        console.print(t("options_line", lang, options=opts))


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
) -> None:
    """``xtarot play --resume FILE``: the saved session, exactly as it was."""
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
    early = _lang(lang) if lang else "en"
    try:
        record = xtarot.load_record(path)
        state = rebuild(record)
    except RecordError as err:
        fail(str(err), early, code=1)
    meta = dict(record.get("meta") or {})
    lang = _lang(lang or meta.get("lang"))
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
    if delay is None:
        saved_delay = meta.get("delay")
        delay = saved_delay if isinstance(saved_delay, int | float) else 0.6
    fast = fast or bool(meta.get("fast"))
    meta.update({"human_seat": you, "lang": lang, "fast": fast, "delay": delay})
    console = _out()
    _start_lines(console, g, you, lang)
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
    )
    raise typer.Exit(session.run())


# -- simulate ----------------------------------------------------------------------------
@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id (see `xtarot games`).")],
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="Number of players (default: 4 when the game allows it, else its minimum).",
        ),
    ] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="Number of matches.")] = 100,
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
    as_json: Annotated[
        bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")
    ] = False,
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
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    progress = _progress(t("sim_progress", lang), quiet=as_json)
    with progress:
        task = progress.add_task("sim", total=n_games)
        result = run_simulation(
            g,
            [names[s] for s in range(g.players)],
            games=n_games,
            seed=seed,
            records=records,
            on_game=lambda done: progress.update(task, completed=done),
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


# -- tournament ----------------------------------------------------------------------------
@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="Game id (see `xtarot games`).")],
    agents: Annotated[
        str, typer.Option("--agents", "-a", help=f"Comma list of bots to compare ({BOT_NAMES}).")
    ] = "heuristic,random",
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Number of players (default as for play)."),
    ] = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="Number of matches.")] = 100,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the run (default: random, printed).")
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--seconds", help="Thinking time per move of the search bots (ismcts, pimc)."),
    ] = None,
    iterations: Annotated[
        int | None, typer.Option("--iterations", help="ISMCTS iterations per move.")
    ] = None,
    option: OptionOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Bots against bots with rotating seats: win shares with 95% intervals and ratings."""
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
            fail(f"unknown bot {name!r}; bots: {BOT_NAMES}", lang)
    settings: dict[str, dict[str, Any]] = {}
    if seconds is not None:
        settings["ismcts"] = {"seconds": seconds}
        settings["pimc"] = {"seconds": seconds}
    if iterations is not None:
        settings.setdefault("ismcts", {})["iterations"] = iterations
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    progress = _progress(t("tour_progress", lang), quiet=as_json)
    try:
        with progress:
            task = progress.add_task("tour", total=n_games)
            result = run_tournament(
                info.id,
                g.players,
                names,
                n_games,
                seed=seed,
                options=g.options,
                settings=settings,
                on_game=lambda i: progress.update(task, completed=i + 1),
            )
    except ValueError as error:
        fail(str(error), lang)
    if as_json:
        typer.echo(json.dumps({**result.to_dict(), "seed": seed}, ensure_ascii=False))
        return
    title = t("tour_title", lang, games=n_games, game=info.name(lang), players=g.players)
    table = Table(title=title)
    for key in ("col_agent", "col_seats", "col_win_ci", "col_vs_fair", "col_mean_ci", "col_rating"):
        table.add_column(t(key, lang), justify="left" if key == "col_agent" else "right")
    for row in result.to_dict()["agents"]:
        lo, hi = row["win_share_ci95"]
        mlo, mhi = row["mean_score_ci95"]
        table.add_row(
            row["agent"],
            str(row["seats"]),
            f"{100 * row['win_share']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})",
            f"{row['win_share_vs_fair']:.2f}",
            f"{row['mean_score']:.2f} ({mlo:.2f}–{mhi:.2f})",
            f"{row['rating']:.1f}",
        )
    console = _out()
    console.print(table)
    console.print(t("tour_time", lang, seconds=result.seconds, players=g.players, seed=seed))


# -- replay ------------------------------------------------------------------------------
@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A game record (JSON) saved by xtarot.")],
    lang: LangOpt = None,
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter after each step.")] = False,
) -> None:
    """Replay a saved game record: the public course of the match and its result."""
    lang = _lang(lang)
    try:
        record = xtarot.load_record(file)
        state = xtarot.replay(record)
    except RecordError as err:
        fail(str(err), lang, code=1)
    # Walk the (now validated) record again to know who made each move.
    walk = xtarot.replay(record, upto=0)
    steps: list[tuple[int | None, str]] = []
    for text in record["actions"]:
        steps.append((walk.current_player, text))
        walk.apply(text)
    info = state.game.info
    ui = ui_for(info.id)
    console = _out()
    title = t(
        "replay_title",
        lang,
        game=f"{info.name(lang)} ({info.id})",
        players=state.players,
        seed=record["seed"],
    )
    console.print(Text(title, style="bold"))
    if state.game.options:
        opts = ", ".join(f"{k}={v}" for k, v in state.game.options.items())
        console.print(t("options_line", lang, options=opts))
    public = state.public_view()
    for item in ui.course(public, steps, lang):
        console.print(item)
        if step:
            try:
                console.input(Text(t("press_enter", lang), style="dim"))
            except (EOFError, KeyboardInterrupt):
                step = False
    if state.is_terminal:
        for item in ui.final(public, state.scores().to_dict(), lang):
            console.print(item)
    else:
        console.print(Text(t("replay_unfinished", lang), style="yellow"))
        running = state.scores().to_dict()
        console.print(scores_table(running, lang, None, title=t("running_scores", lang)))


# -- serve -------------------------------------------------------------------------------
@app.command()
def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (0.0.0.0: your whole network).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--db", help="SQLAlchemy URL of the tables' database (default: a file)."),
    ] = None,
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
) -> None:
    """Play in the browser: tables with friends and bots (needs the 'web' extra)."""
    try:  # lazy: xtarot works without the web extra installed
        from xtarot.server import serve as run_server
        from xtarot.server.hub import Limits

        limits = Limits(
            tables_per_minute=tables_per_minute,
            table_burst=max(1.0, tables_per_minute / 3),
            max_live_tables=max_tables,
            max_bot_tables=max_bot_tables,
            allow_origins=tuple(o.rstrip("/") for o in allow_origin or ()),
        )
        run_server(host, port, db, bot_delay=bot_delay, limits=limits)
    except ImportError as err:
        fail(f"{err}; install the web extra: pip install 'xtarot[web]'", code=1)


def main() -> None:
    """Entry point of the ``xtarot`` console script."""
    try:
        app(prog_name="xtarot")
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
