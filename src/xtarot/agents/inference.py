"""Inference by policy: the other seats' past moves say where the unseen cards are.

A world drawn by ``state.sample_world(seat, rng)`` agrees with everything the seat has
seen, but every such world is equally likely to the uniform sampler.  The other seats'
decisions are evidence: a seat that led a low club, passed in the auction or let a
discard go would, holding some hands, have done otherwise.  :class:`PolicyInference`
weighs a world by the likelihood of the other seats' observed moves had they held that
world's cards and played by a *model policy* (by default the game's ``heuristic``,
which is deterministic): the world's current hand is replayed from its deal, and at
each decision of another seat with a choice, that seat's view *in the world* is handed
to the policy; a move the policy also chooses counts ``1 - epsilon``, any other move
``epsilon / (legal - 1)``.  This is how strong Skat programs weigh their deals.

The weight is a function of the world alone (its deals and public history, which
``sample_world`` drew from the seat's view), never of the true state.  It plugs into
``xtarot.engine.sample_world_weighted`` (:meth:`PolicyInference.log_weight`) or, for a
search bot, :func:`inferred_decision`, whose worlds are resampled from a weighted pool.
See docs/agents.md, *Inference by policy*.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from xtarot.agents.base import Agent, Decision, Explanation
from xtarot.engine import Action, State
from xtarot.engine.errors import XtarotError

__all__ = [
    "Check",
    "InferringAgent",
    "PolicyInference",
    "WorldWeigher",
    "inferred_decision",
    "log_likelihood_of",
]

#: the default chance that the model policy's move is not the one a seat makes
EPSILON = 0.5
#: the default cap on the decisions a world is checked at (the cost of a world)
MAX_CHECKS = 8


@dataclass(frozen=True, slots=True)
class Check:
    """One checked decision of another seat: whether the model policy chose the move
    that was made there, among how many legal moves."""

    matched: bool
    legal: int


def log_likelihood_of(checks: Sequence[Check], epsilon: float) -> float:
    """``sum log P(move)``: ``1 - epsilon`` for a matched move, ``epsilon / (legal - 1)``
    for another.

    >>> round(log_likelihood_of([Check(True, 3), Check(False, 3)], 0.2), 4)
    -2.5257
    """
    hit = math.log1p(-epsilon)
    total = 0.0
    for c in checks:
        total += hit if c.matched else math.log(epsilon / (c.legal - 1))
    return total


def _swap(deal: dict[str, Any], a: str, b: str) -> bool:
    """Swap cards ``a`` and ``b`` wherever they lie in a deal's (nested) lists."""
    spots: dict[str, tuple[list[Any], int]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for i, x in enumerate(node):
                if isinstance(x, str):
                    if x in (a, b):
                        spots[x] = (node, i)
                else:
                    walk(x)
        elif isinstance(node, dict):
            for x in node.values():
                walk(x)

    walk(deal)
    if len(spots) != 2:
        return False
    (la, ia), (lb, ib) = spots[a], spots[b]
    la[ia], lb[ib] = b, a
    return True


def _movable(worlds: Sequence[State]) -> set[str]:
    """The cards of the places (zones) where the worlds put different cards."""
    zones = [w.zones() for w in worlds]
    varying = {z for z in zones[0] if any(set(o.get(z, ())) != set(zones[0][z]) for o in zones)}
    return {c for z in zones for name in varying for c in z.get(name, ())}


def _no_worlds(rng: random.Random) -> State:
    raise RuntimeError("the model policy is asked for a move, not to search")


class PolicyInference:
    """Weigh worlds by how well a model policy explains the other seats' moves.

    ``policy``: a bot name for ``xtarot.agents.make_agent`` (default ``heuristic``; it
    should be deterministic, or the weights are noisy); ``epsilon``: the chance the
    model gives to a move its policy would not make (larger is softer: a world that
    disagrees with the policy now and then is not ruled out, which matters when the
    other seats play otherwise); ``max_checks``: at most this many decisions are
    checked per world (the cost of a world is about ``max_checks`` policy decisions and
    one or two replays of the match): with ``newest`` (the default) the other seats'
    last ``max_checks`` decisions of the current hand (a forced move among them says
    nothing and is skipped), else their first ``max_checks`` decisions with a choice.
    Measured, the newest are worth more: fairy500's auction, the first decisions,
    rules out so many uniform worlds that too few keep any weight.

    Only the current hand is checked: an earlier hand's moves tell nothing about this
    hand's cards.  A seat's own moves are never checked (it knows its cards).
    """

    def __init__(
        self,
        *,
        policy: str = "heuristic",
        epsilon: float = EPSILON,
        max_checks: int = MAX_CHECKS,
        newest: bool = True,
        seed: int = 0,
    ) -> None:
        if not 0.0 < epsilon < 1.0:
            raise ValueError(f"epsilon must be between 0 and 1 (excluded), not {epsilon!r}")
        if isinstance(max_checks, bool) or not isinstance(max_checks, int) or max_checks < 0:
            raise ValueError(f"max_checks must be a whole number >= 0, not {max_checks!r}")
        self.policy = policy
        self.epsilon = float(epsilon)
        self.max_checks = max_checks
        self.newest = newest
        self.seed = seed
        self._plan: tuple[tuple[int, ...], list[int]] | None = None
        self._agents: dict[int, Agent] = {}
        self._peek: dict[int, bool] = {}

    def _agent(self, seat: int) -> Agent:
        agent = self._agents.get(seat)
        if agent is None:
            from xtarot.agents import make_agent  # the registry imports this module's users

            agent = self._agents[seat] = make_agent(self.policy, self.seed + 7919 * seat)
            self._peek[seat] = bool(getattr(agent, "reads_view_only", False))
        return agent

    def checks(self, world: State, seat: int, limit: int | None = None) -> list[Check]:
        """Replay ``world`` and check the model policy at the other seats' decisions of
        its current hand (those with more than one legal move, the first ``limit`` of
        them; default ``max_checks``), in order."""
        limit = self.max_checks if limit is None else limit
        if limit == 0 or not world.history:
            return []
        chosen = self._chosen(world, seat, limit)
        got = self._replay(world, copy.deepcopy(world.deals), seat, limit, None, None, chosen)
        assert got is not None  # a world replays its own history
        return got[1]

    def _chosen(self, world: State, seat: int, limit: int) -> set[int] | None:
        """With ``newest``: the steps of the other seats' last ``limit`` decisions of
        the current hand.  Who acts when is public, the same in every world of a
        position, so it is found once per position (one replay) and kept."""
        if not self.newest:
            return None
        key = (seat, *(a.id for a in world.history))
        if self._plan is None or self._plan[0] != key:
            replay = world.game._start(0, random.Random(0), copy.deepcopy(world.deals))
            hand = len(world.deals)
            steps = []
            for step, action in enumerate(world.history):
                actor = replay.current_player
                if len(replay.deals) == hand and actor is not None and actor != seat:
                    steps.append(step)
                replay.apply(action)
            self._plan = (key, steps)
        return set(self._plan[1][-limit:])

    def _replay(
        self,
        world: State,
        deals: list[dict[str, Any]],
        seat: int,
        limit: int,
        refs: dict[int, dict[str, Any]] | None,
        rng: random.Random | None,
        chosen: set[int] | None = None,
    ) -> tuple[State, list[Check]] | None:
        """Replay ``world``'s history on ``deals``, checking the policy (at the steps
        ``chosen``, or else at the first ``limit`` other seats' decisions with a
        choice); with ``refs`` (step -> the seat's view there), the whole history is
        replayed and ``None`` returned where a move is illegal or the seat's view
        differs."""
        if rng is None:
            replay = world.game._start(0, random.Random(0), deals)
        else:
            replay = world.game._start(
                rng.getrandbits(48), random.Random(rng.getrandbits(48)), deals
            )
        hand = len(deals)
        out: list[Check] = []
        history = world.history
        last = max(chosen) if chosen else -1
        for step, action in enumerate(history):
            actor = replay.current_player
            if len(replay.deals) == hand:
                if refs is not None and step in refs and replay.view(seat) != refs[step]:
                    return None
                ask = (step in chosen) if chosen is not None else len(out) < limit
                if ask and actor is not None and actor != seat:
                    legal = replay.legal_actions()
                    if len(legal) > 1:
                        agent = self._agent(actor)
                        view = replay.peek_view(actor) if self._peek[actor] else replay.view(actor)
                        move = agent.act(Decision(actor, view, legal, _no_worlds))
                        out.append(Check(move.id == action.id, len(legal)))
                    done = step >= last if chosen is not None else len(out) >= limit
                    if done and refs is None:
                        return replay, out
            try:
                replay.apply(action)
            except (XtarotError, ValueError, KeyError):  # the swap broke a past move
                return None
        if refs is not None and len(history) in refs and replay.view(seat) != refs[len(history)]:
            return None
        return replay, out

    def chain(
        self, start: State, seat: int, rng: random.Random, steps: int, movable: set[str]
    ) -> list[State]:
        """A Metropolis chain over the worlds of ``seat`` with the policy's likelihood as
        the target (the uniform sampler's distribution times the likelihood), from
        ``start`` (a world ``sample_world`` drew): each step swaps two ``movable`` cards
        lying in different places in the current hand's deal; a swap that makes a past
        move illegal or changes what the seat saw at any of its decisions (or now) is
        refused, so every world of the chain agrees with the seat's view.  Returns the
        chain's world after each step (``steps`` worlds, repeats included)."""
        refs: dict[int, dict[str, Any]] = {}
        probe = start.game._start(0, random.Random(0), copy.deepcopy(start.deals))
        hand = len(start.deals)
        for step, action in enumerate(start.history):
            if len(probe.deals) == hand and probe.current_player == seat:
                refs[step] = probe.view(seat)
            probe.apply(action)
        refs[len(start.history)] = probe.view(seat)
        current = start
        here = log_likelihood_of(self.checks(start, seat), self.epsilon)
        chosen = self._chosen(start, seat, self.max_checks)
        out: list[State] = []
        for _ in range(steps):
            where = {c: z for z, cards in current.zones().items() for c in cards if c in movable}
            cards = sorted(where)
            first = cards[rng.randrange(len(cards))] if cards else None
            others = [c for c in cards if where[c] != where.get(first or "")]
            if first is not None and others:
                second = others[rng.randrange(len(others))]
                deals = copy.deepcopy(current.deals)
                if _swap(deals[-1], first, second):
                    got = self._replay(current, deals, seat, self.max_checks, refs, rng, chosen)
                    if got is not None:
                        there = log_likelihood_of(got[1], self.epsilon)
                        if there >= here or rng.random() < math.exp(there - here):
                            current, here = got[0], there
            out.append(current)
        return out

    def posterior_worlds(
        self, sample: Callable[[random.Random], State], seat: int, rng: random.Random,
        *, chains: int = 4, steps: int = 32, burn: int = 8, tries: int = 4,
    ) -> list[State]:  # fmt: skip
        """Worlds drawn from the policy's posterior: ``chains`` Metropolis chains
        (:meth:`chain`) of ``steps`` steps, the first ``burn`` of each dropped.  Each
        chain starts from the likeliest of ``tries`` worlds of ``sample`` (the seat's
        uniform sampler), which shortens the burn-in.  The cards that may move are those
        lying in places where these starting worlds differ."""
        if chains < 1 or tries < 1 or not 0 <= burn < steps:
            raise ValueError("need chains >= 1, tries >= 1 and 0 <= burn < steps")
        drawn = [sample(rng) for _ in range(chains * tries)]
        movable = _movable(drawn)
        out: list[State] = []
        for k in range(chains):
            group = drawn[k * tries : (k + 1) * tries]
            start = (
                max(group, key=lambda w: self.log_likelihood(w, seat)) if tries > 1 else group[0]
            )
            out.extend(self.chain(start, seat, rng, steps, movable)[burn:])
        return out

    def log_likelihood(self, world: State, seat: int) -> float:
        """The log-likelihood of the other seats' moves in ``world`` under the policy."""
        return log_likelihood_of(self.checks(world, seat), self.epsilon)

    def log_weight(self, seat: int) -> Callable[[State], float]:
        """``log_weight`` for ``xtarot.engine.sample_world_weighted`` (worlds of ``seat``)."""
        return lambda world: self.log_likelihood(world, seat)


class WorldWeigher(Protocol):
    """Anything that weighs a seat's worlds: :class:`PolicyInference`, or the auction
    evidence of fairy500 (:class:`xtarot.agents.auction_evidence.AuctionEvidence`)."""

    def log_likelihood(self, world: State, seat: int) -> float: ...


def inferred_decision(
    decision: Decision,
    inference: WorldWeigher,
    *,
    pool: int = 32,
    chains: int = 0,
    steps: int = 16,
    burn: int = 4,
) -> Decision:
    """The same decision whose ``sample_world`` draws worlds weighted by ``inference``.

    At its first call a pool of worlds is made once, with the decision's own (uniform)
    sampler and the caller's ``rng``: by default ``pool`` worlds weighed by their
    likelihood, every call then returning a copy of one of them chosen in proportion
    to its weight (sampling-importance-resampling with replacement); with ``chains``
    > 0, the worlds of that many Metropolis chains of ``steps`` steps
    (:meth:`PolicyInference.posterior_worlds`, ``burn`` dropped), every call returning
    a copy of one of them at random.  Every world agrees with the seat's view; any
    search bot (``expert``, ``pimc``, ``ismcts``) plays on them unchanged.  The pool is
    paid once per decision, not per play-out.  ``inference`` may be any
    :class:`WorldWeigher`; the chains need a :class:`PolicyInference`."""
    if pool < 1:
        raise ValueError(f"pool must be at least 1, not {pool}")
    if chains > 0 and not isinstance(inference, PolicyInference):
        raise ValueError("chains need a PolicyInference (its Metropolis moves)")
    worlds: list[State] = []
    cumulative: list[float] = []

    def sampler(rng: random.Random) -> State:
        if not worlds:
            if chains > 0:
                assert isinstance(inference, PolicyInference)
                worlds.extend(
                    inference.posterior_worlds(
                        decision.sample_world,
                        decision.seat,
                        rng,
                        chains=chains,
                        steps=steps,
                        burn=burn,
                    )
                )
                cumulative.extend(float(k + 1) for k in range(len(worlds)))
            else:
                worlds.extend(decision.sample_world(rng) for _ in range(pool))
                logs = [inference.log_likelihood(w, decision.seat) for w in worlds]
                top = max(logs)
                total = 0.0
                for x in logs:
                    total += math.exp(x - top)
                    cumulative.append(total)
        pick = rng.random() * cumulative[-1]
        for world, edge in zip(worlds, cumulative, strict=True):
            if pick < edge:
                return world.clone()
        return worlds[-1].clone()

    return replace(decision, sample_world=sampler)


class InferringAgent:
    """A search bot (``expert`` by default) that plays on worlds weighed by inference by
    policy (:func:`inferred_decision`) instead of uniform ones.

    ``InferringAgent(seed, bot="expert", epsilon=..., max_checks=..., pool=...,
    **settings)``: ``settings`` go to the bot (e.g. ``iterations=200``).  For the lab
    and tournaments: ``xtarot.agents.inference:InferringAgent`` as a bot spec."""

    name = "inferring"

    def __init__(
        self,
        seed: int | None = None,
        *,
        bot: str = "expert",
        epsilon: float = EPSILON,
        max_checks: int = MAX_CHECKS,
        pool: int = 32,
        chains: int = 0,
        steps: int = 16,
        burn: int = 4,
        **settings: Any,
    ) -> None:
        from xtarot.agents import make_agent

        self.inner = make_agent(bot, seed, **settings)
        self.name = f"{bot}+inference"
        self.inference = PolicyInference(epsilon=epsilon, max_checks=max_checks)
        self.pool = pool
        self.chains, self.steps, self.burn = chains, steps, burn

    def act(self, decision: Decision) -> Action:
        if len(decision.legal) == 1 or not self._has_policy(decision.view.get("game")):
            # nothing to weigh worlds for, or no model of the others (a plugin game
            # without a heuristic): the bot plays on uniform worlds, as without inference
            return self.inner.act(decision)
        weighed = inferred_decision(
            decision, self.inference, pool=self.pool, chains=self.chains, steps=self.steps,
            burn=self.burn,
        )  # fmt: skip
        return self.inner.act(weighed)

    def _has_policy(self, game: object) -> bool:
        if self.inference.policy != "heuristic":
            return True
        from xtarot.agents.heuristic import STRATEGIES

        return game in STRATEGIES

    def explain(self) -> Explanation | None:
        return self.inner.explain()
