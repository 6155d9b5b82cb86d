"""そのアルカナは欲しくない ("I Don't Want That Arcana"), id ``sono-arcana``.

An auction of the 24 major arcana, the 護符 (talismans), with bidding cards.
Rulebook: ``shared/seeds/000``; readings: RULINGS §2; summary: ``docs/rules/sono-arcana.md``.

準備 (set-up)
    Bidding cards: the suit cards without M and F (80) at 5 players; without C W L N
    too (64) at 4; without B E R A too (48) at 3.  16 each.  The talismans T0..T23
    are shuffled face down as the 山札 (stack).  The first 親 (parent) is random.

競売品 (the lot)
    The parent reveals the top talisman, then chooses ``lot 1`` (stop) or ``lot 2``
    (reveal one more) while the stack has cards.  When the parent holds a single
    bidding card the round is final: every remaining talisman joins the lot, with
    no choice.

入札 (the bid)
    The parent plays a card face up (``bid up <card>``: it is the 台札, the led
    card) or face down (``bid down <card>``).  Face up: the others play in
    clockwise order, face up, following the 台札's suit when able.  Face down: the
    others choose without seeing anyone's card, any suit; all are revealed together.

勝者 (the winner)
    Cards of equal strength (K > Q > C > J > W > L > B > E > R > 10 .. 2 > A > N)
    are void, whatever their suit, the parent's card included.  Face up: the
    strongest valid card of the led suit wins; face down: the strongest valid card.
    With no such card the parent wins.  The winner takes the lot and becomes the
    next parent.  The auction ends when the talismans run out.

点数 (scoring)
    Talismans sharing a last digit (3, 13, 23) are turned face down when two or
    more are held: face up +2, face down -1.  Ties go to the higher best face-up
    talisman, then are shared.  Option ``teams`` (4 players): seats 0+2 against 1+3.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

from xtarot.cards import SUITS, XTAROT, Card, card
from xtarot.engine import (
    Action,
    ActionSpace,
    DealError,
    DealReader,
    Game,
    GameInfo,
    Option,
    Scores,
    State,
    deal_uniform,
    parse_card,
    register,
)
from xtarot.engine.core import competition_ranks
from xtarot.engine.identity import remove_same
from xtarot.engine.rand import copy_rng, exact, shuffle

__all__ = ["STRENGTH_ORDER", "SonoArcana", "SonoArcanaState"]

#: The suits by name in messages ("the led suit (cups)"), as the docs promise.
_SUIT_WORDS = {"c": "cups", "d": "coins", "s": "swords", "w": "trees"}

#: Bidding ranks, weakest first (K > Q > C > J > W > L > B > E > R > 10 > .. > 2 > A > N).
STRENGTH_ORDER: tuple[str, ...] = (
    "N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "R", "E", "B", "L", "W", "J", "C", "Q", "K",
)  # fmt: skip
_REMOVED = {5: set(), 4: {"C", "W", "L", "N"}, 3: {"C", "W", "L", "N", "B", "E", "R", "A"}}
HAND_SIZE = 16
TALISMANS: tuple[Card, ...] = tuple(card(f"T{n}") for n in range(24))
_TALISMAN_CODES = [t.code for t in TALISMANS]

#: Every bidding card of the 5-player set, in the fixed order of the action space.
BIDDING_CARDS: tuple[Card, ...] = tuple(card(r + s) for s in SUITS for r in STRENGTH_ORDER)
_STRENGTH = {c: STRENGTH_ORDER.index(c.rank or "") for c in BIDDING_CARDS}


def bidding_set(players: int) -> list[Card]:
    """The bidding cards used at this player count (80, 64 or 48)."""
    removed = _REMOVED[players]
    return [c for c in BIDDING_CARDS if c.rank not in removed]


def strength(c: Card) -> int:
    """Bid strength, 0 (N) .. 19 (K)."""
    return _STRENGTH[c]


# -- the action space: the same 242 ids at every player count --------------------------
_N = len(BIDDING_CARDS)
LOT_ONE, LOT_TWO = 0, 1
_BID_UP, _BID_DOWN, _PLAY = 2, 2 + _N, 2 + 2 * _N
ACTIONS = ActionSpace(
    ["lot 1", "lot 2"]
    + [f"bid up {c}" for c in BIDDING_CARDS]
    + [f"bid down {c}" for c in BIDDING_CARDS]
    + [f"play {c}" for c in BIDDING_CARDS]
)
_POS = {c: i for i, c in enumerate(BIDDING_CARDS)}
_UP = {c: ACTIONS[_BID_UP + i] for c, i in _POS.items()}
_DOWN = {c: ACTIONS[_BID_DOWN + i] for c, i in _POS.items()}
_PLAY_OF = {c: ACTIONS[_PLAY + i] for c, i in _POS.items()}
_CARD_OF = {a.id: BIDDING_CARDS[(a.id - 2) % _N] for a in ACTIONS if a.id >= 2}
#: the same, as a list indexed by action id (``None`` for the two lot actions).
_CARD_BY_ID: list[Card | None] = [_CARD_OF.get(i) for i in range(len(ACTIONS))]
_LOT_CHOICE: list[Action] = [ACTIONS[LOT_ONE], ACTIONS[LOT_TWO]]
#: code -> card, for the cards of this game (deals are validated before they are used).
_BY_CODE: dict[str, Card] = {c.code: c for c in (*BIDDING_CARDS, *TALISMANS)}
_INDEX = attrgetter("index")
#: a talisman's last digit (talismans sharing it are turned face down)
_DIGIT: dict[Card, int] = {t: t.number % 10 for t in TALISMANS}  # type: ignore[operator]
#: a talisman's last digit as one bit, for counting a pile's digits in two ints
_DIGIT_BIT: dict[Card, int] = {t: 1 << d for t, d in _DIGIT.items()}


def _pile_points(held: list[Card]) -> tuple[int, int]:
    """(points, best face-up number or -1) of one pile of 護符 won: +2 a face-up
    talisman (no other in the pile ends in its digit), -1 a face-down one.

    >>> from xtarot.cards import card
    >>> _pile_points([card("T7"), card("T17"), card("T3")])
    (0, 3)
    """
    once = twice = 0
    bit = _DIGIT_BIT.__getitem__
    for b in map(bit, held):
        twice |= once & b
        once |= b
    unique = once & ~twice
    up = 0
    best = -1
    for t in held:
        if bit(t) & unique:
            up += 1
            if t.number > best:  # type: ignore[operator]
                best = t.number  # type: ignore[assignment]
    return 3 * up - len(held), best


@register
class SonoArcana(Game):
    """The auction game for 3-5 players (option ``teams`` at 4)."""

    info = GameInfo(
        id="sono-arcana",
        name_ja="そのアルカナは欲しくない",
        name_en="I Don't Want That Arcana",
        min_players=3,
        max_players=5,
        options=(
            Option(
                "teams",
                False,
                bool,
                "4 players: seats 0+2 against 1+3, team score = sum",
                "4人戦：向かい合った2人(0+2 対 1+3)のチーム戦、得点は合計",
                players=(4,),
            ),
        ),
    )
    actions = ACTIONS
    deck_doc = (
        "deck=[...]: this player count's bidding cards and the 24 talismans, each once, "
        "in any interleaving; the bidding cards in the order they appear are dealt one at a "
        "time clockwise from seat 0, the talismans in the order they appear form the stack "
        "(top first).  The first parent comes from the seed."
    )

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        self.bidding_cards = bidding_set(players)
        self._bidding = set(self.bidding_cards)
        self._codes = [c.code for c in self.bidding_cards]

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        return ((0, 2), (1, 3)) if self.options["teams"] else None

    def _random_deal(self, rng: random.Random) -> dict[str, Any]:
        codes = list(self._codes)
        shuffle(rng, codes)
        talismans = list(_TALISMAN_CODES)
        shuffle(rng, talismans)
        n = self.players
        return {
            "hands": [codes[s::n] for s in range(n)],
            "talismans": talismans,
            "parent": rng.randrange(n),
        }

    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]:
        n = self.players
        parsed = [parse_card(XTAROT, code, "deck") for code in deck]
        expected = len(self.bidding_cards) + len(TALISMANS)
        if len(parsed) != expected:
            raise DealError(
                f"a {n}-player deck has {expected} cards "
                f"({len(self.bidding_cards)} bidding cards + 24 talismans), not {len(parsed)}"
            )
        bidding = [c for c in parsed if not c.is_major]
        talismans = [c for c in parsed if c.is_major]
        return {
            "hands": [[c.code for c in bidding[s::n]] for s in range(n)],
            "talismans": [t.code for t in talismans],
            "parent": rng.randrange(n),
        }

    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        n = self.players
        reader = DealReader(self.id, deal, ["hands", "talismans", "parent"], XTAROT)
        hands = reader.hands("hands", n, HAND_SIZE)
        for s, hand in enumerate(hands):
            for c in hand:
                if c not in self._bidding:
                    raise DealError(
                        f"{c} in the hand of seat {s} is not a bidding card at {n} players"
                    )
        talismans = deal["talismans"]
        if not isinstance(talismans, list) or len(talismans) != len(TALISMANS):
            raise DealError("talismans must list all 24 majors T0..T23, top first")
        ts = reader.cards(talismans, "talismans")
        if any(not t.is_major for t in ts):
            raise DealError("talismans must be the majors T0..T23")
        return {
            "hands": [[c.code for c in h] for h in hands],
            "talismans": [t.code for t in ts],
            "parent": reader.seat("parent", n),
        }


class SonoArcanaState(State):
    """A match of そのアルカナは欲しくない in progress."""

    game: SonoArcana

    def _new_match(self) -> None:
        self._n = self.players

    def _setup(self, deal: dict[str, Any]) -> None:
        n = self.players
        get = _BY_CODE.__getitem__
        self.hands: list[list[Card]] = [list(map(get, h)) for h in deal["hands"]]
        self.stack: list[Card] = list(map(get, deal["talismans"]))
        self.top = 0  # stack[top:] is still face down
        self.parent: int = deal["parent"]
        self.won: list[list[Card]] = [[] for _ in range(n)]
        #: each pile's (length, (points, best)) when last counted: piles only grow in a
        #: match, so an equal length means the same count (a tuple, replaced, never
        #: changed, so that a copy of the state may share it)
        self._won_counts: tuple[tuple[int, tuple[int, int]], ...] = ((0, (0, -1)),) * n
        self.voids: list[set[str]] = [set() for _ in range(n)]
        #: finished rounds as (parent, lot, mode, plays, winner); their JSON is
        #: built when asked for (:attr:`rounds`), not in the middle of play.
        self.finished: list[tuple[int, list[Card], str, list[tuple[int, Card]], int]] = []
        self._rounds_json: list[dict[str, Any]] = []
        self.lot: list[Card] = []
        self.plays: list[tuple[int, Card]] = []
        self.mode: str | None = None
        self.led: str | None = None
        self.phase = "lot"
        self.final_round = False
        self.current_player = None
        #: the scores' JSON of the last view and the position it belongs to (scores
        #: change only when a round is resolved or the match ends)
        self._view_scores: tuple[tuple[int, bool], dict[str, Any]] | None = None
        self._view_totals: tuple[tuple[int, bool], tuple[float, ...]] | None = None
        self._start_round()

    # -- turn structure -------------------------------------------------------------
    def _start_round(self) -> None:
        if self.top >= len(self.stack):
            self.phase, self.current_player = "over", None
            self.is_terminal = True
            return
        self.lot = [self.stack[self.top]]
        self.top += 1
        self.final_round = len(self.hands[self.parent]) == 1
        if self.final_round:
            self.lot.extend(self.stack[self.top :])
            self.top = len(self.stack)
            self.phase = "bid"
        else:
            self.phase = "lot" if self.top < len(self.stack) else "bid"
        self.current_player = self.parent

    #: the seat to act, kept as a plain attribute (``None`` when the match is over)
    current_player: int | None = None  # type: ignore[assignment]
    #: set once, when the last round is resolved
    is_terminal: bool = False  # type: ignore[assignment]

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        hand = self.hands[self.current_player]  # type: ignore[index]
        if phase == "play":
            if self.mode == "up":
                led = self.led
                follow = [_PLAY_OF[c] for c in hand if c.suit == led]
                if follow:
                    return follow
            return list(map(_PLAY_OF.__getitem__, hand))
        if phase == "lot":
            return _LOT_CHOICE  # never changed by the engine
        ordered = sorted(hand, key=_INDEX)  # the action space's order (see _POS)
        bids = list(map(_UP.__getitem__, ordered))
        bids += map(_DOWN.__getitem__, ordered)
        return bids

    def _apply(self, action: Action) -> None:
        aid = action.id
        seat: int = self.current_player  # type: ignore[assignment]
        if aid < 2:
            if aid == LOT_TWO:
                self.lot.append(self.stack[self.top])
                self.top += 1
            self.phase = "bid"
            return
        c: Card = _CARD_BY_ID[aid]  # type: ignore[assignment]
        remove_same(self.hands[seat], c)
        if aid < _PLAY:
            if aid < _BID_DOWN:
                self.mode, self.led = "up", c.suit
            else:
                self.mode, self.led = "down", None
            self.plays = [(seat, c)]
            self.phase = "play"
        else:
            plays = self.plays
            if self.mode == "up" and c.suit != self.led:
                self.voids[seat].add(self.led)  # type: ignore[arg-type]
            plays.append((seat, c))
            if len(plays) == self._n:
                self._resolve()
                return
        self.current_player = (seat + 1) % self._n

    def _resolve(self) -> None:
        """Reveal, void equal strengths, find the winner, hand over the lot."""
        plays = self.plays
        ranks = [_STRENGTH[c] for _, c in plays]
        up = self.mode == "up"
        led = self.led
        winner = self.parent
        best = -1
        for (s, c), k in zip(plays, ranks, strict=True):
            # equal strengths void each other; face up, only the led suit can win
            if k > best and ranks.count(k) == 1 and (not up or c.suit == led):
                best, winner = k, s
        self.finished.append((self.parent, self.lot, self.mode, plays, winner))  # type: ignore[arg-type]
        self.won[winner].extend(self.lot)
        self.parent = winner
        self.lot, self.plays, self.mode, self.led = [], [], None, None
        self._start_round()

    @property
    def rounds(self) -> list[dict[str, Any]]:
        """The finished rounds as JSON data (parent, lot, mode, cards, void, winner)."""
        built = self._rounds_json
        for parent, lot, mode, plays, winner in self.finished[len(built) :]:
            ranks = [_STRENGTH[c] for _, c in plays]
            built.append(
                {
                    "parent": parent,
                    "lot": [t.code for t in lot],
                    "mode": mode,
                    "cards": [[s, c.code] for s, c in plays],
                    "void": [c.code for (_, c), k in zip(plays, ranks, strict=True)
                             if ranks.count(k) > 1],
                    "winner": winner,
                }
            )  # fmt: skip
        return built

    def _why_illegal(self, action: Action) -> str:
        seat = self.current_player
        if self.phase == "lot":
            return "the parent first chooses the lot: lot 1 or lot 2"
        if action.id < 2:
            return "the lot is already set"
        c = _CARD_OF[action.id]
        if self.phase == "bid" and action.id >= _PLAY:
            return "the parent bids: bid up <card> or bid down <card>"
        if self.phase == "play" and action.id < _PLAY:
            return "only the parent bids; the others play <card>"
        if c not in self.hands[seat]:  # type: ignore[index]
            return f"you do not hold {c}"
        suit = _SUIT_WORDS.get(self.led or "", self.led)  # named, as Extendori's message does
        return f"you must follow the led suit ({suit}) while you hold it"

    def action_seen_by(self, action: Action, seat: int | None) -> str:
        """Face-down bids and cards show as ``bid down ?`` / ``play ?`` to the others,
        except the round's last card: it completes the round, which is revealed at once."""
        if seat == self.current_player:
            return action.text
        aid = action.id
        if _BID_DOWN <= aid < _PLAY:
            return "bid down ?"
        if aid >= _PLAY and self.mode == "down" and len(self.plays) < self.players - 1:
            return "play ?"
        return action.text

    def _may_mask_for(self, seat: int | None) -> bool:
        # only the face-down bid and the cards of a face-down round are masked
        if seat == self.current_player or self.phase == "lot":
            return False
        return self.phase == "bid" or self.mode == "down"

    # -- fast random play-outs (search) ---------------------------------------------------
    def random_playout(self, rng: random.Random, *, hand_only: bool = False) -> int:
        """:meth:`State.random_playout`, the same moves, drawn without building the
        lists of actions (a bid is drawn among the sorted hand's ``bid up`` then
        ``bid down``, a card among the playable ones)."""
        if not exact(rng):
            return super().random_playout(rng, hand_only=hand_only)
        getrandbits = rng.getrandbits
        append = self.history.append
        hands = self.hands
        done = 0
        self._legal = None
        while self.current_player is not None:
            seat = self.current_player
            phase = self.phase
            if phase == "lot":
                options: list[Any] = _LOT_CHOICE
            elif phase == "bid":
                options = sorted(hands[seat], key=_INDEX)
            else:
                options = hands[seat]
                if self.mode == "up":
                    led = self.led
                    options = [c for c in options if c.suit == led] or options
            n = len(options) * 2 if phase == "bid" else len(options)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            if phase == "lot":
                action = options[r]
            elif phase == "bid":
                half = n // 2
                action = _UP[options[r]] if r < half else _DOWN[options[r - half]]
            else:
                action = _PLAY_OF[options[r]]
            self._apply(action)
            append(action)
            done += 1
        return done

    def __deepcopy__(self, memo: dict[int, Any]) -> SonoArcanaState:
        """A fast independent copy: cards are immutable and finished rounds are never
        changed, so only the lists and sets that play changes are copied."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        d["_rng_now"] = copy_rng(self._rng)
        d["_preset"] = list(self._preset)
        d["deals"] = list(self.deals)
        d["history"] = list(self.history)
        d["_legal"] = None
        d["hands"] = [list(h) for h in self.hands]
        d["won"] = [list(w) for w in self.won]
        d["voids"] = [set(v) for v in self.voids]
        d["finished"] = list(self.finished)
        d["_rounds_json"] = list(self._rounds_json)
        d["lot"] = list(self.lot)
        d["plays"] = list(self.plays)
        new.__dict__.update(d)
        return new

    # -- scoring ----------------------------------------------------------------------
    def scores(self) -> Scores:
        n = self.players
        face_up: list[list[Card]] = []
        face_down: list[list[Card]] = []
        for held in self.won:
            digits = [_DIGIT[t] for t in held]
            face_up.append([t for t, d in zip(held, digits, strict=True) if digits.count(d) == 1])
            face_down.append([t for t, d in zip(held, digits, strict=True) if digits.count(d) > 1])
        individual = [2 * len(face_up[s]) - len(face_down[s]) for s in range(n)]
        best = [max((t.number for t in face_up[s]), default=-1) for s in range(n)]  # type: ignore[type-var]
        totals, ranks, detail_teams = self._ranking(individual, best)
        return Scores(
            totals=totals,
            ranks=ranks,
            final=self.phase == "over",
            teams=self.game.teams,
            detail={
                "individual": individual,
                "face_up": [sorted_codes(f) for f in face_up],
                "face_down": [sorted_codes(f) for f in face_down],
                "best_face_up": best,
                "team_totals": detail_teams,
            },
        )

    def _seat_totals(self, individual: list[int]) -> tuple[tuple[float, ...], list[int] | None]:
        """(each seat's total: its own points or its team's, the team totals or None)."""
        teams = self.game.teams
        if teams is None:
            return tuple(map(float, individual)), None
        team_totals = [sum(individual[s] for s in t) for t in teams]
        totals = [0.0] * self.players
        for t, total in zip(teams, team_totals, strict=True):
            for s in t:
                totals[s] = float(total)
        return tuple(totals), team_totals

    def _ranking(
        self, individual: list[int], best: list[int]
    ) -> tuple[tuple[float, ...], tuple[int, ...], list[int] | None]:
        """(totals, ranks, team totals) from each seat's points and best face-up
        talisman (the tie-break)."""
        n = self.players
        teams = self.game.teams
        totals, team_totals = self._seat_totals(individual)
        if teams is None or team_totals is None:
            return totals, competition_ranks([(individual[s], best[s]) for s in range(n)]), None
        team_of = {s: i for i, t in enumerate(teams) for s in t}
        team_best = [max(best[s] for s in t) for t in teams]
        team_ranks = competition_ranks(list(zip(team_totals, team_best, strict=True)))
        ranks = tuple(team_ranks[team_of[s]] for s in range(n))
        return totals, ranks, team_totals

    def _piles(self) -> list[tuple[int, int]]:
        """:func:`_pile_points` of each seat's pile; a pile is counted again only
        when it has grown."""
        counted = list(self._won_counts)
        for s, held in enumerate(self.won):
            if counted[s][0] != len(held):
                counted[s] = (len(held), _pile_points(held))
        self._won_counts = tuple(counted)
        return [pile for _, pile in counted]

    def _standing(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        piles = self._piles()
        totals, ranks, _ = self._ranking([p for p, _ in piles], [b for _, b in piles])
        return totals, ranks

    def _totals(self) -> tuple[float, ...]:
        """``scores().totals`` alone (no ranks): each seat's points, or its team's."""
        return self._seat_totals([points for points, _ in self._piles()])[0]

    # -- views --------------------------------------------------------------------------
    def _scores_json(self) -> dict[str, Any]:
        """``scores().to_dict()``, computed once per resolved round: the talismans won
        and the phase change only when a round is resolved.  Views only read it
        (``view`` hands out a JSON copy), so one dict serves every seat."""
        key = (len(self.finished), self.phase == "over")
        cached = self._view_scores
        if cached is None or cached[0] != key:
            cached = self._view_scores = (key, self._scores_dict())
        return cached[1]

    #: each pile of talismans won as a view last read it: (the pile, its length, its
    #: codes, its face-up and face-down codes in the deck's order, its points, its best
    #: face-up number).  Piles only grow in a match, so the same list at the same length
    #: is the same pile; a tuple, replaced, never changed (a copy of the state, whose
    #: piles are other lists, reads its own).
    _won_json: tuple[tuple[Any, ...], ...] = ()

    def _piles_json(self) -> tuple[tuple[Any, ...], ...]:
        """:attr:`_won_json` brought up to date: a pile is read again only when it
        has grown (a round is resolved) or is another list."""
        cached = self._won_json
        won = self.won
        if len(cached) != len(won):
            cached = ((None, -1),) * len(won)
        fresh: list[tuple[Any, ...]] | None = None
        for s, held in enumerate(won):
            entry = cached[s]
            if entry[0] is not held or entry[1] != len(held):
                if fresh is None:
                    fresh = list(cached)
                fresh[s] = _pile_json(held)
        if fresh is not None:
            cached = self._won_json = tuple(fresh)
        return cached

    def _scores_dict(self) -> dict[str, Any]:
        """``scores().to_dict()`` made directly from the piles' counts
        (:meth:`_piles_json`), without the :class:`Scores` on the way (the same dict,
        key for key; ``tests/test_sono_arcana.py`` compares them)."""
        piles = self._piles_json()
        individual = [p[5] for p in piles]
        best = [p[6] for p in piles]
        totals, ranks, team_totals = self._ranking(individual, best)
        teams = self.game.teams
        return {
            "totals": list(totals),
            "ranks": list(ranks),
            "winners": [s for s, r in enumerate(ranks) if r == 1],
            "final": self.phase == "over",
            "teams": [list(t) for t in teams] if teams is not None else None,
            "detail": {
                "individual": individual,
                "face_up": [list(p[3]) for p in piles],
                "face_down": [list(p[4]) for p in piles],
                "best_face_up": best,
                "team_totals": team_totals,
            },
        }

    def _score_totals(self) -> tuple[float, ...]:
        """``scores().totals`` (through :meth:`_totals`), computed once per resolved
        round like :meth:`_scores_json`: what a tensor reads of the scores."""
        key = (len(self.finished), self.phase == "over")
        cached = self._view_totals
        if cached is None or cached[0] != key:
            cached = self._view_totals = (key, self._totals())
        return cached[1]

    #: what every view of one moment of a round shares (the lot, the piles, the
    #: finished rounds, the scores ...): (the list of finished rounds, their number, the
    #: stack's top, whether the match is over) and the values.  They change only when
    #: a talisman is turned up or a round is resolved; a copy of the state, whose
    #: ``finished`` is another list, builds its own.  A tuple, replaced, never changed.
    _view_round: tuple[Any, ...] = (None, -1, -1, False, ())
    #: each seat's hand as a view last read it: (the hand's list, its length, its codes
    #: in the deck's order).  A hand only loses cards in a match, so the same list at
    #: the same length holds the same cards.  A tuple, replaced, never changed.
    _hand_codes: tuple[tuple[Any, ...], ...] = ()

    def _round_parts(self) -> tuple[Any, ...]:
        """The values of :attr:`_view_round`, brought up to date."""
        finished = self.finished
        over = self.phase == "over"
        cached = self._view_round
        if (
            cached[0] is not finished
            or cached[1] != len(finished)
            or cached[2] != self.top
            or cached[3] != over
        ):
            teams = self.game.teams
            parts = (
                [list(t) for t in teams] if teams else None,
                self.parent if not over else None,
                len(finished) + (0 if over else 1),
                self.final_round and not over,
                len(self.stack) - self.top,
                [t.code for t in self.lot],
                [p[2] for p in self._piles_json()],  # the piles' codes, kept
                list(self.rounds),  # finished rounds: JSON kept, never changed
                self._scores_json(),
            )
            cached = self._view_round = (finished, len(finished), self.top, over, parts)
        return cached[4]  # type: ignore[no-any-return]

    def _hand_of(self, seat: int) -> list[str]:
        """``sorted_codes(self.hands[seat])``, read again only when the hand changed."""
        hand = self.hands[seat]
        cached = self._hand_codes
        if len(cached) != len(self.hands):
            cached = ((None, -1, []),) * len(self.hands)
        entry = cached[seat]
        if entry[0] is not hand or entry[1] != len(hand):
            entry = (hand, len(hand), sorted_codes(hand))
            self._hand_codes = (*cached[:seat], entry, *cached[seat + 1 :])
        return entry[2]  # type: ignore[no-any-return]

    def _view(self, seat: int | None) -> dict[str, Any]:
        table = []
        up = self.mode == "up"
        for s, c in self.plays:
            table.append({"seat": s, "card": c.code if up or s == seat else None})
        teams, parent, round_, final, left, lot, won, rounds, scores = self._round_parts()
        view: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "seat": seat,
            "teams": teams,
            "phase": self.phase,
            "current_player": self.current_player,
            "parent": parent,
            "round": round_,
            "final_round": final,
            "talismans_left": left,
            "lot": lot,
            "mode": self.mode,
            "led_suit": self.led,
            "table": table,
            "hand_sizes": [len(h) for h in self.hands],
            "won": won,
            "rounds": rounds,
            "scores": scores,
        }
        if seat is not None:
            view["hand"] = self._hand_of(seat)
            view["legal_actions"] = (
                [a.text for a in self.legal_actions()] if seat == self.current_player else []
            )
        return view

    def _snapshot(self) -> dict[str, Any]:
        return {
            "hands": [[c.code for c in h] for h in self.hands],
            "stack": [t.code for t in self.stack],
            "top": self.top,
            "parent": self.parent,
            "won": [[t.code for t in w] for w in self.won],
            "voids": [sorted(v) for v in self.voids],
            "rounds": self.rounds,
            "lot": [t.code for t in self.lot],
            "plays": [[s, c.code] for s, c in self.plays],
            "mode": self.mode,
            "led": self.led,
            "phase": self.phase,
        }

    def zones(self) -> dict[str, list[str]]:
        z = {f"hand:{s}": [c.code for c in h] for s, h in enumerate(self.hands)}
        z.update({f"won:{s}": [t.code for t in w] for s, w in enumerate(self.won)})
        z["stack"] = [t.code for t in self.stack[self.top :]]
        z["lot"] = [t.code for t in self.lot]
        z["table"] = [c.code for _, c in self.plays]
        z["spent"] = [c.code for r in self.finished for _, c in r[3]]
        return z

    def check_invariants(self) -> None:
        talismans = sum(len(w) for w in self.won) + len(self.lot) + len(self.stack) - self.top
        assert talismans == 24, f"{talismans} talismans instead of 24"
        played = {s for s, _ in self.plays}
        sizes = {len(h) + (1 if s in played else 0) for s, h in enumerate(self.hands)}
        assert len(sizes) == 1, f"hand sizes drifted: {sizes}"
        assert len(self.finished) <= HAND_SIZE
        if self.phase == "over":
            assert not self.lot and self.top == len(self.stack)
        s = self.scores()
        for seat in range(self.players):
            up = len(s.detail["face_up"][seat])
            down = len(s.detail["face_down"][seat])
            assert up + down == len(self.won[seat])
            assert s.detail["individual"][seat] == 2 * up - down

    # -- worlds for search and leak tests ---------------------------------------------
    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        n = self.players
        hidden_commit = self.mode == "down"
        committed = {s for s, _ in self.plays} if hidden_commit else set()
        unknown: list[Card] = []
        caps = [0] * n
        for s in range(n):
            if s == seat:
                continue
            unknown.extend(self.hands[s])
            caps[s] = len(self.hands[s])
            if s in committed:
                unknown.extend(c for q, c in self.plays if q == s)
                caps[s] += 1
        holders = {
            suit: [s for s in range(n) if s != seat and suit not in self.voids[s]] for suit in SUITS
        }
        pools = deal_uniform(unknown, caps, lambda c: holders[c.suit], rng)
        played: list[list[Card]] = [[] for _ in range(n)]
        for r in self.finished:
            for s, c in r[3]:
                played[s].append(c)
        actions = [a.text for a in self.history]
        base = len(actions) - len(self.plays)
        for i, (s, c) in enumerate(self.plays):
            if s == seat or not hidden_commit:
                played[s].append(c)
                continue
            pick = pools[s].pop(rng.randrange(len(pools[s])))
            played[s].append(pick)
            verb = "bid down" if i == 0 else "play"
            actions[base + i] = f"{verb} {pick}"
        original = self.deals[0]
        hands = []
        for s in range(n):
            if s == seat:
                hands.append(list(original["hands"][s]))
            else:
                hands.append([c.code for c in played[s] + pools[s]])
        unseen = sorted(self.stack[self.top :], key=lambda t: t.index)  # never the true order
        shuffle(rng, unseen)
        talismans = [t.code for t in self.stack[: self.top] + unseen]
        deal = {"hands": hands, "talismans": talismans, "parent": original["parent"]}
        return [deal], actions


def _pile_json(held: list[Card]) -> tuple[Any, ...]:
    """One entry of ``SonoArcanaState._won_json``: (``held``, its length, its codes,
    its face-up and face-down codes in the deck's order, its points, its best face-up
    number or -1), counted as :func:`_pile_points` does."""
    once = twice = 0
    bit = _DIGIT_BIT.__getitem__
    for b in map(bit, held):
        twice |= once & b
        once |= b
    unique = once & ~twice
    up: list[str] = []
    down: list[str] = []
    best = -1
    for t in sorted(held, key=_INDEX):
        if bit(t) & unique:
            up.append(t.code)
            if t.number > best:  # type: ignore[operator]
                best = t.number  # type: ignore[assignment]
        else:
            down.append(t.code)
    codes = [t.code for t in held]
    return (held, len(held), codes, up, down, 3 * len(up) - len(held), best)


def sorted_codes(cs: list[Card]) -> list[str]:
    """Codes sorted in the deck's order (majors by number, suits c d s w, ranks up)."""
    return [c.code for c in sorted(cs, key=_INDEX)]


SonoArcana.state_class = SonoArcanaState
