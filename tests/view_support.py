"""What the view tests of games whose views keep parts share (issue #40)."""

from __future__ import annotations

import random
from collections.abc import Callable

from xtarot.engine import Game, State


def check_views_of_diverging_copies(
    game: Game,
    share: float,
    seeds: int = 3,
    fresh: Callable[[State], State] | None = None,
) -> None:
    """Play seeded random matches of ``game``, reading a view at every step (so the
    state keeps its parts) and cloning about ``share`` of the positions; then play each
    clone on its own way to the end, holding every view it gives, for the seat to act
    and the next one, and the public view, equal (key order included) to the views of
    ``fresh(clone)``: a copy that keeps nothing yet (by default a clone, for games whose
    clones start without the kept parts)."""
    make = fresh if fresh is not None else State.clone
    for seed in range(seeds):
        rng = random.Random(seed)
        st = game.new_state(seed=seed)
        copies: list[State] = []
        while not st.is_terminal:
            st.peek_view(st.current_player)  # keeps its parts, which copies inherit
            if rng.random() < share:
                copies.append(st.clone())
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        assert copies
        for other in copies:
            while True:
                bare = make(other)
                first = other.current_player or 0
                for seat in (first, (first + 1) % game.players):
                    got, want = other.peek_view(seat), bare.view(seat)
                    assert got == want and list(got) == list(want)
                assert other.peek_public_view() == bare.public_view()
                if other.is_terminal:
                    break
                legal = other.legal_actions()
                other.apply(legal[rng.randrange(len(legal))])
                assert other.peek_view(0)["scores"] == other.scores().to_dict()
