"""A casual-good player of そのアルカナは欲しくない.

Strategy, from the seat's view only:

1. **Value the lot for me**: the change in my score if I took it (clashing last
   digits turn talismans face down: a talisman that clashes costs far more than the
   +2 it would bring).
2. **The parent's lot choice**: turn up a second talisman when the lot is already
   good for me and an unseen talisman is more likely to help than to hurt.
3. **Wanting the lot**: bid or play to win it — face up with my strongest card of a
   long suit (the others must follow below it or be void), following with the
   lowest card that still beats the best valid card of the led suit, never a card
   whose strength is already on the table (it would be void).
4. **Not wanting it**: duck — face down with my weakest card as parent, follow with
   the highest card that stays under the current winner (or is void), and, unable
   to follow, shed my weakest card (strong cards are kept for lots I want).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from xtarot.agents.base import Decision
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import SUITS
from xtarot.engine import Action

__all__ = ["SonoArcanaHeuristic", "lot_moves", "lot_value"]

_ORDER = "N A 2 3 4 5 6 7 8 9 10 R E B L W J C Q K".split()
_STRENGTH = {r: i for i, r in enumerate(_ORDER)}


def _rank(code: str) -> str:
    return code[:-1]


class _Strengths(dict[str, int]):
    """Card code -> strength: the deck's cards filled in, any other code read by rank."""

    def __missing__(self, code: str) -> int:
        return _STRENGTH[_rank(code)]


_CARD_STRENGTH = _Strengths({r + s: i for s in SUITS for r, i in _STRENGTH.items()})
#: a card's strength (the rank's place in the order, weakest first)
_strength = _CARD_STRENGTH.__getitem__

#: the talismans T0..T23 with their numbers
_TALISMANS = tuple((f"T{n}", n) for n in range(24))


def _score(talismans: list[int]) -> int:
    """+2 for each talisman whose last digit is its own, -1 for each that shares it."""
    digits = [0] * 10
    for t in talismans:
        digits[t % 10] += 1
    return sum(2 if k == 1 else -k for k in digits if k)


def lot_value(held: list[str], lot: list[str]) -> int:
    """How my score changes if I take ``lot`` on top of ``held``.

    >>> lot_value(["T3"], ["T13"]), lot_value(["T3"], ["T5"]), lot_value([], ["T4", "T14"])
    (-4, 2, -2)
    """
    return _lot_value(tuple(held), tuple(lot))


@lru_cache(maxsize=1 << 14)
def _lot_value(held: tuple[str, ...], lot: tuple[str, ...]) -> int:
    mine = [int(t[1:]) for t in held]
    return _score(mine + [int(t[1:]) for t in lot]) - _score(mine)


def lot_moves(hand: list[str]) -> tuple[str, str]:
    """The parent's two bids, as :class:`SonoArcanaHeuristic` makes them: for the lot
    (my strongest card of my longest suit, face up) and against it (my weakest card,
    face down).

    >>> lot_moves(["3c", "Kc", "Qd", "2s"])
    ('bid up Kc', 'bid down 2s')
    """
    suits: dict[str, list[str]] = {}
    for c in hand:
        suits.setdefault(c[-1], []).append(c)
    longest = max(suits.values(), key=lambda cs: (len(cs), max(map(_strength, cs))))
    return f"bid up {max(longest, key=_strength)}", f"bid down {min(hand, key=_strength)}"


class SonoArcanaHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    #: optional lot model (``xtarot.adapters.value_sono.LotModel`` or anything with
    #: ``players``, ``margin`` and ``answer_values(view, answers) -> {answer: expected
    #: win share}``): see :meth:`_lot_by_model`
    value_model: Any = None

    def act(self, decision: Decision) -> Action:
        action = self._act(decision)
        if self.value_model is not None:
            return self._lot_by_model(decision, action)
        return action

    def _lot_by_model(self, decision: Decision, chosen: Action) -> Action:
        """As parent, the lot model's choice instead of the heuristic's where it
        expects it to win more than ``margin`` more of the match: keep one talisman or
        turn up a second, and bid for the lot (:func:`lot_moves`: my strongest card of
        my longest suit face up) or duck it (my weakest face down).  A model of another
        player count is not used, nor one in a team game (the models know single
        players); followers play as the heuristic does."""
        view = decision.view
        model = self.value_model
        if getattr(model, "players", view["players"]) != view["players"] or view.get("teams"):
            return chosen
        legal = {a.text: a for a in decision.legal}
        if "lot 1" in legal:
            answers = ["lot 1", "lot 2"]
        elif view["phase"] == "bid":
            answers = list(lot_moves(view["hand"]))
        else:
            return chosen
        if chosen.text not in answers:
            return chosen
        values = model.answer_values(view, answers)
        best = max(answers, key=lambda t: values[t])
        if best == chosen.text or values[best] - values[chosen.text] <= model.margin:
            return chosen
        return self._say(
            legal[best],
            f"the lot model expects {best} to win {values[best]:.0%} of the match, "
            f"{chosen.text} only {values[chosen.text]:.0%}",
            f"競売品モデルの予想：{best}で勝率{values[best]:.0%}、{chosen.text}では"
            f"{values[chosen.text]:.0%}",
        )

    def _act(self, decision: Decision) -> Action:
        view = decision.view
        legal = {a.text: a for a in decision.legal}
        seat = decision.seat
        value = _lot_value(tuple(view["won"][seat]), tuple(view["lot"]))
        if "lot 1" in legal:
            return self._lot_choice(view, legal, value)
        if view["phase"] == "bid":
            return self._bid(view, legal, value)
        return self._follow(view, legal, value)

    def _lot_choice(self, view: dict[str, Any], legal: dict[str, Action], value: int) -> Action:
        seat = view["seat"]
        seen = {t for w in view["won"] for t in w} | set(view["lot"])
        held = tuple(view["won"][seat])
        lot = tuple(view["lot"])
        # a talisman's effect on the lot depends only on its last digit
        by_digit: dict[int, bool] = {}
        unseen = 0
        helps = 0
        for t, n in _TALISMANS:
            if t in seen:
                continue
            unseen += 1
            better = by_digit.get(n % 10)
            if better is None:
                better = by_digit[n % 10] = _lot_value(held, (*lot, t)) > value
            helps += better
        if value > 0 and unseen and helps / unseen > 0.6:
            return self._say(
                legal["lot 2"],
                f"the lot is worth +{value} to me and {helps}/{unseen} unseen talismans "
                "would add to it: turn up another",
                f"この競売品は自分に+{value}点、未公開の護符{unseen}枚中{helps}枚がさらに得になる"
                "のでもう1枚追加",
            )
        return self._say(
            legal["lot 1"],
            f"the lot is worth {value:+d} to me: keep it to one talisman",
            f"この競売品は自分に{value:+d}点：1枚で止める",
        )

    def _bid(self, view: dict[str, Any], legal: dict[str, Action], value: int) -> Action:
        hand: list[str] = view["hand"]
        if value > 0:
            suits: dict[str, list[str]] = {}
            for c in hand:
                suits.setdefault(c[-1], []).append(c)
            longest = max(suits.values(), key=lambda cs: (len(cs), max(map(_strength, cs))))
            best = max(longest, key=_strength)
            return self._say(
                legal[f"bid up {best}"],
                f"I want this lot ({value:+d}): lead my strongest card of my longest suit face up",
                f"この競売品が欲しい（{value:+d}点）：一番長いスートの最強札を表で出す",
            )
        low = min(hand, key=_strength)
        return self._say(
            legal[f"bid down {low}"],
            f"I do not want this lot ({value:+d}): bid my weakest card face down",
            f"この競売品は欲しくない（{value:+d}点）：最弱の札を裏で出す",
        )

    def _follow(self, view: dict[str, Any], legal: dict[str, Action], value: int) -> Action:
        options = [t.split(" ", 1)[1] for t in legal]
        table = [t["card"] for t in view["table"] if t["card"] is not None]
        on_table = {_strength(c) for c in table}
        if view["mode"] == "down":
            if value > 0:
                pick = max(options, key=_strength)
                why = ("I want the lot: my strongest card face down", "欲しい：最強の札を裏で出す")
            else:
                pick = min(options, key=_strength)
                why = ("I do not want the lot: my weakest card", "欲しくない：最弱の札を出す")
            return self._say(legal[f"play {pick}"], *why)
        led = view["led_suit"]
        counts: dict[int, int] = {}
        for c in table:
            counts[_strength(c)] = counts.get(_strength(c), 0) + 1
        valid_led = [c for c in table if c[-1] == led and counts[_strength(c)] == 1]
        best = max((_strength(c) for c in valid_led), default=-1)
        following = all(c[-1] == led for c in options)
        if value > 0 and following:
            winners = [c for c in options if _strength(c) > best and _strength(c) not in on_table]
            if winners:
                pick = min(winners, key=_strength)
                return self._say(
                    legal[f"play {pick}"],
                    "I want the lot: the lowest card that beats the best valid card",
                    "欲しい：有効な最強札を上回る最小の札を出す",
                )
        if following:
            under = [c for c in options if _strength(c) < best or _strength(c) in on_table]
            pick = max(under, key=_strength) if under else min(options, key=_strength)
            return self._say(
                legal[f"play {pick}"],
                "duck: the highest card that does not win (or is void)",
                "かわす：勝たない（または無効になる）最大の札を出す",
            )
        pick = min(options, key=_strength)
        return self._say(
            legal[f"play {pick}"],
            "cannot follow, so cannot win: shed my weakest card",
            "台札のスートがないので勝てない：最弱の札を捨てる",
        )
