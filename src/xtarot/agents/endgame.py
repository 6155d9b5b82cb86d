"""Exact search of trick-play endgames in one sampled world (the expert's endgame).

Near the end of an Extendori hand the play-outs that the expert uses elsewhere are
replaced by an exact game-tree search of the remaining tricks in each sampled world:
every card is known in that world, so the rest of the hand is a finite game of
perfect information.  The expert averages the solved values over its sampled worlds
(perfect-information Monte Carlo): the search reads only the world it is given, never
the true state.

The model is **max-n** (Luckhardt & Irani 1986) over the game's own scoring: every
seat plays the card that takes the most points for *itself* (for its team, when the
match has teams) over the rest of the hand, each knowing every card of the world; ties
go to the first card in suit and strength order, so a position has one solution.  Only
the expert's candidate moves at the root are compared by the value its play-outs use,
:func:`~xtarot.agents.base.utility` of the standing at the end of the hand (win share
first, score margin second).  Points are additive, so a node's solution (the points
each seat takes from there on) does not depend on how the position was reached: the
transposition table is keyed by the cards still held, the seat to play and the trick
on the table, and the positions reached by playing the tricks in another order are
solved once.  Two cards of one hand that no live card separates (the same suit, the
same points, no card of another hand or on the table ranking between them, neither one
of the wrap-around cards F, N, M, T0, T1 or the deck's top major) win and lose exactly
the same tricks, so only the first is searched (the equivalence of double-dummy
solvers).  Max-n allows no alpha-beta cut-offs, so the table and the equivalence are
what keep it small: four cards a hand at four players is typically a few hundred to a
few thousand nodes (median 20 ms in Python), five cards ten times that.

The search gives up (returns ``None``) past ``max_nodes`` nodes, and the expert then
falls back to its play-outs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xtarot.agents.ismcts import _utilities
from xtarot.cards import XTAROT, Card
from xtarot.engine import Action
from xtarot.engine.core import competition_ranks
from xtarot.games.extendori.play import _RANK, _SUIT, _WORTH, ExtendoriState, _trick_winner
from xtarot.games.extendori.rules import MINOR_ORDER, deck_cards

__all__ = [
    "ENDGAME_CARDS",
    "MAX_NODES",
    "EndgameTooLarge",
    "extendori_endgame",
    "extendori_move_classes",
    "extendori_solvable",
]

#: nodes a single world's search may visit before it gives up (about 0.1-0.2 s)
MAX_NODES = 12_000

#: by player count: the most cards in the hand of the seat to play for which the expert
#: solves the endgame (four cards a hand at four players is a few thousand nodes)
ENDGAME_CARDS: dict[int, int] = {3: 4, 4: 4, 5: 3, 6: 3, 7: 2, 8: 2}


class EndgameTooLarge(Exception):
    """The search passed its node limit."""


def extendori_solvable(world: ExtendoriState, cards_left: int) -> bool:
    """Whether ``world`` is in the last batch of its hand (nothing left to deal) with
    at most ``cards_left`` cards in the hand of the seat to play."""
    if world.is_terminal or world.top < len(world.stock):
        return False
    seat = world.current_player
    return seat is not None and 0 < len(world.hands[seat]) <= cards_left


#: a card's place within its following suit (majors by number), wrap-arounds aside
_STRENGTH: dict[Card, int] = {c: c.number if c.number is not None else _RANK[c] for c in XTAROT}
#: the order hands are searched in: by following suit, then strength
_ORDER: dict[Card, tuple[str, int]] = {c: (_SUIT[c], _STRENGTH[c]) for c in XTAROT}
_WRAP_MINOR = {MINOR_ORDER.index(r) for r in ("F", "N", "M")}


def extendori_endgame(
    world: ExtendoriState, moves: Sequence[Action], *, max_nodes: int = MAX_NODES
) -> list[float] | None:
    """The max-n value, to the seat to play, of each of ``moves`` (``play`` actions
    of that seat) in ``world``, or ``None`` when the search would pass ``max_nodes``
    nodes.  ``world`` is not changed."""
    seat = world.current_player
    if seat is None:
        raise ValueError("the hand is over: nobody is to play")
    n = world.players
    top_major = world.game.top_major
    order = world.order
    nxt = [0] * n
    for i, s in enumerate(order):
        nxt[s] = order[(i + 1) % n]
    base = [world.match_points[s] + world.points[s] for s in range(n)]
    to_totals = world._totals
    wrap_majors = {0, 1, top_major}
    special = {
        c
        for h in world.hands
        for c in (*h, *(x for _, x in world.trick.plays))
        if (c.number in wrap_majors if c.number is not None else _RANK[c] in _WRAP_MINOR)
    }
    teams = world.game.teams
    side: list[tuple[int, ...]] = [
        next(tuple(t) for t in teams if s in t) if teams else (s,) for s in range(n)
    ]
    table: dict[tuple[object, ...], tuple[int, ...]] = {}
    nodes = 0
    zero = tuple([0] * n)
    hands: list[tuple[Card, ...]] = [tuple(sorted(h, key=_ORDER.__getitem__)) for h in world.hands]

    def options(to_play: int, plays: tuple[tuple[int, Card], ...]) -> list[Card]:
        hand = hands[to_play]
        if plays:
            led = _SUIT[plays[0][1]]
            follow = [c for c in hand if _SUIT[c] == led]
            if not follow:
                follow = [c for c in hand if c.number is not None] or list(hand)
        else:
            follow = list(hand)
        if len(follow) < 2:
            return follow
        # drop a card equivalent to the one kept before it (hands are in suit, strength
        # order): same suit and worth, neither a wrap-around card, and no card of another
        # hand or on the table ranking between them
        others = [c for s, h in enumerate(hands) if s != to_play for c in h]
        others.extend(c for _, c in plays)
        out = [follow[0]]
        prev = follow[0]
        for c in follow[1:]:
            suit = _SUIT[c]
            if (
                _SUIT[prev] == suit
                and _WORTH[prev] == _WORTH[c]
                and c not in special
                and prev not in special
            ):
                lo, hi = _STRENGTH[prev], _STRENGTH[c]
                if not any(_SUIT[x] == suit and lo < _STRENGTH[x] < hi for x in others):
                    prev = c
                    continue
            out.append(c)
            prev = c
        return out

    def search(to_play: int, plays: tuple[tuple[int, Card], ...]) -> tuple[int, ...]:
        """Points each seat takes from here on, every seat maximising its own (its
        team's)."""
        nonlocal nodes
        key = (to_play, plays, *hands)
        hit = table.get(key)
        if hit is not None:
            return hit
        nodes += 1
        if nodes > max_nodes:
            raise EndgameTooLarge
        best: tuple[int, ...] | None = None
        mine = side[to_play]
        top = -1
        for c in options(to_play, plays):  # ties: the first card in suit, strength order
            value = after(to_play, c, plays)
            got = value[to_play] if len(mine) == 1 else sum(value[s] for s in mine)
            if got > top:
                best, top = value, got
        assert best is not None
        table[key] = best
        return best

    def after(to_play: int, c: Card, plays: tuple[tuple[int, Card], ...]) -> tuple[int, ...]:
        hand = hands[to_play]
        hands[to_play] = tuple(x for x in hand if x is not c)
        try:
            now = (*plays, (to_play, c))
            if len(now) < n:
                return search(nxt[to_play], now)
            winner = _trick_winner(list(now), top_major)
            worth = sum(_WORTH[x] for _, x in now)
            rest = search(winner, ()) if hands[winner] else zero
            return tuple(g + worth if s == winner else g for s, g in enumerate(rest))
        finally:
            hands[to_play] = hand

    plays0 = tuple(world.trick.plays)
    out: list[float] = []
    try:
        for action in moves:
            c = next((x for x in hands[seat] if x.code == action.text[5:]), None)
            if c is None:
                raise ValueError(f"{action.text} is not a card seat {seat} holds")
            gained = after(seat, c, plays0)
            totals = to_totals([base[s] + gained[s] for s in range(n)])
            out.append(_utilities(totals, competition_ranks(totals))[seat])
    except EndgameTooLarge:
        return None
    return out


_TOP_MAJOR = {111: 22, 110: 21}


def extendori_move_classes(view: Mapping[str, Any], moves: Sequence[str]) -> list[int]:
    """For each of ``moves`` (``play`` texts of the seat whose ``view`` this is), the
    index of the first move it is interchangeable with, as far as that seat can tell:
    two cards of one suit and the same points, neither a wrap-around card, with no
    card the seat has not seen (nor one on the table) ranking between them, take and
    lose the same tricks whatever the hidden cards are.  The expert simulates only
    one move of each class."""
    deck = {c.code for c in deck_cards(int(view.get("deck", 112)))}
    hand = set(view["hand"])
    played = {code for t in view["tricks"] for _, code in t["cards"]}
    table = {code for _, code in view["trick"]["cards"]}
    live = (deck - hand - played) | table
    wrap = {0, 1, _TOP_MAJOR.get(int(view.get("deck", 112)), 23)}

    def special(c: Card) -> bool:
        return c.number in wrap if c.number is not None else _RANK[c] in _WRAP_MINOR

    by_code = {c.code: c for c in XTAROT}
    mine = sorted((by_code[m[5:]] for m in moves), key=_ORDER.__getitem__)
    live_cards = [by_code[x] for x in live]
    first: dict[str, int] = {}
    head: Card | None = None
    prev: Card | None = None
    index = {m[5:]: i for i, m in enumerate(moves)}
    for c in mine:
        same = (
            prev is not None
            and head is not None
            and _SUIT[prev] == _SUIT[c]
            and _WORTH[prev] == _WORTH[c]
            and not special(prev)
            and not special(c)
            and not any(
                _SUIT[x] == _SUIT[c] and _STRENGTH[prev] < _STRENGTH[x] < _STRENGTH[c]
                for x in live_cards
            )
        )
        if not same:
            head = c
        assert head is not None
        first[c.code] = index[head.code]
        prev = c
    return [first[m[5:]] for m in moves]
