"""``xtarot replay`` as a full-screen terminal app (Textual).

The app walks through the steps the printed replay tells
(:func:`~xtarot.cli.replay.steps`), from the same perspective
(:func:`~xtarot.cli.replay.perspective`): the seat that saved an unfinished match sees
only what it saw; a finished match (or ``--reveal``) is shown whole.  Each position is
drawn in the regions of the play app (:mod:`xtarot.tui.board`)::

    header      the game's header at this step
    table       the current trick / lot / field, one row per seat, the last one finished
    hand        the saving seat's hand; or, shown whole, every seat's cards (after the
                end of a finished match: every hand as it was dealt)
    log         what the printed replay says, up to this step (scrollable)
    bar         ``Step 12/240 · Hand 2/4`` and buttons: start, back, play / pause, next, end
    footer      the keys
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.events import Resize
from textual.timer import Timer
from textual.widgets import Footer, Static

import xtarot
from xtarot.cli.i18n import seat_label, t
from xtarot.cli.render import SafeUI, ui_for
from xtarot.cli.replay import Step, deal_piles, steps
from xtarot.tui.board import (
    BOARD_CSS,
    TALL,
    board_regions,
    draw_board,
    fit_table,
    rules_screen,
    translate_keys,
)
from xtarot.tui.parts import hand_text, piles_text
from xtarot.tui.widgets import MovesLog, PagerScreen

__all__ = ["PACES", "ReplayApp"]

#: The paces of the automatic replay, seconds a step (``+`` and ``-`` move along).
PACES = (0.25, 0.5, 1.0, 2.0, 4.0)
#: The rows the log keeps (its title line and four lines).
LOG_MIN = 5
#: The fewest rows the table keeps.
TABLE_MIN = 3
#: The keys' descriptions in the footer (English here, translated per replay).
_LABELLED = ("Next", "Back", "Hand", "Play", "Help", "Rules", "Quit")
_SCROLL: list[BindingType] = [
    Binding("up", "scroll_up", show=False),
    Binding("down", "scroll_down", show=False),
]


class ReplayLog(MovesLog, inherit_bindings=False):
    """The log of a replay: ↑↓ scroll it; every other key moves the replay."""

    BINDINGS: ClassVar[list[BindingType]] = _SCROLL

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.auto_scroll = False  # (the replay scrolls it to each step's lines)

    def on_resize(self, event: Resize) -> None:
        # (after RichLog's own handler, which draws what was written before the size
        # was known: a key pressed as the app started moved on meanwhile)
        app = self.app
        if isinstance(app, ReplayApp):
            self.call_after_refresh(app.scroll_log)


class HandBox(VerticalScroll, inherit_bindings=False):
    """The hands, scrolled with ↑↓ when they do not fit."""

    BINDINGS: ClassVar[list[BindingType]] = _SCROLL


class ReplayApp(App[int]):
    """A saved match, position by position, full screen."""

    ENABLE_COMMAND_PALETTE = False
    CSS = (
        BOARD_CSS
        + """
    #hand-body { height: auto; }
    #hand:focus { border-top: solid $accent; }
    #log {
        height: 1fr; min-height: 2; border-top: solid $panel-lighten-2;
        border-title-color: $text-muted; scrollbar-size-vertical: 1; padding: 0 0 0 1;
    }
    #log:focus { border-top: solid $accent; border-title-color: $text; }
    #bar { height: auto; background: $boost; padding: 0 1; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "step(1)", "Next"),
        Binding("left,h", "step(-1)", "Back"),
        Binding("pagedown,n", "hand(1)", "Hand", key_display="PgDn"),
        Binding("pageup,b", "hand(-1)", show=False),
        Binding("home", "go(0)", show=False),
        Binding("end", "last", show=False),
        Binding("p,enter", "play", "Play"),
        Binding("plus,equals_sign", "pace(-1)", show=False),
        Binding("minus", "pace(1)", show=False),
        Binding("f1", "help", "Help"),
        Binding("f2", "rules", "Rules"),
        Binding("q", "leave", "Quit"),
        Binding("ctrl+q,ctrl+c", "leave", show=False, priority=True),
    ]

    def __init__(
        self,
        record: dict[str, Any],
        lang: str,
        seat: int | None,
        intro: Sequence[RenderableType] = (),
    ) -> None:
        """``seat``: whose view is shown (``None``: everything, see
        :func:`~xtarot.cli.replay.perspective`); ``intro``: the lines the printed
        replay starts with (the title, the options, whose view it is)."""
        super().__init__()
        start = xtarot.replay(record, upto=0)
        self.record = record
        self.lang = lang
        self.seat = seat
        self.game = start.game.id
        self.title = start.game.info.name(lang)
        self.ui = SafeUI(ui_for(start.game.id, start.game.options))
        self.steps: list[Step] = list(steps(record, lang, seat, every_hand=seat is None))
        #: The last position (one per action; position 0: before the first).
        self.last = len(self.steps) - 2
        assert all(self.steps[p].number == p for p in range(1, self.last + 1))
        #: A finished match shown whole: after its end, every hand as dealt.
        self.dealt = seat is None and xtarot.replay(record).is_terminal
        #: Everything the log says, in order, and how much of it is said at each position.
        self.said: list[RenderableType] = list(intro)
        self.upto: list[int] = []
        for p in range(self.last + 1):
            self.said += self.steps[p].items
            if p == self.last:
                self.said += self.steps[-1].items  # the result, or "not finished"
            self.upto.append(len(self.said))
        self.at = -1
        #: The screen shows the position (laid out, the log scrolled to it).
        self.settled = False
        self._settling = 0
        self.playing = False
        self.pace = 1.0
        self._timer: Timer | None = None
        translate_keys(self, lang, _LABELLED)

    # -- layout -----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        box = HandBox(id="hand")
        box.compose_add_child(Static(id="hand-body"))
        yield from board_regions(box)
        yield ReplayLog(id="log")
        yield Static(id="bar")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#log", ReplayLog)
        log.border_title = t("tui_log", self.lang)
        log.focus()
        self.go(0)

    def on_resize(self, event: Resize) -> None:
        self.settled = False
        self.call_after_refresh(self.redraw)

    def redraw(self) -> None:
        """The position again, at the window's new size."""
        if self.at >= 0:
            self.draw()
            self.settle()

    def settle(self, rounds: int = 6) -> None:
        """Once the screen is laid out: share the rows (:meth:`fit`) and scroll the
        log to the step's lines; again after the next refresh, until two rounds in a
        row find the same room (a change of room, such as a scroll bar coming or
        going, can take a refresh more to show).  :attr:`settled` then."""
        self.settled = False
        self._settling += 1
        settling = self._settling

        def measure(rounds: int, before: object) -> None:
            if settling != self._settling:  # a later step measures for itself
                return
            self.fit()
            room = (
                self.query_one("#hand").styles.max_height,
                self.query_one("#table").styles.max_height,
                self.query_one("#log").size,
            )
            self.scroll_log()
            if room == before or rounds <= 1:
                self.settled = True
            else:
                self.call_after_refresh(measure, rounds - 1, room)

        self.call_after_refresh(measure, rounds, None)

    def scroll_log(self) -> None:
        """The log from the first line of the step (or to its end, when all fits)."""
        first = self.upto[self.at - 1] if self.at else 0
        if first < len(self.said):
            self.query_one("#log", ReplayLog).show_from(self.said[first])

    def fit(self) -> None:
        """Share the rows: the log keeps :data:`LOG_MIN`, the table
        :data:`TABLE_MIN`; the hands take what they need of the rest (they scroll),
        the table what is left."""
        fixed = sum(self.query_one(s).outer_size.height for s in ("#header", "#bar"))
        below = LOG_MIN + 1  # (and the footer)
        hand = self.query_one("#hand")
        hand.styles.max_height = max(2, self.size.height - fixed - below - TABLE_MIN)
        fit_table(self, below, "#bar")

    # -- the position -----------------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.steps[self.at]

    def go(self, position: int) -> None:
        """Show ``position`` (from 0, the start, to :attr:`last`)."""
        position = max(0, min(self.last, position))
        if position == self.at:
            return
        log = self.query_one("#log", ReplayLog)
        if position > self.at:
            for item in self.said[len(log.items) : self.upto[position]]:
                log.add(item)
        else:
            log.keep(self.upto[position])
        self.at = position
        if position == self.last and self.playing:
            self.stop()
        self.draw()
        self.scroll_log()  # (on the screen as it is: settle() scrolls again if need be)
        self.settle()

    def draw(self) -> None:
        """The board at the position, and the bar."""
        step = self.step
        hand: RenderableType | None = None
        if self.seat is not None:
            cards = step.view.get("hand")
            if isinstance(cards, list):
                tall = self.size.height >= TALL
                hand = hand_text(cards, self.lang, self.game, rows=tall, click=False)
        elif self.dealt and self.at == self.last:
            hand = self.dealt_text()
        elif step.hands is not None:
            seats = [(seat_label(s, self.lang), cards) for s, cards in enumerate(step.hands)]
            hand = piles_text(t("tui_all_hands", self.lang), seats, self.lang, self.game)
        draw_board(self, self.ui, step.view, self.lang, self.title, hand)
        self.show_bar()

    def dealt_text(self) -> Text:
        """Every hand of the match as it was dealt, every seat's cards face up."""
        out = Text()
        for n, deal in enumerate(self.record.get("deals") or [], 1):
            seats = len(deal.get("hands") or [])
            piles = deal_piles(deal, self.lang)
            if n > 1:
                out.append("\n")
            title = t("replay_deal", self.lang, n=n)
            out.append_text(piles_text(title, piles, self.lang, self.game, sort=seats))
        return out

    def where(self) -> str:
        """``Step 12/240 · Hand 2/4`` (the hand only in a match of several)."""
        lang = self.lang
        out = t("tui_replay_pos", lang, n=self.at, of=self.last)
        hands = self.steps[-1].hand
        if hands > 1:
            out += " · " + t("tui_replay_hand", lang, n=self.step.hand, of=hands)
        if self.playing:
            out += " · " + t("tui_replay_playing", lang, pace=f"{self.pace:g}")
        return out

    def show_bar(self) -> None:
        self.query_one("#bar", Static).update(self.bar_text())

    def bar_text(self) -> Text:
        """The position, and the buttons on the right (on a line of their own when
        the window is narrow)."""
        lang = self.lang
        play = "❚❚" + t("key_pause", lang) if self.playing else "▶" + t("key_play", lang)
        buttons = [
            ("«" + t("key_first", lang), "app.go(0)"),
            ("‹" + t("key_back", lang), "app.step(-1)"),
            (play, "app.play"),
            (t("key_next", lang) + "›", "app.step(1)"),
            (t("key_last", lang) + "»", "app.last"),
        ]
        right = Text(" ").join(
            Text(f"[{label}]", style=Style(bold=True, meta={"@click": action}))
            for label, action in buttons
        )
        left = self.where()
        room = max(20, self.size.width - 2) - cell_len(left) - right.cell_len
        out = Text(left)
        out.append(" " * room if room >= 2 else "\n")
        return out.append_text(right)

    # -- the keys -----------------------------------------------------------------------
    def action_step(self, by: int) -> None:
        self.go(self.at + by)

    def action_go(self, position: int) -> None:
        self.go(position)

    def action_last(self) -> None:
        self.go(self.last)

    def _hand_start(self, position: int) -> int:
        hand = self.steps[position].hand
        while position > 0 and self.steps[position - 1].hand == hand:
            position -= 1
        return position

    def action_hand(self, by: int) -> None:
        """The first position of the next hand (or the end); back: the start of this
        hand, or of the previous one when already there."""
        if by > 0:
            p = self.at
            while p < self.last and self.steps[p].hand == self.step.hand:
                p += 1
            self.go(p)
            return
        start = self._hand_start(self.at)
        self.go(start if start < self.at else self._hand_start(max(0, start - 1)))

    def action_play(self) -> None:
        """Play (from the start when at the end) or pause.  Playing takes the next
        step at once, then one every :attr:`pace` seconds."""
        if self.playing:
            self.stop()
            return
        if self.at >= self.last:
            self.go(0)
            self.playing = True
            self._timer = self.set_interval(self.pace, self.tick)
            self.draw()
            return
        self.playing = True
        self._timer = self.set_interval(self.pace, self.tick)
        self.tick()

    def tick(self) -> None:
        self.go(self.at + 1)

    def stop(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.show_bar()

    def action_pace(self, by: int) -> None:
        """Faster (-1) or slower (+1)."""
        i = PACES.index(self.pace) if self.pace in PACES else PACES.index(1.0)
        self.pace = PACES[max(0, min(len(PACES) - 1, i + by))]
        if self._timer is not None:
            self._timer.stop()
            self._timer = self.set_interval(self.pace, self.tick)
        self.show_bar()
        self.notify(t("tui_replay_pace", self.lang, pace=f"{self.pace:g}"), timeout=1)

    def action_help(self) -> None:
        lang = self.lang
        if self.seat is None:
            whose = t("tui_replay_whole", lang)
        else:
            whose = t("replay_as_seat", lang, seat=seat_label(self.seat, lang))
        body = Group(Text(t("tui_replay_keys", lang)), Text(""), Text(whose, style="yellow"))
        self.push_screen(PagerScreen(t("tui_replay_title", lang), body, lang))

    def action_rules(self) -> None:
        pager = rules_screen(self.game, self.lang)
        if pager is None:
            self.notify(t("no_rules", self.lang))
        else:
            self.push_screen(pager)

    def action_leave(self) -> None:
        self.exit(0, return_code=0)
