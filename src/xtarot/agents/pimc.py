"""Perfect-information Monte Carlo (determinized flat search), for comparison.

For each of ``worlds`` determinizations drawn with ``decision.sample_world`` the bot
tries every legal move once and finishes the game with random play; the move with
the best mean :func:`~xtarot.agents.base.utility` over all worlds wins.  It is
simple and strong where hidden information matters little, and it shows the
classic weaknesses (strategy fusion) that ISMCTS avoids.

>>> import xtarot
>>> from xtarot.agents import PIMCAgent, decision_for
>>> state = xtarot.load("sono-arcana", players=3).new_state(seed=2)
>>> PIMCAgent(seed=1, worlds=4).act(decision_for(state)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
import time

from xtarot.agents.base import Decision, Explanation, MoveStat, utility
from xtarot.engine import Action

__all__ = ["PIMCAgent"]


class PIMCAgent:
    """Determinized flat Monte Carlo: ``worlds`` samples (or ``seconds`` of them)."""

    name = "pimc"

    def __init__(
        self, seed: int | None = None, *, worlds: int | None = None, seconds: float | None = None
    ) -> None:
        if worlds is None and seconds is None:
            worlds = 30
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.seconds = seconds
        self._last: Explanation | None = None

    def explain(self) -> Explanation | None:
        return self._last

    def act(self, decision: Decision) -> Action:
        legal = list(decision.legal)
        if len(legal) == 1:
            self._last = Explanation(
                self.name, legal[0].text, "the only legal move", "合法手はこれだけ"
            )
            return legal[0]
        rng = self.rng
        totals = [0.0] * len(legal)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.worlds is not None and done >= self.worlds:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            world = decision.sample_world(rng)
            for i, action in enumerate(legal):
                trial = world.clone() if i < len(legal) - 1 else world
                trial.apply(action)
                trial.random_playout(rng)  # uniformly random legal moves to the end
                totals[i] += utility(trial.scores(), decision.seat)
            done += 1
        means = [t / max(done, 1) for t in totals]
        order = sorted(range(len(legal)), key=lambda i: means[i], reverse=True)
        stats = tuple(MoveStat(legal[i].text, done, 1 / len(legal), means[i]) for i in order)
        best = stats[0]
        self._last = Explanation(
            self.name,
            best.text,
            f"best mean value {best.mean:.2f} over {done} sampled deals",
            f"{done}通りの推定配札で平均評価 {best.mean:.2f} が最良",
            stats,
        )
        return legal[order[0]]
