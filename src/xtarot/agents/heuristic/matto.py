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


@lru_cache(maxsize=1 << 16)
def _cheapest_values(values: tuple[int, ...], amount: int) -> tuple[int, ...] | None:
    """The fewest of ``values`` (largest first) summing to ``amount``; ties: larger ones."""
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}
    for v in values:
        for total, (n, sq, chosen) in sorted(best.items(), reverse=True):
            t = total + v
            if t > amount:
                continue
            old = best.get(t)
            if old is None or (n + 1, -(sq + v * v)) < (old[0], -old[1]):
                best[t] = (n + 1, sq + v * v, (*chosen, v))
    found = best.get(amount)
    return found[2] if found is not None and amount > 0 else None


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
    owners = {int(t[1:]): s for s, w in enumerate(won) for t in w}
    worth = 1.0
    group = _SET_OF.get(number)
    if group is None:
        return worth
    others = [n for n in group if n != number]
    mine = [n for n in others if owners.get(n) == seat]
    theirs = {owners[n] for n in others if n in owners and owners[n] != seat}
    if not theirs:
        if len(mine) == len(others):
            return worth + 5.0
        # an open set: the more of it I hold, the likelier I finish it
        worth += SET_OPEN + SET_STEP * len(mine) / len(others) * (len(group) - 1) / 2
    else:
        for opp in theirs:
            held = sum(1 for n in others if owners.get(n) == opp)
            if held == len(others):
                worth += DENY  # the last piece of an opponent's set
            elif held and len(theirs) == 1:
                worth += 0.3
    return worth


class MattoHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

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
    def _plan(
        self, view: dict[str, Any], hand: list[str], last: bool
    ) -> list[tuple[float, str, list[str]]]:
        """The purchases this hand would make now: (net worth, major, payment).

        Every order of the field majors is tried, each paid with its cheapest payment
        from what is left; the plan of highest total net worth wins, and its purchase
        of best net worth per card comes first.
        """
        seat = view["seat"]
        charge = 0.0 if last else CARD_CHARGE / view["players"]
        risk = self._fool_risk(view)
        best: list[tuple[float, str, list[str]]] = []
        best_total = 0.0
        payable = [t for t in view["field"] if cheapest_payment(hand, int(t[1:])) is not None]
        for order in permutations(payable):
            rest = list(hand)
            won = [list(w) for w in view["won"]]
            left = view["majors_left"]
            plan = []
            total = 0.0
            for t in order:
                pay = cheapest_payment(rest, int(t[1:]))
                if pay is None:
                    continue
                worth = major_worth(won, seat, int(t[1:]))
                net = worth - charge * len(pay) - (risk if left > 0 else 0.0)
                if net <= 0:
                    continue
                plan.append((net, t, pay))
                total += net
                won[seat].append(t)
                for c in pay:
                    rest.remove(c)
                left = max(0, left - 1)
            if total > best_total + 1e-9:
                best, best_total = plan, total
        best.sort(key=lambda p: (-p[0] / len(p[2]), -p[0], p[1]))
        return best

    def _ends_turn_winning(self, view: dict[str, Any], hand: list[str]) -> bool:
        """Would I be (joint) first if this turn were the last, buying all I can?"""
        gain = sum(net for net, _, _ in self._plan(view, hand, True))
        return self._lead(view, view["seat"], gain) >= 0

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
        with_top = sum(net for net, _, _ in self._plan(view, [*hand, top], last))
        seen = set(hand) | set(view["discard"]) | {c for k in view["known_in_hands"] for c in k}
        unseen = [c for c in _MINORS if c not in seen]
        cache: dict[int, float] = {}
        total = 0.0
        for c in unseen:
            v = minor_value(c)
            if v not in cache:
                cache[v] = sum(net for net, _, _ in self._plan(view, [*hand, c], last))
            total += cache[v]
        expected = total / len(unseen) if unseen else 0.0
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
        if not last and view["majors_left"] == 1 and self._plan(view, hand, True):
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
