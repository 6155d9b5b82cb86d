"""Uniform sampling of hidden cards under public constraints.

Search bots and the leak tests need worlds drawn *uniformly* from every deal that
agrees with what a seat knows.  The usual constraint is a void: a seat that failed
to follow a suit holds none of it.  :func:`deal_uniform` hands out a set of
unknown cards to seats with fixed hand sizes, each card only to the seats allowed
to hold it, with every valid assignment equally likely.

Cards with the same set of allowed seats form a *class*.  The number of valid
assignments is a sum over how many cards of each class each seat receives, of the
product of multinomial coefficients; it is counted class by class with
memoisation, then one assignment is drawn by walking the same recursion with
exact integer weights.

>>> import random
>>> hands = deal_uniform(["a", "b", "c"], [2, 1], lambda c: {0} if c == "a" else {0, 1},
...                      random.Random(1))
>>> "a" in hands[0], sorted(hands[0] + hands[1])
(True, ['a', 'b', 'c'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import lru_cache
from math import factorial
from typing import TypeVar

T = TypeVar("T")

__all__ = ["count_deals", "deal_uniform"]


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
    players = len(capacities)
    if sum(capacities) != len(cards):
        raise ValueError(f"{len(cards)} cards cannot fill hands of sizes {list(capacities)}")
    hands: list[list[T]] = [[] for _ in range(players)]
    classes = _classes(cards, players, allowed)
    if not classes:
        return hands
    counter = _Counter([(seats, len(cs)) for seats, cs in classes])
    caps = tuple(capacities)
    if counter.count(0, caps) == 0:
        raise ValueError("no deal of the hidden cards is consistent with the constraints")
    for i, (seats, group) in enumerate(classes):
        n = len(group)
        if i == len(classes) - 1:
            split = caps
        else:
            options = []
            for candidate in _splits(n, seats, caps):
                rest = tuple(c - m for c, m in zip(caps, candidate, strict=True))
                w = _multinomial(n, candidate) * counter.count(i + 1, rest)
                if w:
                    options.append((w, candidate))
            pick = rng.randrange(sum(w for w, _ in options))
            for w, candidate in options:
                if pick < w:
                    split = candidate
                    break
                pick -= w
        shuffled = list(group)
        rng.shuffle(shuffled)
        pos = 0
        for s in range(players):
            m = split[s]
            if m:
                hands[s].extend(shuffled[pos : pos + m])
                pos += m
        caps = tuple(c - m for c, m in zip(caps, split, strict=True))
    return hands
