"""JSON game records: save a match, load it, replay it exactly.

A record is a JSON object::

    {
      "format": "xtarot-record", "version": 1,
      "game": "sono-arcana", "players": 4, "options": {"teams": false},
      "seed": 123,                       # the match seed (later hands shuffle from it)
      "deals": [{...}],                  # each hand's deal, as new_state(deal=...) takes it
      "actions": ["lot 1", "bid up Kc", "play 3c", ...],
      "result": {...} | null,            # state.scores().to_dict() once the match is over
      "meta": {...}                      # optional, free-form (names, dates, client,
                                         # "xtarot": the version that wrote it)
    }

:func:`replay` rebuilds the exact state; a record that was tampered with fails
with a :class:`~xtarot.engine.RecordError` naming the first bad action.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from xtarot._version import __version__
from xtarot.engine import ConfigError, DealError, IllegalAction, RecordError, State, load
from xtarot.engine.core import RECORD_FORMAT, RECORD_VERSION

__all__ = ["RecordError", "load_record", "replay", "save_record"]


def _need(rec: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in rec:
        raise RecordError(f"record has no {key!r}")
    value = rec[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(f"record field {key!r} has the wrong type ({type(value).__name__})")
    return value


def resumed_rng(seed: int, dealt: int) -> random.Random:
    """The generator of the hands a replayed match deals after its recorded ones.

    A record keeps every deal, not the generator's position, and ``Random(seed)``
    would shuffle the first hand again (a resumed Grail Mahjong match dealt a hand the
    players had already seen).  The hands after the ``dealt`` recorded ones are
    shuffled from a seed derived from the match's seed and ``dealt``: the same record
    always goes on the same way, and never as it began.

    >>> resumed_rng(7, 2).random() == resumed_rng(7, 2).random() != resumed_rng(7, 3).random()
    True
    """
    return random.Random(f"xtarot-resumed:{seed}:{dealt}")


def replay(record: dict[str, Any] | str, *, upto: int | None = None) -> State:
    """Rebuild the state a record describes (optionally only its first ``upto`` actions).

    Accepts the record as a dict or as JSON text.  Raises :class:`RecordError` when
    the record is malformed, from another format version, names an unknown game or
    option, holds an invalid deal, an illegal action, or a result that differs from
    the replayed one.
    """
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as err:
            raise RecordError(f"record is not valid JSON: {err}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an xtarot record (format {record.get('format')!r})")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(
            f"record version {record.get('version')!r} is not supported "
            f"(this xtarot reads version {RECORD_VERSION})"
        )
    game_id = _need(record, "game", str)
    players = _need(record, "players", int)
    options = _need(record, "options", dict)
    seed = _need(record, "seed", int)
    deals = _need(record, "deals", list)
    actions = _need(record, "actions", list)
    if not deals:
        raise RecordError("record has no deal")
    try:
        game = load(game_id, players=players, **options)
    except ConfigError as err:
        raise RecordError(f"record names a game that cannot be loaded: {err}") from None
    try:
        first = game.validate_deal(deals[0])
        state = game._start(seed, resumed_rng(seed, len(deals)), [first, *deals[1:]])
    except DealError as err:
        raise RecordError(f"record holds an invalid deal: {err}") from None
    limit = len(actions) if upto is None else min(upto, len(actions))
    for i, text in enumerate(actions[:limit]):
        if not isinstance(text, str):
            raise RecordError(f"action {i + 1} is not text: {text!r}")
        try:
            state.apply(text)
        except IllegalAction as err:
            raise RecordError(f"action {i + 1} ({text!r}) does not replay: {err}") from None
        except DealError as err:
            raise RecordError(f"after action {i + 1}: invalid deal: {err}") from None
    if upto is None and record.get("result") is not None:
        got = state.scores().to_dict() if state.is_terminal else None
        if got != record["result"]:
            raise RecordError("the recorded result differs from the replayed one")
    return state


def save_record(state: State, path: str | Path, meta: dict[str, Any] | None = None) -> Path:
    """Write ``state.record()`` as JSON (UTF-8) and return the path.  The record's
    ``meta`` names the xtarot version that wrote it (``"xtarot": "0.1.0"``)."""
    p = Path(path)
    meta = {"xtarot": __version__, **(meta or {})}
    p.write_text(json.dumps(state.record(meta), ensure_ascii=False, indent=1) + "\n", "utf-8")
    return p


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (no replay; see :func:`replay`)."""
    try:
        text = Path(path).read_text("utf-8")
    except OSError as err:
        raise RecordError(f"cannot read record {path}: {err.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path} is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} does not hold a record object")
    return data
