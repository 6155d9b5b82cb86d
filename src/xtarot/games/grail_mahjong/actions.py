"""Grail Mahjong's cards and its fixed action space.

The card set (RULINGS §5): numbers 1..k in five suits, the majors ``T1..Tk`` being
the fifth suit (``T``) and ``A`` counting 1 in the four printed suits, plus the three
cup specials ``Oc`` (ダーザの杯, the wild), ``Rc`` (聖杯の休息, ends the hand) and
``Lc`` (聖杯の幸運, doubles its owner's score).  k = 6, 8, 10 at 2, 3, 4 players.

Every meld and claim text that can exist with the largest card set (k = 10) is
enumerated once, at import, into one :class:`~xtarot.engine.ActionSpace` of 2,909
ids shared by every player count (fewer than the ~5,000 where splitting melds into
steps would pay off).  Each id also carries a parsed meaning (:data:`INFO`), so
applying an action never parses text.

>>> len(ACTIONS)
2909
>>> ACTIONS.by_text("pon 3c 3s Oc=3").id == PON[(3, (card("3c"), card("3s"), WILD))].id
True
>>> INFO[ACTIONS.by_text("chi 4c Oc=5c 6c").id]
('chi', 'c', 4, 1)
>>> natural("T", 7), natural("d", 1), number(card("Ad")), suit_key(card("T7"))
(Card('T7'), Card('Ad'), 1, 'T')
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from xtarot.cards import DAZA_CUP, Card, card
from xtarot.engine import ActionSpace

__all__ = [
    "ACTIONS",
    "ADD",
    "CHI",
    "CLAIM_CHI",
    "CLAIM_PON",
    "DISCARD",
    "HAND_SIZE",
    "INFO",
    "LUCK",
    "LUCK_CARD",
    "MAX_K",
    "MAX_MELDS",
    "NAT",
    "NUMBER",
    "PASS",
    "PON",
    "REST",
    "SUIT_ORDER",
    "WILD",
    "card_set",
    "k_for",
    "natural",
    "number",
    "runs_of",
    "sort_key",
    "suit_key",
    "wild_text",
]

#: The five suits in the order texts list them: majors, cups, coins, swords, trees.
SUIT_ORDER: tuple[str, ...] = ("T", "c", "d", "s", "w")
_SUIT_RANK = {s: i for i, s in enumerate(SUIT_ORDER)}
MAX_K = 10
#: Cards dealt to each player.
HAND_SIZE = 9
#: A player's melds hold at least 3 of the 51 meldable cards, so 17 at most.
MAX_MELDS = 17

WILD: Card = DAZA_CUP
REST: Card = card("Rc")
LUCK_CARD: Card = card("Lc")


def natural(suit: str, n: int) -> Card:
    """The number card ``n`` of a suit (``'T'`` for the majors; A = 1)."""
    if suit == "T":
        return card(f"T{n}")
    return card(("A" if n == 1 else str(n)) + suit)


#: ``NAT[suit][n]``: the natural card ``n`` of a suit (index 0 unused).
NAT: dict[str, tuple[Card, ...]] = {
    s: (WILD, *(natural(s, n) for n in range(1, MAX_K + 1))) for s in SUIT_ORDER
}
_NATURALS: tuple[Card, ...] = tuple(natural(s, n) for s in SUIT_ORDER for n in range(1, MAX_K + 1))
#: The number of every natural card (the specials have none).
NUMBER: dict[Card, int] = {natural(s, n): n for s in SUIT_ORDER for n in range(1, MAX_K + 1)}
_SUIT: dict[Card, str] = {natural(s, n): s for s in SUIT_ORDER for n in range(1, MAX_K + 1)}
_SORT: dict[Card, tuple[int, int]] = {c: (_SUIT_RANK[_SUIT[c]], NUMBER[c]) for c in _NATURALS}
_SORT.update({WILD: (5, 0), REST: (5, 1), LUCK_CARD: (5, 2)})


def number(c: Card) -> int:
    """The number of a natural card (KeyError for the three specials)."""
    return NUMBER[c]


def suit_key(c: Card) -> str:
    """The suit of a natural card: ``'T'`` for a major, else its suit letter."""
    return _SUIT[c]


def sort_key(c: Card) -> tuple[int, int]:
    """Hand order: suits T c d s w, numbers up, then ``Oc Rc Lc``."""
    return _SORT[c]


def k_for(players: int) -> int:
    """The highest number in play: 6, 8, 10 at 2, 3, 4 players."""
    return 2 * players + 2


def card_set(players: int) -> list[Card]:
    """The game's cards at this player count (33, 43 or 53), in listing order."""
    k = k_for(players)
    return [natural(s, n) for s in SUIT_ORDER for n in range(1, k + 1)] + [
        WILD,
        REST,
        LUCK_CARD,
    ]


def runs_of(k: int) -> dict[Card, tuple[tuple[str, int], ...]]:
    """For each natural card of the k-set, the three-card runs ``(suit, lowest)`` it is in."""
    return {
        natural(s, n): tuple((s, lo) for lo in range(max(1, n - 2), min(n, k - 2) + 1))
        for s in SUIT_ORDER
        for n in range(1, k + 1)
    }


def wild_text(meaning: int | Card) -> str:
    """``Oc=3`` (a number, in a pon) or ``Oc=5c`` (a card, in a chi)."""
    return f"Oc={meaning}"


def _show(cs: tuple[Card, ...], meaning: int | Card | None) -> str:
    return " ".join(wild_text(meaning) if c is WILD else c.code for c in cs)  # type: ignore[arg-type]


# -- building the table ---------------------------------------------------------------
_texts: list[str] = ["pass", "luck"]
_info: list[tuple[Any, ...]] = [("pass",), ("luck",)]

#: discard <card>, per card (``Lc`` is never discarded: it is played with ``luck``).
DISCARD: dict[Card, int] = {}
#: pon from the hand: (number, cards in suit order with the wild last) -> id.
PON: dict[tuple[int, tuple[Card, ...]], Any] = {}
#: chi from the hand: (suit, lowest number, wild position or -1) -> id.
CHI: dict[tuple[str, int, int], Any] = {}
#: add: (meld number, card, wild meaning or None) -> id.
ADD: dict[tuple[int, Card, int | Card | None], Any] = {}
#: claim pon: (claimer's cards, discard is the wild) -> id.
CLAIM_PON: dict[tuple[tuple[Card, ...], bool], Any] = {}
#: claim chi: (cards in run order, the wild standing for a card or None, discard is wild) -> id.
CLAIM_CHI: dict[tuple[tuple[Card, ...], Card | None, bool], Any] = {}


def _add(text: str, info: tuple[Any, ...]) -> int:
    _texts.append(text)
    _info.append(info)
    return len(_texts) - 1


for _c in (*_NATURALS, WILD, REST):
    DISCARD[_c] = _add(f"discard {_c}", ("discard", _c))

for _n in range(1, MAX_K + 1):
    _same = [natural(s, _n) for s in SUIT_ORDER]
    for _three in combinations(_same, 3):
        PON[(_n, _three)] = _add("pon " + _show(_three, None), ("pon", _n, _three))
    for _two in combinations(_same, 2):
        _cs = (*_two, WILD)
        PON[(_n, _cs)] = _add("pon " + _show(_cs, _n), ("pon", _n, _cs))

for _s in SUIT_ORDER:
    for _lo in range(1, MAX_K - 1):
        _run = tuple(natural(_s, _lo + i) for i in range(3))
        CHI[(_s, _lo, -1)] = _add("chi " + _show(_run, None), ("chi", _s, _lo, -1))
        for _w in range(3):
            _cs = tuple(WILD if i == _w else c for i, c in enumerate(_run))
            CHI[(_s, _lo, _w)] = _add("chi " + _show(_cs, _run[_w]), ("chi", _s, _lo, _w))

for _m in range(MAX_MELDS):
    for _c in _NATURALS:
        ADD[(_m, _c, None)] = _add(f"add {_c} {_m}", ("add", _m, _c, None))
    for _n in range(1, MAX_K + 1):
        ADD[(_m, WILD, _n)] = _add(f"add {wild_text(_n)} {_m}", ("add", _m, WILD, _n))
    for _c in _NATURALS:
        ADD[(_m, WILD, _c)] = _add(f"add {wild_text(_c)} {_m}", ("add", _m, WILD, _c))

for _n in range(1, MAX_K + 1):
    _same = [natural(s, _n) for s in SUIT_ORDER]
    for _two in combinations(_same, 2):
        CLAIM_PON[(_two, False)] = _add(
            "claim pon " + _show(_two, None), ("claim_pon", _n, _two, False)
        )
        CLAIM_PON[(_two, True)] = _add(
            "claim pon " + _show((*_two, WILD), _n), ("claim_pon", _n, _two, True)
        )
    for _c in _same:
        _cs = (_c, WILD)
        CLAIM_PON[(_cs, False)] = _add("claim pon " + _show(_cs, _n), ("claim_pon", _n, _cs, False))

for _s in SUIT_ORDER:
    for _a in range(1, MAX_K + 1):
        for _b in (_a + 1, _a + 2):
            if _b > MAX_K:
                continue
            _x, _y = natural(_s, _a), natural(_s, _b)
            CLAIM_CHI[((_x, _y), None, False)] = _add(
                f"claim chi {_x} {_y}", ("claim_chi", None, (_x, _y), False)
            )
            # the claimer's own wild at either place
            CLAIM_CHI[((WILD, _y), _x, False)] = _add(
                f"claim chi {wild_text(_x)} {_y}", ("claim_chi", _x, (WILD, _y), False)
            )
            CLAIM_CHI[((_x, WILD), _y, False)] = _add(
                f"claim chi {_x} {wild_text(_y)}", ("claim_chi", _y, (_x, WILD), False)
            )
    for _lo in range(1, MAX_K - 1):
        _run = tuple(natural(_s, _lo + i) for i in range(3))
        for _w in range(3):
            _cs = tuple(WILD if i == _w else c for i, c in enumerate(_run))
            CLAIM_CHI[(_cs, _run[_w], True)] = _add(
                "claim chi " + _show(_cs, _run[_w]), ("claim_chi", _run[_w], _cs, True)
            )

ACTIONS = ActionSpace(_texts)
#: The parsed meaning of every action id.
INFO: tuple[tuple[Any, ...], ...] = tuple(_info)
PASS, LUCK = ACTIONS[0], ACTIONS[1]
# the tables map to Action objects from here on
for _table in (DISCARD, PON, CHI, ADD, CLAIM_PON, CLAIM_CHI):
    for _key, _id in list(_table.items()):
        _table[_key] = ACTIONS[_id]  # type: ignore[index]
