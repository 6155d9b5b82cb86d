"""Incremental observations: every seat's tensor kept between steps, only what changed rewritten.

A PettingZoo (or Gymnasium) step asks for one seat's tensor after every move.  The
tensor holds a match's history (past tricks or rounds, the bids, the cards won), and
rewriting all of it at every look costs more than the move itself.
:class:`SeatTensors` keeps, for each observing seat, the last tensor it handed out
and, for each *block* of it, a key and the positions the block wrote.  At the next
look every block's key is computed again from the state: an unchanged block keeps
its positions, a block that only grew adds the positions of what came after, any
other is cleared and written anew.

A :class:`Block` is ``(name, key, write, grows)``: ``key(state, seat)`` is a cheap,
exact summary of what ``write`` reads (equal keys: equal positions), made of
contents or of the lengths of lists the game only appends to (the caches follow one
state object and start afresh on another), never of identities; ``write`` appends
positions holding ``1.0`` to ``ones`` and sets ``nums[position] = value`` like a
direct encoder (:mod:`xtarot.adapters.direct`).  A game's blocks cover exactly the
positions of its direct encoder and never share one;
``tests/test_adapters_fast.py`` holds them to the reference encoding of the view,
position by position, for every seat along random matches, with seats looking at
random moments, across hands, and with other matches observed in between.

A game without blocks (a plugin, a replaced spec, a state of another class) is
encoded in full at every look, as before.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

try:  # compiled (setup.py): C types for the hot loop below; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

from xtarot.adapters.direct import (
    _card_table,
    _choice_table,
    _places,
    _seat_writer,
    _starts,
)
from xtarot.adapters.tensors import Encoder

__all__ = ["BLOCKS", "Block", "SeatTensors"]

Ones = list[int]
Nums = dict[int, float]


class Block(NamedTuple):
    """One independently cached part of a tensor.

    ``key=None``: rewritten at every observation.  ``grows``: the key is ``(epoch,
    *lengths)``, the lengths of lists the game only appends to while ``epoch`` (e.g.
    the hand's number) stays the same; ``write(state, seat, since, ones, None)`` gets
    the previous key when only lengths grew (``None``: write everything anew) and adds
    the positions of what came after it, nothing cleared."""

    name: str
    key: Callable[[Any, int], Any] | None
    write: Callable[..., None]
    grows: bool = False


_UNSEEN = object()  # a key no block ever computes


class _Seat:
    """One observing seat's tensor and, per block, its key and its positions."""

    __slots__ = ("buf", "cells", "keys", "nums", "ones")

    def __init__(self, size: int, blocks: int) -> None:
        self.buf = np.zeros(size, np.float32)
        # float item writes through a memoryview cost a third of numpy's own
        self.cells = memoryview(self.buf).cast("B").cast("f")
        self._unwritten(blocks)

    def _unwritten(self, blocks: int) -> None:
        """No block written yet: every key unseen, no positions held."""
        self.keys: list[object] = [_UNSEEN] * blocks
        self.ones: list[Ones] = [[] for _ in range(blocks)]
        self.nums: list[Nums] = [{} for _ in range(blocks)]

    def clear(self) -> None:
        """Back to an all-zero tensor with no block written (for another state)."""
        self.buf.fill(0.0)
        self._unwritten(len(self.keys))


class SeatTensors:
    """Every seat's tensor of the state being observed, updated block by block.

    ``observe(state, seat)`` returns a fresh ``float32`` array equal to
    ``encoder.encode_state(state, seat, ...)``.  The seats' caches follow one state:
    observing another state object starts them afresh.
    """

    def __init__(self, enc: Encoder) -> None:
        self.enc = enc
        self.size = enc.size
        built = _BUILT.get(id(enc))
        if built is None and enc._fast is not None:
            builder = BLOCKS.get(enc.game.id)
            if builder is not None:
                built = _BUILT[id(enc)] = (enc, *builder(enc))
        self._cls: type | None = built[1] if built is not None else None
        blocks: list[Block] = built[2] if built is not None else []
        self._blocks = [(i, b.key, b.write, b.grows) for i, b in enumerate(blocks)]
        self._state: Any = None
        self._seats: dict[int, _Seat] = {}
        self._spare: dict[int, _Seat] = {}  # the seats of the state observed before

    @property
    def incremental(self) -> bool:
        """Whether this game's tensors are updated block by block (else in full)."""
        return self._cls is not None

    @cython.locals(cells=cython.float[::1], p=cython.Py_ssize_t)
    def observe(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s tensor in ``state`` as a new array."""
        if state.__class__ is not self._cls:
            state._check_seat(seat)
            return self.enc.encode_state(  # type: ignore[no-any-return]
                state, seat, np.zeros(self.size, np.float32), zeroed=True
            )
        if state is not self._state:  # another state: every seat starts afresh
            self._state = state
            self._spare.update(self._seats)
            self._seats.clear()
        mine = self._seats.get(seat)
        if mine is None:
            state._check_seat(seat)
            mine = self._spare.pop(seat, None)
            if mine is None:
                mine = _Seat(self.size, len(self._blocks))
            else:
                mine.clear()
            self._seats[seat] = mine
        keys, cells, old_ones, old_nums = mine.keys, mine.cells, mine.ones, mine.nums
        for i, key, write, grows in self._blocks:
            if key is not None:
                k = key(state, seat)
                was = keys[i]
                if k == was:
                    continue
                keys[i] = k
                if grows:
                    if (
                        was is not _UNSEEN
                        and was[0] == k[0]  # type: ignore[index]
                        and all(map(operator.le, was, k))  # type: ignore[call-overload]
                    ):
                        ones: Ones = []
                        write(state, seat, was, ones, None)
                        for p in ones:
                            cells[p] = 1.0
                        old_ones[i].extend(ones)
                        continue
                    for p in old_ones[i]:
                        cells[p] = 0.0
                    ones = []
                    write(state, seat, None, ones, None)
                    for p in ones:
                        cells[p] = 1.0
                    old_ones[i] = ones
                    continue
            for p in old_ones[i]:
                cells[p] = 0.0
            for p in old_nums[i]:
                cells[p] = 0.0
            ones = []
            nums: Nums = {}
            write(state, seat, ones, nums)
            for p in ones:
                cells[p] = 1.0
            for p, x in nums.items():
                cells[p] = x
            old_ones[i] = ones
            old_nums[i] = nums
        return mine.buf.copy()


# -- the games' blocks ---------------------------------------------------------------
_BUILT: dict[int, tuple[Encoder, type, list[Block]]] = {}


def _card_writer(pos: list[int]) -> Callable[[Any, int, Any], None]:
    """``cards(held, base, add)``: ``add(base + position)`` for each card of ``held``
    in the encoder's card list (``pos``: ``Card.index`` -> position, -1 for none)."""

    def cards(held: Any, base: int, add: Any) -> None:
        for c in held:
            i = pos[c.index]
            if i >= 0:
                add(base + i)

    return cards


def _won_block(start: int, n: int, width: int, pos: list[int]) -> Block:
    """The ``won`` field of a game whose ``state.won[seat]`` piles only grow in a match
    (matto's majors; sono-arcana reads its talismans with the finished rounds): one row
    of card positions per seat, counted from the observer, every card face up."""

    def key(st: Any, me: int) -> tuple[int, ...]:
        return (0, *map(len, st.won))

    def write(st: Any, me: int, since: tuple[int, ...] | None, ones: Ones, _: None) -> None:
        add = ones.append
        for s, held in enumerate(st.won):
            base = start + ((s - me) % n) * width
            for c in held[since[s + 1] :] if since else held:
                i = pos[c.index]
                if i >= 0:
                    add(base + i)

    return Block("won", key, write, grows=True)


def _sono_arcana(enc: Encoder) -> tuple[type, list[Block]]:
    """そのアルカナは欲しくない, in blocks: the turn, hands, lot and table rewritten at
    every observation; the totals, the talismans won and the past rounds once a round."""
    from xtarot.games.sono_arcana import SonoArcanaState

    n = enc.players
    width = len(enc.cards)
    pos = _card_table(enc)
    cards = _card_writer(pos)
    seats = _seat_writer(enc, pos)
    phase_at, phase_other = _choice_table(enc, "phase")
    mode_at, mode_other = _choice_table(enc, "mode")
    led_at, led_other = _choice_table(enc, "led_suit")
    at, scale = _places(enc)
    o_totals = at["score_totals"]
    o_parent, o_round, o_final, o_left = _starts(
        at, "parent", "round", "final_round", "talismans_left"
    )
    o_lot, o_table, o_won = at["lot"], at["table"], at["won"]
    s_totals, s_round = scale["score_totals"], scale["round"]
    s_final, s_left = scale["final_round"], scale["talismans_left"]
    o_rounds = at["rounds"]

    def move(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        add = ones.append
        add(phase_at.get(st.phase, phase_other))
        seats(st.hands, st.current_player, me, add, nums)
        left = len(st.stack) - st.top
        if left:
            nums[o_left] = float(left) / s_left
        for c in st.lot:
            i = pos[c.index]
            if i >= 0:
                add(o_lot + i)
        mode = st.mode
        add(mode_at.get(mode, mode_other))
        add(led_at.get(st.led, led_other))
        up = mode == "up"
        for s, c in st.plays:
            if up or s == me:  # face down: only the seat's own card is known
                i = pos[c.index]
                if i >= 0:
                    add(o_table + ((s - me) % n) * width + i)

    def round_key(st: Any, me: int) -> object:
        # the score totals (cached by the game under the same key), the parent and the
        # final round all settle when a round is resolved
        return (len(st.finished), st.phase == "over")

    def round_(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        over = st.phase == "over"
        for s, x in enumerate(st._score_totals()):
            nums[o_totals + (s - me) % n] = float(x or 0) / s_totals
        ones.append(o_parent + (n if over else (st.parent - me) % n))
        number = len(st.finished) + (0 if over else 1)
        if number:
            nums[o_round] = float(number) / s_round
        final = st.final_round and not over
        if final:
            nums[o_final] = float(final) / s_final

    def rounds_key(st: Any, me: int) -> tuple[int, int]:
        return (0, len(st.finished))  # the past rounds only grow

    def rounds(st: Any, me: int, since: tuple[int, int] | None, ones: Ones, _: None) -> None:
        # the finished rounds' cards, every one shown (as the view's ``rounds`` has them),
        # and the talismans won: a round's lot goes to its winner when it is resolved
        # (``_resolve``), and nothing else fills the piles
        add = ones.append
        for _parent, lot, _mode, plays, winner in st.finished[since[1] :] if since else st.finished:
            for s, c in plays:
                i = pos[c.index]
                if i >= 0:
                    add(o_rounds + ((s - me) % n) * width + i)
            cards(lot, o_won + ((winner - me) % n) * width, add)

    return SonoArcanaState, [
        Block("move", None, move),
        Block("round", round_key, round_),
        Block("rounds", rounds_key, rounds, grows=True),
    ]


def _arcana_duel(enc: Encoder) -> tuple[type, list[Block]]:
    """アルカナデュエル, in blocks: the turn, hands, 場 (fields), attack and counts at
    every observation; the 得点 (points piles) as they grow (a pile only grows, and a
    card swept into it face down by the Fool stays face down: buried as it enters)."""
    from xtarot.games.arcana_duel import _POWER, ArcanaDuelState

    n = enc.players
    width = len(enc.cards)
    pos = _card_table(enc)
    seats = _seat_writer(enc, pos)
    phase_at, phase_other = _choice_table(enc, "phase")
    at, scale = _places(enc)
    o_totals = at["score_totals"]
    o_first, o_attacker, o_turn, o_stock = _starts(
        at, "first_attacker", "attacker", "turn", "stock_left"
    )
    o_up, o_attacked, o_down, o_own_down = _starts(
        at, "field_face_up", "field_attacked", "field_face_down", "own_face_down"
    )
    o_points, o_count, o_attack, o_power = _starts(
        at, "points", "points_count", "attack", "attack_power"
    )
    o_attacks, o_lost = at["attacks_made"], at["lost_this_turn"]
    s_totals, s_turn, s_stock = scale["score_totals"], scale["turn"], scale["stock_left"]
    s_down, s_count, s_power = (
        scale["field_face_down"],
        scale["points_count"],
        scale["attack_power"],
    )
    s_attacks, s_lost = scale["attacks_made"], scale["lost_this_turn"]

    def move(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        add = ones.append
        stage = st.stage
        setup = stage == "setup"
        add(phase_at.get(stage, phase_other))
        seats(st.hands, st.current_player, me, add, nums)
        first = None if setup else st.first_attacker
        add(o_first + (n if first is None else (first - me) % n))
        attacker = None if setup else st.attacker
        add(o_attacker + (n if attacker is None else (attacker - me) % n))
        if st.turns:
            nums[o_turn] = float(st.turns) / s_turn
        if st.stock:
            nums[o_stock] = float(len(st.stock)) / s_stock
        up = st.up
        used = st.used
        forming = st.forming
        for s in range(n):
            rel = (s - me) % n
            base = rel * width
            down = 0
            for c in st.field[s]:
                if c in up:
                    i = pos[c.index]
                    if i >= 0:
                        add(o_up + base + i)
                        if c in used or c in forming:
                            add(o_attacked + base + i)
                else:
                    down += 1
                    if s == me:  # the seat's own face-down cards
                        i = pos[c.index]
                        if i >= 0:
                            add(o_own_down + i)
            nums[o_down + rel] = float(down) / s_down
            count = float(len(st.points[s]))
            nums[o_totals + rel] = float(count or 0) / s_totals
            nums[o_count + rel] = count / s_count
        if forming:
            power = 0
            for c in forming:
                power += _POWER[c]
                i = pos[c.index]
                if i >= 0:
                    add(o_attack + i)
            if power:
                nums[o_power] = float(power) / s_power
        if st.attacks:
            nums[o_attacks] = float(st.attacks) / s_attacks
        if st.lost:
            nums[o_lost] = float(st.lost) / s_lost

    def points_key(st: Any, me: int) -> tuple[int, ...]:
        return (0, *map(len, st.points))  # a duel is one hand: the piles only grow

    def points(st: Any, me: int, since: tuple[int, ...] | None, ones: Ones, _: None) -> None:
        add = ones.append
        buried = st.buried
        for s, held in enumerate(st.points):
            base = o_points + ((s - me) % n) * width
            for c in held[since[s + 1] :] if since else held:
                if s == me or c not in buried:  # buried points stay face down
                    i = pos[c.index]
                    if i >= 0:
                        add(base + i)

    return ArcanaDuelState, [
        Block("move", None, move),
        Block("points", points_key, points, grows=True),
    ]


def _extendori(enc: Encoder) -> tuple[type, list[Block]]:
    """エクステンドリ, in blocks: the turn, hands and trick at every observation; the
    points, totals, batch and stock when a trick ends; the hand's past tricks as they
    grow; the known voids when one is shown."""
    from xtarot.adapters.tensors import _VOID_BITS
    from xtarot.games.extendori.play import ExtendoriState

    n = enc.players
    width = len(enc.cards)
    pos = _card_table(enc)
    seats = _seat_writer(enc, pos)
    phase_at, phase_other = _choice_table(enc, "phase")
    led_at, led_other = _choice_table(enc, "led_suit")
    at, scale = _places(enc)
    o_totals = at["score_totals"]
    o_number, o_first, o_dealer, o_batch, o_stock = _starts(
        at, "hand_number", "first", "dealer", "batch", "stock_count"
    )
    o_leader, o_trick, o_points, o_voids, o_tricks = _starts(
        at, "trick_leader", "trick", "hand_points", "voids", "tricks"
    )
    s_totals, s_number, s_batch = scale["score_totals"], scale["hand_number"], scale["batch"]
    s_stock, s_points, s_voids = scale["stock_count"], scale["hand_points"], scale["voids"]
    void_bit = _VOID_BITS.get

    def move(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        add = ones.append
        add(phase_at.get(st.phase, phase_other))
        seats(st.hands, st.current_player, me, add, nums)
        trick = st.trick
        leader = trick.leader
        add(o_leader + (n if leader is None else (leader - me) % n))
        add(led_at.get(trick.led, led_other))
        for s, c in trick.plays:
            i = pos[c.index]
            if i >= 0:
                add(o_trick + ((s - me) % n) * width + i)

    def score_key(st: Any, me: int) -> tuple[int, int, int, str]:
        # the hand's points change only as a trick is appended to ``tricks``, and the
        # next batch (its dealer, the stock) is dealt only then; the match points with
        # a result appended to ``hand_results``; the phase says whether the hand's
        # points count in the totals yet
        return (len(st.deals), len(st.tricks), len(st.hand_results), st.phase)

    def score(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        add = ones.append
        playing = st.phase == "play"
        match, points = st.match_points, st.points
        individual = [match[s] + (points[s] if playing else 0) for s in range(n)]
        for s, x in enumerate(st._totals(individual)):
            nums[o_totals + (s - me) % n] = float(float(x) or 0) / s_totals
        for s, x in enumerate(points):
            nums[o_points + (s - me) % n] = float(x or 0) / s_points
        number = len(st.hand_results) + (1 if playing else 0)
        if number:
            nums[o_number] = float(number) / s_number
        first = st.first
        add(o_first + (n if first is None else (first - me) % n))
        dealer = st.dealers[-1]
        add(o_dealer + (n if dealer is None else (dealer - me) % n))
        nums[o_batch] = float(st.batch + 1) / s_batch
        stock = len(st.stock) - st.top
        if stock:
            nums[o_stock] = float(stock) / s_stock

    def tricks_key(st: Any, me: int) -> tuple[int, int]:
        return (len(st.deals), len(st.tricks))  # a hand's tricks only grow

    def tricks(st: Any, me: int, since: tuple[int, int] | None, ones: Ones, _: None) -> None:
        add = ones.append
        for _lead, plays, _winner in st.tricks[since[1] :] if since else st.tricks:
            for s, c in plays:
                i = pos[c.index]
                if i >= 0:
                    add(o_tricks + ((s - me) % n) * width + i)

    def voids_key(st: Any, me: int) -> object:
        # a batch's void sets only grow: their sizes say what they hold
        return (len(st.deals), st.batch, *map(len, st.voids.voids))

    def voids(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        for s, held in enumerate(st.voids.voids[:n]):
            nums[o_voids + (s - me) % n] = float(sum(void_bit(v, 16) for v in held)) / s_voids

    return ExtendoriState, [
        Block("move", None, move),
        Block("score", score_key, score),
        Block("tricks", tricks_key, tricks, grows=True),
        Block("voids", voids_key, voids),
    ]


def _fairy500(enc: Encoder) -> tuple[type, list[Block]]:
    """フェアリー500, in blocks: the totals, hand number and dealer once a hand; the
    hand's bids and past tricks as they grow (one block: both start afresh with a
    hand); the rest (turn, hands, contract, partners, kitty, trick, tricks won) at
    every observation."""
    from xtarot.games.fairy500.game import Fairy500State
    from xtarot.games.fairy500.setup import BID_OF

    n = enc.players
    width = len(enc.cards)
    num_actions = enc.game.num_actions
    pos = _card_table(enc)
    cards = _card_writer(pos)
    seats = _seat_writer(enc, pos)
    phase_at, phase_other = _choice_table(enc, "phase")
    at, scale = _places(enc)
    o_totals = at["score_totals"]
    o_number, o_dealer, o_auction, o_passed = _starts(
        at, "hand_number", "dealer", "auction", "passed"
    )
    o_high, o_high_seat, o_declarer, o_called = _starts(
        at, "high_bid", "high_bidder", "declarer", "called"
    )
    o_partners, o_is_partner, o_kitty, o_discards = _starts(
        at, "partners", "is_partner", "kitty", "discards"
    )
    o_open, o_trick, o_won, o_tricks = _starts(at, "open_hand", "trick", "tricks_won", "tricks")
    s_totals, s_number = scale["score_totals"], scale["hand_number"]
    s_is_partner, s_won = scale["is_partner"], scale["tricks_won"]
    action_ids = enc._action_ids
    high_ids: dict[Any, list[int]] = {}  # a high bid -> its positions in the action list

    def seat(value: int | None, base: int, me: int) -> int:
        return base + (n if value is None else (value - me) % n)

    def move(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        add = ones.append
        h = st.h
        decl = h.declarer
        is_decl = me == decl
        add(phase_at.get(h.phase if not st.over else "over", phase_other))
        seats(h.hands, st.current_player, me, add, nums)
        for s in range(n):
            if h.passed[s]:
                add(o_passed + (s - me) % n)
        high = h.high
        if high is not None:
            found = high_ids.get(high)
            if found is None:
                found = high_ids[high] = []
                action_ids(BID_OF[high].text, found)
            for i in found:
                add(o_high + i)
        add(seat(h.high_seat, o_high_seat, me))
        contract = h.kind is not None and h.kind != "redeal"
        add(seat(decl if contract else None, o_declarer, me))
        cards(h.called, o_called, add)
        # the partners as the view shows them: those revealed, and the seat itself
        # when it holds (or has played) a called card
        partners = h.revealed
        me_partner = me != decl and me in h.revealed
        if me != decl and h.called and not me_partner:
            me_partner = any(c in h.called for c in h.hands[me] + h.played[me])
        for s in partners:
            add(o_partners + (s - me) % n)
        if me_partner:
            if me not in partners:
                add(o_partners)
            nums[o_is_partner] = float(me_partner) / s_is_partner
        if is_decl and h.kitty_taken:  # the kitty and discards: the declarer's own
            cards(h.kitty, o_kitty, add)
        if is_decl:
            cards(h.discards, o_discards, add)
        if h.open_shown and decl is not None:
            cards(h.hands[decl], o_open, add)
        trick = h.trick
        if trick is not None:
            for s, c in trick.plays:
                i = pos[c.index]
                if i >= 0:
                    add(o_trick + ((s - me) % n) * width + i)
        for s, x in enumerate(h.won):
            nums[o_won + (s - me) % n] = float(x or 0) / s_won

    def hand_key(st: Any, me: int) -> tuple[int, int]:
        # the totals change only when a hand's result is appended to ``results`` (its
        # ``result`` set at once); the dealer only with a new deal
        return (len(st.results), len(st.deals))

    def hand(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        h = st.h
        for s, x in enumerate(st.totals):
            nums[o_totals + (s - me) % n] = float(float(x) or 0) / s_totals
        number = len(st.results) + (0 if h.result is not None else 1)
        if number:
            nums[o_number] = float(number) / s_number
        ones.append(seat(h.dealer, o_dealer, me))

    def past_key(st: Any, me: int) -> tuple[int, int, int]:
        h = st.h
        return (len(st.deals), len(h.auction), len(h.done))  # a hand's bids and tricks only grow

    def past(st: Any, me: int, since: tuple[int, int, int] | None, ones: Ones, _: None) -> None:
        add = ones.append
        h = st.h
        auction = h.auction
        for s, text in auction[since[1] :] if since else auction:  # bids are public
            found: list[int] = []
            action_ids(text, found)
            base = o_auction + ((s - me) % n) * num_actions
            for i in found:
                add(base + i)
        done = h.done
        for _lead, plays, _winner in done[since[2] :] if since else done:
            for s, c in plays:
                i = pos[c.index]
                if i >= 0:
                    add(o_tricks + ((s - me) % n) * width + i)

    return Fairy500State, [
        Block("move", None, move),
        Block("hand", hand_key, hand),
        Block("past", past_key, past, grows=True),
    ]


def _matto(enc: Encoder) -> tuple[type, list[Block]]:
    """マット, in blocks: the majors won as they grow; the totals and dealer when a
    major is won; the rest (turn, hands, field, discard pile, known cards, purchase)
    at every observation."""
    from xtarot.games.matto import MattoState

    n = enc.players
    width = len(enc.cards)
    pos = _card_table(enc)
    cards = _card_writer(pos)
    seats = _seat_writer(enc, pos)
    phase_at, phase_other = _choice_table(enc, "phase")
    at, scale = _places(enc)
    o_totals = at["score_totals"]
    o_dealer, o_turn, o_field, o_majors, o_stock = _starts(
        at, "dealer", "turn", "field", "majors_left", "stock_left"
    )
    o_discard, o_top, o_known, o_won = _starts(
        at, "discard", "discard_top", "known_in_hands", "won"
    )
    o_buying, o_owed, o_last = at["buying"], at["buying_owed"], at["last_turn"]
    s_totals, s_turn = scale["score_totals"], scale["turn"]
    s_majors, s_stock, s_owed = scale["majors_left"], scale["stock_left"], scale["buying_owed"]
    s_last = scale["last_turn"]

    def move(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        add = ones.append
        phase = st.phase
        add(phase_at.get(phase, phase_other))
        seats(st.hands, st.current_player, me, add, nums)
        if st.turns:
            nums[o_turn] = float(st.turns) / s_turn
        cards(st.field, o_field, add)
        pile = len(st.pile)
        if pile:
            nums[o_majors] = float(pile) / s_majors
        stock = len(st.stock)
        if stock:
            nums[o_stock] = float(stock) / s_stock
        discard = st.discard
        cards(discard, o_discard, add)
        if discard:
            i = pos[discard[-1].index]
            if i >= 0:
                add(o_top + i)
        for s, known in enumerate(st.known):  # public: taken from the discard pile
            cards(known, o_known + ((s - me) % n) * width, add)
        buying = st.buying
        if buying is not None:
            i = pos[buying.index]
            if i >= 0:
                add(o_buying + i)
            cards(st.paid, o_buying, add)
            if st.owed:
                nums[o_owed] = float(st.owed) / s_owed
        last = phase != "over" and (not st.stock or not st.pile)
        if last:
            nums[o_last] = float(last) / s_last

    def score_key(st: Any, me: int) -> tuple[int, ...]:
        # the totals change only when a seat wins another major (the game's own cache
        # is keyed so too); the dealer stays for the hand
        return (st.dealer, *map(len, st.won))

    def score(st: Any, me: int, ones: Ones, nums: Nums) -> None:
        for s, x in enumerate(st._score_totals()):
            nums[o_totals + (s - me) % n] = float(x or 0) / s_totals
        ones.append(o_dealer + (st.dealer - me) % n)

    return MattoState, [
        Block("move", None, move),
        Block("score", score_key, score),
        _won_block(o_won, n, width, pos),
    ]


def _grail_mahjong(enc: Encoder) -> tuple[type, list[Block]]:
    """聖杯麻雀: see :mod:`xtarot.adapters.direct_grail`."""
    from xtarot.adapters.direct_grail import grail_mahjong

    return grail_mahjong(enc)


#: game id -> builder of its blocks: ``(state class, blocks)``
BLOCKS: dict[str, Callable[[Encoder], tuple[type, list[Block]]]] = {
    "sono-arcana": _sono_arcana,
    "extendori": _extendori,
    "fairy500": _fairy500,
    "matto": _matto,
    "arcana-duel": _arcana_duel,
    "grail-mahjong": _grail_mahjong,
}
