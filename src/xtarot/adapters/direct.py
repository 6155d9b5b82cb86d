"""Direct encoders: a game's tensor written straight from its state, no view built.

The tensor of a seat is defined by its view (:mod:`xtarot.adapters.tensors`): every
field reads one key of ``state.view(seat)``.  Building that view (a dict of fresh
lists) and then walking it is most of the cost of an observation, so a game may have
a *direct encoder*: a function that computes, from the state's own attributes, the
very positions and numbers the spec's writers would find in the view.  It must read
exactly what the view shows that seat and nothing more (a card hidden from the seat
is never touched), and ``tests/test_adapters_fast.py`` holds every direct encoder to
the reference encoding of the view, position by position, along random matches.

A direct encoder is used only for the built-in spec of its game (a replaced spec goes
the view's way) and only for states of the exact class it was written for.  Each
builder below takes the :class:`~xtarot.adapters.tensors.Encoder` (for its offsets,
card table and field writers) and returns ``(state class, function)``; the function
``fast(state, seat, ones, nums)`` appends positions holding ``1.0`` to ``ones`` and
sets ``nums[position] = value`` like a field writer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xtarot.cards import card

if TYPE_CHECKING:
    from xtarot.adapters.tensors import Encoder

__all__ = ["DIRECT", "FastFn"]

#: ``fast(state, seat, ones, nums)``: the positions of ``seat``'s tensor in ``state``
FastFn = Callable[[Any, int, list[int], dict[int, float]], None]


def _card_table(enc: Encoder) -> list[int]:
    """``Card.index`` -> the encoder's card position (-1: not in this game)."""
    table = [-1] * 113
    for code, pos in enc.index.items():
        table[card(code).index] = pos
    return table


def _choice_table(enc: Encoder, name: str) -> tuple[dict[Any, int], int]:
    """A choice field's ``value -> position`` table and its "none / other" position."""
    f, start = _field(enc, name)
    table: dict[Any, int] = {}
    for k, choice in enumerate(f.choices):
        table.setdefault(choice, start + k)
    return table, start + len(f.choices)


def _field(enc: Encoder, name: str) -> tuple[Any, int]:
    for f, start, _size in enc.offsets:
        if f.name == name:
            return f, start
    raise KeyError(f"{enc.game.id}: the tensor spec has no field {name!r}")


def _writer(enc: Encoder, name: str) -> Any:
    for (f, _start, _size), write in zip(enc.offsets, enc._writers, strict=True):
        if f.name == name:
            return write
    raise KeyError(f"{enc.game.id}: the tensor spec has no field {name!r}")


def _places(enc: Encoder) -> tuple[dict[str, int], dict[str, float]]:
    """Each field's first position and scale, by field name."""
    return (
        {f.name: start for f, start, _size in enc.offsets},
        {f.name: f.scale for f, _start, _size in enc.offsets},
    )


def _starts(at: dict[str, int], *names: str) -> tuple[int, ...]:
    """The first positions of these fields, in this order."""
    return tuple(at[name] for name in names)


def _card_writer(pos: list[int]) -> Callable[[Any, int, Any], None]:
    """``cards(held, base, add)``: the positions of a pile of cards in a one-hot block."""

    def cards(held: Any, base: int, add: Any) -> None:
        for c in held:
            i = pos[c.index]
            if i >= 0:
                add(base + i)

    return cards


def _seat_writer(enc: Encoder, pos: list[int]) -> Callable[..., None]:
    """``seats(hands, current, me, add, nums)``: the fields every spec has after its
    phase (``tensors.common_fields``): the seat to act, ``me``'s hand, every hand's size."""
    n = enc.players
    at, scale = _places(enc)
    o_cp, o_hand, o_sizes = _starts(at, "current_player", "hand", "hand_sizes")
    s_sizes = scale["hand_sizes"]

    def seats(hands: Any, cp: int | None, me: int, add: Any, nums: dict[int, float]) -> None:
        add(o_cp + (n if cp is None else (cp - me) % n))
        for c in hands[me]:
            i = pos[c.index]
            if i >= 0:
                add(o_hand + i)
        for s, h in enumerate(hands):
            nums[o_sizes + (s - me) % n] = float(len(h)) / s_sizes

    return seats


def _sono_arcana(enc: Encoder) -> tuple[type, FastFn]:
    """そのアルカナは欲しくない: the fields of ``tensors._sono_arcana`` from the state."""
    from xtarot.games.sono_arcana import SonoArcanaState

    n = enc.players
    width = len(enc.cards)
    pos = _card_table(enc)
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
    rounds = _writer(enc, "rounds")

    def fast(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
        add = ones.append
        phase = st.phase
        over = phase == "over"
        add(phase_at.get(phase, phase_other))
        seats(st.hands, st.current_player, me, add, nums)
        for s, x in enumerate(st._score_totals()):
            nums[o_totals + (s - me) % n] = float(x or 0) / s_totals
        add(o_parent + (n if over else (st.parent - me) % n))
        number = len(st.finished) + (0 if over else 1)
        if number:
            nums[o_round] = float(number) / s_round
        final = st.final_round and not over
        if final:
            nums[o_final] = float(final) / s_final
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
        for s, won in enumerate(st.won):
            base = o_won + ((s - me) % n) * width
            for c in won:
                i = pos[c.index]
                if i >= 0:
                    add(base + i)
        rounds({"rounds": st.rounds}, me, ones, nums)

    return SonoArcanaState, fast


def _matto(enc: Encoder) -> tuple[type, FastFn]:
    """マット: the fields of ``tensors._matto`` from the state."""
    from xtarot.games.matto import MattoState

    n = enc.players
    width = len(enc.cards)
    pos = _card_table(enc)
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

    cards = _card_writer(pos)

    def fast(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
        add = ones.append
        phase = st.phase
        add(phase_at.get(phase, phase_other))
        seats(st.hands, st.current_player, me, add, nums)
        for s, x in enumerate(st._score_totals()):
            nums[o_totals + (s - me) % n] = float(x or 0) / s_totals
        add(o_dealer + (st.dealer - me) % n)
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
        for s, won in enumerate(st.won):
            cards(won, o_won + ((s - me) % n) * width, add)
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

    return MattoState, fast


def _arcana_duel(enc: Encoder) -> tuple[type, FastFn]:
    """アルカナデュエル: the fields of ``tensors._arcana_duel`` from the state."""
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

    def fast(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
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
        buried = st.buried
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
            held = st.points[s]
            for c in held:
                if s == me or c not in buried:  # buried points stay face down
                    i = pos[c.index]
                    if i >= 0:
                        add(o_points + base + i)
            count = float(len(held))
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

    return ArcanaDuelState, fast


def _extendori(enc: Encoder) -> tuple[type, FastFn]:
    """エクステンドリ: the fields of ``tensors._extendori`` from the state."""
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
    o_leader, o_trick, o_points, o_voids = _starts(
        at, "trick_leader", "trick", "hand_points", "voids"
    )
    s_totals, s_number, s_batch = scale["score_totals"], scale["hand_number"], scale["batch"]
    s_stock, s_points, s_voids = scale["stock_count"], scale["hand_points"], scale["voids"]
    tricks = _writer(enc, "tricks")
    void_bit = _VOID_BITS.get

    def fast(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
        add = ones.append
        phase = st.phase
        playing = phase == "play"
        add(phase_at.get(phase, phase_other))
        seats(st.hands, st.current_player, me, add, nums)
        match, points = st.match_points, st.points
        individual = [match[s] + (points[s] if playing else 0) for s in range(n)]
        for s, x in enumerate(st._totals(individual)):
            nums[o_totals + (s - me) % n] = float(float(x) or 0) / s_totals
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
        trick = st.trick
        leader = trick.leader
        add(o_leader + (n if leader is None else (leader - me) % n))
        add(led_at.get(trick.led, led_other))
        for s, c in trick.plays:
            i = pos[c.index]
            if i >= 0:
                add(o_trick + ((s - me) % n) * width + i)
        tricks({"tricks": st._tricks_json()}, me, ones, nums)
        for s, x in enumerate(points):
            nums[o_points + (s - me) % n] = float(x or 0) / s_points
        for s, voids in enumerate(st.voids.voids[:n]):
            nums[o_voids + (s - me) % n] = float(sum(void_bit(v, 16) for v in voids)) / s_voids

    return ExtendoriState, fast


def _fairy500(enc: Encoder) -> tuple[type, FastFn]:
    """フェアリー500: the fields of ``tensors._fairy500`` from the state."""
    from xtarot.games.fairy500.game import Fairy500State
    from xtarot.games.fairy500.setup import BID_OF

    n = enc.players
    width = len(enc.cards)
    num_actions = enc.game.num_actions
    pos = _card_table(enc)
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
    o_open, o_trick, o_won = at["open_hand"], at["trick"], at["tricks_won"]
    s_totals, s_number = scale["score_totals"], scale["hand_number"]
    s_is_partner, s_won = scale["is_partner"], scale["tricks_won"]
    tricks = _writer(enc, "tricks")
    action_ids = enc._action_ids

    cards = _card_writer(pos)

    def seat(value: int | None, base: int, me: int) -> int:
        return base + (n if value is None else (value - me) % n)

    def fast(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
        add = ones.append
        h = st.h
        decl = h.declarer
        is_decl = me == decl
        add(phase_at.get(h.phase if not st.over else "over", phase_other))
        seats(h.hands, st.current_player, me, add, nums)
        for s, x in enumerate(st.totals):
            nums[o_totals + (s - me) % n] = float(float(x) or 0) / s_totals
        number = len(st.results) + (0 if h.result is not None else 1)
        if number:
            nums[o_number] = float(number) / s_number
        add(seat(h.dealer, o_dealer, me))
        for s, text in h.auction:  # bids are public
            found: list[int] = []
            action_ids(text, found)
            base = o_auction + ((s - me) % n) * num_actions
            for i in found:
                add(base + i)
        for s in range(n):
            if h.passed[s]:
                add(o_passed + (s - me) % n)
        if h.high is not None:
            found = []
            action_ids(BID_OF[h.high].text, found)
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
        tricks({"tricks": h.tricks}, me, ones, nums)
        for s, x in enumerate(h.won):
            nums[o_won + (s - me) % n] = float(x or 0) / s_won

    return Fairy500State, fast


def _grail_mahjong(enc: Encoder) -> tuple[type, FastFn]:
    """聖杯麻雀: see :mod:`xtarot.adapters.direct_grail`."""
    from xtarot.adapters.direct_grail import grail_mahjong

    return grail_mahjong(enc)


#: game id -> builder of its direct encoder
DIRECT: dict[str, Callable[[Encoder], tuple[type, FastFn]]] = {
    "sono-arcana": _sono_arcana,
    "matto": _matto,
    "arcana-duel": _arcana_duel,
    "extendori": _extendori,
    "fairy500": _fairy500,
    "grail-mahjong": _grail_mahjong,
}
