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
  iteration short; ``horizon="match"`` plays to the end of the match;
- ``workers=N`` runs N independent searches in separate processes (root
  parallelisation), each with the whole budget and its own seed drawn from the
  agent's, and adds up their root statistics: the same (seed, workers) gives the
  same move.  Processes are forked where the platform can; elsewhere (or inside
  a daemonic worker process) the N searches run one after another here, with the
  same result.

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
import multiprocessing
import random
import threading
import time
from collections.abc import Callable, Sequence
from operator import attrgetter

from xtarot.agents.base import MARGIN_WEIGHT, Decision, Explanation, MoveStat
from xtarot.engine import Action, State
from xtarot.engine.rand import below

__all__ = ["ISMCTSAgent"]

RolloutPolicy = Callable[[State, random.Random], Action]


def random_rollout(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


class _Node:
    __slots__ = ("avail", "children", "mean", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.mean = 0.0  # reward / visits, kept up to date by each visit


#: ``_LOGS[k] == math.log(k)`` for every availability count met so far (grown as needed):
#: the upper confidence bound of every child is asked for at every visit of its parent
_LOGS: list[float] = [-math.inf]
_TEXT = attrgetter("text")


#: root statistics of one search: move key -> (visits, summed reward), in the
#: order the moves were first tried
_RootStats = dict[str, tuple[int, float]]


def _utilities(
    totals: Sequence[float],
    ranks: Sequence[int],
    margin: float = MARGIN_WEIGHT,
    points: float = 1.0,
) -> list[float]:
    """:func:`~xtarot.agents.base.utility` of every seat at once, the same numbers:
    the win share plus a small bonus or malus for the margin over the best other seat
    (``margin`` times the margin over twice the largest absolute total, or over twice
    ``points`` when the totals are all smaller; the defaults are ``utility``'s)."""
    n = len(totals)
    k = ranks.count(1)
    wins = [1.0 / k if r == 1 else 0.0 for r in ranks]
    if n < 2:
        return wins
    scale = max(points, max(map(abs, totals)))
    top = max(totals)
    leader = totals.index(top)
    second = max([*totals[:leader], *totals[leader + 1 :]])  # (the best of the others)
    return [
        wins[s] + margin * (totals[s] - (second if s == leader else top)) / (2 * scale)
        for s in range(n)
    ]


class ISMCTSAgent:
    """ISMCTS with a budget of ``iterations`` or ``seconds`` per move (whichever is
    given; both: the first reached).  ``c`` is the exploration constant; ``workers``
    independent searches are run side by side in processes (the budget is each
    one's)."""

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
        workers: int = 1,
    ) -> None:
        if horizon not in ("hand", "match"):
            raise ValueError(f"horizon is 'hand' or 'match', not {horizon!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers is a whole number of processes, 1 or more, not {workers!r}")
        self.horizon = horizon
        if iterations is None and seconds is None:
            iterations = 1000
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self.workers = workers
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
        rng = self.rng
        if self.workers > 1:
            stats, done = _root_parallel(
                self, decision, [rng.getrandbits(64) for _ in range(self.workers)]
            )
        else:
            stats, done = self._search(decision, rng)
        self.last_iterations = done
        by_text = {a.text: a for a in legal}
        ranked = sorted(
            ((k, v) for k, v in stats.items() if k in by_text),
            key=lambda kv: kv[1],
            reverse=True,
        )
        if not ranked:  # no iteration ran (a zero budget): fall back to a random move
            choice = legal[rng.randrange(len(legal))]
            self._last = Explanation(self.name, choice.text, "no search time", "探索なし")
            return choice
        total = sum(visits for _, (visits, _) in ranked) or 1
        stats_out = tuple(
            MoveStat(k, visits, visits / total, reward / visits if visits else 0.0)
            for k, (visits, reward) in ranked
        )
        best = stats_out[0]
        en = f"{done} searches: {best.text} was tried most ({best.share:.0%}), " + (
            f"mean value {best.mean:.2f}"
        )
        top = ", ".join(f"{m.text} {m.share:.0%}/{m.mean:.2f}" for m in stats_out[:3])
        self._last = Explanation(
            self.name,
            best.text,
            f"{en}; top moves (visit share/value): {top}",
            f"{done}回の探索で「{best.text}」を最も多く試行（{best.share:.0%}、"
            f"平均評価 {best.mean:.2f}）。上位：{top}",
            stats_out,
        )
        return by_text[best.text]

    def _search(self, decision: Decision, rng: random.Random) -> tuple[_RootStats, int]:
        """One search from ``decision`` drawing from ``rng``: its root statistics and
        how many iterations it ran."""
        root = _Node()
        seat = decision.seat
        sample = decision.sample_world
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, sample(rng), seat, rng)
            done += 1
        return {k: (n.visits, n.reward) for k, n in root.children.items()}, done

    def _iterate(self, root: _Node, world: State, seat: int, rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        c = self.c
        sqrt = math.sqrt
        logs = _LOGS
        while len(logs) <= root.visits + 1:  # (no availability count exceeds it)
            logs.append(math.log(len(logs)))
        hands = len(world.deals) if self.horizon == "hand" else -1
        while not world.is_terminal and len(world.deals) != hands + 1:
            actor: int = world.current_player  # type: ignore[assignment]
            legal = world.legal_actions()
            groups: list[list[Action]] | None = None
            keys: list[str] | None = None
            if world._may_mask_for(seat):
                # moves the seat cannot tell apart share one edge (e.g. ``play ?``)
                grouped: dict[str, list[Action]] = {}
                seen = world.action_seen_by
                for a in legal:
                    grouped.setdefault(seen(a, seat), []).append(a)
                keys = list(grouped)
                groups = list(grouped.values())
            children = node.children
            # each move's child (None: never tried), looked up without a Python loop
            kids = list(map(children.get, keys if keys is not None else map(_TEXT, legal)))
            expand = False
            best_child: _Node | None = None
            best_score = -math.inf
            for child in kids:  # (most of the tree work: kept to the bare steps)
                if child is None:
                    expand = True
                    continue
                avail = child.avail = child.avail + 1
                # (scores of a position with an untried move go unused, as before)
                score = child.mean + c * sqrt(logs[avail] / child.visits)
                if score > best_score:
                    best_child, best_score = child, score
            if expand:
                untried = [i for i, kid in enumerate(kids) if kid is None]
                i = untried[below(rng, len(untried))]
                child = _Node()
                children[keys[i] if keys is not None else legal[i].text] = child
                child.avail = 1
                world._apply_listed(_pick(groups, legal, i, rng))
                path.append((child, actor))
                break
            assert best_child is not None
            world._apply_listed(_pick(groups, legal, kids.index(best_child), rng))
            node = best_child
            path.append((node, actor))
        rollout = self.rollout
        if rollout is random_rollout and len(world.deals) != hands + 1:
            # the world is dropped afterwards: only the standing is wanted
            standing = world._random_standing(rng, hand_only=self.horizon == "hand")
        else:
            while not world.is_terminal and len(world.deals) != hands + 1:
                world.apply(rollout(world, rng))
            standing = world._standing()
        values = _utilities(*standing)
        root.visits += 1
        for n, actor in path:
            visits = n.visits = n.visits + 1
            reward = n.reward = n.reward + values[actor]
            n.mean = reward / visits


def _pick(
    groups: list[list[Action]] | None, legal: Sequence[Action], i: int, rng: random.Random
) -> Action:
    """The action of edge ``i``: one of its group, drawn at random (a lone action
    is still drawn for, so the random stream does not depend on the masking)."""
    options = groups[i] if groups is not None else (legal[i],)
    return options[below(rng, len(options))]


# -- root parallelisation ------------------------------------------------------------------
#: what forked workers read: (agent, decision); set only while a pool is started
_JOB: tuple[ISMCTSAgent, Decision] | None = None
_JOB_LOCK = threading.Lock()


def _worker(seed: int) -> tuple[list[tuple[str, int, float]], int]:
    assert _JOB is not None, "an ISMCTS worker started without a search to run"
    agent, decision = _JOB
    stats, done = agent._search(decision, random.Random(seed))
    return [(k, v, r) for k, (v, r) in stats.items()], done


def _root_parallel(
    agent: ISMCTSAgent, decision: Decision, seeds: list[int]
) -> tuple[_RootStats, int]:
    """Independent searches, one per seed, and their root statistics summed (in seed
    order, so the sums do not depend on which process finished first)."""
    global _JOB
    # a daemonic process (say, a worker of a tournament pool) may not start children
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    if can_fork and not multiprocessing.current_process().daemon:
        with _JOB_LOCK:
            _JOB = (agent, decision)
            try:
                with multiprocessing.get_context("fork").Pool(len(seeds)) as pool:
                    results = pool.map(_worker, seeds, chunksize=1)
            finally:
                _JOB = None
    else:  # no fork (Windows) or no children allowed: the same searches, one by one
        results = []
        for seed in seeds:
            stats, done = agent._search(decision, random.Random(seed))
            results.append(([(k, v, r) for k, (v, r) in stats.items()], done))
    merged: dict[str, list[float]] = {}
    total = 0
    for stats_list, done in results:
        total += done
        for k, v, r in stats_list:
            acc = merged.setdefault(k, [0, 0.0])
            acc[0] += v
            acc[1] += r
    return {k: (int(v), r) for k, (v, r) in merged.items()}, total
