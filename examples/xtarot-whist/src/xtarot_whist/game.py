"""Plain whist (ホイスト) on the Xtarot deck, id ``whist``: the example plugin's game.

Rules text: ``xtarot_whist/rules/whist.en.md`` / ``whist.ja.md``.  In short:

The cards
    The 52 cards of the four suits with the ranks 2-10, J, Q, K, A (Xtarot codes such
    as ``Kc``, ``10s``, ``Ad``).  The Xtarot-only ranks (M N R E B L W C F) and the
    majors stay in the box.  Within a suit: 2 < 3 < ... < 10 < J < Q < K < A.

Seats and sides
    Four players; seats 0 and 2 play against seats 1 and 3 (side A and side B).

The deal (piles ``hands``, ``dealer``, ``trump``)
    The dealer deals 13 cards each, one at a time, starting with the player on their
    left (the next seat) and ending with themselves.  The dealer's last card is turned
    face up: its suit is trump.  It stays in the dealer's hand, known to everybody,
    until the dealer plays it.  ``deal={...}`` may name the ``trump`` card (it must be
    in the dealer's hand); without it the dealer's last card is the trump card.

Play
    The player left of the dealer leads.  Follow the led suit when able, otherwise
    play any card.  The highest trump wins the trick, else the highest card of the
    led suit; the winner leads the next trick.

Scoring
    After 13 tricks the side with more tricks scores one point for each trick over six
    (the "book").  There is no honours scoring.  The match ends when a side reaches
    ``target`` points (default 5); with the ``hands`` option it lasts exactly that
    many hands instead.  The deal passes to the left (the next seat) every hand.
"""

from __future__ import annotations

import random
from typing import Any

from xtarot.games.blocks import (
    SUITS,
    XTAROT,
    Action,
    ActionSpace,
    Card,
    ConfigError,
    DealError,
    DealReader,
    Game,
    GameInfo,
    Option,
    Scores,
    State,
    Trick,
    VoidTracker,
    card,
    competition_ranks,
    follow_options,
    parse_card,
    resample_hands,
)

__all__ = [
    "ACTIONS",
    "DECK",
    "HAND_SIZE",
    "RANKS",
    "SIDES",
    "Whist",
    "WhistState",
    "strength",
    "trick_winner",
]

#: Ranks within a suit, weakest first (the ace is high).
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: The 52 cards in whist order: suits c d s w, each from 2 up to A.
DECK: tuple[Card, ...] = tuple(card(r + s) for s in SUITS for r in RANKS)
HAND_SIZE = 13
BOOK = 6
#: The two partnerships: side A (seats 0 and 2) and side B (seats 1 and 3).
SIDES: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
_SIDE_OF = (0, 1, 0, 1)

_ORDER: dict[Card, int] = {c: i for i, c in enumerate(DECK)}
_STRENGTH: dict[Card, int] = {c: RANKS.index(c.rank or "") for c in DECK}
_DECK_SET = frozenset(DECK)

# -- the action space: "play <card>" for the 52 cards, id = whist order ---------------------
ACTIONS = ActionSpace([f"play {c}" for c in DECK])
_PLAY: dict[Card, Action] = {c: ACTIONS[i] for i, c in enumerate(DECK)}
_CARD_OF: tuple[Card, ...] = DECK


def strength(c: Card) -> int:
    """A card's rank within its suit, 0 (the 2) .. 12 (the ace).

    >>> strength(card("2c")), strength(card("10d")), strength(card("Aw"))
    (0, 8, 12)
    """
    return _STRENGTH[c]


def _suit(c: Card) -> str:
    return c.suit  # type: ignore[return-value]


def trick_winner(plays: list[tuple[int, Card]], trump: str) -> int:
    """The seat winning ``plays`` (a trick so far, the led card first).

    >>> trick_winner([(0, card("Kc")), (1, card("Ac")), (2, card("2d"))], "s")
    1
    >>> trick_winner([(0, card("Kc")), (1, card("Ac")), (2, card("2s"))], "s")
    2
    """
    led = plays[0][1].suit

    def key(sc: tuple[int, Card]) -> tuple[int, int]:
        c = sc[1]
        return (2 if c.suit == trump else 1 if c.suit == led else 0, _STRENGTH[c])

    return max(plays, key=key)[0]


def _codes(cs: list[Card]) -> list[str]:
    return [c.code for c in cs]


class Whist(Game):
    """Plain whist for four players in two partnerships (0+2 against 1+3)."""

    info = GameInfo(
        id="whist",
        name_ja="ホイスト",
        name_en="Whist",
        min_players=4,
        max_players=4,
        options=(
            Option(
                "target",
                5,
                int,
                "the match ends when a side reaches this many points",
                "どちらかのチームがこの点数に達したら終了",
            ),
            Option(
                "hands",
                None,
                int,
                "play exactly this many hands instead of playing to the target",
                "目標点ではなく、このハンド数だけ遊ぶ",
                nullable=True,
            ),
        ),
        bulk_options=(("hands", 1),),
    )
    actions = ACTIONS
    deck_doc = (
        "deck=[...]: the 52 whist cards once each, top first.  The dealer (from the seed) "
        "deals them one at a time starting with the next seat; the last card, the "
        "dealer's own, is turned up and names trump."
    )
    teams = SIDES

    def _check_options(self) -> None:
        target, hands = self.options["target"], self.options["hands"]
        if target < 1:
            raise ConfigError(f"whist: option target must be at least 1 point, not {target}")
        if hands is not None and hands < 1:
            raise ConfigError(f"whist: option hands must be at least 1, not {hands}")
        self.target: int = target
        self.hands_limit: int | None = hands

    # -- deals ------------------------------------------------------------------------
    def dealt(self, order: list[Card], dealer: int) -> dict[str, Any]:
        """Deal a 52-card order one card at a time from the dealer's left; the last
        card (the dealer's) is the trump card."""
        hands: list[list[str]] = [[] for _ in range(4)]
        for j, c in enumerate(order):
            hands[(dealer + 1 + j) % 4].append(c.code)
        return {"hands": hands, "dealer": dealer, "trump": order[-1].code}

    def shuffled_deal(self, rng: random.Random, dealer: int) -> dict[str, Any]:
        """A fresh shuffle dealt by ``dealer``."""
        order = list(DECK)
        rng.shuffle(order)
        return self.dealt(order, dealer)

    def _random_deal(self, rng: random.Random) -> dict[str, Any]:
        return self.shuffled_deal(rng, rng.randrange(4))

    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]:
        if len(deck) != len(DECK):
            raise DealError(
                f"a whist deck has 52 cards (2-10, J, Q, K, A of each suit), not {len(deck)}"
            )
        order = [parse_card(XTAROT, code, "deck") for code in deck]
        return self.dealt(order, rng.randrange(4))

    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        reader = DealReader(
            self.id,
            deal,
            ["hands", "dealer"],
            XTAROT,
            optional=["trump"],
            hint=" (and optionally trump: a card of the dealer's hand)",
            allowed=_DECK_SET,
            outside="{card} is not a whist card (whist uses 2-10, J, Q, K, A of each suit)",
        )
        hands = reader.hands("hands", 4, HAND_SIZE)
        dealer = reader.seat("dealer", 4)
        if "trump" in deal:
            trump = parse_card(XTAROT, deal["trump"], "trump")
            if trump not in hands[dealer]:
                raise DealError(
                    f"trump: {trump} is not in the dealer's hand (seat {dealer}); the trump "
                    "card is the dealer's turned-up last card"
                )
        else:
            trump = hands[dealer][-1]
        return {"hands": [_codes(h) for h in hands], "dealer": dealer, "trump": trump.code}


class WhistState(State):
    """A whist match in progress."""

    game: Whist

    # -- match and hand set-up ---------------------------------------------------------
    def _new_match(self) -> None:
        self.match_points: list[int] = [0, 0]
        self.hand_results: list[dict[str, Any]] = []
        self.last_trick: tuple[int, list[tuple[int, Card]], int] | None = None
        self.phase = "play"

    def _next_deal(self) -> dict[str, Any]:
        """The next hand: the deal passes to the left (the next seat)."""
        dealer = (self.dealer + 1) % 4
        if self._preset:
            deal = self.game.validate_deal(self._preset.pop(0))
            if deal["dealer"] != dealer:
                raise DealError(f"hand {len(self.deals) + 1} must be dealt by seat {dealer}")
            return deal
        return self.game.shuffled_deal(self._rng, dealer)

    def _setup(self, deal: dict[str, Any]) -> None:
        self.dealer: int = deal["dealer"]
        self.trump_card: Card = card(deal["trump"])
        self.trump: str = self.trump_card.suit  # type: ignore[assignment]
        self.hands: list[list[Card]] = [
            sorted((card(c) for c in h), key=_ORDER.__getitem__) for h in deal["hands"]
        ]
        self.tricks: list[tuple[int, list[tuple[int, Card]], int]] = []
        self.trick = Trick((self.dealer + 1) % 4)
        self.won: list[list[Card]] = [[] for _ in range(4)]
        self.tricks_won: list[int] = [0] * 4
        self.voids = VoidTracker(4)
        self._to_act: int | None = (self.dealer + 1) % 4
        self.phase = "play"

    # -- play --------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self._to_act

    def _legal_actions(self) -> list[Action]:
        hand = self.hands[self._to_act]  # type: ignore[index]
        return [_PLAY[c] for c in follow_options(hand, self.trick.led, _suit)]

    def _apply(self, action: Action) -> None:
        seat: int = self._to_act  # type: ignore[assignment]
        c = _CARD_OF[action.id]
        self.hands[seat].remove(c)
        trick = self.trick
        if trick.plays and c.suit != trick.led:
            self.voids.note(seat, trick.led)
        trick.add(seat, c, _suit)
        if len(trick.plays) < 4:
            self._to_act = (seat + 1) % 4
            return
        winner = trick_winner(trick.plays, self.trump)
        done = (trick.leader, trick.plays, winner)
        self.tricks.append(done)
        self.last_trick = done
        self.won[winner].extend(trick.cards)
        self.tricks_won[winner] += 1
        self.trick = Trick(winner)
        self._to_act = winner
        if len(self.tricks) == HAND_SIZE:
            self._end_hand()

    def _side_tricks(self) -> list[int]:
        return [sum(self.tricks_won[s] for s in side) for side in SIDES]

    def _end_hand(self) -> None:
        taken = self._side_tricks()
        side = 0 if taken[0] > taken[1] else 1
        points = [0, 0]
        points[side] = taken[side] - BOOK
        self.match_points[side] += points[side]
        self.hand_results.append(
            {
                "dealer": self.dealer,
                "trump_card": self.trump_card.code,
                "tricks": taken,
                "points": points,
            }
        )
        g = self.game
        if g.hands_limit is not None:
            done = len(self.hand_results) >= g.hands_limit
        else:
            done = max(self.match_points) >= g.target
        if done:
            self.phase, self._to_act = "over", None
            return
        self._begin_hand(self._next_deal())

    def _why_illegal(self, action: Action) -> str:
        c = _CARD_OF[action.id]
        if c not in self.hands[self._to_act]:  # type: ignore[index]
            return f"you do not hold {c}"
        return f"you must follow the led suit ({self.trick.led}) while you hold it"

    # -- scoring ----------------------------------------------------------------------
    def scores(self) -> Scores:
        side_ranks = competition_ranks(self.match_points)
        return Scores(
            totals=tuple(float(self.match_points[_SIDE_OF[s]]) for s in range(4)),
            ranks=tuple(side_ranks[_SIDE_OF[s]] for s in range(4)),
            final=self.phase == "over",
            teams=SIDES,
            detail={
                "side_points": list(self.match_points),
                "side_tricks": self._side_tricks(),
                "hands": [dict(r) for r in self.hand_results],
            },
        )

    # -- views --------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        trick = self.trick
        last = self.last_trick
        view: dict[str, Any] = {
            "game": g.id,
            "players": 4,
            "seat": seat,
            "phase": self.phase,
            "current_player": self._to_act,
            "teams": [list(t) for t in SIDES],
            "hand_number": len(self.hand_results) + (1 if self.phase == "play" else 0),
            "target": g.target if g.hands_limit is None else None,
            "hands_limit": g.hands_limit,
            "dealer": self.dealer,
            "trump": self.trump,
            "trump_card": self.trump_card.code,
            "trick": {
                "leader": trick.leader,
                "led_suit": trick.led,
                "cards": [[s, c.code] for s, c in trick.plays],
            },
            "tricks": [
                {"leader": lead, "cards": [[s, c.code] for s, c in plays], "winner": w}
                for lead, plays, w in self.tricks
            ],
            "last_trick": (
                {"leader": last[0], "cards": [[s, c.code] for s, c in last[1]], "winner": last[2]}
                if last is not None
                else None
            ),
            "tricks_won": list(self.tricks_won),
            "side_tricks": self._side_tricks(),
            "hand_sizes": [len(h) for h in self.hands],
            "voids": self.voids.to_json(),
            "scores": self.scores().to_dict(),
        }
        if seat is not None:
            view["hand"] = _codes(self.hands[seat])
            view["legal_actions"] = (
                [a.text for a in self.legal_actions()] if seat == self._to_act else []
            )
        return view

    def _snapshot(self) -> dict[str, Any]:
        last = self.last_trick
        return {
            "dealer": self.dealer,
            "trump_card": self.trump_card.code,
            "hands": [_codes(h) for h in self.hands],
            "tricks": [[lead, [[s, c.code] for s, c in p], w] for lead, p, w in self.tricks],
            "trick": self.trick.to_json(),
            "last_trick": None if last is None else [last[0], [[s, c.code] for s, c in last[1]]],
            "won": [_codes(w) for w in self.won],
            "tricks_won": self.tricks_won,
            "voids": self.voids.to_json(),
            "match_points": self.match_points,
            "hand_results": self.hand_results,
            "phase": self.phase,
            "to_act": self._to_act,
        }

    def zones(self) -> dict[str, list[str]]:
        z = {f"hand:{s}": _codes(h) for s, h in enumerate(self.hands)}
        z.update({f"won:{s}": _codes(w) for s, w in enumerate(self.won)})
        z["table"] = [c.code for _, c in self.trick.plays]
        return z

    def check_invariants(self) -> None:
        """Tricks and points add up, hands shrink together, voids and the turned-up
        trump card tell the truth."""
        assert sum(self.tricks_won) == len(self.tricks), "tricks won do not match the tricks"
        assert [len(w) for w in self.won] == [4 * k for k in self.tricks_won]
        played = {s for s, _ in self.trick.plays}
        sizes = {len(h) + (s in played) for s, h in enumerate(self.hands)}
        assert sizes == {HAND_SIZE - len(self.tricks)}, f"hand sizes drifted: {sizes}"
        for r in self.hand_results:
            assert sum(r["tricks"]) == HAND_SIZE and sorted(r["points"])[0] == 0
            assert max(r["points"]) == max(r["tricks"]) - BOOK
        assert self.match_points == [sum(r["points"][i] for r in self.hand_results) for i in (0, 1)]
        on_table = [c for _, c in self.trick.plays]
        in_tricks = any(self.trump_card in w for w in self.won)
        held = self.trump_card in self.hands[self.dealer]
        assert held or in_tricks or self.trump_card in on_table, "the trump card went astray"
        for s, hand in enumerate(self.hands):
            for c in hand:
                assert self.voids.allows(s, c.suit), f"seat {s} holds {c} after showing a void"
        if self.phase == "over":
            g = self.game
            if g.hands_limit is not None:
                assert len(self.hand_results) == g.hands_limit
            else:
                assert max(self.match_points) >= g.target

    # -- worlds for search and leak tests ---------------------------------------------
    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        actions = [a.text for a in self.history]
        earlier = [dict(d) for d in self.deals[:-1]]
        if self.phase == "over":
            return [*earlier, dict(self.deals[-1])], actions
        # the turned-up trump card is known to be the dealer's until it is played
        shown = self.trump_card if self.dealer != seat else None
        if shown is not None and shown not in self.hands[self.dealer]:
            shown = None
        hidden: list[Card] = []
        caps = [0] * 4
        for s in range(4):
            if s != seat:
                mine = [c for c in self.hands[s] if c is not shown]
                hidden.extend(mine)
                caps[s] = len(mine)
        pools = resample_hands(hidden, caps, self.voids, _suit, rng)
        played: list[list[Card]] = [[] for _ in range(4)]
        for _, plays, _w in self.tricks:
            for s, c in plays:
                played[s].append(c)
        for s, c in self.trick.plays:
            played[s].append(c)
        current = self.deals[-1]
        hands: list[list[str]] = []
        for s in range(4):
            if s == seat:
                hands.append(list(current["hands"][s]))
                continue
            extra = [shown] if s == self.dealer and shown is not None else []
            hands.append(_codes(played[s] + pools[s] + extra))
        deal = {"hands": hands, "dealer": self.dealer, "trump": self.trump_card.code}
        return [*earlier, deal], actions


Whist.state_class = WhistState
