"""Every xtarot game as a PettingZoo AEC environment (``pip install "xtarot[pettingzoo]"``).

>>> from xtarot.adapters.pettingzoo import env
>>> e = env("matto", players=3)
>>> e.reset(seed=1)
>>> e.agent_selection in e.agents
True
>>> obs = e.observe(e.agent_selection)
>>> sorted(obs), obs["action_mask"].shape
(['action_mask', 'observation'], (80,))

Agents are ``player_0`` .. ``player_<n-1>`` (seat ``i`` is ``player_i``).  The action
space is ``Discrete(game.num_actions)`` (the engine's stable action ids); the
observation is ``{"observation": tensor, "action_mask": mask}`` where the tensor is the
seat's view encoded by :mod:`xtarot.adapters.tensors` and the mask marks the legal
actions (all zero when the agent is not to act).  Rewards come once, at the end of
the match, and are rank-based like the OpenSpiel adapter: ``(b - a) / (n - 1)`` with
``b`` / ``a`` the seats ranked strictly below / above.  ``reset(seed=S)`` makes the
whole match reproducible.  ``render_mode="ansi"``: ``render()`` returns the table as
the agent to act sees it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

try:  # compiled (setup.py): a C type for the mask's bytes; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

import xtarot
from xtarot.adapters.incremental import SeatTensors
from xtarot.adapters.tensors import encoder_for
from xtarot.engine.core import State

__all__ = ["XtarotEnv", "env", "rank_returns"]

_INT8 = np.dtype(np.int8)
_zeros = np.zeros
_frombuffer = np.frombuffer


def rank_returns(state: State) -> list[float]:
    """The rank-based terminal returns of a finished match, in ``[-1, 1]``."""
    return _rank_returns(state.scores().ranks)


def _rank_returns(ranks: Sequence[int]) -> list[float]:
    n = len(ranks)
    return [
        (sum(1 for r in ranks if r > mine) - sum(1 for r in ranks if r < mine)) / (n - 1)
        for mine in ranks
    ]


class _Discrete(spaces.Discrete):
    """``Discrete`` whose seed from ``reset(seed=...)`` is applied when the space is
    first sampled: seeding makes a numpy generator (several µs a space), and most
    episodes never sample the action spaces."""

    _pending: int | None = None

    def defer_seed(self, seed: int) -> None:
        self._pending = seed
        self._np_random = None

    def seed(self, seed: int | None = None) -> int | Any:
        self._pending = None  # a seed given now replaces one deferred
        return super().seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        if self._pending is not None:
            self.seed(self._pending)
        return super().np_random


class XtarotEnv(AECEnv):
    """An AEC environment of one game configuration."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if players is None:
            self.game = xtarot.load(game_id, **options)
        else:
            self.game = xtarot.load(game_id, players=players, **options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is supported")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"xtarot_{game_id.replace('-', '_')}_v0"}
        self.encoder = encoder_for(self.game)
        self._tensors = SeatTensors(self.encoder)
        n = self.game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.encoder.size
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: _Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self._rng = random.Random()
        self._actions = tuple(self.game.actions)  # a tuple: id -> Action without a call
        self._num_actions = self.game.num_actions
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
            for i, a in enumerate(self.possible_agents):
                space = self.action_spaces[a]
                if isinstance(space, _Discrete):
                    space.defer_seed(seed + i)
                else:
                    space.seed(seed + i)
        self.state = self.game.new_state(seed=self._rng.getrandbits(48))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.state is not None
        seat = self.state.current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, step after step (as ``AECEnv.agent_iter``)."""
        return _AgentIter(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """(observation, cumulative reward, terminated, truncated, info) of the agent
        to act, as ``AECEnv.last``."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    @cython.locals(flags=bytearray, i=cython.Py_ssize_t)
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        assert state is not None
        seat = self._seat[agent]
        # fresh arrays every call (a caller may keep them): each seat's tensor is kept
        # between calls and only its changed blocks are rewritten
        tensor = self._tensors.observe(state, seat)
        if state.current_player != seat:
            return {"observation": tensor, "action_mask": _zeros(self._num_actions, _INT8)}
        flags = bytearray(self._num_actions)  # item writes beat numpy's for a few actions
        for a in state.legal_actions():
            i = a.id
            flags[i] = 1
        return {"observation": tensor, "action_mask": _frombuffer(flags, _INT8)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        aid = int(action)  # type: ignore[arg-type]
        # an id in range goes in as its Action (the engine's quick path); any other
        # value is left to the engine, which names what is legal
        state.apply(self._actions[aid] if 0 <= aid < self._num_actions else aid)
        if not state.is_terminal:
            # rewards come only at the end: until then they stay all zero, and adding
            # them to the cumulative rewards changes nothing
            seat = state.current_player
            if seat is not None:
                self.agent_selection = self.possible_agents[seat]
            return
        scores = state.scores()
        self.rewards = {a: 0.0 for a in self.agents}
        for a, r in zip(self.possible_agents, _rank_returns(scores.ranks), strict=True):
            self.rewards[a] = r
            self.terminations[a] = True
        self.infos = {a: {"scores": scores.to_dict()} for a in self.possible_agents}
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        seat = self.state.current_player
        return table_text(self.state.view(seat if seat is not None else 0))

    def close(self) -> None:
        pass


class _AgentIter:
    """``agent_iter``'s iterator: the agent selected, until no agent is left or
    ``max_iter`` agents were given (as PettingZoo's ``AECIterator``)."""

    __slots__ = ("env", "left")

    def __init__(self, env: XtarotEnv, max_iter: int) -> None:
        self.env = env
        self.left = max_iter

    def __iter__(self) -> _AgentIter:
        return self

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        return env.agent_selection


def table_text(view: dict[str, Any]) -> str:
    """A plain-text rendering of a seat's view (one ``key: value`` line per field)."""
    lines = [
        f"{view['game']} - seat {view['seat']} - phase {view['phase']} - "
        f"to act: {view['current_player']}",
        f"hand: {' '.join(view.get('hand', []))}",
    ]
    skip = {"game", "seat", "phase", "current_player", "hand", "legal_actions", "scores"}
    for key, value in view.items():
        if key not in skip:
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    lines.append(f"scores: {view['scores']['totals']}")
    if view.get("legal_actions"):
        lines.append(f"legal: {', '.join(view['legal_actions'])}")
    return "\n".join(lines)


def env(
    game_id: str, players: int | None = None, render_mode: str | None = None, **options: Any
) -> XtarotEnv:
    """An AEC environment: ``env("sono-arcana", players=4, teams=True)``."""
    return XtarotEnv(game_id, players=players, render_mode=render_mode, **options)
