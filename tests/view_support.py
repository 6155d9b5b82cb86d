"""What the view tests of games whose views keep parts share (issue #40)."""

from __future__ import annotations

import random
from collections.abc import Callable

from xtarot.agents import decision_for
from xtarot.agents.inference import WorldWeigher, inferred_decision
from xtarot.engine import Game, State, sample_world_weighted


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


def check_weighed_worlds_blind(
    truth: State,
    twin: State,
    seat: int,
    weigher: WorldWeigher,
    weight: Callable[[State], float],
    *,
    candidates: int,
    pool: int,
    seed: int,
) -> None:
    """A world weigher's worlds, through ``sample_world_weighted`` and through
    ``inferred_decision``'s pool, agree with ``seat``'s view and are the same from the
    true state and from ``twin``, a state the seat cannot tell from it (one random
    stream each): the weights (``weight``, the weigher's ``log_weight(seat)``) read
    nothing the seat has not seen."""
    view = truth.view(seat)
    for s in range(5):
        a = sample_world_weighted(truth, seat, random.Random(s), weight, candidates=candidates)
        b = sample_world_weighted(twin, seat, random.Random(s), weight, candidates=candidates)
        assert a.view(seat) == view
        assert a.snapshot() == b.snapshot()
    da = inferred_decision(decision_for(truth), weigher, pool=pool)
    db = inferred_decision(decision_for(twin), weigher, pool=pool)
    ra, rb = random.Random(seed), random.Random(seed)
    for _ in range(6):
        x, y = da.sample_world(ra), db.sample_world(rb)
        assert x.view(seat) == view
        assert x.snapshot() == y.snapshot()
