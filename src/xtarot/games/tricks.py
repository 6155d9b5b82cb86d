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
from collections.abc import Callable, Collection, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import comb
from typing import Any

from xtarot.cards import Card
from xtarot.engine import deal_uniform

__all__ = [
    "Trick",
    "VoidTracker",
    "deal_by_seat",
    "follow_options",
    "follow_or_trump_options",
    "resample_hands",
    "resample_hands_by_seat",
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
    known not to hold for another reason).
    """
    n = len(capacities)

    def allowed(c: Card) -> list[int]:
        suit = suit_of(c)
        return [
            s
            for s in range(n)
            if capacities[s] > 0
            and voids.allows(s, suit)
            and (also_void is None or not also_void(s, c))
        ]

    return deal_uniform(hidden, capacities, allowed, rng)


def deal_by_seat(
    cards: Sequence[Card],
    capacities: Sequence[int],
    allowed: Callable[[Card], Collection[int]],
    rng: random.Random,
) -> list[list[Card]]:
    """The same uniform constrained deal as :func:`xtarot.engine.deal_uniform`, counted
    seat group by seat group instead of card class by card class.

    Seats that may hold exactly the same cards are merged (their share is split in
    closed form), and the seats that may hold every hidden card are filled last, so
    it stays fast with many seats and a few public voids (8 players, kitty and
    discards).  Raises ``ValueError`` when no deal exists.
    """
    k = len(capacities)
    if sum(capacities) != len(cards):
        raise ValueError(f"{len(cards)} cards cannot fill hands of sizes {list(capacities)}")
    by_seats: dict[frozenset[int], list[Card]] = {}
    known: dict[int, tuple[Collection[int], frozenset[int]]] = {}  # id -> (kept alive, seats)
    for c in cards:
        got = allowed(c)
        hit = known.get(id(got))
        if hit is None or hit[0] is not got:
            hit = known[id(got)] = (got, frozenset(s for s in got if 0 <= s < k and capacities[s]))
        by_seats.setdefault(hit[1], []).append(c)
    classes = list(by_seats.items())
    m = len(classes)
    units: dict[tuple[int, ...], list[int]] = {}
    for s in range(k):
        if capacities[s] > 0:
            pattern = tuple(j for j, (seats, _) in enumerate(classes) if s in seats)
            units.setdefault(pattern, []).append(s)
    everything = tuple(range(m))
    free = units.pop(everything, [])
    free_cap = sum(capacities[s] for s in free)
    order = sorted(units.items(), key=lambda kv: len(kv[0]))
    patterns = [p for p, _ in order]
    caps = [sum(capacities[s] for s in seats) for _, seats in order]

    def splits(i: int, rest: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        opts = patterns[i]
        out = [0] * m

        def rec(pos: int, left: int) -> Iterator[tuple[int, ...]]:
            if pos == len(opts) - 1:
                j = opts[pos]
                if left <= rest[j]:
                    out[j] = left
                    yield tuple(out)
                    out[j] = 0
                return
            j = opts[pos]
            room = sum(rest[q] for q in opts[pos + 1 :])
            for take in range(max(0, left - room), min(left, rest[j]) + 1):
                out[j] = take
                yield from rec(pos + 1, left - take)
            out[j] = 0

        if not opts:
            if caps[i] == 0:
                yield tuple(out)
            return
        yield from rec(0, caps[i])

    def weighted(i: int, rest: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        for split in splits(i, rest):
            after = tuple(r - t for r, t in zip(rest, split, strict=True))
            sub = count(i + 1, after)
            if sub:
                weight = sub
                for r, t in zip(rest, split, strict=True):
                    if t:
                        weight *= comb(r, t)
                yield weight, after

    last = len(order) - 1

    @cache
    def count(i: int, rest: tuple[int, ...]) -> int:
        # up to a constant factor: the merged seats' own splits never change the odds
        if i > last:
            return 1 if sum(rest) == free_cap and (free or not free_cap) else 0
        if i == last and (free or sum(rest) == caps[i]):
            # Vandermonde: every way for the last unit to take caps[i] of the cards it may hold
            return comb(sum(rest[j] for j in patterns[i]), caps[i])
        return sum(w for w, _ in weighted(i, rest))

    rest = tuple(len(cs) for _, cs in classes)
    if count(0, rest) == 0:
        raise ValueError("no deal of the hidden cards is consistent with the constraints")
    pools = [list(cs) for _, cs in classes]
    for p in pools:
        rng.shuffle(p)
    hands: list[list[Card]] = [[] for _ in range(k)]

    def share(seats: list[int], got: list[Card]) -> None:
        rng.shuffle(got)
        pos = 0
        for s in seats:
            hands[s].extend(got[pos : pos + capacities[s]])
            pos += capacities[s]

    for i, (_, seats) in enumerate(order):
        if i == last:
            mine = [c for j in patterns[i] for c in pools[j]]
            rng.shuffle(mine)
            took = set(mine[: caps[i]])
            share(seats, mine[: caps[i]])
            pools = [[c for c in p if c not in took] for p in pools]
            break
        options = list(weighted(i, rest))
        pick = rng.randrange(sum(w for w, _ in options))
        after = options[-1][1]
        for w, candidate in options:
            if pick < w:
                after = candidate
                break
            pick -= w
        got = [pools[j].pop() for j in range(m) for _ in range(rest[j] - after[j])]
        share(seats, got)
        rest = after
    share(free, [c for p in pools for c in p])
    return hands


def resample_hands_by_seat(
    hidden: Sequence[Card],
    capacities: Sequence[int],
    voids: VoidTracker,
    suit_of: SuitOf,
    rng: random.Random,
    *,
    also_void: Callable[[int, Card], bool] | None = None,
) -> list[list[Card]]:
    """:func:`resample_hands` drawn with :func:`deal_by_seat`: the same distribution,
    fast with many seats (Fairy Five Hundred's 8 hands plus kitty and discards)."""
    n = len(capacities)
    by_suit: dict[Hashable, list[int]] = {}

    def allowed(c: Card) -> list[int]:
        suit = suit_of(c)
        if also_void is None:
            seats = by_suit.get(suit)
            if seats is None:
                seats = by_suit[suit] = [
                    s for s in range(n) if capacities[s] > 0 and voids.allows(s, suit)
                ]
            return seats
        return [
            s
            for s in range(n)
            if capacities[s] > 0 and voids.allows(s, suit) and not also_void(s, c)
        ]

    return deal_by_seat(hidden, capacities, allowed, rng)
