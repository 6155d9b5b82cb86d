"""The regions both apps show (``xtarot play`` and ``xtarot replay``): the header,
the table and the hand, drawn from one view by the game's own screen; the footer's
keys in the person's language; the rules pager.

::

    header      game, hand / round, dealer or parent, stock (what the game's header says)
    table       the current trick / lot / field and who is winning it, one row per seat,
                the last finished trick / round / fight (scrolls when the window is low)
    hand        the cards: the seat's own, or every seat's in a replay that shows all
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from xtarot.cli.i18n import rules_text, t
from xtarot.cli.render import GameUI
from xtarot.cli.text import JMarkdown
from xtarot.tui.parts import flat, header_text, table_parts
from xtarot.tui.widgets import PagerScreen

__all__ = [
    "BOARD_CSS",
    "TALL",
    "board_regions",
    "draw_board",
    "fit_table",
    "rules_pager",
    "rules_screen",
    "translate_keys",
]

#: From this many rows on, a hand is shown one row per suit with the majors' names.
TALL = 32

BOARD_CSS = """
Screen { layout: vertical; }
#header { height: auto; background: $panel; color: $text; padding: 0 1; }
#table { height: auto; padding: 0 1; scrollbar-size-vertical: 1; }
#hand { height: auto; padding: 0 1; border-top: solid $panel-lighten-2; }
"""


def board_regions(hand: Widget | None = None) -> ComposeResult:
    """The header, the table and the hand, one below the other; ``hand``: a region
    holding the ``#hand-body`` the hand is drawn in (default: drawn in ``#hand``)."""
    yield Static(id="header")
    with VerticalScroll(id="table", can_focus=False):
        yield Static(id="table-body")
    yield Static(id="hand") if hand is None else hand


def draw_board(
    app: App[Any],
    ui: GameUI,
    view: dict[str, Any],
    lang: str,
    title: str,
    hand: RenderableType | None,
) -> None:
    """Header and table from ``view`` (as the game's screen draws them, at the
    window's width); the hand region shows ``hand``, or nothing."""
    width = max(20, app.size.width - 2)
    app.query_one("#header", Static).update(header_text(ui, view, lang, title, width))
    table = table_parts(ui, view, lang)
    app.query_one("#table-body", Static).update(flat(app.console, table, width))
    region = app.query_one("#hand")
    region.display = hand is not None
    if hand is not None:
        body = region if isinstance(region, Static) else region.query_one("#hand-body")
        assert isinstance(body, Static)
        body.update(hand)


def fit_table(app: App[Any], below: int, *above: str) -> None:
    """Give the table the rows the header, the hand, the regions ``above`` (selectors)
    and ``below`` rows under it leave (at least 3: it scrolls)."""
    used = sum(app.query_one(s).outer_size.height for s in ("#header", "#hand", *above))
    app.query_one("#table").styles.max_height = max(3, app.size.height - used - below)


def translate_keys(app: App[Any], lang: str, labelled: tuple[str, ...]) -> None:
    """The footer's descriptions in ``lang``: a binding described ``Next`` is shown
    as the message ``key_next``."""
    labels = {d: t("key_" + d.lower(), lang) for d in labelled}
    bindings = app._bindings.key_to_bindings
    for key, bound in bindings.items():
        bindings[key] = [
            replace(b, description=labels.get(b.description, b.description)) for b in bound
        ]


def rules_pager(markdown: str, note: str | None, lang: str) -> PagerScreen:
    """A rules summary in a pager; ``note``: said above it (it is in the other
    language)."""
    body: RenderableType = JMarkdown(markdown) if lang == "ja" else Markdown(markdown)
    if note is not None:
        body = Group(Text(note, style="yellow"), body)
    return PagerScreen(t("key_rules", lang), body, lang)


def rules_screen(game: str, lang: str) -> PagerScreen | None:
    """The game's rules summary in a pager, or ``None`` when it has none."""
    found = rules_text(game, lang)
    if found is None:
        return None
    markdown, written_in = found
    return rules_pager(markdown, t("rules_fallback", lang) if written_in != lang else None, lang)
