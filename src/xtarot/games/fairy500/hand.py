"""One deal of Fairy Five Hundred: the piles, the auction, the contract and the tricks."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from xtarot.cards import Card
from xtarot.games.tricks import Trick, VoidTracker

from .setup import UNION, Bid

__all__ = ["Hand", "sorted_cards"]

_INDEX = attrgetter("index")
#: code -> card for every card any player count uses (deals are validated first).
_BY_CODE: dict[str, Card] = {c.code: c for c in UNION}


def sorted_cards(cs: list[Card]) -> list[Card]:
    return sorted(cs, key=_INDEX)


class Hand:
    """Everything about one deal (one hand) of the match.

    Slotted: a hand has more attributes than CPython shares the key table of (29),
    and an instance dict past that made every ``h.<name>`` of a play-out dearer."""

    __slots__ = (
        "_tricks_json",
        "announced",
        "auction",
        "bid",
        "called",
        "deal",
        "dealer",
        "declarer",
        "discards",
        "done",
        "hands",
        "held_by_declarer",
        "high",
        "high_seat",
        "kind",
        "kitty",
        "kitty_taken",
        "mode",
        "npassed",
        "open_pending",
        "open_shown",
        "partners",
        "passed",
        "phase",
        "play_fairies",
        "result",
        "revealed",
        "start",
        "trick",
        "value",
        "voids",
        "won",
        "won_f",
    )

    def __init__(self, deal: dict[str, Any], start: int, players: int) -> None:
        self.deal = deal
        self.start = start  # index in the match history of this hand's first action
        self.dealer: int = deal["dealer"]
        get = _BY_CODE.__getitem__
        hands: list[list[Card]] = []
        for codes in deal["hands"]:  # (a plain loop: a comprehension is a call in 3.11)
            hands.append(sorted(map(get, codes), key=_INDEX))
        self.hands = hands
        self.kitty: list[Card] = list(map(get, deal["kitty"]))
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
        #: finished tricks as (leader, plays, winner); :attr:`tricks` is their JSON
        self.done: list[tuple[int, list[tuple[int, Card]], int]] = []
        self._tricks_json: list[dict[str, Any]] = []
        self.won = [0] * players
        self.won_f = [0] * players
        self.voids = VoidTracker(players)
        self.open_shown = False
        self.open_pending = False  # an open misère whose hand is shown at the first card
        self.play_fairies: list[list[str]] = [[] for _ in range(players)]
        self.result: dict[str, Any] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Hand:
        """A fast deep copy: cards are immutable and interned, and the JSON records
        (the deal, finished tricks, the result) are never changed once made."""
        new = Hand.__new__(Hand)
        new.deal = self.deal
        new.start = self.start
        new.dealer = self.dealer
        new.kitty_taken = self.kitty_taken
        new.phase = self.phase
        new.npassed = self.npassed
        new.high = self.high
        new.high_seat = self.high_seat
        new.declarer = self.declarer
        new.bid = self.bid
        new.value = self.value
        new.kind = self.kind
        new.mode = self.mode
        new.held_by_declarer = self.held_by_declarer
        new.trick = self.trick
        new.open_shown = self.open_shown
        new.open_pending = self.open_pending
        new.result = self.result
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
        new.done = list(self.done)
        new._tricks_json = list(self._tricks_json)
        new.won = list(self.won)
        new.won_f = list(self.won_f)
        new.voids = VoidTracker(len(self.hands))
        new.voids.voids = [set(v) for v in self.voids.voids]
        new.play_fairies = [list(x) for x in self.play_fairies]
        return new

    @property
    def tricks(self) -> list[dict[str, Any]]:
        """The finished tricks as JSON data: ``{"leader", "cards": [[seat, code]...],
        "winner"}``, built when asked for rather than in the middle of play."""
        built = self._tricks_json
        for leader, plays, winner in self.done[len(built) :]:
            built.append(
                {"leader": leader, "cards": [[s, c.code] for s, c in plays], "winner": winner}
            )
        return built

    @property
    def won_cards(self) -> list[list[Card]]:
        """Per seat, the cards of the tricks it won, in play order."""
        out: list[list[Card]] = [[] for _ in self.hands]
        for _, plays, winner in self.done:
            out[winner].extend(c for _, c in plays)
        return out

    @property
    def played(self) -> list[list[Card]]:
        """Per seat, the cards it has played this hand, in order."""
        out: list[list[Card]] = [[] for _ in self.hands]
        for _, plays, _ in self.done:
            for s, c in plays:
                out[s].append(c)
        if self.trick is not None:
            for s, c in self.trick.plays:
                out[s].append(c)
        return out
