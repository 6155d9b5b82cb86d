"""One deal of Fairy Five Hundred: the piles, the auction, the contract and the tricks."""

from __future__ import annotations

import copy
from typing import Any

from xtarot.cards import Card, card
from xtarot.games.tricks import Trick, VoidTracker

from .setup import Bid

__all__ = ["Hand", "sorted_cards"]


def sorted_cards(cs: list[Card]) -> list[Card]:
    return sorted(cs, key=lambda c: c.index)


class Hand:
    """Everything about one deal (one hand) of the match."""

    def __init__(self, deal: dict[str, Any], start: int, players: int) -> None:
        self.deal = deal
        self.start = start  # index in the match history of this hand's first action
        self.dealer: int = deal["dealer"]
        self.hands: list[list[Card]] = [sorted_cards([card(c) for c in h]) for h in deal["hands"]]
        self.kitty: list[Card] = [card(c) for c in deal["kitty"]]
        self.kitty_taken = False
        self.discards: list[Card] = []
        self.phase = "auction"
        self.auction: list[tuple[int, str]] = []
        self.passed = [False] * players
        self.npassed = 0
        self.high: int | None = None  # action id of the standing bid
        self.high_seat: int | None = None
        self.declarer: int | None = None
        self.bid: Bid | None = None
        self.value = 0
        self.kind: str | None = None  # contract | misere | ramsch | ten_per_trick | redeal
        self.mode: str | None = None
        self.called: list[Card] = []
        self.announced: dict[Card, int] = {}  # classical: called card -> announced partner
        self.partners: dict[int, int] = {}
        self.held_by_declarer = 0
        self.revealed: set[int] = set()
        self.trick: Trick | None = None
        self.tricks: list[dict[str, Any]] = []
        self.won = [0] * players
        self.won_f = [0] * players
        self.won_cards: list[list[Card]] = [[] for _ in range(players)]
        self.played: list[list[Card]] = [[] for _ in range(players)]
        self.voids = VoidTracker(players)
        self.open_shown = False
        self.play_fairies: list[list[str]] = [[] for _ in range(players)]
        self.result: dict[str, Any] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        """A fast deep copy: cards are immutable and interned, and the JSON records
        (the deal, finished tricks, the result) are never changed once made."""
        new = copy.copy(self)
        new.hands = [list(x) for x in self.hands]
        new.kitty = list(self.kitty)
        new.discards = list(self.discards)
        new.auction = list(self.auction)
        new.passed = list(self.passed)
        new.called = list(self.called)
        new.announced = dict(self.announced)
        new.partners = dict(self.partners)
        new.revealed = set(self.revealed)
        if self.trick is not None:
            new.trick = Trick(self.trick.leader, list(self.trick.plays), self.trick.led)
        new.tricks = list(self.tricks)
        new.won = list(self.won)
        new.won_f = list(self.won_f)
        new.won_cards = [list(x) for x in self.won_cards]
        new.played = [list(x) for x in self.played]
        new.voids = VoidTracker(len(self.hands))
        new.voids.voids = [set(v) for v in self.voids.voids]
        new.play_fairies = [list(x) for x in self.play_fairies]
        return new
