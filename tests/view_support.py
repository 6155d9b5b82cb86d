"""What the view tests of games whose views keep parts share (issue #40)."""

from __future__ import annotations

import random

from xtarot.engine import Game, State


def check_views_of_diverging_copies(game: Game, share: float, seeds: int = 3) -> None:
    """Play seeded random matches of ``game``, reading a view at every step (so the
    state keeps its parts) and cloning about ``share`` of the positions; then play each
    clone on its own way to the end, holding every view it gives, for the seat to act
    and another seat, equal to the view of a fresh clone (which keeps nothing yet)."""
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
                for seat in (other.current_player or 0, 1):
                    assert other.peek_view(seat) == other.clone().view(seat)
                if other.is_terminal:
                    break
                legal = other.legal_actions()
                other.apply(legal[rng.randrange(len(legal))])
