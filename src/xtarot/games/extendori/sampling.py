"""Uniform deals of hidden cards under public voids (for ``sample_world``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from xtarot.cards import Card
from xtarot.engine import deal_uniform
from xtarot.games.tricks import VoidTracker


def deal_respecting_voids(
    hidden: Sequence[Card],
    capacities: Sequence[int],
    voids: Sequence[set[Hashable]] | VoidTracker,
    key_of: Callable[[Card], Hashable],
    rng: random.Random,
) -> list[list[Card]]:
    """Deal ``hidden`` cards to slots of these sizes, uniformly among the deals where no
    slot gets a card whose key it is void in (``voids[slot]``); slots of size 0 get
    nothing.  The engine's exact sampler (:func:`xtarot.engine.deal_uniform`) draws
    it.  Raises ``ValueError`` when no deal fits.

    >>> from xtarot.cards import cards
    >>> hands = deal_respecting_voids(cards("Kc 2c 3d 4d"), [2, 2], [{"c"}, set()],
    ...                               lambda c: c.suit, random.Random(3))
    >>> sorted(c.code for c in hands[0]), sorted(c.code for c in hands[1])
    (['3d', '4d'], ['2c', 'Kc'])
    """
    void_sets = voids.voids if isinstance(voids, VoidTracker) else voids
    n = len(capacities)
    holders: dict[Hashable, list[int]] = {}

    def allowed(c: Card) -> list[int]:
        key = key_of(c)
        seats = holders.get(key)
        if seats is None:
            seats = holders[key] = [
                s for s in range(n) if capacities[s] and key not in void_sets[s]
            ]
        return seats

    return deal_uniform(hidden, capacities, allowed, rng)
