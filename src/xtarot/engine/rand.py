"""Quicker twins of ``random.Random.shuffle`` and ``randrange(n)``.

Every shuffle, deal and play-out of the project draws from a seeded
``random.Random``; the same seed must give the same match, bit for bit.  The
standard library's ``shuffle`` calls a Python helper (``_randbelow``) once per card;
:func:`shuffle` does the same draws inline (``getrandbits(k)``, redrawn while the
value is out of range), so it leaves the generator in the same state and the list in
the same order, at about half the cost.

The equivalence is not taken on faith: at import the module compares both ways
on lists of many lengths and seeds.  If this Python's ``random`` draws differently
(a future version, another implementation), or the generator is not a plain
``random.Random`` (a subclass may draw its own way), the standard method is used.

>>> import random
>>> a, b = list(range(10)), list(range(10))
>>> random.Random(4).shuffle(a); shuffle(random.Random(4), b)
>>> a == b
True
>>> below(random.Random(9), 7) == random.Random(9).randrange(7)
True
"""

from __future__ import annotations

import copy
import random
from typing import Any

try:  # compiled (setup.py, ``PLAYOUTS``): the shuffle's loop in C; as Python: no-ops
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = ["EXACT", "below", "copy_rng", "exact", "shuffle"]

#: draw plans per list length: (position, range size, bits per draw), last first.
_PLANS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _plan(m: int) -> tuple[tuple[int, int, int], ...]:
    plan = _PLANS.get(m)
    if plan is None:
        plan = _PLANS[m] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(m - 1, 0, -1))
    return plan


@cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, n=cython.Py_ssize_t,
               k=cython.Py_ssize_t, p=cython.Py_ssize_t, end=cython.Py_ssize_t,
               w=cython.Py_ssize_t, words=bytes, cards=list)  # fmt: skip
def _inline_shuffle(rng: random.Random, x: list[Any]) -> None:
    getrandbits = rng.getrandbits
    if cython.compiled and x.__class__ is list:
        # The same draws with C ints (a 2-player grail-mahjong deal's 33-card shuffle
        # was about 33,400 instructions in the interpreter, a seventh of its hand; this
        # loop about 20,200, where the plain loop below compiled is about 24,100, most
        # of a draw being the call to ``getrandbits``).  The 32-bit words come in bulk:
        # ``getrandbits(32 * c)`` is ``c`` words, the first in the lowest bits, and a
        # draw of ``k`` bits takes its word's top ``k`` bits, as ``getrandbits(k)``
        # does.  A refill asks for one word per draw still to make, never more, so the
        # generator is left where the loop below leaves it.
        cards = x
        words = b""
        p = end = 0
        i = len(cards) - 1
        while i > 0:
            n = i + 1
            k = 0
            w = n
            while w:  # (n's bit length)
                k += 1
                w >>= 1
            while True:
                if p == end:
                    words = getrandbits(32 * i).to_bytes(4 * i, "little")
                    p, end = 0, 4 * i
                w = words[p + 3]  # (a C int shifted by 24 could overflow: w is 64 bits)
                w = w << 24 | words[p + 2] << 16 | words[p + 1] << 8 | words[p]
                p += 4
                j = w >> (32 - k)
                if j < n:
                    break
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1
        return
    for i, n, k in _plan(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _inline_below(rng: random.Random, n: int) -> int:
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _agrees() -> bool:
    """Whether the inline draws match this Python's ``random`` exactly."""
    for seed in range(12):
        for m in (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 44, 64, 65, 80, 112, 129):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(m)), list(range(m))
            _inline_shuffle(ours, a)
            theirs.shuffle(b)
            if a != b or ours.getrandbits(32) != theirs.getrandbits(32):
                return False
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 4, 5, 8, 13, 16, 17, 38, 64, 100, 1 << 20, (1 << 20) + 1):
            if _inline_below(ours, n) != theirs.randrange(n):
                return False
    return True


#: True when this Python's ``random`` draws as the inline code does (checked at import).
EXACT: bool = _agrees()


def exact(rng: random.Random) -> bool:
    """Whether the inline draws may stand in for ``rng``'s own methods."""
    return EXACT and type(rng) is random.Random


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same order and the same generator state afterwards."""
    if EXACT and type(rng) is random.Random:
        _inline_shuffle(rng, x)
    else:
        rng.shuffle(x)


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for a whole ``n >= 1``, drawn the same way."""
    if EXACT and type(rng) is random.Random and n > 0:
        return _inline_below(rng, n)
    return rng.randrange(n)


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in exactly ``rng``'s state (for clones)."""
    if type(rng) is random.Random:
        # the C constructor alone (Random() would seed twice), then the full state
        new = random.Random.__new__(random.Random)
        new.setstate(rng.getstate())
        return new
    return copy.deepcopy(rng)
