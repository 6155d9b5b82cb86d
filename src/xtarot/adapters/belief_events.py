"""What each seat has publicly done, card by card: the belief model's inputs.

The belief model (``xtarot.adapters.belief``) shares its weights across cards: it
scores *card c in seat s's hand* from what ``s`` has been seen doing with cards related
to ``c`` — the same card, the same suit, a higher or lower one of the suit, a neighbour
of the suit, the same number in another suit.  This module reads those doings from a
seat's view (``state.view(seat)``, nothing else) as **events**: ``counts[kind, seat,
slot]`` is how often ``seat`` did ``kind`` (led, followed above the trick's best,
followed below it, played off the led suit, bid, discarded, melded, ...) with the card
``slot`` — the slots are the configuration's cards, then one per suit (a bid names a
suit, not a card).  :class:`Events` holds a configuration's card list, its relations
(``[relations, slots, cards]``: does an event's slot relate to a card in this way?)
and each card's own features, and turns a view into its counts and per-seat facts.

Built in: the trick-taking games (``tricks`` and ``trick`` in the view: fairy500,
extendori, matto, ...), fairy500's auction and contract, grail-mahjong's discards and
melds.  A game the module does not know gets no events: its model is its prior plus a
bias per card and place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from xtarot.cards import RANK_VALUES, XTAROT_RANKS, Card, card

__all__ = ["KINDS", "RELATIONS", "SEAT_FACTS", "SUIT_KINDS", "SUIT_SLOTS", "Events"]

#: what a seat can be seen doing with a card (or a suit)
KINDS: tuple[str, ...] = (
    "lead",  # led the card to a trick
    "follow_up",  # followed the led suit with a card above the trick's best so far
    "follow_down",  # followed the led suit below the trick's best
    "off",  # played the card off the led suit (void in it)
    "bid",  # bid a suit (weighted by the bid's tricks above five)
    "trump",  # declared this suit trump
    "called",  # called this card as its partner's
    "discard",  # discarded the card (grail-mahjong)
    "passed",  # let another seat's discard go unclaimed (grail-mahjong)
    "meld",  # melded the card from its hand (grail-mahjong)
    "claim",  # melded the card with a claimed discard (grail-mahjong)
    "fed",  # discarded the card another seat claimed (grail-mahjong)
)
_K = {k: i for i, k in enumerate(KINDS)}

#: the kinds whose events name a suit (its slot past the cards), never a card: their
#: counts relate to a card only as "same suit" (the play-time network relies on it;
#: :meth:`_Sink.add` refuses them)
SUIT_KINDS: frozenset[str] = frozenset({"bid", "trump"})

#: how an event's slot may relate to a card
RELATIONS: tuple[str, ...] = (
    "same card",
    "same suit",
    "same suit, higher",
    "same suit, lower",
    "same suit, one apart",
    "same suit, two apart",
    "same number, other suit",
)

#: facts about a seat (one number each)
SEAT_FACTS: tuple[str, ...] = (
    "passed",  # passed in the auction (fairy500)
    "bids",  # how many bids it made
    "no trump bid",
    "misère bid",
    "declarer",
    "partner",  # a revealed partner of the declarer
    "played",  # cards it played to tricks, or discarded (scaled)
)
_F = {k: i for i, k in enumerate(SEAT_FACTS)}

SUIT_SLOTS: tuple[str, ...] = ("c", "d", "s", "w", "T")


def _height(c: Card, game_id: str = "") -> float:
    """Order within a suit: the rank's place (A..10 are 1..10 apart), or the major's
    number (extendori puts the A between the K and the F)."""
    if game_id == "extendori" and c.rank == "A":
        return 16.0 + XTAROT_RANKS.index("K") + 0.5
    if c.number is not None:
        return float(c.number)
    if c.rank in RANK_VALUES and RANK_VALUES[c.rank] != float("inf"):
        return float(RANK_VALUES[c.rank])
    return 16.0 + XTAROT_RANKS.index(c.rank or "K") if c.rank in XTAROT_RANKS else 0.0


def _suit(c: Card) -> str:
    return c.suit if c.suit is not None else "T"


def _number(c: Card) -> float | None:
    """The number a mahjong pon matches: a major's number, a suit card's pip value."""
    if c.number is not None:
        return float(c.number)
    v = RANK_VALUES.get(c.rank or "")
    return float(v) if v is not None and abs(v) != float("inf") else None


class Events:
    """A game configuration's events: card list, relations and card features."""

    def __init__(self, game_id: str, players: int, cards: Sequence[str]) -> None:
        self.game_id = game_id
        self.players = players
        self.cards = tuple(cards)
        self.index = {c: i for i, c in enumerate(self.cards)}
        n = len(self.cards)
        self.slots = n + len(SUIT_SLOTS)
        objs = [card(c) for c in self.cards]
        heights = np.array([_height(c, game_id) for c in objs])
        suits = [_suit(c) for c in objs]
        numbers = [_number(c) for c in objs]
        rel = np.zeros((len(RELATIONS), self.slots, n), dtype=np.float32)
        same = np.array([[a == b for b in suits] for a in suits])
        diff = heights[:, None] - heights[None, :]  # event's height minus the card's
        rel[0, :n] = np.eye(n)
        rel[1, :n] = same
        rel[2, :n] = same & (diff > 0)
        rel[3, :n] = same & (diff < 0)
        rel[4, :n] = same & (np.abs(diff) == 1)
        rel[5, :n] = same & (np.abs(diff) == 2)
        rel[6, :n] = (
            np.array([[a is not None and a == b for b in numbers] for a in numbers]) & ~same
        )
        for j, s in enumerate(SUIT_SLOTS):
            rel[1, n + j] = [x == s for x in suits]
        self.relations = rel
        # a card's own features: its suit, its height within the suit (0..1), top card
        top = {s: max(h for h, x in zip(heights, suits, strict=True) if x == s) for s in suits}
        low = {s: min(h for h, x in zip(heights, suits, strict=True) if x == s) for s in suits}
        feats = np.zeros((n, len(SUIT_SLOTS) + 3), dtype=np.float32)
        for i, (h, s) in enumerate(zip(heights, suits, strict=True)):
            feats[i, SUIT_SLOTS.index(s)] = 1.0
            span = top[s] - low[s]
            feats[i, len(SUIT_SLOTS)] = (h - low[s]) / span if span else 0.5
            feats[i, len(SUIT_SLOTS) + 1] = float(h == top[s])
            feats[i, len(SUIT_SLOTS) + 2] = float(objs[i].rank in ("J", "C", "Q", "K", "F"))
        self.card_features = feats
        self._suit_of = dict(zip(self.cards, suits, strict=True))
        self._height_of = dict(zip(self.cards, heights.tolist(), strict=True))
        # caches, filled as the views name them: a card's slot (-1: none) as a view
        # writes it, and its suit and height in a trick under a trump
        self._slot_of: dict[str, int] = {}
        self._effective_of: dict[tuple[str, str | None], tuple[str, float]] = {}

    # -- reading a view ------------------------------------------------------------------
    def read(self, view: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """``(counts [kinds, players, slots], facts [players, seat facts])`` of a view,
        seats absolute (the model makes them relative)."""
        players, slots = self.players, self.slots
        facts = np.zeros((players, len(SEAT_FACTS)), dtype=np.float32)
        sink = _Sink(self)
        reader = _READERS.get(self.game_id)
        if reader is not None:
            reader(self, view, sink, facts)
        elif isinstance(view.get("tricks"), list):
            _read_tricks(self, view, sink, facts, None)
        size = len(KINDS) * players * slots
        if sink.where or sink.weighted:
            flat = np.bincount(np.asarray(sink.where, dtype=np.intp), minlength=size)
            if sink.weighted:
                weighted = np.asarray(sink.weighted, dtype=np.intp)
                flat = flat + np.bincount(weighted, sink.weights, minlength=size)
            counts = flat.astype(np.float32).reshape(len(KINDS), players, slots)
        else:
            counts = np.zeros((len(KINDS), players, slots), dtype=np.float32)
        return counts, facts

    def _slot(self, code: str) -> int:
        """A card's slot as a view writes it (``-1``: none), cached."""
        i = self._slot_of.get(code)
        if i is None:
            i = self._slot_of[code] = self.index.get(code.partition("=")[0], -1)
        return i

    def _effective(self, code: str, trump: str | None) -> tuple[str, float]:
        """A card's suit and height in a trick (fairy500: the F and the trump's J
        are trumps, its J above the rest)."""
        known = self._effective_of.get((code, trump))
        if known is None:
            known = self._effective_of[code, trump] = self._effective_uncached(code, trump)
        return known

    def _effective_uncached(self, code: str, trump: str | None) -> tuple[str, float]:
        c = code.partition("=")[0]
        suit = self._suit_of.get(c, "T")
        height = self._height_of.get(c, 0.0)
        if trump is not None:
            rank = c[:-1]
            if rank == "F":
                return trump, 100.0 + height
            if rank == "J" and suit in _SAME_COLOUR.get(trump, ()):
                return trump, 50.0 + (1.0 if suit == trump else 0.0)
        return suit, height


class _Sink:
    """A view's events as flat indices into ``counts``, added up at the end: those of
    weight 1 (nearly all) and the weighted ones apart."""

    def __init__(self, ev: Events) -> None:
        self.ev = ev
        self.where: list[int] = []
        self.weighted: list[int] = []
        self.weights: list[float] = []

    def add(self, kind: str, seat: Any, code: str, weight: float = 1.0) -> None:
        if kind in SUIT_KINDS:
            raise ValueError(f"a {kind!r} event names a suit, not a card ({code!r})")
        ev = self.ev
        i = ev._slot(code)
        if i >= 0 and isinstance(seat, int) and 0 <= seat < ev.players:
            self._put((_K[kind] * ev.players + seat) * ev.slots + i, weight)

    def add_suit(self, kind: str, seat: int, suit: str, weight: float = 1.0) -> None:
        ev = self.ev
        if suit in SUIT_SLOTS and 0 <= seat < ev.players:
            i = len(ev.cards) + SUIT_SLOTS.index(suit)
            self._put((_K[kind] * ev.players + seat) * ev.slots + i, weight)

    def _put(self, flat: int, weight: float) -> None:
        """One event at ``flat`` (kind, seat and slot in one index): counted once, or
        with its ``weight`` where that is not 1."""
        if weight == 1.0:
            self.where.append(flat)
        else:
            self.weighted.append(flat)
            self.weights.append(weight)


_SAME_COLOUR = {"c": ("c", "d"), "d": ("d", "c"), "s": ("s", "w"), "w": ("w", "s")}


def _read_tricks(
    ev: Events, view: dict[str, Any], sink: _Sink, facts: np.ndarray, trump: str | None
) -> None:
    """Each play of the view's tricks: led, followed the led suit above or below the
    trick's best so far, or played off it (one flat index of weight 1 each, as
    :meth:`_Sink.add` writes it, looked up card by card from the caches)."""
    tricks = [t for t in view.get("tricks") or [] if isinstance(t, dict)]
    current = view.get("trick")
    if isinstance(current, dict):
        tricks.append(current)
    effective_of, effective = ev._effective_of, ev._effective
    slot_of, slot = ev._slot_of, ev._slot
    players, slots = ev.players, ev.slots
    kinds = ("lead", "follow_up", "follow_down", "off")
    lead, up, down, off = (_K[k] * players * slots for k in kinds)
    append = sink.where.append
    played = [0] * players
    for t in tricks:
        plays = t.get("cards") or []
        led: str | None = None
        best = -1e9
        for k, (seat, code) in enumerate(plays):
            known = effective_of.get((code, trump))
            suit, height = known if known is not None else effective(code, trump)
            if k == 0:
                led, best = suit, height
                base = lead
            elif suit == led:
                base = up if height > best else down
                best = max(best, height)
            else:
                base = off
            if isinstance(seat, int) and 0 <= seat < players:
                i = slot_of.get(code)
                if i is None:
                    i = slot(code)
                if i >= 0:
                    append(base + seat * slots + i)
                played[seat] += 1
    _add_tenths(facts, played)


_TENTHS = np.zeros(1, dtype=np.float32)  # [n]: 0.1 added n times to a float32 zero


def _add_tenths(facts: np.ndarray, played: list[int]) -> None:
    """``facts[seat, "played"] += 0.1`` once per card each seat played, on a fact still
    zero: the same float32 sums as one ``+= 0.1`` at a time (not ``n * 0.1``: 0.1 is
    not exact), looked up."""
    global _TENTHS
    tenths = _TENTHS
    top = max(played, default=0)
    if top >= len(tenths):
        cell = np.zeros(1, dtype=np.float32)
        sums = [0.0]
        for _ in range(max(2 * top, 64)):
            cell[0] += 0.1
            sums.append(float(cell[0]))
        tenths = _TENTHS = np.array(sums, dtype=np.float32)
    column = _F["played"]
    for seat, n in enumerate(played):
        if n:
            facts[seat, column] += tenths[n]


def _read_fairy500(ev: Events, view: dict[str, Any], sink: _Sink, facts: np.ndarray) -> None:
    add, add_suit = sink.add, sink.add_suit
    for seat, text in view.get("auction") or []:
        if not (isinstance(seat, int) and 0 <= seat < ev.players):
            continue
        if text == "pass":
            facts[seat, _F["passed"]] = 1.0
            continue
        words = str(text).split()
        if len(words) < 2 or words[0] != "bid":
            continue
        facts[seat, _F["bids"]] += 1.0
        bid = words[1]
        if "misere" in bid:
            facts[seat, _F["misère bid"]] = 1.0
        elif bid.endswith("nt"):
            facts[seat, _F["no trump bid"]] = 1.0
        elif bid[:-1].isdigit():
            add_suit("bid", seat, bid[-1], float(int(bid[:-1]) - 5))
    contract = view.get("contract")
    trump = None
    if isinstance(contract, dict):
        decl = contract.get("declarer")
        trump = contract.get("trump")
        if isinstance(decl, int) and 0 <= decl < ev.players:
            facts[decl, _F["declarer"]] = 1.0
            if trump:
                add_suit("trump", decl, trump)
            for code in view.get("called") or []:
                add("called", decl, code)
    for seat in view.get("partners") or []:
        if isinstance(seat, int) and 0 <= seat < ev.players:
            facts[seat, _F["partner"]] = 1.0
    _read_tricks(ev, view, sink, facts, trump)


def _read_grail(ev: Events, view: dict[str, Any], sink: _Sink, facts: np.ndarray) -> None:
    add = sink.add
    players, slots = ev.players, ev.slots
    slot_of, slot = ev._slot_of, ev._slot
    discard, passed = (_K[k] * players * slots for k in ("discard", "passed"))
    append = sink.where.append
    played = [0] * players
    # each discard: the discarder's event, then every other seat's "passed" (weight 1
    # each, as sink.add writes them)
    for d in view.get("discards") or []:
        seat, code = d.get("seat"), d.get("card")
        if not isinstance(code, str):
            continue
        i = slot_of.get(code)
        if i is None:
            i = slot(code)
        if i >= 0 and isinstance(seat, int) and 0 <= seat < players:
            append(discard + seat * slots + i)
        if isinstance(seat, int):
            played[seat % players] += 1
        if i >= 0:
            for other in range(players):
                if other != seat:
                    append(passed + other * slots + i)
    _add_tenths(facts, played)
    for seat, melds in enumerate(view.get("melds") or []):
        for m in melds:
            claimed = m.get("claimed")
            for code in m.get("cards") or []:
                if code == claimed:
                    add("fed", m.get("from"), code)
                else:
                    add("claim" if claimed else "meld", seat, code)


_READERS: dict[str, Callable[..., None]] = {
    "fairy500": _read_fairy500,
    "grail-mahjong": _read_grail,
}
