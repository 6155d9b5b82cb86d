"""What every heuristic strategy shares: its name and the explanation of its last move."""

from __future__ import annotations

from xtarot.agents.base import Explanation
from xtarot.engine import Action

__all__ = ["Strategy"]


class Strategy:
    """Base of the per-game heuristics: ``_say`` records why a move was chosen.

    ``reads_view_only``: the strategy never changes (or keeps) the view it is given,
    so the expert's play-outs may hand it ``state.peek_view`` (no JSON copy) instead
    of ``state.view``.  False unless a strategy says so; the built-in heuristics do,
    checked on thousands of decisions each."""

    name = "heuristic"
    reads_view_only = False

    def __init__(self, seed: int | None = None) -> None:
        self._last: Explanation | None = None
        self._said: tuple[Action, str, str] | None = None

    def explain(self) -> Explanation | None:
        said = self._said
        if said is not None:
            self._said = None
            action, en, ja = said
            self._last = Explanation(self.name, action.text, en, ja)
        return self._last

    def _say(self, action: Action, en: str, ja: str) -> Action:
        """Record the rule that fired (English, Japanese) and return the action.  The
        :class:`Explanation` is made when :meth:`explain` asks for it: in a play-out
        nobody does, and making one was a twentieth of a heuristic decision."""
        self._said = (action, en, ja)
        return action
