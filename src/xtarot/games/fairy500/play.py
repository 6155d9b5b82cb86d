"""プレイ (play): the three card orders and the effective suits of Fairy Five Hundred.

A *mode* names the order in force: a trump suit letter (``"c" "d" "s" "w"``),
``"nt"`` (no trump, also the ``ten_per_trick`` game) or ``"misere"`` (misère and
ラムシュ Ramsch).  :data:`SUIT_OF` gives each card's effective suit in a mode and
:func:`key_table` its strength in a trick for a given led suit; a card that cannot
win gets -1.

切札がある場合 (trump): cups F > coins F > trees F > swords F > trump J > colour-mate J >
trump K > Q > C > 15 .. N, then the led suit K > Q > C > J > 15 .. N.  Every F and the
colour-mate J belong to the trump suit.

>>> from xtarot.cards import card
>>> SUIT_OF["c"][card("Jd")], SUIT_OF["c"][card("Fs")], SUIT_OF["nt"][card("Fs")]
('c', 'c', 'F')
>>> keys = key_table("misere", "s")
>>> keys[card("Fs")] > keys[card("Fc")] > keys[card("Ks")] > keys[card("Kc")]
True
"""

from __future__ import annotations

from functools import cache
from typing import Final

from xtarot.cards import Card

from .setup import UNION

__all__ = ["MATE", "MODES", "SUIT_OF", "key_table"]

MODES: Final = ("c", "d", "s", "w", "nt", "misere")
#: Colour mates (同色): cups-coins are red, swords-trees black.
MATE: Final = {"c": "d", "d": "c", "s": "w", "w": "s"}
#: Plain order inside a suit, lowest first: N A 2 .. 10 15(W) .. J C Q K.
_PLAIN: Final = ("N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                 "R", "E", "B", "L", "W", "J", "C", "Q", "K")  # fmt: skip
#: Order of the trump suit below the two J, lowest first.
_TRUMP: Final = tuple(r for r in _PLAIN if r != "J")
#: The four F, weakest first: swords < trees < coins < cups.
_FAIRY: Final = {"s": 1, "w": 2, "d": 3, "c": 4}


def _suit_of(c: Card, mode: str) -> str:
    assert c.suit is not None
    if mode == "nt":
        return "F" if c.rank == "F" else c.suit
    if mode == "misere":
        return c.suit
    if c.rank == "F" or (c.rank == "J" and c.suit == MATE[mode]):
        return mode
    return c.suit


#: mode -> card -> effective suit.
SUIT_OF: Final[dict[str, dict[Card, str]]] = {m: {c: _suit_of(c, m) for c in UNION} for m in MODES}


def _key(c: Card, mode: str, led: str) -> int:
    rank, suit = c.rank, c.suit
    assert rank is not None and suit is not None
    if rank == "F":
        if mode == "misere" and suit == led:
            return 2000  # 台札 F: the led suit's own F is the top card
        return 1000 + _FAIRY[suit]
    if mode in MATE:
        if rank == "J" and suit == mode:
            return 901
        if rank == "J" and suit == MATE[mode]:
            return 900
        if suit == mode:
            return 500 + _TRUMP.index(rank)
    if suit == led:
        return 100 + _PLAIN.index(rank)
    return -1


@cache
def key_table(mode: str, led: str) -> dict[Card, int]:
    """card -> strength in a trick of this mode whose led (effective) suit is ``led``."""
    return {c: _key(c, mode, led) for c in UNION}
