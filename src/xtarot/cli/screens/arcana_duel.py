"""アルカナデュエル (Arcana Duel): both fields, points piles, the attack, combats."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from xtarot.cli.i18n import colon, seat_label, t
from xtarot.cli.render import GameUI, card_text, cards_text, seat_table, sort_cards

__all__ = ["ArcanaDuelUI"]

_BACK = "▒▒"


def field_text(field: dict[str, Any], lang: str) -> Text:
    """Face-up cards (dim when they attacked this turn), then the backs."""
    out = Text()
    for i, entry in enumerate(field["face_up"]):
        if i:
            out.append(" ")
        shown = card_text(entry["card"], lang, names=False)
        if entry.get("attacked"):
            shown.stylize("dim")
            shown.append("*", style="dim")
        out.append_text(shown)
    if field["face_down"]:
        if field["face_up"]:
            out.append("  ")
        out.append(" ".join([_BACK] * field["face_down"]), style="blue")
    return out


class ArcanaDuelUI(GameUI):
    """The Arcana Duel table: both fields (backs for face-down cards), points, attack."""

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text(title, style="bold")
        if view.get("phase") == "over":
            return out.append("   " + t("game_over", lang), style="bold")
        you = view.get("seat")
        if view.get("phase") == "setup":
            return out.append("   " + t("ad_setup", lang), style="bold cyan")
        out.append("   " + t("turn_n", lang, n=view["turn"]), style="bold cyan")
        if view.get("attacker") is not None:
            out.append(
                "   "
                + colon(t("ad_attacker", lang), lang)
                + seat_label(view["attacker"], lang, you)
            )
        out.append("   " + t("stock_left", lang, n=view["stock_left"]), style="dim")
        return out

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        parts: list[RenderableType] = []
        table = seat_table(
            t("col_seat", lang),
            (t("col_cards", lang), "right"),
            f"{t('ad_field', lang)} (*: {t('ad_attacked', lang)}, {_BACK}: ?)",
            t("ad_points", lang),
        )
        # The opponent on top, as across a table.
        for s in sorted(range(view["players"]), key=lambda s: s == you):
            label = self.seat_name(view, s, lang)
            pts = view["points"][s]
            pile = Text(f"{pts['count']} ", style="bold")
            pile.append_text(cards_text(sort_cards(pts["cards"]), lang))
            if pts.get("face_down"):
                pile.append(f" +{pts['face_down']}{_BACK}", style="dim")
            table.add_row(
                label,
                str(view["hand_sizes"][s]),
                field_text(view["fields"][s], lang),
                pile,
                style="bold" if s == you else None,
            )
        parts.append(table)
        mine = view["fields"][you].get("face_down_cards") if you is not None else None
        if mine:
            shown = cards_text(sort_cards(mine), lang)
            parts.append(Text(t("ad_yours_down", lang, cards="")).append_text(shown))
        attack = view.get("attack")
        if attack and attack.get("cards"):
            target = attack.get("target")
            where = ""
            if target is not None:
                name = t("ad_face_down", lang) if target == "down" else target
                where = t("ad_target", lang, target=name)
            line = t(
                "ad_attack_now",
                lang,
                cards=" ".join(attack["cards"]),
                power=attack["power"],
                target=where,
            )
            parts.append(Text(line, style="yellow"))
        return parts

    def recent(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        if not view.get("combats"):
            return []
        last = Text(colon(t("last_move", lang), lang), style="bold")
        combat = self.combat_line(view["combats"][-1], lang, view.get("seat"))
        return [last.append_text(combat)]

    def combat_line(self, c: dict[str, Any], lang: str, you: int | None) -> Text:
        """``Seat 1 attacks with 4d Qc (14) at a face-down card: Jc (10) — …``."""
        target = t("ad_face_down", lang) + " → " if c["target"] == "down" else ""
        if c.get("defence"):
            target += t("ad_defence", lang, card=c["defence"], power=c["defence_power"])
        elif c["target"] != "down":
            target = c["target"]
        result = t(f"ad_res_{c['result']}", lang)
        line = t(
            "ad_combat",
            lang,
            seat=seat_label(c["attacker"], lang, you),
            cards=" ".join(c["cards"]),
            power=c["power"],
            target=target,
            result=result,
        )
        return Text(line, style="bold red" if c["result"] == "fool" else None)

    def effects(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        new = after.get("combats", [])[len(before.get("combats", [])) :]
        return [Text("  → ").append_text(self.combat_line(c, lang, after["seat"])) for c in new]

    def announce(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        if seen == "place ?" and actor != after.get("seat"):
            who = seat_label(actor, lang, after.get("seat"))
            return [Text(t("ad_place", lang, seat=who), style="dim")]
        return super().announce(before, after, actor, lang, seen=seen)

    def end_reason(self, view: dict[str, Any], scores: dict[str, Any], lang: str) -> list[Text]:
        """Wipe-out (the winner may hold fewer points), stock out, or a draw."""
        detail = scores.get("detail") or {}
        you = view.get("seat")
        if detail.get("end") == "annihilation" and detail.get("annihilation") is not None:
            winner = detail["annihilation"]
            line = t(
                "ad_end_annihilation",
                lang,
                seat=seat_label(winner, lang, you),
                loser=seat_label(1 - winner, lang, you),
            )
            return [Text(line, style="bold yellow")]
        if detail.get("end") == "stock_out":
            key = "ad_end_draw" if len(scores.get("winners") or []) > 1 else "ad_end_stock"
            return [Text(t(key, lang), style="bold yellow")]
        return []
