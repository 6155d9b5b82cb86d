"""聖杯麻雀 (grail-mahjong)'s tensor (``tensors._grail_mahjong``) from the state, in blocks.

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

The blocks (see :mod:`xtarot.adapters.incremental`): the turn, the hands and the claim
rewritten at every look; the score totals, the hand's number and dealer once a hand;
the table (melds, areas, discards) read as it grows, anew when a meld or an area
gained a card (see ``table_key``).  Written in full, in turn, they are the direct
encoder (``direct.DIRECT["grail-mahjong"]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xtarot.adapters.direct import _card_table, _choice_table, _places, _starts

if TYPE_CHECKING:
    from xtarot.adapters.incremental import Block
    from xtarot.adapters.tensors import Encoder

__all__ = ["grail_mahjong"]

_CHUNK = 11  # hand-mask bits read at once (53 card bits: 5 reads, 5 x 2,048 entries)
_CHUNKS: dict[tuple[int, ...], list[list[tuple[int, ...]]]] = {}


def _chunk_tables(in_hand: tuple[int, ...], reads: int) -> list[list[tuple[int, ...]]]:
    """The hand read ``_CHUNK`` bits at a time: ``tables[k][b]`` are the positions of
    the cards whose bits are ``b << (_CHUNK * k)`` (``in_hand``: a card bit's
    ``bit_length`` -> its position, -1 for none).  Built once per layout."""
    tables = _CHUNKS.get(in_hand)
    if tables is None:
        tables = []
        for k in range(reads):
            table: list[tuple[int, ...]] = [()]
            for b in range(1, 1 << _CHUNK):
                low = b & -b  # b's positions: those of b without its lowest bit, and that one's
                p = in_hand[_CHUNK * k + low.bit_length()]
                table.append(table[b ^ low] + (p,) if p >= 0 else table[b ^ low])
            tables.append(table)
        _CHUNKS[in_hand] = tables
    return tables


def grail_mahjong(enc: Encoder) -> tuple[type, list[Block]]:
    """聖杯麻雀: the fields of ``tensors._grail_mahjong`` from the state, as blocks."""
    from xtarot.adapters.incremental import Block
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
    reads = -(-CARD_BITS.bit_length() // _CHUNK)
    in_hand = [-1] * (reads * _CHUNK + 1)
    for c, bit in BIT.items():
        i = pos[c.index]
        in_hand[bit.bit_length()] = -1 if i < 0 else o_hand + i
    chunks = _chunk_tables(tuple(in_hand), reads)
    low_bits = (1 << _CHUNK) - 1

    def move(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
        add = ones.append
        phase = st.phase
        add(phase_at.get(phase, phase_other))
        cp = st.current_player
        add(o_cp + (n if cp is None else (cp - me) % n))
        masks = st.masks
        mask = masks[me] & CARD_BITS  # the seat's own hand
        for chunk in chunks:
            ones += chunk[mask & low_bits]
            mask >>= _CHUNK
        for s, m in enumerate(masks):  # hand sizes: public
            nums[o_sizes + (s - me) % n] = float((m & CARD_BITS).bit_count()) / s_sizes
        stock = len(st.stock) - st.top
        if stock:
            nums[o_stock] = float(stock) / s_stock
        if phase == "claim":
            s, c = st.discards[-1]
            i = pos[c.index]
            if i >= 0:
                add(o_claim + i)
            add(o_from + (s - me) % n)
        else:
            add(o_from + n)
        answered = st._answered(me)
        if answered >= 0:
            add(o_answer + st.history[answered].id)

    def hand_key(st: Any, me: int) -> tuple[int, int]:
        return (len(st.deals), len(st.results))  # (a hand's end settles the totals)

    def hand(st: Any, me: int, ones: list[int], nums: dict[int, float]) -> None:
        for s, x in enumerate(st.totals):
            nums[o_totals + (s - me) % n] = float(x) / s_totals
        number = len(st.results) + (0 if st.phase == "over" else 1)
        if number:
            nums[o_number] = float(number) / s_number
        ones.append(o_dealer + (st.deals[-1]["dealer"] - me) % n)

    def table_key(st: Any, me: int) -> tuple[tuple[int, int], int]:
        # Within a hand the melds and areas only gain cards, and the discards only grow
        # but for a claim, which takes the last one into a meld.  The cards out of the
        # hands and the stock are those of the melds, areas and discards, so this count
        # of the melds' and areas' cards (the epoch, with the hand) says what they hold,
        # and with it the number of discards says what those are.
        shown = st.top - len(st.discards)
        for m in st.masks:
            shown -= (m & CARD_BITS).bit_count()
        return ((len(st.deals), shown), len(st.discards))

    def table(
        st: Any, me: int, since: tuple[tuple[int, int], int] | None, ones: list[int], _: None
    ) -> None:
        add = ones.append
        if since:  # only discards came
            for s, c in st.discards[since[1] :]:
                i = pos[c.index]
                if i >= 0:
                    add(o_discards + ((s - me) % n) * width + i)
            return
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
        for s, c in st.discards:
            i = pos[c.index]
            if i >= 0:
                add(o_discards + ((s - me) % n) * width + i)

    return GrailMahjongState, [
        Block("move", None, move),
        Block("hand", hand_key, hand),
        Block("table", table_key, table, grows=True),
    ]
