"""One seat of an xtarot game as a Gymnasium environment (``pip install "xtarot[gymnasium]"``).

The learner plays one seat; every other seat is a fixed xtarot agent (``heuristic``,
``random``, ``ismcts``, ... or agent instances), built on the PettingZoo environment
of :mod:`xtarot.adapters.pettingzoo`:

>>> from xtarot.adapters.gymnasium import XtarotGymEnv
>>> e = XtarotGymEnv("matto", players=3, opponents="heuristic")
>>> obs, info = e.reset(seed=1)
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)

``reset(seed=S)`` fixes the deal and the opponents' choices (named opponents are
rebuilt at every reset with seeds drawn from the environment's generator), so the
same seed and the same learner actions give the same episode.  ``step(action)``
applies the learner's action (an engine action id) and lets the opponents play until
the learner is to act again or the match is over.  It returns Gymnasium's 5-tuple;
the reward is ``0`` until the end and then the learner's rank return, the same as
the PettingZoo environment (``(b - a) / (n - 1)``).  The legal actions are in
``observation["action_mask"]`` and in ``info["action_mask"]``.

An illegal action ends the episode at once with reward ``illegal_reward`` (``-1``,
the lowest return) and ``info["illegal_action"] = True``, unless
``on_illegal="raise"``, which raises :class:`xtarot.IllegalAction` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np

import xtarot
from xtarot.adapters.pettingzoo import XtarotEnv, rank_returns, table_text
from xtarot.agents import Agent, decision_for, make_agent

__all__ = ["Opponent", "XtarotGymEnv"]

#: an opponent: a bot name, a ``(name, settings)`` pair, or an agent instance
Opponent = str | tuple[str, dict[str, Any]] | Agent


class XtarotGymEnv(gymnasium.Env):  # type: ignore[type-arg]
    """The learner at ``seat`` against fixed xtarot agents at the other seats."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = "heuristic",
        on_illegal: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.aec = XtarotEnv(game_id, players=players, **options)
        self.game = self.aec.game
        n = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} does not exist: seats are 0..{n - 1}")
        if on_illegal not in ("end", "raise"):
            raise ValueError(f"on_illegal={on_illegal!r}: use 'end' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is supported")
        self.seat = seat
        self.on_illegal = on_illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._opponents = self._opponent_specs(opponents, n)
        self.opponents: dict[int, Agent] = {}
        agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(agent)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self._done = True

    def _opponent_specs(
        self, opponents: Opponent | Sequence[Opponent], n: int
    ) -> dict[int, Opponent]:
        others = [s for s in range(n) if s != self.seat]
        if isinstance(opponents, str | tuple | Agent):
            specs: list[Opponent] = [opponents] * len(others)
        else:
            specs = list(opponents)
            if len(specs) != len(others):
                raise ValueError(
                    f"{len(specs)} opponents for {len(others)} other seats ({self.game!r}): "
                    "give one opponent for all or one per other seat, in seat order"
                )
        for spec in specs:
            if isinstance(spec, tuple):
                ok = len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], dict)
            else:
                ok = isinstance(spec, str | Agent)
            if not ok:
                raise TypeError(
                    f"opponent {spec!r}: expected a bot name ('heuristic'), a (name, settings) "
                    "pair (('ismcts', {'iterations': 100})) or an xtarot agent"
                )
            if isinstance(spec, str | tuple):
                name = spec if isinstance(spec, str) else spec[0]
                make_agent(name, 0, **({} if isinstance(spec, str) else spec[1]))  # checks
        return dict(zip(others, specs, strict=True))

    # -- the Gymnasium API ------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**62, size=len(self._opponents) + 1)
        self.aec.reset(seed=int(draws[0]))
        self.opponents = {}
        for (s, spec), bot_seed in zip(self._opponents.items(), draws[1:], strict=True):
            if isinstance(spec, str):
                self.opponents[s] = make_agent(spec, int(bot_seed))
            elif isinstance(spec, tuple):
                self.opponents[s] = make_agent(spec[0], int(bot_seed), **spec[1])
            else:
                self.opponents[s] = spec
        self._done = False
        self._play_opponents()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() first")
        state = self.aec.state
        assert state is not None
        try:
            self.aec.step(int(action))
        except xtarot.IllegalAction:
            if self.on_illegal == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            obs = self._obs()
            return obs, self.illegal_reward, True, False, info
        self._play_opponents()
        obs, info = self._obs(), self._info()
        if state.is_terminal:
            self._done = True
            return obs, rank_returns(state)[self.seat], True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.aec.state is None:
            return None
        return table_text(self.aec.state.view(self.seat))

    def close(self) -> None:
        self.aec.close()

    # -- helpers ----------------------------------------------------------------------
    @property
    def state(self) -> xtarot.State | None:
        """The engine state of the match (for inspection; the learner sees ``obs``)."""
        return self.aec.state

    def _play_opponents(self) -> None:
        state = self.aec.state
        assert state is not None
        while not state.is_terminal and state.current_player != self.seat:
            bot = self.opponents[state.current_player]
            self.aec.step(bot.act(decision_for(state)).id)

    def _obs(self) -> dict[str, np.ndarray]:
        return self.aec.observe(self.aec.possible_agents[self.seat])

    def _info(self) -> dict[str, Any]:
        state = self.aec.state
        assert state is not None
        mask = np.zeros(self.game.num_actions, np.int8)
        if state.current_player == self.seat:
            mask[[a.id for a in state.legal_actions()]] = 1
        info: dict[str, Any] = {"action_mask": mask}
        if state.is_terminal:
            info["scores"] = state.scores().to_dict()
        return info
