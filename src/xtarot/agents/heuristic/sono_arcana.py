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

from typing import Any

from xtarot.agents.base import Decision
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import SUITS
from xtarot.engine import Action
from xtarot.games.sono_arcana import ACTIONS

try:  # compiled (setup.py): C ints for the loops; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = ["SonoArcanaHeuristic", "lot_moves", "lot_value"]

_ORDER = "N A 2 3 4 5 6 7 8 9 10 R E B L W J C Q K".split()
_STRENGTH = {r: i for i, r in enumerate(_ORDER)}

# -- tables built once at import: a decision reads the view's codes once into ints ------
#: a bidding card's code -> its strength (the rank's place in the order, weakest first)
_CARD_STRENGTH: dict[str, int] = {r + s: i for s in SUITS for r, i in _STRENGTH.items()}
#: a bidding card's code -> its suit's bit (1, 2, 4, 8 for the suits in SUITS' order)
_CARD_SUIT: dict[str, int] = {r + s: 1 << k for k, s in enumerate(SUITS) for r in _STRENGTH}
#: a suit letter -> its bit, as in :data:`_CARD_SUIT`
_SUIT_BIT: dict[str, int] = {s: 1 << k for k, s in enumerate(SUITS)}
#: an action id -> the strength and the suit's bit of the card it plays (-1 and 0 for
#: the actions that play none): a move's card read without its text
_ID_STRENGTH: list[int] = [
    _CARD_STRENGTH[a.text[5:]] if a.text.startswith("play ") else -1 for a in ACTIONS
]
_ID_SUIT: list[int] = [_CARD_SUIT[a.text[5:]] if a.text.startswith("play ") else 0 for a in ACTIONS]
#: a talisman's code -> the bit of its last digit (talismans sharing it clash)
_DIGIT_BIT: dict[str, int] = {f"T{n}": 1 << (n % 10) for n in range(24)}
#: a talisman's code -> its own bit (a set of talismans is an int of 24 bits)
_TALISMAN_BIT: dict[str, int] = {f"T{n}": 1 << n for n in range(24)}


def _strength(code: str) -> int:
    """A card's strength; a code outside the deck read by its rank."""
    k = _CARD_STRENGTH.get(code)
    return _STRENGTH[code[:-1]] if k is None else k


@cython.locals(once=cython.Py_ssize_t, twice=cython.Py_ssize_t, b=cython.Py_ssize_t)
def _digits(pile: list[str], once: int = 0, twice: int = 0) -> tuple[int, int]:
    """The digits found once or more and twice or more in ``pile`` (two masks of 10
    bits), counted on from ``once`` and ``twice``."""
    for t in pile:
        b = _DIGIT_BIT[t]
        twice |= once & b
        once |= b
    return once, twice


@cython.locals(once=cython.Py_ssize_t, twice=cython.Py_ssize_t, u=cython.Py_ssize_t)
def _unique(once: int, twice: int) -> int:
    """How many digits are held exactly once (bits of ``once`` not in ``twice``)."""
    u = 0
    once &= ~twice
    while once:
        once &= once - 1
        u += 1
    return u


@cython.locals(
    held_once=cython.Py_ssize_t,
    held_twice=cython.Py_ssize_t,
    once=cython.Py_ssize_t,
    twice=cython.Py_ssize_t,
)
def _value(held: list[str], lot: list[str]) -> int:
    """:func:`lot_value`: a pile scores +2 a talisman whose digit is its own and -1 one
    that shares it, 3 × (digits held once) − (talismans held) in all."""
    held_once, held_twice = _digits(held)
    once, twice = _digits(lot, held_once, held_twice)
    return 3 * (_unique(once, twice) - _unique(held_once, held_twice)) - len(lot)


def lot_value(held: list[str], lot: list[str]) -> int:
    """How my score changes if I take ``lot`` on top of ``held``.

    >>> lot_value(["T3"], ["T13"]), lot_value(["T3"], ["T5"]), lot_value([], ["T4", "T14"])
    (-4, 2, -2)
    """
    return _value(list(held), list(lot))


@cython.locals(
    seen=cython.Py_ssize_t,
    digits=cython.Py_ssize_t,
    unseen=cython.Py_ssize_t,
    helps=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
)
def _helping(won: list[list[str]], held: list[str], lot: list[str]) -> tuple[int, int]:
    """(unseen talismans, those of them that would add to the lot's value for me).

    Adding one talisman to the lot raises its value exactly when its digit is in
    neither my pile nor the lot (one more digit held once: +2); otherwise it lowers
    it (a clash: -1 or -4)."""
    seen = 0
    for pile in won:
        for t in pile:
            seen |= _TALISMAN_BIT[t]
    for t in lot:
        seen |= _TALISMAN_BIT[t]
    digits, _ = _digits(lot, *_digits(held))
    unseen = helps = 0
    for n in range(24):
        if seen >> n & 1:
            continue
        unseen += 1
        if not digits >> (n % 10) & 1:
            helps += 1
    return unseen, helps


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
    """The documented strategy above; ``explain()`` names the rule that fired.

    It decides on ints read once from the view (strengths, suit bits, digit masks:
    tables built at import), with the choices of the rules above to the last tie:
    the first card, in the order the view or the legal moves list them, of those
    that tie (as ``min`` and ``max`` break ties)."""

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
        value = _value(view["won"][decision.seat], view["lot"])
        phase = view["phase"]
        if phase == "lot":  # the parent's choice: ``lot 1`` or ``lot 2``
            return self._lot_choice(view, decision.legal, value)
        if phase == "bid":
            return self._bid(view, decision.legal, value)
        return self._follow(view, decision.legal, value)

    def _lot_choice(self, view: dict[str, Any], legal: list[Action], value: int) -> Action:
        by_text = {a.text: a for a in legal}
        unseen, helps = _helping(view["won"], view["won"][view["seat"]], view["lot"])
        if value > 0 and unseen and helps / unseen > 0.6:
            return self._say(
                by_text["lot 2"],
                f"the lot is worth +{value} to me and {helps}/{unseen} unseen talismans "
                "would add to it: turn up another",
                f"この競売品は自分に+{value}点、未公開の護符{unseen}枚中{helps}枚がさらに得になる"
                "のでもう1枚追加",
            )
        return self._say(
            by_text["lot 1"],
            f"the lot is worth {value:+d} to me: keep it to one talisman",
            f"この競売品は自分に{value:+d}点：1枚で止める",
        )

    @cython.locals(
        value=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        s=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        low=cython.Py_ssize_t,
        at=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        best_len=cython.Py_ssize_t,
        best_top=cython.Py_ssize_t,
    )
    def _bid(self, view: dict[str, Any], legal: list[Action], value: int) -> Action:
        hand: list[str] = view["hand"]
        if value > 0:
            # the longest suit (then the one with the strongest card; then the first
            # in the hand's order), and its strongest card
            length = [0, 0, 0, 0, 0, 0, 0, 0, 0]
            top = [-1, -1, -1, -1, -1, -1, -1, -1, -1]
            where = [0, 0, 0, 0, 0, 0, 0, 0, 0]
            order: list[int] = []  # the suits in the order the hand first shows them
            for i in range(len(hand)):
                s = _CARD_SUIT[hand[i]]
                k = _strength(hand[i])
                if not length[s]:
                    order.append(s)
                length[s] += 1
                if k > top[s]:
                    top[s], where[s] = k, i
            best, best_len, best_top = 0, -1, -1
            for s in order:
                if length[s] > best_len or (length[s] == best_len and top[s] > best_top):
                    best, best_len, best_top = s, length[s], top[s]
            pick = hand[where[best]]
            return self._say(
                _find(legal, f"bid up {pick}"),
                f"I want this lot ({value:+d}): lead my strongest card of my longest suit face up",
                f"この競売品が欲しい（{value:+d}点）：一番長いスートの最強札を表で出す",
            )
        low, at = 99, 0
        for i in range(len(hand)):
            k = _strength(hand[i])
            if k < low:
                low, at = k, i
        return self._say(
            _find(legal, f"bid down {hand[at]}"),
            f"I do not want this lot ({value:+d}): bid my weakest card face down",
            f"この競売品は欲しくない（{value:+d}点）：最弱の札を裏で出す",
        )

    @cython.locals(
        value=cython.Py_ssize_t,
        on_table=cython.Py_ssize_t,
        twice=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        n=cython.Py_ssize_t,
        led=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        following=cython.bint,
        pick=cython.Py_ssize_t,
        low=cython.Py_ssize_t,
        high=cython.Py_ssize_t,
        at_low=cython.Py_ssize_t,
        at_high=cython.Py_ssize_t,
        wins=cython.Py_ssize_t,
        at_wins=cython.Py_ssize_t,
        under=cython.Py_ssize_t,
        at_under=cython.Py_ssize_t,
        aid=cython.Py_ssize_t,
    )
    def _follow(self, view: dict[str, Any], legal: list[Action], value: int) -> Action:
        n = len(legal)
        strengths = [0] * n
        suits = [0] * n
        # my options (``play <card>``, in the legal moves' order): the first of the
        # weakest and of the strongest
        low, at_low, high, at_high = 99, 0, -1, 0
        for i in range(n):
            aid = legal[i].id  # ``play <card>``
            k = _ID_STRENGTH[aid]
            strengths[i] = k
            suits[i] = _ID_SUIT[aid]
            if k < low:
                low, at_low = k, i
            if k > high:
                high, at_high = k, i
        if view["mode"] == "down":
            if value > 0:
                return self._say(
                    legal[at_high],
                    "I want the lot: my strongest card face down",
                    "欲しい：最強の札を裏で出す",
                )
            return self._say(
                legal[at_low],
                "I do not want the lot: my weakest card",
                "欲しくない：最弱の札を出す",
            )
        # the strengths on the table (a bit each), those played twice or more (void),
        # and the best valid card of the led suit
        led = _SUIT_BIT[view["led_suit"]]
        on_table = twice = 0
        for play in view["table"]:
            code = play["card"]
            if code is not None:
                k = _strength(code)
                twice |= on_table & (1 << k)
                on_table |= 1 << k
        best = -1
        for play in view["table"]:
            code = play["card"]
            if code is not None and _CARD_SUIT[code] == led:
                k = _strength(code)
                if not twice >> k & 1 and k > best:
                    best = k
        following = True
        for i in range(n):
            if suits[i] != led:
                following = False
        if value > 0 and following:
            # the lowest card that beats the best valid one and is not void at once
            wins, at_wins = 99, -1
            for i in range(n):
                k = strengths[i]
                if k > best and not on_table >> k & 1 and k < wins:
                    wins, at_wins = k, i
            if at_wins >= 0:
                return self._say(
                    legal[at_wins],
                    "I want the lot: the lowest card that beats the best valid card",
                    "欲しい：有効な最強札を上回る最小の札を出す",
                )
        if following:
            # the highest card that does not win (or is void), else the lowest
            under, at_under = -1, -1
            for i in range(n):
                k = strengths[i]
                if (k < best or on_table >> k & 1) and k > under:
                    under, at_under = k, i
            pick = at_under if at_under >= 0 else at_low
            return self._say(
                legal[pick],
                "duck: the highest card that does not win (or is void)",
                "かわす：勝たない（または無効になる）最大の札を出す",
            )
        return self._say(
            legal[at_low],
            "cannot follow, so cannot win: shed my weakest card",
            "台札のスートがないので勝てない：最弱の札を捨てる",
        )


def _find(legal: list[Action], text: str) -> Action:
    """The legal action of this text."""
    for a in legal:
        if a.text == text:
            return a
    raise KeyError(text)
