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
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import Any

from xtarot.agents.base import Decision
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.engine import Action

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


class _DownOdds:
    """:func:`down_odds` against one set of unseen cards, for any attack power."""

    def __init__(self, unseen: list[str], hidden: int) -> None:
        self.n = len(unseen)
        self.hidden = hidden
        self.powers = sorted(power(c) for c in unseen if c != FOOL)
        self.fools = self.n - len(self.powers)

    def __call__(self, attack: int) -> tuple[float, float, float, float]:
        if self.n == 0 or self.hidden == 0:
            return (1.0, 0.0, 0.0, 0.0)
        powers = self.powers
        lo = bisect_left(powers, attack)
        hi = bisect_right(powers, attack)
        return _odds(self.n, self.fools, lo, hi - lo, len(powers) - hi, self.hidden)


class ArcanaDuelHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def act(self, decision: Decision) -> Action:
        view = decision.view
        legal = {a.text: a for a in decision.legal}
        phase = view["phase"]
        if phase == "defend":
            return self._defend(view, legal)
        if phase == "attack":
            return self._attack(view, legal)
        return self._place(view, legal)

    # -- placing --------------------------------------------------------------------------
    def _place(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        hand = [t[6:] for t in legal]
        best = max(hand, key=lambda c: (c != FOOL, power(c), c))
        if best == FOOL:
            return self._say(
                legal[f"place {best}"],
                "the Fool is my only card left: lay it face down",
                "残りは愚者だけなので裏向きに置く",
            )
        return self._say(
            legal[f"place {best}"],
            f"lay my strongest card {best} (power {power(best)}) face down: it attacks and "
            "defends, the hand is only a reserve",
            f"最強の{best}（戦闘力{power(best)}）を裏向きに置く：場の札が攻撃も防御もする",
        )

    # -- knowledge ----------------------------------------------------------------------
    @staticmethod
    def _unseen(view: dict[str, Any]) -> list[str]:
        seat = view["seat"]
        seen = set(view["hand"])
        for f in view["fields"]:
            seen.update(e["card"] for e in f["face_up"])
        seen.update(view["fields"][seat].get("face_down_cards", []))
        for p in view["points"]:
            seen.update(p["cards"])
        return [c for c in _ALL if c not in seen]

    # -- attacking ----------------------------------------------------------------------
    def _best_option(self, view: dict[str, Any]) -> Option | None:
        """The best attack open now, as (value, cards, target, kind); ``None``: none.

        Attacks are ranked by value, then fewer cards, then the cards and the target
        by name."""
        seat = view["seat"]
        mine, theirs = view["fields"][seat], view["fields"][1 - seat]
        forming = tuple(view["attack"]["cards"]) if view["attack"] else ()
        down = set(mine.get("face_down_cards", []))
        free = [e["card"] for e in mine["face_up"] if not e["attacked"]] + sorted(down)
        f_me = len(mine["face_up"]) + mine["face_down"]
        f_them = len(theirs["face_up"]) + theirs["face_down"]
        hidden = theirs["face_down"]
        best: Option | None = None
        best_key: tuple[Any, ...] | None = None

        def offer(option: Option) -> None:
            nonlocal best, best_key
            key = (-option[0], len(option[1]), option[1], option[2])
            if best_key is None or key < best_key:
                best, best_key = option, key

        if FOOL in forming or FOOL in free:
            # the Fool attacks: both whole fields go to their owners' points
            cards = forming if FOOL in forming else (*forming, FOOL)
            target = theirs["face_up"][0]["card"] if theirs["face_up"] else "down"
            offer((float(f_me - f_them) - 0.5, cards, target, "fool"))
            if FOOL in forming:
                return best  # every attack that goes on holds the Fool
        free = [c for c in free if c != FOOL]
        targets = [(e["card"], power(e["card"])) for e in theirs["face_up"]]
        bonus = ANNIHILATION if f_them == 1 else 0.0
        odds = _DownOdds(self._unseen(view), hidden) if hidden else None
        base = sum(power(c) for c in forming)
        # per free card: its power and what turning it up costs (nothing when face up)
        spend = [(c, power(c), REVEAL * power(c) / 21 if c in down else None) for c in free]
        by_power: dict[int, tuple[float, float, float, float]] = {}

        def consider(extra: tuple[str, ...], p: int, reveal: float) -> None:
            cards = (*forming, *extra)
            cost = reveal + 0.02 * len(cards)
            for card, q in targets:
                if p > q:
                    offer((1.0 + bonus - cost, cards, card, "capture"))
                elif p == q:
                    offer((-cost, cards, card, "tie"))
            if odds is not None:
                chances = by_power.get(p)
                if chances is None:
                    chances = by_power[p] = odds(p)
                win, _tie, lose, fool = chances
                value = win * (1.0 + bonus) - lose * len(cards) + fool * (f_me - f_them) - cost
                offer((value, cards, "down", "down"))

        def grow(start: int, extra: tuple[str, ...], p: int, reveal: float | int) -> None:
            # every set of free cards, each card after the ones already in it
            for i in range(start, len(spend)):
                c, q, r = spend[i]
                more = (*extra, c)
                cost = reveal if r is None else reveal + r
                consider(more, p + q, cost)
                grow(i + 1, more, p + q, cost)

        if forming:
            consider((), base, 0)
        grow(0, (), base, 0)
        return best

    def _attack(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        best = self._best_option(view)
        forming = view["attack"]["cards"] if view["attack"] else []
        if best is None:
            return self._no_winning_attack(view, legal)
        value, cards, target, kind = best
        if not forming and value <= 0 and "end" in legal:
            return self._say(
                legal["end"],
                f"no attack is worth making (best {value:+.2f}): end the attacks",
                f"得になる攻撃がない（最善{value:+.2f}）：攻撃終了",
            )
        missing = [c for c in cards if c not in forming]
        if missing:
            # face-up cards first, then the face-down ones (weakest first)
            up = {e["card"] for e in view["fields"][view["seat"]]["face_up"]}
            nxt = min(missing, key=lambda c: (c not in up, power(c), c))
            step = legal.get(f"attack {nxt}")
        else:
            step = legal.get("at down" if target == "down" else f"at {target}")
        if step is None:  # the plan is not open after all: play the least bad move
            return self._no_winning_attack(view, legal, planned=True)
        names = " ".join(cards)
        p = sum(power(c) for c in cards)
        if kind == "fool":
            return self._say(
                step,
                f"attack with my Fool: both fields go to their owners' points ({value + 0.5:+.0f} "
                f"for me), attacking {names}",
                f"自分の愚者で攻撃：両者の場が得点へ（自分に{value + 0.5:+.0f}）",
            )
        if kind == "capture":
            if value > ANNIHILATION / 2:
                return self._say(
                    step,
                    f"{names} (power {p}) takes {target}, the last card of the opponent's field: "
                    "annihilation wins",
                    f"{names}（戦闘力{p}）で相手の場の最後の{target}を取る：全滅で勝ち",
                )
            return self._say(
                step,
                f"the cheapest win: {names} (power {p}) beats the face-up {target} "
                f"(power {power(target)})",
                f"最も安い勝ち：{names}（戦闘力{p}）で表向きの{target}（戦闘力{power(target)}）を取る",
            )
        if kind == "tie":
            return self._say(
                step,
                f"an attack is compulsory and none pays: {names} ties the face-up {target} "
                "(nothing moves)",
                f"攻撃は必須だが得な攻撃がない：{names}で表向きの{target}と引き分け（何も動かない）",
            )
        if value > 0:
            return self._say(
                step,
                f"attack a face-down card with {names} (power {p}): worth {value:+.2f} on the "
                "unseen cards",
                f"{names}（戦闘力{p}）で裏向きの札を攻撃：未見の札から見て{value:+.2f}の得",
            )
        return self._say(
            step,
            f"an attack is compulsory: the least bad is {names} (power {p}) at a face-down "
            f"card ({value:+.2f})",
            f"攻撃は必須：最も損の少ない{names}（戦闘力{p}）で裏向きの札を攻撃（{value:+.2f}）",
        )

    def _no_winning_attack(
        self, view: dict[str, Any], legal: dict[str, Action], *, planned: bool = False
    ) -> Action:
        """No attack wins or ties (``planned``: the best one is not open after all):
        stop if allowed, else lose the attack under way against the weakest target (the
        rules allow losing an attack on purpose).  The reason says "no attack is
        possible" only when no attack move is legal."""
        if "end" in legal:
            if not any(t.startswith(("attack ", "at ")) for t in legal):
                return self._say(legal["end"], "no attack is possible: end", "攻撃できないので終了")
            if planned:
                return self._say(
                    legal["end"],
                    "the attack I would make is not open now: end the attacks",
                    "したい攻撃が今はできない：攻撃終了",
                )
            return self._say(
                legal["end"],
                "no attack could win or tie (the opponent's face-up cards are too strong and "
                "none is face down): end the attacks",
                "勝てる攻撃も引き分けの攻撃もない（相手の表向きの札が強く、裏向きの札もない）：攻撃終了",
            )
        targets = [t for t in legal if t.startswith("at ")]
        if targets:
            weakest = min(
                targets, key=lambda t: (t != "at down", power(t[3:]) if t != "at down" else 0, t)
            )
            return self._say(
                legal[weakest],
                "no attack can win and one is compulsory: lose it against the weakest target",
                "勝てる攻撃がなく攻撃は必須：最も弱い目標に攻撃して負ける",
            )
        first = next(iter(legal.values()))
        return self._say(first, "no better move is open", "ほかに良い手がない")

    # -- defending ----------------------------------------------------------------------
    def _defend(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        seat = view["seat"]
        attack = view["attack"]
        p = attack["power"]
        n_attackers = len(attack["cards"])
        mine, theirs = view["fields"][seat], view["fields"][1 - seat]
        f_me = len(mine["face_up"]) + mine["face_down"]
        f_them = len(theirs["face_up"]) + theirs["face_down"]
        options = [t[7:] for t in legal]
        real = [c for c in options if c != FOOL]
        winners = sorted((c for c in real if power(c) > p), key=lambda c: (power(c), c))
        ties = sorted(c for c in real if power(c) == p)
        weakest = min(real, key=lambda x: (power(x), x)) if real else None
        # what each answer is worth to me, in cards (the attacker's gain counts against)
        choices: list[tuple[float, int, str, str]] = []
        if winners:
            choices.append((float(n_attackers), 3, winners[0], "win"))
        if ties:
            choices.append((0.0, 2, ties[0], "tie"))
        if FOOL in options:
            choices.append((float(f_me - f_them), 1, FOOL, "fool"))
        if weakest is not None:
            choices.append((-ANNIHILATION if f_me == 1 else -1.0, 0, weakest, "lose"))
        _, _, c, kind = max(choices)
        if kind == "win":
            return self._say(
                legal[f"defend {c}"],
                f"{c} (power {power(c)}) is my weakest card that beats the attack's {p}: "
                f"it wins {n_attackers} card{'s' if n_attackers > 1 else ''}",
                f"攻撃{p}に勝つ最弱の{c}（戦闘力{power(c)}）で守る：{n_attackers}枚獲得",
            )
        if kind == "tie":
            return self._say(
                legal[f"defend {c}"],
                f"nothing beats the attack's {p}: {c} ties it, nothing moves",
                f"攻撃{p}に勝てる札がない：{c}で引き分け（何も動かない）",
            )
        if kind == "fool":
            return self._say(
                legal[f"defend {FOOL}"],
                f"show the Fool: both fields go to points ({f_me} for me, {f_them} for the "
                "attacker), better than the other answers",
                f"愚者で守る：両者の場が得点へ（自分{f_me}枚、相手{f_them}枚）",
            )
        return self._say(
            legal[f"defend {c}"],
            f"nothing holds against {p}: give up my weakest card {c} and keep the strong ones",
            f"攻撃{p}に耐えられる札がない：最弱の{c}を渡し強い札を残す",
        )
