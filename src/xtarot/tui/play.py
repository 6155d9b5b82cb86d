"""``xtarot play`` as a full-screen terminal app (Textual).

The match itself is :class:`~xtarot.cli.play.PlaySession`, the same as in the
line-by-line client: it runs in a worker thread (so the bots think while the screen
stays alive) and talks to :class:`AppFront`, which hands everything to the app on its
own thread.  The screen has fixed regions::

    header      game, hand / round, dealer or parent, stock (what the game's header says)
    table       the current trick / lot / field and who is winning it, one row per seat,
                the last finished trick / round / fight
    hand        your cards, sorted by suit (click one to play it)
    log | moves everything said at the table (scrollable) | the legal moves (↑↓ Enter, click)
    input       a move typed as in the plain client, with line editing and history
    footer      the keys

What the person sees is only ``state.view(seat)``: the session hands the front end
nothing else.
"""

from __future__ import annotations

import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Key, Resize
from textual.timer import Timer
from textual.widgets import Footer, OptionList
from textual.widgets.option_list import Option

from xtarot.cli.front import Front, moves_block
from xtarot.cli.i18n import paren, t
from xtarot.cli.play import PlaySession
from xtarot.engine import Action
from xtarot.tui.board import (
    BOARD_CSS,
    TALL,
    board_regions,
    draw_board,
    fit_table,
    rules_pager,
    rules_screen,
    translate_keys,
)
from xtarot.tui.parts import hand_text, move_prompt
from xtarot.tui.widgets import ConfirmScreen, HistoryInput, MovesLog, PagerScreen

__all__ = ["TALL", "AppFront", "PlayApp"]

#: Seconds within which what happens at the table is drawn together.
FRAME = 0.05
#: The fewest rows the log and the moves keep below the table.
LOWER_MIN = 6

_EOF = object()
#: The keys' descriptions in the footer (English here, translated per match).
_LABELLED = ("Help", "Rules", "Hint", "Undo", "Save", "Quit")


class AppFront(Front):
    """The session's front end in the app: called on the session's thread, it does
    its work on the app's thread (and waits for it)."""

    def __init__(self) -> None:
        self.app: PlayApp | None = None
        self.answers: queue.Queue[object] = queue.Queue()
        #: What was said once the match ended or was abandoned: printed again on the
        #: terminal when the app has closed (the result, the command to replay it).
        self.epilogue: list[RenderableType] = []
        self.closed = False
        self.gone = False
        #: The app's context (set when it starts), for what it is asked to do.
        self.context: contextvars.Context | None = None
        #: What was said before the app started (shown in its log when it does).
        self.early: list[RenderableType] = []

    def _ui(self, fn: Callable[..., Any], *args: Any) -> Any:
        app = self.app
        if app is None or self.gone:
            return None
        if threading.get_ident() == app._thread_id:
            return fn(*args)
        try:
            return app.call_from_thread(fn, *args)
        except RuntimeError:  # the app has closed meanwhile
            self.gone = True
            return None

    def _post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Have the app do ``fn(*args)`` on its thread, in order, without waiting for
        it (the match goes on meanwhile; the screen catches up)."""
        app = self.app
        if app is None or self.gone or app._loop is None:
            return
        if threading.get_ident() == app._thread_id:
            fn(*args)
            return

        def guarded() -> None:
            try:
                fn(*args)
            except Exception as err:  # as if it had happened in the app itself
                app._handle_exception(err)

        try:  # (in the app's context: what it starts there knows its app)
            app._loop.call_soon_threadsafe(guarded, context=self.context)
        except RuntimeError:  # the app has closed meanwhile
            self.gone = True

    def summarise(self, fast: bool) -> bool:
        return False  # every move is shown as it happens (the log keeps them all)

    def say(self, *items: Any, style: str | None = None) -> None:
        shown: list[RenderableType] = [
            Text(item, style=style or "") if isinstance(item, str) else item for item in items
        ]
        if self.closed:
            self.epilogue += shown
        if self.app is None or not self.app.is_running:
            self.early += shown
            return
        for item in shown:
            self._post(self._app().log_item, item)

    def say_command(self, head: str, command: str) -> None:
        self.say(Text(head, style="dim"))
        self.say(Text("  " + command))

    def ask(self, prompt: Text) -> str:
        if self._ui(self._app().prompt, prompt.plain.strip()) is None and self.gone:
            raise EOFError
        answer = self.answers.get()
        if answer is _EOF:
            self.answers.put(_EOF)  # every later question is not answered either
            raise EOFError
        assert isinstance(answer, str)
        return answer

    def confirm(self, prompt: str) -> bool | None:
        done: queue.Queue[bool] = queue.Queue()
        lang = self._session().lang
        if self._ui(self._app().ask_yes_no, prompt, lang, done.put) is None and self.gone:
            return False
        return done.get()

    @contextlib.contextmanager
    def _busy(self, label: str) -> Iterator[None]:
        self._post(self._app().set_status, label)
        try:
            yield
        finally:
            self._post(self._app().set_status, None)

    def busy(self, label: str) -> contextlib.AbstractContextManager[object]:
        return self._busy(label)

    def board(
        self,
        view: dict[str, Any],
        legal: Sequence[Action],
        since: Sequence[Text],
        *,
        first: bool = False,
    ) -> None:
        self._post(self._app().show_board, view, list(legal), list(since), first)

    def moved(self, view: dict[str, Any]) -> None:
        self._post(self._app().after_move, view)

    def hinted(self, number: int) -> None:
        self._post(self._app().point_at, number)

    def rules(self, markdown: str, note: str | None = None) -> None:
        self._post(self._app().show_rules, markdown, note)

    def help(self, view: dict[str, Any], legal: Sequence[Action]) -> None:
        self._post(self._app().action_help)

    def closing(self) -> None:
        self.closed = True
        self._post(self._app().show_moves, [])

    def hang_up(self) -> None:
        """The app is closing: questions are not answered any more."""
        self.gone = True
        self.answers.put(_EOF)

    def _app(self) -> PlayApp:
        assert self.app is not None
        return self.app

    def _session(self) -> PlaySession:
        assert self.session is not None
        return self.session


class MoveList(OptionList):
    """The legal moves; a printable key starts typing in the input instead."""

    def on_key(self, event: Key) -> None:
        if event.is_printable and event.character and self.app.focused is self:
            event.stop()
            event.prevent_default()
            field = self.app.query_one(HistoryInput)
            field.focus()
            field.insert_text_at_cursor(event.character)


class PlayApp(App[int]):
    """One match in the terminal, full screen; ``run()`` returns the exit code."""

    ENABLE_COMMAND_PALETTE = False
    CSS = (
        BOARD_CSS
        + """
    #lower { height: 1fr; min-height: 4; }
    #log {
        width: 1fr; border-top: solid $panel-lighten-2; border-title-color: $text-muted;
        scrollbar-size-vertical: 1; padding: 0 0 0 1;
    }
    #moves {
        width: 45%; min-width: 30; max-width: 64; border: none;
        border-top: solid $panel-lighten-2; border-title-color: $text-muted;
        scrollbar-size-vertical: 1; padding: 0;
    }
    #moves:focus { border-top: solid $accent; border-title-color: $text; }
    #input { height: 1; border: none; padding: 0 1; background: $boost; }
    #input:focus { background: $panel; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        Binding("f2", "rules", "Rules"),
        Binding("f3", "command('?')", "Hint"),
        Binding("f4", "command('undo')", "Undo"),
        Binding("ctrl+s", "command('save')", "Save", priority=True),
        Binding("ctrl+q", "quit_match", "Quit", priority=True),
        Binding("ctrl+c", "quit_match", show=False, priority=True),
        Binding("escape", "focus_moves", show=False),
    ]

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        if not isinstance(session.front, AppFront):
            raise TypeError("PlayApp shows a session made with front=AppFront()")
        self.session = session
        self.front: AppFront = session.front
        self.front.app = self
        self.lang = session.lang
        self.title = session.game.info.name(self.lang)
        #: The session waits for a line (a move or an answer).
        self.waiting = False
        #: The session waits for a move (the list of legal moves is up).
        self.choosing = False
        self.quit_soon = False
        #: How many lines were handed to the session.
        self.answered = 0
        self.over: int | None = None
        self.view: dict[str, Any] | None = None
        self.legal: list[Action] = []
        self.since: list[Text] = []
        self.status: str | None = None
        self.prompt_text = ""
        self._said: list[RenderableType] = []
        self._view_soon: dict[str, Any] | None = None
        self._timer: Timer | None = None
        translate_keys(self, self.lang, _LABELLED)

    # -- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield from board_regions()
        with Horizontal(id="lower"):
            yield MovesLog(id="log")
            yield MoveList(id="moves")
        yield HistoryInput(id="input", select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#log", MovesLog).border_title = t("tui_log", self.lang)
        self.query_one("#moves", MoveList).border_title = t("legal_moves", self.lang)
        self.query_one("#moves", MoveList).focus()
        self.front.context = contextvars.copy_context()
        for item in self.front.early:
            self.log_item(item)
        self.front.early = []
        self.set_status(t("tui_playing", self.lang))
        self.play()

    @work(thread=True, exclusive=True, name="match")
    def play(self) -> None:
        """The match, on a thread of its own."""
        try:
            code = self.session.run()
        except Exception as err:  # a bug must not leave the terminal in raw mode
            self.front._ui(self.failed, err)
            return
        self.front._ui(self.finished, code)

    def failed(self, err: Exception) -> None:
        self.exit(1, return_code=1, message=f"xtarot: {type(err).__name__}: {err}")

    def finished(self, code: int) -> None:
        if code != 0:  # abandoned: back to the shell at once
            self.exit(code, return_code=code)
            return
        self.over = code
        self.catch_up()
        self.show_moves([])
        self.set_status(None)
        self.prompt(t("tui_over", self.lang))
        self.waiting = False

    def on_unmount(self) -> None:
        self.front.hang_up()

    def on_resize(self, event: Resize) -> None:
        self.call_after_refresh(self.refit)

    def refit(self) -> None:
        """Share the rows: the table gets what the header, the hand, the log and moves
        (at least :data:`LOWER_MIN` rows), the input and the footer leave."""
        if self.view is not None:
            self.show_view(self.view)
        fit_table(self, LOWER_MIN + 2)

    # -- what the session shows ---------------------------------------------------------
    def log_item(self, item: RenderableType) -> None:
        self._said.append(item)
        self._soon()

    def _soon(self) -> None:
        """Draw what was said and the latest view shortly: moves made in a quick
        row (``--fast``, or a bot that answers at once) are drawn together."""
        if self._timer is None:
            self._timer = self.set_timer(FRAME, self.catch_up)

    def catch_up(self) -> None:
        """Draw now what was said and the latest view."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        said, self._said = self._said, []
        log = self.query_one("#log", MovesLog)
        for item in said:
            log.add(item)
        view, self._view_soon = self._view_soon, None
        if view is not None:
            self.show_view(view)

    def show_view(self, view: dict[str, Any]) -> None:
        """Header, table and hand from the seat's view."""
        session = self.session
        self.view = view
        hand = view.get("hand")
        shown = None
        if isinstance(hand, list):
            tall = self.size.height >= TALL
            shown = hand_text(hand, self.lang, session.game.id, rows=tall)
        draw_board(self, session.ui, view, self.lang, session.title, shown)

    def after_move(self, view: dict[str, Any]) -> None:
        """A move was made at the table: the new view; the moves offered are gone."""
        self._view_soon = view
        self._soon()
        if self.choosing:
            self.show_moves([])

    def show_board(
        self, view: dict[str, Any], legal: list[Action], since: list[Text], first: bool = False
    ) -> None:
        """The board before the seat's decision: everything, the moves, and the log
        scrolled to what happened since the seat's last move."""
        self.catch_up()
        self.show_view(view)
        self.show_moves(legal)
        self.since = since
        log = self.query_one("#log", MovesLog)
        title = "since_first" if first else "since_last"
        log.border_title = t(title if since else "tui_log", self.lang)
        if since:
            self.call_after_refresh(log.show_from, since[0])
        self.call_after_refresh(self.refit)

    def show_moves(self, legal: list[Action]) -> None:
        moves = self.query_one("#moves", MoveList)
        self.legal = legal
        self.choosing = bool(legal)
        width = len(str(len(legal)))
        game = self.session.game.id
        moves.set_options(
            [
                Option(move_prompt(n, a, self.lang, game, width), id=str(n))
                for n, a in enumerate(legal, 1)
            ]
        )
        title = t("legal_moves", self.lang)
        moves.border_title = title + paren(len(legal), self.lang) if legal else title
        if legal:
            moves.highlighted = 0

    def point_at(self, number: int) -> None:
        """Highlight the hinted move."""
        if 1 <= number <= len(self.legal):
            self.query_one("#moves", MoveList).highlighted = number - 1

    def set_status(self, label: str | None) -> None:
        self.status = label
        self._placeholder()

    def prompt(self, text: str) -> None:
        """The session waits for a line: ``text`` says what for."""
        self.catch_up()
        self.prompt_text = text
        self.waiting = True
        self._placeholder()
        if self.quit_soon and self.over is None:
            self.quit_soon = False
            self.submit("q")

    def _placeholder(self) -> None:
        field = self.query_one("#input", HistoryInput)
        if self.waiting or self.over is not None:
            field.placeholder = self.prompt_text
        else:
            field.placeholder = self.status or t("tui_playing", self.lang)

    def ask_yes_no(self, question: str, lang: str, answer: Callable[[bool], None]) -> None:
        self.push_screen(ConfirmScreen(question, lang), lambda yes: answer(bool(yes)))

    def show_rules(self, markdown: str, note: str | None = None) -> None:
        self.push_screen(rules_pager(markdown, note, self.lang))

    # -- what the person does -----------------------------------------------------------
    def submit(self, line: str) -> bool:
        """Hand a line to the session (when it waits for one)."""
        if self.over is not None:
            self.exit(self.over, return_code=self.over)
            return True
        if not self.waiting:
            what = self.status or t("tui_playing", self.lang)
            self.notify(t("tui_wait", self.lang, what=what), timeout=2)
            return False
        self.waiting = False
        self.answered += 1
        self._placeholder()
        self.front.answers.put(line)
        return True

    def on_input_submitted(self, event: HistoryInput.Submitted) -> None:
        field = self.query_one("#input", HistoryInput)
        line = event.value
        if self.submit(line):
            field.remember(line.strip())
            field.value = ""

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.choosing and event.option.id is not None:
            self.submit(event.option.id)

    def action_card(self, code: str) -> None:
        """A card of the hand was clicked: the move it names (the session asks which,
        when several do)."""
        if self.choosing:
            self.submit(code)

    def action_command(self, line: str) -> None:
        self.submit(line)

    def action_quit_match(self) -> None:
        if self.over is not None or self.session.state is None:
            self.exit(self.over or 0, return_code=self.over or 0)
        elif self.waiting:
            self.submit("q")
        else:
            self.quit_soon = True
            self.notify(t("tui_quit_soon", self.lang), timeout=3)

    def action_focus_moves(self) -> None:
        self.query_one("#moves", MoveList).focus()

    def action_rules(self) -> None:
        pager = rules_screen(self.session.game.id, self.lang)
        if pager is None:
            self.notify(t("no_rules", self.lang))
        else:
            self.push_screen(pager)

    def action_help(self) -> None:
        lang = self.lang
        parts: list[RenderableType] = [
            Text(t("tui_help_keys", lang)),
            Text(""),
            Text(t("tui_help_commands", lang)),
        ]
        if self.view is not None and self.legal:
            parts += [Text(""), moves_block(self.session, self.view, self.legal)]
        self.push_screen(PagerScreen(t("tui_help_title", lang), Group(*parts), lang))
