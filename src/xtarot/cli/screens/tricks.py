"""Trick-taking tables: the current trick and who is winning it, the last trick,
per-seat counts and voids.

:class:`TrickUI` is shared by the trick games; :class:`ExtendoriUI` adds エクステンドリ's
hand, batch and points.  Every key is read with a default, so a view that grows a key
still renders.  Who wins a trick is worked out with the game's own rules
(:meth:`TrickUI.winner_of`) from the cards on the table, which every seat sees.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from xtarot.cards import SUIT_NAMES, card
from xtarot.cli.i18n import colon, paren, seat_label, t, tag
from xtarot.cli.render import GameUI, as_card, card_text, fill, seat_table
from xtarot.games.extendori.rules import deck_cards, points, trick_winner

__all__ = ["ExtendoriUI", "TrickUI", "plays_text", "suit_name"]


def suit_name(suit: str | None, lang: str) -> str:
    """``c`` -> cups / 聖杯; ``T`` (the majors as a suit) -> majors / 大アルカナ."""
    if suit is None:
        return "—"
    if suit in SUIT_NAMES:
        ja, en = SUIT_NAMES[suit]
        return ja if lang == "ja" else en
    if suit in ("T", "t", "major", "majors", "trump"):
        return t("majors", lang)
    if suit == "F":
        return "F"
    return str(suit)


def plays_text(plays: list[list[Any]], lang: str, you: int | None) -> Text:
    """``Seat 1 Jw, Seat 2 6c, ...``."""
    out = Text()
    for i, (seat, code) in enumerate(plays):
        if i:
            out.append("、" if lang == "ja" else ", ")
        out.append(seat_label(seat, lang, you) + " ", style="dim")
        out.append_text(card_text(code, lang, names=False) if code else Text("?"))
    return out


class TrickUI(GameUI):
    """A trick game's table: the trick and its current winner, the last trick, seats."""

    def winner_of(self, view: dict[str, Any], plays: list[list[Any]]) -> int | None:
        """The seat winning ``plays`` (the cards of a trick so far, led first) under
        this hand's rules; ``None`` when the screen cannot tell."""
        return None

    def trick_points(self, plays: list[list[Any]]) -> int | None:
        """The points a trick holds (games that count card points)."""
        return None

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
            line = Text(colon(t("tr_trick", lang), lang), style="bold")
            cards = trick.get("cards") or []
            if cards:
                line.append_text(plays_text(cards, lang, you))
            else:
                line.append(t("tr_nothing_yet", lang), style="dim")
            led = trick.get("led_suit")
            if led is None and cards:
                first = as_card(cards[0][1])
                led = first.suit or "T" if first is not None else None
            if cards and led is not None:
                line.append(
                    " " + paren(t("tr_led", lang, suit=suit_name(led, lang)), lang), style="dim"
                )
            out.append(line)
            if len(cards) > 1:
                winner = self.winner_of(view, cards)
                if winner is not None:
                    code = next(c for s, c in cards if s == winner)
                    text = t("winning_now", lang, seat=seat_label(winner, lang, you), card="\0")
                    win_line = fill("  → " + text, card_text(code, lang, names=False))
                    win_line.stylize("bold")
                    out.append(win_line)
        return out

    def recent(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        tricks = view.get("tricks") or []
        if not tricks or view.get("phase") == "over":
            return []
        last = tricks[-1]
        line = Text(colon(t("tr_last", lang), lang), style="bold")
        line.append_text(plays_text(last["cards"], lang, you))
        if last.get("winner") is not None:
            line.append(" → " + seat_label(last["winner"], lang, you), style="bold")
        return [line]

    def body(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        parts: list[RenderableType] = [*self.head_lines(view, lang), *self.trick_lines(view, lang)]
        on_trick = {s: c for s, c in ((view.get("trick") or {}).get("cards") or [])}
        extra = self.extra_columns(view, lang)
        voids = view.get("voids")
        cols: list[str | tuple[str, str]] = [
            t("col_seat", lang),
            t("tr_col_played", lang),
            (t("col_cards", lang), "right"),
        ]
        cols += [(title, "right") for title, _ in extra]
        if voids and any(voids):
            cols.append(t("tr_col_voids", lang))
        cols.append((t("col_score", lang), "right"))
        table = seat_table(*cols)
        totals = (view.get("scores") or {}).get("totals") or []
        for s in range(view["players"]):
            name = self.seat_name(view, s, lang)
            label = name if isinstance(name, Text) else Text(name)  # "[dealer]" is no markup
            if s == view.get("dealer"):
                label.append(tag(t("tr_dealer", lang), lang))
            row: list[RenderableType] = [
                label,
                card_text(on_trick[s], lang, names=view["players"] <= 4)
                if on_trick.get(s)
                else Text(""),
                str((view.get("hand_sizes") or [""] * (s + 1))[s]),
            ]
            row += [Text(str(values[s])) for _, values in extra]
            if voids and any(voids):
                row.append(Text(" ".join(suit_name(v, lang) for v in voids[s]), style="dim"))
            row.append(f"{totals[s]:g}" if s < len(totals) else "")
            table.add_row(*row, style="bold" if s == you else None)
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
        """A finished trick: its winner (and points).  A hand's last trick is gone
        from the next hand's view, so its winner is worked out from the cards."""
        you = after.get("seat")
        old, new = before.get("tricks") or [], after.get("tricks") or []
        if len(new) == len(old) + 1:
            plays, winner = new[-1]["cards"], new[-1].get("winner")
        else:
            plays = ((before.get("trick") or {}).get("cards") or [])[:]
            now = (after.get("trick") or {}).get("cards") or []
            words = (seen or "").split()
            card_seen = words[1] if len(words) == 2 and words[0] == "play" else None
            if not plays or now or card_seen is None or len(plays) != before["players"] - 1:
                return []
            plays = [*plays, [actor, card_seen]]
            winner = self.winner_of(before, plays)
            if winner is None:
                return []
        if winner is None:
            return []
        line = Text("  → ", style="bold")
        line.append(t("trick_won", lang, seat=seat_label(winner, lang, you)), style="bold")
        pts = self.trick_points(plays)
        if pts:
            line.append(t("trick_points", lang, points=pts), style="bold")
        return [line]


class ExtendoriUI(TrickUI):
    """エクステンドリ: hand and batch, the stock, points taken this hand, teams."""

    def winner_of(self, view: dict[str, Any], plays: list[list[Any]]) -> int | None:
        top = max(c.number or 0 for c in deck_cards(view["deck"]) if c.suit is None)
        return trick_winner([(s, card(c)) for s, c in plays], top)

    def trick_points(self, plays: list[list[Any]]) -> int | None:
        return sum(points(card(c)) for _, c in plays)

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text(title, style="bold")
        if view.get("phase") == "over":
            return out.append("   " + t("game_over", lang), style="bold")
        n = view.get("hand_number") or 1
        limit = view.get("hands_limit")
        hand = t("ex_hand", lang, n=n, of=limit) if limit else t("ex_hand_open", lang, n=n)
        out.append("   " + hand, style="bold cyan")
        if view.get("target_score"):
            out.append(paren(t("ex_target", lang, target=view["target_score"]), lang), style="cyan")
        sizes = view.get("batch_sizes") or []
        if len(sizes) > 1:
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

    def effects(
        self,
        before: dict[str, Any],
        after: dict[str, Any],
        actor: int,
        lang: str,
        seen: str | None = None,
    ) -> list[Text]:
        out = super().effects(before, after, actor, lang, seen=seen)
        if after.get("hand_number") == before.get("hand_number") and after.get(
            "batch", 1
        ) > before.get("batch", 1):
            sizes = after.get("batch_sizes") or []
            n = after["batch"]
            line = t(
                "ex_batch_dealt",
                lang,
                seat=seat_label(after["dealer"], lang, after.get("seat")),
                n=n,
                of=len(sizes),
                k=sizes[n - 1] if n <= len(sizes) else "?",
            )
            out.append(Text("  " + line, style="bold cyan"))
        return out
