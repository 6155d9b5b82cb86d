"""A match of 聖杯麻雀 in progress: turns, melds, blind claims, the hand's end.

Phases: ``turn`` (the seat to act has drawn, or has just claimed, and may meld
from its hand, then discards or plays ``luck``), ``claim`` (every other seat, in
turn order after the discarder, answers the discard blind: ``pass`` or a claim),
``over`` (the match has ended).  Drawing is automatic.
"""

from __future__ import annotations

import random
from array import array
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from xtarot.cards import Card
from xtarot.engine import Action, Scores, State
from xtarot.engine.core import competition_ranks
from xtarot.games.grail_mahjong import worlds
from xtarot.games.grail_mahjong.actions import (
    CHI,
    HAND_SIZE,
    INFO,
    LUCK_CARD,
    NAT,
    PASS,
    PON,
    REST,
    WILD,
    number,
    sort_key,
    suit_key,
    wild_text,
)
from xtarot.games.grail_mahjong.tables import (
    BIT,
    HAND_BIT,
    LUCK_BIT,
    NO_ADDS,
    Adds,
    ClaimEntry,
    mask_of,
)

try:  # compiled (setup.py): C ints for the ranks; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

if TYPE_CHECKING:
    from xtarot.games.grail_mahjong import GrailMahjong

__all__ = ["GrailMahjongState", "Meld"]

MAX_MELD = 6
_CARD = {c.code: c for c in BIT}.__getitem__
_BIT = BIT
_CODE = attrgetter("code")
#: the card bits of a hand's mask (above them: the counts per number)
CARD_BITS = (1 << 53) - 1
_BIT_OF_CODE = {c.code: b for c, b in HAND_BIT.items()}.__getitem__


class Meld:
    """A face-up set in front of its owner: a ``pon`` (equal numbers) or a ``chi``
    (a run in one suit), 3 to 6 cards.  ``wild`` is what ``Oc`` stands for in it
    (a number in a pon, a card in a chi), fixed when it was melded."""

    __slots__ = ("cards", "claimed", "hi", "kind", "lo", "source", "suit", "wild")

    def __init__(
        self,
        kind: str,
        cards: list[Card],
        *,
        number_: int = 0,
        suit: str = "",
        wild: int | Card | None = None,
        claimed: Card | None = None,
        source: int | None = None,
    ) -> None:
        self.kind = kind
        self.cards = cards
        self.wild = wild
        self.claimed = claimed
        self.source = source
        self.suit = suit
        if kind == "pon":
            self.lo = self.hi = number_
        else:  # (a chi's cards are in run order)
            self.lo, self.hi = self.stands(cards[0]), self.stands(cards[-1])

    def stands(self, c: Card) -> int:
        """The number a card of this meld counts as."""
        if c is WILD:
            return self.lo if self.kind == "pon" else number(self.wild)  # type: ignore[arg-type]
        return number(c)

    @property
    def score(self) -> int:
        """(n - 2)^2 for n cards: 1, 4, 9, 16."""
        return (len(self.cards) - 2) ** 2

    def copy(self) -> Meld:
        new = Meld.__new__(Meld)
        new.kind, new.cards, new.wild = self.kind, list(self.cards), self.wild
        new.claimed, new.source, new.suit = self.claimed, self.source, self.suit
        new.lo, new.hi = self.lo, self.hi
        return new

    def texts(self) -> list[str]:
        if self.wild is None:
            return list(map(_CODE, self.cards))
        return [wild_text(self.wild) if c is WILD else c.code for c in self.cards]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": self.texts(),
            "claimed": self.claimed.code if self.claimed is not None else None,
            "from": self.source,
            "score": self.score,
        }


#: How a meld is made: the cards it takes from the hand (in order), the sum of their
#: ``HAND_BIT``, their codes, and the meld's kind, cards (in meld order), lowest and
#: highest number, suit (a chi's) and wild meaning.
MeldPlan = tuple[
    tuple[Card, ...], int, tuple[str, ...], str, tuple[Card, ...], int, int, str, int | Card | None
]


def _plan(own: tuple[Card, ...], meld: Meld) -> MeldPlan:
    return (
        own,
        sum(HAND_BIT[c] for c in own),
        tuple(c.code for c in own),
        meld.kind,
        tuple(meld.cards),
        meld.lo,
        meld.hi,
        meld.suit,
        meld.wild,
    )


def _hand_meld_plan(info: tuple[Any, ...]) -> MeldPlan:
    """The plan of a ``pon`` or ``chi`` from the hand (its parsed meaning)."""
    if info[0] == "pon":
        _, n, cs = info
        return _plan(cs, Meld("pon", list(cs), number_=n, wild=n if cs[-1] is WILD else None))
    _, s, lo, w = info
    run = [NAT[s][lo + i] for i in range(3)]
    cs = tuple(WILD if i == w else c for i, c in enumerate(run))
    return _plan(cs, Meld("chi", list(cs), suit=s, wild=run[w] if w >= 0 else None))


def _claim_plan(info: tuple[Any, ...], d: Card) -> MeldPlan:
    """The plan of a claim (its parsed meaning) on the discard ``d``; the meld's
    cards include ``d``, the cards taken from the hand do not."""
    own = tuple(c for c in info[2] if not (c is WILD and d is WILD))
    if info[0] == "claim_pon":
        n = info[1]
        cs = _suit_sorted([*own, d])
        return _plan(own, Meld("pon", cs, number_=n, wild=n if cs[-1] is WILD else None))
    cs, meaning = list(info[2]), info[1]
    if d is not WILD:
        cs.append(d)
        cs.sort(key=lambda c: number(meaning) if c is WILD else number(c))
    return _plan(own, Meld("chi", cs, suit=suit_key(d if d is not WILD else meaning), wild=meaning))


#: per ``pon``/``chi`` action id, its plan (built at import)
_HAND_MELDS: dict[int, MeldPlan] = {
    a.id: _hand_meld_plan(INFO[a.id]) for a in (*PON.values(), *CHI.values())
}
#: per (claim action id, discard), its plan (built as met)
_CLAIMS: dict[tuple[int, Card], MeldPlan] = {}


def _new_meld(plan: MeldPlan, claimed: Card | None, source: int | None) -> Meld:
    """A meld made as ``plan`` says."""
    m = Meld.__new__(Meld)
    m.kind, cards, m.lo, m.hi, m.suit, m.wild = plan[3:]
    m.cards = list(cards)
    m.claimed, m.source = claimed, source
    return m


#: the answers of a seat that cannot claim (shared: see ``_legal_actions``)
_PASS_ONLY: list[Action] = [PASS]
#: what no discard allows (``_claims`` outside the claim phase)
_NO_CLAIMS: ClaimEntry = (0, (), None)
#: a meld's score by its size: (n - 2)^2
_MELD_SCORE = (0, 0, 0, 1, 4, 9, 16)
#: what ``past`` keeps of a finished hand: each seat's events (see ``events``) and
#: the hand's claim-phase decisions, packed (see ``decisions``) in a flat array
Past = tuple[list[list[int | str]], "array[int]"]


def _shown(events: list[list[int | str]]) -> set[str]:
    """The codes of the cards the seats showed from their hands (the ``str`` events).
    Every face-up card got there that way -- a claimed card was first discarded -- and
    none goes back, so these are exactly the cards in melds, discards and areas."""
    return {x for e in events for x in e if x.__class__ is str}  # type: ignore[misc]


def _decision(x: int) -> tuple[int, int, bool]:
    """A packed decision (see ``decisions``) as (history index, seat, revealed?)."""
    return x >> 3, (x >> 1) & 3, bool(x & 1)


def _suit_sorted(cs: list[Card]) -> list[Card]:
    return sorted(cs, key=sort_key)


#: the code of each card by its bit's position (bit order is hand order)
_CODE_AT: dict[int, str] = {b.bit_length(): c.code for c, b in BIT.items()}


def _sorted_codes(mask: int) -> list[str]:
    """The codes of the cards of a hand's mask, in hand order (suits T c d s w,
    numbers up, then ``Oc Rc Lc``: the order of the bits)."""
    out = []
    mask &= CARD_BITS
    while mask:
        low = mask & -mask
        out.append(_CODE_AT[low.bit_length()])
        mask ^= low
    return out


class GrailMahjongState(State):
    """A match of 聖杯麻雀: ``hands`` hands, the last winner deals the next."""

    game: GrailMahjong
    #: whether ``_rng`` is shared with a copy (see ``_copy``); a class default, so a
    #: state never copied keeps one attribute fewer
    _rng_shared: bool = False
    #: plain attributes, kept up to date as play goes on (see ``State``)
    current_player: int | None = None  # type: ignore[assignment]
    is_terminal: bool = False  # type: ignore[assignment]

    # -- the match and its hands ------------------------------------------------------
    def _new_match(self) -> None:
        n = self.players
        self.totals: list[int] = [0] * n
        self.results: list[dict[str, Any]] = []
        #: this hand's claim-phase decisions, each packed in one int (see
        #: ``_decision``): history index << 3 | seat << 1 | whether it was revealed; a
        #: finished hand's move to ``past`` as a flat array (4 bytes a decision)
        self.decisions: list[int] = []
        #: per finished hand, what sampling needs: each seat's events (see ``events``),
        #: which also tell the face-up cards (see ``_revealed_at``) -- the hand's own
        #: lists, which nothing changes once it is over -- and its decisions
        self.past: list[Past] = []

    def _setup(self, deal: dict[str, Any]) -> None:
        # (A state keeps few attributes: see ``test_a_state_keeps_few_attributes``.
        # Every one is set here or in ``_new_match``, so the first state of a process
        # puts them all in its class's shared key table.)
        n = self.players
        # (the deal is valid: its codes are looked up directly)
        # (the per-seat lists are made in one plain loop: five comprehensions cost a
        # 2-player hand about 10,000 instructions more)
        got: list[list[Card]] = []
        masks: list[int] = []
        melds: list[list[Meld]] = []
        areas: list[list[Card]] = []
        events: list[list[int | str]] = []
        for h in deal["hands"]:
            got.append(list(map(_CARD, h)))
            masks.append(sum(map(_BIT_OF_CODE, h)))
            melds.append([])
            areas.append([])
            events.append([])
        #: per seat, every card it has held this hand, in order: its dealt cards, then
        #: its draws (a claimed card goes straight into a meld); its hand is the cards
        #: of this list that its mask still holds (see ``hands``)
        self.got = got
        #: each hand as a mask (card bits and counts per number, see ``tables``)
        self.masks = masks
        self.stock: list[Card] = list(map(_CARD, deal["stock"]))
        self.top = 0
        self.melds = melds
        #: per seat, what it could add to its melds: (the bits of the cards that would
        #: do, (card bit, action) in id order), kept in step with ``melds``
        self.add_tables: list[Adds] = [NO_ADDS] * n
        self.areas = areas
        self.discards: list[tuple[int, Card]] = []
        #: per seat, in order: the stock index of each draw (an int) and the code of
        #: each card it showed from its hand (a str) -- all public
        self.events = events
        self.asked: tuple[int, ...] = ()
        self.pending: list[tuple[int, Action]] = []
        self.last_claim: dict[str, Any] | None = None
        self.phase = "turn"
        #: in the claim phase, what the discard allows (``Tables.claim_table``)
        self._claims: ClaimEntry = _NO_CLAIMS
        self._start_turn(deal["dealer"])

    def _next_seat(self, seat: int) -> int:
        """Play is counter-clockwise: the next seat is seat - 1."""
        return (seat - 1) % self.players

    def _start_turn(self, seat: int) -> None:
        top = self.top
        if top >= len(self.stock):
            self._end_hand("stock", seat)
            return
        c = self.stock[top]  # the draw (as ``_draw``, inlined)
        self.top = top + 1
        self.got[seat].append(c)
        self.masks[seat] += HAND_BIT[c]
        self.events[seat].append(top)
        self.phase = "turn"
        self.current_player = seat

    def _draw(self, seat: int) -> None:
        c = self.stock[self.top]
        self.top += 1
        self.got[seat].append(c)
        self.masks[seat] += HAND_BIT[c]
        self.events[seat].append(self.top - 1)

    def _meld_score(self, seat: int) -> int:
        base = sum(m.score for m in self.melds[seat])
        return base * 2 if self.areas[seat] else base

    def _revealed(self) -> set[str]:
        """Every card lying face up: melds, discards, areas."""
        return _shown(self.events)

    def _revealed_at(self, h: int) -> frozenset[str]:
        """The cards left face up at the end of finished hand ``h`` (0-based)."""
        return frozenset(_shown(self.past[h][0]))

    def _end_hand(self, how: str, seat: int) -> None:
        """``how``: ``agari`` (``seat`` emptied its hand), ``rest`` (``seat`` discarded
        ``Rc``) or ``stock`` (``seat`` had to draw from an empty stock)."""
        melds, areas = self.melds, self.areas
        n = len(melds)
        values: list[int] = []  # as ``_meld_score``
        texts: list[list[list[str]]] = []
        luck: list[int] = []
        # (plain loops, no comprehensions: each is a function call in Python 3.11)
        for s, ms in enumerate(melds):
            v = 0
            shown: list[list[str]] = []
            for m in ms:
                cards = m.cards
                v += _MELD_SCORE[len(cards)]
                shown.append(list(map(_CODE, cards)) if m.wild is None else m.texts())
            if areas[s]:
                v += v
                luck.append(s)
            values.append(v)
            texts.append(shown)
        dealer = self.dealer
        if how == "agari":
            winners = [seat]
            gained = [0] * n
            gained[seat] = values[seat]
            next_dealer = seat
        else:  # a showdown: the highest scores share the win
            best = max(values)
            winners = []
            gained = []
            for s, v in enumerate(values):
                if v == best:
                    winners.append(s)
                    gained.append(v)
                else:
                    gained.append(0)
            next_dealer = dealer  # the first winner in turn order from the dealer
            while values[next_dealer] != best:
                next_dealer = (next_dealer - 1) % n
        totals = self.totals
        for s in winners:
            totals[s] += gained[s]
        results = self.results
        results.append(
            {
                "hand": len(results) + 1,
                "dealer": dealer,
                "end": how,
                "seat": seat,
                "melds": texts,
                "luck": luck,
                "meld_scores": values,
                "winners": winners,
                "gained": gained,
                "next_dealer": next_dealer,
            }
        )
        self.past.append((self.events, array("i", self.decisions)))
        self.decisions = []
        self.asked, self.pending = (), []
        if len(self.results) >= self.game.options["hands"]:
            self.phase, self.current_player, self.is_terminal = "over", None, True
            return
        deal = self._next_deal()  # (a fresh dict: a preset is validated anew)
        deal["dealer"] = next_dealer
        self._begin_hand(deal)

    @property
    def hands(self) -> list[list[Card]]:
        """Per seat, the cards in its hand, in the order it got them (read off ``got``
        and ``masks``: a card leaving the hand only clears its bit)."""
        return [[c for c in g if m & _BIT[c]] for g, m in zip(self.got, self.masks, strict=True)]

    @property
    def dealer(self) -> int:
        """The seat that deals the current hand (the last one, once the match is over)."""
        return self.deals[-1]["dealer"]  # type: ignore[no-any-return]

    def _answered(self, seat: int) -> int:
        """The history index of ``seat``'s latest claim-round answer (-1: none yet);
        every claim round asks every seat but the discarder, so it is near the end."""
        for x in reversed(self.decisions):
            if (x >> 1) & 3 == seat:
                return x >> 3
        for _, decisions in reversed(self.past):
            for x in reversed(decisions):
                if (x >> 1) & 3 == seat:
                    return x >> 3
        return -1

    def _all_decisions(self) -> list[int]:
        """Every claim-phase decision of the match so far, packed, in order."""
        out = [x for _, decisions in self.past for x in decisions]
        return out + self.decisions

    @property
    def taken(self) -> list[int]:
        """Per seat, the cards it has taken this hand: dealt, drawn and claimed."""
        return [
            len(g) + sum(1 for m in ms if m.claimed is not None)
            for g, ms in zip(self.got, self.melds, strict=True)
        ]

    @property
    def given(self) -> list[int]:
        """Per seat, the cards that have left its hand this hand, and the claimed
        cards that passed straight into its melds (so ``taken - given`` is its hand)."""
        return [
            t - (m & CARD_BITS).bit_count() for t, m in zip(self.taken, self.masks, strict=True)
        ]

    @property
    def drawn(self) -> list[list[Card]]:
        """Per seat, the cards it has drawn this hand, in order (read off ``events``)."""
        stock = self.stock
        return [[stock[x] for x in e if x.__class__ is int] for e in self.events]  # type: ignore[index]

    # -- legal actions ------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        """In id order: the claim answers in the claim phase; else ``luck`` and the
        discards, pons and chis from the hand, then the adds to one's melds."""
        seat: int = self.current_player  # type: ignore[assignment]
        hand = self.masks[seat]
        if self.phase == "claim":  # (``Tables.claims``, inlined: most decisions are these)
            relevant, entries, known = self._claims
            hand &= relevant
            if hand.bit_count() < 2:  # every claim needs two of the claimer's cards
                return _PASS_ONLY
            found = known.get(hand) if known is not None else None
            if found is None:
                found = [PASS, *[a for need, a in entries if hand & need == need]]
                if known is not None:
                    known[hand] = found
            return found  # (shared: the engine never changes the list it gets)
        acts = self.game.tables.turn(hand)
        needed, adds = self.add_tables[seat]
        if needed and hand & needed:  # (a plain loop: a comprehension is a call in 3.11)
            for bit, a in adds:
                if hand & bit:
                    acts.append(a)
        return acts

    def _add_table(self, seat: int) -> Adds:
        """What ``seat`` could add to its melds (see ``add_tables``): the meld
        number orders the ids, so the entries are in id order."""
        tables = self.game.tables
        parts = [
            tables.adds(i, m.lo, m.hi, m.suit)
            for i, m in enumerate(self.melds[seat])
            if len(m.cards) < MAX_MELD
        ]
        if len(parts) <= 1:  # (the shared table itself: nothing to allocate)
            return parts[0] if parts else NO_ADDS
        needed = 0
        for bits, _ in parts:
            needed |= bits
        return needed, tuple(entry for _, entries in parts for entry in entries)

    def _update_adds(self, seat: int) -> None:
        self.add_tables[seat] = self._add_table(seat)

    def _meld_added(self, seat: int, meld: Meld) -> None:
        """Append a new meld (3 cards, so not full) and its adds, whose ids follow
        those of the seat's earlier melds."""
        melds = self.melds[seat]
        new = self.game.tables.adds(len(melds), meld.lo, meld.hi, meld.suit)
        melds.append(meld)
        needed, entries = self.add_tables[seat]
        self.add_tables[seat] = (needed | new[0], entries + new[1]) if entries else new

    # -- applying -----------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        seat: int = self.current_player  # type: ignore[assignment]
        if self.phase == "claim":
            index = len(self.history)
            self.decisions.append(index << 3 | seat << 1)
            asked = self.asked
            if action is PASS and len(asked) == 1:  # the only answer (2 players): no claim
                self.asked = ()
                self._start_turn(asked[0])
                return
            pending = self.pending
            pending.append((seat, action))
            if len(pending) == len(asked):
                self._resolve_claims()
            else:
                self.current_player = asked[len(pending)]
            return
        info = INFO[action.id]
        kind = info[0]
        masks = self.masks
        if kind == "discard":
            c = info[1]
            left = masks[seat] = masks[seat] - HAND_BIT[c]
            self.discards.append((seat, c))
            self.events[seat].append(c.code)
            if c is REST:
                self._end_hand("rest", seat)
            elif not left:
                self._end_hand("agari", seat)
            else:  # (``pending`` is empty between claim rounds)
                asked = self.asked = self.game.asked_after[seat]
                self._claims = self.game.tables.claim_table[c]
                self.phase = "claim"
                self.current_player = asked[0]
            return
        if kind == "luck":
            left = masks[seat] = masks[seat] - LUCK_BIT
            self.areas[seat].append(LUCK_CARD)
            self.events[seat].append(LUCK_CARD.code)
            if not left:
                self._end_hand("agari", seat)
            else:
                self._start_turn(self._next_seat(seat))
            return
        if kind == "pon" or kind == "chi":
            plan = _HAND_MELDS[action.id]
            masks[seat] -= plan[1]
            self.events[seat] += plan[2]
            self._meld_added(seat, _new_meld(plan, None, None))
        else:  # add
            _, i, c, meaning = info
            m = self.melds[seat][i]
            self._take(seat, (c,))
            if c is WILD:
                m.wild = meaning
            e = m.lo if m.kind == "pon" else (number(meaning) if c is WILD else number(c))
            if m.kind == "chi" and e < m.lo:
                m.cards.insert(0, c)
                m.lo = e
            else:
                m.cards.append(c)
                if m.kind == "chi":
                    m.hi = e
            self._update_adds(seat)
            if masks[seat] and (m.kind == "pon" or self.game.options["chi_extension_draws"]):
                if self.top >= len(self.stock):
                    self._end_hand("stock", seat)
                    return
                self._draw(seat)
        if not masks[seat]:
            self._end_hand("agari", seat)

    def _take(self, seat: int, cs: Any) -> None:
        events = self.events[seat]
        mask = self.masks[seat]
        for c in cs:
            mask -= HAND_BIT[c]
            events.append(c.code)
        self.masks[seat] = mask

    def _resolve_claims(self) -> None:
        """Pon beats chi; between equal claims the first asked (the nearest in turn
        order after the discarder) wins.  Only the winning claim is revealed."""
        pending = self.pending
        first = self.asked[0]  # the seat after the discarder
        self.asked, self.pending = (), []
        for _, a in pending:
            if a is not PASS:
                break
        else:  # every seat passed: the next seat draws
            self._start_turn(first)
            return
        discarder = self.discards[-1][0]
        count = len(pending)
        win = (0, *pending[0]) if count == 1 else _winner(pending)
        if win is None:  # (not reached: someone claimed)
            raise AssertionError("a claim round with a claim has a winner")
        idx, seat, action = win
        at = len(self.decisions) - count + idx
        self.decisions[at] |= 1
        _, d = self.discards.pop()
        key = (action.id, d)
        plan = _CLAIMS.get(key)
        if plan is None:
            plan = _CLAIMS[key] = _claim_plan(INFO[action.id], d)
        self.masks[seat] -= plan[1]
        self.events[seat] += plan[2]  # (the claimed card passes straight into the meld)
        self._meld_added(seat, _new_meld(plan, d, discarder))
        self.last_claim = {"seat": seat, "action": action.text, "from": discarder, "card": d.code}
        if not self.masks[seat]:
            self._end_hand("agari", seat)
            return
        self.phase = "turn"
        self.current_player = seat

    def _why_illegal(self, action: Action) -> str:
        seat: int = self.current_player  # type: ignore[assignment]
        kind = INFO[action.id][0]
        if self.phase == "claim":
            d = self.discards[-1][1]
            if kind in ("claim_pon", "claim_chi"):
                return (
                    f"that claim does not fit the discard {d} with the cards in your hand "
                    "(a claim names two of your cards that make a pon or a chi with it)"
                )
            return f"answer the discard {d}: pass or claim"
        if kind in ("pass", "claim_pon", "claim_chi"):
            return "it is your turn: meld from your hand, then discard or play luck"
        info = INFO[action.id]
        if kind == "luck":
            return "you do not hold Lc"
        if kind == "discard":
            if info[1] not in self.game.card_set:
                return f"{info[1]} is not in this game's card set"
            return f"you do not hold {info[1]}"
        if kind == "add":
            i = info[1]
            if i >= len(self.melds[seat]):
                return f"you have no meld {i} (yours are numbered 0..{len(self.melds[seat]) - 1})"
            if len(self.melds[seat][i].cards) >= MAX_MELD:
                return f"meld {i} already holds {MAX_MELD} cards"
            if not self.masks[seat] & _BIT[info[2]]:
                return f"you do not hold {info[2]}"
            return f"that card does not fit meld {i}"
        return "you do not hold those cards (or they are not in this game's card set)"

    # -- scores -------------------------------------------------------------------------
    def scores(self) -> Scores:
        totals = self.totals
        return Scores(
            totals=tuple(float(t) for t in totals),
            ranks=competition_ranks(totals),
            final=self.phase == "over",
            detail={
                "hands_played": len(self.results),
                "meld_scores": [self._meld_score(s) for s in range(self.players)],
            },
        )

    # -- views --------------------------------------------------------------------------
    @cython.locals(n=cython.Py_ssize_t, s=cython.Py_ssize_t, o=cython.Py_ssize_t,
                   rank=cython.Py_ssize_t, totals=list)  # fmt: skip
    def _scores_view(self) -> dict[str, Any]:
        """``scores().to_dict()``, the same dict made directly: it was a sixth of a
        heuristic play-out, in every view, through a ``Scores`` and its generators.  (It
        is not kept between views: the meld scores change with most moves, and a state
        has no attribute to spare, see ``test_a_state_keeps_few_attributes``.)"""
        totals = self.totals
        n = len(totals)
        ranks = []
        winners = []
        for s in range(n):
            rank = 1
            for o in range(n):
                if totals[o] > totals[s]:
                    rank += 1
            ranks.append(rank)
            if rank == 1:
                winners.append(s)
        return {
            "totals": [float(t) for t in totals],
            "ranks": ranks,
            "winners": winners,
            "final": self.phase == "over",
            "teams": None,
            "detail": {
                "hands_played": len(self.results),
                "meld_scores": [self._meld_score(s) for s in range(n)],
            },
        }

    def _view(self, seat: int | None) -> dict[str, Any]:
        claim = None
        if self.phase == "claim":
            s, c = self.discards[-1]
            claim = {"seat": s, "card": c.code}
        view: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "seat": seat,
            "phase": self.phase,
            "current_player": self.current_player,
            "hand_number": len(self.results) + (0 if self.phase == "over" else 1),
            "hands_in_match": self.game.options["hands"],
            "dealer": self.dealer,
            "stock_count": len(self.stock) - self.top,
            "hand_sizes": [(m & CARD_BITS).bit_count() for m in self.masks],
            "melds": [[m.to_dict() for m in ms] for ms in self.melds],
            "areas": [[c.code for c in a] for a in self.areas],
            "discards": [{"seat": s, "card": c.code} for s, c in self.discards],
            "claim": claim,
            "last_claim": dict(self.last_claim) if self.last_claim else None,
            "results": [dict(r) for r in self.results],
            "scores": self._scores_view(),
        }
        if seat is not None:
            view["hand"] = _sorted_codes(self.masks[seat])
            answered = self._answered(seat)
            view["my_answer"] = self.history[answered].text if answered >= 0 else None
            view["legal_actions"] = (
                [a.text for a in self.legal_actions()] if seat == self.current_player else []
            )
        return view

    def _snapshot(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in self.stock],
            "top": self.top,
            "melds": [[m.to_dict() | {"wild": str(m.wild)} for m in ms] for ms in self.melds],
            "areas": [[c.code for c in a] for a in self.areas],
            "discards": [[s, c.code] for s, c in self.discards],
            "drawn": [[c.code for c in d] for d in self.drawn],
            "events": [list(e) for e in self.events],
            "answered": [self._answered(s) for s in range(self.players)],
            "taken": list(self.taken),
            "given": list(self.given),
            "asked": list(self.asked),
            "pending": [[s, a.text] for s, a in self.pending],
            "last_claim": self.last_claim,
            "phase": self.phase,
            "totals": list(self.totals),
            "results": list(self.results),
            "decisions": [_decision(x) for x in self._all_decisions()],
            "past": [[sorted(self._revealed_at(h)), p[0]] for h, p in enumerate(self.past)],
        }

    def zones(self) -> dict[str, list[str]]:
        z: dict[str, list[str]] = {}
        hands = self.hands
        for s in range(self.players):
            z[f"hand:{s}"] = [c.code for c in hands[s]]
            z[f"melds:{s}"] = [c.code for m in self.melds[s] for c in m.cards]
            z[f"area:{s}"] = [c.code for c in self.areas[s]]
        z["stock"] = [c.code for c in self.stock[self.top :]]
        z["discards"] = [c.code for _, c in self.discards]
        return z

    def check_invariants(self) -> None:
        assert self._scores_view() == self.scores().to_dict(), "the view's scores differ"
        k = self.game.k
        hands = self.hands
        for s in range(self.players):
            claimed = sum(1 for m in self.melds[s] if m.claimed is not None)
            shown = sum(1 for x in self.events[s] if isinstance(x, str))
            assert self.given[s] == shown + claimed, f"seat {s} count drift"
            assert self.masks[s] == mask_of(hands[s]), f"seat {s}: hand mask out of step"
            assert self.add_tables[s] == self._add_table(s), f"seat {s}: adds out of step"
            assert self.taken[s] == HAND_SIZE + len(self.drawn[s]) + claimed, (
                f"seat {s}: cards taken do not add up"
            )
            assert all(c is LUCK_CARD for c in self.areas[s])
            for m in self.melds[s]:
                assert 3 <= len(m.cards) <= MAX_MELD, "a meld holds 3 to 6 cards"
                assert REST not in m.cards and LUCK_CARD not in m.cards
                nums = [m.stands(c) for c in m.cards]
                if m.kind == "pon":
                    assert set(nums) == {m.lo}, "a pon holds one number"
                else:
                    assert nums == list(range(m.lo, m.hi + 1)), "a chi is a run"
                    assert m.lo >= 1 and m.hi <= k
                    suits = {suit_key(m.wild if c is WILD else c) for c in m.cards}  # type: ignore[arg-type]
                    assert suits == {m.suit}, "a chi is in one suit"
        assert all(c is not LUCK_CARD for _, c in self.discards), "Lc is never discarded"
        if self.phase == "over":
            assert self.current_player is None
            assert len(self.results) == self.game.options["hands"]
        elif self.phase == "claim":
            assert self.asked and self.current_player == self.asked[len(self.pending)]
            assert self.discards and self.discards[-1][1] is not REST
        else:
            assert hands[self.current_player], "the seat to act holds cards"  # type: ignore[index]
        assert sum(self.totals) == sum(sum(r["gained"]) for r in self.results)

    # -- worlds for search and leak tests (see ``worlds.py``) ----------------------------
    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        return worlds.sample_deals(self, seat, rng)

    def sample_world(self, seat: int, rng: random.Random | None = None) -> State:
        """As :meth:`State.sample_world`, built directly instead of by a replay (see
        :func:`xtarot.games.grail_mahjong.worlds.sample_world`)."""
        self._check_seat(seat)
        return worlds.sample_world(self, seat, rng if rng is not None else random.Random())

    def action_seen_by(self, action: Action, seat: int | None) -> str:
        """Claim answers are blind: another seat sees ``answer ?`` — unless the answer
        is the last of the round and wins it, when the claim is revealed."""
        if self.phase != "claim" or seat == self.current_player:
            return action.text
        if len(self.pending) + 1 == len(self.asked):
            win = _winner([*self.pending, (self.current_player, action)])  # type: ignore[list-item]
            if win is not None and win[0] == len(self.pending):
                return action.text
        return "answer ?"

    def _copy(self) -> GrailMahjongState:
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        new.__dict__ = d
        # the generator of later hands' shuffles is shared until one of the two states
        # deals a hand (see ``_next_deal``); the stock is never changed (``top`` moves)
        self._rng_shared = d["_rng_shared"] = True
        d["_preset"] = list(self._preset)
        d["deals"] = list(self.deals)
        d["history"] = list(self.history)
        d["_legal"] = None
        d["_templates"] = {}
        d["masks"] = list(self.masks)
        d["add_tables"] = list(self.add_tables)
        for name in ("got", "areas"):
            d[name] = [list(x) for x in getattr(self, name)]
        d["melds"] = [[m.copy() for m in ms] for ms in self.melds]
        d["events"] = [list(e) for e in self.events]
        for name in (
            "discards", "pending", "decisions",
            "totals", "results", "past",
        ):  # fmt: skip
            d[name] = list(getattr(self, name))
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> GrailMahjongState:
        return self._copy()

    def _next_deal(self) -> dict[str, Any]:
        """As :meth:`State._next_deal`; a generator shared with a copy is copied first,
        so the copy's later shuffles stay the ones it would have made alone."""
        if self._rng_shared:
            rng = self._rng
            own = random.Random.__new__(type(rng))
            own.setstate(rng.getstate())
            self._rng, self._rng_shared = own, False
        if self._preset:
            return self.game.validate_deal(self._preset.pop(0))
        return self.game._random_deal(self._rng)


def _winner(answers: list[tuple[int, Action]]) -> tuple[int, int, Action] | None:
    """The winning claim of a round's answers (in asking order): the first pon, else
    the first chi; ``(position, seat, action)`` or ``None``."""
    for _, a in answers:
        if a is not PASS:
            break
    else:  # every seat passed
        return None
    for want in ("claim_pon", "claim_chi"):
        for idx, (s, a) in enumerate(answers):
            if INFO[a.id][0] == want:
                return idx, s, a
    return None
