"""The front ends of ``xtarot play``: how a match meets the person at the keyboard.

:class:`~xtarot.cli.play.PlaySession` holds the match (parsing the typed moves, undo,
hints, the bots, saving); everything it shows or asks goes through a :class:`Front`.
:class:`PlainFront` is the line-by-line terminal (pipes, screen readers, scripts: it
prints each board and reads a line); the full-screen app (:mod:`xtarot.tui`) is the
other front end and shows the same things in fixed regions.

A front end is told:

- ``say``: a line (or any rich renderable) for the person to read;
- ``ask``: a question answered with one line (``EOFError`` / ``KeyboardInterrupt``
  when nobody can answer);
- ``board``: the seat's view and the legal moves before each decision;
- ``moved``: the view after every move at the table (a live table redraws);
- ``busy``: a bot (or the hint) is thinking;
- ``rules`` and ``help``: the rules summary, the moves again;
- ``closing``: the match is over or abandoned (what is said from then on is its end).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from xtarot.cli.i18n import t
from xtarot.cli.text import JMarkdown
from xtarot.engine import Action

if TYPE_CHECKING:  # pragma: no cover
    from xtarot.cli.play import PlaySession

__all__ = ["Front", "PlainFront"]


class Front(ABC):
    """What a front end of :class:`~xtarot.cli.play.PlaySession` does: each front end
    implements the abstract methods; the others, which only a live screen needs, do
    nothing here."""

    session: PlaySession | None = None

    def attach(self, session: PlaySession) -> None:
        """The session this front end shows (its game, seat, language and screen)."""
        self.session = session

    def summarise(self, fast: bool) -> bool:
        """Whether bot moves are told with the next board rather than as they happen
        (``--fast`` on a printing terminal)."""
        return fast

    @abstractmethod
    def say(self, *items: Any, style: str | None = None) -> None:
        """Lines (or any rich renderables) for the person to read."""

    @abstractmethod
    def say_command(self, head: str, command: str) -> None:
        """A command on a line of its own, never wrapped (copy-paste works)."""

    @abstractmethod
    def ask(self, prompt: Text) -> str:
        """One line from the person; ``EOFError`` / ``KeyboardInterrupt`` propagate."""

    def confirm(self, prompt: str) -> bool | None:
        """A yes-or-no question as a dialog, or ``None``: ask it as a line."""
        return None

    def busy(self, label: str) -> contextlib.AbstractContextManager[object]:
        """While a bot (or the hint) thinks."""
        return contextlib.nullcontext()

    @abstractmethod
    def board(
        self,
        view: dict[str, Any],
        legal: Sequence[Action],
        since: Sequence[Text],
        *,
        first: bool = False,
    ) -> None:
        """The seat's board before its decision: the view, what happened since its
        last move, and the legal moves."""

    def moved(self, view: dict[str, Any]) -> None:
        """The seat's view after a move at the table."""

    def hinted(self, number: int) -> None:
        """The hint suggests legal move ``number`` (from 1; 0: not among them)."""

    @abstractmethod
    def rules(self, markdown: str, note: str | None = None) -> None:
        """The rules summary (``note``: it is in another language)."""

    @abstractmethod
    def help(self, view: dict[str, Any], legal: Sequence[Action]) -> None:
        """How to answer, and the legal moves again."""

    def closing(self) -> None:
        """The match ended or was abandoned: what follows is its end."""


class PlainFront(Front):
    """The line-by-line terminal: boards printed one after the other, lines read."""

    def __init__(self, console: Console) -> None:
        self.console = console

    @property
    def lively(self) -> bool:
        """A terminal that can show a spinner."""
        return self.console.is_terminal and not self.console.is_dumb_terminal

    def summarise(self, fast: bool) -> bool:
        return fast or not self.console.is_terminal

    def say(self, *items: Any, style: str | None = None) -> None:
        self.console.print(*items, style=style, highlight=False)

    def say_command(self, head: str, command: str) -> None:
        self.say(Text(head, style="dim"))
        self.console.print(Text("  " + command), soft_wrap=True, highlight=False)

    def ask(self, prompt: Text) -> str:
        return self.console.input(prompt)

    def busy(self, label: str) -> contextlib.AbstractContextManager[object]:
        if self.lively:
            return self.console.status(label, spinner="dots")
        return contextlib.nullcontext()

    def board(
        self,
        view: dict[str, Any],
        legal: Sequence[Action],
        since: Sequence[Text],
        *,
        first: bool = False,
    ) -> None:
        session = self._session()
        self.say("")
        self.say(session.ui.view(view, session.lang, session.title, since, first=first))
        self.moves(view, legal)

    def rules(self, markdown: str, note: str | None = None) -> None:
        if note is not None:
            self.say(Text(note, style="yellow"))
        self.say(JMarkdown(markdown))

    def help(self, view: dict[str, Any], legal: Sequence[Action]) -> None:
        self.say(Text(t("prompt_more", self._session().lang), style="dim"))
        self.moves(view, legal)

    def moves(self, view: dict[str, Any], legal: Sequence[Action]) -> None:
        """The numbered legal moves (the game's compact menu)."""
        self.say(moves_block(self._session(), view, legal))

    def _session(self) -> PlaySession:
        assert self.session is not None, "attach() the front end to its session first"
        return self.session


def moves_block(session: PlaySession, view: dict[str, Any], legal: Sequence[Action]) -> Group:
    """ "Legal moves" and the game's numbered menu of them."""
    head = Text(t("legal_moves", session.lang), style="bold")
    if len(legal) == 1:
        head.append("  " + t("only_move", session.lang), style="dim")
    menu: RenderableType = session.ui.menu(view, [a.text for a in legal], session.lang)
    return Group(head, menu)
