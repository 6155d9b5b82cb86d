"""Trick-taking tables: the current trick, the last trick, per-seat counts and voids.

:class:`TrickUI` is shared by the trick games; :class:`ExtendoriUI` adds エクステンドリ's
hand, batch and points.  Every key is read with a default, so a view that grows a key
still renders.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from xtarot.cards import SUIT_NAMES
from xtarot.cli.i18n import seat_label, t
from xtarot.cli.render import GameUI, card_text

__all__ = ["ExtendoriUI", "TrickUI", "suit_name"]


def suit_name(suit: str | None, lang: str) -> str:
    """``c`` -> cups / 聖杯; ``T`` (the majors as a suit) -> majors / 大アルカナ."""
    if suit is None:
        return "—"
    if suit in SUIT_NAMES:
        ja, en = SUIT_NAMES[suit]
        return ja if lang == "ja" else en
    if suit in ("T", "t", "major", "majors", "trump"):
        return t("majors", lang)
    return str(suit)


def plays_text(plays: list[list[Any]], lang: str, you: int | None) -> Text:
    """``Seat 1 Jw, Seat 2 6c, ...``."""
    out = Text()
    for i, (seat, code) in enumerate(plays):
        if i:
            out.append(", ")
        out.append(seat_label(seat, lang, you) + " ", style="dim")
        out.append_text(card_text(code, lang, names=False) if code else Text("?"))
    return out


class TrickUI(GameUI):
    """A trick game's table: whose trick, cards on it, the last trick, each seat."""

    def extra_columns(self, view: dict[str, Any], lang: str) -> list[tuple[str, list[Any]]]:
        """Per-seat columns a game adds (title, one value per seat)."""
        return []

    def head_lines(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        """Lines above the trick (contract, auction...)."""
        return []

    def trick_lines(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        out: list[RenderableType] = []
        trick = view.get("trick")
        if trick is not None and view.get("phase") not in ("over",):
            line = Text(f"{t('tr_trick', lang)}: ", style="bold")
            cards = trick.get("cards") or []
            if cards:
                line.append_text(plays_text(cards, lang, you))
            else:
                line.append(t("tr_nothing_yet", lang), style="dim")
            led = trick.get("led_suit")
            if led is None and cards:
                first = cards[0][1]
                led = first[-1] if first and not first.startswith("T") else "T"
            if cards and led is not None:
                line.append(f"   ({t('tr_led', lang, suit=suit_name(led, lang))})", style="dim")
            out.append(line)
        tricks = view.get("tricks") or []
        if tricks:
            last = tricks[-1]
            line = Text(f"{t('tr_last', lang)}: ", style="bold")
            line.append_text(plays_text(last["cards"], lang, you))
            if last.get("winner") is not None:
                line.append(" → " + seat_label(last["winner"], lang, you), style="bold")
            out.append(line)
        return out

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        parts: list[RenderableType] = [*self.head_lines(view, lang), *self.trick_lines(view, lang)]
        on_trick = {s: c for s, c in ((view.get("trick") or {}).get("cards") or [])}
        extra = self.extra_columns(view, lang)
        voids = view.get("voids")
        table = Table(show_edge=False, pad_edge=False)
        table.add_column(t("col_seat", lang), no_wrap=True)
        table.add_column(t("tr_col_played", lang))
        table.add_column(t("col_cards", lang), justify="right")
        for title, _ in extra:
            table.add_column(title, justify="right")
        if voids:
            table.add_column(t("tr_col_voids", lang))
        table.add_column(t("col_score", lang), justify="right")
        totals = (view.get("scores") or {}).get("totals") or []
        for s in range(view["players"]):
            label = seat_label(s, lang, you)
            if view.get("current_player") == s:
                label = "▶ " + label
            if s == view.get("dealer"):
                label += f" [{t('tr_dealer', lang)}]"
            row: list[RenderableType] = [
                label,
                card_text(on_trick[s], lang) if on_trick.get(s) else Text(""),
                str((view.get("hand_sizes") or [""] * (s + 1))[s]),
            ]
            row += [Text(str(values[s])) for _, values in extra]
            if voids:
                row.append(Text(" ".join(suit_name(v, lang) for v in voids[s]), style="dim"))
            row.append(f"{totals[s]:g}" if s < len(totals) else "")
            table.add_row(*row, style="bold" if s == you else None)
        parts.append(table)
        return parts


class ExtendoriUI(TrickUI):
    """エクステンドリ: hand and batch, the stock, points taken this hand, teams."""

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text(title, style="bold")
        if view.get("phase") == "over":
            return out.append("   " + t("game_over", lang), style="bold")
        n = view.get("hand_number") or 1
        limit = view.get("hands_limit")
        hand = t("ex_hand", lang, n=n, of=limit) if limit else t("ex_hand_open", lang, n=n)
        out.append("   " + hand, style="bold cyan")
        if view.get("target_score"):
            out.append(f" ({t('ex_target', lang, target=view['target_score'])})", style="cyan")
        sizes = view.get("batch_sizes") or []
        if sizes:
            out.append("   " + t("ex_batch", lang, n=view.get("batch", 1), of=len(sizes)))
        out.append("   " + t("stock_left", lang, n=view.get("stock_count", 0)), style="dim")
        return out

    def extra_columns(self, view: dict[str, Any], lang: str) -> list[tuple[str, list[Any]]]:
        cols: list[tuple[str, list[Any]]] = []
        teams = view.get("teams")
        if teams:
            names = [""] * view["players"]
            for i, members in enumerate(teams):
                for s in members:
                    names[s] = "AB"[i] if i < 2 else str(i + 1)
            cols.append((t("team", lang), names))
        if view.get("hand_points") is not None:
            cols.append((t("tr_col_points", lang), view["hand_points"]))
        return cols
