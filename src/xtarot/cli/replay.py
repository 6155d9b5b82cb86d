"""``xtarot replay``: the course of a saved match, told as it was seen at the table.

A record holds the seed and every card.  What is shown depends on the match:

- a **finished** match is replayed in full: the seed, each hand's deal, every action
  with its text (face-down discards included), trick winners, combats, draws and
  each hand's result;
- an **unfinished** match (saved with ``q``) is shown only as the seat that saved it
  saw it (the record's ``meta.human_seat``): its own cards — the hand it was dealt at
  the start of each hand, then its draws —, the others' hidden moves as ``?``, no
  seed and no one else's cards — unless ``--reveal`` is given.

Each action is told by the game's screen (:meth:`~xtarot.cli.render.GameUI.announce`),
the same lines a player sees during play.  Each step also carries the position after it
as the replay shows it (the full-screen replay, :mod:`xtarot.tui.replay`, draws it).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

import xtarot
from xtarot.cli.i18n import seat_label, t
from xtarot.cli.render import (
    SafeUI,
    action_text,
    as_card,
    cards_text,
    gained_lines,
    hand_rows,
    scores_table,
    sort_cards,
    ui_for,
)
from xtarot.engine import State

__all__ = ["Step", "deal_piles", "perspective", "steps"]


@dataclass
class Step:
    """What to print for one action (``number`` > 0) or between actions (0): the
    opening, always first (its ``items`` may be empty), and the end, always last."""

    number: int
    items: list[RenderableType]
    #: The position after the step as the replay shows it: the seat's view, or the
    #: spectator's (:meth:`~xtarot.engine.State.public_view`) when everything is shown.
    view: dict[str, Any] = field(default_factory=dict)
    #: The hand in progress after the step (from 1).
    hand: int = 1
    #: Every seat's cards after the step (only when everything is shown and
    #: ``every_hand`` was asked for).
    hands: list[list[str]] | None = None


def perspective(record: dict[str, Any], state: State, reveal: bool) -> int | None:
    """The seat whose view a replay shows: ``None`` (everything) for a finished match
    or with ``--reveal``; else the seat that saved it (seat 0 if the record does not
    say)."""
    if reveal or state.is_terminal:
        return None
    seat = (record.get("meta") or {}).get("human_seat", 0)
    return seat if isinstance(seat, int) and 0 <= seat < state.players else 0


def deal_piles(deal: dict[str, Any], lang: str) -> list[tuple[str, list[str]]]:
    """A hand's deal as (label, cards): every seat's cards, then the small piles of
    face-down cards (a kitty, a first discard; not a stock of many cards)."""
    piles = [(seat_label(s, lang), list(cards)) for s, cards in enumerate(deal.get("hands") or [])]
    for key, value in deal.items():
        if key == "hands" or not isinstance(value, list) or not value or len(value) > 8:
            continue
        if all(isinstance(v, str) and as_card(v) is not None for v in value):
            piles.append((key, list(value)))
    return piles


def _deal_lines(deal: dict[str, Any], n: int, lang: str) -> list[RenderableType]:
    """A hand's deal, every seat's cards (only shown when the match is revealed)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    seats = len(deal.get("hands") or [])
    for i, (label, cards) in enumerate(deal_piles(deal, lang)):
        grid.add_row(label, cards_text(sort_cards(cards) if i < seats else cards, lang))
    return [Text(t("replay_deal", lang, n=n), style="bold"), grid]


def _own_hand_lines(view: dict[str, Any], n: int, seat: int, lang: str) -> list[RenderableType]:
    """The cards ``seat`` held when hand ``n`` began (an unfinished match's replay shows
    that seat's own cards, not the deal)."""
    hand = view.get("hand")
    if not isinstance(hand, list):
        return []
    label = t("replay_own_hand", lang, n=n, seat=seat_label(seat, lang))
    return [hand_rows(hand, lang, label=label)]


def steps(
    record: dict[str, Any], lang: str, seat: int | None, *, every_hand: bool = False
) -> Iterator[Step]:
    """The course of ``record`` as ``seat`` saw it (``None``: everything); with
    ``every_hand`` (and no seat), each step says every seat's cards too."""
    walk = xtarot.replay(record, upto=0)
    ui = SafeUI(ui_for(walk.game.id, walk.game.options))

    def look(state: State) -> dict[str, Any]:
        return copy.deepcopy(state.view(seat) if seat is not None else state.public_view())

    def cards() -> list[list[str]] | None:
        if seat is not None or not every_hand:
            return None
        return [list(walk.view(s).get("hand") or []) for s in range(walk.players)]

    before = look(walk)
    deals = record.get("deals") or []
    first: list[RenderableType] = []
    if seat is None and deals:
        first += _deal_lines(deals[0], 1, lang)
    elif seat is not None:
        first += _own_hand_lines(before, 1, seat, lang)
    first += ui.opening(before, lang)
    yield Step(0, first, before, len(walk.deals), cards())
    for i, text in enumerate(record["actions"], 1):
        actor = walk.current_player
        assert actor is not None
        action = walk.game.action(text)
        seen = text if seat is None or seat == actor else walk.action_seen_by(action, seat)
        hands = len(walk.deals)
        walk.apply(text)
        after = look(walk)
        head = Text(f"{i:>4} ", style="dim")
        lines: list[RenderableType] = []
        if actor == seat:
            mine = Text(seat_label(actor, lang, seat) + ": ", style="bold")
            lines.append(
                head.append_text(mine.append_text(action_text(seen, lang, game=walk.game.id)))
            )
        for line in ui.announce(before, after, actor, lang, seen=seen):
            if actor == seat and line.plain.startswith(seat_label(actor, lang, seat)):
                continue
            lines.append(line if lines else head.append_text(line))
        if not lines:
            lines.append(head.append_text(action_text(seen, lang, game=walk.game.id)))
        if seat is not None and len(walk.deals) == hands:
            lines += gained_lines(before, after, lang)
        if len(walk.deals) > hands:
            lines.append(Text(""))
            lines.append(Text(t("hand_over", lang, n=hands), style="bold"))
            lines += ui.hand_end(before, after, lang)
            lines.append(Text(""))
            lines.append(Text(t("hand_begins", lang, n=len(walk.deals)), style="bold cyan"))
            if seat is None and len(deals) >= len(walk.deals):
                lines += _deal_lines(deals[len(walk.deals) - 1], len(walk.deals), lang)
            elif seat is not None:
                lines += _own_hand_lines(after, len(walk.deals), seat, lang)
            lines += ui.opening(after, lang)
        yield Step(i, lines, after, len(walk.deals), cards())
        before = after
    if walk.is_terminal:
        end = [Text(""), *ui.final(before, walk.scores().to_dict(), lang)]
    else:
        running = walk.scores().to_dict()
        end = [
            Text(""),
            Text(t("replay_unfinished", lang), style="yellow"),
            scores_table(running, lang, seat, title=t("running_scores", lang)),
        ]
    yield Step(0, end, before, len(walk.deals), cards())
