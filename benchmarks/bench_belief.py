"""How long a belief model takes at play time (docs/agents.md, *The belief model*).

For each model file given: over positions of heuristic self-play of its game, the time
of its parts — the view's features, the network's correction, ``log_weight(view)`` (the
two together, once per view) and its weight of a world, the probabilities from the
prior's counts, the uniform worlds the prior needs, and a weighted world.  Times are
the process's CPU time (so that the other jobs of a shared machine do not count); the
model's own parts are the fastest of 5 passes over the positions, the worlds' one pass.

    python benchmarks/bench_belief.py belief-fairy500-4p.npz [...] [--positions 60]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

import xtarot
from xtarot.adapters.belief import BeliefModel
from xtarot.agents import decision_for, make_agent
from xtarot.engine import sample_world_weighted


def positions(model: BeliefModel, count: int, seed: int) -> list[tuple[Any, int]]:
    game = xtarot.load(model.game, players=model.players, **model.meta["options"])
    out: list[tuple[Any, int]] = []
    rng = random.Random(seed)
    while len(out) < count:
        state = game.new_state(seed=rng.getrandbits(32))
        agents = [make_agent("heuristic", k) for k in range(game.players)]
        step = 0
        while not state.is_terminal and len(out) < count:
            seat = state.current_player
            assert seat is not None
            if step % 7 == 3:
                out.append((state.clone(), seat))
            state.apply(agents[seat].act(decision_for(state, peek=True)))
            step += 1
    return out


def per_call(fn: Any, items: list[Any], repeat: int = 1) -> float:
    """CPU seconds a call (the process's, every thread's: the other jobs of a busy
    machine are not counted, numpy's helper threads are), over every item: the
    fastest of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return best / len(items)


def bench(path: str, count: int) -> dict[str, Any]:
    model = BeliefModel.load(path)
    pos = positions(model, count, 1)
    views = [s.view(seat) for s, seat in pos]
    feats = [model.features(v) for v in views]
    rng = random.Random(2)
    worlds = [[s.sample_world(seat, rng) for _ in range(model.prior_draws)] for s, seat in pos]
    counts = [model.prior_counts(w, seat) for w, (_, seat) in zip(worlds, pos, strict=True)]
    open_ = [c.sum(axis=0) > 0 for c in counts]
    weights = [model.log_weight(v) for v in views]
    out = {
        "model": path,
        "game": model.game,
        "players": model.players,
        "positions": len(pos),
        "inputs": int(model.w1.shape[0]),
        "parameters": model.parameters,
        "features_us": 1e6 * per_call(model.features, views, 5),
        "network_us": 1e6 * per_call(model.correction, feats, 5),
        # what a weighted world pays once per view: the events and the network
        "log_weight_us": 1e6 * per_call(model.log_weight, views, 5),
        "weight_a_world_us": 1e6
        * per_call(lambda k: weights[k](worlds[k][0]), list(range(len(pos))), 5),
        "probabilities_from_counts_us": 1e6
        * per_call(
            lambda k: model.log_probs(feats[k], counts[k][None], open_[k][None]),
            list(range(len(pos))),
            5,
        ),
        "prior_worlds_ms": 1e3
        * per_call(lambda p: [p[0].sample_world(p[1], rng) for _ in range(model.prior_draws)], pos),
        "weighted_world_16_ms": 1e3
        * per_call(
            lambda k: sample_world_weighted(
                pos[k][0], pos[k][1], rng, model.log_weight(views[k]), candidates=16
            ),
            list(range(len(pos))),
        ),
        "uniform_world_ms": 1e3 * per_call(lambda p: p[0].sample_world(p[1], rng), pos),
    }
    assert np.isfinite(out["network_us"])
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="+")
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    for path in args.models:
        print(json.dumps(bench(path, args.positions)))


if __name__ == "__main__":
    main()
