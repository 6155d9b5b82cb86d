"""What the regions of the full-screen app show, built from one seat's view.

The table's and the header's contents come from the game's own screen
(:class:`~xtarot.cli.render.GameUI`), exactly as the line-by-line client shows them;
a screen that fails on a view falls back to the generic one, so play goes on.  The
hand is drawn here: compact (one flowing line, for 24 rows) or one row per suit with
the majors' names (a taller window), every card clickable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.style import Style
from rich.text import Text

from xtarot.cli.i18n import paren, t
from xtarot.cli.render import (
    _GROUP_KEYS,
    GameUI,
    SafeUI,
    action_text,
    as_card,
    card_name,
    card_style,
    fit_line,
    suit_groups,
)
from xtarot.engine import Action

__all__ = ["flat", "hand_text", "header_text", "move_prompt", "piles_text", "table_parts"]

_GROUPS = _GROUP_KEYS  # suit -> the message naming its row


def _screen(ui: GameUI) -> tuple[GameUI, GameUI]:
    """The game's own screen and the generic one to fall back on."""
    return (ui.inner if isinstance(ui, SafeUI) else ui), GameUI()


def header_text(ui: GameUI, view: dict[str, Any], lang: str, title: str, width: int) -> Text:
    """The game's header (hand / round, dealer or parent, stock ...) within ``width``
    columns, broken between its fields when it does not fit."""
    own, generic = _screen(ui)
    try:
        head = own.header(view, lang, title)
    except Exception:
        head = generic.header(view, lang, title)
    return fit_line(head, max(20, width))


def table_parts(ui: GameUI, view: dict[str, Any], lang: str) -> RenderableType:
    """The table: the current trick / lot / field and who is winning it, one row per
    seat, then the last finished trick / round / fight (it stays until the next one)."""
    own, generic = _screen(ui)
    try:
        parts = [*own.body(view, lang), *own.recent(view, lang)]
    except Exception:
        parts = generic.body(view, lang)
    return Group(*parts)


def flat(console: Console, renderable: RenderableType, width: int) -> Text:
    """``renderable`` drawn once at ``width`` columns, as a text that is not wrapped
    again (a screen redraws it often; tables are costly to lay out each time)."""
    options = console.options.update(width=max(1, width), height=None)
    out = Text(no_wrap=True, overflow="crop", end="")
    for i, line in enumerate(console.render_lines(renderable, options, pad=False)):
        if i:
            out.append("\n")
        for segment in line:
            if not segment.control:
                out.append(segment.text, segment.style)
    out.rstrip()
    return out


def _card(code: str, lang: str, game: str | None, *, names: bool, click: bool) -> Text:
    c = as_card(code)
    if c is None:
        return Text(str(code))
    style = Style.parse(card_style(c) or "none")
    if click:  # a click on the card plays it (or asks which of its moves)
        style += Style(meta={"@click": f"app.card({c.code!r})"})
    out = Text(c.code, style=style)
    if names and c.suit is None:
        out.append(" " + card_name(c, lang, game), style="dim")
    return out


def hand_text(
    codes: Sequence[str],
    lang: str,
    game: str | None = None,
    *,
    rows: bool = False,
    click: bool = True,
    label: str | None = None,
) -> Text:
    """The hand sorted by suit: ``Your hand (10)  T5 T21 │ Mc Lc │ …`` on flowing
    lines, or (``rows``) one line per suit with the majors' names; ``label``: another
    heading than ``Your hand (10)``.

    >>> hand_text(["Kc", "T3", "2c", "5s"], "en", click=False).plain
    'Your hand (4)  T3 │ 2c Kc │ 5s'
    >>> print(hand_text(["Kc", "T3"], "ja", rows=True, click=False).plain)
    あなたの手札（2）
      大アルカナ  T3 女帝
      聖杯        Kc
    """
    out = Text(t("tui_hand", lang, n=len(codes)) if label is None else label, style="bold")
    groups, others = suit_groups(codes)
    if not codes:
        return out.append("  " + t("empty", lang), style="dim")
    if rows:
        labels = {suit: t(_GROUPS[suit], lang) for suit in groups}
        wide = max(Text(label).cell_len for label in labels.values())
        for suit, members in groups.items():
            label = labels[suit]
            out.append("\n  " + label + " " * (wide - Text(label).cell_len + 2), style="dim")
            gap = "  " if suit is None else " "
            out.append_text(
                Text(gap).join(_card(c, lang, game, names=True, click=click) for c in members)
            )
        if others:
            out.append("\n  … " + " ".join(others))
        return out
    out.append("  ")
    return out.append_text(_flowing(groups, others, lang, game, click=click))


def _flowing(
    groups: dict[str | None, list[str]],
    others: list[str],
    lang: str,
    game: str | None,
    *,
    click: bool,
) -> Text:
    pieces = [
        Text(" ").join(_card(c, lang, game, names=False, click=click) for c in members)
        for members in groups.values()
    ]
    if others:
        pieces.append(Text(" ".join(others)))
    return Text(" │ ", style="dim").join(pieces)


def piles_text(
    title: str,
    piles: Sequence[tuple[str, Sequence[str]]],
    lang: str,
    game: str | None = None,
    *,
    sort: int | None = None,
) -> Text:
    """Several seats' cards (or piles) face up under ``title``, one line each, the
    labels aligned; the first ``sort`` piles (default: all) sorted by suit, the
    others as they lie.

    >>> print(piles_text("Every hand", [("Seat 1", ["Kc", "T3"]), ("kitty", ["5s"])],
    ...                  "en").plain)
    Every hand
      Seat 1 (2)  T3 │ Kc
      kitty (1)   5s
    """
    out = Text(title, style="bold")
    labels = [label + paren(len(cards), lang) for label, cards in piles]
    wide = max((Text(label).cell_len for label in labels), default=0)
    for i, (label, (_, cards)) in enumerate(zip(labels, piles, strict=True)):
        out.append("\n  " + label + " " * (wide - Text(label).cell_len + 2), style="dim")
        if not cards:
            out.append(t("empty", lang), style="dim")
        elif sort is None or i < sort:
            out.append_text(_flowing(*suit_groups(cards), lang, game, click=False))
        else:
            out.append_text(
                Text(" ").join(_card(c, lang, game, names=False, click=False) for c in cards)
            )
    return out


def move_prompt(number: int, action: Action, lang: str, game: str | None, width: int) -> Text:
    """One entry of the list of legal moves: ``12. play Kc  King of cups`` (playing a
    card shows the card's name; any other move its meaning too, as in the plain
    client).

    >>> from xtarot.engine import Action
    >>> move_prompt(3, Action(5, "play Kc"), "en", None, 2).plain
    ' 3. play Kc  King of cups'
    """
    out = Text(f"{number:>{width}}. ", style="cyan")
    words = action.text.split(" ")
    c = as_card(words[-1]) if len(words) == 2 else None
    if c is None or words[0] != "play":  # (playing a card needs no gloss in a list)
        return out.append_text(action_text(action.text, lang, game=game))
    out.append(words[0] + " ")
    out.append(c.code, style=card_style(c) or None)
    return out.append("  " + card_name(c, lang, game), style="dim")
