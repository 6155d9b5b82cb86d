"""Whist's fields for xtarot's machine-learning adapters (OpenSpiel, PettingZoo).

``fields(game)`` lists the named slices of an observation tensor, read from one
seat's view: xtarot's common fields (phase, seat to act, own hand, hand sizes, side
points), then the dealer, trump, the trick so far, this hand's played cards by seat,
tricks won and the voids each seat has shown.
"""

from __future__ import annotations

from typing import Any

from xtarot.adapters.tensors import Field, common_fields
from xtarot.engine import Game

__all__ = ["fields"]

_SUITS = ("c", "d", "s", "w")
_BITS = {"c": 1, "d": 2, "s": 4, "w": 8}


def _trick(part: str) -> Any:
    return lambda v: (v.get("trick") or {}).get(part)


def fields(game: Game) -> list[Field]:
    """The tensor layout of a whist configuration (the same for every option)."""
    return [
        *common_fields(("play", "over"), 10.0),
        Field("hand_number", "number", lambda v: v.get("hand_number"), 10.0),
        Field("dealer", "seat", lambda v: v.get("dealer")),
        Field("trump", "choice", lambda v: v.get("trump"), choices=_SUITS),
        Field("trump_card", "cards", lambda v: [v["trump_card"]], meaning="the turned-up card"),
        Field("trick_leader", "seat", _trick("leader")),
        Field("led_suit", "choice", _trick("led_suit"), choices=_SUITS),
        Field("trick", "played", _trick("cards"), meaning="the trick so far, by seat"),
        Field("tricks", "played", lambda v: v.get("tricks"), meaning="this hand's tricks"),
        Field("tricks_won", "seat numbers", lambda v: v.get("tricks_won"), 13.0),
        Field(
            "voids",
            "seat numbers",
            lambda v: [sum(_BITS[s] for s in vs) for vs in v.get("voids") or ()],
            15.0,
            meaning="suits a seat has shown it lacks, bit mask c=1 d=2 s=4 w=8, /15",
        ),
    ]
