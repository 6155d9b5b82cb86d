"""Sampled worlds for 聖杯麻雀: what one seat may imagine of the hidden cards.

A world depends only on the seat's knowledge and the random stream, never on the
true hidden cards (the conformance kit checks this).  For every hand so far:

- each other seat has 9 dealt places and one place per draw (which stock position
  each draw took is public);
- the cards it has shown (melded, discarded, played into its area) fill its places
  in a fixed way: the earliest free place at the moment it showed each one, so the
  order of play stays possible;
- the seat's own deal and draws stay as they were;
- every card the seat has not seen is shuffled uniformly into the remaining places
  and the undrawn stock;
- every claim answer of another seat that did not win becomes ``pass``.

:func:`sample_world` builds the world directly from those deals (each other hand holds
the cards of its free places in place order, exactly as a replay leaves it), so its
record replays to it; :func:`sample_deals` gives the engine's generic path the same
deals and actions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from xtarot.cards import card
from xtarot.engine.rand import shuffle
from xtarot.games.grail_mahjong.actions import HAND_SIZE, PASS
from xtarot.games.grail_mahjong.tables import mask_of

if TYPE_CHECKING:
    from xtarot.games.grail_mahjong.state import GrailMahjongState

__all__ = ["canonical_deals", "hidden_history", "sample_deals", "sample_world", "template"]

Place = tuple[bool, int, int]  # (in a dealt hand?, seat, index in the hand or the stock)


def template(state: GrailMahjongState, seat: int, h: int) -> tuple[Any, ...]:
    """What ``seat`` knows of hand ``h``'s deal, as a template to fill: the partly
    filled hands and stock, the unseen cards (in card-set order), the free places in
    fill order (each other seat's, then the undrawn stock), each seat's free places,
    and the hand's events.  Finished hands never change, so their templates are cached
    on the state (not shared with copies, whose seats' deals differ)."""
    cache: dict[tuple[int, int], tuple[Any, ...]] = state.__dict__.setdefault("_templates", {})
    past = h < len(state.past)
    if past and (seat, h) in cache:
        return cache[(seat, h)]
    n = state.players
    deal = state.deals[h]
    if past:
        revealed, events = state._revealed_at(h), state.past[h][0]
    else:
        revealed, events = frozenset(state._revealed()), state.events
    true_stock = deal["stock"]
    hands: list[list[str | None]] = [[None] * HAND_SIZE for _ in range(n)]
    hands[seat] = list(deal["hands"][seat])
    stock: list[str | None] = [None] * len(true_stock)
    known = set(revealed) | set(deal["hands"][seat])
    for x in events[seat]:
        if isinstance(x, int):
            stock[x] = true_stock[x]
            known.add(true_stock[x])
    slots: list[Place] = []
    free_after: list[list[Place]] = []
    for s in range(n):
        if s == seat:
            free_after.append([])
            continue
        free: list[Place] = [(True, s, i) for i in range(HAND_SIZE)]
        pos = 0
        for x in events[s]:
            if isinstance(x, int):
                free.append((False, s, x))
            else:
                in_hand, _, i = free[pos]
                pos += 1
                if in_hand:
                    hands[s][i] = x
                else:
                    stock[i] = x
        free_after.append(free[pos:])
        slots.extend(free[pos:])
    drawn = {x for e in events for x in e if isinstance(x, int)}
    slots.extend((False, -1, i) for i in range(len(stock)) if i not in drawn)
    hidden = tuple(c.code for c in state.game.card_set if c.code not in known)
    out = (hands, stock, hidden, tuple(slots), free_after, events)
    if past:
        cache[(seat, h)] = out
    return out


def canonical_deals(
    state: GrailMahjongState, seat: int, rng: random.Random
) -> tuple[list[dict[str, Any]], list[list[str]], list[list[str]]]:
    """For every hand so far, a deal ``seat`` cannot tell from the true one, drawn
    with ``rng`` (the unseen cards shuffled uniformly into the free places); also, for
    the latest hand, each seat's hand (free places in place order) and draws."""
    deals = []
    hands: list[list[Any]] = []
    stock: list[Any] = []
    free_after: list[list[Place]] = []
    events: list[list[int | str]] = []
    for h, deal in enumerate(state.deals):
        hands_t, stock_t, hidden_t, slots, free_after, events = template(state, seat, h)
        hidden = list(hidden_t)
        shuffle(rng, hidden)
        hands = [list(x) for x in hands_t]
        stock = list(stock_t)
        for (in_hand, s, i), c in zip(slots, hidden, strict=True):
            if in_hand:
                hands[s][i] = c
            else:
                stock[i] = c
        deals.append({"hands": hands, "stock": stock, "dealer": deal["dealer"]})
    held = [[hands[s][i] if in_hand else stock[i] for in_hand, _, i in f] for s, f in
            enumerate(free_after)]  # fmt: skip
    drawn = [[stock[x] for x in e if isinstance(x, int)] for e in events]
    return deals, held, drawn


def _hidden_answers(state: GrailMahjongState, seat: int) -> list[int]:
    """The history indices of the claim answers ``seat`` did not see: another seat's
    answers that were not revealed (a decision packs index << 3 | seat << 1 |
    revealed)."""
    return [x >> 3 for x in state._all_decisions() if not x & 1 and (x >> 1) & 3 != seat]


def hidden_history(state: GrailMahjongState, seat: int) -> list[str]:
    """The action texts with every hidden claim answer of another seat (a claim that
    did not win, or one not yet resolved) written as ``pass``."""
    actions = [a.text for a in state.history]
    for index in _hidden_answers(state, seat):
        actions[index] = "pass"
    return actions


def sample_deals(
    state: GrailMahjongState, seat: int, rng: random.Random
) -> tuple[list[dict[str, Any]], list[str]]:
    """The deals and actions of a world, for :meth:`State.sample_world`'s replay."""
    deals, _, _ = canonical_deals(state, seat, rng)
    return deals, hidden_history(state, seat)


def sample_world(state: GrailMahjongState, seat: int, rng: random.Random) -> GrailMahjongState:
    """A world built without a replay: a copy of the state with the sampled deals,
    the other hands and draws they imply, and the others' hidden answers as passes."""
    deals, held, drawn = canonical_deals(state, seat, rng)
    world = state._copy()
    world.seed = rng.getrandbits(48)
    world._rng = random.Random(rng.getrandbits(48))
    world._rng_shared = False
    world._preset = []
    world.deals = deals
    history = world.history
    for index in _hidden_answers(state, seat):
        history[index] = PASS
    # each other seat got its sampled dealt cards and draws, and holds the sampled
    # cards of its free places (those of its got cards it has not shown)
    got = world.got
    masks = world.masks
    for s in range(state.players):
        if s != seat:
            got[s] = [card(c) for c in (*deals[-1]["hands"][s], *drawn[s])]
            masks[s] = mask_of([card(c) for c in held[s]])
    world.stock = [card(c) for c in deals[-1]["stock"]]
    world.pending = [(s, a if s == seat else PASS) for s, a in world.pending]
    world._legal = None
    return world
