"""The ``fairy500`` game and its match state (see the package docstring for the rules)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from xtarot.cards import XTAROT, Card
from xtarot.engine import (
    Action,
    ConfigError,
    DealError,
    DealReader,
    Game,
    GameInfo,
    Option,
    Scores,
    State,
    parse_card,
    register,
)
from xtarot.engine.core import competition_ranks
from xtarot.engine.identity import holds_same, remove_same
from xtarot.engine.rand import below, copy_rng, exact, shuffle
from xtarot.games.tricks import Trick

from .auction import BidTable
from .hand import Hand, sorted_cards
from .play import SUIT_OF, key_table
from .scoring import (
    contract_scores,
    misere_scores,
    number,
    ramsch_scores,
    ten_per_trick_scores,
)
from .setup import (
    ACTIONS,
    BID_OF,
    CALL,
    CALL_OF,
    CARD_OF,
    DISCARD,
    DISCARD_OF,
    HAND_SIZE,
    KITTY_SIZE,
    PASS,
    PLAY,
    PLAY_OF,
    UNION,
    card_set,
)
from .worlds import sample_hand

__all__ = ["Fairy500", "Fairy500State", "Hand"]

TARGET = 500
_CODE = attrgetter("code")
_PLAY_OF = PLAY_OF.__getitem__
_DISCARD_OF = DISCARD_OF.__getitem__
_CALL_OF = CALL_OF.__getitem__
_HAND_ZONE = tuple(f"hand:{s}" for s in range(8))
_WON_ZONE = tuple(f"won:{s}" for s in range(8))
#: the effective suits as numbers, for the lean play-out of a search (``_lean_tricks``)
_SUIT_NUMBER: dict[str, int] = {"c": 0, "d": 1, "s": 2, "w": 3, "F": 4}
#: mode -> card index -> its effective suit's number (-1: no card of any set)
_SUIT_NO: dict[str, list[int]] = {}
#: mode -> led suit's number -> card index -> :func:`key_table`'s strength
_KEYS_NO: dict[str, list[list[int]]] = {}
for _mode, _suits in SUIT_OF.items():
    _SUIT_NO[_mode] = [-1] * (1 + max(c.index for c in UNION))
    for _c, _suit in _suits.items():
        _SUIT_NO[_mode][_c.index] = _SUIT_NUMBER[_suit]
    _KEYS_NO[_mode] = []
    for _led in _SUIT_NUMBER:
        _keys = [-1] * len(_SUIT_NO[_mode])
        for _c, _key in key_table(_mode, _led).items():
            _keys[_c.index] = _key
        _KEYS_NO[_mode].append(_keys)
#: mode -> led (effective) suit -> :func:`key_table` (the same dicts, without its call)
_KEYS: dict[str, dict[str, dict[Card, int]]] = {
    m: {led: key_table(m, led) for led in _SUIT_NUMBER} for m in SUIT_OF
}
#: card index -> whether it is an F
_IS_F: list[bool] = [False] * len(_SUIT_NO["nt"])
for _c in UNION:
    _IS_F[_c.index] = _c.rank == "F"


@register
class Fairy500(Game):
    """Fairy Five Hundred for 3-8 players."""

    info = GameInfo(
        id="fairy500",
        name_ja="フェアリーファイブハンドレッド",
        name_en="Fairy Five Hundred",
        min_players=3,
        max_players=8,
        options=(
            Option(
                "all_pass",
                None,
                str,
                "when everyone passes: ramsch (everyone avoids tricks), redeal, or "
                "ten_per_trick (no trump, 10 per trick for everyone); default ramsch, "
                "redeal with classical=true",
                "全員パスのとき：ramsch(ラムシュ)、redeal(配り直し)、"
                "ten_per_trick(ノートランプで1トリック10点)。既定は ramsch、"
                "classical=true なら redeal",
                choices=("ramsch", "redeal", "ten_per_trick"),
                nullable=True,
            ),
            Option(
                "pairs",
                False,
                bool,
                "4 players: the seat opposite the declarer is the partner, no call",
                "4人戦：デクレアラーの対面が副官(指名なし)のペア戦",
                players=(4,),
            ),
            Option(
                "classical",
                False,
                bool,
                "a 10-trick side scores at least 250; call after the kitty, an unseen "
                "card, partner announced at once; all pass means a redeal unless "
                "all_pass is given",
                "クラシカル：全勝は最低250点、キティを見てから見えていない札で副官指名、"
                "副官はすぐ名乗る。all_pass を指定しなければ全員パスは配り直し",
            ),
            Option(
                "hands",
                None,
                int,
                "stop after this many played hands (1: a single hand); default: play "
                "until a player reaches +500 or -500",
                "このハンド数で終了(1なら1ハンドのみ)。既定は誰かが+500点か-500点に達するまで",
                nullable=True,
            ),
        ),
        bulk_options=(("hands", 1),),
    )
    actions = ACTIONS
    deck_doc = (
        "deck=[...]: this player count's card set (34..84 cards), each once, top first. "
        "The dealer is drawn from the seed; the cards are dealt one at a time clockwise "
        "starting left of the dealer, 10 rounds, and the last 4 form the kitty."
    )

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        if self.options["all_pass"] is None:
            # The rulebook's クラシカルオプション bundles "全員パスの場合は配り直し" with
            # the rest, so classical play redeals on all pass unless told otherwise.
            self.options["all_pass"] = "redeal" if self.options["classical"] else "ramsch"
        self.cards = card_set(players)
        self._set = frozenset(self.cards)
        self.calls_needed = (
            0 if players == 3 or self.options["pairs"] else (1 if players <= 6 else 2)
        )
        self.bid_table = BidTable(players)
        self.bid_values = self.bid_table.values
        pass_or_above = self.bid_table.pass_or_above
        #: the standing bid's action id (``None``: no bid yet) -> ``pass`` and every bid
        #: above it, the lists of :meth:`BidTable.pass_or_above` (shared: never changed)
        self.bid_choices: dict[int | None, list[Action]] = {None: pass_or_above(0)}
        for i, value in self.bid_values.items():
            self.bid_choices[i] = pass_or_above(value)

    def _check_options(self) -> None:
        hands = self.options["hands"]
        if hands is not None and hands < 1:
            raise ConfigError(f"fairy500: option hands must be 1 or more, not {hands}")

    def bids_above(self, value: int) -> list[Action]:
        """Every bid whose declared value is strictly above ``value``."""
        return self.bid_table.above(value)

    # -- deals ---------------------------------------------------------------------------
    def shuffle(self, rng: random.Random, dealer: int) -> dict[str, Any]:
        deck = list(self.cards)
        shuffle(rng, deck)
        return self._deal(deck, dealer)

    def _deal(self, deck: list[Card], dealer: int) -> dict[str, Any]:
        n = self.players
        codes = [c.code for c in deck]
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(n):  # one at a time clockwise from the dealer's left
            hands[(dealer + 1 + i) % n] = codes[i : n * HAND_SIZE : n]
        return {"hands": hands, "kitty": codes[n * HAND_SIZE :], "dealer": dealer}

    def _random_deal(self, rng: random.Random) -> dict[str, Any]:
        return self.shuffle(rng, below(rng, self.players))

    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]:
        parsed = [self._parse(code, "deck") for code in deck]
        if len(parsed) != len(self.cards):
            raise DealError(
                f"a {self.players}-player fairy500 deck has {len(self.cards)} cards, "
                f"not {len(parsed)}"
            )
        return self._deal(parsed, rng.randrange(self.players))

    def _parse(self, code: Any, where: str) -> Card:
        c = parse_card(XTAROT, code, where)
        if c not in self._set:
            raise DealError(f"{where}: {c} is not in the {self.players}-player card set")
        return c

    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        n = self.players
        reader = DealReader(
            self.id,
            deal,
            ["hands", "kitty", "dealer"],
            XTAROT,
            allowed=self._set,
            outside=f"{{card}} is not in the {n}-player card set",
        )
        hands = reader.hands("hands", n, HAND_SIZE)
        kitty = deal["kitty"]
        if not isinstance(kitty, list) or len(kitty) != KITTY_SIZE:
            raise DealError(f"the kitty must have {KITTY_SIZE} cards")
        return {
            "hands": [[c.code for c in h] for h in hands],
            "kitty": [c.code for c in reader.cards(kitty, "kitty")],
            "dealer": reader.seat("dealer", n),
        }


class Fairy500State(State):
    """A match of Fairy Five Hundred in progress."""

    game: Fairy500

    def __deepcopy__(self, memo: dict[int, Any]) -> Fairy500State:
        """A fast clone: finished hands, deals and results are never changed again."""
        new = copy.copy(self)
        new._rng = copy_rng(self._rng)
        new._preset = list(self._preset)
        new.deals = list(self.deals)
        new.history = list(self.history)
        new._legal = list(self._legal) if self._legal is not None else None
        new.totals = list(self.totals)
        new.results = list(self.results)
        new.past = list(self.past)
        new.h = copy.deepcopy(self.h)
        new._scores_json = None  # it holds the original's results list
        return new

    # -- match ---------------------------------------------------------------------------
    def _new_match(self) -> None:
        n = self.players
        self.totals: list[int | float] = [0] * n
        self.results: list[dict[str, Any]] = []
        self.past: list[Hand] = []
        self.over = False
        self._next_start = 0
        self._n = n
        #: ``scores().to_dict()`` for the views, made when first asked for after a hand
        #: ends (the scores change only then): a view was a third dearer with it rebuilt
        self._scores_json: dict[str, Any] | None = None

    def _next_deal(self) -> dict[str, Any]:
        if self._preset:
            return self.game.validate_deal(self._preset.pop(0))
        return self.game.shuffle(self._rng, (self.h.dealer + 1) % self._n)

    def _setup(self, deal: dict[str, Any]) -> None:
        self.h = Hand(deal, self._next_start, self._n)
        self.current_player = (self.h.dealer + 1) % self._n

    #: the seat to act, kept as a plain attribute (``None`` when the match is over)
    current_player: int | None = None  # type: ignore[assignment]
    #: set once, when the match ends
    is_terminal: bool = False  # type: ignore[assignment]

    # -- legal actions -------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        h = self.h
        phase = h.phase
        seat: int = self.current_player  # type: ignore[assignment]
        if phase == "play":
            trick: Trick = h.trick  # type: ignore[assignment]
            hand = h.hands[seat]
            if trick.plays:  # follow the led (effective) suit when able
                led = trick.led
                suit_of = SUIT_OF[h.mode]  # type: ignore[index]
                follow = []  # (a loop: the comprehension was a call and two cells)
                for c in hand:
                    if suit_of[c] == led:
                        follow.append(PLAY_OF[c])
                if follow:
                    return follow
            return list(map(_PLAY_OF, hand))
        if phase == "auction":
            return self.game.bid_choices[h.high]  # shared: never changed
        if phase == "discard":
            return list(map(_DISCARD_OF, h.hands[seat]))
        return list(map(_CALL_OF, self._callable()))

    def _callable(self) -> list[Card]:
        h = self.h
        taken = set(h.called)
        if self.game.options["classical"]:
            assert h.declarer is not None
            taken.update(h.hands[h.declarer])
            taken.update(h.discards)
        return [c for c in self.game.cards if c not in taken]

    def action_seen_by(self, action: Action, seat: int | None) -> str:
        """Discards are face down: the others see ``discard ?``."""
        if seat != self.current_player and DISCARD <= action.id < PLAY:
            return "discard ?"
        return action.text

    def _may_mask_for(self, seat: int | None) -> bool:
        return seat != self.current_player and self.h.phase == "discard"

    def _why_illegal(self, action: Action) -> str:
        h = self.h
        aid = action.id
        phase = h.phase
        if phase == "auction":
            if aid >= CALL:
                return "the auction is on: pass or bid"
            return "a bid must be higher in value than the standing bid"
        if phase == "call":
            if not CALL <= aid < DISCARD:
                return "the declarer now calls a partner card: call <card>"
            c = CARD_OF[aid]
            if c not in self.game._set:
                return f"{c} is not in this player count's card set"
            if c in h.called:
                return f"{c} is already called"
            return "classical: you may not call a card you have seen"
        if phase == "discard":
            if not DISCARD <= aid < PLAY:
                return "the declarer now discards four cards: discard <card>"
            return f"you do not hold {CARD_OF[aid]}"
        if aid < PLAY:
            return "the hand is being played: play <card>"
        c = CARD_OF[aid]
        if c not in h.hands[self.current_player]:  # type: ignore[index]
            return f"you do not hold {c}"
        return "you must follow the led suit while you can"

    # -- applying ------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        h = self.h
        seat: int = self.current_player  # type: ignore[assignment]
        aid = action.id
        phase = h.phase
        if phase == "play":  # a card: the commonest action, played here without a call
            c = CARD_OF[aid]
            hand = h.hands[seat]
            i = 0  # (remove_same, inline: the card is in the hand, the action was legal)
            for x in hand:
                if x is c:
                    break
                i += 1
            del hand[i]
            trick: Trick = h.trick  # type: ignore[assignment]
            plays = trick.plays
            if plays:
                led = trick.led
                if SUIT_OF[h.mode][c] != led:  # type: ignore[index]
                    h.voids.voids[seat].add(led)
            else:
                trick.led = SUIT_OF[h.mode][c]  # type: ignore[index]
            plays.append((seat, c))
            if h.called and c in h.called and seat != h.declarer:
                h.revealed.add(seat)
            if h.open_pending:
                h.open_shown, h.open_pending = True, False
            n = self._n
            if len(plays) < n:
                self.current_player = seat + 1 if seat + 1 < n else 0
            else:
                self._close_trick(trick)
            return
        if phase == "auction":
            self._bid(seat, aid, action.text)
        elif phase == "discard":
            c = CARD_OF[aid]
            remove_same(h.hands[seat], c)
            h.discards.append(c)
            if len(h.discards) == KITTY_SIZE:
                if self.game.options["classical"] and self.game.calls_needed:
                    h.phase = "call"
                else:
                    self._start_play()
        else:
            c = CARD_OF[aid]
            h.called.append(c)
            if self.game.options["classical"]:
                holder = next(s for s, hand in enumerate(h.hands) if c in hand)
                h.announced[c] = holder
                h.revealed.add(holder)
            if len(h.called) == self.game.calls_needed:
                if self.game.options["classical"]:
                    self._start_play()
                else:
                    self._take_kitty()

    def _bid(self, seat: int, aid: int, text: str) -> None:
        h = self.h
        h.auction.append((seat, text))
        if aid == PASS:
            h.passed[seat] = True
            h.npassed += 1
        else:
            h.high, h.high_seat = aid, seat
        # auction_outcome and next_bidder, inline (``npassed`` counts the passes)
        n = self._n
        gone = h.npassed
        if gone == n - 1 and h.high is not None:
            self._declare()
        elif gone == n:
            self._all_pass()
        else:
            passed = h.passed
            seat = seat + 1 if seat + 1 < n else 0
            while passed[seat]:
                seat = seat + 1 if seat + 1 < n else 0
            self.current_player = seat

    def _declare(self) -> None:
        h = self.h
        assert h.high is not None and h.high_seat is not None
        bid = h.bid = BID_OF[h.high]
        h.declarer = h.high_seat
        h.value = self.game.bid_values[h.high]
        if bid.is_misere:
            h.kind, h.mode = "misere", "misere"
            if bid.takes_kitty:
                self._take_kitty()
            else:
                self._start_play()
            return
        h.kind, h.mode = "contract", bid.trump or "nt"
        if self.game.options["pairs"]:
            h.revealed.add((h.declarer + 2) % 4)
        if self.game.calls_needed and not self.game.options["classical"]:
            h.phase = "call"
            self.current_player = h.declarer
        else:
            self._take_kitty()

    def _all_pass(self) -> None:
        h = self.h
        rule = self.game.options["all_pass"]
        if rule == "redeal":
            h.kind = "redeal"
            self._end_hand()
            return
        h.kind = "ramsch" if rule == "ramsch" else "ten_per_trick"
        h.mode = "misere" if rule == "ramsch" else "nt"
        self._start_play()

    def _take_kitty(self) -> None:
        h = self.h
        assert h.declarer is not None
        h.kitty_taken = True
        h.hands[h.declarer] = sorted_cards(h.hands[h.declarer] + h.kitty)
        h.phase = "discard"
        self.current_player = h.declarer

    def _start_play(self) -> None:
        h = self.h
        n = self._n
        decl = h.declarer
        if h.kind == "contract":
            assert decl is not None
            if self.game.options["pairs"]:
                h.partners = {(decl + 2) % 4: 1}
            for c in h.called:
                holder = next((s for s, hand in enumerate(h.hands) if c in hand), decl)
                if holder == decl:
                    h.held_by_declarer += 1
                else:
                    h.partners[holder] = h.partners.get(holder, 0) + 1
        fairies: list[list[str]] = []
        for hand in h.hands:  # (plain loops: each comprehension is a call in 3.11)
            mine = []
            for c in hand:
                if c.rank == "F":
                    mine.append(c.code)
            fairies.append(mine)
        h.play_fairies = fairies
        h.open_pending = h.bid is not None and h.bid.is_open
        leader = (decl + 1) % n if decl is not None else (h.dealer + 1) % n
        h.trick = Trick(leader)
        h.phase = "play"
        self.current_player = leader

    def _close_trick(self, trick: Trick) -> None:
        """The trick is complete: its winner takes it and leads the next, or the
        hand ends with the tenth.  The next trick is the same :class:`Trick` made
        empty (nothing keeps it: the finished tricks keep their ``plays`` lists, and
        copies and views make their own)."""
        h = self.h
        plays = trick.plays
        keys = _KEYS[h.mode][trick.led]  # type: ignore[index]
        # the strongest card wins (the keys of cards that can win are distinct)
        winner, top = plays[0]
        best = keys[top]
        for s, x in plays:
            k = keys[x]
            if k > best:
                best, winner, top = k, s, x
        h.won[winner] += 1
        if top.rank == "F":
            h.won_f[winner] += 1
        done = h.done
        done.append((trick.leader, plays, winner))
        if len(done) == HAND_SIZE:
            h.trick = None
            self._end_hand()
            return
        trick.leader = winner
        trick.plays = []
        trick.led = None
        self.current_player = winner

    # -- fast random play-outs (search) ---------------------------------------------------
    def random_playout(self, rng: random.Random, *, hand_only: bool = False) -> int:
        """:meth:`State.random_playout`, the same moves; the tricks are played by a
        tighter loop that draws among the playable cards directly."""
        if not exact(rng):
            return super().random_playout(rng, hand_only=hand_only)
        limit = len(self.deals) + 1 if hand_only else 1 << 62
        getrandbits = rng.getrandbits
        done = 0
        while self.current_player is not None and len(self.deals) < limit:
            if self.h.phase == "play":
                done += self._random_tricks(getrandbits)
                continue
            self._random_step(rng)
            done += 1
        self._legal = None
        return done

    def _random_step(self, rng: random.Random) -> None:
        """One random legal bid, call or discard, drawn as ``randrange`` over
        :meth:`_legal_actions`' list and applied without checking it again."""
        legal = self._legal_actions()
        self._apply_listed(legal[below(rng, len(legal))])

    def _random_tricks(self, getrandbits: Callable[[int], int]) -> int:
        """Random legal cards until this hand's tricks are over; how many were played.
        Each draw is ``randrange`` over :meth:`_legal_actions`' list, done inline."""
        h = self.h
        hands = h.hands
        suit_of = SUIT_OF[h.mode]  # type: ignore[index]
        voids = h.voids.voids
        called = h.called
        players = self._n
        append = self.history.append
        self._legal = None
        done = 0
        while True:  # the steps of _apply's play, inline; _close_trick ends each trick
            trick = h.trick
            assert trick is not None
            plays = trick.plays
            seat: int = self.current_player  # type: ignore[assignment]
            hand = hands[seat]
            options = hand
            led = trick.led
            if plays:
                options = [c for c in hand if suit_of[c] == led] or hand
            n = len(options)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            if options is hand:  # (leading, or void in the led suit: no search)
                c = hand.pop(r)
            else:
                c = options[r]
                remove_same(hand, c)
            if not plays:
                trick.led = suit_of[c]
            elif suit_of[c] != led:
                voids[seat].add(led)
            plays.append((seat, c))
            if called and c in called and seat != h.declarer:
                h.revealed.add(seat)
            if h.open_pending:
                h.open_shown, h.open_pending = True, False
            done += 1
            if len(plays) < players:
                self.current_player = (seat + 1) % players
                append(PLAY_OF[c])
                continue
            self._close_trick(trick)
            append(PLAY_OF[c])  # after: the end of the hand counts the history without it
            if h.trick is None:  # the hand is over (and the next one may have begun)
                return done

    def _random_standing(
        self, rng: random.Random, *, hand_only: bool = False
    ) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """:meth:`State._random_standing`: the standing after :meth:`random_playout`'s
        moves (the same draws).  When the play-out stops with this hand, its tricks
        are played on card numbers by :meth:`_lean_tricks`, which keeps only who won
        each trick (all the scoring reads): the state is left unusable."""
        if not hand_only or self.current_player is None or not exact(rng):
            return super()._random_standing(rng, hand_only=hand_only)
        deals = len(self.deals)
        getrandbits = rng.getrandbits
        if self.h.phase == "auction":
            self._random_auction(getrandbits)
            if self.current_player is None or len(self.deals) != deals:  # (a redeal)
                return self._standing()
        while self.h.phase != "play":  # calls and discards: random_playout's steps
            self._random_step(rng)
            if self.current_player is None or len(self.deals) != deals:  # (a redeal)
                return self._standing()
        h = self.h
        self._lean_tricks(getrandbits)
        points = self._hand_points(h)[0]
        totals = [number(t + p) for t, p in zip(self.totals, points, strict=True)]
        return tuple(map(float, totals)), competition_ranks(totals)

    def _random_auction(self, getrandbits: Callable[[int], int]) -> None:
        """The rest of the auction by random bids, drawn as :meth:`random_playout`
        draws them, with :meth:`_bid`'s steps inline until the auction ends."""
        h = self.h
        game = self.game
        pass_or_above = game.bid_table.pass_or_above
        values = game.bid_values
        passed = h.passed
        auction = h.auction
        append = self.history.append
        n = self._n
        gone = sum(passed)
        seat: int = self.current_player  # type: ignore[assignment]
        while True:
            legal = pass_or_above(values[h.high] if h.high is not None else 0)
            m = len(legal)
            k = m.bit_length()
            r = getrandbits(k)
            while r >= m:
                r = getrandbits(k)
            action = legal[r]
            aid = action.id
            auction.append((seat, action.text))
            if aid == PASS:
                passed[seat] = True
                h.npassed += 1
                gone += 1
            else:
                h.high, h.high_seat = aid, seat
            if h.high is not None and gone == n - 1:
                self._declare()
                append(action)
                return
            if gone == n:
                self._all_pass()  # (a redeal ends the hand, the action appended after)
                append(action)
                return
            seat = (seat + 1) % n  # (next_bidder: the next seat still bidding)
            while passed[seat]:
                seat = (seat + 1) % n
            self.current_player = seat
            append(action)

    def _lean_tricks(self, getrandbits: Callable[[int], int]) -> None:
        """The rest of this hand's tricks, each card drawn as :meth:`_random_tricks`
        draws it (``randrange`` over the playable cards in hand order), with cards as
        their index numbers and every hand also split by effective suit, so following
        suit needs no search.  Only ``h.won`` and ``h.won_f`` are kept up to date."""
        h = self.h
        mode: str = h.mode  # type: ignore[assignment]
        suit_no = _SUIT_NO[mode]
        keys_by_led = _KEYS_NO[mode]
        is_f = _IS_F
        n = self._n
        hands: list[list[int]] = []
        by_suit: list[list[list[int]]] = []
        for cards in h.hands:
            mine = [c.index for c in cards]
            split: list[list[int]] = [[], [], [], [], []]
            for x in mine:
                split[suit_no[x]].append(x)
            hands.append(mine)
            by_suit.append(split)
        won = h.won
        won_f = h.won_f
        trick = h.trick
        assert trick is not None
        seat: int = self.current_player  # type: ignore[assignment]
        plays = trick.plays
        down = len(plays)  # cards already in the trick under way
        led = best = winner = top = 0
        keys_list: list[int] = []
        if down:  # (its first card leads; the strongest so far wins it for now)
            led = _SUIT_NUMBER[trick.led]  # type: ignore[index]
            keys_list = keys_by_led[led]
            winner, first = plays[0]
            top = first.index
            best = keys_list[top]
            for s, x in plays:
                key = keys_list[x.index]
                if key > best:
                    best, winner, top = key, s, x.index
        left = HAND_SIZE - len(h.done)
        while left:
            if not down:  # the lead: any card of the hand
                hand = hands[seat]
                m = len(hand)
                k = m.bit_length()
                r = getrandbits(k)
                while r >= m:
                    r = getrandbits(k)
                c = hand.pop(r)
                led = suit_no[c]
                by_suit[seat][led].remove(c)
                keys_list = keys_by_led[led]
                best = keys_list[c]
                winner, top = seat, c
                down = 1
                seat = seat + 1 if seat + 1 < n else 0
            while down < n:  # follow the led suit when able, else any card
                options = by_suit[seat][led]
                if options:
                    m = len(options)
                    k = m.bit_length()
                    r = getrandbits(k)
                    while r >= m:
                        r = getrandbits(k)
                    c = options.pop(r)
                    hands[seat].remove(c)
                else:
                    hand = hands[seat]
                    m = len(hand)
                    k = m.bit_length()
                    r = getrandbits(k)
                    while r >= m:
                        r = getrandbits(k)
                    c = hand.pop(r)
                    by_suit[seat][suit_no[c]].remove(c)
                key = keys_list[c]
                if key > best:
                    best, winner, top = key, seat, c
                down += 1
                seat = seat + 1 if seat + 1 < n else 0
            won[winner] += 1
            if is_f[top]:
                won_f[winner] += 1
            left -= 1
            seat = winner
            down = 0

    # -- the end of a hand ---------------------------------------------------------------
    def _end_hand(self) -> None:
        h = self.h
        n = self._n
        kind = h.kind
        points, detail = self._hand_points(h)
        for s in range(n):
            self.totals[s] = number(self.totals[s] + points[s])  # type: ignore[arg-type]
        h.result = {
            "hand": len(self.results) + 1,
            "dealer": h.dealer,
            "kind": kind,
            "declarer": h.declarer,
            "bid": h.bid.text if h.bid is not None else None,
            "called": [c.code for c in h.called],
            "tricks": list(h.won),
            "points": points,
            "totals": list(self.totals),
            "detail": detail,
        }
        self.results.append(h.result)
        self._scores_json = None
        h.phase = "done"
        over = False
        for t in self.totals:  # (plain loops: a generator is a call of its own)
            if abs(t) >= TARGET:
                over = True
                break
        limit = self.game.options["hands"]
        if not over and limit is not None:
            played = 0
            for r in self.results:
                if r["kind"] != "redeal":
                    played += 1
            over = played >= limit
        if over:
            self.over = True
            self.current_player = None
            self.is_terminal = True
            return
        self.past.append(h)
        self._next_start = len(self.history) + 1  # the current action is appended after
        self._begin_hand(self._next_deal())

    def _hand_points(self, h: Hand) -> tuple[list[int | float], dict[str, Any]]:
        """What the finished hand ``h`` scores per seat, and its breakdown."""
        n = self._n
        kind = h.kind
        detail: dict[str, Any]
        if kind == "redeal":
            points: list[int | float] = [0] * n
            detail = {}
        elif kind == "contract":
            assert h.declarer is not None and h.bid is not None
            points, detail = contract_scores(
                h.won,
                h.declarer,
                h.partners,
                h.held_by_declarer,
                tricks_bid=h.bid.tricks,
                base=h.value,
                classical=self.game.options["classical"],
            )
            detail["partners"] = {str(s): k for s, k in sorted(h.partners.items())}
            detail["called_held_by_declarer"] = h.held_by_declarer
        elif kind == "misere":
            assert h.declarer is not None and h.bid is not None
            points, detail = misere_scores(
                h.won,
                h.declarer,
                value=h.value,
                declaration=h.bid.declaration,
                play_hand_fairies=h.play_fairies[h.declarer],
            )
        elif kind == "ramsch":
            plain = [h.won[s] - h.won_f[s] for s in range(n)]
            points, detail = ramsch_scores(h.play_fairies, plain, h.won)
        else:
            points, detail = ten_per_trick_scores(h.won)
        return points, detail

    # -- scores and views ----------------------------------------------------------------
    def scores(self) -> Scores:
        return Scores(
            totals=tuple(float(t) for t in self.totals),
            ranks=competition_ranks(self.totals),
            final=self.over,
            detail={"hands": self.results, "target": TARGET},
        )

    def _standing(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """``scores()``'s totals and ranks without building the rest (a search asks
        after every play-out)."""
        totals = self.totals
        return tuple(map(float, totals)), competition_ranks(totals)

    def _scores_view(self) -> dict[str, Any]:
        """``scores().to_dict()``, kept until a hand ends (:meth:`view` copies it and
        :meth:`peek_view` readers never change it)."""
        made = self._scores_json
        if made is None:
            made = self._scores_json = self.scores().to_dict()
        return made

    def _view(self, seat: int | None) -> dict[str, Any]:
        h = self.h
        decl = h.declarer
        is_decl = seat is not None and seat == decl
        contract = None
        if h.kind is not None and h.kind != "redeal":
            contract = {
                "kind": h.kind,
                "declarer": decl,
                "bid": h.bid.text if h.bid is not None else None,
                "value": h.value if h.bid is not None else None,
                "trump": h.mode if h.mode in ("c", "d", "s", "w") else None,
                "order": h.mode,
            }
        partners = sorted(h.revealed)
        me_partner = seat is not None and seat != decl and seat in h.revealed
        if seat is not None and seat != decl and h.called and not me_partner:
            me_partner = _holds_called(h, seat)
            if me_partner:
                partners = sorted([*partners, seat])
        trick = h.trick
        view: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "seat": seat,
            "phase": h.phase if not self.over else "over",
            "current_player": self.current_player,
            "hand_number": len(self.results) + (0 if h.result is not None else 1),
            "dealer": h.dealer,
            "auction": [[s, t] for s, t in h.auction],
            "passed": [s for s in range(self.players) if h.passed[s]],
            "high_bid": BID_OF[h.high].text if h.high is not None else None,
            "high_bidder": h.high_seat,
            "contract": contract,
            "called": [c.code for c in h.called],
            "partners": partners,
            "is_partner": me_partner,
            "kitty_size": 0 if h.kitty_taken else KITTY_SIZE,
            "kitty": [c.code for c in h.kitty] if is_decl and h.kitty_taken else None,
            "discards": [c.code for c in h.discards] if is_decl else None,
            "discard_count": len(h.discards),
            "hand_sizes": [len(x) for x in h.hands],
            "open_hand": [c.code for c in h.hands[decl]]
            if h.open_shown and decl is not None
            else None,
            "trick": trick.to_json() if trick is not None else None,
            "tricks": h.tricks,
            "tricks_won": list(h.won),
            "last_result": self.results[-1] if self.results else None,
            "scores": self._scores_view(),
        }
        if seat is not None:
            view["hand"] = [c.code for c in h.hands[seat]]
            legal: list[Action] = []
            if seat == self.current_player:
                legal = self._legal or self.legal_actions()  # the cached list, not a copy
            view["legal_actions"] = [a.text for a in legal]
        return view

    def _snapshot(self) -> dict[str, Any]:
        h = self.h
        return {
            "hands": [[c.code for c in x] for x in h.hands],
            "kitty": [c.code for c in h.kitty],
            "kitty_taken": h.kitty_taken,
            "discards": [c.code for c in h.discards],
            "phase": h.phase,
            "auction": [[s, t] for s, t in h.auction],
            "declarer": h.declarer,
            "bid": h.bid.text if h.bid is not None else None,
            "kind": h.kind,
            "called": [c.code for c in h.called],
            "partners": {str(s): k for s, k in sorted(h.partners.items())},
            "revealed": sorted(h.revealed),
            "trick": h.trick.to_json() if h.trick is not None else None,
            "tricks": h.tricks,
            "voids": h.voids.to_json(),
            "open_shown": h.open_shown,
            "totals": list(self.totals),
            "results": self.results,
            "over": self.over,
        }

    def zones(self) -> dict[str, list[str]]:
        h = self.h
        z = {}
        for s, x in enumerate(h.hands):
            z[_HAND_ZONE[s]] = list(map(_CODE, x))
        for s, x in enumerate(h.won_cards):
            z[_WON_ZONE[s]] = list(map(_CODE, x))
        z["kitty"] = [] if h.kitty_taken else list(map(_CODE, h.kitty))
        z["discards"] = list(map(_CODE, h.discards))
        z["trick"] = [c.code for _, c in h.trick.plays] if h.trick is not None else []
        return z

    def check_invariants(self) -> None:
        assert self._scores_view() == self.scores().to_dict(), "the view's kept scores are stale"
        h = self.h
        tricks = len(h.done)
        assert sum(h.won) == tricks <= HAND_SIZE
        assert all(0 <= f <= w for f, w in zip(h.won_f, h.won, strict=True))
        sizes = [len(x) for x in h.hands]
        if h.phase in ("play", "done") and h.kind != "redeal":
            for s, _ in h.trick.plays if h.trick is not None else ():
                sizes[s] += 1
            base = HAND_SIZE - tricks
        else:
            if h.kitty_taken:
                assert h.declarer is not None
                sizes[h.declarer] -= KITTY_SIZE - len(h.discards)
            base = HAND_SIZE
        assert sizes.count(base) == len(sizes), f"hand sizes {sizes}, expected {base}"
        assert len(h.called) <= self.game.calls_needed
        assert len(set(h.called)) == len(h.called)
        # a seat other than the declarer that played a called card is revealed as a
        # partner from that play on (the view's ``is_partner`` relies on it)
        for plays in [p for _, p, _ in h.done] + [h.trick.plays if h.trick is not None else []]:
            for s, c in plays:
                if c in h.called and s != h.declarer:
                    assert s in h.revealed, f"seat {s} played called {c.code}, not revealed"
        if h.phase == "play" and h.kind == "contract":
            side_cards = h.held_by_declarer + sum(h.partners.values())
            expected_cards = len(h.called) + (1 if self.game.options["pairs"] else 0)
            assert side_cards == expected_cards
        if self.over:
            assert any(abs(t) >= TARGET for t in self.totals) or self.game.options["hands"]

    # -- worlds --------------------------------------------------------------------------
    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        texts = [a.text for a in self.history]
        hands = [*self.past, self.h]
        deals: list[dict[str, Any]] = []
        actions: list[str] = []
        for i, h in enumerate(hands):
            end = hands[i + 1].start if i + 1 < len(hands) else len(texts)
            deal, acts = sample_hand(h, seat, texts[h.start : end], rng)
            deals.append(deal)
            actions.extend(acts)
        return deals, actions


Fairy500.state_class = Fairy500State


def _holds_called(h: Hand, seat: int) -> bool:
    """Whether ``seat`` holds a called card.  The view asks it of a seat that is
    neither the declarer nor in ``h.revealed``; such a seat has *played* no called
    card, since playing one puts a seat other than the declarer in ``h.revealed``
    (:meth:`Fairy500State.check_invariants` holds that), so its hand is all there is
    to look at.  Cards are interned: identity is equality (``holds_same``)."""
    hand = h.hands[seat]
    for c in h.called:  # noqa: SIM110 (a loop: any() over a generator is slower)
        if holds_same(hand, c):
            return True
    return False
