"""The agent protocol, decisions, explanations and the random agent.

Agents: anything that picks an action from what one seat may know.

An agent never sees the true state.  It is given the seat's ``view`` (exactly
what that seat sees at the table), the legal actions, and a *world sampler*: a
function that draws a full state consistent with the seat's knowledge
(``state.sample_world(seat, rng)``), which search agents use to imagine the
hidden cards.

>>> import xtarot
>>> from xtarot.agents import RandomAgent, play_match
>>> state = play_match(xtarot.load("sono-arcana", players=3), [RandomAgent(s) for s in range(3)],
...                    seed=1)
>>> state.is_terminal
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from xtarot.engine import Action, Game, Scores, State

__all__ = [
    "MARGIN_WEIGHT",
    "Agent",
    "Decision",
    "Explanation",
    "MoveStat",
    "RandomAgent",
    "WorldSampler",
    "decision_for",
    "play_match",
    "utility",
]

#: Draws a complete state consistent with one seat's knowledge.
WorldSampler = Callable[[random.Random], State]


@dataclass(frozen=True, init=False)
class Decision:
    """Everything an agent may use: the seat, its view, the legal actions, a sampler."""

    seat: int
    view: dict[str, Any]
    legal: Sequence[Action]
    sample_world: WorldSampler

    def __init__(
        self, seat: int, view: dict[str, Any], legal: Sequence[Action], sample_world: WorldSampler
    ) -> None:
        # One is made per decision of every match and play-out: a frozen dataclass's
        # generated ``__init__`` sets each field through ``object.__setattr__``,
        # filling the instance's dict directly costs half as much (issue #40).  Still
        # frozen: setting or deleting a field afterwards raises.
        fields = self.__dict__
        fields["seat"] = seat
        fields["view"] = view
        fields["legal"] = legal
        fields["sample_world"] = sample_world


@dataclass(frozen=True)
class MoveStat:
    """One candidate move in an explanation: how often search tried it, how it did."""

    text: str
    visits: int
    share: float
    mean: float


@dataclass(frozen=True)
class Explanation:
    """Why an agent picked its last move, in English and Japanese, with the numbers."""

    agent: str
    chosen: str
    en: str
    ja: str
    moves: tuple[MoveStat, ...] = ()

    def text(self, lang: str = "en") -> str:
        return self.ja if lang == "ja" else self.en


@runtime_checkable
class Agent(Protocol):
    """Chooses one of ``decision.legal``; ``explain()`` says why (``None`` before any)."""

    name: str

    def act(self, decision: Decision) -> Action: ...

    def explain(self) -> Explanation | None: ...


#: the weight of the score margin in :func:`utility`, next to a win's 1
MARGIN_WEIGHT = 0.1


def utility(scores: Scores, seat: int) -> float:
    """What a finished match is worth to ``seat`` for search: the seat's share of the
    win (1, or 1/k for a win shared by k seats) first, then a small bonus or malus for
    the score margin over the best other seat (at most +-:data:`MARGIN_WEIGHT`)."""
    winners = scores.winners
    win = 1.0 / len(winners) if seat in winners else 0.0
    totals = scores.totals
    others = [t for s, t in enumerate(totals) if s != seat]
    if not others:
        return win
    scale = max(1.0, max(abs(t) for t in totals))
    return win + MARGIN_WEIGHT * (totals[seat] - max(others)) / (2 * scale)


def decision_for(state: State, *, peek: bool = False) -> Decision:
    """The :class:`Decision` of the seat to act (its view only, never the state).

    ``peek=True`` hands over ``state.peek_view`` instead of a fresh copy: the same
    data, without the JSON round trip that is half the cost of a heuristic's move,
    for an agent that declares ``reads_view_only`` (it reads the view at once and
    neither changes nor keeps it).  :func:`play_match` does so for such agents."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the match is over: nobody is to act")
    moment = len(state.history)

    def sampler(rng: random.Random) -> State:
        if len(state.history) != moment:
            raise RuntimeError("this decision's world sampler expired: the match moved on")
        return state.sample_world(seat, rng)

    view = state.peek_view(seat) if peek else state.view(seat)
    return Decision(seat, view, state.legal_actions(), sampler)


class RandomAgent:
    """Picks uniformly among the legal actions; seeded for reproducible matches."""

    name = "random"
    reads_view_only = True  # never looks at the view

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self._last: Explanation | None = None

    def act(self, decision: Decision) -> Action:
        action = decision.legal[self.rng.randrange(len(decision.legal))]
        k = len(decision.legal)
        self._last = Explanation(
            self.name,
            action.text,
            f"picked at random among {k} legal moves",
            f"合法手{k}通りから無作為に選択",
        )
        return action

    def explain(self) -> Explanation | None:
        return self._last


def play_match(
    game: Game,
    agents: Sequence[Agent],
    *,
    seed: int | None = None,
    state: State | None = None,
    on_action: Callable[[State, int, Action], None] | None = None,
) -> State:
    """Play a match to the end with one agent per seat; return the final state.

    An agent that declares ``reads_view_only`` is handed its seat's view without a
    copy (see :func:`decision_for`)."""
    if len(agents) != game.players:
        raise ValueError(f"{game.id} needs {game.players} agents, got {len(agents)}")
    if state is None:
        state = game.new_state(seed=seed)
    # per seat: the agent's ``act`` and whether it is handed its view without a copy
    seats = [(agent.act, bool(getattr(agent, "reads_view_only", False))) for agent in agents]
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        act, peek = seats[seat]
        action = act(decision_for(state, peek=peek))
        state.apply(action)
        if on_action is not None:
            on_action(state, seat, action)
    return state
