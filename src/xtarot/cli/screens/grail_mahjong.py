"""聖杯麻雀 (Grail Mahjong): discards, claims, melds and areas, hand results.

A meld is told as people read it, with melds counted from 1 (the action texts keep
their 0-based meld numbers): ``Seat 3 adds Oc=6d to meld 2: [5d Oc=6d 7d]`` and what
the wild stands for; the three cup specials carry the rulebook's names (``Rc`` 聖杯の
休息 / Rest of the Grail).
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from xtarot.cli.i18n import colon, comma, paren, seat_label, t, tag
from xtarot.cli.render import GameUI, card_text, cards_text, fill, result_lines, seat_table

__all__ = ["GrailMahjongUI", "meld_move_text"]

GAME = "grail-mahjong"


def meld_text(meld: list[str] | dict[str, Any], lang: str) -> Text:
    """``[3s 3w Oc=3]``: a meld's cards, the wild with its meaning."""
    cards = meld["cards"] if isinstance(meld, dict) else meld
    out = Text("[")
    for i, code in enumerate(cards):
        if i:
            out.append(" ")
        base, _, meaning = code.partition("=")
        out.append_text(card_text(base, lang, names=False))
        if meaning:
            out.append(f"={meaning}", style="bold magenta")
    out.append("]")
    if isinstance(meld, dict) and "score" in meld:
        out.append(f" {meld['score']}", style="dim")
    return out


def _melds_now(before: dict[str, Any], after: dict[str, Any], seat: int) -> list[Any]:
    """``seat``'s melds just after its move (from the hand's result when the move
    ended the hand: the next hand's melds are empty)."""
    if len(after.get("results") or []) > len(before.get("results") or []):
        return after["results"][-1]["melds"][seat]
    return after["melds"][seat]


def _wild_note(words: list[str], lang: str) -> str:
    """`` (Oc, Daza's Cup, stands for 6d)`` when the move melds the wild."""
    for word in words:
        if word.startswith("Oc="):
            note = t("gm_wild_as", lang, value=word.partition("=")[2])
            return f"（{note}）" if lang == "ja" else f" ({note})"
    return ""


def meld_move_text(
    seen: str, before: dict[str, Any], after: dict[str, Any], actor: int, lang: str
) -> Text:
    """A seat's ``pon`` / ``chi`` / ``add`` told in words, its meld counted from 1.

    >>> before = {"melds": [[], [{"cards": ["5d", "7d", "8d"], "score": 1}]], "results": []}
    >>> after = {"melds": [[], [{"cards": ["5d", "Oc=6d", "7d", "8d"], "score": 4}]],
    ...          "results": [], "seat": 0}
    >>> meld_move_text("add Oc=6d 0", before, after, 1, "en").plain
    "Seat 2 adds Oc=6d to meld 1: [5d Oc=6d 7d 8d] 4 (Oc, Daza's Cup, stands for 6d)"
    """
    who = seat_label(actor, lang, after.get("seat"))
    words = seen.split()
    melds = _melds_now(before, after, actor)
    if words[0] == "add":
        n = int(words[-1])
        text = t("gm_meld_add", lang, seat=who, card=words[1], n=n + 1, meld="\0")
        meld = melds[n] if n < len(melds) else []
    else:
        kind = t(f"gm_kind_{words[0]}", lang)
        text = t("gm_meld_new", lang, seat=who, kind=kind, meld="\0")
        meld = melds[-1] if melds else []
    out = fill(text, meld_text(meld, lang))
    out.append(_wild_note(words, lang), style="dim")
    return out


def melds_text(melds: list[Any], lang: str) -> Text:
    out = Text()
    for i, meld in enumerate(melds):
        if i:
            out.append(" ")
        out.append_text(meld_text(meld, lang))
    return out


class GrailMahjongUI(GameUI):
    """The Grail Mahjong table: each seat's melds and area, discards, claims, results."""

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text(title, style="bold")
        if view.get("phase") == "over":
            return out.append("   " + t("game_over", lang), style="bold")
        hand = t("gm_hand", lang, n=view["hand_number"], of=view["hands_in_match"])
        out.append("   " + hand, style="bold cyan")
        out.append(
            "   " + colon(t("dealer", lang), lang) + seat_label(view["dealer"], lang, view["seat"])
        )
        out.append("   " + t("stock_left", lang, n=view["stock_count"]), style="dim")
        return out

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        parts: list[RenderableType] = []
        pile = view["discards"]
        line = Text(colon(t("gm_discards", lang) + paren(len(pile), lang), lang), style="bold")
        shown = pile[-14:]
        if len(pile) > len(shown):
            line.append("… ", style="dim")
        line.append_text(cards_text([d["card"] for d in shown], lang))
        parts.append(line)
        claim = view.get("claim")
        if claim:
            who = seat_label(claim["seat"], lang, you)
            text = t("gm_claim", lang, card="\0", seat=who)
            claim_line = fill(text, card_text(claim["card"], lang, game=GAME))
            claim_line.stylize("yellow")
            if view.get("my_answer") and view.get("current_player") != you:
                claim_line.append("   " + t("gm_my_answer", lang, answer=view["my_answer"]))
            parts.append(claim_line)
        table = seat_table(
            t("col_seat", lang),
            (t("col_cards", lang), "right"),
            t("gm_col_melds", lang),
            t("gm_col_area", lang),
            (t("gm_col_total", lang), "right"),
        )
        for s in range(view["players"]):
            label = self.seat_name(view, s, lang)
            if s == view.get("dealer"):
                label += tag(t("dealer", lang), lang)
            table.add_row(
                label,
                str(view["hand_sizes"][s]),
                melds_text(view["melds"][s], lang),
                cards_text(view["areas"][s], lang),
                f"{view['scores']['totals'][s]:g}",
                style="bold" if s == you else None,
            )
        parts.append(table)
        return parts

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
        out: list[Text] = []
        if actor != you:
            if words[0] == "discard":
                text = t("gm_discard", lang, seat=who, card="\0")
                out.append(fill(text, card_text(words[1], lang, game=GAME)))
            elif seen == "answer ?" or (words[0] in ("pass", "claim") and before.get("claim")):
                out.append(Text(t("gm_answer", lang, seat=who), style="dim"))
            elif words[0] in ("pon", "chi", "add"):
                out.append(meld_move_text(seen, before, after, actor, lang))
            elif words[0] == "luck":
                out.append(Text(t("gm_luck", lang, seat=who)))
            else:
                return super().announce(before, after, actor, lang, seen=seen)
        claim = after.get("last_claim")
        if (
            claim
            and claim != before.get("last_claim")
            and len(after["results"]) == len(before["results"])
        ):
            kind = claim["action"].split()[1]  # claim pon ... / claim chi ...
            text = t(
                "gm_claimed_meld",
                lang,
                seat=seat_label(claim["seat"], lang, you),
                card=claim["card"],
                from_=seat_label(claim["from"], lang, you),
                kind=t(f"gm_kind_{kind}", lang),
                meld="\0",
            )
            melds = after["melds"][claim["seat"]]
            line = fill("  → " + text, meld_text(melds[-1] if melds else [], lang))
            line.append(_wild_note(claim["action"].split(), lang), style="dim")
            out.append(line)
        return out

    def hand_end(
        self, before: dict[str, Any], after: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        results = after.get("results") or []
        return self.result_of(results[-1], lang, after.get("seat")) if results else []

    def result_of(self, r: dict[str, Any], lang: str, you: int | None) -> list[RenderableType]:
        """How a hand ended and what every seat's melds scored."""
        who = seat_label(r["seat"], lang, you) if r.get("seat") is not None else ""
        key = {"agari": "gm_end_agari", "rest": "gm_end_rest"}.get(r["end"], "gm_end_stock")
        lines: list[RenderableType] = [Text(t(key, lang, seat=who), style="bold")]
        table = seat_table(
            t("col_seat", lang),
            t("gm_col_melds", lang),
            t("gm_col_luck", lang),
            (t("col_score", lang), "right"),
            (t("gm_col_gained", lang), "right"),
        )
        for s, melds in enumerate(r["melds"]):
            table.add_row(
                seat_label(s, lang, you),
                melds_text(melds, lang),
                "Lc ×2" if s in r.get("luck", []) else "",
                str(r["meld_scores"][s]),
                f"+{r['gained'][s]}" if r["gained"][s] else "0",
                style="bold" if s in r["winners"] else None,
            )
        lines.append(table)
        winners = comma(lang).join(seat_label(s, lang, you) for s in r["winners"])
        lines.append(Text(t("gm_winners", lang, who=winners), style="green"))
        return lines

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        you = view.get("seat")
        out: list[RenderableType] = []
        results = view.get("results") or []
        if results:
            out += self.result_of(results[-1], lang, you)
        return [*out, *super().final(view, scores, lang)[:1], *result_lines(scores, lang, you)]
