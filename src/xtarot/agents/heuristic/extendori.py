"""A casual-good player of エクステンドリ (Extendori), the point-taking trick game.

Points: every minor outside 2-10 is a picture card (絵札, 15 points); ``T0`` and ``T1``
are worth 30. The strategy reads only the seat's view and the legal moves:

1. **Count the unseen cards**: the deck minus my hand, this hand's finished tricks and
   the cards on the table. A card's *threats* are the unseen cards that would beat it if
   a later opponent added one to the trick (found with the game's own ``trick_winner``,
   so the wrap-arounds count: the top major loses to ``T1``/``T0`` in the same trick, a
   led suit's ``F`` to its ``N``/``M``). Majors threaten a minor lead only when some
   later opponent has shown a void in the suit or, by the hand sizes and the unseen
   cards, probably holds none of it (``VOID_RISK``).
2. **Partner winning** (``teams``): never overtake a partner; when their card is sure to
   hold, give them a point card, else play low.
3. **Last to play**: win with the card that takes the most points (banking my own point
   card counts; the lowest such winner); a pointless trick is not worth a card — dump.
4. **Following**: win with the cheapest card no unseen card can beat (a point card
   first: it banks itself) whenever the trick holds or will likely draw points (the
   unseen cards' average points times the players still to come); with at least
   ``FIGHT`` points expected and no sure winner, fight with the winner that has the
   fewest threats, a plain card before a point card.
5. **Leading**: lead a sure winner (a point card first: it banks itself and draws the
   others' cards), a major only when no minor is sure; else my lowest plain card from
   my shortest suit (minors before majors), heading for a void to trump into later.
6. **Dumping** (cannot or need not win): the cheapest card — a plain minor before a
   major, never a point card while a plain card is legal, never a card that would win
   when I mean to duck; forced to give points, the weakest point card.
"""

from __future__ import annotations

from typing import Any

from xtarot.agents.base import Decision
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import Card, card
from xtarot.engine import Action
from xtarot.games.extendori.rules import MINOR_ORDER, deck_cards, points, trick_winner

__all__ = ["ExtendoriHeuristic", "card_points"]

_RANK = {r: i for i, r in enumerate(MINOR_ORDER)}
_TOP = {111: 22, 110: 21}
FIGHT = 15
VOID_RISK = 0.5


def card_points(code: str) -> int:
    """A card's points from its code.

    >>> card_points("Kc"), card_points("7c"), card_points("T0"), card_points("T5")
    (15, 0, 30, 0)
    """
    return points(card(code))


def _key(code: str) -> str:
    return "T" if code[0] == "T" and code[1:].isdigit() else code[-1]


def _plain_strength(code: str) -> int:
    """Plain worth of a card for keeping: majors above every minor, by rank."""
    if _key(code) == "T":
        return 100 + int(code[1:])
    return _RANK[code[:-1]]


class ExtendoriHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    # -- reading the view ---------------------------------------------------------------
    def act(self, decision: Decision) -> Action:
        view = decision.view
        legal = {a.text.split(" ", 1)[1]: a for a in decision.legal}
        seat: int = view["seat"]
        n: int = view["players"]
        top = _TOP.get(view["deck"], 23)
        trick = view["trick"]
        plays = [(s, card(c)) for s, c in trick["cards"]]
        seen = set(view["hand"]) | {c for _, c in trick["cards"]}
        for t in view["tricks"]:
            seen.update(c for _, c in t["cards"])
        unseen = [c for c in deck_cards(view["deck"]) if c.code not in seen]
        order: list[int] = view["order"]
        if plays:
            start = order.index(trick["leader"])
            after = [order[(start + k) % n] for k in range(len(plays) + 1, n)]
        else:
            start = order.index(seat)
            after = [order[(start + k) % n] for k in range(1, n)]
        partner: set[int] = set()
        for team in view["teams"] or []:
            if seat in team:
                partner = set(team) - {seat}
        ctx = _Ctx(seat, top, plays, unseen, after, view, partner)
        if not plays:
            return self._lead(ctx, legal)
        return self._follow(ctx, legal)

    # -- following ------------------------------------------------------------------------
    def _follow(self, ctx: _Ctx, legal: dict[str, Action]) -> Action:
        table_pts = sum(points(c) for _, c in ctx.plays)
        current = trick_winner(ctx.plays, ctx.top)
        winners = [c for c in legal if ctx.wins_now(c)]
        if current in ctx.partner:
            safe = not ctx.after or ctx.threats(None) == 0
            gifts = [c for c in legal if card_points(c) and not ctx.wins_now(c)]
            if safe and gifts:
                pick = min(gifts, key=lambda c: (-card_points(c), _plain_strength(c)))
                risk = ctx.risk(pick)
                if risk is None:
                    return self._say(
                        legal[pick],
                        "my partner wins this trick for sure: give them a point card",
                        "パートナーがこのトリックを確実に取る：絵札を渡す",
                    )
                if len(risk) == 2:
                    cards, n = risk
                    return self._say(
                        legal[pick],
                        f"my partner likely wins this trick (unless one of {n} unseen cards "
                        f"comes: {cards}): give them a point card",
                        f"パートナーがおそらくこのトリックを取る（未公開の{n}枚（{cards}）が"
                        "出なければ）：絵札を渡す",
                    )
                en, ja, chance = risk
                return self._say(
                    legal[pick],
                    "my partner likely wins this trick (only a major from a player out of "
                    f"{en} could beat it, about {chance}%): give them a point card",
                    f"パートナーがおそらくこのトリックを取る（勝てるのは{ja}のない人の大アルカナ"
                    f"だけ、約{chance}%）：絵札を渡す",
                )
            return self._dump(
                legal,
                "my partner is winning: do not overtake, play low",
                "パートナーが勝っている：追い越さず低い札を出す",
                avoid_winning=ctx,
            )
        if not ctx.after:
            if winners:
                pick = max(winners, key=lambda c: (card_points(c), -_plain_strength(c)))
                gain = table_pts + card_points(pick)
                if gain > 0:
                    return self._say(
                        legal[pick],
                        f"last to play: take the {gain} points with {pick}",
                        f"最後の手番：{pick}で{gain}点を取る",
                    )
            return self._dump(
                legal,
                "last to play and nothing worth winning: dump my lowest plain card",
                "最後の手番で取る価値がない：一番低い得点なしの札を捨てる",
                avoid_winning=ctx,
            )
        sure = [c for c in winners if ctx.threats(c) == 0]
        expected = table_pts + ctx.density * len(ctx.after)
        if sure:
            pick = min(sure, key=lambda c: (-card_points(c), _plain_strength(c)))
            if expected > 0 or card_points(pick) > 0:
                risk = ctx.risk(pick)
                if risk is None:
                    return self._say(
                        legal[pick],
                        f"{pick} cannot be beaten by any unseen card: win the trick cheaply",
                        f"{pick}は未公開のどの札にも負けない：安くトリックを取る",
                    )
                if len(risk) == 2:
                    cards, n = risk
                    return self._say(
                        legal[pick],
                        f"{pick} likely wins the trick cheaply: only {n} unseen cards could "
                        f"still take it ({cards})",
                        f"{pick}でおそらく安くトリックを取れる：これから覆せる未公開の札は{n}枚"
                        f"（{cards}）",
                    )
                en, ja, chance = risk
                return self._say(
                    legal[pick],
                    f"{pick} cannot be beaten by any unseen card of {en}, only by a major from "
                    f"a later player out of {en} (about {chance}%): it likely wins the trick "
                    "cheaply",
                    f"{pick}は未公開の{ja}には負けない。負けるのは後の人が{ja}を持たず大アルカナを"
                    f"出すときだけ（約{chance}%）：おそらく安くトリックを取れる",
                )
        if expected >= FIGHT and winners:
            pick = min(
                winners,
                key=lambda c: (ctx.threats(c), card_points(c), _plain_strength(c)),
            )
            beaten = ctx.all_threats(pick)
            return self._say(
                legal[pick],
                f"{table_pts} points on the table: fight with {pick} "
                f"({beaten} unseen cards could beat it)",
                f"場に{table_pts}点：{pick}で勝負する（これに勝てる未公開の札は{beaten}枚）",
            )
        return self._dump(
            legal,
            "cannot win this trick cheaply: dump my lowest plain card",
            "このトリックは安く取れない：一番低い得点なしの札を捨てる",
            avoid_winning=ctx,
        )

    # -- leading --------------------------------------------------------------------------
    def _lead(self, ctx: _Ctx, legal: dict[str, Action]) -> Action:
        sure = [c for c in legal if ctx.threats(c) == 0]
        minors = [c for c in sure if _key(c) != "T"]
        majors = [c for c in sure if _key(c) == "T"]
        pool = minors or majors
        if pool:
            pick = max(pool, key=lambda c: (card_points(c), -_plain_strength(c)))
            risk = ctx.risk(pick)
            if risk is None:
                return self._say(
                    legal[pick],
                    f"lead {pick}: no unseen card can beat it",
                    f"{pick}を打ち出す：未公開のどの札にも負けない",
                )
            if len(risk) == 2:
                cards, n = risk
                return self._say(
                    legal[pick],
                    f"lead {pick}: it likely wins, only {n} unseen cards could take the trick "
                    f"({cards})",
                    f"{pick}を打ち出す：おそらく勝つ。覆せる未公開の札は{n}枚（{cards}）",
                )
            en, ja, chance = risk
            return self._say(
                legal[pick],
                f"lead {pick}: no unseen card of {en} can beat it, only a major from a player "
                f"out of {en} (about {chance}%), so it likely wins",
                f"{pick}を打ち出す：未公開の{ja}には負けない。負けるのは{ja}を持たない人が"
                f"大アルカナを出すときだけ（約{chance}%）なので、おそらく勝つ",
            )
        plain = [c for c in legal if not card_points(c)]
        if plain:
            length = {k: sum(1 for c in legal if _key(c) == k) for k in map(_key, legal)}
            pick = min(
                plain,
                key=lambda c: (_key(c) == "T", length[_key(c)], _plain_strength(c)),
            )
            return self._say(
                legal[pick],
                f"no sure winner: lead my lowest plain card {pick}",
                f"確実に勝てる札がない：一番低い得点なしの札{pick}を打ち出す",
            )
        pick = min(legal, key=lambda c: (ctx.threats(c), card_points(c)))
        return self._say(
            legal[pick],
            f"only point cards left: lead {pick}, the hardest to beat",
            f"絵札しか残っていない：一番負けにくい{pick}を打ち出す",
        )

    # -- dumping --------------------------------------------------------------------------
    def _dump(self, legal: dict[str, Action], en: str, ja: str, avoid_winning: _Ctx) -> Action:
        def cost(c: str) -> tuple[int, int, int]:
            return (card_points(c), avoid_winning.wins_now(c), _plain_strength(c))

        pick = min(legal, key=cost)
        return self._say(legal[pick], f"{en} ({pick})", f"{ja}（{pick}）")


class _Ctx:
    """What one decision knows: the trick so far, the unseen cards, who plays after me."""

    def __init__(
        self,
        seat: int,
        top: int,
        plays: list[tuple[int, Card]],
        unseen: list[Card],
        after: list[int],
        view: dict[str, Any],
        partner: set[int],
    ) -> None:
        self.seat = seat
        self.top = top
        self.plays = plays
        self.after = after
        self.partner = partner
        voids: list[list[str]] = view["voids"]
        self.opp_after = [s for s in after if s not in partner]
        self.unseen = unseen
        self.density = sum(points(c) for c in unseen) / len(unseen) if unseen else 0.0
        self._wins: dict[str, bool] = {}
        self._void: dict[str, float] = {}
        self.voids = voids
        self.hand_sizes: list[int] = view["hand_sizes"]
        self._threats: dict[str | None, int] = {}

    def void_chance(self, suit: str) -> float:
        """The chance that some later opponent holds no card of ``suit``."""
        if suit in self._void:
            return self._void[suit]
        total = len(self.unseen)
        other = total - sum(1 for u in self.unseen if u.suit == suit)
        keep = 1.0
        for s in self.opp_after:
            if suit in self.voids[s]:
                keep = 0.0
                break
            p = 1.0
            for i in range(self.hand_sizes[s]):
                p *= max(other - i, 0) / max(total - i, 1)
            keep *= 1.0 - p
        self._void[suit] = 1.0 - keep
        return self._void[suit]

    def wins_now(self, code: str) -> bool:
        if code not in self._wins:
            self._wins[code] = trick_winner([*self.plays, (self.seat, card(code))], self.top) == (
                self.seat
            )
        return self._wins[code]

    def beaters(self, code: str | None) -> list[Card]:
        """Every unseen card that, added by a later opponent, would take the trick from
        its winner after I play ``code`` — majors included (any later player may be out
        of the led suit) and wrap-arounds included (an ``F`` can hand the trick to a led
        ``N``/``M``): what an explanation may state as a fact."""
        plays = list(self.plays)
        if code is not None:
            plays.append((self.seat, card(code)))
        if not self.opp_after:
            return []
        winner = trick_winner(plays, self.top)
        return [u for u in self.unseen if trick_winner([*plays, (-1, u)], self.top) != winner]

    def all_threats(self, code: str | None) -> int:
        """How many unseen cards could take the trick (see :meth:`beaters`)."""
        return len(self.beaters(code))

    def risk(self, code: str | None) -> tuple[str, str, int] | tuple[str, int] | None:
        """How the trick could still be lost after ``code``, for an explanation:
        ``None`` when no unseen card can take it; ``(suit_en, suit_ja, chance%)`` when
        only a major can, from a later player out of the led suit; else
        ``(cards, count)``: the unseen cards that could (the heuristic counted the
        trick as safe, so the explanation must say "probably")."""
        beaters = self.beaters(code)
        if not beaters:
            return None
        plays = [*self.plays, (self.seat, card(code))] if code is not None else self.plays
        led = plays[0][1].suit
        if led is not None and all(u.suit is None for u in beaters):
            en = {"c": "cups", "d": "coins", "s": "swords", "w": "trees"}[led]
            ja = {"c": "聖杯", "d": "金貨", "s": "魔剣", "w": "聖樹"}[led]
            return en, ja, round(100 * self.void_chance(led))
        shown = " ".join(u.code for u in beaters[:4]) + (" …" if len(beaters) > 4 else "")
        return shown, len(beaters)

    def threats(self, code: str | None) -> int:
        """Unseen cards that would beat the trick's winner after I play ``code``."""
        if code in self._threats:
            return self._threats[code]
        plays = list(self.plays)
        if code is not None:
            plays.append((self.seat, card(code)))
        led = "T" if plays[0][1].suit is None else plays[0][1].suit
        majors_count = led == "T" or self.void_chance(led) >= VOID_RISK
        count = 0
        if self.opp_after:
            for u in self.unseen:
                k = "T" if u.suit is None else u.suit
                if k != led and not (k == "T" and majors_count):
                    continue
                if trick_winner([*plays, (-1, u)], self.top) == -1:
                    count += 1
        self._threats[code] = count
        return count
