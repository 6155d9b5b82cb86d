"""Heuristic bots: one documented, casual-good strategy per game.

``HeuristicAgent`` (bot name ``heuristic``) plays whichever game it is seated at by
dispatching on ``view["game"]`` to that game's strategy class; each strategy reads
only the seat's view and says which rule fired (``explain()``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from xtarot.agents.base import Agent, Decision, Explanation
from xtarot.agents.heuristic.arcana_duel import ArcanaDuelHeuristic
from xtarot.agents.heuristic.extendori import ExtendoriHeuristic
from xtarot.agents.heuristic.fairy500 import Fairy500Heuristic
from xtarot.agents.heuristic.grail_mahjong import GrailMahjongHeuristic
from xtarot.agents.heuristic.matto import MattoHeuristic
from xtarot.agents.heuristic.sono_arcana import SonoArcanaHeuristic
from xtarot.engine import Action
from xtarot.engine.plugins import LazyRegistry

__all__ = ["STRATEGIES", "HeuristicAgent"]


def _install_strategy(game_id: str, obj: Any) -> Callable[[int | None], Agent]:
    if not callable(obj):
        raise TypeError(f"expected a strategy factory factory(seed) -> Agent, got {obj!r}")
    return cast("Callable[[int | None], Agent]", obj)


#: game id -> strategy factory ``factory(seed)``.  A plugin game brings its own through
#: the ``xtarot.heuristics`` entry-point group (read on first use).
STRATEGIES: dict[str, Callable[[int | None], Agent]] = LazyRegistry(
    "xtarot.heuristics",
    {
        "arcana-duel": ArcanaDuelHeuristic,
        "extendori": ExtendoriHeuristic,
        "fairy500": Fairy500Heuristic,
        "grail-mahjong": GrailMahjongHeuristic,
        "matto": MattoHeuristic,
        "sono-arcana": SonoArcanaHeuristic,
    },
    _install_strategy,
)


class HeuristicAgent:
    """The heuristic strategy of whatever game the decision belongs to."""

    name = "heuristic"
    #: the built-in strategies only read their view; one that does not (a plugin's)
    #: is handed a copy of it (see :meth:`act`)
    reads_view_only = True

    def __init__(
        self, seed: int | None = None, *, value_model: Any = None, value_margin: float = 30.0
    ) -> None:
        self.seed = seed
        #: an optional hand-value model, used by the strategy of the game it is for
        #: (its ``game``; fairy500 when it has none): fairy500's auction model and the
        #: points a bid must be expected to gain (see
        #: :class:`~xtarot.agents.heuristic.fairy500.Fairy500Heuristic`), or
        #: grail-mahjong's claim model or sono-arcana's lot model (each carries its own
        #: ``margin``; see
        #: :class:`~xtarot.agents.heuristic.grail_mahjong.GrailMahjongHeuristic` and
        #: :class:`~xtarot.agents.heuristic.sono_arcana.SonoArcanaHeuristic`)
        self.value_model = value_model
        self.value_margin = value_margin
        self._by_game: dict[str, Agent] = {}
        self._current: Agent | None = None
        #: the game of the last decision, and its strategy's ``act`` when the strategy
        #: only reads its view (else ``None``): a match's decisions are all of one game,
        #: so most decisions go straight to it (issue #40)
        self._game: str | None = None
        self._act: Callable[[Decision], Action] | None = None

    def act(self, decision: Decision) -> Action:
        game = decision.view["game"]
        act = self._act
        if act is not None and game == self._game:
            return act(decision)
        strategy = self._by_game.get(game)
        if strategy is None:
            factory = STRATEGIES.get(game)
            if factory is None:
                known = ", ".join(STRATEGIES)
                raise ValueError(
                    f"no heuristic bot for {game} yet (heuristics: {known}); "
                    "use random, ismcts or pimc"
                )
            strategy = self._by_game[game] = factory(self.seed)
            model = self.value_model
            if model is not None and getattr(model, "game", "fairy500") == game:
                strategy.value_model = model  # type: ignore[attr-defined]
                if game == "fairy500":
                    strategy.value_margin = float(self.value_margin)  # type: ignore[attr-defined]
        self._current = strategy
        if not getattr(strategy, "reads_view_only", False):
            self._game, self._act = game, None
            decision = replace(decision, view=json.loads(json.dumps(decision.view)))
            return strategy.act(decision)
        self._game, self._act = game, strategy.act
        return strategy.act(decision)

    def explain(self) -> Explanation | None:
        return self._current.explain() if self._current is not None else None
