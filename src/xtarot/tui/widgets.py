"""Widgets of the full-screen app: the log of moves, the input with history, the
pager (rules, help) and the yes-or-no dialog."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Button, Input, RichLog, Static

from xtarot.cli.i18n import t

__all__ = ["ConfirmScreen", "HistoryInput", "MovesLog", "PagerScreen"]


class MovesLog(RichLog):
    """Everything said at the table, scrollable, wrapped to the region's width and
    wrapped again when the window is resized."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, min_width=10, markup=False, highlight=False, **kwargs)  # type: ignore[arg-type]
        self.items: list[RenderableType] = []
        #: (item, the first line it is drawn on), for the items drawn so far
        self.starts: list[tuple[object, int]] = []
        self._width = 0

    def add(self, item: RenderableType) -> None:
        """Say ``item`` (drawn once the region's size is known)."""
        self.items.append(item)
        if self._size_known:
            self.write(item)

    def write(self, content: object, *args: object, **kwargs: object) -> MovesLog:  # type: ignore[override]
        if self._size_known:
            self.starts.append((content, len(self.lines)))
        super().write(content, *args, **kwargs)  # type: ignore[arg-type]
        return self

    def on_resize(self, event: Resize) -> None:
        # (before RichLog's own handler, which then has nothing left to draw: what was
        # said before the size was known is drawn here, the items themselves, so that
        # line_of finds them)
        width = self.scrollable_content_region.width
        if not self._size_known:
            if event.size.width:
                self._size_known = True
                for item in self.items:
                    self.write(item)
        elif width != self._width and self._width:
            self.clear()  # wrap everything again at the new width
            self.starts = []
            for item in self.items:
                self.write(item)
        self._width = width

    def keep(self, n: int) -> None:
        """Only the first ``n`` items said (a replay steps back): the lines of the
        later ones go; the earlier ones are not drawn again."""
        said = len(self.items)
        if n >= said:
            return
        del self.items[n:]
        if not self._size_known:  # nothing drawn yet
            return
        if len(self.starts) != said:  # (never: every item said is drawn once)
            self.clear()
            self.starts = []
            for item in self.items:
                self.write(item)
            return
        cut = self.starts[n][1]
        del self.starts[n:]
        del self.lines[cut:]
        self._line_cache.clear()  # (RichLog keys it by line number)
        self.virtual_size = Size(self.virtual_size.width, len(self.lines))
        self.refresh()

    def line_of(self, item: object) -> int | None:
        """The first line ``item`` (said earlier: the very object) is drawn on."""
        for said, line in reversed(self.starts):
            if said is item:
                return line
        return None

    def show_from(self, item: object) -> None:
        """Scroll so that everything from ``item`` on is read from its start: the end
        when it fits, else ``item`` at the top."""
        start = self.line_of(item)
        height = self.scrollable_content_region.height
        if start is None or len(self.lines) - start <= height:
            self.scroll_end(animate=False, immediate=True)
        else:
            self.scroll_to(y=start, animate=False, immediate=True)


class HistoryInput(Input):
    """A line input that brings back earlier lines with ↑ and ↓."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "older", show=False),
        Binding("down", "newer", show=False),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.history: list[str] = []
        self._at = 0

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self._at = len(self.history)

    def action_older(self) -> None:
        if self._at > 0:
            self._at -= 1
            self.value = self.history[self._at]
            self.cursor_position = len(self.value)

    def action_newer(self) -> None:
        if self._at < len(self.history):
            self._at += 1
            self.value = self.history[self._at] if self._at < len(self.history) else ""
            self.cursor_position = len(self.value)


class PagerScreen(ModalScreen[None]):
    """A long text to read (the rules, the help): scrollable, closed with q or Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,f2", "close", "Close"),
        Binding("space", "page_down", show=False),
    ]
    DEFAULT_CSS = """
    PagerScreen { align: center middle; }
    PagerScreen > Vertical {
        width: 100%; height: 100%; max-width: 100; border: round $accent;
        background: $surface;
    }
    PagerScreen #pager-body { height: 1fr; padding: 0 1; }
    PagerScreen #pager-keys { height: 1; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, title: str, body: RenderableType, lang: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            with VerticalScroll(id="pager-body"):
                yield Static(self.body, id="pager-text")
            yield Static(Text(t("tui_pager_keys", self.lang)), id="pager-keys")

    def on_mount(self) -> None:
        self.query_one("#pager-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_page_down(self) -> None:
        self.query_one("#pager-body", VerticalScroll).scroll_page_down()


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question (No is the default, as in ``[y/N]``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 60; height: auto; border: round $warning; background: $surface;
        padding: 0 1;
    }
    ConfirmScreen Horizontal { height: auto; align: center middle; }
    ConfirmScreen Button { margin: 0 2; }
    """

    def __init__(self, question: str, lang: str) -> None:
        super().__init__()
        self.question = question
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question))
            with Horizontal():
                yield Button(t("tui_yes", self.lang) + " (y)", id="yes", variant="primary")
                yield Button(t("tui_no", self.lang) + " (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
