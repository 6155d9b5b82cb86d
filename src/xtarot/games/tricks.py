"""Trick-taking machinery shared by the trick games (Fairy Five Hundred, Extendori).

Each game supplies its own notion of a card's *effective suit* (``suit_of``: e.g.
at Fairy Five Hundred every F and the trump's colour-mate J belong to the trump
suit; at Extendori the majors are a suit) and its own *strength key* for a card in
a trick.  This module does the rest the same way for every game:

- :func:`follow_options`: the cards a player may play to a trick;
- :class:`Trick`: the cards on the table, who led, the led suit, the winner;
- :class:`VoidTracker`: the public inferences "seat s holds no card of suit x";
- :func:`resample_hands`: a uniformly random deal of the hidden cards that agrees
  with every public void (for ``sample_world``).

>>> from xtarot.cards import cards
>>> hand = cards("Kc 3c 5s")
>>> [c.code for c in follow_options(hand, "c", lambda c: c.suit)]
['Kc', '3c']
>>> [c.code for c in follow_options(hand, "d", lambda c: c.suit)]
['Kc', '3c', '5s']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xtarot.cards import Card
from xtarot.engine import deal_uniform
from xtarot.engine.sampling import deal_open, deal_uniform_by_key

__all__ = [
    "Trick",
    "VoidTracker",
    "follow_options",
    "follow_or_trump_options",
    "resample_hands",
]

SuitOf = Callable[[Card], Hashable]


def follow_options(hand: Sequence[Card], led: Hashable | None, suit_of: SuitOf) -> list[Card]:
    """The cards of the led (effective) suit, or the whole hand when there are none
    (or when nothing was led yet)."""
    if led is None:
        return list(hand)
    follow = [c for c in hand if suit_of(c) == led]
    return follow if follow else list(hand)


def follow_or_trump_options(
    hand: Sequence[Card], led: Hashable | None, suit_of: SuitOf, trump: Hashable
) -> list[Card]:
    """The cards of the led suit; failing that, the cards of the ``trump`` suit (a
    player who cannot follow must trump, as with Extendori's majors); failing both,
    the whole hand.

    >>> from xtarot.cards import cards
    >>> key = lambda c: c.suit or "T"
    >>> [c.code for c in follow_or_trump_options(cards("Kc T3 5s"), "d", key, "T")]
    ['T3']
    >>> [c.code for c in follow_or_trump_options(cards("Kc 5s"), "d", key, "T")]
    ['Kc', '5s']
    """
    if led is None:
        return list(hand)
    follow = [c for c in hand if suit_of(c) == led]
    if follow:
        return follow
    trumps = [c for c in hand if suit_of(c) == trump]
    return trumps if trumps else list(hand)


@dataclass
class Trick:
    """The cards of one trick in play order; ``led`` is the leader's effective suit."""

    leader: int
    plays: list[tuple[int, Card]] = field(default_factory=list)
    led: Hashable | None = None

    def add(self, seat: int, c: Card, suit_of: SuitOf) -> None:
        if not self.plays:
            self.led = suit_of(c)
        self.plays.append((seat, c))

    @property
    def cards(self) -> list[Card]:
        return [c for _, c in self.plays]

    def winner(self, key: Callable[[Card], Any]) -> int:
        """The seat whose card has the largest key (keys must be distinct for the
        cards that can win; a card that cannot win should get a key below all)."""
        return max(self.plays, key=lambda sc: key(sc[1]))[0]

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [[s, c.code] for s, c in self.plays]}


class VoidTracker:
    """Public knowledge of which (effective) suits each seat has shown it lacks."""

    def __init__(self, players: int) -> None:
        self.voids: list[set[Hashable]] = [set() for _ in range(players)]

    def note(self, seat: int, *suits: Hashable) -> None:
        self.voids[seat].update(suits)

    def allows(self, seat: int, suit: Hashable) -> bool:
        return suit not in self.voids[seat]

    def to_json(self) -> list[list[str]]:
        return [sorted(map(str, v)) for v in self.voids]


def resample_hands(
    hidden: Sequence[Card],
    capacities: Sequence[int],
    voids: VoidTracker,
    suit_of: SuitOf,
    rng: random.Random,
    *,
    also_void: Callable[[int, Card], bool] | None = None,
) -> list[list[Card]]:
    """Deal ``hidden`` cards to seats with these hand sizes, uniformly among the deals
    that respect every void (a seat with capacity 0 gets nothing).

    ``also_void(seat, card)`` can forbid further placements (e.g. a card a seat is
    known not to hold for another reason).  The draw is
    :func:`xtarot.engine.deal_uniform`'s: exact, and fast with many seats.
    """
    n = len(capacities)
    if also_void is None:  # the seats a card may go to depend on its suit alone
        open_seats = [s for s in range(n) if capacities[s] > 0]
        void_sets = voids.voids
        plain = type(voids).allows is VoidTracker.allows  # not a subclass with its own rule
        if plain and not any(void_sets[s] for s in open_seats):
            return deal_open(hidden, capacities, rng)  # (deal_uniform's draw, quicker)

        def seats_for(suit: Hashable) -> list[int]:
            if plain:
                return [s for s in open_seats if suit not in void_sets[s]]
            return [s for s in open_seats if voids.allows(s, suit)]

        return deal_uniform_by_key(hidden, capacities, suit_of, seats_for, rng)

    def allowed(c: Card) -> list[int]:
        suit = suit_of(c)
        return [
            s
            for s in range(n)
            if capacities[s] > 0 and voids.allows(s, suit) and not also_void(s, c)
        ]

    return deal_uniform(hidden, capacities, allowed, rng)
