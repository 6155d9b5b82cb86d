"""Showing one seat's view, announcing what a seat saw change, and final results.

Everything here works from *views* (``state.view(seat)`` / ``public_view()``),
never from the true state, so nothing a seat could not see at a real table is
ever printed.  :class:`GameUI` renders any game's view dict generically; a game
may have a nicer specific UI (:class:`SonoArcanaUI`), looked up by game id in
:data:`UIS` with the generic one as the fallback.

>>> from rich.console import Console
>>> console = Console(width=100, color_system=None)
>>> with console.capture() as cap:
...     console.print(card_text("Kc", "en"), card_text("T13", "ja"))
>>> cap.get().strip()
'Kc King of cups T13 死神'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from xtarot.cards import SUIT_NAMES, Card, UnknownCard, card
from xtarot.cli.i18n import gloss, seat_label, t

__all__ = [
    "UIS",
    "GameUI",
    "SonoArcanaUI",
    "action_text",
    "card_text",
    "compact",
    "scores_table",
    "ui_for",
]

_SEP = (", ", "、")

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


def _card_index(code: str) -> int:
    c = as_card(code)
    return c.index if c is not None else -1


def card_style(c: Card) -> str:
    """Cups and coins red, swords and trees the terminal's colour, majors bold."""
    if c.suit is None:
        return "bold magenta"
    return "red" if c.suit in ("c", "d") else ""


def card_text(code: str, lang: str, *, names: bool = True) -> Text:
    """A card code (coloured by suit), followed by its name in ``lang``."""
    c = as_card(code)
    if c is None:
        return Text(str(code))
    out = Text(c.code, style=card_style(c) or None)
    if names:
        out.append(f" {c.name(lang)}", style="dim")
    return out


def cards_text(codes: Sequence[str], lang: str, *, names: bool = False, sep: str = " ") -> Text:
    """Several cards on one line."""
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(card_text(code, lang, names=names))
    return out


def action_text(text: str, lang: str) -> Text:
    """An action's canonical text with its cards coloured, their names and a gloss."""
    out = Text()
    named: list[str] = []
    for i, word in enumerate(text.split(" ")):
        if i:
            out.append(" ")
        c = as_card(word.split("=")[0])
        if c is None:
            out.append(word)
        else:
            out.append(word, style=card_style(c) or None)
            named.append(c.name(lang))
    extra = [g for g in (gloss(text, lang), *named) if g]
    if extra:
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
    who = ", ".join(seat_label(s, lang, you) for s in winners)
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


class GameUI:
    """The generic renderer: works for every game's view dict."""

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text()
        out.append(title, style="bold")
        if view.get("phase") is not None:
            out.append("   " + t("view_phase", lang, phase=view["phase"]), style="dim")
        cp = view.get("current_player")
        if cp is not None:
            out.append("   " + t("to_act", lang, seat=seat_label(cp, lang, view.get("seat"))))
        return out

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="cyan", no_wrap=True)
        grid.add_column()
        for key, value in view.items():
            if key in _HEADER_KEYS:
                continue
            if key == "scores" and isinstance(value, dict) and "totals" in value:
                value = value["totals"]
            per_seat = (
                isinstance(value, list)
                and len(value) == view.get("players")
                and any(isinstance(v, list | dict) for v in value)
            )
            if per_seat:  # one line per seat
                lines = Text()
                for s, v in enumerate(value):
                    if s:
                        lines.append("\n")
                    lines.append(f"{seat_label(s, lang, view.get('seat'))}: ", style="dim")
                    lines.append_text(compact(v, lang))
                grid.add_row(key, lines)
            else:
                grid.add_row(key, compact(value, lang))
        return [grid]

    def opening(self, view: dict[str, Any], lang: str) -> list[Text]:
        """Lines printed once when a match starts (before anyone acts)."""
        return []

    def view(self, view: dict[str, Any], lang: str, title: str) -> RenderableType:
        """A panel with the seat's whole view."""
        parts: list[RenderableType] = [self.header(view, lang, title), *self.body(view, lang)]
        if "hand" in view:
            parts.append(Text(t("hand", lang) + f" ({len(view['hand'])})", style="bold"))
            parts.append(hand_columns(view["hand"], lang))
        return Panel(Group(*parts), expand=False)

    def announce(
        self, before: dict[str, Any], after: dict[str, Any], actor: int, lang: str
    ) -> list[Text]:
        """What ``after.seat`` saw change when ``actor`` acted: the changed view keys."""
        you = after.get("seat")
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
            out = Text("  ↳ ", style="dim")
        else:
            out = Text()
            out.append(seat_label(actor, lang, you), style="bold")
            if not changed:
                out.append(": " + t("seat_acted", lang, seat="").strip())
                return [out]
            out.append(": ")
        for i, k in enumerate(changed[:5]):
            if i:
                out.append("; ")
            out.append(f"{k}=", style="dim")
            out.append_text(compact(after[k], lang, limit=80))
        return [out]

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        """The final result (scores table and winners)."""
        you = view.get("seat")
        return [
            scores_table(scores, lang, you, title=t("final_scores", lang)),
            *result_lines(scores, lang, you),
        ]

    def course(
        self, public: dict[str, Any], steps: list[tuple[int | None, str]], lang: str
    ) -> list[RenderableType]:
        """The public course of a finished match for ``xtarot replay``: its moves."""
        out: list[RenderableType] = [Text(t("replay_moves", lang), style="bold")]
        for i, (seat, text) in enumerate(steps, 1):
            line = Text(f"{i:4}. ")
            line.append(seat_label(seat, lang) if seat is not None else "—", style="cyan")
            line.append("  ")
            line.append_text(action_text(text, lang))
            out.append(line)
        return out


class SonoArcanaUI(GameUI):
    """そのアルカナは欲しくない: lot, parent, bid mode, table, talismans won, scores."""

    def _mode(self, view: dict[str, Any], lang: str) -> str:
        if view.get("mode") == "up":
            suit = view.get("led_suit") or ""
            names = SUIT_NAMES.get(suit)
            shown = f"{suit} ({names[1 if lang != 'ja' else 0]})" if names else suit
            return t("sa_mode_up", lang, suit=shown)
        if view.get("mode") == "down":
            return t("sa_mode_down", lang)
        return t("sa_mode_none", lang)

    def round_line(self, r: dict[str, Any], n: int, lang: str, you: int | None) -> Text:
        """One resolved round, e.g. ``Round 2: parent Seat 3, face up, lot T4 — … → …``."""
        mode = t("sa_up" if r["mode"] == "up" else "sa_down", lang)
        head = t(
            "sa_round_line",
            lang,
            round=t("sa_round", lang, n=n),
            parent=seat_label(r["parent"], lang, you),
            mode=mode,
            lot="\0",
        )
        out = fill(head, cards_text(r["lot"], lang))
        out.append(" — ")
        void = set(r.get("void", []))
        for i, (seat, code) in enumerate(r["cards"]):
            if i:
                out.append(", ")
            out.append(seat_label(seat, lang, you) + " ")
            if code in void:
                out.append(code, style="strike dim")
                out.append(f" ({t('sa_void', lang)})", style="dim")
            else:
                out.append_text(card_text(code, lang, names=False))
        out.append(" → ")
        wins = t("sa_wins", lang, seat=seat_label(r["winner"], lang, you), lot="\0")
        won = fill(wins, cards_text(r["lot"], lang))
        won.stylize("bold")
        out.append_text(won)
        return out

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text()
        out.append(title, style="bold")
        if view.get("phase") == "over":
            out.append("   " + t("game_over", lang), style="bold")
            return out
        out.append("   " + t("sa_round", lang, n=view["round"]), style="bold cyan")
        if view.get("final_round"):
            out.append(f" ({t('sa_final_round', lang)})", style="bold red")
        you = view.get("seat")
        out.append(f"   {t('sa_parent', lang)}: {seat_label(view['parent'], lang, you)}")
        out.append("   " + t("sa_stack", lang, n=view["talismans_left"]), style="dim")
        return out

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        parts: list[RenderableType] = []
        if view.get("phase") != "over":
            lot = Text()
            lot.append(f"{t('sa_lot', lang)}: ", style="bold")
            lot.append_text(cards_text(view["lot"], lang, names=True, sep=_SEP[lang == "ja"]))
            parts.append(lot)
            parts.append(Text(f"{t('sa_bid', lang)}: {self._mode(view, lang)}"))
        scores = view["scores"]
        face_down = scores["detail"]["face_down"]
        on_table = {e["seat"]: e["card"] for e in view.get("table", [])}
        table = Table(show_edge=False, pad_edge=False)
        table.add_column(t("col_seat", lang))
        table.add_column(t("sa_col_table", lang))
        table.add_column(t("sa_col_hand", lang), justify="right")
        table.add_column(t("sa_col_won", lang))
        table.add_column(t("col_score", lang), justify="right")
        teams = view.get("teams")
        for s in range(view["players"]):
            label = seat_label(s, lang, you)
            if teams:
                team = next(i for i, members in enumerate(teams) if s in members)
                label += f" [{t('team', lang)} {'AB'[team]}]"
            if view.get("current_player") == s:
                label = "▶ " + label
            if s not in on_table:
                played = Text("")
            elif on_table[s] is None:
                played = Text(t("sa_hidden", lang), style="dim italic")
            else:
                played = card_text(on_table[s], lang)
            won = Text()
            for i, code in enumerate(sorted(view["won"][s], key=_card_index)):
                if i:
                    won.append(" ")
                if code in face_down[s]:
                    won.append(code, style="dim strike")
                else:
                    won.append_text(card_text(code, lang, names=False))
            score = f"{scores['detail']['individual'][s]}"
            if teams:
                score += f" ({scores['totals'][s]:g})"
            table.add_row(
                label,
                played,
                str(view["hand_sizes"][s]),
                won,
                score,
                style="bold" if s == you else None,
            )
        parts.append(table)
        if view.get("rounds"):
            last = Text()
            last.append(f"{t('sa_last', lang)}: ", style="bold")
            last.append_text(self.round_line(view["rounds"][-1], len(view["rounds"]), lang, you))
            parts.append(last)
        return parts

    def opening(self, view: dict[str, Any], lang: str) -> list[Text]:
        return [self._new_round(view, lang)]

    def _new_round(self, view: dict[str, Any], lang: str) -> Text:
        you = view.get("seat")
        key = "sa_new_final" if view.get("final_round") else "sa_new_round"
        head = t(
            key,
            lang,
            round=t("sa_round", lang, n=view["round"]),
            parent=seat_label(view["parent"], lang, you),
            lot="\0",
        )
        return fill(head, cards_text(view["lot"], lang, names=True, sep=_SEP[lang == "ja"]))

    def announce(
        self, before: dict[str, Any], after: dict[str, Any], actor: int, lang: str
    ) -> list[Text]:
        you = after.get("seat")
        who = seat_label(actor, lang, you)
        out: list[Text] = []
        rounds_before, rounds_after = before.get("rounds", []), after.get("rounds", [])
        if len(rounds_after) > len(rounds_before):
            # The round resolved: every card is revealed now, so the summary is public.
            r = rounds_after[-1]
            out.append(self.round_line(r, len(rounds_after), lang, you))
            if after.get("phase") != "over":
                out.append(self._new_round(after, lang))
            return out
        if len(after["lot"]) > len(before["lot"]):
            line = t("sa_lot_two", lang, seat=who, card="\0")
            return [fill(line, card_text(after["lot"][-1], lang))]
        if before.get("phase") == "lot" and after.get("phase") != "lot":
            return [Text(t("sa_lot_one", lang, seat=who))]
        table = after.get("table", [])
        if len(table) > len(before.get("table", [])):
            entry = table[-1]
            first = len(table) == 1
            if entry["card"] is None:
                return [Text(t("sa_bid_down" if first else "sa_play_down", lang, seat=who))]
            shown = card_text(entry["card"], lang)
            if after.get("mode") == "down":  # only the seat's own card shows
                key = "sa_bid_down" if first else "sa_play_down"
                return [fill(t(key, lang, seat=who) + " (\0)", shown)]
            key = "sa_bid_up" if first else "sa_play_up"
            return [fill(t(key, lang, seat=who, card="\0"), shown)]
        return super().announce(before, after, actor, lang)

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        you = view.get("seat")
        detail = scores["detail"]
        table = Table(title=t("final_scores", lang), show_edge=False, pad_edge=False)
        table.add_column(t("col_rank", lang), justify="right")
        table.add_column(t("col_seat", lang))
        table.add_column(t("sa_col_up", lang))
        table.add_column(t("sa_col_down", lang))
        table.add_column(t("col_score", lang), justify="right")
        order = sorted(range(len(scores["totals"])), key=lambda s: (scores["ranks"][s], s))
        for s in order:
            score = str(detail["individual"][s])
            if scores.get("teams"):
                score += f" ({scores['totals'][s]:g})"
            table.add_row(
                str(scores["ranks"][s]),
                seat_label(s, lang, you),
                cards_text(detail["face_up"][s], lang),
                cards_text(detail["face_down"][s], lang),
                score,
                style="bold" if s == you else None,
            )
        return [table, *result_lines(scores, lang, you)]

    def course(
        self, public: dict[str, Any], steps: list[tuple[int | None, str]], lang: str
    ) -> list[RenderableType]:
        rounds = public.get("rounds", [])
        return [self.round_line(r, i, lang, None) for i, r in enumerate(rounds, 1)]


#: Game id -> its specific UI; any other game gets the generic :class:`GameUI`.
UIS: dict[str, GameUI] = {"sono-arcana": SonoArcanaUI()}
_GENERIC = GameUI()


def ui_for(game_id: str) -> GameUI:
    """The UI of a game (specific when there is one, else generic)."""
    return UIS.get(game_id, _GENERIC)
