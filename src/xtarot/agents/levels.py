"""Difficulty levels for people: ``easy``, ``normal`` and ``hard``.

=========  =============================================  ===========================
level      with the game's heuristic                      without one (a plugin game)
=========  =============================================  ===========================
``easy``   the heuristic, but about one move in three     ISMCTS, 30 iterations a move
           is a looser pick: a random legal move of the
           same kind (another card to play, another
           discard...); bids, calls and kitty discards
           stay the heuristic's, so it never bids absurdly
``normal`` the heuristic                                  ISMCTS, 200 iterations a move
``hard``   the ``expert`` (:mod:`xtarot.agents.expert`),  ISMCTS for the same time
           ``seconds`` a move (0.8 by default)
=========  =============================================  ===========================

Each level is a bot factory ``factory(seed, **settings)`` registered in
:data:`xtarot.agents.AGENTS` under its name, so ``make_agent("hard", 1)`` works and
``play --bots easy`` or a lobby seat of kind ``hard`` needs nothing else.

>>> import xtarot
>>> from xtarot.agents import decision_for
>>> state = xtarot.load("matto", players=3).new_state(seed=4)
>>> bot = EasyAgent(seed=1)
>>> bot.act(decision_for(state)) in state.legal_actions()
True
>>> bot.explain().agent
'easy'
"""

from __future__ import annotations

import random
from typing import Any

from xtarot.agents.base import Agent, Decision, Explanation
from xtarot.agents.expert import ExpertAgent
from xtarot.agents.heuristic import STRATEGIES, HeuristicAgent
from xtarot.agents.ismcts import ISMCTSAgent
from xtarot.engine import Action

__all__ = ["LEVELS", "EasyAgent", "HardAgent", "NormalAgent", "level_of"]

#: level name -> (English, Japanese) label, easiest first
LEVELS: dict[str, tuple[str, str]] = {
    "easy": ("easy", "やさしい"),
    "normal": ("normal", "ふつう"),
    "hard": ("hard", "むずかしい"),
}

#: share of the easy bot's moves picked loosely
EASY_SLIP = 0.35

#: per game, the phases (``view["phase"]``) in which the easy bot never slips: bids,
#: partner calls and kitty discards decide a whole hand at once
_STEADY: dict[str, frozenset[str]] = {
    "fairy500": frozenset({"auction", "call", "discard"}),
}

#: moves the easy bot never picks loosely (they give up a turn or a claim): only
#: when the heuristic itself chose them
_NEVER_LOOSE = ("pass", "end", "luck")


def level_of(name: str) -> str | None:
    """The level a bot name stands for (``None`` for a researcher's raw bot name).

    >>> level_of("hard"), level_of("ismcts")
    ('hard', None)
    """
    return name if name in LEVELS else None


def _kind(action: Action) -> str:
    return action.text.split(" ", 1)[0]


class EasyAgent:
    """The heuristic with a share (``slip``) of its moves replaced by a random legal
    move of the same kind; a game without a heuristic gets a short ISMCTS."""

    name = "easy"
    reads_view_only = True  # reads the game and phase; the heuristic guards its own view

    def __init__(self, seed: int | None = None, *, slip: float = EASY_SLIP) -> None:
        if isinstance(slip, bool) or not 0.0 <= float(slip) <= 1.0:
            raise ValueError(f"slip is a share of moves between 0 and 1, not {slip!r}")
        self.rng = random.Random(seed)
        self.slip = float(slip)
        self._heuristic = HeuristicAgent(self.rng.getrandbits(32))
        self._search: ISMCTSAgent | None = None
        self._last: Explanation | None = None

    def explain(self) -> Explanation | None:
        return self._last

    def act(self, decision: Decision) -> Action:
        game = str(decision.view.get("game", ""))
        if game not in STRATEGIES:
            if self._search is None:
                self._search = ISMCTSAgent(self.rng.getrandbits(64), iterations=30)
            action = self._search.act(decision)
            self._last = Explanation(
                self.name,
                action.text,
                f"the easy bot: a short search (30 iterations), no heuristic for {game}",
                f"初級（やさしい）ボット：{game}にはヒューリスティックがないため短い探索（30回）",
            )
            return action
        action = self._heuristic.act(decision)
        inner = self._heuristic.explain()
        roll = self.rng.random()
        phase = decision.view.get("phase")
        steady = phase in _STEADY.get(game, frozenset())
        if not steady and roll < self.slip and _kind(action) not in _NEVER_LOOSE:
            options = [a for a in decision.legal if _kind(a) == _kind(action)]
            loose = options[self.rng.randrange(len(options))]
            if loose.text != action.text:
                self._last = Explanation(
                    self.name,
                    loose.text,
                    f"the easy bot plays loosely this time: {loose.text} instead of the "
                    f"heuristic's {action.text}",
                    f"初級（やさしい）ボット：今回は気楽に、ヒューリスティックの"
                    f"「{action.text}」ではなく「{loose.text}」",
                )
                return loose
        self._last = Explanation(
            self.name,
            action.text,
            f"the easy bot follows the heuristic: {inner.en if inner else action.text}",
            f"初級（やさしい）ボット：ヒューリスティックどおり。{inner.ja if inner else ''}",
        )
        return action


class NormalAgent:
    """The game's heuristic; a game without one gets ISMCTS at 200 iterations a move."""

    name = "normal"
    reads_view_only = True  # the heuristic guards its own view; ISMCTS reads none

    def __init__(
        self, seed: int | None = None, *, value_model: Any = None, value_margin: float = 30.0
    ) -> None:
        self.seed = seed
        # value_model: an optional hand-value model for the game it was trained for
        # (fairy500's auction, grail-mahjong's claims, sono-arcana's lots; none: the
        # heuristic unchanged); value_margin: the points a fairy500 bid must be expected
        # to gain (the claim and lot models carry their own margin)
        self._heuristic = HeuristicAgent(seed, value_model=value_model, value_margin=value_margin)
        self._search: ISMCTSAgent | None = None
        self._inner: Agent = self._heuristic

    def explain(self) -> Explanation | None:
        inner = self._inner.explain()
        if inner is None:
            return None
        return Explanation(
            self.name,
            inner.chosen,
            f"the normal bot ({self._inner.name}): {inner.en}",
            f"中級（ふつう）ボット（{self._inner.name}）：{inner.ja}",
            inner.moves,
        )

    def act(self, decision: Decision) -> Action:
        if decision.view.get("game") in STRATEGIES:
            self._inner = self._heuristic
        else:
            if self._search is None:
                self._search = ISMCTSAgent(self.seed, iterations=200)
            self._inner = self._search
        return self._inner.act(decision)


class HardAgent(ExpertAgent):
    """The expert at a table's pace: ``seconds`` a move (0.8 by default), or an
    ``iterations`` budget for reproducible games."""

    name = "hard"

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        if "iterations" not in settings and "seconds" not in settings:
            settings["seconds"] = 0.8
        super().__init__(seed, **settings)

    def explain(self) -> Explanation | None:
        inner = super().explain()
        if inner is None:
            return None
        return Explanation(
            self.name,
            inner.chosen,
            f"the hard bot (expert): {inner.en}",
            f"上級（むずかしい）ボット（エキスパート）：{inner.ja}",
            inner.moves,
        )
