"""A casual-good player of マット呼んだ? (Did You Call Matto?).

Strategy, from the seat's view only:

1. **Worth of a major to me**: 1 point, plus progress towards a set I can still
   complete (T12+T13+T15, T17+T18+T19, T20+T21: +5 when it completes one, a share of
   that when the set is still open), plus a little for denying a set an opponent is
   building; minus the risk of the Fool (愚者, -4 net): while ``T0`` is still in the
   face-down pile, the replacement turned up after my purchase is the Fool with
   probability 1 / majors left, charged 2 points times that (4 when I lead: I have
   more to lose; not buying only hands the majors, and the risk, to the others).
2. **Buy efficiently**: each purchase is paid with the fewest cards that sum exactly
   to its number; cards spent are charged a little (they buy later majors; the charge
   is 1.5 / players a card, since with more players a major waits less long), nothing
   on the last turn.  The set of purchases of highest total net worth is bought, the
   one of best worth per card first.
3. **Control the end**: a purchase that empties the major pile, or drawing the last
   stock card, makes this turn the last one.  Take it when I would then be (joint)
   first after buying what I can this turn; otherwise hold back (draw from the discard
   pile, leave the last pile major).  When the last face-down major is the Fool, any
   purchase takes it (-4).  On the last turn everything worth a point is bought.
4. **Refill**: take the discard pile's top when it does more for my purchases this turn
   than the average unseen stock card would (typically: it completes an exact payment).
5. **Paying order**: the last card paid becomes the discard top for the next player,
   so the cards go largest first and the smallest last.

Speed matters here: the expert bot finishes every sampled world with this strategy in
every seat (issue #40), and a draw decision plans a turn for every value an unseen
stock card could have.  So a hand is one int, its *value key* (a few bits counting its
cards of each paying value, the aces most significant), and the cheapest payment of
every amount up to 21 is a table per value key (:func:`_table`, kept for the keys
met), each payment an int ordered as the knapsack that chose them ordered them, with
its own value key in its low bits: spending it is one subtraction, and a hand's table
grows from the table of the hand less one card in one pass (:func:`_grow`).  A plan
tries the orders of the payable field majors by their places on the field, from
tables built at import, with each major's worth looked up by the field majors bought
before it.  The choices are the same to the last tie and the floats the same
operations in the same order as planning on sorted tuples of values was; the words of
an explanation (and the cards a planned purchase would pay with) are made only when
``explain()`` asks for them.  Compiled (``PLAYOUTS`` of
:mod:`xtarot._compiled`), the plan loop's ints are C ints and its floats C doubles.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Any

from xtarot.agents.base import Decision, Explanation
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.engine import Action
from xtarot.games.matto import ACTIONS

try:  # compiled (setup.py): C ints and doubles for the plans; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = ["MattoHeuristic", "cheapest_payment", "major_worth", "minor_value"]

SETS: tuple[tuple[int, ...], ...] = ((12, 13, 15), (17, 18, 19), (20, 21))
_SET_OF = {n: s for s in SETS for n in s}
_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]
_MINORS = [r + s for s in "cdsw" for r in _RANKS]
#: what a card spent now would have bought later, in points (0 on the last turn),
#: divided by the number of players (with more players a major waits less long)
CARD_CHARGE = 1.5
#: the Fool's cost (-5, though it counts as a major) charged at 1 / majors left
FOOL_NET = 2.0
FOOL_NET_AHEAD = 4.0
FOOL_NET_CERTAIN = 5.0
#: an open set's piece: a base, plus this much more per piece already held
SET_OPEN = 0.5
SET_STEP = 1.5
#: the last piece an opponent needs for a set
DENY = 1.5


def minor_value(code: str) -> int:
    """A minor's paying value.

    >>> minor_value("Ac"), minor_value("7s"), minor_value("Kd")
    (1, 7, 10)
    """
    return _VALUES[code]


_VALUES = {c: 1 if c[0] == "A" else 10 if c[:-1] in ("J", "C", "Q", "K") else int(c[:-1])
           for c in _MINORS}  # fmt: skip
_MINOR_VALUES = [(c, _VALUES[c]) for c in _MINORS]

# -- tables built once at import: a decision reads the view's codes once into ints ------
#: where a paying value's count sits in a *value key*, the int a hand (or a payment) is
#: read into: 10s at the bottom (5 bits: the deck has 20 cards worth 10), then 9s down
#: to aces (3 bits each: 4 cards a value), so the aces are the most significant
_SHIFT: tuple[int, ...] = (0, *(5 + 3 * (9 - v) for v in range(1, 10)), 0)
_WIDTH: tuple[int, ...] = (0, *([7] * 9), 31)
_UNIT_OF_VALUE: tuple[int, ...] = (0, *(1 << _SHIFT[v] for v in range(1, 11)))
#: a minor's code -> its unit in a value key
_UNIT: dict[str, int] = {c: _UNIT_OF_VALUE[v] for c, v in _VALUES.items()}
#: a payment is one int, smaller when better: its card count, then 4095 less the sum
#: of its values' squares (larger cards preferred), then its value key (of equally
#: short payments of equal squares, the one with fewer aces, then fewer 2s, ...: the
#: one a knapsack pass over the cards, largest first, finds first)
_KEY_BITS = (1 << 32) - 1
_SQUARES_SHIFT = 32
_COUNT_SHIFT = 44
#: no payment (above every payment); the empty payment (of the amount 0)
_NONE = 1 << 50
_EMPTY = 4095 << _SQUARES_SHIFT
#: a payment plus one card of each value
_STEP: tuple[int, ...] = (
    0,
    *((1 << _COUNT_SHIFT) - (v * v << _SQUARES_SHIFT) + _UNIT_OF_VALUE[v] for v in range(1, 11)),
)
#: the lowest set bit of a value key -> the value counted there
_VALUE_AT: dict[int, int] = {
    _SHIFT[v] + k: v for v in range(1, 11) for k in range(_WIDTH[v].bit_length())
}
#: the dearest major: the payments of every amount up to it are kept per hand
_DEAREST = 21
#: a major's code -> its number
_NUMBER: dict[str, int] = {f"T{n}": n for n in range(22)}
#: a minor's code -> the key its hand is sorted by to choose which cards pay: the
#: largest value first, then the code (of equal-valued cards the first in code order)
_PAY_ORDER: dict[str, tuple[int, str]] = {c: (-v, c) for c, v in _VALUES.items()}
#: a minor's code -> (its value, its code): the card paid first is the largest
_VALUE_AND_CODE: dict[str, tuple[int, str]] = {c: (v, c) for c, v in _VALUES.items()}
#: the action ids of the moves this strategy makes (the game's fixed action space)
_ID: dict[str, int] = {a.text: a.id for a in ACTIONS}
_DRAW_STOCK = _ID["draw stock"]
_DRAW_DISCARD = _ID["draw discard"]
_END = _ID["end"]
_BUY_ID: dict[str, int] = {f"T{n}": _ID[f"buy T{n}"] for n in range(1, 22)}
_PAY_ID: dict[str, int] = {c: _ID[f"pay {c}"] for c in _MINORS}
#: a set of field places (3 bits) -> the orders a plan tries its majors in: the
#: permutations of those places, in the order ``itertools.permutations`` gives them
_ORDERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(permutations([i for i in range(3) if m >> i & 1])) for m in range(8)
)
#: the worths of a major that is no set's piece, by the field majors bought before it
_PLAIN_ROW: tuple[float, ...] = (1.0,) * 8


@cython.locals(key=cython.Py_ssize_t)
def _key_of(hand: list[str]) -> int:
    """The value key of a hand of minors' codes."""
    key = 0
    for c in hand:
        key += _UNIT[c]
    return key


@cython.locals(step=cython.Py_ssize_t, a=cython.Py_ssize_t, b=cython.Py_ssize_t)
def _grow(table: list[int], v: int) -> list[int]:
    """The cheapest payments of every amount once the hand has one more card of value
    ``v``: each amount's best of paying without it and paying the rest with it.

    The order of payments is the knapsack's (see ``_STEP``) and is kept by adding a
    card to both, so a hand's table grown card by card, in any order, is the one a
    knapsack pass over its cards finds."""
    step = _STEP[v]
    grown = [a if a <= b + step else b + step for a, b in zip(table[v:], table, strict=False)]
    return table[:v] + grown


def _fill(key: int, most: int) -> list[int]:
    """For every amount 0..``most``: the fewest cards of the hand of value key ``key``
    summing to it, larger ones preferred on a tie (a payment: see ``_STEP``;
    ``_NONE``: no payment)."""
    table = [_EMPTY] + [_NONE] * most
    for v in range(1, 11):
        for _ in range(key >> _SHIFT[v] & _WIDTH[v]):
            table = _grow(table, v)
    return table


#: value key -> its payments up to the dearest major (emptied when it grows large: a
#: long-running process meets many keys)
_TABLES: dict[int, list[int]] = {0: _fill(0, _DEAREST)}
_TABLES_LIMIT = 1 << 15


def _table(key: int) -> list[int]:
    """The cheapest payments of every amount up to 21 of a hand's value key, grown from
    those of the hand less one card (memoised, so a key met for the first time usually
    costs one step)."""
    found = _TABLES.get(key)
    if found is None:
        v = _VALUE_AT[(key & -key).bit_length() - 1]
        found = _grow(_table(key - _UNIT_OF_VALUE[v]), v)
        if len(_TABLES) >= _TABLES_LIMIT:
            _TABLES.clear()
            _TABLES[0] = _fill(0, _DEAREST)
        _TABLES[key] = found
    return found


def _table_with(key: int, table: list[int], v: int) -> list[int]:
    """The payments of the hand of value key ``key`` (whose payments are ``table``)
    with one more card of value ``v``."""
    more = key + _UNIT_OF_VALUE[v]
    found = _TABLES.get(more)
    if found is None:
        found = _grow(table, v)
        if len(_TABLES) >= _TABLES_LIMIT:
            _TABLES.clear()
            _TABLES[0] = _fill(0, _DEAREST)
        _TABLES[more] = found
    return found


def _values_of(pay: int) -> list[int]:
    """The values a payment counts, largest first."""
    out = []
    for v in range(10, 0, -1):
        out += [v] * (pay >> _SHIFT[v] & _WIDTH[v])
    return out


def _paying_cards(hand: list[str], pay: int) -> list[str]:
    """The cards of ``hand`` that make a payment, largest value first: of each value
    the first ones in code order."""
    out = []
    for c in sorted(hand, key=_PAY_ORDER.__getitem__):
        v = _VALUES[c]
        if pay >> _SHIFT[v] & _WIDTH[v]:
            out.append(c)
            pay -= _UNIT_OF_VALUE[v]
    return out


def cheapest_payment(hand: list[str], amount: int) -> list[str] | None:
    """The fewest cards of ``hand`` summing exactly to ``amount`` (``None`` if none).

    Among equally short payments the one spending the larger cards is taken (the
    smallest cards are kept: they complete exact sums later).  ``hand`` holds minors of
    the deck, each once (its value key counts at most 7 cards of a value below 10).

    >>> cheapest_payment(["2c", "3d", "Ks", "5w"], 15)
    ['Ks', '5w']
    >>> cheapest_payment(["2c", "3d"], 9) is None
    True
    """
    if amount <= 0:
        return None
    key = _key_of(hand)
    found = _table(key)[amount] if amount <= _DEAREST else _fill(key, amount)[amount]
    if found >= _NONE:
        return None
    return _paying_cards(hand, found & _KEY_BITS)


def major_worth(won: list[list[str]], seat: int, number: int) -> float:
    """What buying ``T<number>`` is worth to ``seat`` given each seat's majors
    (``view["won"]``): the point, set progress or completion, set denial; the Fool
    risk is charged separately.

    >>> won = [["T20"], ["T17", "T18"], []]
    >>> major_worth(won, 0, 21), major_worth(won, 0, 19), major_worth(won, 2, 13)
    (6.0, 2.5, 1.5)
    """
    return _worth(_owners(won), seat, number)


#: the majors that belong to a set, in a fixed order: who holds each is all the worth
#: of a major depends on (besides the buyer)
_SET_NUMBERS: tuple[int, ...] = tuple(sorted(_SET_OF))
_SET_INDEX = {n: i for i, n in enumerate(_SET_NUMBERS)}
_SET_CODES = {f"T{n}": i for i, n in enumerate(_SET_NUMBERS)}

#: who holds each set major (``None``: nobody), aligned with ``_SET_NUMBERS``
Owners = tuple[int | None, ...]


def _owners(won: list[list[str]]) -> Owners:
    """The holder of every set major, from the seats' won majors."""
    held: list[int | None] = [None] * len(_SET_NUMBERS)
    for s, majors in enumerate(won):
        for t in majors:
            i = _SET_CODES.get(t)
            if i is not None:
                held[i] = s
    return tuple(held)


@lru_cache(maxsize=1 << 12)
def _worth(owners: Owners, seat: int, number: int) -> float:
    """:func:`major_worth` on the holders of the set majors."""
    worth = 1.0
    group = _SET_OF.get(number)
    if group is None:
        return worth
    others = [n for n in group if n != number]
    holders = [owners[_SET_INDEX[n]] for n in others]
    mine = sum(1 for h in holders if h == seat)
    theirs = {h for h in holders if h is not None and h != seat}
    if not theirs:
        if mine == len(others):
            return worth + 5.0
        # an open set: the more of it I hold, the likelier I finish it
        worth += SET_OPEN + SET_STEP * mine / len(others) * (len(group) - 1) / 2
    else:
        for opp in theirs:
            held = sum(1 for h in holders if h == opp)
            if held == len(others):
                worth += DENY  # the last piece of an opponent's set
            elif held and len(theirs) == 1:
                worth += 0.3
    return worth


class _Turn:
    """What a plan of this turn's purchases depends on besides the hand: the field
    majors (codes and numbers, by their places on the field), the worth of each by the
    field majors bought before it (a row of 8, by a mask of those places), the card
    charge, the Fool risk and the majors left face down."""

    __slots__ = ("charge", "codes", "left", "numbers", "risk", "rows")

    def __init__(self, view: dict[str, Any], charge: float, risk: float) -> None:
        codes: list[str] = view["field"]
        self.codes = codes
        self.numbers = [_NUMBER[t] for t in codes]
        self.charge = charge
        self.risk = risk
        self.left: int = view["majors_left"]
        rows: list[tuple[float, ...]] = []
        owners: Owners | None = None
        seat: int = view["seat"]
        numbers = self.numbers
        for n in numbers:
            group = _SET_OF.get(n)
            if group is None:
                rows.append(_PLAIN_ROW)
                continue
            if owners is None:
                owners = _owners(view["won"])
            # only the other pieces of its set on the field change its worth when bought
            mates = 0
            for j, other in enumerate(numbers):
                if other != n and other in group:
                    mates |= 1 << j
            if not mates:
                rows.append((_worth(owners, seat, n),) * 8)
                continue
            by_mates: dict[int, float] = {}
            row = []
            for m in range(8):
                bought = m & mates
                worth = by_mates.get(bought)
                if worth is None:
                    held = list(owners)
                    for j, other in enumerate(numbers):
                        if bought >> j & 1:
                            held[_SET_INDEX[other]] = seat
                    worth = by_mates[bought] = _worth(tuple(held), seat, n)
                row.append(worth)
            rows.append(tuple(row))
        self.rows = rows

    @cython.locals(
        key=cython.Py_ssize_t,
        rest=cython.Py_ssize_t,
        pay=cython.Py_ssize_t,
        none=cython.Py_ssize_t,
        payable=cython.Py_ssize_t,
        taken=cython.Py_ssize_t,
        majors=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        net=cython.double,
        total=cython.double,
        best_total=cython.double,
        charge=cython.double,
        risk=cython.double,
    )
    def plan(self, key: int, table: list[int]) -> list[tuple[float, int, int]]:
        """The best plan of the hand of value key ``key`` (its payments ``table``): its
        purchases (net worth, field place, payment) in the order they were planned.

        Every order of the payable field majors is tried, each paid with its cheapest
        payment from what is left; the first order of highest total net worth wins."""
        numbers = self.numbers
        payable = 0
        for i in range(len(numbers)):
            if table[numbers[i]] < _NONE:
                payable |= 1 << i
        if not payable:
            return []
        rows = self.rows
        charge = self.charge
        risk = self.risk
        tables = _TABLES
        none = _NONE
        best: list[tuple[float, int, int]] = []
        best_total = 0.0
        for order in _ORDERS[payable]:
            rest = key
            paying: list[int] | None = table
            taken = 0
            majors = self.left
            plan = []
            total = 0.0
            for i in order:
                if paying is None:  # the payments of what is left, found when needed
                    paying = tables.get(rest)
                    if paying is None:
                        paying = _table(rest)
                pay = paying[numbers[i]]
                if pay >= none:
                    continue
                net = rows[i][taken] - charge * (pay >> 44) - (risk if majors > 0 else 0.0)
                if net <= 0:
                    continue
                plan.append((net, i, pay))
                total += net
                taken |= 1 << i
                rest -= pay & 0xFFFFFFFF  # _KEY_BITS
                paying = None
                majors = majors - 1 if majors > 1 else 0
            if total > best_total + 1e-9:
                best, best_total = plan, total
        return best

    def by_efficiency(self, plan: list[tuple[float, int, int]]) -> list[tuple[float, int, int]]:
        """The purchases of a plan, the best net worth per card first."""
        codes = self.codes
        return sorted(plan, key=lambda p: (-p[0] / (p[2] >> _COUNT_SHIFT), -p[0], codes[p[1]]))

    def gain(self, key: int, table: list[int]) -> float:
        """The total net worth of the best plan (summed best purchase per card first)."""
        plan = self.plan(key, table)
        if len(plan) < 2:
            return plan[0][0] if plan else 0
        return sum([p[0] for p in self.by_efficiency(plan)])


def _find(legal: list[Action], aid: int) -> Action:
    """The legal action of this id."""
    for a in legal:
        if a.id == aid:
            return a
    raise KeyError(ACTIONS[aid].text)


class MattoHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired.

    It plans on value keys (ints) read once from the view, with the choices and the
    floats of the rules above to the last tie and the last bit."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: the rule that fired last and the facts its words need, worded only when
        #: :meth:`explain` asks
        self._pending: tuple[Action, Any, tuple[Any, ...]] | None = None

    def explain(self) -> Explanation | None:
        if self._pending is not None:
            action, words, facts = self._pending
            self._pending = None
            self._said = None  # the pending words are the later
            en, ja = words(*facts)
            self._last = Explanation(self.name, action.text, en, ja)
            return self._last
        return super().explain()

    def _say_later(self, action: Action, words: Any, *facts: Any) -> Action:
        """Like ``_say``: the words of a rule (``words(*facts)``, English and
        Japanese), made only if asked for: play-outs never ask."""
        self._pending = (action, words, facts)
        return action

    def act(self, decision: Decision) -> Action:
        view = decision.view
        phase = view["phase"]
        if phase == "pay":
            return self._pay(view, decision.legal)
        if phase == "draw":
            return self._draw(view, decision.legal)
        return self._buy(view, decision.legal)

    # -- standing ---------------------------------------------------------------------
    @staticmethod
    def _lead(view: dict[str, Any], seat: int, extra: float = 0.0) -> float:
        """My score (plus ``extra``) minus the best other score."""
        totals = view["scores"]["totals"]
        others = [t for s, t in enumerate(totals) if s != seat]
        return totals[seat] + extra - max(others)

    def _fool_risk(self, view: dict[str, Any]) -> float:
        left = view["majors_left"]
        if left == 0:
            return 0.0
        for won in view["won"]:
            if "T0" in won:
                return 0.0
        if left == 1:
            return FOOL_NET_CERTAIN  # the last face-down major is the Fool
        ahead = self._lead(view, view["seat"]) > 0
        return (FOOL_NET_AHEAD if ahead else FOOL_NET) / left

    # -- planning a turn's purchases --------------------------------------------------
    def _turn(self, view: dict[str, Any], last: bool) -> _Turn:
        """What a plan depends on besides the hand, with the card charge of this turn
        (none on the last)."""
        charge = 0.0 if last else CARD_CHARGE / view["players"]
        return _Turn(view, charge, self._fool_risk(view))

    # -- decisions ----------------------------------------------------------------------
    @cython.locals(key=cython.Py_ssize_t, total=cython.double, count=cython.Py_ssize_t)
    def _draw(self, view: dict[str, Any], legal: list[Action]) -> Action:
        stock = discard = None
        for a in legal:
            if a.id == _DRAW_DISCARD:
                discard = a
            elif a.id == _DRAW_STOCK:
                stock = a
        if discard is None:
            return self._say_later(_find(legal, _DRAW_STOCK), _empty_discard_words)
        if stock is None:
            return self._say_later(discard, _only_discard_words)
        hand: list[str] = view["hand"]
        top: str = view["discard_top"]
        key = _key_of(hand)
        stock_last = view["stock_left"] == 1
        last = stock_last or view["majors_left"] == 0
        turn = self._turn(view, last)
        table = _table(key)
        if stock_last and self._lead(view, view["seat"], turn.gain(key, table)) < 0:
            return self._say_later(discard, _last_stock_words)
        v = _VALUES[top]
        with_top = turn.gain(key + _UNIT_OF_VALUE[v], _table_with(key, table, v))
        seen = set(hand)
        seen.update(view["discard"])
        for known in view["known_in_hands"]:
            seen.update(known)
        # the unseen cards' values in deck order, and the gain of drawing each value
        unseen = [v for c, v in _MINOR_VALUES if c not in seen]
        gains: list[Any] = [None] * 11
        for v in unseen:
            if gains[v] is None:
                gains[v] = turn.gain(key + _UNIT_OF_VALUE[v], _table_with(key, table, v))
        count = len(unseen)
        # their sum in deck order, one addition at a time (not ``sum``: since Python
        # 3.12 it compensates the rounding of floats)
        total = 0.0
        for v in unseen:
            total += gains[v]
        expected = total / count if count else 0.0
        if with_top > expected + 0.05:
            return self._say_later(discard, _take_top_words, top, with_top, expected)
        return self._say_later(stock, _draw_stock_words, top, with_top, expected)

    def _buy(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand: list[str] = view["hand"]
        last = view["last_turn"]
        key = _key_of(hand)
        if not last and view["majors_left"] == 1:
            turn = self._turn(view, True)
            plan = turn.plan(key, _table(key))
            if plan:
                # a purchase empties the major pile: this turn becomes the last one
                ordered = turn.by_efficiency(plan)
                gain = ordered[0][0] if len(ordered) < 2 else sum([p[0] for p in ordered])
                if self._lead(view, view["seat"], gain) < 0:
                    return self._say_later(_find(legal, _END), _hold_back_words)
                first = ordered[0]
                t = turn.codes[first[1]]
                return self._say_later(
                    _find(legal, _BUY_ID[t]), _empty_pile_words, t, tuple(hand), plan, first
                )
        turn = self._turn(view, last)
        plan = turn.plan(key, _table(key))
        if not plan:
            return self._say_later(_find(legal, _END), _no_buy_words)
        first = turn.by_efficiency(plan)[0]
        t = turn.codes[first[1]]
        return self._say_later(
            _find(legal, _BUY_ID[t]), _buy_words, t, last, tuple(hand), plan, first
        )

    def _pay(self, view: dict[str, Any], legal: list[Action]) -> Action:
        owed = view["buying"]["owed"]
        pay = cheapest_payment(view["hand"], owed)
        ids = {a.id for a in legal}
        if pay is None or any(_PAY_ID[c] not in ids for c in pay):  # cannot happen
            pay = sorted([a.text[4:] for a in legal], key=minor_value)  # stay legal
        card = max(pay, key=_VALUE_AND_CODE.__getitem__)
        action = _find(legal, _PAY_ID[card])
        if len(pay) == 1:
            return self._say_later(action, _settle_words, card, owed)
        return self._say_later(action, _pay_first_words, card, owed)


# -- the words of each rule, made when ``explain()`` asks -----------------------------------
def _empty_discard_words() -> tuple[str, str]:
    return "the discard pile is empty: draw from the stock", "捨て札がないので山札から引く"


def _only_discard_words() -> tuple[str, str]:
    return "only the discard pile", "捨て札しか引けない"


def _last_stock_words() -> tuple[str, str]:
    return (
        "the last stock card would end the game while I am behind: take the discard",
        "山札の最後の1枚を引くと負けたまま終わるので捨て札を取る",
    )


def _take_top_words(top: str, with_top: float, expected: float) -> tuple[str, str]:
    return (
        f"the discard top {top} makes my purchases worth {with_top:.1f} "
        f"against {expected:.1f} for an unseen stock card: take it",
        f"捨て札の{top}で購入価値{with_top:.1f}（山札なら平均{expected:.1f}）：捨て札を取る",
    )


def _draw_stock_words(top: str, with_top: float, expected: float) -> tuple[str, str]:
    return (
        f"the discard top {top} does no more than a stock card "
        f"({with_top:.1f} against {expected:.1f}): draw from the stock",
        f"捨て札の{top}は山札以上の価値がない（{with_top:.1f}対{expected:.1f}）：山札から引く",
    )


def _hold_back_words() -> tuple[str, str]:
    return (
        "a purchase would empty the major pile and end the game while I am behind: hold back",
        "購入すると大アルカナの山が尽きて負けたまま終わる：見送る",
    )


def _no_buy_words() -> tuple[str, str]:
    return (
        "no purchase is worth its cards (or the Fool risk): end the turn",
        "手札に見合う購入がない（または愚者の危険）：手番終了",
    )


def _first_payment(
    hand: tuple[str, ...], plan: list[tuple[float, int, int]], first: tuple[float, int, int]
) -> list[str]:
    """The cards the first purchase pays with: the plan's purchases take, in the order
    they were planned, of each value the first cards in code order."""
    cards = sorted(hand, key=_PAY_ORDER.__getitem__)
    for p in plan:
        pay = []
        for v in _values_of(p[2] & _KEY_BITS):
            c = next(c for c in cards if _VALUES[c] == v)
            cards.remove(c)
            pay.append(c)
        if p is first:
            return pay
    raise AssertionError("the purchase is not in its plan")


def _empty_pile_words(
    t: str,
    hand: tuple[str, ...],
    plan: list[tuple[float, int, int]],
    first: tuple[float, int, int],
) -> tuple[str, str]:
    pay = " ".join(_first_payment(hand, plan, first))
    return (
        f"buying {t} empties the major pile and ends the game with me first: pay {pay}",
        f"{t}を買うと山が尽きて自分が首位で終わる：{pay}で払う",
    )


def _buy_words(
    t: str,
    last: bool,
    hand: tuple[str, ...],
    plan: list[tuple[float, int, int]],
    first: tuple[float, int, int],
) -> tuple[str, str]:
    net = first[0]
    cards = _first_payment(hand, plan, first)
    pay = " ".join(cards)
    if _SET_OF.get(int(t[1:])) is not None and net >= 3:
        return (
            f"{t} completes or blocks a set (worth {net:+.1f} net): buy it with {pay}",
            f"{t}で役が揃う（または阻止できる）（正味{net:+.1f}）：{pay}で買う",
        )
    if last:
        return (
            f"last turn, cards are worth nothing after it: buy {t} with {pay}",
            f"最後の手番なので手札は残しても無価値：{pay}で{t}を買う",
        )
    n = len(cards)
    return (
        f"{t} is the best buy per card spent ({net:+.1f} net for {n} "
        f"card{'s' if n > 1 else ''}): pay {pay}",
        f"{t}が1枚あたり最も効率の良い購入（{n}枚で正味{net:+.1f}）：{pay}で払う",
    )


def _settle_words(card: str, owed: int) -> tuple[str, str]:
    return (
        f"{card} settles the {owed} owed; it becomes the discard top",
        f"{card}で残り{owed}を支払う（これが捨て札の一番上になる）",
    )


def _pay_first_words(card: str, owed: int) -> tuple[str, str]:
    return (
        f"pay {card} first: the largest card goes first so the smallest ends on top "
        f"of the discard pile ({owed} owed)",
        f"{card}から払う：大きい札を先に、最小の札を最後に捨て札の上へ（残り{owed}）",
    )
