"""Agents: anything that picks an action from what one seat may know.

An agent never sees the true state.  It is given a :class:`Decision`: the seat's
``view`` (exactly what that seat sees at the table), the legal actions, and a world
sampler that draws full states consistent with the seat's knowledge
(``state.sample_world(seat, rng)``), which search agents use to imagine the hidden
cards.  Every agent can say why it chose its last move (``explain()``).

Bots by name (``make_agent``): ``random``, ``heuristic`` (one documented
strategy per game), ``ismcts`` (information-set MCTS, 1,000
iterations a move by default), ``pimc`` (determinized flat Monte Carlo), ``expert``
(the heuristics improved by paired heuristic play-outs, 1 s a move by default), and
the levels for people ``easy``, ``normal`` and ``hard`` (:mod:`xtarot.agents.levels`).

>>> import xtarot
>>> from xtarot.agents import RandomAgent, play_match
>>> game = xtarot.load("sono-arcana", players=3)
>>> state = play_match(game, [RandomAgent(s) for s in range(3)], seed=1)
>>> state.is_terminal
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from xtarot.agents.base import (
    Agent,
    Decision,
    Explanation,
    MoveStat,
    RandomAgent,
    WorldSampler,
    decision_for,
    play_match,
    utility,
)
from xtarot.agents.expert import ExpertAgent
from xtarot.agents.heuristic import HeuristicAgent
from xtarot.agents.ismcts import ISMCTSAgent
from xtarot.agents.levels import EasyAgent, HardAgent, NormalAgent
from xtarot.agents.pimc import PIMCAgent
from xtarot.engine.plugins import LazyRegistry

__all__ = [
    "AGENTS",
    "SEARCHING",
    "Agent",
    "Decision",
    "EasyAgent",
    "ExpertAgent",
    "Explanation",
    "HardAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "MoveStat",
    "NormalAgent",
    "PIMCAgent",
    "RandomAgent",
    "WorldSampler",
    "decision_for",
    "make_agent",
    "play_match",
    "utility",
]


def _install_factory(name: str, obj: Any) -> Callable[..., Agent]:
    """Check an ``xtarot.agents`` / ``xtarot.heuristics`` entry point's object."""
    if not callable(obj):
        raise TypeError(f"expected an agent factory (a class or function), got {obj!r}")
    return cast("Callable[..., Agent]", obj)


#: Bot factories by name: ``factory(seed, **settings)``.  Plugins add theirs through
#: the ``xtarot.agents`` entry-point group (read on first use).
AGENTS: dict[str, Callable[..., Agent]] = LazyRegistry(
    "xtarot.agents",
    {
        "random": RandomAgent,
        "heuristic": HeuristicAgent,
        "ismcts": ISMCTSAgent,
        "pimc": PIMCAgent,
        "expert": ExpertAgent,
        "easy": EasyAgent,
        "normal": NormalAgent,
        "hard": HardAgent,
    },
    _install_factory,
)


#: The built-in bots that search at every move: a match of theirs takes seconds to
#: minutes, where the others play hundreds of matches a second.
SEARCHING = frozenset({"ismcts", "pimc", "expert", "hard"})


def make_agent(name: str, seed: int | None = None, **settings: Any) -> Agent:
    """A bot by name; ``settings`` go to its constructor (e.g. ``iterations=200``).

    Raises ``ValueError`` listing the known names.
    """
    factory = AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(AGENTS)}")
    return factory(seed, **settings)
