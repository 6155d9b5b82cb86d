"""Extendori's fixed rules: decks, deal schedules, points, following keys, who wins
a trick, and the action space (``play <card>``, id = card index)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from xtarot.cards import XTAROT, Card
from xtarot.engine import Action, ActionSpace

#: The "suit" of the major arcana in following rules, views and voids.
MAJORS = "T"

#: Minor ranks of the led suit, weakest first (before the F/N/M wrap-around).
MINOR_ORDER: tuple[str, ...] = (
    "M", "N", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "R", "E", "B", "L", "W", "J", "C", "Q", "K", "A", "F",
)  # fmt: skip
_NO_POINTS = frozenset(str(i) for i in range(2, 11))

#: The deck sizes and the player counts that play them (the first count's default).
DECK_SIZES: dict[int, tuple[int, ...]] = {112: (4, 7, 8), 111: (3,), 110: (5,), 108: (3, 6)}
_DEFAULT_DECK = {3: 108, 4: 112, 5: 110, 6: 108, 7: 112, 8: 112}

#: Cards per player in each batch, by (players, deck size); single deal at 7-8.
SCHEDULES: dict[tuple[int, int], tuple[int, ...]] = {
    (3, 108): (12, 12, 12),
    (3, 111): (13, 12, 12),
    (4, 112): (14, 14),
    (5, 110): (11, 11),
    (6, 108): (9, 9),
    (7, 112): (8, 8),
    (8, 112): (7, 7),
}
_SINGLE = {7: (16,), 8: (14,)}


def points(c: Card) -> int:
    """A card's points: 15 for a minor outside 2-10, 30 for T0 and T1, else 0.

    >>> from xtarot.cards import card
    >>> points(card("Kc")), points(card("7c")), points(card("Mc")), points(card("T1"))
    (15, 0, 15, 30)
    """
    if c.suit is None:
        return 30 if c.number in (0, 1) else 0
    return 0 if c.rank in _NO_POINTS else 15


def deck_cards(size: int) -> list[Card]:
    """The cards of a 112/111/110/108-card deck, in index order."""
    if size == 111:
        return [c for c in XTAROT if c.code != "T23"]
    if size == 110:
        return [c for c in XTAROT if c.code not in ("T22", "T23")]
    if size == 108:
        return [c for c in XTAROT if c.rank != "N"]
    return list(XTAROT)


def _top_major(size: int) -> int:
    return {111: 22, 110: 21}.get(size, 23)


# -- per-card tables, indexed by Card.index (0..111) ------------------------------------
_KEY: list[str] = [c.suit if c.suit is not None else MAJORS for c in XTAROT]
_POINTS: list[int] = [points(c) for c in XTAROT]
_MINOR: list[int] = [MINOR_ORDER.index(c.rank) if c.rank else -1 for c in XTAROT]
_F, _N, _M = MINOR_ORDER.index("F"), MINOR_ORDER.index("N"), MINOR_ORDER.index("M")


def suit_key(c: Card) -> str:
    """The suit a card follows as: its suit letter, or ``"T"`` for a major."""
    return _KEY[c.index]


def trick_winner(plays: Sequence[tuple[int, Card]], top_major: int) -> int:
    """The seat that wins a complete trick (the first play is the led card).

    >>> from xtarot.cards import card
    >>> trick_winner([(0, card("Kc")), (1, card("Ac")), (2, card("T2"))], 23)
    2
    >>> trick_winner([(0, card("T23")), (1, card("T1")), (2, card("T22"))], 23)
    1
    >>> trick_winner([(0, card("Fs")), (1, card("Ns")), (2, card("Mc"))], 23)
    1
    """
    majors = [(s, c.number) for s, c in plays if c.suit is None]
    if majors:
        numbers = {num for _, num in majors}
        if top_major in numbers and (0 in numbers or 1 in numbers):
            # ... < top < T1 < T0
            return max(majors, key=lambda sn: 100 - sn[1] if sn[1] in (0, 1) else sn[1])[0]  # type: ignore[operator]
        return max(majors, key=lambda sn: sn[1])[0]  # type: ignore[arg-type, return-value]
    led = plays[0][1].suit
    mine = [(s, _MINOR[c.index]) for s, c in plays if c.suit == led]
    ranks = {r for _, r in mine}
    if _F in ranks and (_N in ranks or _M in ranks):
        # ... < A < F < N < M
        return max(mine, key=lambda sr: 100 - sr[1] if sr[1] <= _N else sr[1])[0]
    return max(mine, key=lambda sr: sr[1])[0]


# -- the action space: "play <card>" for the 112 Xtarot cards, id = card index ----------
ACTIONS = ActionSpace([f"play {c}" for c in XTAROT])
_PLAY: list[Action] = list(ACTIONS)
_CARD_OF: list[Card] = list(XTAROT)


def _index(c: Card) -> int:
    return c.index


def _suit_name(key: Hashable) -> str:
    return {"c": "cups", "d": "coins", "s": "swords", "w": "trees", MAJORS: "majors"}[str(key)]
