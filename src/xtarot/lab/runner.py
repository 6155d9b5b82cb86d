"""The lab's engine: designs of matches, per-game seeds, and playing them on one core,
on every core (multiprocessing), or on Ray.

A :class:`Design` says *what* to play: one game at one player count, one or more rule
variants, one or more line-ups of bots.  Game ``index`` of a design is a fixed set of
matches (every variant × every line-up × every seat arrangement of that line-up), all
started from the same deal seed ``derive_seed(seed, "game", index)``: variants are
compared on the same deals where the deal's shape allows (common random numbers), and a
duplicate line-up replays one deal with the seats rearranged.  A match depends only on
(design, seed, index), so a run gives the same rows on one core, on many, on Ray, in one
go or resumed.

>>> design = Design.build("sono-arcana", 3, agents=["random"])
>>> rows = play_indices(design, 1, [0, 1])
>>> [r["index"] for r in rows], rows[0]["agents"], len(rows[0]["scores"])
([0, 1], ['random', 'random', 'random'], 3)
>>> play_indices(design, 1, [1])[0]["scores"] == rows[1]["scores"]
True
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
import math
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from xtarot.agents import AGENTS, SEARCHING, Agent, decision_for, make_agent, play_match
from xtarot.agents.restrict import RestrictedAgent, SeatRestriction, parse_seat_restrictions
from xtarot.engine import Game, load
from xtarot.engine.workers import stop_workers
from xtarot.lab.events import events_of, first_seat
from xtarot.lab.feel import FeelTracker

__all__ = [
    "LAB_EXTRA",
    "Bot",
    "Design",
    "Lineup",
    "Variant",
    "available_cpus",
    "derive_seed",
    "distinct_labels",
    "execute",
    "play_indices",
    "row_key",
    "run_entry",
    "williams",
]

#: What to tell a user whose installation lacks the lab's libraries.
LAB_EXTRA = "the lab needs its extra libraries: pip install 'xtarot[lab]'"

#: The columns that identify a row (a match) within a design.
ROW_KEY = ("seed", "index", "variant", "lineup", "arrangement")

Progress = Callable[[int, int], None]


class RunStore(Protocol):
    """Where a run keeps its rows (:class:`xtarot.lab.store.Store`)."""

    def write(self, rows: Sequence[dict[str, Any]]) -> None: ...

    def finish(self, *, stopped: bool = False) -> None: ...


def derive_seed(seed: int, *parts: object) -> int:
    """A 48-bit seed from a run's seed and a path such as ``("game", 17)``.

    The same inputs give the same seed in every process and on every machine
    (BLAKE2b, not Python's salted ``hash``).

    >>> derive_seed(1, "game", 0) == derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    True
    """
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "big")


def row_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[k] for k in ROW_KEY)


def available_cpus() -> int:
    """The CPUs this process may use (its affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_entry(
    *, command: str | None, seed: int, start: int, games: int, workers: int | None, ray: str | None
) -> dict[str, Any]:
    """What a lab directory's manifest records of one run as it begins."""
    return {
        "command": command,
        "seed": seed,
        "start": start,
        "games": games,
        "workers": workers or available_cpus(),
        "backend": f"ray {ray}" if ray else "multiprocessing",
    }


# -- bots ---------------------------------------------------------------------------------
def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


#: the bots whose ``name:N`` sets a budget, and the setting it sets
_BUDGETS = {"ismcts": "iterations", "pimc": "worlds", "hard": "iterations", "expert": "iterations"}


@dataclass(frozen=True)
class Bot:
    """A bot to seat: a registered name with settings, or a factory ``f(seed) -> Agent``.

    Specs as text: ``heuristic``; ``ismcts:200`` (iterations a move), ``pimc:20``
    (worlds a move), ``hard:40`` or ``expert:400`` (play-outs a move);
    ``ismcts:iterations=500:c=0.5`` (any constructor settings);
    ``package.module:function`` (your own factory, called with the seed).

    >>> Bot.parse("ismcts:200").settings, Bot.parse("random").spec
    ((('iterations', 200),), 'random')
    >>> Bot.parse("hard:40").settings
    (('iterations', 40),)
    """

    spec: str
    name: str
    settings: tuple[tuple[str, Any], ...] = ()
    factory: Callable[..., Agent] | None = None

    @classmethod
    def parse(cls, spec: str | Bot | Callable[..., Agent]) -> Bot:
        if isinstance(spec, Bot):
            return spec
        if callable(spec):
            label = getattr(spec, "name", None) or getattr(spec, "__name__", "bot")
            return cls(spec=str(label), name=str(label), factory=spec)
        text = str(spec).strip()
        name, sep, rest = text.partition(":")
        if name in AGENTS:
            if not sep:
                return cls(spec=text, name=name)
            if rest.isdigit() and name in _BUDGETS:
                if int(rest) < 1:
                    raise ValueError(f"bad bot {text!r}: a budget is at least 1")
                key = _BUDGETS[name]
                return cls(spec=text, name=name, settings=((key, int(rest)),))
            settings = []
            for item in rest.split(":"):
                key, eq, value = item.partition("=")
                if not eq or not key.strip():
                    raise ValueError(
                        f"bad bot {text!r}: settings are name:key=value[:key=value], "
                        "or ismcts:N / pimc:N / hard:N / expert:N"
                    )
                settings.append((key.strip(), _value(value.strip())))
            return cls(spec=text, name=name, settings=tuple(settings))
        if sep and rest:
            try:
                module = importlib.import_module(name)
                factory = getattr(module, rest)
            except (ImportError, AttributeError) as err:
                raise ValueError(f"bot {text!r}: cannot import {rest} from {name}: {err}") from None
            return cls(spec=text, name=text, factory=factory)
        raise ValueError(
            f"unknown bot {text!r}; bots: {', '.join(AGENTS)} "
            "(or package.module:factory for your own)"
        )

    def make(self, seed: int) -> Agent:
        if self.factory is not None:
            return self.factory(seed)
        return make_agent(self.name, seed, **dict(self.settings))


# -- variants and line-ups ------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """A rule variant: a label and the game's options (as the engine normalised them)."""

    label: str
    options: tuple[tuple[str, Any], ...]

    @staticmethod
    def parse_options(text: str) -> dict[str, Any]:
        """``'all_pass=redeal,hands=1'`` -> options; ``''`` or ``'default'`` -> ``{}``."""
        text = text.strip()
        if text in ("", "default"):
            return {}
        out: dict[str, Any] = {}
        for item in text.split(","):
            key, eq, value = item.partition("=")
            key = key.strip().replace("-", "_")
            if not eq or not key:
                raise ValueError(f"a variant is KEY=VALUE[,KEY=VALUE], not {text!r}")
            value = value.strip()
            out[key] = None if value.lower() in ("none", "null") else value
        return out

    @classmethod
    def make(cls, game: str, players: int, options: dict[str, Any], label: str) -> Variant:
        """Check the options with the engine (``ConfigError`` names what is allowed)."""
        loaded = load(game, players=players, **options)
        return cls(label=label, options=tuple(sorted(loaded.options.items())))


@dataclass(frozen=True)
class Lineup:
    """Bots and how they are seated.

    ``rotate``: match ``index`` seats ``bots[(s + index) % k]`` at seat ``s``, so over a
    multiple of ``k`` games every bot sits in every seat equally often.
    ``duplicate``: every game index is one deal, played once per arrangement of a
    Williams design (:func:`williams`): every bot sits in every seat once and every bot
    follows every other in play order equally often, so neighbours change too.
    """

    label: str
    bots: tuple[Bot, ...]
    scheme: str = "rotate"

    def labels(self) -> list[str]:
        """Distinct names: a bot given twice becomes ``name#1``, ``name#2``."""
        return distinct_labels([b.spec for b in self.bots])

    def arrangements(self, players: int, index: int) -> list[tuple[int, tuple[int, ...]]]:
        """``(arrangement number, bot index at each seat)`` for game ``index``."""
        k = len(self.bots)
        if self.scheme == "rotate":
            return [(index % k, tuple((s + index) % k for s in range(players)))]
        slots = max(players, k)
        return [
            (r, tuple(row[s] % k for s in range(players))) for r, row in enumerate(williams(slots))
        ]

    def count(self, players: int) -> int:
        """Matches per game index."""
        return 1 if self.scheme == "rotate" else len(williams(max(players, len(self.bots))))


def distinct_labels(names: Sequence[str]) -> list[str]:
    """A name given twice becomes ``name#1``, ``name#2``.

    >>> distinct_labels(["heuristic", "random", "random"])
    ['heuristic', 'random#1', 'random#2']
    """
    counts = {n: list(names).count(n) for n in names}
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if counts[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            out.append(f"{n}#{seen[n]}")
        else:
            out.append(n)
    return out


def williams(n: int) -> list[tuple[int, ...]]:
    """Seat arrangements of a Williams design: each row is a permutation of ``range(n)``,
    every value stands in every position once per ``n`` rows, and every ordered pair of
    values stands side by side equally often (``n`` rows for even ``n``, ``2n`` for odd).

    >>> williams(4)
    [(0, 1, 3, 2), (1, 2, 0, 3), (2, 3, 1, 0), (3, 0, 2, 1)]
    >>> len(williams(3)), sorted(williams(3)) == sorted(set(williams(3)))
    (6, True)
    """
    if n < 1:
        raise ValueError("a Williams design needs n >= 1")
    first = [0]
    low, high = 1, n - 1
    for i in range(1, n):
        if i % 2:
            first.append(low)
            low += 1
        else:
            first.append(high)
            high -= 1
    rows = [tuple((x + r) % n for x in first) for r in range(n)]
    if n % 2 and n > 1:
        rows += [tuple(reversed(row)) for row in rows]
    return rows


@dataclass(frozen=True)
class Design:
    """What a lab run plays (its identity in a manifest; seeds and counts are not part
    of it, so runs of one design with other seeds or more games merge)."""

    kind: str
    game: str
    players: int
    variants: tuple[Variant, ...]
    lineups: tuple[Lineup, ...]
    #: ``derived``: every seed from (seed, index, …) by :func:`derive_seed`;
    #: ``stream``: the seeds ``run_tournament`` has always drawn (one ``random.Random(seed)``
    #: stream: per game one 32-bit seed per seat, then the deal's 48-bit seed), so a
    #: rotated tournament gives the same matches as before the lab existed.
    seeding: str = "derived"
    #: restricted seats, in play order (whoever sits there): see
    #: :mod:`xtarot.agents.restrict`
    restrictions: tuple[SeatRestriction, ...] = ()
    #: measure how each match feels (:mod:`xtarot.lab.feel`): the rows' ``feel`` column
    feel: bool = False

    @classmethod
    def build(
        cls,
        game: str,
        players: int,
        *,
        agents: Sequence[str | Bot | Callable[..., Agent]] = ("heuristic",),
        options: dict[str, Any] | None = None,
        kind: str = "seats",
        duplicate: bool = False,
        seeding: str = "derived",
        restrict: Sequence[str] | tuple[SeatRestriction, ...] = (),
        feel: bool = False,
    ) -> Design:
        """One variant (``options``) and one line-up (``agents``, rotated or duplicate);
        ``restrict``: seat restrictions (``"2:no-chi"``, seats from 1 in play order)."""
        variant = Variant.make(game, players, dict(options or {}), "default")
        bots = tuple(Bot.parse(a) for a in agents)
        if not bots:
            raise ValueError("give at least one bot")
        scheme = "duplicate" if duplicate else "rotate"
        lineup = Lineup("main", bots, scheme)
        rules = restrictions(game, players, restrict)
        return cls(kind, game, players, (variant,), (lineup,), seeding, rules, feel)

    @property
    def per_index(self) -> int:
        return len(self.variants) * sum(lu.count(self.players) for lu in self.lineups)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game": self.game,
            "players": self.players,
            "variants": [{"label": v.label, "options": dict(v.options)} for v in self.variants],
            "lineups": [
                {
                    "label": lu.label,
                    "bots": [b.spec for b in lu.bots],
                    "settings": [dict(b.settings) for b in lu.bots],
                    "scheme": lu.scheme,
                }
                for lu in self.lineups
            ],
            "seeding": self.seeding,
            # only when used, so directories of earlier designs still match
            **({"restrictions": [r.text for r in self.restrictions]} if self.restrictions else {}),
            **({"feel": True} if self.feel else {}),
        }


def restrictions(
    game: str, players: int, specs: Sequence[str] | tuple[SeatRestriction, ...]
) -> tuple[SeatRestriction, ...]:
    """Seat restrictions from their texts (``"2:no-chi"``) or as they are."""
    if all(isinstance(s, SeatRestriction) for s in specs):
        return tuple(specs)  # type: ignore[arg-type]
    return parse_seat_restrictions(game, players, [str(s) for s in specs])


# -- playing ------------------------------------------------------------------------------
_GAMES: dict[tuple[str, int, str], Game] = {}


def _game(design: Design, variant: Variant) -> Game:
    key = (design.game, design.players, json.dumps(variant.options))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load(design.game, players=design.players, **dict(variant.options))
    return game


def _deal_key(deal: dict[str, Any]) -> str:
    text = json.dumps(deal, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


_STREAMS: dict[tuple[int, int], tuple[int, random.Random]] = {}


def _stream_seeds(seed: int, index: int, players: int) -> tuple[int, list[int]]:
    """Game ``index``'s seeds in the ``stream`` scheme (replayed up to ``index``; a
    process keeps its place, so consecutive chunks cost nothing extra)."""
    nxt, rng = _STREAMS.get((seed, players), (0, None))
    if rng is None or index < nxt:
        nxt, rng = 0, random.Random(seed)
    while nxt < index:
        for _ in range(players):
            rng.getrandbits(32)
        rng.getrandbits(48)
        nxt += 1
    agents = [rng.getrandbits(32) for _ in range(players)]
    game_seed = rng.getrandbits(48)
    _STREAMS[(seed, players)] = (index + 1, rng)
    return game_seed, agents


def play_indices(design: Design, seed: int, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play every match of the given game indices; one row (a dict) per match."""
    rows = []
    for index in indices:
        game_seed = derive_seed(seed, "game", index)
        stream: list[int] | None = None
        if design.seeding == "stream":
            game_seed, stream = _stream_seeds(seed, index, design.players)
        for variant in design.variants:
            game = _game(design, variant)
            for lineup in design.lineups:
                labels = lineup.labels()
                for arrangement, seats in lineup.arrangements(design.players, index):
                    agents: list[Agent] = [
                        lineup.bots[b].make(
                            stream[s]
                            if stream is not None
                            else derive_seed(seed, "agent", index, arrangement, s)
                        )
                        for s, b in enumerate(seats)
                    ]
                    started = time.perf_counter()
                    state = game.new_state(seed=game_seed)
                    first = first_seat(state)
                    restricted = []
                    for r in design.restrictions:  # seats in play order
                        table_seat = (first + r.seat) % design.players
                        agents[table_seat] = RestrictedAgent(agents[table_seat], *r.rules)
                        restricted.append(agents[table_seat])
                    feel = None
                    if design.feel:
                        feel = _play(game, agents, state)
                    else:
                        play_match(game, agents, state=state)
                    scores = state.scores()
                    events = events_of(state, scores)
                    if restricted:
                        events["restrict.removed"] = float(sum(a.removed for a in restricted))
                        events["restrict.lifted"] = float(sum(a.lifted for a in restricted))
                    rows.append(
                        {
                            "seed": seed,
                            "index": index,
                            "variant": variant.label,
                            "lineup": lineup.label,
                            "arrangement": arrangement,
                            "game_seed": game_seed,
                            "deal": _deal_key(state.deals[0]),
                            "agents": [labels[b] for b in seats],
                            "first": first,
                            "scores": [float(x) for x in scores.totals],
                            "ranks": [int(r) for r in scores.ranks],
                            "length": len(state.history),
                            "hands": len(state.deals),
                            "events": json.dumps(events, sort_keys=True),
                            "seconds": time.perf_counter() - started,
                            "feel": json.dumps(feel, sort_keys=True) if feel else "",
                        }
                    )
    return rows


def _play(game: Game, agents: Sequence[Agent], state: Any) -> dict[str, Any]:
    """Play the match to its end as :func:`~xtarot.agents.play_match` does (the same
    moves), measuring how it feels."""
    if len(agents) != game.players:
        raise ValueError(f"{game.id} needs {game.players} agents, got {len(agents)}")
    tracker = FeelTracker(state)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        decision = decision_for(state)
        tracker.before(len(decision.legal))
        state.apply(agents[seat].act(decision))
        tracker.after(state)
    return tracker.result(state)


def _chunks(design: Design, indices: list[int], workers: int, chunk: int | None) -> list[list[int]]:
    """The games handed out together (played, stored and counted as one).  By default
    one at a time when a bot searches (each game takes seconds to minutes: progress
    moves with every game, a stop loses little); else about eight chunks a worker, at
    most 50 games each."""
    if chunk is None:
        if any(b.name in SEARCHING for lineup in design.lineups for b in lineup.bots):
            chunk = 1
        else:
            chunk = max(1, min(50, math.ceil(len(indices) / (workers * 8))))
    return [indices[i : i + chunk] for i in range(0, len(indices), chunk)]


def _in_process(design: Design, seed: int, chunks: list[list[int]]) -> Iterator[list[dict]]:
    for c in chunks:
        yield play_indices(design, seed, c)


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """A process pool kept for the life of this process (its workers keep their warm
    caches from one run to the next), replaced when a crash broke it or a stopped run
    stopped its workers."""
    pool = _POOLS.get(workers)
    if pool is not None and not getattr(pool, "_broken", False):
        return pool
    methods = multiprocessing.get_all_start_methods()
    # forkserver: workers fork from a clean server that has imported the lab once (no
    # fork of a threaded parent, no re-import per worker as with spawn).
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        ctx.set_forkserver_preload(["xtarot.lab.runner"])
    pool = _POOLS[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    return pool


def _stop_pool(workers: int, pool: ProcessPoolExecutor) -> None:
    """Stop a pool's workers at once, abandoning the matches they hold (and forget
    the pool, so the next run starts a fresh one)."""
    if _POOLS.get(workers) is pool:
        del _POOLS[workers]
    stop_workers(pool)


def _processes(
    design: Design, seed: int, chunks: list[list[int]], workers: int
) -> Iterator[list[dict]]:
    pool = _pool(workers)
    pending: set[Future[list[dict]]] = {pool.submit(play_indices, design, seed, c) for c in chunks}
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        if pending:  # Ctrl-C, SIGTERM, a failed match or a refused row: stop the rest
            for future in pending:
                future.cancel()
            _stop_pool(workers, pool)


@contextmanager
def _sigterm_stops_run() -> Iterator[None]:
    """While a run plays, SIGTERM (``kill``, a job scheduler stopping the job) stops it
    as Ctrl-C does: ``KeyboardInterrupt`` is raised, the worker processes are stopped,
    the rows already stored stay.  Only where SIGTERM still has its default action and
    in the main thread: a program's own handler is left alone."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
    ):
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def ray_connect(address: str, workers: int) -> Any:
    """Start a local Ray (``address="local"``, ``workers`` CPUs) or join a cluster; a
    Ray already running in this process is reused.  Returns the ``ray`` module."""
    try:
        import ray
    except ImportError as err:
        raise ImportError(f"Ray is not installed; {LAB_EXTRA}") from err
    if not ray.is_initialized():
        quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
        if address == "local":
            ray.init(num_cpus=workers, **quiet)
        else:
            ray.init(address=address, **quiet)
    return ray


def _ray(
    design: Design, seed: int, chunks: list[list[int]], address: str, workers: int
) -> Iterator[list[dict]]:
    ray = ray_connect(address, workers)
    task = ray.remote(play_indices)
    pending = [task.remote(design, seed, c) for c in chunks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref)


def execute(
    design: Design,
    seed: int,
    indices: Sequence[int],
    *,
    workers: int | None = None,
    ray: str | None = None,
    chunk: int | None = None,
    on_rows: Callable[[list[dict[str, Any]]], None] | None = None,
    on_progress: Progress | None = None,
    store: RunStore | None = None,
) -> list[dict[str, Any]]:
    """Play the game ``indices`` of a design; return the rows sorted by their key.

    ``workers``: processes (default: every CPU; 1 plays in this process); ``ray``:
    ``"local"`` or a cluster address, instead of multiprocessing.  ``on_rows`` gets each
    finished chunk of rows, ``on_progress(done, total)`` counts matches.  ``store``
    (begun): each chunk is written to it as it ends, and its run closed at the end,
    marked stopped if the run was.

    A run stopped by an exception (Ctrl-C, an error in a match or in ``on_rows``)
    stops its worker processes at once; SIGTERM stops it as Ctrl-C does (raising
    ``KeyboardInterrupt``) while SIGTERM has its default action.
    """
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    workers = workers or available_cpus()
    indices = list(indices)
    chunks = _chunks(design, indices, workers, chunk)
    total = len(indices) * design.per_index
    if ray is not None:
        batches = _ray(design, seed, chunks, ray, workers)
    elif workers == 1 or len(chunks) == 1:
        batches = _in_process(design, seed, chunks)
    else:
        batches = _processes(design, seed, chunks, workers)
    rows: list[dict[str, Any]] = []
    with _sigterm_stops_run():
        try:
            if on_progress is not None:
                on_progress(0, total)
            for batch in batches:
                rows.extend(batch)
                if store is not None:
                    store.write(batch)
                if on_rows is not None:
                    on_rows(batch)
                if on_progress is not None:
                    on_progress(len(rows), total)
        except BaseException:
            if store is not None:
                store.finish(stopped=True)
            raise
        finally:
            close = getattr(batches, "close", None)
            if close is not None:  # a stopped run stops its workers now, not when collected
                close()
    if store is not None:
        store.finish()
    rows.sort(key=row_key)
    return rows
