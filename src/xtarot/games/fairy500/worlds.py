"""Worlds for search and for the leak test: deals that agree with one seat's knowledge.

A seat knows its own hand, every public action and what follows from them: voids
shown by failing to follow (with the contract's effective suits), called cards
played, an announced (classical) or pair-mode partner, the open-misère hand, and,
for the declarer, the kitty and its discards.  Everything else is redrawn
uniformly with :func:`xtarot.games.tricks.resample_hands`, in a canonical
order so the draw cannot depend on where the hidden cards really are.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

from xtarot.cards import Card
from xtarot.engine.rand import shuffle
from xtarot.engine.sampling import deal_open
from xtarot.games.tricks import VoidTracker, resample_hands

from .hand import Hand
from .play import SUIT_OF
from .setup import HAND_SIZE

__all__ = ["sample_hand"]

_INDEX = attrgetter("index")


def sample_hand(
    h: Hand, seat: int, texts: list[str], rng: random.Random
) -> tuple[dict[str, Any], list[str]]:
    """A deal of hand ``h`` and its action texts, uniform among those that agree with
    what ``seat`` knows: its own hand, every public action (voids by failing to
    follow, called cards played, an announced partner, an open misère hand) and, for
    the declarer, the kitty and its discards."""
    n = len(h.hands)
    decl = h.declarer
    exchange = h.kitty_taken
    kitty_slot, discard_slot = n, n + 1
    pool: list[Card] = []
    caps = [0] * (n + 2)
    for s in range(n):
        if s == seat or (h.open_shown and s == decl):
            continue
        pool.extend(h.hands[s])
        caps[s] = len(h.hands[s])
    if not exchange:
        pool.extend(h.kitty)
        caps[kitty_slot] = len(h.kitty)
    elif seat != decl:
        pool.extend(h.discards)
        caps[discard_slot] = len(h.discards)
    pool.sort(key=_INDEX)  # canonical: the draw may not see where they are
    announced = h.announced
    if not announced and not any(h.voids.voids):
        pools = deal_open(pool, caps, rng)  # (what resample_hands draws then, directly)
    else:
        voids = VoidTracker(n + 2)
        for s in range(n):
            voids.note(s, *h.voids.voids[s])
        also = (lambda s, c: c in announced and announced[c] != s) if announced else None
        mode = h.mode or "misere"
        pools = resample_hands(pool, caps, voids, SUIT_OF[mode].__getitem__, rng, also_void=also)
    deal_hands: list[list[str]] = []
    played = h.played
    for s in range(n):
        if s == seat:
            deal_hands.append(list(h.deal["hands"][s]))
        elif h.open_shown and s == decl:
            deal_hands.append([c.code for c in played[s] + h.hands[s]])
        else:
            deal_hands.append([c.code for c in played[s] + pools[s]])
    kitty = [c.code for c in pools[kitty_slot]]
    acts = texts
    if exchange:
        assert decl is not None
        if seat == decl:
            deal_hands[decl] = list(h.deal["hands"][decl])
            kitty = list(h.deal["kitty"])
        else:
            discards = pools[discard_slot]
            both = deal_hands[decl] + [c.code for c in discards]
            shuffle(rng, both)
            deal_hands[decl], kitty = both[:HAND_SIZE], both[HAND_SIZE:]
            shuffle(rng, discards)
            acts = list(texts)
            k = 0
            for i, t in enumerate(acts):
                if t.startswith("discard "):
                    acts[i] = f"discard {discards[k]}"
                    k += 1
    return {"hands": deal_hands, "kitty": kitty, "dealer": h.dealer}, acts
