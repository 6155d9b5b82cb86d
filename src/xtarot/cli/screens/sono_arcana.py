"""そのアルカナは欲しくない (I Don't Want That Arcana): lot, parent, bids, talismans."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from xtarot.cards import SUIT_NAMES, card
from xtarot.cli.i18n import colon, comma, paren, seat_label, t, tag
from xtarot.cli.render import (
    GameUI,
    card_index,
    card_text,
    cards_text,
    fill,
    result_lines,
    seat_table,
)
from xtarot.games.sono_arcana import strength

__all__ = ["SonoArcanaUI"]

_SEP = (", ", "、")


class SonoArcanaUI(GameUI):
    """そのアルカナは欲しくない: lot, parent, bid mode, table, talismans won, scores."""

    def _mode(self, view: dict[str, Any], lang: str) -> str:
        if view.get("mode") == "up":
            suit = view.get("led_suit") or ""
            names = SUIT_NAMES.get(suit)
            shown = suit + paren(names[1 if lang != "ja" else 0], lang) if names else suit
            return t("sa_mode_up", lang, suit=shown)
        if view.get("mode") == "down":
            return t("sa_mode_down", lang)
        return t("sa_mode_none", lang)

    @staticmethod
    def leading(view: dict[str, Any]) -> tuple[int, str] | None:
        """Who would win a face-up round if it ended now (the strongest valid card of
        the led suit; equal strengths void each other): ``(seat, card)``, or ``None``
        before two cards are down or when no valid card of the led suit is left."""
        table = [(e["seat"], e["card"]) for e in view.get("table", [])]
        if view.get("mode") != "up" or len(table) < 2 or any(c is None for _, c in table):
            return None
        cards = [(s, card(c)) for s, c in table]
        counts = Counter(strength(c) for _, c in cards)
        led = view.get("led_suit")
        valid = [(s, c) for s, c in cards if counts[strength(c)] == 1 and c.suit == led]
        if not valid:
            return None
        seat, best = max(valid, key=lambda sc: strength(sc[1]))
        return seat, best.code

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
                out.append(comma(lang))
            out.append(seat_label(seat, lang, you) + " ")
            if code in void:
                out.append(code, style="strike dim")
                out.append(paren(t("sa_void", lang), lang), style="dim")
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
            out.append(paren(t("sa_final_round", lang), lang), style="bold red")
        you = view.get("seat")
        out.append(
            "   " + colon(t("sa_parent", lang), lang) + seat_label(view["parent"], lang, you)
        )
        out.append("   " + t("sa_stack", lang, n=view["talismans_left"]), style="dim")
        return out

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        parts: list[RenderableType] = []
        if view.get("phase") != "over":
            lot = Text()
            lot.append(colon(t("sa_lot", lang), lang), style="bold")
            lot.append_text(cards_text(view["lot"], lang, names=True, sep=_SEP[lang == "ja"]))
            parts.append(lot)
            parts.append(Text(colon(t("sa_bid", lang), lang) + self._mode(view, lang)))
            leading = self.leading(view)
            if leading is not None:
                seat, code = leading
                text = t("sa_leading", lang, seat=seat_label(seat, lang, you), card="\0")
                line = fill("  → " + text, card_text(code, lang, names=False))
                line.stylize("bold")
                parts.append(line)
        scores = view["scores"]
        face_down = scores["detail"]["face_down"]
        on_table = {e["seat"]: e["card"] for e in view.get("table", [])}
        table = seat_table(
            t("col_seat", lang),
            t("sa_col_table", lang),
            (t("sa_col_hand", lang), "right"),
            t("sa_col_won", lang),
            (t("col_score", lang), "right"),
        )
        teams = view.get("teams")
        for s in range(view["players"]):
            label = self.seat_name(view, s, lang)
            if teams:
                team = next(i for i, members in enumerate(teams) if s in members)
                label += tag(f"{t('team', lang)} {'AB'[team]}", lang)
            if s not in on_table:
                played = Text("")
            elif on_table[s] is None:
                played = Text(t("sa_hidden", lang), style="dim italic")
            else:
                played = card_text(on_table[s], lang)
            won = Text()
            for i, code in enumerate(sorted(view["won"][s], key=card_index)):
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
        return parts

    def recent(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        if not view.get("rounds") or view.get("phase") == "over":
            return []
        last = Text()
        last.append(colon(t("sa_last", lang), lang), style="bold")
        rounds = view["rounds"]
        last.append_text(self.round_line(rounds[-1], len(rounds), lang, view.get("seat")))
        return [last]

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
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
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
        return super().announce(before, after, actor, lang, seen=seen)

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
