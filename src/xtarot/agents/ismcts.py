"""Information-set Monte Carlo tree search, generic over every game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012) for any number of
players, driven only through the engine contract:

- each iteration draws a *determinization*, a full world consistent with what the
  searching seat knows (``decision.sample_world``), never the true state;
- the tree is keyed by moves *as the searching seat sees them*
  (``state.action_seen_by``): an opponent's face-down card is one edge ``play ?``,
  so the tree never branches on hidden cards;
- a child's upper confidence bound uses its *availability count* (how often the
  move was legal when its parent was visited) in place of the parent's visits;
- each edge stores the reward of the seat that made the move, so every seat in the
  tree plays for itself; rewards are :func:`~xtarot.agents.base.utility` (win
  share first, score margin second);
- rollouts are random (or any rollout policy given as a function of the world);
  in a match of several hands they stop when the current hand ends (``horizon
  ="hand"``, the default) and the running scores are valued, which keeps each
  iteration short; ``horizon="match"`` plays to the end of the match.

>>> import xtarot
>>> from xtarot.agents import ISMCTSAgent, decision_for
>>> state = xtarot.load("sono-arcana", players=3).new_state(seed=1)
>>> bot = ISMCTSAgent(seed=1, iterations=50)
>>> bot.act(decision_for(state)) in state.legal_actions()
True
>>> bot.explain().moves[0].visits > 0
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from xtarot.agents.base import Decision, Explanation, MoveStat, utility
from xtarot.engine import Action, State

__all__ = ["ISMCTSAgent"]

RolloutPolicy = Callable[[State, random.Random], Action]


def random_rollout(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


class _Node:
    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


class ISMCTSAgent:
    """ISMCTS with a budget of ``iterations`` or ``seconds`` per move (whichever is
    given; both: the first reached).  ``c`` is the exploration constant."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        rollout: RolloutPolicy = random_rollout,
        horizon: str = "hand",
    ) -> None:
        if horizon not in ("hand", "match"):
            raise ValueError(f"horizon is 'hand' or 'match', not {horizon!r}")
        self.horizon = horizon
        if iterations is None and seconds is None:
            iterations = 1000
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self._last: Explanation | None = None
        self.last_iterations = 0

    def explain(self) -> Explanation | None:
        return self._last

    def act(self, decision: Decision) -> Action:
        legal = list(decision.legal)
        if len(legal) == 1:
            only = legal[0]
            self._last = Explanation(
                self.name, only.text, "the only legal move", "合法手はこれだけ", ()
            )
            return only
        root = _Node()
        seat = decision.seat
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, decision.sample_world(rng), seat, rng)
            done += 1
        self.last_iterations = done
        by_text = {a.text: a for a in legal}
        ranked = sorted(
            ((k, n) for k, n in root.children.items() if k in by_text),
            key=lambda kn: (kn[1].visits, kn[1].reward),
            reverse=True,
        )
        if not ranked:  # no iteration ran (a zero budget): fall back to a random move
            choice = legal[rng.randrange(len(legal))]
            self._last = Explanation(self.name, choice.text, "no search time", "探索なし")
            return choice
        total = sum(n.visits for _, n in ranked) or 1
        stats = tuple(
            MoveStat(k, n.visits, n.visits / total, n.reward / n.visits if n.visits else 0.0)
            for k, n in ranked
        )
        best = stats[0]
        en = f"{done} searches: {best.text} was tried most ({best.share:.0%}), " + (
            f"mean value {best.mean:.2f}"
        )
        top = ", ".join(f"{m.text} {m.share:.0%}/{m.mean:.2f}" for m in stats[:3])
        self._last = Explanation(
            self.name,
            best.text,
            f"{en}; top moves (visit share/value): {top}",
            f"{done}回の探索で「{best.text}」を最も多く試行（{best.share:.0%}、"
            f"平均評価 {best.mean:.2f}）。上位：{top}",
            stats,
        )
        return by_text[best.text]

    def _iterate(self, root: _Node, world: State, seat: int, rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        c = self.c
        hands = len(world.deals) if self.horizon == "hand" else -1
        while not world.is_terminal and len(world.deals) != hands + 1:
            actor: int = world.current_player  # type: ignore[assignment]
            groups: dict[str, list[Action]] = {}
            for a in world.legal_actions():
                groups.setdefault(world.action_seen_by(a, seat), []).append(a)
            children = node.children
            untried = []
            for key in groups:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
            if untried:
                key = untried[rng.randrange(len(untried))]
                child = children[key] = _Node()
                child.avail = 1
                options = groups[key]
                world.apply(options[rng.randrange(len(options))])
                path.append((child, actor))
                break
            best_key = ""
            best_score = -math.inf
            for key in groups:
                child = children[key]
                score = child.reward / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best_key, best_score = key, score
            options = groups[best_key]
            world.apply(options[rng.randrange(len(options))])
            node = children[best_key]
            path.append((node, actor))
        rollout = self.rollout
        if rollout is random_rollout:
            if len(world.deals) != hands + 1:
                world.random_playout(rng, hand_only=self.horizon == "hand")
        else:
            while not world.is_terminal and len(world.deals) != hands + 1:
                world.apply(rollout(world, rng))
        scores = world.scores()
        values = [utility(scores, s) for s in range(world.players)]
        root.visits += 1
        for n, actor in path:
            n.visits += 1
            n.reward += values[actor]
