"""Uniform deals of hidden cards under public voids (for ``sample_world``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from functools import cache, lru_cache
from math import comb

from xtarot.cards import Card
from xtarot.engine.rand import shuffle
from xtarot.games.tricks import VoidTracker


# -- uniform deals of hidden cards under voids --------------------------------------------
@cache
def _compositions(total: int, bounds: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to write ``total`` as a sum of parts ``0 <= part_i <= bounds[i]``.

    >>> _compositions(2, (1, 2))
    ((0, 2), (1, 1))
    """
    m = len(bounds)
    if m == 0:
        return ((),) if total == 0 else ()
    suffix = [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        suffix[i] = suffix[i + 1] + bounds[i]
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == m - 1:
            if left <= bounds[i]:
                out.append((*acc, left))
            return
        for x in range(max(0, left - suffix[i + 1]), min(left, bounds[i]) + 1):
            rec(i + 1, left - x, (*acc, x))

    rec(0, total, ())
    return tuple(out)


_Sig = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], bool, int]
_Level = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=256)
def _levels(sig: _Sig) -> tuple[_Level, ...]:
    """For each group i: the block of each class (classes that groups i.. all treat
    alike share a block: only their total matters from there on), the blocks group i
    may take, and each block's block at level i+1."""
    allowed, _, _, m = sig
    g = len(allowed)
    blocks_at: list[tuple[int, ...]] = []
    for i in range(g + 1):
        patterns: dict[tuple[bool, ...], int] = {}
        blocks_at.append(
            tuple(
                patterns.setdefault(tuple(c in allowed[j] for j in range(i, g)), len(patterns))
                for c in range(m)
            )
        )
    out = []
    for i in range(g):
        block, nxt = blocks_at[i], blocks_at[i + 1]
        down = [0] * (max(block) + 1)
        for c in range(m):
            down[block[c]] = nxt[c]
        ok = tuple(sorted({block[c] for c in allowed[i]}))
        out.append((block, ok, tuple(down)))
    return tuple(out)


def _moves(
    sig: _Sig, i: int, rem: tuple[int, ...]
) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Each way group ``i`` takes its cards from the blocks' counts ``rem``: (ways to
    choose the cards, cards taken per allowed block, the next level's block counts)."""
    _, ok, down = _levels(sig)[i]
    size = max(down) + 1
    out = []
    for ks in _compositions(sig[1][i], tuple(rem[b] for b in ok)):
        left = list(rem)
        w = 1
        for b, x in zip(ok, ks, strict=True):
            w *= comb(rem[b], x)
            left[b] -= x
        nxt = [0] * size
        for b, k in enumerate(left):
            nxt[down[b]] += k
        out.append((w, ks, tuple(nxt)))
    return out


@lru_cache(maxsize=1 << 16)
def _count(sig: _Sig, i: int, rem: tuple[int, ...]) -> int:
    """Deals of the remaining cards (counted per block of level ``i``) to groups
    ``i..`` and then the free slots.  Cached across calls, so repeated samples of one
    position count once."""
    allowed, gcap, free, _ = sig
    g = len(allowed)
    if i >= g:
        return 1
    if i == g - 1:
        ok = _levels(sig)[i][1]
        if free:
            return comb(sum(rem[b] for b in ok), gcap[i])
        return 1 if all(rem[b] == 0 for b in range(len(rem)) if b not in ok) else 0
    return sum(w * _count(sig, i + 1, nxt) for w, _, nxt in _moves(sig, i, rem))


def deal_respecting_voids(
    hidden: Sequence[Card],
    capacities: Sequence[int],
    voids: Sequence[set[Hashable]] | VoidTracker,
    key_of: Callable[[Card], Hashable],
    rng: random.Random,
) -> list[list[Card]]:
    """Deal ``hidden`` cards to slots of these sizes, uniformly among the deals where no
    slot gets a card whose key it is void in (``voids[slot]``).

    Slots with the same voids form a group that is dealt as one (its cards are then
    split at random), slots with no relevant void take the rest in closed form, and
    the constrained groups are walked one at a time with exact counts.  This stays fast
    with eight players and a large stock.  Raises ``ValueError`` when no deal fits.

    >>> from xtarot.cards import cards
    >>> hands = deal_respecting_voids(cards("Kc 2c 3d 4d"), [2, 2], [{"c"}, set()],
    ...                               lambda c: c.suit, random.Random(3))
    >>> sorted(c.code for c in hands[0]), sorted(c.code for c in hands[1])
    (['3d', '4d'], ['2c', 'Kc'])
    """
    void_sets = voids.voids if isinstance(voids, VoidTracker) else voids
    n = len(capacities)
    if sum(capacities) != len(hidden):
        raise ValueError(f"{len(hidden)} cards cannot fill slots of sizes {list(capacities)}")
    by_key: dict[Hashable, list[Card]] = {}
    for c in hidden:
        by_key.setdefault(key_of(c), []).append(c)
    # classes: keys blocked for the same set of slots are merged
    merged: dict[frozenset[int], list[Card]] = {}
    for k, cs in by_key.items():
        blocked = frozenset(s for s in range(n) if capacities[s] and k in void_sets[s])
        merged.setdefault(blocked, []).extend(cs)
    classes = list(merged.items())
    m = len(classes)
    # groups: slots allowed the same classes
    grouped: dict[tuple[int, ...], list[int]] = {}
    for s in range(n):
        if capacities[s]:
            ok = tuple(i for i in range(m) if s not in classes[i][0])
            grouped.setdefault(ok, []).append(s)
    free = grouped.pop(tuple(range(m)), [])
    groups = sorted(grouped.items(), key=lambda g: (len(g[0]), sum(capacities[s] for s in g[1])))
    gcap = tuple(sum(capacities[s] for s in members) for _, members in groups)
    sig: _Sig = (tuple(ok for ok, _ in groups), gcap, bool(free), m)
    pools = [list(cs) for _, cs in classes]
    rem: tuple[int, ...] = ()
    if groups:
        block = _levels(sig)[0][0]
        bpools: list[list[Card]] = [[] for _ in range(max(block) + 1)]
        for c in range(m):
            bpools[block[c]].extend(pools[c])
        pools, rem = bpools, tuple(len(p) for p in bpools)
        if _count(sig, 0, rem) == 0:
            raise ValueError("no deal of the hidden cards agrees with the voids")
    out: list[list[Card]] = [[] for _ in range(n)]
    for i, (_, members) in enumerate(groups):
        options = [(w * _count(sig, i + 1, nxt), ks, nxt) for w, ks, nxt in _moves(sig, i, rem)]
        pick = rng.randrange(sum(w for w, _, _ in options))
        chosen_move = options[-1]
        for move in options:
            if pick < move[0]:
                chosen_move = move
                break
            pick -= move[0]
        _, ks, nxt = chosen_move
        _, ok, down = _levels(sig)[i]
        got: list[Card] = []
        for b, x in zip(ok, ks, strict=True):
            if x:
                chosen = rng.sample(pools[b], x)
                got.extend(chosen)
                taken = set(chosen)
                pools[b] = [c for c in pools[b] if c not in taken]
        merged: list[list[Card]] = [[] for _ in range(len(nxt))]
        for b, p in enumerate(pools):
            merged[down[b]].extend(p)
        pools, rem = merged, nxt
        shuffle(rng, got)
        pos = 0
        for s in members:
            out[s] = got[pos : pos + capacities[s]]
            pos += capacities[s]
    leftover = [c for p in pools for c in p]
    shuffle(rng, leftover)
    pos = 0
    for s in free:
        out[s] = leftover[pos : pos + capacities[s]]
        pos += capacities[s]
    return out
