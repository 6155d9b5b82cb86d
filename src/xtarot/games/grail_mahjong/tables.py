"""Precomputed tables that let 聖杯麻雀 list its legal actions with integer masks.

Each card of the 53-card set owns one bit (:data:`BIT`): the naturals ``suit * 10 +
(number - 1)`` with the suits in text order (T c d s w), then ``Oc``, ``Rc``, ``Lc``
(bits 50, 51, 52).  A seat's hand is mirrored in such a mask, so "does the hand hold
these two cards" is one ``&``.  The bits of the naturals follow the action ids of
``discard <card>``, so the discards of a hand come out of per-suit tables already
in id order.  Above bit 52 a hand's mask also counts its naturals per number, 3 bits
a number (:data:`HAND_BIT` adds a card's bit and its count at once), so "which
numbers does the hand hold two or three of" is an addition and an ``&``.

Everything that depends on the highest number ``k`` (6, 8 or 10) lives in a
:class:`Tables` object, built once per ``k`` (:func:`tables_for`).  Each table
lists actions in id order, so the legal list is built in order without sorting.

>>> from xtarot.cards import card
>>> t = tables_for(6)
>>> hand = mask_of([card("3c"), card("5c"), WILD])
>>> print(*t.claims(hand, card("4c")), sep=",")
pass,claim chi Oc=2c 3c,claim chi 3c 5c,claim chi Oc=3c 5c,claim chi 3c Oc=5c,claim chi 5c Oc=6c
>>> [a.text for a in t.discards(hand | BIT[LUCK_CARD])]
['luck', 'discard 3c', 'discard 5c', 'discard Oc']
>>> [a.text for a in t.melds(mask_of([card("3c"), card("3d"), card("4c"), WILD]))]
['pon 3c 3d Oc=3', 'chi Oc=2c 3c 4c', 'chi 3c 4c Oc=5c']
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from xtarot.cards import Card
from xtarot.engine import Action
from xtarot.games.grail_mahjong.actions import (
    ADD,
    CHI,
    CLAIM_CHI,
    CLAIM_PON,
    DISCARD,
    LUCK,
    LUCK_CARD,
    MAX_K,
    NAT,
    PASS,
    PON,
    REST,
    SUIT_ORDER,
    WILD,
)

try:  # compiled (setup.py, ``PLAYOUTS``): a turn's fields as C ints; as Python: no-ops
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = [
    "BIT",
    "HAND_BIT",
    "LUCK_BIT",
    "NATURAL_BITS",
    "NO_ADDS",
    "WILD_BIT",
    "Adds",
    "ClaimEntry",
    "Tables",
    "mask_of",
    "tables_for",
]

#: One bit per card of the 53-card set.
BIT: dict[Card, int] = {
    NAT[s][n]: 1 << (i * MAX_K + n - 1) for i, s in enumerate(SUIT_ORDER) for n in range(1, 11)
}
BIT[WILD] = 1 << 50
BIT[REST] = 1 << 51
BIT[LUCK_CARD] = 1 << 52
WILD_BIT, LUCK_BIT = BIT[WILD], BIT[LUCK_CARD]
_COUNTS = 53  # the first bit of the per-number counts
#: What a card adds to a hand's mask: its bit, and 1 to its number's count.
HAND_BIT: dict[Card, int] = {
    c: b + (1 << _COUNTS + 3 * ((b.bit_length() - 1) % MAX_K)) if b < WILD_BIT else b
    for c, b in BIT.items()
}
#: per count field: 1, 2 and 4 (adding 1 or 2 sets the 4 of counts from 3 or 2 up)
_ONES = sum(1 << 3 * i for i in range(MAX_K))
_TWOS, _FOURS = 2 * _ONES, 4 * _ONES
#: The bits of all 50 naturals.
NATURAL_BITS = (1 << 50) - 1
#: a mask's low two 30-bit int digits (bits 0-59); ``Oc`` and ``Lc`` in the second
_LOW_DIGITS = (1 << 60) - 1
_WILD_SWX, _LUCK_SWX = WILD_BIT >> 30, LUCK_BIT >> 30
#: bits 0, 10, 20, 30, 40: multiplied by a number's bit, that number in every suit.
_SPREAD = sum(1 << (MAX_K * i) for i in range(5))
_CARD_OF_BIT: dict[int, Card] = {b.bit_length() - 1: c for c, b in BIT.items()}


def mask_of(cards: list[Card]) -> int:
    """The mask of a hand (a list of distinct cards), counts included."""
    return sum(map(HAND_BIT.__getitem__, cards))


def _discard_tables() -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """``table[i][field]``: the discards of the set bits of a mask's ``i``-th 10-bit
    field (a suit; the sixth holds ``Oc Rc Lc``), in id order (``Lc`` is played with
    ``luck``, never discarded, so its bit gives none)."""
    out = []
    for i in range(6):
        row = []
        for field in range(1 << MAX_K if i < 5 else 8):
            acts = []
            for b in range(MAX_K):
                c = _CARD_OF_BIT.get(MAX_K * i + b)
                if field >> b & 1 and c is not None and c is not LUCK_CARD:
                    acts.append(DISCARD[c])  # type: ignore[arg-type]
            row.append(tuple(acts))
        out.append(tuple(row))
    return tuple(out)


_DT, _DC, _DD, _DS, _DW, _DX = _discard_tables()


def _by_id(entries: list[tuple[int, Action]]) -> tuple[tuple[int, Action], ...]:
    return tuple(sorted(entries, key=lambda e: e[1].id))


#: what can be added to melds: (the bits of the cards needed, (card bit, action) in id order)
Adds = tuple[int, tuple[tuple[int, Action], ...]]
#: what claims a discard allows (see ``Tables.claim_table``)
ClaimEntry = tuple[int, tuple[tuple[int, Action], ...], dict[int, list[Action]] | None]
NO_ADDS: Adds = (0, ())


class Tables:
    """The legal-action tables of one card set (highest number ``k``)."""

    def __init__(self, k: int) -> None:
        self.k = k
        #: per discard: the bits of every card that helps claim it, the possible
        #: claims as (the two bits they need, action) in id order, and the answers
        #: found so far for a hand's helping cards (filled as they are met; ``None``
        #: for a discarded wild: too many hands help to keep them all)
        self.claim_table: dict[Card, ClaimEntry] = {}
        naturals = [NAT[s][n] for s in SUIT_ORDER for n in range(1, k + 1)]
        for d in naturals:
            self.claim_table[d] = (*self._claims_of_natural(d), {})
        self.claim_table[WILD] = (*self._claims_of_wild(), None)
        self._pon: dict[int, tuple[Action, ...]] = {}
        #: per suit (text order), per value of its 10-bit field: its chis from a hand,
        #: in id order, without and with the wild (see ``_chi_rows``)
        self._chis_plain = _chi_rows(k, False)
        self._chis_wild = _chi_rows(k, True)
        self._adds: dict[tuple[int, int, int, str], Adds] = {}

    # -- claims --------------------------------------------------------------------------
    def _claims_of_natural(self, d: Card) -> tuple[int, tuple[tuple[int, Action], ...]]:
        k = self.k
        v = _number(d)
        u = _suit(d)
        entries: list[tuple[int, Action]] = []
        same = [NAT[s][v] for s in SUIT_ORDER if NAT[s][v] is not d]
        for two in combinations(same, 2):
            entries.append((BIT[two[0]] | BIT[two[1]], CLAIM_PON[(two, False)]))
        for c in same:
            entries.append((BIT[c] | WILD_BIT, CLAIM_PON[((c, WILD), False)]))
        for lo in range(max(1, v - 2), min(v, k - 2) + 1):
            p, q = (NAT[u][x] for x in range(lo, lo + 3) if x != v)
            entries.append((BIT[p] | BIT[q], CLAIM_CHI[((p, q), None, False)]))
            entries.append((WILD_BIT | BIT[q], CLAIM_CHI[((WILD, q), p, False)]))
            entries.append((BIT[p] | WILD_BIT, CLAIM_CHI[((p, WILD), q, False)]))
        return _relevant(entries), _by_id(entries)

    def _claims_of_wild(self) -> tuple[int, tuple[tuple[int, Action], ...]]:
        k = self.k
        entries: list[tuple[int, Action]] = []
        for n in range(1, k + 1):
            for two in combinations([NAT[s][n] for s in SUIT_ORDER], 2):
                entries.append((BIT[two[0]] | BIT[two[1]], CLAIM_PON[(two, True)]))
        for s in SUIT_ORDER:
            run = NAT[s]
            for a in range(1, k + 1):
                x = run[a]
                if a + 2 <= k:
                    y = run[a + 2]
                    entries.append((BIT[x] | BIT[y], CLAIM_CHI[((x, WILD, y), run[a + 1], True)]))
                if a + 1 <= k:
                    y = run[a + 1]
                    if a - 1 >= 1:
                        key = ((WILD, x, y), run[a - 1], True)
                        entries.append((BIT[x] | BIT[y], CLAIM_CHI[key]))
                    if a + 2 <= k:
                        key = ((x, y, WILD), run[a + 2], True)
                        entries.append((BIT[x] | BIT[y], CLAIM_CHI[key]))
        return _relevant(entries), _by_id(entries)

    def claims(self, hand: int, d: Card) -> list[Action]:
        """``pass`` and every claim a hand (mask) can make on the discard ``d``, in
        id order.  The answer depends only on the hand's helping cards, so it is kept
        per discard and helping cards (except for a discarded wild: too many hands
        help to keep them all).  ``GrailMahjongState._legal_actions`` inlines this."""
        relevant, entries, known = self.claim_table[d]
        hand &= relevant
        if hand.bit_count() < 2:  # every claim needs two of the claimer's cards
            return [PASS]
        found = known.get(hand) if known is not None else None
        if found is None:
            found = [PASS, *[a for need, a in entries if hand & need == need]]
            if known is not None:
                known[hand] = found
        return list(found)

    # -- a turn ----------------------------------------------------------------------------
    @staticmethod
    def discards(hand: int) -> list[Action]:
        """``luck`` (holding ``Lc``) and a discard per other card held, in id order."""
        return [
            *((LUCK,) if hand & LUCK_BIT else ()),
            *_DT[hand & 1023], *_DC[hand >> 10 & 1023], *_DD[hand >> 20 & 1023],
            *_DS[hand >> 30 & 1023], *_DW[hand >> 40 & 1023], *_DX[hand >> 50 & 7],
        ]  # fmt: skip

    def melds(self, hand: int) -> list[Action]:
        """Every pon and chi from a hand (mask), in id order."""
        return self.turn(hand, [])

    @cython.locals(tcd=cython.Py_ssize_t, swx=cython.Py_ssize_t, t=cython.Py_ssize_t,
                   c=cython.Py_ssize_t, d=cython.Py_ssize_t, s=cython.Py_ssize_t,
                   w=cython.Py_ssize_t, pons=cython.Py_ssize_t, low=cython.Py_ssize_t,
                   both=cython.Py_ssize_t)  # fmt: skip
    def turn(self, hand: int, acts: list[Action] | None = None) -> list[Action]:
        """What a hand (mask) can do in its turn, in id order: ``luck`` and the
        discards (unless ``acts`` is given: then it is extended with the melds only),
        then every pon and chi."""
        # The mask is an 83-bit int, three of Python's 30-bit digits, and every
        # operation on it makes a new multi-digit int; its digits are read once --
        # ``tcd`` (bits 0-29: suits T c d), ``swx`` (bits 30-59: suits s w, then
        # ``Oc Rc Lc`` at 20-22) and the counts (bits 53-82) -- and the rest works on
        # those one-digit ints, which Python adds, shifts and masks without a loop.
        # (Compiled, the low two digits are one C int and the digits are split in C:
        # one operation on the mask, where Python makes three either way.)
        both = hand & _LOW_DIGITS
        tcd = both & (1 << 30) - 1
        swx = both >> 30
        # each suit's 10-bit field, read once: it indexes both its discards and its chis
        t = tcd & 1023
        c = tcd >> 10 & 1023
        d = tcd >> 20
        s = swx & 1023
        w = swx >> 10 & 1023
        if acts is None:
            acts = [
                *((LUCK,) if swx & _LUCK_SWX else ()),
                *_DT[t], *_DC[c], *_DD[d], *_DS[s], *_DW[w], *_DX[swx >> 20 & 7],
            ]  # fmt: skip
        # the numbers held two times with the wild, or three times: a 4 in the count
        if swx & _WILD_SWX:
            wild = WILD_BIT
            pons = ((hand >> _COUNTS) + _TWOS) & _FOURS
            ct, cc, cd, cs, cw = self._chis_wild
        else:
            wild = 0
            pons = ((hand >> _COUNTS) + _ONES) & _FOURS
            ct, cc, cd, cs, cw = self._chis_plain
        if pons:
            x = hand & NATURAL_BITS
            pon = self._pon
            while pons:  # by number, up
                low = pons & -pons
                pons ^= low
                key = x & _SPREAD << (low.bit_length() - 3) // 3 | wild
                found = pon.get(key)
                if found is None:
                    found = pon[key] = self._pons(key)
                acts += found
        # the chis, by suit in text order: mostly none, and an empty row is skipped
        # (a test costs less than extending a list by an empty tuple)
        row = ct[t]
        if row:
            acts += row
        row = cc[c]
        if row:
            acts += row
        row = cd[d]
        if row:
            acts += row
        row = cs[s]
        if row:
            acts += row
        row = cw[w]
        if row:
            acts += row
        return acts

    def adds(self, i: int, lo: int, hi: int, suit: str) -> Adds:
        """The cards one could add to one's meld number ``i`` (a pon of ``lo`` when
        ``suit`` is empty, else a chi ``lo..hi`` of ``suit``): the bits of all those
        cards, and each add with the bit of the card it needs, in id order (the
        naturals, then the wild as a number or as a card at either end)."""
        key = (i, lo, hi, suit)
        found = self._adds.get(key)
        if found is None:
            if not suit:
                same = [NAT[s][lo] for s in SUIT_ORDER]
                out = [(BIT[c], ADD[(i, c, None)]) for c in same]
                out.append((WILD_BIT, ADD[(i, WILD, lo)]))
            else:
                ends = [NAT[suit][e] for e in (lo - 1, hi + 1) if 1 <= e <= self.k]
                out = [(BIT[c], ADD[(i, c, None)]) for c in ends]
                out += [(WILD_BIT, ADD[(i, WILD, c)]) for c in ends]
            found = self._adds[key] = (_relevant(out), _by_id(out))
        return found

    @staticmethod
    def _pons(key: int) -> tuple[Action, ...]:
        held = [c for c, b in BIT.items() if key & b and c is not WILD]
        n = _number(held[0])
        out = [PON[(n, three)] for three in combinations(held, 3)]
        if key & WILD_BIT:
            out.extend(PON[(n, (*two, WILD))] for two in combinations(held, 2))
        return tuple(sorted(out, key=lambda a: a.id))


def _chi_rows(k: int, wild: bool) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """Per suit (text order), per value of a hand's 10-bit field of that suit: the
    chis the hand can make in it (holding the wild or not), in id order -- by lowest
    number, then the run itself before the wild in each of its three places."""
    shapes: list[list[tuple[int, int]]] = []
    for field in range(1 << MAX_K):
        shape: list[tuple[int, int]] = []
        if not field >> k:  # (no card above k exists)
            for lo in range(1, k - 1):
                has = field >> (lo - 1) & 7  # lo, lo + 1, lo + 2
                if has == 7:
                    shape.append((lo, -1))
                    if wild:
                        shape += [(lo, 0), (lo, 1), (lo, 2)]
                elif wild and has in _GAP:
                    shape.append((lo, _GAP[has]))
        shapes.append(shape)
    return tuple(
        tuple(tuple(CHI[(s, lo, w)] for lo, w in shape) for shape in shapes) for s in SUIT_ORDER
    )


#: two of a run's three numbers held (bits lo, lo + 1, lo + 2): the wild's place
_GAP = {0b110: 0, 0b101: 1, 0b011: 2}


def _relevant(entries: list[tuple[int, Action]]) -> int:
    m = 0
    for need, _ in entries:
        m |= need
    return m


def _number(c: Card) -> int:
    return (BIT[c].bit_length() - 1) % MAX_K + 1


def _suit(c: Card) -> str:
    return SUIT_ORDER[(BIT[c].bit_length() - 1) // MAX_K]


@cache
def tables_for(k: int) -> Tables:
    """The tables of the card set with highest number ``k`` (built once)."""
    return Tables(k)
