"""Self-play matches as a Parquet file of decisions, for researchers.

``pip install "xtarot[data]"`` (pyarrow and numpy).  :func:`export_matches` plays
matches between xtarot agents and writes **one row per decision**: the acting seat,
its view as the observation tensor of :mod:`xtarot.adapters.tensors` (the same
encoding as the OpenSpiel and PettingZoo adapters), the legal mask, the move (id and
canonical text), the true hidden cards (columns marked *training only*) and the
match's results, joined on every row.  The file's metadata records the command,
xtarot's version, the seed, the game's options, the agents and the tensor layout.
The schema is documented in ``docs/adapters/data.md``; :func:`load_decisions` reads
a file back as numpy arrays.

>>> import tempfile, xtarot
>>> from pathlib import Path
>>> game = xtarot.load("matto", players=3)
>>> with tempfile.TemporaryDirectory() as tmp:
...     out = export_matches(game, ["random"], games=2, seed=1, out=Path(tmp, "m.parquet"))
...     data = load_decisions(Path(tmp, "m.parquet"))
>>> out.matches, data["view"].shape[1] == out.tensor_size, len(data["action"]) == out.rows
(2, True, True)

Same seed, same agents (with play-out budgets rather than seconds), same file, byte
for byte.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import xtarot
from xtarot._version import __version__
from xtarot.adapters.tensors import encoder_for
from xtarot.agents import Agent, decision_for, make_agent
from xtarot.engine import Game, State
from xtarot.engine.workers import stop_workers

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MISSING",
    "TRAINING_ONLY",
    "AgentSpec",
    "ExportSummary",
    "cards_held",
    "export_matches",
    "load_decisions",
    "read_metadata",
    "seat_of",
]

#: the ``format`` named in a file's metadata, and its version
FORMAT = "xtarot-decisions"
FORMAT_VERSION = 1

#: what to say when pyarrow is missing
MISSING = 'writing and reading decision files needs pyarrow: pip install "xtarot[data]"'

#: columns that hold what the acting seat could not see: for training targets only,
#: never as a model's input at play time
TRAINING_ONLY = ("match_seed", "truth_hands", "truth_zones")

#: an agent for the export: a bot name (``"heuristic"``) or ``(label, factory)`` where
#: ``factory(seed)`` returns a fresh agent for one seat of one match
AgentSpec = str | tuple[str, Callable[[int], Agent]]

#: the metadata key of the file's description (JSON)
META_KEY = b"xtarot"

#: rows held in memory before a row group is written
_ROWS_PER_GROUP = 8192


@dataclass
class ExportSummary:
    """What :func:`export_matches` wrote."""

    path: Path
    matches: int
    rows: int
    seconds: float
    tensor_size: int
    num_actions: int
    bytes: int
    metadata: dict[str, Any] = field(repr=False)

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else float("inf")


def _pyarrow() -> tuple[Any, Any, Any]:
    """pyarrow, pyarrow.parquet and numpy, or an ImportError that says what to install."""
    try:
        import numpy as np
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as err:
        raise ImportError(f"{MISSING} ({err})") from None
    return pa, pq, np


def _agents(specs: Sequence[AgentSpec]) -> list[tuple[str, Callable[[int], Agent]]]:
    if isinstance(specs, str) or not specs:
        raise ValueError("give at least one agent, as a list of bot names (['heuristic'])")
    out: list[tuple[str, Callable[[int], Agent]]] = []
    for spec in specs:
        if isinstance(spec, str):
            make_agent(spec, 0)  # an unknown name fails here, naming the bots

            def factory(seed: int, name: str = spec) -> Agent:
                return make_agent(name, seed)

            out.append((spec, factory))
        elif (
            isinstance(spec, tuple)
            and len(spec) == 2
            and isinstance(spec[0], str)
            and callable(spec[1])
        ):
            out.append((spec[0], spec[1]))
        else:
            raise TypeError(f"agent {spec!r}: expected a bot name or a (label, factory(seed)) pair")
    return out


def seat_of(match: int, seat: int, agents: int) -> int:
    """Which of the ``agents`` (by position in the list) plays ``seat`` in match number
    ``match``: the list in seat order, turned by one seat each match, so that with as
    many matches as seats every agent has sat everywhere.

    >>> [seat_of(m, 0, 3) for m in range(4)], [seat_of(0, s, 2) for s in range(4)]
    ([0, 1, 2, 0], [0, 1, 0, 1])
    """
    return (seat + match) % agents


def _bot_seed(match_seed: int, seat: int) -> int:
    return (match_seed * 1_000_003 + 7919 * (seat + 1)) % (1 << 48)


def _returns(ranks: Sequence[int]) -> list[float]:
    """Rank-based returns in ``[-1, 1]``, as the OpenSpiel and PettingZoo adapters
    give them: ``(b - a) / (n - 1)``."""
    n = len(ranks)
    return [
        (sum(1 for r in ranks if r > mine) - sum(1 for r in ranks if r < mine)) / (n - 1)
        for mine in ranks
    ]


def _schema(pa: Any, size: int, num_actions: int, meta: dict[str, Any]) -> Any:
    secret = {b"training_only": b"true"}
    return pa.schema(
        [
            pa.field("match", pa.int32(), nullable=False),
            pa.field("match_seed", pa.int64(), nullable=False, metadata=secret),
            pa.field("hand", pa.int16(), nullable=False),
            pa.field("step", pa.int32(), nullable=False),
            pa.field("hand_step", pa.int32(), nullable=False),
            pa.field("seat", pa.int8(), nullable=False),
            pa.field("agent", pa.string(), nullable=False),
            pa.field("view", pa.list_(pa.float32(), size), nullable=False),
            pa.field("legal_mask", pa.list_(pa.bool_(), num_actions), nullable=False),
            pa.field("action", pa.int32(), nullable=False),
            pa.field("action_text", pa.string(), nullable=False),
            pa.field(
                "truth_hands", pa.list_(pa.list_(pa.string())), nullable=False, metadata=secret
            ),
            pa.field(
                "truth_zones",
                pa.map_(pa.string(), pa.list_(pa.string())),
                nullable=False,
                metadata=secret,
            ),
            pa.field("hand_scores", pa.list_(pa.float64()), nullable=False),
            pa.field("final_scores", pa.list_(pa.float64()), nullable=False),
            pa.field("final_ranks", pa.list_(pa.int8()), nullable=False),
            pa.field("final_return", pa.float32(), nullable=False),
        ],
        metadata={META_KEY: json.dumps(meta, sort_keys=True, ensure_ascii=False).encode()},
    )


class _Rows:
    """Column buffers of rows: the scalar columns as lists, the view and the mask as
    2-D numpy blocks (one per match).  Picklable: a worker returns a match's rows."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.scalars: dict[str, list[Any]] = {
            k: []
            for k in (
                "match", "match_seed", "hand", "step", "hand_step", "seat", "agent",
                "action", "action_text", "truth_hands", "truth_zones", "hand_scores",
                "final_scores", "final_ranks", "final_return",
            )
        }  # fmt: skip
        self.views: list[Any] = []
        self.masks: list[Any] = []
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def extend(self, other: _Rows) -> None:
        for key, values in other.scalars.items():
            self.scalars[key].extend(values)
        self.views.extend(other.views)
        self.masks.extend(other.masks)
        self.count += other.count

    def batch(self, pa: Any, np: Any, schema: Any, size: int, num_actions: int) -> Any:
        views = np.concatenate(self.views) if self.views else np.zeros((0, size), np.float32)
        masks = np.concatenate(self.masks) if self.masks else np.zeros((0, num_actions), bool)
        columns = {
            **self.scalars,
            "view": pa.FixedSizeListArray.from_arrays(pa.array(views.ravel()), size),
            "legal_mask": pa.FixedSizeListArray.from_arrays(pa.array(masks.ravel()), num_actions),
        }
        arrays = []
        for f in schema:
            value = columns[f.name]
            arrays.append(value if isinstance(value, pa.Array) else pa.array(value, f.type))
        return pa.RecordBatch.from_arrays(arrays, schema=schema)


def export_matches(
    game: Game,
    agents: Sequence[AgentSpec],
    *,
    games: int,
    seed: int,
    out: Path | str,
    command: str | None = None,
    deterministic: bool = True,
    on_game: Callable[[int], None] | None = None,
    workers: int = 1,
    compression: str = "zstd",
) -> ExportSummary:
    """Play ``games`` matches of ``game`` and write every decision to the Parquet file
    ``out`` (replaced when it exists; written beside it first and moved into place at
    the end, so an interrupted run leaves no half file).

    ``agents`` seat by seat (see :func:`seat_of`): one name for every seat, or a list
    that turns by one seat each match.  Match ``i`` is ``game.new_state(seed=s_i)``
    with ``s_i`` drawn from ``seed``; each seat's agent is built afresh with a seed of
    its own.  ``command`` and ``deterministic`` (say ``False`` when a bot plays to a
    clock) go to the metadata; ``on_game(done)`` is called after each match.
    ``workers`` > 1 plays the matches in that many processes (agent factories must
    then be picklable); the file is the same for any number of workers.
    """
    pa, pq, np = _pyarrow()
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
    seats = _agents(agents)
    if workers > 1:
        try:
            pickle.dumps(seats)
        except (pickle.PicklingError, AttributeError, TypeError) as err:
            raise ValueError(
                "with workers > 1 every agent factory must be picklable (a bot name, or a "
                f"module-level function or class instance), not a lambda: {err}"
            ) from None
    path = Path(out)
    enc = encoder_for(game)
    size = enc.size
    num_actions = game.num_actions
    meta = _metadata(game, [label for label, _ in seats], games, seed, command, deterministic)
    schema = _schema(pa, size, num_actions, meta)
    rng = random.Random(seed)
    tasks = [
        (game.id, game.players, dict(game.options), seats, m, rng.getrandbits(48))
        for m in range(games)
    ]
    rows = _Rows()
    total = 0
    partial = path.with_name(path.name + ".partial")
    started = time.perf_counter()
    writer = pq.ParquetWriter(
        partial, schema, compression=compression, write_statistics=True, use_dictionary=True
    )
    pool = None
    try:
        if workers > 1:
            pool = _pool(workers)
            results: Any = pool.map(_play_task, tasks, chunksize=1)
        else:
            _GAMES[_config_key(game)] = game
            results = map(_play_task, tasks)
        for m, match_rows in enumerate(results):
            rows.extend(match_rows)
            total += len(match_rows)
            if len(rows) >= _ROWS_PER_GROUP:
                writer.write_batch(rows.batch(pa, np, schema, size, num_actions))
                rows.clear()
            if on_game is not None:
                on_game(m + 1)
        if len(rows):
            writer.write_batch(rows.batch(pa, np, schema, size, num_actions))
        writer.close()
        os.replace(partial, path)
    except BaseException:
        if pool is not None:
            stop_workers(pool)
        writer.close()
        partial.unlink(missing_ok=True)
        raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    seconds = time.perf_counter() - started
    return ExportSummary(
        path=path,
        matches=games,
        rows=total,
        seconds=seconds,
        tensor_size=size,
        num_actions=num_actions,
        bytes=path.stat().st_size,
        metadata=meta,
    )


def _pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes forked from a clean server that has imported this module (no
    fork of a threaded parent, no re-import per worker), else spawned."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        ctx.set_forkserver_preload([__name__])
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx)


#: games by configuration, built once per process
_GAMES: dict[tuple[Any, ...], Game] = {}


def _config_key(game: Game) -> tuple[Any, ...]:
    return (game.id, game.players, tuple(sorted(game.options.items(), key=lambda kv: kv[0])))


def _play_task(
    task: tuple[str, int, dict[str, Any], list[tuple[str, Callable[[int], Agent]]], int, int],
) -> _Rows:
    """One match of the export (in this process or a worker): its rows."""
    game_id, players, options, seats, match, match_seed = task
    key = (game_id, players, tuple(sorted(options.items(), key=lambda kv: kv[0])))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = xtarot.load(game_id, players=players, **options)
    n = game.players
    labels = [seats[seat_of(match, s, len(seats))][0] for s in range(n)]
    bots = [seats[seat_of(match, s, len(seats))][1](_bot_seed(match_seed, s)) for s in range(n)]
    return _play(game, labels, bots, match, match_seed)


def _play(game: Game, labels: list[str], bots: list[Agent], match: int, match_seed: int) -> _Rows:
    """Play one match (as :func:`xtarot.agents.play_match` does) and return its rows."""
    _, _, np = _pyarrow()
    enc = encoder_for(game)
    actions = game.actions
    n = game.players
    state: State = game.new_state(seed=match_seed)
    peek = [bool(getattr(bot, "reads_view_only", False)) for bot in bots]
    rows = _Rows()
    views: list[Any] = []
    masks: list[Any] = []
    # per hand met: (its first row, the score totals then)
    hands: list[tuple[int, tuple[float, ...]]] = []
    hand = hand_start = -1
    sc = rows.scalars
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        if len(state.deals) - 1 != hand:
            hand = len(state.deals) - 1
            hand_start = len(state.history)
            hands.append((len(views), tuple(state.scores().totals)))
        view = np.zeros(enc.size, np.float32)
        enc.encode_state(state, seat, view, zeroed=True)
        mask = np.zeros(game.num_actions, bool)
        mask[[a.id for a in state.legal_actions()]] = True
        zones = state.zones()
        action = bots[seat].act(decision_for(state, peek=peek[seat]))
        step = len(state.history)
        sc["match"].append(match)
        sc["match_seed"].append(match_seed)
        sc["hand"].append(hand)
        sc["step"].append(step)
        sc["hand_step"].append(step - hand_start)
        sc["seat"].append(seat)
        sc["agent"].append(labels[seat])
        sc["action"].append(action.id)
        sc["action_text"].append(actions[action.id].text)
        sc["truth_hands"].append([list(zones.get(f"hand:{s}", ())) for s in range(n)])
        sc["truth_zones"].append(sorted((k, list(v)) for k, v in zones.items()))
        views.append(view)
        masks.append(mask)
        state.apply(action)
    scores = state.scores()
    hands.append((len(views), tuple(scores.totals)))
    for (start, before), (stop, after) in pairwise(hands):
        delta = [float(b - a) for a, b in zip(before, after, strict=True)]
        sc["hand_scores"].extend([delta] * (stop - start))
    final = [float(x) for x in scores.totals]
    ranks = list(scores.ranks)
    returns = _returns(ranks)
    for seat in sc["seat"]:
        sc["final_scores"].append(final)
        sc["final_ranks"].append(ranks)
        sc["final_return"].append(returns[seat])
    if views:
        rows.views.append(np.stack(views))
        rows.masks.append(np.stack(masks))
    rows.count = len(views)
    return rows


def _metadata(
    game: Game,
    agents: list[str],
    games: int,
    seed: int,
    command: str | None,
    deterministic: bool,
) -> dict[str, Any]:
    enc = encoder_for(game)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "xtarot": __version__,
        "command": command,
        "game": game.id,
        "players": game.players,
        "options": dict(game.options),
        "seed": seed,
        "games": games,
        "agents": agents,
        "seating": "match m, seat s: agents[(s + m) % len(agents)]",
        "deterministic": deterministic,
        "training_only": list(TRAINING_ONLY),
        "tensor": {
            "size": enc.size,
            "docs": "docs/adapters/tensors.md",
            "layout": [
                {"name": name, "start": start, "size": sz, "kind": kind, "meaning": meaning}
                for name, start, sz, kind, meaning in enc.layout()
            ],
            "cards": list(enc.cards),
        },
        "actions": [a.text for a in game.actions],
    }


# -- reading ------------------------------------------------------------------------------
def read_metadata(path: Path | str) -> dict[str, Any]:
    """The description a decision file carries (command, version, seed, options,
    agents, tensor layout, action texts)."""
    _, pq, _ = _pyarrow()
    schema = pq.read_schema(path)
    raw = (schema.metadata or {}).get(META_KEY)
    if raw is None:
        raise ValueError(f"{path} is not an xtarot decision file (no {META_KEY.decode()} metadata)")
    meta: dict[str, Any] = json.loads(raw)
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not an xtarot decision file (format {meta.get('format')!r})")
    return meta


def load_decisions(
    path: Path | str, *, training: bool = True, filters: Any = None
) -> dict[str, Any]:
    """A decision file as numpy arrays, one entry per row: ``view`` (rows × tensor
    size, float32), ``legal_mask`` (rows × actions, bool), ``action``, ``seat``,
    ``match``, ``hand``, ``step``, ``hand_step``, ``final_return``; with ``training``
    also ``held`` (rows × players × cards, bool: :func:`cards_held`, seat-relative).
    ``filters`` go to ``pyarrow.parquet.read_table`` (``[("agent", "=", "expert")]``).
    """
    _, pq, np = _pyarrow()
    meta = read_metadata(path)
    columns = ["match", "hand", "step", "hand_step", "seat", "action", "final_return"]
    columns += ["view", "legal_mask"] + (["truth_hands"] if training else [])
    table = pq.read_table(path, columns=columns, filters=filters)
    size = meta["tensor"]["size"]
    num_actions = len(meta["actions"])
    out: dict[str, Any] = {name: table.column(name).to_numpy() for name in columns[:7]}
    out["view"] = _fixed(np, table.column("view"), size, np.float32)
    out["legal_mask"] = _fixed(np, table.column("legal_mask"), num_actions, bool)
    if training:
        hands = table.column("truth_hands").to_pylist()
        out["held"] = cards_held(hands, out["seat"], meta["tensor"]["cards"])
    return out


def _fixed(np: Any, column: Any, width: int, dtype: Any) -> Any:
    """A fixed-size-list column as a (rows × width) numpy array."""
    if column.num_chunks == 0 or len(column) == 0:
        return np.zeros((0, width), dtype)
    flat = np.concatenate(
        [chunk.flatten().to_numpy(zero_copy_only=False) for chunk in column.chunks]
    )
    return flat.astype(dtype, copy=False).reshape(-1, width)


def cards_held(hands: Sequence[Sequence[Sequence[str]]], seats: Any, cards: Sequence[str]) -> Any:
    """The true hands of each row as a (rows × players × cards) bool array, **relative
    to the acting seat** (block 0 is the seat itself, block 1 the next seat, as in the
    view tensor) over the card list of the tensor (``metadata["tensor"]["cards"]``): the
    target of a card-location model.  A wild written ``Oc=3c`` counts as ``Oc``.
    """
    _, _, np = _pyarrow()
    index = {c: i for i, c in enumerate(cards)}
    rows = len(hands)
    players = len(hands[0]) if rows else 0
    out = np.zeros((rows, players, len(cards)), bool)
    for r, (row, me) in enumerate(zip(hands, seats, strict=True)):
        for s, hand in enumerate(row):
            rel = (s - int(me)) % players
            for code in hand:
                out[r, rel, index[code.split("=")[0]]] = True
    return out
