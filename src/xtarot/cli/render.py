"""Showing one seat's view, announcing what a seat saw change, and final results.

Everything here works from *views* (``state.view(seat)`` / ``public_view()``),
never from the true state, so nothing a seat could not see at a real table is
ever printed.  :class:`GameUI` renders any game's view dict generically; a game
may have a nicer specific UI (:mod:`xtarot.cli.screens`), looked up by game id in
:data:`UIS` with the generic one as the fallback.

>>> from rich.console import Console
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as cap:
...     console.print(card_text("Kc", "en"), card_text("T13", "ja"))
>>> cap.get().strip()
'Kc King of cups T13 死神'
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from xtarot.cards import SUIT_NAMES, Card, UnknownCard, card
from xtarot.cli import text as _text
from xtarot.cli.i18n import colon, comma, gloss, paren, phase_label, seat_label, t, view_label
from xtarot.engine.plugins import LazyRegistry

_text.install()  # Japanese line breaking for every text the CLI prints

__all__ = [
    "GAME_CARD_NAMES",
    "HEADER_WIDTH",
    "UIS",
    "GameUI",
    "SafeUI",
    "action_text",
    "card_index",
    "card_name",
    "card_text",
    "card_words",
    "cards_text",
    "compact",
    "fill",
    "fit_line",
    "gained_lines",
    "hand_rows",
    "masked",
    "moves_menu",
    "result_lines",
    "scores_table",
    "seat_table",
    "since_block",
    "sort_cards",
    "suit_groups",
    "ui_for",
    "visible_codes",
]


#: Keys every view has that the generic renderer shows in its header or not at all.
_HEADER_KEYS = {"game", "players", "seat", "phase", "current_player", "hand", "legal_actions"}


@functools.lru_cache(maxsize=512)
def as_card(code: object) -> Card | None:
    """The card a string names, or ``None`` when it is not a card code."""
    if not isinstance(code, str):
        return None
    try:
        return card(code)
    except UnknownCard:
        return None


def card_index(code: str) -> int:
    """The deck index of a card code (-1 for anything else), for sorting."""
    c = as_card(code)
    return c.index if c is not None else -1


def card_style(c: Card) -> str:
    """Cups and coins red, swords and trees the terminal's colour, majors bold."""
    if c.suit is None:
        return "bold magenta"
    return "red" if c.suit in ("c", "d") else ""


#: Cards a game names itself (its rulebook's names): game id -> code -> (en, ja).
#: Grail Mahjong's three cup specials are not "R(11) of cups" there.
GAME_CARD_NAMES: dict[str, dict[str, tuple[str, str]]] = {
    "grail-mahjong": {
        "Oc": ("Daza's Cup (wild)", "ダーザの杯"),
        "Rc": ("Rest of the Grail", "聖杯の休息"),
        "Lc": ("Luck of the Grail", "聖杯の幸運"),
    },
}


def card_name(c: Card, lang: str, game: str | None = None) -> str:
    """A card's name in ``lang``, as ``game``'s rules call it.

    >>> card_name(card("Rc"), "en"), card_name(card("Rc"), "en", "grail-mahjong")
    ('R(11) of cups', 'Rest of the Grail')
    >>> card_name(card("Lc"), "ja", "grail-mahjong")
    '聖杯の幸運'
    """
    own = GAME_CARD_NAMES.get(game or "", {}).get(c.code)
    if own is not None:
        return own[1] if lang == "ja" else own[0]
    return c.name(lang)


def card_text(code: str, lang: str, *, names: bool = True, game: str | None = None) -> Text:
    """A card code (coloured by suit), followed by its name in ``lang`` (as ``game``
    names it)."""
    c = as_card(code)
    if c is None:
        return Text(str(code))
    out = Text(c.code, style=card_style(c) or None)
    if names:
        out.append(f" {card_name(c, lang, game)}", style="dim")
    return out


def cards_text(
    codes: Sequence[str],
    lang: str,
    *,
    names: bool = False,
    sep: str = " ",
    game: str | None = None,
) -> Text:
    """Several cards on one line (named as ``game`` names them)."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(card_text(code, lang, names=names, game=game))
    return out


#: A trick contract such as ``bid 7d`` (seven tricks, coins trump): not a card.
_CONTRACT = re.compile(r"^bid (\d+)(c|d|s|w|nt)$")


def card_words(text: str) -> list[Card | None]:
    """For each word of an action text, the card it names (``None``: not a card)."""
    words = text.split(" ")
    if _CONTRACT.match(text):
        return [None] * len(words)
    return [as_card(word.split("=")[0]) for word in words]


def contract_gloss(text: str, lang: str) -> str | None:
    """``bid 7d`` -> ``7 tricks, trump coins`` / ``7トリック、切り札は金貨``.

    >>> contract_gloss("bid 8nt", "en"), contract_gloss("bid 6s", "ja")
    ('8 tricks, no trump', '6トリック、切り札は魔剣')
    """
    m = _CONTRACT.match(text)
    if m is None:
        return None
    n, suit = m.groups()
    if suit == "nt":
        return t("bid_tricks_nt", lang, n=n)
    ja, en = SUIT_NAMES[suit]
    return t("bid_tricks", lang, n=n, suit=ja if lang == "ja" else en)


_ADD_TO_MELD = re.compile(r"^add \S+ (\d+)$")


def action_text(text: str, lang: str, *, names: bool = True, game: str | None = None) -> Text:
    """An action's canonical text with its cards coloured, a gloss and (``names``)
    the cards' names (as ``game`` names them).  Grail Mahjong's ``add Oc=6d 1``
    (melds numbered from 0 in the text) is glossed with the meld counted from 1.

    >>> action_text("add Oc=6d 1", "en", game="grail-mahjong").plain
    "add Oc=6d 1  (add to meld 2, Daza's Cup (wild))"
    """
    out = Text()
    named: list[str] = []
    for i, (word, c) in enumerate(zip(text.split(" "), card_words(text), strict=True)):
        if i:
            out.append(" ")
        if c is None:
            out.append(word)
        else:
            out.append(word, style=card_style(c) or None)
            if names:
                named.append(card_name(c, lang, game))
    meaning = contract_gloss(text, lang) or gloss(text, lang)
    add = _ADD_TO_MELD.match(text)
    if add is not None:
        meaning = t("gm_add_gloss", lang, n=int(add.group(1)) + 1)
    extra = [g for g in (meaning, *named) if g]
    if extra:
        if lang == "ja":
            out.append("（" + "、".join(extra) + "）", style="dim")
        else:
            out.append(f"  ({', '.join(extra)})", style="dim")
    return out


def compact(value: Any, lang: str, limit: int = 160) -> Text:
    """A short one-line rendering of any JSON value from a view."""
    out = _compact(value, lang, depth=0)
    if len(out.plain) > limit:
        out.truncate(limit - 1)
        out.append("…")
    return out


def _compact(value: Any, lang: str, depth: int) -> Text:
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, bool):
        return (
            Text("yes" if value else "no") if lang != "ja" else Text("はい" if value else "いいえ")
        )
    if isinstance(value, str):
        return card_text(value, lang, names=False) if as_card(value) else Text(value)
    if isinstance(value, int | float):
        return Text(f"{value:g}")
    if isinstance(value, list):
        if not value:
            return Text(t("empty", lang), style="dim")
        if all(isinstance(v, str) for v in value):
            return cards_text(value, lang)
        items = value
        out = Text()
        if len(value) > 3 and depth == 0 and any(isinstance(v, list | dict) for v in value):
            out.append(f"({len(value)}) … ", style="dim")
            items = value[-2:]
        out.append("[")
        for i, v in enumerate(items):
            if i:
                out.append(", ")
            out.append_text(_compact(v, lang, depth + 1))
        out.append("]")
        return out
    if isinstance(value, dict):
        out = Text("{" if depth else "")
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(", ")
            out.append(f"{k}=", style="dim")
            out.append_text(_compact(v, lang, depth + 1))
        if depth:
            out.append("}")
        return out
    return Text(json.dumps(value, ensure_ascii=False, default=str))


def fill(template: str, cards: Text) -> Text:
    """``template`` with the ``\0`` marker replaced by the rendered ``cards``."""
    pre, _, post = template.partition("\0")
    out = Text(pre)
    out.append_text(cards)
    out.append(post)
    return out


def _is_counter(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    return isinstance(value, int | float) and not isinstance(value, bool)


def hand_columns(codes: Sequence[str], lang: str) -> RenderableType:
    """A hand, one card with its name per cell, wrapped to the terminal width."""
    if not codes:
        return Text(t("empty", lang), style="dim")
    return Columns([card_text(c, lang) for c in codes], padding=(0, 3))


_GROUP_KEYS = {None: "majors", "c": "suit_cups", "d": "suit_coins", "s": "suit_swords"}
_GROUP_KEYS["w"] = "suit_trees"


def sort_cards(codes: Sequence[str]) -> list[str]:
    """Cards in deck order: majors by number, then cups, coins, swords, trees by rank.

    >>> sort_cards(["Kd", "T3", "2c", "Oc", "T0", "Ac"])
    ['T0', 'T3', 'Ac', '2c', 'Kd', 'Oc']
    """
    return sorted(codes, key=lambda code: (card_index(code), str(code)))


def suit_groups(codes: Sequence[str]) -> tuple[dict[str | None, list[str]], list[str]]:
    """A hand as it is held: its cards by suit (majors under ``None``) in sorted order,
    and the entries that are not cards, as they are.

    >>> suit_groups(["Kc", "T3", "2c", "?"])
    ({None: ['T3'], 'c': ['2c', 'Kc']}, ['?'])
    """
    groups: dict[str | None, list[str]] = {}
    others: list[str] = []
    for code in sort_cards(codes):
        c = as_card(code)
        if c is None:
            others.append(str(code))
        else:
            groups.setdefault(c.suit, []).append(code)
    return groups, others


def hand_rows(codes: Sequence[str], lang: str, *, label: str | None = None) -> RenderableType:
    """A hand sorted by suit and order, one line per suit (majors with their names).

    Cups and coins print red, swords and trees in the terminal's colour, majors bold
    magenta; the wild ``Oc`` sits with the cups.  Non-card entries go last as is.
    """
    head = Text(label if label is not None else t("hand", lang), style="bold")
    head.append(paren(len(codes), lang), style="dim")
    if not codes:
        return Group(head, Text("  " + t("empty", lang), style="dim"))
    groups, others = suit_groups(codes)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for suit, members in groups.items():
        line = Text()
        for i, code in enumerate(members):
            if i:
                line.append("  " if suit is None else " ")
            line.append_text(card_text(code, lang, names=suit is None))
        grid.add_row(f"  {t(_GROUP_KEYS[suit], lang)}", line)
    if others:
        grid.add_row("  …", Text(" ".join(others)))
    return Group(head, grid)


def visible_codes(value: Any, out: set[str] | None = None) -> set[str]:
    """Every card code (``Oc=3`` counts as ``Oc``) anywhere in a view."""
    out = set() if out is None else out
    if isinstance(value, str):
        for c in card_words(value):
            if c is not None:
                out.add(c.code)
    elif isinstance(value, dict):
        for v in value.values():
            visible_codes(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            visible_codes(v, out)
    return out


def masked(text: str, visible: set[str]) -> str:
    """``text`` with every card code the seat cannot see replaced by ``?``.

    >>> masked("discard Kc 3d", {"3d"}), masked("bid 7d", set())
    ('discard ? 3d', 'bid 7d')
    """
    words = []
    for word, c in zip(text.split(" "), card_words(text), strict=True):
        hidden = c is not None and word.split("=")[0] not in visible
        words.append("?" if hidden else word)
    return " ".join(words)


def scores_table(
    scores: dict[str, Any], lang: str, you: int | None, *, title: str | None = None
) -> Table:
    """Seat, score and rank from a ``Scores.to_dict()``, best first."""
    table = Table(title=title, show_edge=False, pad_edge=False)
    table.add_column(t("col_rank", lang), justify="right")
    table.add_column(t("col_seat", lang))
    table.add_column(t("col_score", lang), justify="right")
    order = sorted(range(len(scores["totals"])), key=lambda s: (scores["ranks"][s], s))
    for s in order:
        table.add_row(
            str(scores["ranks"][s]),
            seat_label(s, lang, you),
            f"{scores['totals'][s]:g}",
            style="bold" if s == you else None,
        )
    return table


def result_lines(scores: dict[str, Any], lang: str, you: int | None) -> list[Text]:
    """The winner line(s) of a final ``Scores.to_dict()``."""
    winners = scores["winners"]
    who = comma(lang).join(seat_label(s, lang, you) for s in winners)
    teams = [sorted(team) for team in scores.get("teams") or []]
    team_win = sorted(winners) in teams
    key = "team_wins" if team_win else "winner_is" if len(winners) == 1 else "winners_are"
    lines = [Text(t(key, lang, who=who), style="bold green")]
    if you is not None:
        rank = scores["ranks"][you]
        if rank == 1:
            alone = len(winners) == 1 or team_win
            won = "you_team" if team_win else "you_won" if alone else "you_shared"
            lines.append(Text(t(won, lang)))
        else:
            lines.append(Text(t("you_placed", lang, rank=rank)))
    return lines


def seat_table(*columns: str | tuple[str, str]) -> Table:
    """A compact per-seat table: a dim header row, no rules (a column is a title or
    ``(title, justify)``)."""
    table = Table(box=None, show_edge=False, pad_edge=False, header_style="dim", padding=(0, 1))
    for col in columns:
        title, justify = (col, "left") if isinstance(col, str) else col
        table.add_column(title, justify=justify, no_wrap=title == columns[0])  # type: ignore[arg-type]
    return table


#: How many lines of events a board shows at most (the earlier ones are counted).
SINCE_LINES = 6


def since_block(lines: Sequence[Text], lang: str, *, first: bool = False) -> list[RenderableType]:
    """The "since your last move" summary on a board: the last few event lines.

    >>> [getattr(x, "renderable", x).plain for x in since_block([Text("Seat 2: 4c")], "en")]
    ['Since your last move:', 'Seat 2: 4c']
    """
    if not lines:
        return []
    merged: list[Text] = []  # "Seat 2 lays a card face down (×5)"
    count = 0
    for line in lines:
        if merged and line.plain == merged[-1].plain.rsplit(" (×", 1)[0]:
            count += 1
            merged[-1] = line.copy().append(f" (×{count})", style="dim")
        else:
            count = 1
            merged.append(line)
    lines = merged
    head = Text(t("since_first" if first else "since_last", lang) + ":", style="bold")
    if lang == "ja":
        head = Text(t("since_first" if first else "since_last", lang) + "：", style="bold")
    out: list[RenderableType] = [head]
    shown = list(lines[-SINCE_LINES:])
    if len(lines) > len(shown):
        out.append(Text("  " + t("since_more", lang, n=len(lines) - len(shown)), style="dim"))
    out += [Padding(line, (0, 0, 0, 2)) for line in shown]
    return out


def gained_lines(before: dict[str, Any], after: dict[str, Any], lang: str) -> list[Text]:
    """``You receive 4c Kw``: cards that came into the seat's hand without being
    chosen from a visible place (draws, a new batch, the kitty)."""
    old, new = before.get("hand"), after.get("hand")
    if not isinstance(old, list) or not isinstance(new, list):
        return []
    gained = sorted((Counter(new) - Counter(old)).elements(), key=card_index)
    if not gained:
        return []
    stock = next((k for k in ("stock_count", "stock_left") if k in after), None)
    drew = stock is not None and isinstance(before.get(stock), int) and after[stock] < before[stock]
    key = "you_draw" if drew else "you_receive"
    shown = cards_text(gained, lang, names=True, game=after.get("game"))
    return [fill("  " + t(key, lang, cards="\0"), shown)]


class Flow:
    """Items laid left to right and wrapped between items, never inside one (a
    numbered card ``12 Kc`` stays whole); wrapped lines are indented by ``indent``."""

    def __init__(self, items: Sequence[Text], gap: int = 2, indent: int = 0) -> None:
        self.items = list(items)
        self.gap = gap
        self.indent = indent

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        width = max(1, options.max_width)
        line = Text()
        for item in self.items:
            size = item.cell_len
            if line.cell_len and line.cell_len + self.gap + size > width:
                yield line
                line = Text(" " * self.indent)
            if line.plain.strip():
                line.append(" " * self.gap)
            line.append_text(item)
        if line.plain:
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((item.cell_len for item in self.items), default=1)
        total = sum(item.cell_len for item in self.items) + self.gap * max(0, len(self.items) - 1)
        return Measurement(min(widest + self.indent, options.max_width), total)


def _verb_and_card(text: str) -> tuple[str, str] | None:
    """``play Kc`` -> (``play``, ``Kc``): a move that names one card, last."""
    words = text.split(" ")
    if len(words) < 2 or _CONTRACT.match(text) or "=" in words[-1]:
        return None
    if as_card(words[-1]) is None or any(as_card(w) is not None for w in words[:-1]):
        return None
    return " ".join(words[:-1]), words[-1]


def _verb_label(verb: str, lang: str) -> Text:
    out = Text(verb, style="bold")
    meaning = gloss(verb + " x", lang) if lang == "ja" else None
    if meaning:
        out.append(f"（{meaning}）", style="dim")
    return out


def moves_menu(legal: Sequence[str], lang: str, game: str | None = None) -> RenderableType:
    """The numbered legal moves, compactly: moves that name one card are grouped by
    their verb and shown as that verb's cards, one line per suit (``2 Kc  5 7c``);
    the others as ``n. text (gloss)`` in columns.  Numbers follow ``legal``'s order.

    >>> from rich.console import Console
    >>> console = Console(width=60, color_system=None)
    >>> with console.capture() as cap:
    ...     console.print(moves_menu(["play 2c", "play Kc", "play T6", "pass"], "en"))
    >>> for line in cap.get().splitlines():
    ...     print(line.rstrip())
    play
      Majors  3 T6
      Cups    1 2c  2 Kc
    4. pass
    """
    groups: dict[str, list[tuple[int, str]]] = {}
    others: list[tuple[int, str]] = []
    for n, text in enumerate(legal, 1):
        vc = _verb_and_card(text)
        if vc is None:
            others.append((n, text))
        else:
            groups.setdefault(vc[0], []).append((n, vc[1]))
    for verb in [v for v, members in groups.items() if len(members) < 3]:
        others += [(n, f"{verb} {code}") for n, code in groups.pop(verb)]
    others.sort()
    parts: list[RenderableType] = []
    for verb, members in groups.items():
        parts.append(_verb_label(verb, lang))
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        by_suit: dict[str | None, list[tuple[int, str]]] = {}
        for n, code in sorted(members, key=lambda m: card_index(m[1])):
            by_suit.setdefault(as_card(code).suit, []).append((n, code))  # type: ignore[union-attr]
        for suit, row in by_suit.items():
            cells = []
            for n, code in row:
                cell = Text(f"{n} ", style="cyan")
                cells.append(cell.append_text(card_text(code, lang, names=False)))
            grid.add_row("  " + t(_GROUP_KEYS[suit], lang), Flow(cells))
        parts.append(grid)
    if others:
        width = len(str(len(legal)))
        cells = []
        several = len(others) > 6  # many moves: their texts, without card names
        for n, text in others:
            cell = Text(f"{n:>{width}}. ", style="cyan")
            cells.append(cell.append_text(action_text(text, lang, names=not several, game=game)))
        parts.append(Columns(cells, padding=(0, 3), column_first=True))
    return Group(*parts)


#: The widest a header line may be: it must fit an 80-column terminal unwrapped.
HEADER_WIDTH = 80


def fit_line(text: Text, width: int = HEADER_WIDTH, sep: str = "   ") -> Text:
    """``text`` (fields joined by ``sep``) within ``width`` display columns, Japanese
    double-width characters counted twice: as it is when it fits; else with the
    fields closer together; else broken between fields, never inside one, the
    following lines indented.

    >>> fit_line(Text("A" * 8 + "   " + "B" * 8 + "   " + "C" * 8), 22).plain.split("\\n")
    ['AAAAAAAA  BBBBBBBB', '  CCCCCCCC']
    >>> fit_line(Text("第16ラウンド   親：1番席"), 23).plain
    '第16ラウンド  親：1番席'
    """
    if cell_len(text.plain) <= width:
        return text
    parts = [p for p in text.split(sep) if p.plain.strip()]
    gap = "  "
    if sum(cell_len(p.plain) for p in parts) + len(gap) * (len(parts) - 1) <= width:
        return Text(gap).join(parts)
    out = Text()
    used = 0
    for part in parts:
        size = cell_len(part.plain)
        if used and used + len(gap) + size > width:
            out.append("\n" + gap)
            used = len(gap)
        elif used:
            out.append(gap)
            used += len(gap)
        out.append_text(part)
        used += size
    return out


class GameUI:
    """The generic renderer: works for every game's view dict.

    The board: a rule, a header (game, phase, whose turn), what happened since the
    seat's last move, a table with one row per seat built from every per-seat list of
    the view (hand sizes, tricks, melds, ... and the score), the other view keys one
    per line, and the seat's hand sorted by suit.  A game's own screen overrides the
    parts it draws better.
    """

    #: View keys the generic screen leaves out (shown elsewhere or too noisy).
    skip: frozenset[str] = frozenset()
    #: The match's game options, when known (see :func:`ui_for`); views do not hold them.
    options: Mapping[str, Any] = MappingProxyType({})

    def header_lines(self, view: dict[str, Any], lang: str, title: str) -> Text:
        """The header as shown: :meth:`header` fitted to :data:`HEADER_WIDTH` columns
        (see :func:`fit_line`)."""
        return fit_line(self.header(view, lang, title))

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text()
        out.append(title, style="bold")
        if view.get("phase") is not None:
            out.append(
                "   " + t("view_phase", lang, phase=phase_label(view["phase"], lang)), style="dim"
            )
        cp = view.get("current_player")
        if cp is not None:
            out.append("   " + t("to_act", lang, seat=seat_label(cp, lang, view.get("seat"))))
        return out

    def _per_seat(self, view: dict[str, Any], key: str, value: Any) -> bool:
        return (
            isinstance(value, list)
            and len(value) == view.get("players")
            and key not in _HEADER_KEYS
            and key not in self.skip
            and not all(isinstance(v, str) for v in value)
        )

    def seat_name(self, view: dict[str, Any], s: int, lang: str) -> str:
        """A seat's label in a table: ``▶`` marks the seat to act."""
        label = seat_label(s, lang, view.get("seat"))
        return "▶ " + label if view.get("current_player") == s else "  " + label

    def seats_table(self, view: dict[str, Any], lang: str) -> Table:
        """One row per seat: every per-seat list of the view, then the score."""
        you = view.get("seat")
        keys = [k for k, v in view.items() if self._per_seat(view, k, v)]
        scores = view.get("scores")
        totals = scores.get("totals") if isinstance(scores, dict) else None
        cols: list[str | tuple[str, str]] = [t("col_seat", lang)]
        cols += [view_label(k, lang) for k in keys]
        if totals:
            cols.append((t("col_score", lang), "right"))
        table = seat_table(*cols)
        for s in range(view.get("players", 0)):
            row: list[RenderableType] = [self.seat_name(view, s, lang)]
            row += [compact(view[k][s], lang, limit=70) for k in keys]
            if totals:
                row.append(f"{totals[s]:g}")
            table.add_row(*row, style="bold" if s == you else None)
        return table

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="cyan", no_wrap=True)
        grid.add_column()
        for key, value in view.items():
            if key in _HEADER_KEYS or key in self.skip or key == "scores":
                continue
            if self._per_seat(view, key, value):
                continue
            grid.add_row(view_label(key, lang), compact(value, lang))
        return [grid, self.seats_table(view, lang)]

    def recent(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        """The last finished trick, round or fight: on a board without a summary."""
        return []

    def opening(self, view: dict[str, Any], lang: str) -> list[Text]:
        """Lines printed when a match or a new hand starts (before anyone acts)."""
        return []

    def hand_end(
        self, before: dict[str, Any], after: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        """The summary of the hand that just ended (``before``: its last view)."""
        return []

    def hand(self, view: dict[str, Any], lang: str) -> RenderableType:
        return hand_rows(view["hand"], lang)

    def menu(self, view: dict[str, Any], legal: Sequence[str], lang: str) -> RenderableType:
        """The numbered legal moves (see :func:`moves_menu`)."""
        return moves_menu(legal, lang, view.get("game"))

    def view(
        self,
        view: dict[str, Any],
        lang: str,
        title: str,
        since: Sequence[Text] = (),
        *,
        first: bool = False,
    ) -> RenderableType:
        """The seat's whole board; ``since``: the events since the seat's last move."""
        parts: list[RenderableType] = [
            Rule(style="dim"),
            self.header_lines(view, lang, title),
            *since_block(since, lang, first=first),
            *self.body(view, lang),
        ]
        if not since:  # the summary tells the last trick / round / fight already
            parts += self.recent(view, lang)
        if "hand" in view:
            parts.append(self.hand(view, lang))
        return Group(*parts)

    def effects(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        """What followed an action (``seen``: as the seat saw it): a trick won (a list
        of records with a ``winner`` that grew)."""
        you = after.get("seat")
        out: list[Text] = []
        for key, value in after.items():
            old = before.get(key)
            if (
                isinstance(value, list)
                and isinstance(old, list)
                and len(value) == len(old) + 1
                and isinstance(value[-1], dict)
                and isinstance(value[-1].get("winner"), int)
                and key in ("tricks", "rounds", "combats")
            ):
                winner = seat_label(value[-1]["winner"], lang, you)
                out.append(Text("  → " + t("trick_won", lang, seat=winner), style="bold"))
        return out

    def announce(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        """What ``after.seat`` saw when ``actor`` acted.

        With ``seen`` (the action as the seat saw it, from ``state.action_seen_by``:
        the game masks what the seat may not see, e.g. ``discard ?``): that action and
        its effects.  Without: the view keys that changed.
        """
        you = after.get("seat")
        if seen is not None:
            out: list[Text] = []
            if actor != you:
                line = Text(colon(seat_label(actor, lang, you), lang), style="bold")
                out.append(line.append_text(action_text(seen, lang, game=after.get("game"))))
            return out + self.effects(before, after, actor, lang, seen=seen)
        changed = [
            k
            for k, v in after.items()
            if k not in _HEADER_KEYS and k != "scores" and before.get(k) != v
        ]
        # Counters (hand sizes, stock counts) say least: show them last.
        changed.sort(key=lambda k: _is_counter(after[k]))
        if actor == you:  # the player's own move was echoed already: only its effect
            if not changed:
                return []
            head = Text("  ↳ ", style="dim")
        else:
            head = Text()
            head.append(seat_label(actor, lang, you), style="bold")
            if not changed:
                head.append(": " + t("seat_acted", lang, seat="").strip())
                return [head]
            head.append(": ")
        for i, k in enumerate(changed[:5]):
            if i:
                head.append("; ")
            head.append(f"{k}=", style="dim")
            head.append_text(compact(after[k], lang, limit=80))
        return [head]

    def end_reason(self, view: dict[str, Any], scores: dict[str, Any], lang: str) -> list[Text]:
        """Why the match ended, when the scores alone do not say it (Arcana Duel)."""
        return []

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        """The final result (scores table and winners)."""
        you = view.get("seat")
        return [
            *self.end_reason(view, scores, lang),
            scores_table(scores, lang, you, title=t("final_scores", lang)),
            *result_lines(scores, lang, you),
        ]


class SafeUI(GameUI):
    """A game's screen that falls back to the generic one if it fails on a view it
    did not expect (a game still changing its view keys): play goes on."""

    def __init__(self, inner: GameUI) -> None:
        self.inner = inner

    def view(
        self,
        view: dict[str, Any],
        lang: str,
        title: str,
        since: Sequence[Text] = (),
        *,
        first: bool = False,
    ) -> RenderableType:
        try:
            return self.inner.view(view, lang, title, since, first=first)
        except Exception:
            return super().view(view, lang, title, since, first=first)

    def menu(self, view: dict[str, Any], legal: Sequence[str], lang: str) -> RenderableType:
        try:
            return self.inner.menu(view, legal, lang)
        except Exception:
            return super().menu(view, legal, lang)

    def announce(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        try:
            return self.inner.announce(before, after, actor, lang, seen=seen)
        except Exception:
            return super().announce(before, after, actor, lang, seen=seen)

    def opening(self, view: dict[str, Any], lang: str) -> list[Text]:
        try:
            return self.inner.opening(view, lang)
        except Exception:
            return []

    def hand_end(
        self, before: dict[str, Any], after: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        try:
            return self.inner.hand_end(before, after, lang)
        except Exception:
            return []

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        try:
            return self.inner.final(view, scores, lang)
        except Exception:
            return super().final(view, scores, lang)


def _install_screen(game_id: str, obj: Any) -> GameUI:
    """An ``xtarot.screens`` entry point: a :class:`GameUI` subclass or instance."""
    if isinstance(obj, type) and issubclass(obj, GameUI):
        obj = obj()
    if not isinstance(obj, GameUI):
        raise TypeError(f"expected a xtarot.cli.render.GameUI subclass, got {obj!r}")
    return obj


#: Game id -> its specific UI; any other game gets the generic :class:`GameUI`.
#: Plugins add screens through the ``xtarot.screens`` entry-point group.
UIS: dict[str, GameUI] = LazyRegistry("xtarot.screens", {}, _install_screen)
_GENERIC = GameUI()


def ui_for(game_id: str, options: Mapping[str, Any] | None = None) -> GameUI:
    """The UI of a game (specific when there is one, else generic); with ``options``
    (the match's game options), a copy that knows them (e.g. how many hands end the
    match)."""
    import xtarot.cli.screens  # noqa: F401  (registers the game screens)

    ui = UIS.get(game_id, _GENERIC)
    if options is None:
        return ui
    ui = copy.copy(ui)
    ui.options = dict(options)
    return ui
