"""Whist's tensor fields: the adapters encode a view with them, bit for bit."""

from __future__ import annotations

import xtarot
from xtarot.adapters.tensors import encoder_for, tensor_spec

from xtarot_whist.tensors import fields


def test_the_entry_point_gives_the_adapters_whists_fields() -> None:
    assert tensor_spec("whist") is fields


def test_fields_encode_trump_tricks_and_voids() -> None:
    game = xtarot.load("whist")
    encoder = encoder_for(game)
    names = [f.name for f, _, _ in encoder.offsets]
    assert names[:5] == ["phase", "current_player", "hand", "hand_sizes", "score_totals"]
    assert encoder.size == 565 and len(encoder.cards) == 52
    deal = {
        "hands": [[r + s for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()] for s in "cdsw"],
        "dealer": 3,
        "trump": "Aw",
    }
    state = game.new_state(deal=deal, seed=1)
    for text in ("play Ac", "play Ad", "play As", "play 2w"):
        state.apply(text)
    view = state.view(3)
    vector = encoder.encode(view)
    at = {f.name: (start, size) for f, start, size in encoder.offsets}
    start, _ = at["trump"]
    assert vector[start : start + 5] == [0.0, 0.0, 0.0, 1.0, 0.0]  # trees
    start, size = at["trump_card"]
    assert vector[start + encoder.index["Aw"]] == 1.0 and sum(vector[start : start + size]) == 1
    # per-seat numbers start from the viewer (seat 3), then seats 0, 1, 2
    start, _ = at["tricks_won"]
    assert vector[start : start + 4] == [1 / 13, 0.0, 0.0, 0.0]
    start, _ = at["voids"]  # seats 1, 2 and 3 have shown no cups (bit 1)
    assert vector[start : start + 4] == [1 / 15, 0.0, 1 / 15, 1 / 15]
    start, size = at["tricks"]
    assert sum(vector[start : start + size]) == 4  # the four cards of the first trick
