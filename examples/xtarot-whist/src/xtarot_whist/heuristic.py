"""A casual-good whist player (the ``heuristic`` bot at a whist table).

It reads only the seat's view and the legal moves, and plays the old table maxims:

1. **Count the cards**: the unseen cards are the 52 minus my hand and every card
   played this hand.  A card is *top* when no unseen card of its suit is higher.
   A later opponent *can beat* the trick when an unseen card of the led suit would,
   or, once that opponent has shown a void in the led suit, an unseen trump would.
2. **Partner winning**: when no later opponent can beat my partner's card (or I am
   last), play low; third in hand behind a beatable partner, take over with a top
   card if I have one ("third hand high"), else play low.
3. **Opponent winning**: last to play, win with my cheapest winning card; second or
   third, win with my cheapest card the later opponent cannot beat; second in hand
   with nothing safe, play low ("second hand low") unless I can trump in; third in
   hand, play my cheapest winner anyway to make the last player pay.
4. **Throwing away**: the lowest card of my shortest plain suit, keeping trumps and
   top cards.
5. **Leading**: cash a top card in a plain suit no opponent is known to trump; with
   as many trumps as all the unseen ones together, draw trumps (a top trump, else my
   lowest); lead a suit my partner is void in while they may still trump; return the
   suit my partner led; otherwise lead the lowest card of my longest plain suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xtarot.agents.base import Decision
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import SUIT_NAMES, Card, card
from xtarot.engine import Action

from xtarot_whist.game import DECK, strength, trick_winner

__all__ = ["WhistHeuristic"]


def _suit_words(suit: str) -> tuple[str, str]:
    ja, en = SUIT_NAMES[suit]
    return en, ja


class _Table:
    """What one decision knows: the trick so far, the unseen cards, who plays after me."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.seat: int = view["seat"]
        self.partner = (self.seat + 2) % 4
        self.trump: str = view["trump"]
        self.voids: list[list[str]] = view["voids"]
        self.hand = [card(c) for c in view["hand"]]
        self.plays = [(s, card(c)) for s, c in view["trick"]["cards"]]
        seen = set(self.hand) | {c for _, c in self.plays}
        for t in view["tricks"]:
            seen.update(card(c) for _, c in t["cards"])
        self.unseen = [c for c in DECK if c not in seen]
        self.tricks: list[dict[str, Any]] = view["tricks"]
        start = self.plays[0][0] if self.plays else self.seat
        self.after = [(start + k) % 4 for k in range(len(self.plays) + 1, 4)]
        self.opponents_after = [s for s in self.after if s != self.partner]

    def cost(self, c: Card) -> tuple[bool, int]:
        """What playing ``c`` gives up: a plain card before a trump, then by rank."""
        return (c.suit == self.trump, strength(c))

    def top(self, c: Card) -> bool:
        """No unseen card of ``c``'s suit is higher."""
        return not any(u.suit == c.suit and strength(u) > strength(c) for u in self.unseen)

    def wins_now(self, c: Card) -> bool:
        return trick_winner([*self.plays, (self.seat, c)], self.trump) == self.seat

    def beatable(self, plays: Sequence[tuple[int, Card]]) -> bool:
        """Whether a later opponent may still take the trick from its current winner."""
        if not self.opponents_after or not plays:
            return bool(self.opponents_after)
        led = plays[0][1].suit
        winner = trick_winner(list(plays), self.trump)
        for s in self.opponents_after:
            for u in self.unseen:
                if u.suit == led and led in self.voids[s]:
                    continue
                if u.suit != led and (
                    u.suit != self.trump or led not in self.voids[s] or self.trump in self.voids[s]
                ):
                    continue  # a trump counts once the seat has shown a void in the led suit
                if trick_winner([*plays, (s, u)], self.trump) != winner:
                    return True
        return False

    def safe_with(self, c: Card) -> bool:
        """I win the trick with ``c`` and no later opponent can take it back."""
        plays = [*self.plays, (self.seat, c)]
        return self.wins_now(c) and not self.beatable(plays)

    def known_trumpers(self, suit: str) -> bool:
        """Some opponent has shown a void in ``suit`` and may still hold trumps."""
        if not any(u.suit == self.trump for u in self.unseen):
            return False
        return any(suit in self.voids[s] for s in ((self.seat + 1) % 4, (self.seat + 3) % 4))


class WhistHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    def act(self, decision: Decision) -> Action:
        table = _Table(decision.view)
        legal = {card(a.text.split(" ", 1)[1]): a for a in decision.legal}
        if not table.plays:
            return self._lead(table, legal)
        return self._follow(table, legal)

    # -- following ------------------------------------------------------------------------
    def _follow(self, t: _Table, legal: dict[Card, Action]) -> Action:
        cards = list(legal)
        winner = trick_winner(t.plays, t.trump)
        winners = [c for c in cards if t.wins_now(c)]
        cost = t.cost
        cheapest = min(winners, key=cost) if winners else None
        if winner == t.partner:
            if not t.beatable(t.plays):
                return self._low(
                    t,
                    legal,
                    "my partner has this trick: play low",
                    "パートナーがこのトリックを取る：低い札を出す",
                )
            tops = [c for c in winners if t.safe_with(c)]
            if tops:
                pick = min(tops, key=cost)
                return self._say(
                    legal[pick],
                    f"third hand high: {pick} takes over from my partner for sure",
                    f"3番手はハイ：{pick}でパートナーから確実に引き継ぐ",
                )
            return self._low(
                t,
                legal,
                "my partner leads the trick: play low",
                "パートナーが勝っている：低い札を出す",
            )
        if cheapest is None:
            return self._low(
                t,
                legal,
                "I cannot win this trick: play low",
                "このトリックは取れない：低い札を出す",
            )
        if not t.after:
            return self._say(
                legal[cheapest],
                f"last to play: win with my cheapest winning card {cheapest}",
                f"最後の手番：勝てるいちばん安い札{cheapest}で取る",
            )
        safe = [c for c in winners if t.safe_with(c)]
        if safe:
            pick = min(safe, key=cost)
            return self._say(
                legal[pick],
                f"{pick} wins and no later opponent can beat it",
                f"{pick}で勝ち、後の相手には負けない",
            )
        if len(t.plays) == 1:
            led = t.plays[0][1].suit
            if cheapest.suit == t.trump and led != t.trump:
                return self._say(
                    legal[cheapest],
                    f"void in the led suit: trump in with {cheapest}",
                    f"台札のスートがない：{cheapest}で切る",
                )
            return self._low(t, legal, "second hand low", "2番手はロー：低い札を出す")
        return self._say(
            legal[cheapest],
            f"third hand high: {cheapest} makes the last player pay for the trick",
            f"3番手はハイ：{cheapest}を出して最後の人に高い札を使わせる",
        )

    def _low(self, t: _Table, legal: dict[Card, Action], en: str, ja: str) -> Action:
        """The cheapest card that does not win: the lowest of the led suit, or a throw
        from my shortest plain suit (trumps and top cards kept)."""
        cards = list(legal)
        losing = [c for c in cards if not t.plays or not t.wins_now(c)] or cards
        if t.plays and all(c.suit == t.plays[0][1].suit for c in cards):
            pick = min(losing, key=strength)
            return self._say(legal[pick], f"{en} ({pick})", f"{ja}（{pick}）")
        length = {s: sum(1 for c in t.hand if c.suit == s) for s in "cdsw"}

        def throw(c: Card) -> tuple[bool, bool, int, int]:
            return (c.suit == t.trump, t.top(c), length[c.suit or ""], strength(c))

        pick = min(losing, key=throw)
        return self._say(legal[pick], f"{en} ({pick})", f"{ja}（{pick}）")

    # -- leading --------------------------------------------------------------------------
    def _lead(self, t: _Table, legal: dict[Card, Action]) -> Action:
        cards = list(legal)
        plain = [c for c in cards if c.suit != t.trump]
        trumps = [c for c in cards if c.suit == t.trump]
        tops = [c for c in plain if t.top(c) and not t.known_trumpers(c.suit or "")]
        if tops:
            pick = max(tops, key=strength)
            return self._say(
                legal[pick],
                f"cash {pick}: no unseen card beats it and nobody is known to trump it",
                f"{pick}を打ち出す：これより高い未公開の札はなく、切られる心配もない",
            )
        unseen_trumps = sum(1 for u in t.unseen if u.suit == t.trump)
        if trumps and unseen_trumps and len(trumps) >= unseen_trumps:
            top_trumps = [c for c in trumps if t.top(c)]
            pick = max(top_trumps, key=strength) if top_trumps else min(trumps, key=strength)
            en, ja = _suit_words(t.trump)
            return self._say(
                legal[pick],
                f"draw trumps: I hold {len(trumps)} of the {len(trumps) + unseen_trumps} "
                f"{en} still out ({pick})",
                f"切り札を抜く：残る{ja}{len(trumps) + unseen_trumps}枚のうち{len(trumps)}枚を"
                f"持っている（{pick}）",
            )
        partner_void = [
            c
            for c in plain
            if c.suit in t.voids[t.partner]
            and t.trump not in t.voids[t.partner]
            and not t.known_trumpers(c.suit or "")
        ]
        if partner_void:
            pick = min(partner_void, key=strength)
            en, ja = _suit_words(pick.suit or "")
            return self._say(
                legal[pick],
                f"my partner is out of {en} and may trump it: lead {pick}",
                f"パートナーは{ja}がなく切れる：{pick}を打ち出す",
            )
        for trick in t.tricks:
            if trick["leader"] != t.partner:
                continue
            suit = card(trick["cards"][0][1]).suit
            mine = [c for c in plain if c.suit == suit]
            if mine:
                pick = (
                    max(mine, key=strength)
                    if t.top(max(mine, key=strength))
                    else min(mine, key=strength)
                )
                return self._say(
                    legal[pick],
                    f"return the suit my partner led ({pick})",
                    f"パートナーが打ち出したスートを返す（{pick}）",
                )
        pool = plain or cards
        length = {s: sum(1 for c in pool if c.suit == s) for s in "cdsw"}
        pick = min(pool, key=lambda c: (-length[c.suit or ""], strength(c)))
        return self._say(
            legal[pick],
            f"lead the lowest card of my longest suit ({pick})",
            f"いちばん長いスートの最も低い札を打ち出す（{pick}）",
        )
