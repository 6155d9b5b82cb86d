"""An Extendori match in progress: tricks, batches, scores, views and worlds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import chain
from typing import Any

from xtarot.cards import XTAROT, Card
from xtarot.engine import Action, DealError, Scores, State
from xtarot.engine.core import competition_ranks
from xtarot.engine.identity import remove_same
from xtarot.engine.rand import copy_rng, exact, shuffle
from xtarot.games.extendori.rules import (
    _CARD_OF,
    _KEY,
    _MINOR,
    _PLAY,
    _POINTS,
    MAJORS,
    MINOR_ORDER,
    _index,
    _suit_name,
    suit_key,
)
from xtarot.games.extendori.sampling import deal_respecting_voids
from xtarot.games.extendori.setup import Extendori
from xtarot.games.tricks import Trick, VoidTracker

# -- per-card tables keyed by the (interned) card, for the hot paths -------------------
#: Points of every card.
_WORTH: dict[Card, int] = {c: _POINTS[c.index] for c in XTAROT}
#: The suit a card follows as (``"T"`` for the majors).
_SUIT: dict[Card, str] = {c: _KEY[c.index] for c in XTAROT}
#: ``play <card>`` of every card.
_PLAY_OF: dict[Card, Action] = {c: _PLAY[c.index] for c in XTAROT}
#: A minor's place in the led suit's order (see ``rules.MINOR_ORDER``), -1 for a major.
_RANK: dict[Card, int] = {c: _MINOR[c.index] for c in XTAROT}
_F, _N, _M = MINOR_ORDER.index("F"), MINOR_ORDER.index("N"), MINOR_ORDER.index("M")
_BY_CODE: dict[str, Card] = {c.code: c for c in XTAROT}


def _trick_winner(plays: list[tuple[int, Card]], top_major: int) -> int:
    """:func:`rules.trick_winner` in one pass (the tests hold the two to the same
    answers): any major beats any minor, else the led suit's highest; then the two
    wrap-arounds: the deck's top major falls below T1 and T0, the led suit's F below
    its N and M, when they meet."""
    led = plays[0][1].suit
    winner = -1
    best = -1
    for s, c in plays:
        number = c.number
        if number is not None:
            k = 1000 + number
        elif c.suit == led:
            k = _RANK[c]
        else:
            continue
        if k > best:
            best, winner = k, s
    if best >= 1000:
        low = {c.number: s for s, c in plays if c.number is not None and c.number <= 1}
        if low and any(c.number == top_major for _, c in plays):  # ... < top < T1 < T0
            return low[0] if 0 in low else low[1]
        return winner
    if best == _F:  # ... < A < F < N < M
        low = {_RANK[c]: s for s, c in plays if c.suit == led and _RANK[c] <= _N}
        if low:
            return low[_M] if _M in low else low[_N]
    return winner


class ExtendoriState(State):
    """A match of Extendori in progress."""

    game: Extendori
    #: the views' ``scores`` and what they were made from (:meth:`_scores_dict`);
    #: shared with copies, never changed once made
    _scores_memo: tuple[tuple[Any, ...], dict[str, Any]] | None = None
    #: what every view shares until the next trick ends (:meth:`_view_trick`), and
    #: what it was made from; shared with copies, never changed once made
    _trick_memo: tuple[Any, ...] | None = None
    #: the views' ``voids`` and the list of void sets they were made from
    #: (:meth:`_voids_json`); dropped when a void is shown
    _voids_memo: tuple[Any, ...] | None = None

    # -- match and hand set-up ---------------------------------------------------------
    def _new_match(self) -> None:
        n = self.players
        self.match_points: list[int] = [0] * n
        self.hand_results: list[list[int]] = []
        self.phase = "play"

    def _next_deal(self) -> dict[str, Any]:
        """The next hand: #1 as option ``between_hands`` says (or the seating is redrawn)."""
        g = self.game
        nxt = g.next_first(self.first)
        if self._preset:
            deal = g.validate_deal(self._preset.pop(0))
            if nxt is not None and deal["first"] != nxt:
                raise DealError(f"hand {len(self.deals) + 1} must have seat {nxt} as player #1")
            return deal
        return g.shuffled_deal(self._rng, nxt)

    def _setup(self, deal: dict[str, Any]) -> None:
        g, n = self.game, self.players
        self.first: int = deal["first"]
        self.order: list[int] = list(deal.get("order") or g.clockwise(self.first))
        self._n = n
        self.pos: list[int] = [0] * n
        for i, s in enumerate(self.order):
            self.pos[s] = i
        get = _BY_CODE.__getitem__
        self.received: list[list[list[Card]]] = [[list(map(get, h)) for h in deal["hands"]]]
        self.hands: list[list[Card]] = [sorted(h, key=_index) for h in self.received[0]]
        self.stock: list[Card] = list(map(get, deal["stock"]))
        self.top = 0
        self.batch = 0
        self.dealers: list[int] = [self.first]
        self.batch_start = 0
        self.tricks: list[tuple[int, list[tuple[int, Card]], int]] = []
        #: the JSON of ``tricks``, built when a view asks (:meth:`_tricks_json`)
        self._tricks_built: list[dict[str, Any]] = []
        self.trick = Trick(self.first)
        self.taken: list[list[Card]] = [[] for _ in range(n)]
        self.points: list[int] = [0] * n
        self.voids = VoidTracker(n + 1)  # slot n is the stock (never void)
        self.current_player = self.first
        self.phase = "play"

    # -- play --------------------------------------------------------------------------
    #: the seat to act, kept as a plain attribute (``None`` when the match is over)
    current_player: int | None = None  # type: ignore[assignment]
    #: set once, when the match ends
    is_terminal: bool = False  # type: ignore[assignment]

    def _legal_actions(self) -> list[Action]:
        hand = self.hands[self.current_player]  # type: ignore[index]
        trick = self.trick
        if trick.plays:
            # follow the led suit; failing that play a major; failing both, anything
            led = trick.led
            follow = [_PLAY_OF[c] for c in hand if _SUIT[c] == led]
            if follow:
                return follow
            follow = [_PLAY_OF[c] for c in hand if c.suit is None]
            if follow:
                return follow
        return list(map(_PLAY_OF.__getitem__, hand))

    def _apply(self, action: Action) -> None:
        self._play(self.current_player, _CARD_OF[action.id])  # type: ignore[arg-type]

    def random_playout(self, rng: random.Random, *, hand_only: bool = False) -> int:
        """:meth:`State.random_playout`, the same moves, drawn among the playable
        cards directly (every move of Extendori is a card)."""
        if not exact(rng):
            return super().random_playout(rng, hand_only=hand_only)
        limit = len(self.deals) + 1 if hand_only else 1 << 62
        getrandbits = rng.getrandbits
        append = self.history.append
        done = 0
        self._legal = None
        while self.current_player is not None and len(self.deals) < limit:
            seat = self.current_player
            hand = self.hands[seat]
            options = hand
            if self.trick.plays:  # as _legal_actions: follow, else a major, else anything
                led = self.trick.led
                options = (
                    [c for c in hand if _SUIT[c] == led]
                    or [c for c in hand if c.suit is None]
                    or hand
                )
            n = len(options)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            c = options[r]
            self._play(seat, c)
            append(_PLAY_OF[c])
            done += 1
        return done

    def _play(self, seat: int, c: Card) -> None:
        remove_same(self.hands[seat], c)
        trick = self.trick
        plays = trick.plays
        if plays:
            led = trick.led
            if _SUIT[c] != led:
                void = self.voids.voids[seat]
                void.add(led)
                if c.suit is not None:
                    void.add(MAJORS)
                self._voids_memo = None  # a void shown: the views' voids are made again
        else:
            trick.led = _SUIT[c]
        plays.append((seat, c))
        if len(plays) < self._n:
            self.current_player = self.order[(self.pos[seat] + 1) % self._n]
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        trick = self.trick
        plays = trick.plays
        winner = _trick_winner(plays, self.game.top_major)
        self.tricks.append((trick.leader, plays, winner))
        won = [c for _, c in plays]
        self.taken[winner].extend(won)
        self.points[winner] += sum(map(_WORTH.__getitem__, won))
        self.trick = Trick(winner)
        self.current_player = winner
        if self.hands[winner]:
            return
        if self.top < len(self.stock):
            self._deal_batch(winner)
            return
        self._end_hand()

    def _deal_batch(self, dealer: int) -> None:
        """The last trick's winner deals the next batch, left of the dealer first."""
        n = self.players
        self.batch += 1
        k = self.game.schedule[self.batch]
        start = self.pos[dealer] + 1
        order = self.order
        got: list[list[Card]] = [[] for _ in range(n)]
        stock, top = self.stock, self.top
        for j in range(n * k):
            got[order[(start + j) % n]].append(stock[top + j])
        self.top = top + n * k
        self.received.append(got)
        self.hands = [sorted(h, key=_index) for h in got]
        self.dealers.append(dealer)
        self.batch_start = len(self.tricks)
        self.voids = VoidTracker(n + 1)

    def _end_hand(self) -> None:
        result = list(self.points)
        self.hand_results.append(result)
        for s, p in enumerate(result):
            self.match_points[s] += p
        g = self.game
        done = g.hands_limit is not None and len(self.hand_results) >= g.hands_limit
        if g.target is not None and max(self._totals(self.match_points)) >= g.target:
            done = True
        if done:
            self.phase, self.current_player = "over", None
            self.is_terminal = True
            return
        self._begin_hand(self._next_deal())

    def _why_illegal(self, action: Action) -> str:
        c = _CARD_OF[action.id]
        hand = self.hands[self.current_player]  # type: ignore[index]
        if c not in hand:
            return f"you do not hold {c}"
        led = self.trick.led
        if any(_KEY[h.index] == led for h in hand):
            return f"you must follow the led suit ({_suit_name(led)}) while you hold it"
        return "you cannot follow, so you must play a major while you hold one"

    # -- scoring ----------------------------------------------------------------------
    def _totals(self, individual: Sequence[int]) -> list[int]:
        g = self.game
        if not g.teams:
            return list(individual)
        team = [sum(individual[s] for s in t) for t in g.teams]
        return [team[g.team_of[s]] for s in range(self.players)]

    def _standings(self) -> tuple[list[float], tuple[int, ...], dict[str, Any]]:
        """:meth:`scores`' totals, ranks and detail."""
        g, n = self.game, self.players
        playing = self.phase == "play"
        individual = [self.match_points[s] + (self.points[s] if playing else 0) for s in range(n)]
        totals = self._totals(individual)
        team_totals = (
            [sum(individual[s] for s in t) for t in g.teams] if g.teams is not None else None
        )
        if team_totals is None:
            ranks = competition_ranks(totals)
        else:  # the place of the seat's team among the teams
            team_ranks = competition_ranks(team_totals)
            ranks = tuple(team_ranks[g.team_of[s]] for s in range(n))
        detail = {
            "individual": individual,
            "hand_points": list(self.points),
            "hands": [list(r) for r in self.hand_results],
            "team_totals": team_totals,
        }
        return [float(t) for t in totals], ranks, detail

    def scores(self) -> Scores:
        totals, ranks, detail = self._standings()
        return Scores(
            totals=tuple(totals),
            ranks=ranks,
            final=self.phase == "over",
            teams=self.game.teams,
            detail=detail,
        )

    def _scores_dict(self) -> dict[str, Any]:
        """``scores().to_dict()``, made directly (without the ``Scores``), and again
        only when the points, the hands played or the phase have changed (once a
        trick, not at every card: a view is built at every decision of every
        play-out)."""
        key = (self.phase, len(self.hand_results), tuple(self.points), tuple(self.match_points))
        memo = self._scores_memo
        if memo is None or memo[0] != key:
            totals, ranks, detail = self._standings()
            teams = self.game.teams
            memo = self._scores_memo = (
                key,
                {
                    "totals": totals,
                    "ranks": list(ranks),
                    "winners": [s for s, r in enumerate(ranks) if r == 1],
                    "final": self.phase == "over",
                    "teams": [list(t) for t in teams] if teams is not None else None,
                    "detail": detail,
                },
            )
        return memo[1]

    # -- views --------------------------------------------------------------------------
    def _tricks_json(self) -> list[dict[str, Any]]:
        """The finished tricks of the hand as JSON (leader, cards, winner), each built
        once: a finished trick never changes, so clones share the dicts and views
        (and the tensor encoders) meet the same objects again."""
        built = self._tricks_built
        for lead, plays, w in self.tricks[len(built) :]:
            built.append({"leader": lead, "cards": [[s, c.code] for s, c in plays], "winner": w})
        return built

    def _view_trick(self) -> tuple[Any, ...]:
        """The parts of a view that change only when a trick ends (the batch, the
        stock, the tricks, the points, the scores, the phase) or never in a hand,
        made once a trick: (key, teams, hand number, order, batch, batch sizes,
        dealer, stock count, tricks, hand points, scores).  Keyed by the very list of
        tricks (a hand's own; a copy's is another) and its length: a trick ends, a
        batch is dealt and a hand or the match ends only as a trick is added."""
        tricks = self.tricks
        memo = self._trick_memo
        if (
            memo is not None
            and memo[0][0] is tricks
            and memo[0][1] == len(tricks)
            and memo[0][2] == self.phase
        ):
            return memo
        g = self.game
        memo = self._trick_memo = (
            (tricks, len(tricks), self.phase),
            [list(t) for t in g.teams] if g.teams else None,
            len(self.hand_results) + (1 if self.phase == "play" else 0),
            list(self.order),
            self.batch + 1,
            list(g.schedule),
            self.dealers[-1],
            len(self.stock) - self.top,
            list(self._tricks_json()),
            list(self.points),
            self._scores_dict(),
        )
        return memo

    def _voids_json(self) -> list[list[str]]:
        """The views' ``voids``, made again when a void is shown (:meth:`_play` drops
        them) or the sets are others (a new batch's tracker; a copy's own sets)."""
        voids = self.voids.voids
        memo = self._voids_memo
        if memo is None or memo[0] is not voids:
            memo = self._voids_memo = (voids, [sorted(v) for v in voids[: self.players]])
        return memo[1]  # type: ignore[no-any-return]

    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        trick = self.trick
        (_, teams, number, order, batch, sizes, dealer, stock, tricks, points, scores) = (
            self._view_trick()
        )
        view: dict[str, Any] = {
            "game": g.id,
            "players": self.players,
            "seat": seat,
            "phase": self.phase,
            "current_player": self.current_player,
            "deck": g.deck_size,
            "teams": teams,
            "hand_number": number,
            "hands_limit": g.hands_limit,
            "target_score": g.target,
            "first": self.first,
            "order": order,
            "batch": batch,
            "batch_sizes": sizes,
            "dealer": dealer,
            "stock_count": stock,
            "hand_sizes": [len(h) for h in self.hands],
            "trick": {
                "leader": trick.leader,
                "led_suit": trick.led,
                "cards": [[s, c.code] for s, c in trick.plays],
            },
            "tricks": tricks,
            "hand_points": points,
            "voids": self._voids_json(),
            "scores": scores,
        }
        if seat is not None:
            view["hand"] = [c.code for c in self.hands[seat]]
            view["legal_actions"] = (
                [a.text for a in self.legal_actions()] if seat == self.current_player else []
            )
        return view

    def _snapshot(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "order": self.order,
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in self.stock[self.top :]],
            "batch": self.batch,
            "dealers": self.dealers,
            "received": [[[c.code for c in h] for h in b] for b in self.received],
            "tricks": [[lead, [[s, c.code] for s, c in p], w] for lead, p, w in self.tricks],
            "trick": self.trick.to_json(),
            "taken": [[c.code for c in t] for t in self.taken],
            "points": self.points,
            "voids": self.voids.to_json(),
            "match_points": self.match_points,
            "hand_results": self.hand_results,
            "phase": self.phase,
            "to_act": self.current_player,
        }

    def zones(self) -> dict[str, list[str]]:
        z = {f"hand:{s}": [c.code for c in h] for s, h in enumerate(self.hands)}
        z.update({f"won:{s}": [c.code for c in t] for s, t in enumerate(self.taken)})
        z["stock"] = [c.code for c in self.stock[self.top :]]
        z["table"] = [c.code for _, c in self.trick.plays]
        return z

    def check_invariants(self) -> None:
        """Every hand hands out the deck's 840 (780) points; the points taken so far
        match the cards taken; hands, stock and seating follow the schedule."""
        g, n = self.game, self.players
        total = g.total_points
        worth = _WORTH.__getitem__
        taken = [sum(map(worth, t)) for t in self.taken]
        assert taken == self.points, f"points {self.points} do not match the tricks {taken}"
        in_play = sum(map(worth, chain.from_iterable(self.hands)))
        in_play += sum(map(worth, self.stock[self.top :]))
        in_play += sum(worth(c) for _, c in self.trick.plays)
        assert in_play + sum(taken) == total, f"points {in_play}+{taken} != {total}"
        for r in self.hand_results:
            assert sum(r) == total, f"a hand scored {sum(r)} points instead of {total}"
        assert self.match_points == [sum(r[s] for r in self.hand_results) for s in range(n)]
        played = {s for s, _ in self.trick.plays}
        sizes = {len(h) + (s in played) for s, h in enumerate(self.hands)}
        assert len(sizes) == 1, f"hand sizes drifted: {sizes}"
        left = sum(g.schedule[self.batch + 1 :]) * n
        assert len(self.stock) - self.top == left, "the stock does not match the batch schedule"
        if self.phase == "over":
            assert not any(self.hands) and self.top == len(self.stock)
            assert g.hands_limit is None or len(self.hand_results) <= g.hands_limit
        assert sorted(self.order) == list(range(n)) and g.seating_ok(self.order)

    # -- worlds for search and leak tests ---------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> ExtendoriState:
        """A fast independent copy: lists that are never changed in place are shared."""
        return self._copy(copy_rng(self._rng))

    def _copy(self, rng: random.Random) -> ExtendoriState:
        """An independent copy whose later shuffles come from ``rng``."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        d["_rng_now"] = rng
        d["_preset"] = list(self._preset)
        d["deals"] = list(self.deals)
        d["history"] = list(self.history)
        d["_legal"] = None
        d["match_points"] = list(self.match_points)
        d["hand_results"] = list(self.hand_results)
        d["received"] = list(self.received)
        d["hands"] = [list(h) for h in self.hands]
        d["dealers"] = list(self.dealers)
        d["tricks"] = list(self.tricks)
        d["_tricks_built"] = list(self._tricks_built)
        trick = Trick(self.trick.leader, list(self.trick.plays), self.trick.led)
        d["trick"] = trick
        d["taken"] = [list(t) for t in self.taken]
        d["points"] = list(self.points)
        voids = VoidTracker(self.players + 1)
        voids.voids = [set(v) for v in self.voids.voids]
        d["voids"] = voids
        new.__dict__.update(d)
        return new

    def sample_world(self, seat: int, rng: random.Random | None = None) -> State:
        """A full state consistent with everything ``seat`` has seen.

        The same worlds as the generic replay of :meth:`_sample_deals`, built faster:
        the finished hands and tricks (played face up) are copied and the resampled
        hidden cards (other hands, the undealt stock) are put in place; the tests check
        that this equals replaying the whole history on the sampled deals.
        """
        self._check_seat(seat)
        rng = rng if rng is not None else random.Random()
        if self.phase == "over":
            return State.sample_world(self, seat, rng)
        deal, received, stock = self._resample(seat, rng)
        seed = rng.getrandbits(48)
        world = self._copy(random.Random(rng.getrandbits(48)))
        world.seed = seed
        world._preset = []
        world.deals[-1] = deal
        world.received = received
        world.stock = stock
        # the current batch's cards are the ones played in it, then the hand
        world.hands = [
            list(h) if s == seat else sorted(received[-1][s][len(received[-1][s]) - len(h) :],
                                             key=_index)
            for s, h in enumerate(self.hands)
        ]  # fmt: skip
        return world

    def _resample(
        self, seat: int, rng: random.Random
    ) -> tuple[dict[str, Any], list[list[list[Card]]], list[Card]]:
        """The current hand's deal with the hidden cards redealt: (deal, each batch's
        cards per seat in dealing order, the whole stock)."""
        n = self.players
        # hidden: the other hands of the current batch and the undealt stock
        hidden: list[Card] = []
        caps = [0] * (n + 1)
        for s in range(n):
            if s != seat:
                hidden.extend(self.hands[s])
                caps[s] = len(self.hands[s])
        undealt = self.stock[self.top :]
        hidden.extend(undealt)
        caps[n] = len(undealt)
        # in a canonical order, so that the worlds depend only on what the seat knows
        hidden.sort(key=_index)
        pools = deal_respecting_voids(hidden, caps, self.voids, suit_key, rng)
        played: list[list[Card]] = [[] for _ in range(n)]
        for _, plays, _w in self.tricks[self.batch_start :]:
            for s, c in plays:
                played[s].append(c)
        for s, c in self.trick.plays:
            played[s].append(c)
        received = list(self.received)
        received[-1] = [
            list(received[-1][s]) if s == seat else played[s] + pools[s] for s in range(n)
        ]
        stock: list[Card] = []
        for b in range(1, len(received)):
            start = self.pos[self.dealers[b]] + 1
            got = received[b]
            for j in range(len(got[0])):
                for r in range(n):
                    stock.append(got[self.order[(start + r) % n]][j])
        rest = pools[n]
        shuffle(rng, rest)
        stock.extend(rest)
        deal: dict[str, Any] = {
            "hands": [[c.code for c in h] for h in received[0]],
            "stock": [c.code for c in stock],
            "first": self.first,
        }
        if "order" in self.deals[-1]:
            deal["order"] = list(self.order)
        return deal, received, stock

    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        actions = [a.text for a in self.history]
        if self.phase == "over":
            return [dict(d) for d in self.deals], actions
        deal, _, _ = self._resample(seat, rng)
        return [*(dict(d) for d in self.deals[:-1]), deal], actions
