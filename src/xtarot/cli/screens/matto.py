"""マット呼んだ? (Did You Call Matto?): field majors, discard pile, purchases, sets."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from xtarot.cli.i18n import colon, comma, paren, seat_label, t, tag
from xtarot.cli.render import (
    GameUI,
    card_text,
    cards_text,
    fill,
    result_lines,
    seat_table,
    sort_cards,
)

__all__ = ["MattoUI"]

_SET_NAMES_JA = {
    "Straight to Hell": "地獄へ一直線",
    "Radiance of the Heavens": "天空の輝き",
    "End of the World": "世界の終わり",
}


def _set_name(name: str, lang: str) -> str:
    return _SET_NAMES_JA.get(name, name) if lang == "ja" else name


class MattoUI(GameUI):
    """The Matto table: field, discard pile, each seat's majors and sets, scores."""

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text(title, style="bold")
        if view.get("phase") == "over":
            return out.append("   " + t("game_over", lang), style="bold")
        out.append("   " + t("turn_n", lang, n=view["turn"]), style="bold cyan")
        if view.get("last_turn"):
            out.append(" " + paren(t("last_turn", lang), lang), style="bold red")
        out.append("   " + t("stock_left", lang, n=view["stock_left"]), style="dim")
        out.append("   " + t("mt_majors_left", lang, n=view["majors_left"]), style="dim")
        return out

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        parts: list[RenderableType] = []
        field = Text(colon(t("mt_field", lang), lang), style="bold")
        for i, code in enumerate(view["field"]):
            if i:
                field.append("   ")
            field.append_text(card_text(code, lang))
        parts.append(field)
        pile = Text(
            colon(t("mt_discard", lang) + paren(len(view["discard"]), lang), lang), style="bold"
        )
        shown = view["discard"][-10:]
        if len(view["discard"]) > len(shown):
            pile.append("… ", style="dim")
        pile.append_text(cards_text(shown[:-1], lang))
        if view.get("discard_top"):
            pile.append(
                "  " + colon(t("mt_top", lang), lang) if len(shown) > 1 else "", style="dim"
            )
            pile.append_text(card_text(view["discard_top"], lang))
        parts.append(pile)
        buying = view.get("buying")
        if buying:
            line = t(
                "mt_buying",
                lang,
                major=buying["major"],
                owed=buying["owed"],
                paid=" ".join(buying["paid"]) or "—",
            )
            parts.append(Text(line, style="yellow"))
        detail = view["scores"]["detail"]
        table = seat_table(
            t("col_seat", lang),
            (t("col_cards", lang), "right"),
            t("mt_col_known", lang),
            t("mt_col_majors", lang),
            t("mt_col_sets", lang),
            (t("col_score", lang), "right"),
        )
        for s in range(view["players"]):
            label = self.seat_name(view, s, lang)
            if s == view.get("dealer"):
                label += tag(t("dealer", lang), lang)
            won = view["won"][s]
            sets = comma(lang).join(_set_name(x, lang) for x in detail["sets"][s])
            table.add_row(
                label,
                str(view["hand_sizes"][s]),
                cards_text(view["known_in_hands"][s], lang),
                cards_text(sort_cards(won), lang),
                sets,
                f"{view['scores']['totals'][s]:g}",
                style="bold" if s == you else None,
            )
        parts.append(table)
        return parts

    def effects(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        you = after.get("seat")
        out: list[Text] = []
        fresh = [c for c in after["field"] if c not in before["field"]]
        if fresh and after.get("phase") != "over":
            out.append(fill("  " + t("mt_new_field", lang, cards="\0"), cards_text(fresh, lang)))
        for s in range(after["players"]):
            if "T0" in after["won"][s] and "T0" not in before["won"][s]:
                line = t("mt_fool", lang, seat=seat_label(s, lang, you))
                out.append(Text("  " + line, style="bold red"))
        return out

    def announce(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        if seen is None:
            return super().announce(before, after, actor, lang)
        you = after.get("seat")
        who = seat_label(actor, lang, you)
        words = seen.split()
        line: Text | None = None
        if seen == "draw discard":
            top = before.get("discard_top") or "?"
            line = fill(t("mt_draw_discard", lang, seat=who, card="\0"), card_text(top, lang))
        elif seen == "draw stock":
            line = Text(t("mt_draw_stock", lang, seat=who))
        elif words[0] in ("buy", "pay") and len(words) == 2:
            key = "mt_buy" if words[0] == "buy" else "mt_pay"
            line = fill(t(key, lang, seat=who, card="\0"), card_text(words[1], lang))
        elif seen == "end":
            line = Text(t("mt_end", lang, seat=who), style="dim")
        out = [] if line is None or actor == you else [line]
        if line is None and actor != you:
            return super().announce(before, after, actor, lang, seen=seen)
        return out + self.effects(before, after, actor, lang, seen=seen)

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        you = view.get("seat")
        detail = scores["detail"]
        table = Table(title=t("final_scores", lang), show_edge=False, pad_edge=False)
        table.add_column(t("col_rank", lang), justify="right")
        table.add_column(t("col_seat", lang))
        table.add_column(t("mt_col_majors", lang))
        table.add_column(t("mt_fool_col", lang))
        table.add_column(t("mt_col_sets", lang))
        table.add_column(t("col_score", lang), justify="right")
        order = sorted(range(len(scores["totals"])), key=lambda s: (scores["ranks"][s], s))
        for s in order:
            table.add_row(
                str(scores["ranks"][s]),
                seat_label(s, lang, you),
                cards_text(sort_cards(view["won"][s]), lang),
                "-5" if detail["fool"][s] else "",
                comma(lang).join(_set_name(x, lang) for x in detail["sets"][s]),
                f"{scores['totals'][s]:g}",
                style="bold" if s == you else None,
            )
        return [table, *result_lines(scores, lang, you)]
