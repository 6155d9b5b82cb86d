"""The direct encoder of 聖杯麻雀 (grail-mahjong): ``tensors._grail_mahjong`` from the state.

As every direct encoder (see :mod:`xtarot.adapters.direct`), it writes the positions
the spec's field writers would find in ``state.view(seat)`` without building that
view, and reads only what the view shows the seat:

- its own hand, from its own hand mask (the other masks give only their sizes);
- the melds, areas and discards of every seat, which lie face up;
- the discard open to claims and who made it;
- its own latest claim answer (``my_answer``), never another seat's.

Where the view writes a card as text, the positions follow the text: a wild ``Oc``
in a meld is written ``Oc=3`` or ``Oc=5c`` and counts as ``Oc``; a meld's claimed
card is listed both among its cards and as ``claimed``, one position either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xtarot.adapters.direct import FastFn, _card_table, _choice_table, _places, _starts

if TYPE_CHECKING:
    from xtarot.adapters.tensors import Encoder

__all__ = ["grail_mahjong"]


def grail_mahjong(enc: Encoder) -> tuple[type, FastFn]:
    """聖杯麻雀: the fields of ``tensors._grail_mahjong`` from the state."""
    from xtarot.games.grail_mahjong.state import CARD_BITS, GrailMahjongState
    from xtarot.games.grail_mahjong.tables import BIT

    n = enc.players
    width = len(enc.cards)
    pos = _card_table(enc)
    phase_at, phase_other = _choice_table(enc, "phase")
    at, scale = _places(enc)
    o_cp, o_hand, o_sizes, o_totals = _starts(
        at, "current_player", "hand", "hand_sizes", "score_totals"
    )
    o_number, o_dealer, o_stock = _starts(at, "hand_number", "dealer", "stock_count")
    o_melds, o_areas, o_discards = _starts(at, "melds", "areas", "discards")
    o_claim, o_from, o_answer = _starts(at, "claim", "claim_from", "my_answer")
    s_sizes, s_totals = scale["hand_sizes"], scale["score_totals"]
    s_number, s_stock = scale["hand_number"], scale["stock_count"]
    # a hand mask's card bit (by ``bit_length``) -> the hand field's position (-1: a
    # card not in this configuration's set)
    in_hand = [-1] * (CARD_BITS.bit_length() + 1)
    for c, bit in BIT.items():
        i = pos[c.index]
        in_hand[bit.bit_length()] = -1 if i < 0 else o_hand + i

    def fast(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
        add = ones.append
        phase = st.phase
        over = phase == "over"
        add(phase_at.get(phase, phase_other))
        cp = st.current_player
        add(o_cp + (n if cp is None else (cp - me) % n))
        masks = st.masks
        mask = masks[me] & CARD_BITS  # the seat's own hand
        while mask:
            low = mask & -mask
            i = in_hand[low.bit_length()]
            if i >= 0:
                add(i)
            mask ^= low
        for s, m in enumerate(masks):  # hand sizes: public
            nums[o_sizes + (s - me) % n] = float((m & CARD_BITS).bit_count()) / s_sizes
        for s, x in enumerate(st.totals):
            nums[o_totals + (s - me) % n] = float(x) / s_totals
        number = len(st.results) + (0 if over else 1)
        if number:
            nums[o_number] = float(number) / s_number
        add(o_dealer + (st.deals[-1]["dealer"] - me) % n)
        stock = len(st.stock) - st.top
        if stock:
            nums[o_stock] = float(stock) / s_stock
        for s, ms in enumerate(st.melds):
            if ms:
                base = o_melds + ((s - me) % n) * width
                for m in ms:
                    for c in m.cards:
                        i = pos[c.index]
                        if i >= 0:
                            add(base + i)
                    c = m.claimed
                    if c is not None:
                        i = pos[c.index]
                        if i >= 0:
                            add(base + i)
        for s, area in enumerate(st.areas):
            if area:
                base = o_areas + ((s - me) % n) * width
                for c in area:
                    i = pos[c.index]
                    if i >= 0:
                        add(base + i)
        discards = st.discards
        for s, c in discards:
            i = pos[c.index]
            if i >= 0:
                add(o_discards + ((s - me) % n) * width + i)
        if phase == "claim":
            s, c = discards[-1]
            i = pos[c.index]
            if i >= 0:
                add(o_claim + i)
            add(o_from + (s - me) % n)
        else:
            add(o_from + n)
        answered = st._answered(me)
        if answered >= 0:
            add(o_answer + st.history[answered].id)

    return GrailMahjongState, fast
