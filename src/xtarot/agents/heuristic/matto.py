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
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Any

from xtarot.agents.base import Decision
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.engine import Action

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


#: the dearest major: the payments of every amount up to it are found in one pass
_DEAREST = 21


@lru_cache(maxsize=1 << 14)
def _payments(values: tuple[int, ...], most: int) -> tuple[tuple[int, ...] | None, ...]:
    """For every amount 0..``most``: the fewest of ``values`` (descending) summing to
    it, larger ones preferred on a tie (``None``: no such payment, and for 0).

    One knapsack pass over the values: an amount's best payment only ever grows
    from smaller amounts, so the answer for one amount does not depend on ``most``.
    """
    count: list[int] = [0] + [most + 1] * most  # most + 1: not reached yet
    squares = [0] * (most + 1)
    chosen: list[tuple[int, ...] | None] = [()] + [None] * most
    reach = 0
    for v in values:
        # highest totals first, so every card is used at most once
        for total in range(reach if reach < most - v else most - v, -1, -1):
            was = chosen[total]
            if was is None:
                continue
            t = total + v
            n = count[total] + 1
            sq = squares[total] + v * v
            if n < count[t] or (n == count[t] and sq > squares[t]):
                count[t], squares[t], chosen[t] = n, sq, (*was, v)
        reach = reach + v if reach + v < most else most
    chosen[0] = None
    return tuple(chosen)


def _cheapest_values(values: tuple[int, ...], amount: int) -> tuple[int, ...] | None:
    """The fewest of ``values`` (largest first) summing to ``amount``; ties: larger ones."""
    if amount <= 0:
        return None
    return _payments(values, max(amount, _DEAREST))[amount]


def cheapest_payment(hand: list[str], amount: int) -> list[str] | None:
    """The fewest cards of ``hand`` summing exactly to ``amount`` (``None`` if none).

    Among equally short payments the one spending the larger cards is taken (the
    smallest cards are kept: they complete exact sums later).

    >>> cheapest_payment(["2c", "3d", "Ks", "5w"], 15)
    ['Ks', '5w']
    >>> cheapest_payment(["2c", "3d"], 9) is None
    True
    """
    cards = sorted(hand, key=lambda c: (-_VALUES[c], c))
    chosen = _cheapest_values(tuple(_VALUES[c] for c in cards), amount)
    if chosen is None:
        return None
    out = []
    for v in chosen:
        c = next(c for c in cards if _VALUES[c] == v and c not in out)
        out.append(c)
    return out


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


def _take(owners: Owners, number: int, seat: int) -> Owners:
    """``owners`` once ``seat`` has bought ``T<number>``."""
    i = _SET_INDEX.get(number)
    if i is None:
        return owners
    return (*owners[:i], seat, *owners[i + 1 :])


def _less(values: tuple[int, ...], spent: tuple[int, ...]) -> tuple[int, ...]:
    """The (descending) ``values`` without one of each of ``spent``."""
    rest = list(values)
    for v in spent:
        rest.remove(v)
    return tuple(rest)


#: one purchase of a plan on card values: (net worth, major, the values paid)
ValuePlan = tuple[tuple[float, str, tuple[int, ...]], ...]


@lru_cache(maxsize=1 << 14)
def _plan_values(
    values: tuple[int, ...],
    field: tuple[tuple[str, int], ...],
    owners: Owners,
    seat: int,
    left: int,
    charge: float,
    risk: float,
) -> ValuePlan:
    """The best plan of a hand given by its card values (descending): the purchases in
    the order they were planned.  A plan's worth depends on the values only (which of
    two equal cards pays is settled later), so hands of equal values share it."""
    best: ValuePlan = ()
    best_total = 0.0
    # the field's majors are T0..T21: every amount is within the payments table
    payable = [(t, n) for t, n in field if _payments(values, _DEAREST)[n] is not None]
    for order in permutations(payable):
        rest = values
        held = owners
        majors = left
        plan = []
        total = 0.0
        for t, n in order:
            pay = _payments(rest, _DEAREST)[n]
            if pay is None:
                continue
            worth = _worth(held, seat, n)
            net = worth - charge * len(pay) - (risk if majors > 0 else 0.0)
            if net <= 0:
                continue
            plan.append((net, t, pay))
            total += net
            held = _take(held, n, seat)
            rest = _less(rest, pay)
            majors = max(0, majors - 1)
        if total > best_total + 1e-9:
            best, best_total = tuple(plan), total
    return best


def _by_efficiency(plan: Any) -> list[Any]:
    """The purchases of a plan, the best net worth per card first."""
    return sorted(plan, key=lambda p: (-p[0] / len(p[2]), -p[0], p[1]))


@lru_cache(maxsize=1 << 14)
def _plan_gain(
    values: tuple[int, ...],
    field: tuple[tuple[str, int], ...],
    owners: Owners,
    seat: int,
    left: int,
    charge: float,
    risk: float,
) -> float:
    """The total net worth of the best plan (summed best purchase per card first)."""
    plan = _plan_values(values, field, owners, seat, left, charge, risk)
    return sum(net for net, _, _ in _by_efficiency(plan))


def _hand_values(hand: list[str]) -> tuple[int, ...]:
    return tuple(sorted((_VALUES[c] for c in hand), reverse=True))


class MattoHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def act(self, decision: Decision) -> Action:
        view = decision.view
        legal = {a.text: a for a in decision.legal}
        phase = view["phase"]
        if phase == "pay":
            return self._pay(view, legal)
        if phase == "draw":
            return self._draw(view, legal)
        return self._buy(view, legal)

    # -- standing ---------------------------------------------------------------------
    @staticmethod
    def _lead(view: dict[str, Any], seat: int, extra: float = 0.0) -> float:
        """My score (plus ``extra``) minus the best other score."""
        totals = view["scores"]["totals"]
        others = [t for s, t in enumerate(totals) if s != seat]
        return totals[seat] + extra - max(others)

    def _fool_risk(self, view: dict[str, Any]) -> float:
        left = view["majors_left"]
        if left == 0 or any("T0" in won for won in view["won"]):
            return 0.0
        if left == 1:
            return FOOL_NET_CERTAIN  # the last face-down major is the Fool
        ahead = self._lead(view, view["seat"]) > 0
        return (FOOL_NET_AHEAD if ahead else FOOL_NET) / left

    # -- planning a turn's purchases --------------------------------------------------
    def _context(
        self, view: dict[str, Any], last: bool
    ) -> tuple[tuple[tuple[str, int], ...], Owners, int, int, float, float]:
        """Everything of the view a plan depends on besides the hand: the field, who
        holds the set majors, my seat, the majors left, the card charge, the Fool risk."""
        charge = 0.0 if last else CARD_CHARGE / view["players"]
        field = tuple((t, int(t[1:])) for t in view["field"])
        return (
            field,
            _owners(view["won"]),
            view["seat"],
            view["majors_left"],
            charge,
            self._fool_risk(view),
        )

    def _plan(
        self, view: dict[str, Any], hand: list[str], last: bool
    ) -> list[tuple[float, str, list[str]]]:
        """The purchases this hand would make now: (net worth, major, payment).

        Every order of the field majors is tried, each paid with its cheapest payment
        from what is left; the plan of highest total net worth wins, and its purchase
        of best net worth per card comes first.  Of equal-valued cards the first in
        code order pays.
        """
        plan = _plan_values(_hand_values(hand), *self._context(view, last))
        cards = sorted(hand, key=lambda c: (-_VALUES[c], c))
        out = []
        for net, t, values in plan:
            pay = []
            for v in values:
                c = next(c for c in cards if _VALUES[c] == v)
                cards.remove(c)
                pay.append(c)
            out.append((net, t, pay))
        return _by_efficiency(out)

    def _gain(self, view: dict[str, Any], hand: list[str], last: bool) -> float:
        """The total net worth of the purchases this hand would make now."""
        return _plan_gain(_hand_values(hand), *self._context(view, last))

    def _buys_any(self, view: dict[str, Any], hand: list[str]) -> bool:
        """Would this hand buy anything if this turn were the last?"""
        return bool(_plan_values(_hand_values(hand), *self._context(view, True)))

    def _ends_turn_winning(self, view: dict[str, Any], hand: list[str]) -> bool:
        """Would I be (joint) first if this turn were the last, buying all I can?"""
        return self._lead(view, view["seat"], self._gain(view, hand, True)) >= 0

    # -- decisions ----------------------------------------------------------------------
    def _draw(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        hand: list[str] = view["hand"]
        top = view["discard_top"]
        if "draw discard" not in legal:
            return self._say(
                legal["draw stock"],
                "the discard pile is empty: draw from the stock",
                "捨て札がないので山札から引く",
            )
        if "draw stock" not in legal:
            return self._say(legal["draw discard"], "only the discard pile", "捨て札しか引けない")
        stock_last = view["stock_left"] == 1
        last = stock_last or view["majors_left"] == 0
        if stock_last and not self._ends_turn_winning(view, hand):
            return self._say(
                legal["draw discard"],
                "the last stock card would end the game while I am behind: take the discard",
                "山札の最後の1枚を引くと負けたまま終わるので捨て札を取る",
            )
        context = self._context(view, last)
        values = [_VALUES[c] for c in hand]

        def gain(v: int) -> float:
            return _plan_gain(tuple(sorted((*values, v), reverse=True)), *context)

        with_top = gain(_VALUES[top])
        seen = set(hand) | set(view["discard"]) | {c for k in view["known_in_hands"] for c in k}
        by_value: dict[int, float] = {}
        total = 0.0
        count = 0
        for c, v in _MINOR_VALUES:
            if c in seen:
                continue
            count += 1
            g = by_value.get(v)
            if g is None:
                g = by_value[v] = gain(v)
            total += g
        expected = total / count if count else 0.0
        if with_top > expected + 0.05:
            return self._say(
                legal["draw discard"],
                f"the discard top {top} makes my purchases worth {with_top:.1f} "
                f"against {expected:.1f} for an unseen stock card: take it",
                f"捨て札の{top}で購入価値{with_top:.1f}（山札なら平均{expected:.1f}）：捨て札を取る",
            )
        return self._say(
            legal["draw stock"],
            f"the discard top {top} does no more than a stock card "
            f"({with_top:.1f} against {expected:.1f}): draw from the stock",
            f"捨て札の{top}は山札以上の価値がない（{with_top:.1f}対{expected:.1f}）：山札から引く",
        )

    def _buy(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        hand: list[str] = view["hand"]
        last = view["last_turn"]
        plan = self._plan(view, hand, last)
        if not last and view["majors_left"] == 1 and self._buys_any(view, hand):
            # a purchase empties the major pile: this turn becomes the last one
            if not self._ends_turn_winning(view, hand):
                return self._say(
                    legal["end"],
                    "a purchase would empty the major pile and end the game while I am "
                    "behind: hold back",
                    "購入すると大アルカナの山が尽きて負けたまま終わる：見送る",
                )
            plan = self._plan(view, hand, True)
            net, t, pay = plan[0]
            return self._say(
                legal[f"buy {t}"],
                f"buying {t} empties the major pile and ends the game with me first: "
                f"pay {' '.join(pay)}",
                f"{t}を買うと山が尽きて自分が首位で終わる：{' '.join(pay)}で払う",
            )
        if not plan:
            return self._say(
                legal["end"],
                "no purchase is worth its cards (or the Fool risk): end the turn",
                "手札に見合う購入がない（または愚者の危険）：手番終了",
            )
        net, t, pay = plan[0]
        group = _SET_OF.get(int(t[1:]))
        if group is not None and net >= 3:
            why = (
                f"{t} completes or blocks a set (worth {net:+.1f} net): buy it with "
                f"{' '.join(pay)}",
                f"{t}で役が揃う（または阻止できる）（正味{net:+.1f}）：{' '.join(pay)}で買う",
            )
        elif last:
            why = (
                f"last turn, cards are worth nothing after it: buy {t} with {' '.join(pay)}",
                f"最後の手番なので手札は残しても無価値：{' '.join(pay)}で{t}を買う",
            )
        else:
            why = (
                f"{t} is the best buy per card spent ({net:+.1f} net for {len(pay)} "
                f"card{'s' if len(pay) > 1 else ''}): pay {' '.join(pay)}",
                f"{t}が1枚あたり最も効率の良い購入（{len(pay)}枚で正味{net:+.1f}）："
                f"{' '.join(pay)}で払う",
            )
        return self._say(legal[f"buy {t}"], *why)

    def _pay(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        owed = view["buying"]["owed"]
        pay = cheapest_payment(view["hand"], owed)
        options = [t[4:] for t in legal]
        if pay is None or any(c not in options for c in pay):  # cannot happen; stay legal
            pay = sorted(options, key=minor_value)
        card = max(pay, key=lambda c: (minor_value(c), c))
        if len(pay) == 1:
            return self._say(
                legal[f"pay {card}"],
                f"{card} settles the {owed} owed; it becomes the discard top",
                f"{card}で残り{owed}を支払う（これが捨て札の一番上になる）",
            )
        return self._say(
            legal[f"pay {card}"],
            f"pay {card} first: the largest card goes first so the smallest ends on top "
            f"of the discard pile ({owed} owed)",
            f"{card}から払う：大きい札を先に、最小の札を最後に捨て札の上へ（残り{owed}）",
        )
