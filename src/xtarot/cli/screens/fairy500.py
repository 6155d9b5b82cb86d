"""フェアリーファイブハンドレッド (Fairy Five Hundred): auction, contract, partners, tricks."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from xtarot.cards import card
from xtarot.cli.i18n import colon, comma, paren, phase_label, seat_label, t
from xtarot.cli.render import cards_text, moves_menu, result_lines, seat_table
from xtarot.cli.screens.tricks import TrickUI, suit_name
from xtarot.games.fairy500.play import MODES, SUIT_OF, key_table

__all__ = ["Fairy500UI"]

_TRICK_BID = re.compile(r"^bid (\d+)(s|w|d|c|nt)$")
#: The bid grid's columns, lowest value first (as the auction ranks them).
_BID_SUITS = ("s", "w", "d", "c", "nt")
_MISERE_KINDS = ("misere", "hand-misere", "open-misere", "open-hand-misere")
_MODS = ("", " double", " crazy")


class Fairy500UI(TrickUI):
    """The Fairy 500 table: the auction or the contract, called cards, the kitty."""

    def winner_of(self, view: dict[str, Any], plays: list[list[Any]]) -> int | None:
        mode = (view.get("contract") or {}).get("order")
        if mode not in MODES or not plays:
            return None
        cards = [(s, card(c)) for s, c in plays]
        keys = key_table(mode, SUIT_OF[mode][cards[0][1]])
        return max(cards, key=lambda sc: keys[sc[1]])[0]

    def menu(self, view: dict[str, Any], legal: Sequence[str], lang: str) -> RenderableType:
        """Trick bids as a grid (tricks × trump suits, each cell the move's number),
        then the misère bids and pass; other phases as usual (calls and discards are
        the cards by suit)."""
        cells: dict[tuple[int, str], int] = {}
        rest: list[str] = []
        for n, text in enumerate(legal, 1):
            m = _TRICK_BID.match(text)
            if m:
                cells[(int(m.group(1)), m.group(2))] = n
            else:
                rest.append(text)
        if len(cells) < 3:
            return moves_menu(legal, lang)
        grid = Table(box=None, show_edge=False, pad_edge=False, header_style="dim")
        grid.add_column(t("f5_tricks_col", lang), justify="right")
        for suit in _BID_SUITS:
            head = "NT" if suit == "nt" else suit_name(suit, lang)
            grid.add_column(head + paren(suit, lang).replace(" ", ""), justify="right")
        for tricks in sorted({k for k, _ in cells}):
            row = [Text(str(tricks))]
            for suit in _BID_SUITS:
                n = cells.get((tricks, suit))
                row.append(Text(f"{n}" if n is not None else "", style="cyan"))
            grid.add_row(*row)
        numbered = {text: n for n, text in enumerate(legal, 1)}
        misere = Table(box=None, show_edge=False, pad_edge=False, header_style="dim")
        misere.add_column(t("f5_misere", lang))
        for mod in _MODS:
            misere.add_column(mod.strip() or "—", justify="right")
        others = Text()
        for text in rest:
            if not any(text.startswith(f"bid {kind}") for kind in _MISERE_KINDS):
                others.append(f"{numbered[text]}. ", style="cyan").append(text + "   ")
        for kind in _MISERE_KINDS:
            row = [Text(kind)]
            row += [Text(str(numbered.get(f"bid {kind}{mod}", "")), style="cyan") for mod in _MODS]
            if any(cell.plain for cell in row[1:]):
                misere.add_row(*row)
        title = Text(t("f5_bid_grid", lang), style="bold")
        parts: list[RenderableType] = [title, grid]
        if misere.row_count:
            parts.append(misere)
        if others:
            parts.append(others)
        return Group(*parts)

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text(title, style="bold")
        if view.get("phase") == "over":
            return out.append("   " + t("game_over", lang), style="bold")
        n = view.get("hand_number") or 1
        limit = self.options.get("hands")
        target = (view.get("scores") or {}).get("detail", {}).get("target")
        # What ends the match: ±500 (the default), the hands option, or either first.
        if limit:
            out.append("   " + t("ex_hand", lang, n=n, of=limit), style="bold cyan")
        else:
            out.append("   " + t("ex_hand_open", lang, n=n), style="bold cyan")
        if target and limit != 1:  # one hand: the hand ends the match whatever the score
            key = "f5_or_target" if limit else "f5_to_target"
            out.append(t(key, lang, target=target), style="cyan")
        if view.get("phase"):
            out.append(
                "   " + t("view_phase", lang, phase=phase_label(view["phase"], lang)), style="dim"
            )
        return out

    def head_lines(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        you = view.get("seat")
        out: list[RenderableType] = []
        contract = view.get("contract")
        if contract and contract.get("declarer") is not None:
            line = t(
                "f5_contract",
                lang,
                bid=contract.get("bid") or contract.get("kind"),
                seat=seat_label(contract["declarer"], lang, you),
                value=contract.get("value"),
            )
            trump = contract.get("trump")
            extra = t("f5_trump", lang, suit=suit_name(trump, lang)) if trump else ""
            if not trump and contract.get("order") == "nt":
                extra = t("f5_no_trump", lang)
            sep = "、" if lang == "ja" else ", "
            out.append(Text(line + (f"{sep}{extra}" if extra else ""), style="bold yellow"))
        elif contract and contract.get("kind") == "ramsch":
            out.append(Text(t("f5_ramsch", lang), style="bold yellow"))
        elif contract and contract.get("kind") == "ten_per_trick":
            out.append(Text(t("f5_ten_per_trick", lang), style="bold yellow"))
        elif view.get("phase") == "auction":
            auction = view.get("auction") or []
            line = Text(colon(t("f5_auction", lang), lang), style="bold")
            if not auction:
                line.append(t("f5_no_bid", lang), style="dim")
            for i, (seat, text) in enumerate(auction[-8:]):
                if i:
                    line.append(comma(lang))
                line.append(seat_label(seat, lang, you) + " ", style="dim")
                line.append(text.removeprefix("bid "), style="dim" if text == "pass" else None)
            out.append(line)
            if view.get("high_bid"):
                who = seat_label(view["high_bidder"], lang, you)
                out.append(Text(t("f5_high", lang, bid=view["high_bid"], seat=who)))
        called = view.get("called") or []
        if called:
            line = Text(t("f5_called", lang, cards=""))
            line.append_text(cards_text(called, lang))
            partners = view.get("partners") or []
            if partners:
                who = comma(lang).join(seat_label(s, lang, you) for s in partners)
                line.append("   " + t("f5_partners", lang, who=who))
            out.append(line)
        if view.get("is_partner"):
            out.append(Text(t("f5_you_partner", lang), style="bold magenta"))
        if view.get("kitty_size"):
            out.append(Text(t("f5_kitty", lang, n=view["kitty_size"]), style="dim"))
        if view.get("kitty"):
            line = Text(t("f5_kitty_cards", lang, cards=""), style="dim")
            out.append(line.append_text(cards_text(view["kitty"], lang)))
        if view.get("discards"):
            line = Text(t("f5_your_discards", lang, cards=""), style="dim")
            out.append(line.append_text(cards_text(view["discards"], lang)))
        if view.get("open_hand") and contract:
            line = Text(t("f5_open_hand", lang, seat=seat_label(contract["declarer"], lang, you)))
            out.append(line.append_text(cards_text(view["open_hand"], lang)))
        return out

    def extra_columns(self, view: dict[str, Any], lang: str) -> list[tuple[str, list[Any]]]:
        won = view.get("tricks_won")
        return [(t("tr_col_tricks", lang), won)] if won is not None else []

    def result_of(self, r: dict[str, Any], lang: str, you: int | None) -> list[RenderableType]:
        """One finished hand: contract, outcome, tricks and points per seat."""
        detail = r.get("detail") or {}
        declarer = r.get("declarer")
        if declarer is not None:
            made = detail.get("made")
            outcome = t("f5_made" if made else "f5_failed", lang)
            head = t(
                "f5_result",
                lang,
                n=r.get("hand", "?"),
                kind="" if r.get("bid") else r.get("kind", ""),
                bid=r.get("bid") or "",
                seat=seat_label(declarer, lang, you),
                outcome=outcome,
            )
        else:
            head = t("f5_ramsch", lang)
        lines: list[RenderableType] = [Text(head, style="bold")]
        table = seat_table(
            t("col_seat", lang),
            (t("tr_col_tricks", lang), "right"),
            (t("f5_col_points", lang), "right"),
        )
        for s, pts in enumerate(r.get("points") or []):
            tricks = (r.get("tricks") or [""] * (s + 1))[s]
            table.add_row(seat_label(s, lang, you), str(tricks), f"{pts:+g}")
        lines.append(table)
        return lines

    def hand_end(
        self, before: dict[str, Any], after: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        last = after.get("last_result")
        return self.result_of(last, lang, after.get("seat")) if last else []

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        you = view.get("seat")
        last = view.get("last_result")
        out: list[RenderableType] = self.result_of(last, lang, you) if last else []
        return [*out, *super().final(view, scores, lang)[:1], *result_lines(scores, lang, you)]
