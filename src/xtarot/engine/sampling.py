"""Uniform sampling of hidden cards under public constraints.

Search bots and the leak tests need worlds drawn *uniformly* from every deal that
agrees with what a seat knows.  The usual constraint is a void: a seat that failed
to follow a suit holds none of it.  :func:`deal_uniform` hands out a set of
unknown cards to seats with fixed hand sizes, each card only to the seats allowed
to hold it, with every valid assignment equally likely.

Cards with the same set of allowed seats form a *class*; seats allowed the same
classes form a *group*.  :func:`deal_uniform` walks the groups one at a time, choosing
how many cards of each class the group takes with exact integer weights (the number
of ways the rest can still be completed), splits a group's cards among its seats in
closed form, and fills the seats open to every card last.  :func:`count_deals`
counts the same assignments independently, class by class (a sum of products of
multinomial coefficients), which the tests use to check the draw is uniform.

>>> import random
>>> hands = deal_uniform(["a", "b", "c"], [2, 1], lambda c: {0} if c == "a" else {0, 1},
...                      random.Random(1))
>>> "a" in hands[0], sorted(hands[0] + hands[1])
(True, ['a', 'b', 'c'])
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Hashable, Iterator, Sequence
from functools import cache, lru_cache
from math import comb, factorial
from operator import attrgetter
from typing import TYPE_CHECKING, TypeVar

from xtarot.cards import Card
from xtarot.engine.rand import shuffle

if TYPE_CHECKING:
    from xtarot.engine.core import State

T = TypeVar("T")
_INDEX = attrgetter("index")

__all__ = [
    "count_deals",
    "deal_open",
    "deal_uniform",
    "deal_uniform_by_key",
    "sample_world_weighted",
]


def _classes(
    cards: Sequence[T], players: int, allowed: Callable[[T], Collection[int]]
) -> list[tuple[tuple[int, ...], list[T]]]:
    groups: dict[tuple[int, ...], list[T]] = {}
    keys: dict[tuple[int, ...], tuple[int, ...]] = {}
    for c in sorted(cards, key=_canonical):
        raw = tuple(allowed(c))
        seats = keys.get(raw)
        if seats is None:
            seats = keys[raw] = tuple(sorted({s for s in raw if 0 <= s < players}))
        groups.setdefault(seats, []).append(c)
    # the class open to the most seats goes last: it is counted in closed form
    return sorted(groups.items(), key=lambda kv: (len(kv[0]), kv[0]))


def _canonical(c: object) -> tuple[int, str]:
    """Cards are dealt from a canonical order, so that the result depends only on
    which cards are unknown, never on where they truly lie (see the leak test)."""
    index = getattr(c, "index", None)
    return (index, "") if isinstance(index, int) else (-1, repr(c))


def _in_canonical_order(cards: Sequence[T]) -> list[T]:
    """``sorted(cards, key=_canonical)``; cards (distinct indices) simply by index."""
    for c in cards:
        if c.__class__ is not Card:
            return sorted(cards, key=_canonical)
    return sorted(cards, key=_INDEX)


def _splits(n: int, seats: tuple[int, ...], caps: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to give n cards to ``seats`` within ``caps`` (as per-seat counts)."""
    k = len(caps)

    def rec(i: int, left: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        if i == len(seats):
            if left == 0:
                out = [0] * k
                for s, m in zip(seats, acc, strict=True):
                    out[s] = m
                yield tuple(out)
            return
        room = sum(caps[s] for s in seats[i + 1 :])
        lo = max(0, left - room)
        for m in range(lo, min(left, caps[seats[i]]) + 1):
            acc.append(m)
            yield from rec(i + 1, left - m, acc)
            acc.pop()

    yield from rec(0, n, [])


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = factorial(n)
    for p in parts:
        out //= factorial(p)
    return out


class _Counter:
    def __init__(self, classes: list[tuple[tuple[int, ...], int]]) -> None:
        self.classes = classes
        self.count = lru_cache(maxsize=None)(self._count)

    def _count(self, i: int, caps: tuple[int, ...]) -> int:
        seats, n = self.classes[i]
        if i == len(self.classes) - 1:
            if sum(caps) != n or any(caps[s] for s in range(len(caps)) if s not in seats):
                return 0
            return _multinomial(n, caps)
        total = 0
        for split in _splits(n, seats, caps):
            rest = tuple(c - m for c, m in zip(caps, split, strict=True))
            sub = self.count(i + 1, rest)
            if sub:
                total += _multinomial(n, split) * sub
        return total


def count_deals(
    cards: Sequence[T], capacities: Sequence[int], allowed: Callable[[T], Collection[int]]
) -> int:
    """How many ways the cards can be dealt to seats of these sizes under ``allowed``."""
    classes = _classes(cards, len(capacities), allowed)
    if sum(capacities) != len(cards):
        return 0
    if not classes:
        return 1
    counter = _Counter([(seats, len(cs)) for seats, cs in classes])
    return counter.count(0, tuple(capacities))


def deal_uniform(
    cards: Sequence[T],
    capacities: Sequence[int],
    allowed: Callable[[T], Collection[int]],
    rng: random.Random,
) -> list[list[T]]:
    """Deal ``cards`` to seats holding ``capacities[s]`` cards each, uniformly at random
    among the assignments that give every card to one of its ``allowed`` seats.

    The result depends only on the *set* of cards given, not on their order, so a
    sampler that passes the unknown cards in whatever order they truly lie leaks
    nothing through the random stream.  Raises ``ValueError`` when no assignment
    exists (an inconsistent position).
    """
    if sum(capacities) != len(cards):
        raise ValueError(f"{len(cards)} cards cannot fill hands of sizes {list(capacities)}")
    k = len(capacities)
    by_seats: dict[frozenset[int], list[T]] = {}
    # id(allowed seats) -> (the collection, kept alive so the id stays its own; its class)
    known: dict[int, tuple[Collection[int], list[T]]] = {}
    for c in _in_canonical_order(cards):
        got = allowed(c)
        hit = known.get(id(got))
        if hit is None or hit[0] is not got:
            seats = frozenset(s for s in got if 0 <= s < k and capacities[s])
            hit = known[id(got)] = (got, by_seats.setdefault(seats, []))
        hit[1].append(c)
    return _deal_by_seat(list(by_seats.items()), capacities, rng)


def deal_uniform_by_key(
    cards: Sequence[T],
    capacities: Sequence[int],
    key_of: Callable[[T], Hashable],
    seats_for: Callable[[Hashable], Collection[int]],
    rng: random.Random,
) -> list[list[T]]:
    """:func:`deal_uniform` with ``allowed(c) = seats_for(key_of(c))``, the same draw,
    asking ``seats_for`` once per key (e.g. per suit, with voids) instead of once
    per card."""
    if sum(capacities) != len(cards):
        raise ValueError(f"{len(cards)} cards cannot fill hands of sizes {list(capacities)}")
    k = len(capacities)
    by_seats: dict[frozenset[int], list[T]] = {}
    by_key: dict[Hashable, list[T]] = {}
    known: dict[int, tuple[Collection[int], list[T]]] = {}  # as in deal_uniform
    for c in _in_canonical_order(cards):
        key = key_of(c)
        cls = by_key.get(key)
        if cls is None:
            got = seats_for(key)
            hit = known.get(id(got))
            if hit is None or hit[0] is not got:
                seats = frozenset(s for s in got if 0 <= s < k and capacities[s])
                hit = known[id(got)] = (got, by_seats.setdefault(seats, []))
            cls = by_key[key] = hit[1]
        cls.append(c)
    return _deal_by_seat(list(by_seats.items()), capacities, rng)


def deal_open(cards: Sequence[T], capacities: Sequence[int], rng: random.Random) -> list[list[T]]:
    """:func:`deal_uniform` where every seat may hold every card: exactly its draw
    (the canonical order shuffled twice, as :func:`_deal_by_seat` does for one class
    open to every seat, then cut seat by seat) without sorting the cards into
    classes, which cost a search's world sampling a fifth of its time.

    >>> deal_open("abcde", [2, 0, 3], random.Random(1)) == deal_uniform(
    ...     "abcde", [2, 0, 3], lambda c: (0, 1, 2), random.Random(1))
    True
    """
    if sum(capacities) != len(cards):
        raise ValueError(f"{len(cards)} cards cannot fill hands of sizes {list(capacities)}")
    got = _in_canonical_order(cards)  # (a new list)
    shuffle(rng, got)  # the one class's pool
    shuffle(rng, got)  # every card, for the seats open to all
    dealt: list[list[T]] = []
    pos = 0
    for cap in capacities:
        dealt.append(got[pos : pos + cap] if cap > 0 else [])
        pos += max(cap, 0)
    return dealt


def _deal_by_seat(
    classes: list[tuple[frozenset[int], list[T]]],
    capacities: Sequence[int],
    rng: random.Random,
) -> list[list[T]]:
    """Uniform constrained deal, counted seat group by seat group.

    ``classes`` pairs each set of allowed seats with its cards, in canonical order
    (classes by first card).  Seats that may hold exactly the same cards are merged
    (their share is split in closed form) and the seats that may hold every hidden
    card are filled last, so it stays fast with many seats and a few public voids
    (8 players, a kitty and discards).
    """
    k = len(capacities)
    m = len(classes)
    units: dict[tuple[int, ...], list[int]] = {}
    for s in range(k):
        if capacities[s] > 0:
            pattern = tuple(j for j, (seats, _) in enumerate(classes) if s in seats)
            units.setdefault(pattern, []).append(s)
    everything = tuple(range(m))
    free = units.pop(everything, [])
    free_cap = sum(capacities[s] for s in free)
    if not units:  # every seat may hold every card: two shuffles, as below
        if sum(len(cs) for _, cs in classes) != free_cap:
            raise ValueError("no deal of the hidden cards is consistent with the constraints")
        pools = [list(cs) for _, cs in classes]
        for p in pools:
            shuffle(rng, p)
        got = [c for p in pools for c in p]
        shuffle(rng, got)
        dealt: list[list[T]] = [[] for _ in range(k)]
        pos = 0
        for s in free:
            dealt[s] = got[pos : pos + capacities[s]]
            pos += capacities[s]
        return dealt
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
        shuffle(rng, p)
    hands: list[list[T]] = [[] for _ in range(k)]

    def share(seats: list[int], got: list[T]) -> None:
        shuffle(rng, got)
        pos = 0
        for s in seats:
            hands[s].extend(got[pos : pos + capacities[s]])
            pos += capacities[s]

    for i, (_, seats) in enumerate(order):
        if i == last:
            mine = [c for j in patterns[i] for c in pools[j]]
            shuffle(rng, mine)
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


def sample_world_weighted(
    state: State,
    seat: int,
    rng: random.Random,
    log_weight: Callable[[State], float],
    *,
    candidates: int = 16,
) -> State:
    """A world for ``seat`` drawn in proportion to ``exp(log_weight(world))`` among the
    worlds consistent with what the seat has seen (sampling-importance-resampling).

    ``candidates`` worlds are drawn with ``state.sample_world(seat, rng)`` (uniform
    among the consistent deals) and one of them is kept with probability proportional
    to its weight, so the result is always one ``sample_world`` could return: it agrees
    with the seat's view, whatever the weights say.  The draw is exact for a constant
    weight (then it is the uniform sampler's) and tends to the weighted distribution as
    ``candidates`` grows; with few candidates it lies between the two.  ``log_weight``
    sees only the candidate worlds, so the result depends on the seat's knowledge,
    ``rng`` and the weights alone, as ``sample_world``'s does.  A belief model gives
    such weights (``xtarot.adapters.belief``).
    """
    if candidates < 1:
        raise ValueError(f"candidates must be at least 1, not {candidates}")
    worlds = [state.sample_world(seat, rng) for _ in range(candidates)]
    if candidates == 1:
        return worlds[0]
    logs = [float(log_weight(w)) for w in worlds]
    top = max(logs)
    if top == float("-inf"):
        raise ValueError("every candidate world has weight 0")
    if top != top or top == float("inf"):
        raise ValueError(f"log weights must be finite or -inf, got {top}")
    weights = [math.exp(x - top) for x in logs]
    pick = rng.random() * sum(weights)
    for world, w in zip(worlds, weights, strict=True):
        pick -= w
        if pick < 0:
            return world
    return worlds[max(range(candidates), key=weights.__getitem__)]
