"""A casual-good player of アルカナデュエル (Arcana Duel).

Strategy, from the seat's view only:

1. **Placing**: lay the strongest cards of the hand (strong cards attack and defend;
   the hand is only a reserve); the Fool (``T0``, power 0) goes down last.
2. **Attacking a face-up card**: its power is known, so attack it with the cheapest
   set of my unused field cards that beats it: face-up cards before face-down ones,
   weak ones before strong ones, few cards rather than many.  A captured card is +1.
3. **Attacking a face-down card**: the defender picks.  The chance of winning is
   estimated from the cards I have not seen (a careful defender shows its best card,
   a careless one any card: the estimate averages the two); a lost attack gives the
   defender every attacking card, so only strong attacks go at face-down cards.
4. **Keeping strong cards for defence**: turning up a face-down card costs a little,
   more the stronger it is (hidden strong cards win the other side's attacks).
5. **The Fool in attack**: once the opponent's field is smaller than mine, attacking
   with my own ``T0`` sends both fields to their owners' points: a gain of the
   difference.
6. **Annihilation**: capturing the opponent's last field card wins at once, so that
   attack is worth far more than one card.
7. **When to stop**: attack while the best attack is worth more than nothing; the
   first attack is compulsory, so then the least bad one (a tie with a face-up card
   moves nothing).
8. **Defending** (I pick my face-down card): the weakest card that still wins, else
   one that ties, else the Fool when a reset gives me at least as much as it gives the
   attacker, else the weakest card.

It decides on ints read once from the view: a legal move's card, power and order by
its action id from tables built at import, the unseen cards as counts per power, and
every set of free cards as a bit mask whose power and cost are built from the set
without its last card (so each float is the same sum, in the same order, as adding
the cards one by one).  The words of an explanation are made only when ``explain()``
asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import repeat
from typing import Any

from xtarot.agents.base import Decision, Explanation
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.engine import Action
from xtarot.games.arcana_duel import ACTIONS

try:  # compiled (setup.py): C ints and doubles for the search; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = ["ArcanaDuelHeuristic", "down_odds", "power"]

_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]
_ALL = [f"T{n}" for n in range(22)] + [r + s for s in "cdsw" for r in _RANKS]
FOOL = "T0"
#: what turning up a face-down card of power p costs: REVEAL * p / 21
REVEAL = 0.4
#: how far the estimate of a face-down defence trusts a careful defender
CAREFUL = 0.5
#: capturing the last field card wins the duel
ANNIHILATION = 30.0

#: an attack: (value, cards, target, kind)
Option = tuple[float, tuple[str, ...], str, str]


def power(code: str) -> int:
    """戦闘力: majors their number, A = 1, pips at face value, J C Q K = 10.

    >>> power("T21"), power("As"), power("7c"), power("Qd"), power("T0")
    (21, 1, 7, 10, 0)
    """
    known = _POWER.get(code)
    return known if known is not None else _power_of(code)


def _power_of(code: str) -> int:
    if code[0] == "T":
        return int(code[1:])
    rank = code[:-1]
    if rank == "A":
        return 1
    if rank in ("J", "C", "Q", "K"):
        return 10
    return int(rank)


#: the power of every card of the deck
_POWER = {c: _power_of(c) for c in _ALL}

# -- tables built once at import: a decision reads the view's codes once into ints ------
#: the highest power of a card
_TOP = max(_POWER.values())
#: a card's code -> its bit (a set of cards is an int of 78 bits)
_BIT = {c: 1 << i for i, c in enumerate(_ALL)}
_DECK = sum(_BIT.values())  # (not ``(1 << len(_ALL)) - 1``: Cython shifts C ints)
_FOOL_BIT = _BIT[FOOL]
#: the cards, the Fool aside, of a power below p and of power p (p = 0 .. _TOP + 1)
_BELOW = [sum(_BIT[c] for c in _ALL if c != FOOL and _POWER[c] < p) for p in range(_TOP + 2)]
_EQUAL = [sum(_BIT[c] for c in _ALL if c != FOOL and _POWER[c] == p) for p in range(_TOP + 2)]
#: what turning up a face-down card of each power costs (REVEAL * p / 21, as written)
_REVEAL_COST = [REVEAL * p / 21 for p in range(_TOP + 1)]
#: what an attack of n cards costs besides turning cards up (0.02 * n)
_SIZE_COST = [0.02 * n for n in range(64)]
#: the kinds of move, by action id
_END, _AT_DOWN, _PLACE, _ATTACK, _AT, _DEFEND = range(6)
_KIND_OF = {"place": _PLACE, "attack": _ATTACK, "at": _AT, "defend": _DEFEND}
_ID_KIND: list[int] = [
    _END if a.text == "end" else _AT_DOWN if a.text == "at down" else _KIND_OF[a.text.split()[0]]
    for a in ACTIONS
]
#: an action id -> the code of its card ("" for ``end`` and ``at down``), its power
#: (-1 for those two)
_ID_CARD: list[str] = [a.text.split()[1] if _ID_KIND[a.id] >= _PLACE else "" for a in ACTIONS]
_ID_POWER: list[int] = [_POWER[c] if c else -1 for c in _ID_CARD]
#: an action id -> its card's place in the order (power, code), weakest first: the order
#: in which defence and target choices pick "the weakest" (ties by name)
_WEAK_ORDER = sorted(_ALL, key=lambda c: (_POWER[c], c))
_ID_WEAK: list[int] = [_WEAK_ORDER.index(c) if c else -1 for c in _ID_CARD]
#: an action id -> its card's place in the order (not the Fool, power, code): the card
#: laid first is the last in it
_LAY_ORDER = sorted(_ALL, key=lambda c: (c != FOOL, _POWER[c], c))
_ID_LAY: list[int] = [_LAY_ORDER.index(c) if c else -1 for c in _ID_CARD]
#: a card's code -> the id of ``attack <card>`` and of ``at <card>``
_ATTACK_ID = {a.text[7:]: a.id for a in ACTIONS if _ID_KIND[a.id] == _ATTACK}
_AT_ID = {a.text[3:]: a.id for a in ACTIONS if _ID_KIND[a.id] == _AT}


def down_odds(attack: int, unseen: list[str], hidden: int) -> tuple[float, float, float, float]:
    """Estimated (win, tie, lose, fool) chances of an attack of power ``attack`` at a
    face-down card, the opponent holding ``hidden`` face-down cards drawn from
    ``unseen``: half a careless defender (any card), half a careful one (its best).

    >>> w, t, l, f = down_odds(22, ["5c", "T21", "Kd", "2s"], 2)
    >>> (w, t, l, f)
    (1.0, 0.0, 0.0, 0.0)
    >>> round(down_odds(6, ["5c", "9d"], 1)[0], 2)
    0.5
    """
    n = len(unseen)
    if n == 0 or hidden == 0:
        return (1.0, 0.0, 0.0, 0.0)
    powers = [power(c) for c in unseen if c != FOOL]
    below = sum(1 for p in powers if p < attack)
    equal = sum(1 for p in powers if p == attack)
    above = sum(1 for p in powers if p > attack)
    return _odds(n, n - len(powers), below, equal, above, hidden)


@lru_cache(maxsize=1 << 12)
def _odds(
    n: int, fools: int, below: int, equal: int, above: int, hidden: int
) -> tuple[float, float, float, float]:
    """:func:`down_odds` from the counts of unseen cards: ``n`` in all, ``fools`` of
    them the Fool, the others ``below``, ``equal`` to or ``above`` the attack."""
    fool = fools / n
    below_f = below / n
    equal_f = equal / n
    above_f = above / n
    # careful: loses only when every hidden card is below (ties when none is above)
    k = hidden
    all_below = below_f**k
    none_above = (below_f + equal_f) ** k
    careful = (all_below, none_above - all_below, 1.0 - none_above - fool * 0.5, fool * 0.5)
    careless = (below_f, equal_f, above_f, fool)
    mix = tuple(CAREFUL * a + (1 - CAREFUL) * b for a, b in zip(careful, careless, strict=True))
    total = sum(mix)
    return (mix[0] / total, mix[1] / total, mix[2] / total, mix[3] / total)


def _find(legal: Sequence[Action], aid: int) -> Action | None:
    """The legal action of this id, or ``None``."""
    for a in legal:
        if a.id == aid:
            return a
    return None


@cython.locals(
    f_me=cython.Py_ssize_t,
    f_them=cython.Py_ssize_t,
    diff=cython.Py_ssize_t,
    hidden=cython.Py_ssize_t,
    bv=cython.double,
    bn=cython.Py_ssize_t,
    bmask=cython.Py_ssize_t,
    weakest=cython.Py_ssize_t,
    one=cython.double,
    base=cython.Py_ssize_t,
    k=cython.Py_ssize_t,
    n_unseen=cython.Py_ssize_t,
    fools=cython.Py_ssize_t,
    size=cython.Py_ssize_t,
    n0=cython.Py_ssize_t,
    mask=cython.Py_ssize_t,
    h=cython.Py_ssize_t,
    rest=cython.Py_ssize_t,
    count=cython.Py_ssize_t,
    p=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
    r=cython.double,
    cost=cython.double,
    v=cython.double,
    win=cython.double,
    lose=cython.double,
    fool=cython.double,
)
def _best_option(view: dict[str, Any]) -> Option | None:
    """The best attack open now, as (value, cards, target, kind); ``None``: none.

    Attacks are ranked by value, then fewer cards, then the cards and the target by
    name.  Every set of my free cards (the ones not attacking yet) is a bit mask over
    ``free``, its power, turning-up cost and size built from the set without its
    highest bit, so the costs are the sums of the cards in ``free``'s order, as the
    attack would add them; each set is offered as a capture of the face-up card it
    beats that comes first by name (every capture of a set is worth the same), a tie
    with the first by name of those it equals, and an attack on a face-down card.
    The ranking is a total order, so which set comes first does not matter; a target
    is named, and the cards compared by name, only for an offer that is not already
    worse by value or size."""
    seat = view["seat"]
    fields = view["fields"]
    mine, theirs = fields[seat], fields[1 - seat]
    attack = view["attack"]
    forming: tuple[str, ...] = tuple(attack["cards"]) if attack else ()
    down_cards: list[str] = mine.get("face_down_cards", [])
    down = set(down_cards)
    free = [e["card"] for e in mine["face_up"] if not e["attacked"]]
    free += sorted(down)
    f_me: int = len(mine["face_up"]) + mine["face_down"]
    f_them: int = len(theirs["face_up"]) + theirs["face_down"]
    diff = f_me - f_them
    hidden: int = theirs["face_down"]
    their_up = theirs["face_up"]
    # the best offer so far: value, size, the set of free cards (-1: the Fool's attack
    # with the cards under way), target and kind
    bv = 0.0
    bn = -1
    bmask = 0
    btarget = ""
    bkind = ""
    if FOOL in forming or FOOL in free:
        # the Fool attacks: both whole fields go to their owners' points
        btarget = their_up[0]["card"] if their_up else "down"
        bv, bkind = float(diff) - 0.5, "fool"
        if FOOL in forming:  # every attack that goes on holds the Fool
            return (bv, forming, btarget, bkind)
        bn, bmask = len(forming) + 1, -1
        free = [c for c in free if c != FOOL]
    # the face-up targets: the first by name of each power, and what each power of
    # attack would capture (the first by name of the weaker targets)
    first_at: dict[int, str] = {}
    for e in their_up:
        name = e["card"]
        q = _POWER[name]
        t = first_at.get(q)
        if t is None or name < t:
            first_at[q] = name
    weakest = min(first_at) if first_at else 1 << 30
    captured: dict[int, str] = {}
    one = 1.0 + (ANNIHILATION if f_them == 1 else 0.0)  # a capture's worth
    base = 0
    for c in forming:
        base += _POWER[c]
    k = len(free)
    powers = [_POWER[c] for c in free]
    # what turning up each free card costs (0.0 for a face-up one: adding it changes
    # no sum)
    reveal = [_REVEAL_COST[q] if c in down else 0.0 for c, q in zip(free, powers, strict=True)]
    # the cards I have not seen, for the odds of a face-down defence
    unseen = _unseen(view, mine) if hidden else 0
    n_unseen = unseen.bit_count()
    fools = 1 if unseen & _FOOL_BIT else 0
    by_power: dict[int, tuple[float, float, float, float]] = {}
    size = 1 << k
    p_of = [base] * size
    r_of = [0.0] * size
    n0 = len(forming)
    size_cost = _SIZE_COST
    steps = _steps(k)
    if not forming:
        steps = steps[1:]  # (no empty attack)
    for mask, h, rest, count in steps:
        if mask:
            p = p_of[rest] + powers[h]
            r = r_of[rest] + reveal[h]
            p_of[mask] = p
            r_of[mask] = r
        else:
            p, r = base, 0.0
        n = n0 + count
        cost = r + size_cost[n]
        if p > weakest:  # a capture: the same worth whichever target it beats
            v = one - cost
            if bn < 0 or v > bv or (v == bv and n <= bn):
                t = captured.get(p)
                if t is None:
                    t = captured[p] = min([name for q, name in first_at.items() if q < p])
                if bn < 0 or _better(v, n, mask, t, bv, bn, bmask, btarget, free):
                    bv, bn, bmask, btarget, bkind = v, n, mask, t, "capture"
        if p >= weakest:  # a tie with a face-up card moves nothing
            v = -cost
            if bn < 0 or v > bv or (v == bv and n <= bn):
                t = first_at.get(p)
                if t is not None and (
                    bn < 0 or _better(v, n, mask, t, bv, bn, bmask, btarget, free)
                ):
                    bv, bn, bmask, btarget, bkind = v, n, mask, t, "tie"
        if hidden:
            chances = by_power.get(p)
            if chances is None:
                chances = by_power[p] = _chances(unseen, n_unseen, fools, hidden, p)
            win, lose, fool = chances[0], chances[2], chances[3]
            v = win * one - lose * n + fool * diff - cost
            if bn < 0 or (
                (v > bv or (v == bv and n <= bn))
                and _better(v, n, mask, "down", bv, bn, bmask, btarget, free)
            ):
                bv, bn, bmask, btarget, bkind = v, n, mask, "down", "down"
    if bn < 0:
        return None
    return (bv, (*forming, *_extra(bmask, free)), btarget, bkind)


def _sets(k: int) -> list[tuple[int, int, int, int]]:
    """Every set of ``k`` free cards as (mask, its highest bit, the mask without that
    bit, its number of cards), the empty set first and each set after its subsets."""
    out = [(0, -1, 0, 0)]
    for m in range(1, 1 << k):
        h = m.bit_length() - 1
        out.append((m, h, m ^ (1 << h), m.bit_count()))
    return out


#: :func:`_sets` of 0 .. 8 cards (a field holds at most 5)
_STEPS = [_sets(k) for k in range(9)]


def _steps(k: int) -> list[tuple[int, int, int, int]]:
    """:func:`_sets` of ``k`` cards, kept for up to 8."""
    return _STEPS[k] if k < len(_STEPS) else _sets(k)


def _extra(mask: int, free: list[str]) -> tuple[str, ...]:
    """The free cards of a set (-1: the Fool alone), in ``free``'s order."""
    if mask < 0:
        return (FOOL,)
    return tuple([c for i, c in enumerate(free) if mask >> i & 1])


def _better(
    v: float, n: int, mask: int, target: str,
    bv: float, bn: int, bmask: int, btarget: str, free: list[str],
) -> bool:  # fmt: skip
    """Whether an offer ranks before the best so far: a higher value, then fewer cards,
    then the cards and the target by name (as the key (-value, size, cards, target))."""
    if v != bv:
        return v > bv
    if n != bn:
        return n < bn
    mine, best = _extra(mask, free), _extra(bmask, free)
    if mine != best:
        return mine < best
    return target < btarget


def _unseen(view: dict[str, Any], mine: dict[str, Any]) -> int:
    """The cards this seat has not seen (a mask of :data:`_BIT`): not in its hand, not
    face up on a field, not its own face-down cards, not shown in a points pile."""
    seen = set(view["hand"])
    for f in view["fields"]:
        for e in f["face_up"]:
            seen.add(e["card"])
    seen.update(mine.get("face_down_cards", []))
    for pile in view["points"]:
        seen.update(pile["cards"])
    return _DECK & ~sum(map(_BIT.get, seen, repeat(0)))


def _chances(
    unseen: int, n: int, fools: int, hidden: int, p: int
) -> tuple[float, float, float, float]:
    """:func:`down_odds` of an attack of power ``p``, the ``n`` unseen cards (``fools``
    of them the Fool) given as a mask: counted below, equal to and above ``p``."""
    if n == 0:
        return (1.0, 0.0, 0.0, 0.0)
    if p > _TOP:
        p = _TOP + 1
    lo = (unseen & _BELOW[p]).bit_count()
    equal = (unseen & _EQUAL[p]).bit_count()
    return _odds(n, fools, lo, equal, n - fools - lo - equal, hidden)


class ArcanaDuelHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: the last move, the rule that chose it and what its words need
        self._pending: tuple[Action, str, tuple[Any, ...]] | None = None

    def explain(self) -> Explanation | None:
        pending = self._pending
        if pending is not None:
            self._pending = None
            action, rule, facts = pending
            en, ja = _WORDS[rule](*facts)
            self._last = Explanation(self.name, action.text, en, ja)
        return self._last

    def _say_later(self, action: Action, rule: str, *facts: Any) -> Action:
        """Record the rule that chose ``action`` and the facts its words need (a key of
        :data:`_WORDS`); the words are made only if :meth:`explain` asks."""
        self._pending = (action, rule, facts)
        return action

    def act(self, decision: Decision) -> Action:
        view = decision.view
        phase = view["phase"]
        if phase == "defend":
            return self._defend(view, decision.legal)
        if phase == "attack":
            return self._attack(view, decision.legal)
        return self._place(decision.legal)

    # -- placing --------------------------------------------------------------------------
    def _place(self, legal: Sequence[Action]) -> Action:
        # the strongest card of the hand, the Fool last (legal: ``place <card>``)
        best = legal[0]
        top = -1
        for a in legal:
            r = _ID_LAY[a.id]
            if r > top:
                best, top = a, r
        return self._say_later(best, "place", _ID_CARD[best.id])

    # -- attacking ----------------------------------------------------------------------
    def _attack(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        best = _best_option(view)
        forming = view["attack"]["cards"] if view["attack"] else []
        if best is None:
            return self._no_winning_attack(legal)
        value, cards, target, kind = best
        if not forming and value <= 0:
            end = _find(legal, _END)
            if end is not None:
                return self._say_later(end, "worthless", value)
        missing = [c for c in cards if c not in forming]
        if missing:
            # face-up cards first, then the face-down ones (weakest first)
            up = {e["card"] for e in view["fields"][view["seat"]]["face_up"]}
            nxt = min(missing, key=lambda c: (c not in up, _POWER[c], c))
            step = _find(legal, _ATTACK_ID[nxt])
        else:
            step = _find(legal, _AT_DOWN if target == "down" else _AT_ID[target])
        if step is None:  # the plan is not open after all: play the least bad move
            return self._no_winning_attack(legal, planned=True)
        return self._say_later(step, kind, value, cards, target)

    def _no_winning_attack(self, legal: Sequence[Action], *, planned: bool = False) -> Action:
        """No attack wins or ties (``planned``: the best one is not open after all):
        stop if allowed, else lose the attack under way against the weakest target (the
        rules allow losing an attack on purpose).  The reason says "no attack is
        possible" only when no attack move is legal."""
        end = _find(legal, _END)
        if end is not None:
            if not any(_ID_KIND[a.id] in (_AT_DOWN, _ATTACK, _AT) for a in legal):
                return self._say_later(end, "impossible")
            return self._say_later(end, "not open" if planned else "none wins")
        weakest: Action | None = None
        for a in legal:  # ``at down`` first, then the weakest face-up target
            kind = _ID_KIND[a.id]
            if kind == _AT_DOWN:
                weakest = a
                break
            if kind == _AT and (weakest is None or _ID_WEAK[a.id] < _ID_WEAK[weakest.id]):
                weakest = a
        if weakest is not None:
            return self._say_later(weakest, "lose")
        return self._say_later(legal[0], "no better")

    # -- defending ----------------------------------------------------------------------
    def _defend(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        seat = view["seat"]
        attack = view["attack"]
        p = attack["power"]
        n_attackers = len(attack["cards"])
        mine, theirs = view["fields"][seat], view["fields"][1 - seat]
        f_me = len(mine["face_up"]) + mine["face_down"]
        f_them = len(theirs["face_up"]) + theirs["face_down"]
        # (legal: ``defend <card>``) the weakest card that wins, the first-named that
        # ties, the Fool, the weakest card
        win = tie = fool = weakest = None
        for a in legal:
            aid = a.id
            q = _ID_POWER[aid]
            if _ID_CARD[aid] == FOOL:
                fool = a
                continue
            w = _ID_WEAK[aid]
            if q > p:
                if win is None or w < _ID_WEAK[win.id]:
                    win = a
            elif q == p and (tie is None or w < _ID_WEAK[tie.id]):
                tie = a
            if weakest is None or w < _ID_WEAK[weakest.id]:
                weakest = a
        # what each answer is worth to me, in cards (the attacker's gain counts
        # against): the highest, then win, tie, the Fool, losing in that order
        choice: tuple[float, Action, str] | None = None
        for value, a, kind in (
            (float(n_attackers), win, "win"),
            (0.0, tie, "tie"),
            (float(f_me - f_them), fool, "fool"),
            (-ANNIHILATION if f_me == 1 else -1.0, weakest, "lose"),
        ):
            if a is not None and (choice is None or value > choice[0]):
                choice = (value, a, kind)
        if choice is None:
            raise ValueError("no defence is legal")
        _, a, kind = choice
        return self._say_later(a, "defend " + kind, _ID_CARD[a.id], p, n_attackers, f_me, f_them)


# -- the words of each rule, made only when an explanation is asked for ------------------
def _place_words(best: str) -> tuple[str, str]:
    if best == FOOL:
        return "the Fool is my only card left: lay it face down", "残りは愚者だけなので裏向きに置く"
    return (
        f"lay my strongest card {best} (power {power(best)}) face down: it attacks and "
        "defends, the hand is only a reserve",
        f"最強の{best}（戦闘力{power(best)}）を裏向きに置く：場の札が攻撃も防御もする",
    )


def _worthless_words(value: float) -> tuple[str, str]:
    return (
        f"no attack is worth making (best {value:+.2f}): end the attacks",
        f"得になる攻撃がない（最善{value:+.2f}）：攻撃終了",
    )


def _fool_words(value: float, cards: tuple[str, ...], target: str) -> tuple[str, str]:
    names = " ".join(cards)
    return (
        f"attack with my Fool: both fields go to their owners' points ({value + 0.5:+.0f} "
        f"for me), attacking {names}",
        f"自分の愚者で攻撃：両者の場が得点へ（自分に{value + 0.5:+.0f}）",
    )


def _capture_words(value: float, cards: tuple[str, ...], target: str) -> tuple[str, str]:
    names = " ".join(cards)
    p = sum(power(c) for c in cards)
    if value > ANNIHILATION / 2:
        return (
            f"{names} (power {p}) takes {target}, the last card of the opponent's field: "
            "annihilation wins",
            f"{names}（戦闘力{p}）で相手の場の最後の{target}を取る：全滅で勝ち",
        )
    return (
        f"the cheapest win: {names} (power {p}) beats the face-up {target} (power {power(target)})",
        f"最も安い勝ち：{names}（戦闘力{p}）で表向きの{target}（戦闘力{power(target)}）を取る",
    )


def _tie_words(value: float, cards: tuple[str, ...], target: str) -> tuple[str, str]:
    names = " ".join(cards)
    return (
        f"an attack is compulsory and none pays: {names} ties the face-up {target} (nothing moves)",
        f"攻撃は必須だが得な攻撃がない：{names}で表向きの{target}と引き分け（何も動かない）",
    )


def _down_words(value: float, cards: tuple[str, ...], target: str) -> tuple[str, str]:
    names = " ".join(cards)
    p = sum(power(c) for c in cards)
    if value > 0:
        return (
            f"attack a face-down card with {names} (power {p}): worth {value:+.2f} on the "
            "unseen cards",
            f"{names}（戦闘力{p}）で裏向きの札を攻撃：未見の札から見て{value:+.2f}の得",
        )
    return (
        f"an attack is compulsory: the least bad is {names} (power {p}) at a face-down "
        f"card ({value:+.2f})",
        f"攻撃は必須：最も損の少ない{names}（戦闘力{p}）で裏向きの札を攻撃（{value:+.2f}）",
    )


def _defend_win_words(c: str, p: int, n_attackers: int, *_: int) -> tuple[str, str]:
    return (
        f"{c} (power {power(c)}) is my weakest card that beats the attack's {p}: "
        f"it wins {n_attackers} card{'s' if n_attackers > 1 else ''}",
        f"攻撃{p}に勝つ最弱の{c}（戦闘力{power(c)}）で守る：{n_attackers}枚獲得",
    )


def _defend_tie_words(c: str, p: int, *_: int) -> tuple[str, str]:
    return (
        f"nothing beats the attack's {p}: {c} ties it, nothing moves",
        f"攻撃{p}に勝てる札がない：{c}で引き分け（何も動かない）",
    )


def _defend_fool_words(c: str, p: int, n: int, f_me: int, f_them: int) -> tuple[str, str]:
    return (
        f"show the Fool: both fields go to points ({f_me} for me, {f_them} for the "
        "attacker), better than the other answers",
        f"愚者で守る：両者の場が得点へ（自分{f_me}枚、相手{f_them}枚）",
    )


def _defend_lose_words(c: str, p: int, *_: int) -> tuple[str, str]:
    return (
        f"nothing holds against {p}: give up my weakest card {c} and keep the strong ones",
        f"攻撃{p}に耐えられる札がない：最弱の{c}を渡し強い札を残す",
    )


#: a rule's name -> its words (English, Japanese) from the facts recorded with the move
_WORDS: dict[str, Callable[..., tuple[str, str]]] = {
    "place": _place_words,
    "worthless": _worthless_words,
    "fool": _fool_words,
    "capture": _capture_words,
    "tie": _tie_words,
    "down": _down_words,
    "impossible": lambda: ("no attack is possible: end", "攻撃できないので終了"),
    "not open": lambda: (
        "the attack I would make is not open now: end the attacks",
        "したい攻撃が今はできない：攻撃終了",
    ),
    "none wins": lambda: (
        "no attack could win or tie (the opponent's face-up cards are too strong and "
        "none is face down): end the attacks",
        "勝てる攻撃も引き分けの攻撃もない（相手の表向きの札が強く、裏向きの札もない）：攻撃終了",
    ),
    "lose": lambda: (
        "no attack can win and one is compulsory: lose it against the weakest target",
        "勝てる攻撃がなく攻撃は必須：最も弱い目標に攻撃して負ける",
    ),
    "no better": lambda: ("no better move is open", "ほかに良い手がない"),
    "defend win": _defend_win_words,
    "defend tie": _defend_tie_words,
    "defend fool": _defend_fool_words,
    "defend lose": _defend_lose_words,
}
