"""準備 (set-up): the card sets, the bid table and the action space of Fairy Five Hundred.

The card set depends on the player count (RULINGS §3); every count deals 10 cards
each and leaves 4 for the キティ (kitty).

>>> [len(card_set(n)) for n in range(3, 9)]
[34, 44, 54, 64, 74, 84]
>>> BID_VALUE[ACTIONS.by_text("bid 7c").id], BID_VALUE[ACTIONS.by_text("bid 10nt").id]
(200, 520)
>>> misere_value("open-hand-misere", "crazy", 4)
5500
"""

from __future__ import annotations

from typing import Final

from xtarot.cards import SUITS, Card, card
from xtarot.engine import ActionSpace

__all__ = [
    "ACTIONS",
    "BID_OF",
    "BID_VALUE",
    "CALL",
    "CALL_OF",
    "CARD_OF",
    "DECLARATIONS",
    "DISCARD",
    "DISCARD_OF",
    "HAND_SIZE",
    "KITTY_SIZE",
    "MISERE_KINDS",
    "PASS",
    "PLAY",
    "PLAY_OF",
    "TRICK_SUITS",
    "UNION",
    "Bid",
    "bid_value",
    "card_set",
    "misere_value",
]

HAND_SIZE: Final = 10
KITTY_SIZE: Final = 4

#: Every rank that any player count uses, in the deck's printed order (no ``M``).
_RANKS: Final = ("N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                 "R", "E", "B", "L", "W", "J", "C", "Q", "K", "F")  # fmt: skip
_COURTS: Final = ("J", "C", "Q", "K", "F")

#: The 84 cards of the 8-player set; every smaller set is a part of it.
UNION: Final[tuple[Card, ...]] = tuple(
    sorted((card(r + s) for s in SUITS for r in _RANKS), key=lambda c: c.index)
)


def _ranks(lo: str, hi: str) -> list[str]:
    return list(_RANKS[_RANKS.index(lo) : _RANKS.index(hi) + 1])


#: (ranks in all four suits, extra ranks in cups and coins only) per player count.
_SETS: Final[dict[int, tuple[list[str], list[str]]]] = {
    3: (_ranks("8", "10"), ["7"]),
    4: (_ranks("5", "10"), []),
    5: (_ranks("3", "10"), ["2"]),
    6: (_ranks("2", "E"), []),
    7: (_ranks("2", "L"), ["W"]),
    8: (_ranks("N", "W"), []),
}


def card_set(players: int) -> list[Card]:
    """This player count's cards (34 .. 84), in deck order."""
    common, red_only = _SETS[players]
    keep = {card(r + s) for s in SUITS for r in [*common, *_COURTS]}
    keep |= {card(r + s) for s in ("c", "d") for r in red_only}
    return [c for c in UNION if c in keep]


# -- bids ---------------------------------------------------------------------------------
#: Trick contract denominations, cheapest first: swords, trees, coins, cups, no trump.
TRICK_SUITS: Final = ("s", "w", "d", "c", "nt")
MISERE_KINDS: Final = ("misere", "hand-misere", "open-misere", "open-hand-misere")
DECLARATIONS: Final = ("", "double", "crazy")
_DECL_FACTOR: Final = {"": 1, "double": 2, "crazy": 10}
#: Misère base values for 3-4, 5-6 and 7-8 players (ミゼール, ハンド, オープン, オープンハンド).
_MISERE_BASE: Final = {
    "misere": (250, 150, 50),
    "hand-misere": (350, 250, 150),
    "open-misere": (450, 350, 250),
    "open-hand-misere": (550, 450, 350),
}


class Bid:
    """A bid: a trick contract (``tricks``, ``trump``: a suit letter or ``None`` for no
    trump) or a misère (``misere`` kind and ``declaration``: ``''``, ``double``, ``crazy``)."""

    __slots__ = ("declaration", "misere", "text", "tricks", "trump")

    def __init__(
        self,
        text: str,
        tricks: int = 0,
        trump: str | None = None,
        misere: str | None = None,
        declaration: str = "",
    ) -> None:
        self.text = text
        self.tricks = tricks
        self.trump = trump
        self.misere = misere
        self.declaration = declaration

    @property
    def is_misere(self) -> bool:
        return self.misere is not None

    @property
    def takes_kitty(self) -> bool:
        """Hand misères (ハンドミゼール) play without the kitty exchange."""
        return self.misere not in ("hand-misere", "open-hand-misere")

    @property
    def is_open(self) -> bool:
        return self.misere in ("open-misere", "open-hand-misere")

    def __repr__(self) -> str:
        return f"Bid({self.text!r})"


def bid_value(tricks: int, denomination: str) -> int:
    """基本点 of a trick contract: 40 (6 swords) .. 520 (10 no trump)."""
    return 40 + 100 * (tricks - 6) + 20 * TRICK_SUITS.index(denomination)


def misere_value(kind: str, declaration: str, players: int) -> int:
    """The declared value of a misère bid at this player count (base x 1, 2 or 10)."""
    column = 0 if players <= 4 else 1 if players <= 6 else 2
    return _MISERE_BASE[kind][column] * _DECL_FACTOR[declaration]


_TRICK_BIDS: Final = [
    Bid(f"bid {k}{d}", tricks=k, trump=None if d == "nt" else d)
    for k in range(6, 11)
    for d in TRICK_SUITS
]
_MISERE_BIDS: Final = [
    Bid(f"bid {kind}{' ' + decl if decl else ''}", misere=kind, declaration=decl)
    for kind in MISERE_KINDS
    for decl in DECLARATIONS
]

# -- the action space: the same 290 ids at every player count ------------------------------
PASS: Final = 0
_BID0: Final = 1
CALL: Final = _BID0 + len(_TRICK_BIDS) + len(_MISERE_BIDS)
DISCARD: Final = CALL + len(UNION)
PLAY: Final = DISCARD + len(UNION)
ACTIONS: Final = ActionSpace(
    ["pass"]
    + [b.text for b in _TRICK_BIDS + _MISERE_BIDS]
    + [f"call {c}" for c in UNION]
    + [f"discard {c}" for c in UNION]
    + [f"play {c}" for c in UNION]
)
#: action id -> Bid, for the 37 bid actions.
BID_OF: Final[dict[int, Bid]] = {_BID0 + i: b for i, b in enumerate(_TRICK_BIDS + _MISERE_BIDS)}
#: action id -> trick-contract value (misère values depend on the player count).
BID_VALUE: Final[dict[int, int]] = {
    i: bid_value(b.tricks, b.trump or "nt") for i, b in BID_OF.items() if not b.is_misere
}
CALL_OF: Final = {c: ACTIONS[CALL + i] for i, c in enumerate(UNION)}
DISCARD_OF: Final = {c: ACTIONS[DISCARD + i] for i, c in enumerate(UNION)}
PLAY_OF: Final = {c: ACTIONS[PLAY + i] for i, c in enumerate(UNION)}
#: action id -> card, for the call / discard / play actions.
CARD_OF: Final[dict[int, Card]] = {
    a.id: UNION[(a.id - CALL) % len(UNION)] for a in ACTIONS if a.id >= CALL
}
