"""The terminal table of whist: trump, the trick and who is winning it, tricks per side.

A :class:`~xtarot.cli.screens.tricks.TrickUI` (the trick games' shared screen) with
whist's own header, side columns, hand order (the ace high) and hand results.  It
works from the seat's view only, like every screen; seats are shown from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from xtarot.cards import card
from xtarot.cli.i18n import colon, gloss, paren, seat_label, t
from xtarot.cli.render import card_text, cards_text, seat_table
from xtarot.cli.screens.tricks import TrickUI, plays_text, suit_name

from xtarot_whist.game import DECK, trick_winner

__all__ = ["WORDS", "WhistUI", "word"]

#: The screen's own words: key -> (English, Japanese).
WORDS: dict[str, tuple[str, str]] = {
    "hand_of": ("hand {n} of {of}", "第{n}ハンド／全{of}"),
    "hand_to": ("hand {n}, first side to {target}", "第{n}ハンド・{target}点先取"),
    "trump": ("trump {suit} ({card} turned up)", "切り札 {suit}（めくった札 {card}）"),
    "side": ("side", "チーム"),
    "tricks": ("tricks", "トリック"),
    "sides": (
        "Tricks: A {a} – B {b}   Points: A {pa} – B {pb}",
        "トリック A {a} – B {b}　得点 A {pa} – B {pb}",
    ),
    "opening": (
        "{dealer} deals; {card} is turned up: {suit} are trump.",
        "{dealer}が配り、{card}をめくりました：切り札は{suit}です。",
    ),
    "result": (
        "Hand {n}: side {side} took {tricks} tricks and scores {points}.",
        "第{n}ハンド：チーム{side}が{tricks}トリックを取り、{points}点を得ました。",
    ),
}


def word(key: str, lang: str, /, **fields: object) -> str:
    """One of :data:`WORDS` in ``lang`` with its fields filled in.

    >>> word("side", "ja"), word("tricks", "en")
    ('チーム', 'tricks')
    """
    en, ja = WORDS[key]
    text = ja if lang == "ja" else en
    return text.format(**fields) if fields else text


_ORDER = {c.code: i for i, c in enumerate(DECK)}
_SIDE = "ABAB"


def _whist_sorted(codes: Sequence[str]) -> list[str]:
    return sorted(codes, key=lambda c: _ORDER.get(c, len(_ORDER)))


class WhistUI(TrickUI):
    """Whist: the hand and the target, trump, tricks and points per side."""

    def winner_of(self, view: dict[str, Any], plays: list[list[Any]]) -> int | None:
        if not plays or view.get("trump") is None:
            return None
        return trick_winner([(s, card(c)) for s, c in plays], view["trump"])

    def seat_name(self, view: dict[str, Any], s: int, lang: str) -> Text:  # type: ignore[override]
        """The seat's label as rich ``Text``, so that the `` [dealer]`` mark the trick
        screen appends is printed as is, not read as console markup."""
        return Text(super().seat_name(view, s, lang))

    def header(self, view: dict[str, Any], lang: str, title: str) -> Text:
        out = Text(title, style="bold")
        if view.get("phase") == "over":
            return out.append("   " + t("game_over", lang), style="bold")
        n = view.get("hand_number") or 1
        if view.get("hands_limit"):
            out.append(
                "   " + word("hand_of", lang, n=n, of=view["hands_limit"]), style="bold cyan"
            )
        else:
            out.append(
                "   " + word("hand_to", lang, n=n, target=view.get("target")), style="bold cyan"
            )
        out.append("   ")
        out.append_text(self.trump_text(view, lang))
        return out

    def trump_text(self, view: dict[str, Any], lang: str) -> Text:
        code = view.get("trump_card") or ""
        text = word("trump", lang, suit=suit_name(view.get("trump"), lang), card="\0")
        pre, _, post = text.partition("\0")
        out = Text(pre, style="bold")
        out.append_text(card_text(code, lang, names=False))
        return out.append(post, style="bold")

    def head_lines(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        tricks = view.get("side_tricks") or [0, 0]
        points = ((view.get("scores") or {}).get("detail") or {}).get("side_points") or [0, 0]
        line = word("sides", lang, a=tricks[0], b=tricks[1], pa=points[0], pb=points[1])
        return [Text(line, style="cyan")]

    def extra_columns(self, view: dict[str, Any], lang: str) -> list[tuple[str, list[Any]]]:
        return [
            (word("side", lang), list(_SIDE[: view["players"]])),
            (word("tricks", lang), view.get("tricks_won") or [0] * view["players"]),
        ]

    def recent(self, view: dict[str, Any], lang: str) -> list[RenderableType]:
        last = view.get("last_trick")
        if not last or view.get("phase") == "over" or (view.get("trick") or {}).get("cards"):
            return []
        you = view.get("seat")
        line = Text(colon(t("tr_last", lang), lang), style="bold")
        line.append_text(plays_text(last["cards"], lang, you))
        return [line.append(" → " + seat_label(last["winner"], lang, you), style="bold")]

    def hand(self, view: dict[str, Any], lang: str) -> RenderableType:
        """The hand by suit, trumps first, each suit from the 2 up to the ace."""
        codes = _whist_sorted(view.get("hand") or [])
        head = Text(t("hand", lang), style="bold")
        head.append(paren(len(codes), lang), style="dim")
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        trump = view.get("trump")
        for suit in sorted("cdsw", key=lambda s: s != trump):
            members = [c for c in codes if c.endswith(suit)]
            if members:
                mark = "*" if suit == trump else " "
                grid.add_row(f" {mark}{suit_name(suit, lang)}", cards_text(members, lang))
        return Group(head, grid)

    def menu(self, view: dict[str, Any], legal: Sequence[str], lang: str) -> RenderableType:
        """The playable cards by suit, numbered in the order of ``legal``."""
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column()
        rows: dict[str, Text] = {}
        for n, text in enumerate(legal, 1):
            code = text.split(" ", 1)[1]
            row = rows.setdefault(code[-1], Text())
            if row.plain:
                row.append("  ")
            row.append(f"{n} ", style="cyan")
            row.append_text(card_text(code, lang, names=False))
        for suit, row in rows.items():
            grid.add_row("  " + suit_name(suit, lang), row)
        head = Text("play", style="bold")
        meaning = gloss("play x", lang) if lang == "ja" else None
        if meaning:
            head.append(f"（{meaning}）", style="dim")
        return Group(head, grid)

    def opening(self, view: dict[str, Any], lang: str) -> list[Text]:
        dealer = view.get("dealer")
        if dealer is None or view.get("phase") == "over":
            return []
        line = word(
            "opening",
            lang,
            dealer=seat_label(dealer, lang, view.get("seat")),
            card=view.get("trump_card"),
            suit=suit_name(view.get("trump"), lang),
        )
        return [Text(line, style="bold cyan")]

    def result_of(self, result: dict[str, Any], n: int, lang: str) -> list[RenderableType]:
        """One finished hand: which side took the book and the odd tricks."""
        side = 0 if result["tricks"][0] > result["tricks"][1] else 1
        line = word(
            "result",
            lang,
            n=n,
            side=_SIDE[side],
            tricks=result["tricks"][side],
            points=result["points"][side],
        )
        table = seat_table(word("side", lang), (word("tricks", lang), "right"))
        for i, name in enumerate("AB"):
            table.add_row(f"{word('side', lang)} {name}", str(result["tricks"][i]))
        return [Text(line, style="bold"), table]

    def hand_end(
        self, before: dict[str, Any], after: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        hands = ((after.get("scores") or {}).get("detail") or {}).get("hands") or []
        return self.result_of(hands[-1], len(hands), lang) if hands else []

    def final(
        self, view: dict[str, Any], scores: dict[str, Any], lang: str
    ) -> list[RenderableType]:
        """The last hand's result, then the final scores and the winning side."""
        hands = (scores.get("detail") or {}).get("hands") or []
        out: list[RenderableType] = self.result_of(hands[-1], len(hands), lang) if hands else []
        return [*out, *super().final(view, scores, lang)]
