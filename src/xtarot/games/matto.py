"""マット呼んだ? ("Did You Call Matto?"), id ``matto``.

Buy the major arcana laid out on the table with exact sums of minor arcana.
Rulebook: ``shared/seeds/004``; readings: RULINGS §6; summary: ``docs/rules/matto.md``.

配り方 (the deal)
    The classic 78-card deck.  The dealer shuffles the 56 小アルカナ (minors) and
    deals 5 to each player; one more starts the 捨て札 (discard pile) face up and the
    rest is the 山札 (stock).  The 22 大アルカナ (majors) are shuffled into a face-down
    pile and the top three are turned up as the 場 (field); if 0:愚者 (the Fool,
    マット, ``T0``) shows, all majors are reshuffled and dealt again.  The first
    dealer is random.

手番 (a turn)
    Play starts left of the dealer and goes clockwise.  The player first takes one
    card: ``draw stock`` or ``draw discard`` (the discard top; only the stock while
    the pile is empty).  Then any number of purchases (獲得): ``buy <major>`` names
    a field major, then ``pay <card>`` hands over minors one at a time until their
    values (A = 1, pips at face value, J C Q K = 10) sum exactly to the major's
    number.  Paid cards go onto the discard pile in the order paid: the last one is
    the new top.  The bought major is laid face up in front of the buyer and the
    next major of the pile is turned up in its place; a turned-up 愚者 goes to the
    buyer at once (it cannot be refused) and another major is turned up.  There is
    no discard step; ``end`` ends the turn.

    Purchases never dead-end: ``buy`` is offered only for a major the hand can pay
    exactly, and ``pay`` only for a card after which an exact completion is still
    possible.  A declared purchase must be completed (it always can be).

終了 (the end)
    The game ends at the end of the turn in which the stock or the major pile
    becomes empty; field majors can still be bought during that turn.

得点 (scoring)
    1 point per major; the 愚者 costs 5 more (-4 net); +5 for each 役 (set) held:
    地獄へ一直線 T12+T13+T15, 天空の輝き T17+T18+T19, 世界の終わり T20+T21.
    The highest score wins; ties share.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

from xtarot.cards import CLASSIC, Card, card
from xtarot.engine import (
    Action,
    ActionSpace,
    DealError,
    DealReader,
    Game,
    GameInfo,
    Scores,
    State,
    parse_card,
    register,
)
from xtarot.engine.core import competition_ranks
from xtarot.engine.identity import remove_same
from xtarot.engine.rand import below, shuffle

__all__ = ["SETS", "Matto", "MattoState", "can_pay", "minor_value"]

HAND_SIZE = 5
FIELD_SIZE = 3
FOOL: Card = card("T0")
MAJORS: tuple[Card, ...] = tuple(c for c in CLASSIC if c.is_major)
MINORS: tuple[Card, ...] = tuple(c for c in CLASSIC if not c.is_major)
_MINOR_SET = frozenset(MINORS)
_MAJOR_SET = frozenset(MAJORS)

#: The three 役 (sets), each worth +5: name (ja, en) and the majors it needs.
SETS: tuple[tuple[str, str, tuple[Card, ...]], ...] = (
    ("地獄へ一直線", "Straight to Hell", (card("T12"), card("T13"), card("T15"))),
    ("天空の輝き", "Radiance of the Heavens", (card("T17"), card("T18"), card("T19"))),
    ("世界の終わり", "End of the World", (card("T20"), card("T21"))),
)
SET_BONUS = 5
FOOL_PENALTY = 5
#: the cards of each set, as sets (a pile scores a set when it holds all of them)
_SET_NEEDS: tuple[frozenset[Card], ...] = tuple(frozenset(need) for _, _, need in SETS)


def _pile_total(have: set[Card], sets: int) -> int:
    """The points of one pile of majors won (``have``, holding ``sets`` of the sets):
    a point a major, -5 with マット (the Fool), +5 a set."""
    return len(have) - (FOOL_PENALTY if FOOL in have else 0) + SET_BONUS * sets


_VALUE: dict[Card, int] = {c: 10 if c.value is None else int(c.value) for c in MINORS}
_MASK = (1 << 22) - 1  # sums above 21 never matter


def minor_value(c: Card) -> int:
    """A minor's paying value: A = 1, pips at face value, J C Q K = 10.

    >>> minor_value(card("Ac")), minor_value(card("7s")), minor_value(card("Qd"))
    (1, 7, 10)
    """
    return _VALUE[c]


def _sums(values: list[int]) -> int:
    """Bitset of every subset sum (up to 21) of ``values``."""
    reach = 1
    for v in values:
        reach = (reach | (reach << v)) & _MASK
    return reach


#: A hand's paying values as one int (its *value key*): 5 bits per value 1..10 count
#: its cards, so a hand gains or loses a card by one addition.
_UNIT: dict[Card, int] = {c: 1 << 5 * (v - 1) for c, v in _VALUE.items()}
_UNIT_OF_VALUE: tuple[int, ...] = (0, *(1 << 5 * (v - 1) for v in range(1, 11)))
#: value key -> bitset of its subset sums up to 21 (``_sums`` of the values it counts)
_REACH: dict[int, int] = {0: 1}
#: the table is emptied when it grows this large (a long-running process meets many keys)
_REACH_LIMIT = 1 << 15


def _key_of(hand: list[Card]) -> int:
    """The value key of a hand."""
    return sum(map(_UNIT.__getitem__, hand))


def _reach(key: int) -> int:
    """``_sums`` of the values a value key counts, from the key less its lowest card
    (memoised, so a key met for the first time usually costs one step)."""
    found = _REACH.get(key)
    if found is None:
        field = ((key & -key).bit_length() - 1) // 5  # the lowest value held, less 1
        rest = _reach(key - (1 << 5 * field))
        found = (rest | rest << (field + 1)) & _MASK
        if len(_REACH) >= _REACH_LIMIT:
            _REACH.clear()
            _REACH[0] = 1
        _REACH[key] = found
    return found


def can_pay(hand: list[Card], amount: int) -> bool:
    """Whether some cards of ``hand`` sum exactly to ``amount``.

    >>> can_pay([card("3c"), card("7d"), card("Kw")], 13)
    True
    >>> can_pay([card("3c"), card("7d")], 9)
    False
    """
    return amount >= 0 and bool((_sums([_VALUE[c] for c in hand]) >> amount) & 1)


# -- the action space: the same 80 ids at every player count ---------------------------
DRAW_STOCK, DRAW_DISCARD, END = 0, 1, 2
_BUY = 3  # buy T1 .. buy T21
_PAY = _BUY + 21  # pay <minor>, the 56 minors in deck order
ACTIONS = ActionSpace(
    ["draw stock", "draw discard", "end"]
    + [f"buy T{n}" for n in range(1, 22)]
    + [f"pay {c}" for c in MINORS]
)
_BUY_OF = {card(f"T{n}"): ACTIONS[_BUY + n - 1] for n in range(1, 22)}
_PAY_OF = {c: ACTIONS[_PAY + i] for i, c in enumerate(MINORS)}
_CARD_OF: dict[int, Card] = {a.id: c for c, a in (*_BUY_OF.items(), *_PAY_OF.items())}


@register
class Matto(Game):
    """マット呼んだ? for 3-5 players on the classic deck."""

    info = GameInfo(
        id="matto",
        name_ja="マット呼んだ?",
        name_en="Did You Call Matto?",
        min_players=3,
        max_players=5,
        deck="classic",
    )
    actions = ACTIONS
    deck_doc = (
        "deck=[...]: the 78 classic cards, each once, in any interleaving.  The minors in "
        "the order they appear: the first 5 x players are dealt one at a time clockwise from "
        "seat 0, the next one starts the discard pile, the rest is the stock (top first).  "
        "The majors in the order they appear are the major pile (top first); the first three "
        "form the field and must not include T0.  The dealer comes from the seed."
    )

    def _random_deal(self, rng: random.Random) -> dict[str, Any]:
        n = self.players
        minors = list(MINORS)
        shuffle(rng, minors)
        majors = list(MAJORS)
        shuffle(rng, majors)
        while FOOL in majors[:FIELD_SIZE]:  # the rule: reshuffle and reveal again
            shuffle(rng, majors)
        dealt = HAND_SIZE * n
        return {
            "hands": [[c.code for c in minors[s:dealt:n]] for s in range(n)],
            "discard": [minors[dealt].code],
            "stock": [c.code for c in minors[dealt + 1 :]],
            "majors": [c.code for c in majors],
            "dealer": below(rng, n),
        }

    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]:
        n = self.players
        parsed = [parse_card(CLASSIC, code, "deck") for code in deck]
        if len(parsed) != len(CLASSIC):
            raise DealError(f"a matto deck has the {len(CLASSIC)} classic cards, not {len(parsed)}")
        minors = [c for c in parsed if not c.is_major]
        majors = [c for c in parsed if c.is_major]
        dealt = HAND_SIZE * n
        if len(minors) <= dealt:
            raise DealError("a matto deck needs the 56 minors and the 22 majors")
        return {
            "hands": [[c.code for c in minors[s:dealt:n]] for s in range(n)],
            "discard": [minors[dealt].code],
            "stock": [c.code for c in minors[dealt + 1 :]],
            "majors": [c.code for c in majors],
            "dealer": below(rng, n),
        }

    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        n = self.players
        reader = DealReader(
            self.id, deal, ["hands", "discard", "stock", "majors", "dealer"], CLASSIC
        )

        def take(codes: Any, where: str, minors: bool) -> list[str]:
            cs = reader.cards(codes, where)
            for c in cs:
                if minors and c.is_major:
                    raise DealError(f"{where} holds only minor arcana, not {c}")
                if not minors and not c.is_major:
                    raise DealError(f"{where} holds only major arcana, not {c}")
            return [c.code for c in cs]

        hands = reader.hands("hands", n, HAND_SIZE)
        for s, hand in enumerate(hands):
            majors_held = [c for c in hand if c.is_major]
            if majors_held:
                raise DealError(f"hand of seat {s} holds only minor arcana, not {majors_held[0]}")
        out_hands = [[c.code for c in h] for h in hands]
        discard = take(deal["discard"], "discard", True)
        if len(discard) != 1:
            raise DealError("discard must hold exactly one minor (the card turned up)")
        stock = take(deal["stock"], "stock", True)
        if len(stock) != len(MINORS) - HAND_SIZE * n - 1:
            raise DealError(
                f"stock must hold the other {len(MINORS) - HAND_SIZE * n - 1} minors, "
                f"not {len(stock)}"
            )
        majors = take(deal["majors"], "majors", False)
        if len(majors) != len(MAJORS):
            raise DealError("majors must list all 22 majors T0..T21, top first")
        if FOOL.code in majors[:FIELD_SIZE]:
            raise DealError(
                "T0 is among the first three majors: the rule reshuffles the majors, "
                "so give the order after the reshuffle"
            )
        dealer = reader.seat("dealer", n)
        return {
            "hands": out_hands,
            "discard": discard,
            "stock": stock,
            "majors": majors,
            "dealer": dealer,
        }


class MattoState(State):
    """A game of マット呼んだ? in progress."""

    game: Matto

    def _setup(self, deal: dict[str, Any]) -> None:
        n = self.players
        # (the deal is valid: its codes are looked up directly)
        self.hands: list[list[Card]] = [list(map(_CARD, h)) for h in deal["hands"]]
        self.stock: list[Card] = list(map(_CARD, reversed(deal["stock"])))  # top last
        self.discard: list[Card] = list(map(_CARD, deal["discard"]))  # top last
        pile = list(map(_CARD, deal["majors"]))
        self.field: list[Card] = pile[:FIELD_SIZE]
        self.pile: list[Card] = pile[FIELD_SIZE:][::-1]  # top last
        self.won: list[list[Card]] = [[] for _ in range(n)]
        #: ``scores().totals`` and the majors-won counts they belong to (a tensor
        #: reads the totals at every step; they change only when a major is won)
        self._totals_memo: tuple[tuple[int, ...], tuple[float, ...]] | None = None
        #: the views' ``scores`` (``scores().to_dict()``), for the same counts and
        #: whether the match is over; shared with copies, never changed once made
        self._scores_memo: tuple[tuple[tuple[int, ...], bool], dict[str, Any]] | None = None
        self.dealer: int = deal["dealer"]
        self.turn: int = (self.dealer + 1) % n
        self.phase = "draw"  # draw | buy | pay | over
        self.buying: Card | None = None
        self.owed = 0
        self.paid: list[Card] = []
        self.turns = 1
        #: cards publicly known in each hand (taken from the discard pile, not yet paid)
        self.known: list[list[Card]] = [[] for _ in range(n)]
        #: every minor that has lain face up on the discard pile
        self.shown: set[Card] = set(self.discard)
        #: every card each seat has held (its own knowledge)
        self.held: list[set[Card]] = [set(h) for h in self.hands]
        self.purchases: list[dict[str, Any]] = []
        #: the paying values of the hand of the seat to act, as a value key (see
        #: ``_UNIT``), kept in step with that hand
        self.hand_key: int = _key_of(self.hands[self.turn])

    @property
    def current_player(self) -> int | None:
        return None if self.phase == "over" else self.turn

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    # -- legal actions ----------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == "draw":
            out = [ACTIONS[DRAW_STOCK]] if self.stock else []
            if self.discard:
                out.append(ACTIONS[DRAW_DISCARD])
            return out
        key = self.hand_key
        if phase == "buy":
            reach = _REACH.get(key)
            if reach is None:
                reach = _reach(key)
            out = [_BUY_OF[t] for t in sorted(self.field, key=_number) if reach >> t.number & 1]
            out.append(_END)
            return out
        # pay: cards after which the rest can still be paid exactly (each value is
        # tried once: ``tried`` and ``good`` hold a bit per value)
        owed = self.owed
        value, reach = _VALUE, _REACH
        out = []
        tried = good = 0
        for c in sorted(self.hands[self.turn], key=_index):
            v = value[c]
            bit = 1 << v
            if not tried & bit:
                tried |= bit
                if v <= owed:
                    rest = reach.get(key - _UNIT_OF_VALUE[v])
                    if rest is None:
                        rest = _reach(key - _UNIT_OF_VALUE[v])
                    if rest >> (owed - v) & 1:
                        good |= bit
            if good & bit:
                out.append(_PAY_OF[c])
        return out

    def _why_illegal(self, action: Action) -> str:
        aid = action.id
        phase = self.phase
        if phase == "draw":
            if aid == DRAW_DISCARD:
                return "the discard pile is empty: draw stock"
            return "first take a card: draw stock or draw discard"
        if aid in (DRAW_STOCK, DRAW_DISCARD):
            return "you have already drawn this turn"
        if phase == "pay":
            if aid < _PAY:
                return f"finish paying for {self.buying} first ({self.owed} still owed)"
            c = _CARD_OF[aid]
            if c not in self.hands[self.turn]:
                return f"you do not hold {c}"
            return f"after {c} the remaining {self.owed - _VALUE[c]} could not be paid exactly"
        if aid >= _PAY:
            return "name the major first: buy <major>"
        t = _CARD_OF[aid]
        if t not in self.field:
            return f"{t} is not on the field"
        return f"your hand cannot pay exactly {_number(t)} for {t}"

    # -- applying -----------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        aid = action.id
        seat = self.turn
        if aid == DRAW_STOCK:
            c = self.stock.pop()
            self.hands[seat].append(c)
            self.hand_key += _UNIT[c]
            self.held[seat].add(c)
            self.phase = "buy"
        elif aid == DRAW_DISCARD:
            c = self.discard.pop()
            self.hands[seat].append(c)
            self.hand_key += _UNIT[c]
            self.known[seat].append(c)
            self.held[seat].add(c)
            self.phase = "buy"
        elif aid == END:
            if not self.stock or not self.pile:
                self.phase = "over"
                return
            self.turn = turn = (seat + 1) % self.players
            self.hand_key = _key_of(self.hands[turn])
            self.turns += 1
            self.phase = "draw"
        elif aid < _PAY:
            self.buying = _CARD_OF[aid]
            self.owed = _number(self.buying)
            self.paid = []
            self.phase = "pay"
        else:
            c = _CARD_OF[aid]
            remove_same(self.hands[seat], c)
            self.hand_key -= _UNIT[c]
            if c in self.known[seat]:
                remove_same(self.known[seat], c)
            self.discard.append(c)
            self.shown.add(c)
            self.paid.append(c)
            self.owed -= _VALUE[c]
            if self.owed == 0:
                self._complete(seat)

    def _complete(self, seat: int) -> None:
        bought = self.buying
        assert bought is not None
        remove_same(self.field, bought)
        self.won[seat].append(bought)
        fools = []
        while self.pile:  # the replacement; a turned-up T0 goes to the buyer at once
            t = self.pile.pop()
            if t is FOOL:
                self.won[seat].append(t)
                fools.append(t.code)
                continue
            self.field.append(t)
            break
        self.purchases.append(
            {
                "seat": seat,
                "major": bought.code,
                "paid": [c.code for c in self.paid],
                "fool": bool(fools),
            }
        )
        self.buying, self.owed, self.paid = None, 0, []
        self.phase = "buy"

    # -- scoring ----------------------------------------------------------------------
    def _piles(self) -> tuple[list[int], list[list[str]]]:
        """Each seat's pile total and the sets (their English names) its majors hold."""
        totals = []
        sets_held = []
        for held in self.won:
            have = set(held)
            sets = [en for _, en, need in SETS if have.issuperset(need)]
            sets_held.append(sets)
            totals.append(_pile_total(have, len(sets)))
        return totals, sets_held

    def scores(self) -> Scores:
        totals, sets_held = self._piles()
        return Scores(
            totals=tuple(float(t) for t in totals),
            ranks=competition_ranks(totals),
            final=self.phase == "over",
            detail={
                "majors": [len(w) for w in self.won],
                "fool": [FOOL in w for w in self.won],
                "sets": sets_held,
            },
        )

    def _score_totals(self) -> tuple[float, ...]:
        """``scores().totals``, recomputed only when a seat has won another major
        (the majors won only ever grow, so their counts tell when)."""
        key = tuple(map(len, self.won))
        memo = self._totals_memo
        if memo is None or memo[0] != key:
            totals = []
            for held in self.won:
                have = set(held)
                totals.append(float(_pile_total(have, sum(need <= have for need in _SET_NEEDS))))
            memo = self._totals_memo = (key, tuple(totals))
        return memo[1]

    def _scores_dict(self) -> dict[str, Any]:
        """``scores().to_dict()``, made again only when a seat has won another major or
        the match has ended (a view is built at every decision of every play-out), and
        made directly, without the :class:`Scores` on the way (the same dict, key for
        key; ``tests/test_matto.py`` compares them)."""
        key = (tuple(map(len, self.won)), self.phase == "over")
        memo = self._scores_memo
        if memo is None or memo[0] != key:
            totals, sets_held = self._piles()
            ranks = competition_ranks(totals)
            scores = {
                "totals": [float(t) for t in totals],
                "ranks": list(ranks),
                "winners": [s for s, r in enumerate(ranks) if r == 1],
                "final": key[1],
                "teams": None,
                "detail": {
                    "majors": [len(w) for w in self.won],
                    "fool": [FOOL in w for w in self.won],
                    "sets": sets_held,
                },
            }
            memo = self._scores_memo = (key, scores)
        return memo[1]

    # -- views --------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        to_act = self.current_player
        view: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "seat": seat,
            "phase": self.phase,
            "current_player": to_act,
            "dealer": self.dealer,
            "turn": self.turns,
            "field": [t.code for t in self.field],
            "majors_left": len(self.pile),
            "stock_left": len(self.stock),
            "discard": [c.code for c in self.discard],
            "discard_top": self.discard[-1].code if self.discard else None,
            "hand_sizes": [len(h) for h in self.hands],
            "known_in_hands": [sorted_codes(k) if k else [] for k in self.known],
            "won": [[t.code for t in w] for w in self.won],
            "buying": (
                {
                    "major": self.buying.code,
                    "owed": self.owed,
                    "paid": [c.code for c in self.paid],
                }
                if self.buying is not None
                else None
            ),
            "last_turn": self.phase != "over" and (not self.stock or not self.pile),
            "purchases": list(self.purchases),  # finished purchases' records: never changed
            "scores": self._scores_dict(),
        }
        if seat is not None:
            view["hand"] = sorted_codes(self.hands[seat])
            view["legal_actions"] = [a.text for a in self.legal_actions()] if seat == to_act else []
        return view

    def _snapshot(self) -> dict[str, Any]:
        return {
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in reversed(self.stock)],
            "discard": [c.code for c in self.discard],
            "field": [t.code for t in self.field],
            "pile": [t.code for t in reversed(self.pile)],
            "won": [[t.code for t in w] for w in self.won],
            "turn": self.turn,
            "turns": self.turns,
            "phase": self.phase,
            "buying": self.buying.code if self.buying else None,
            "owed": self.owed,
            "paid": [c.code for c in self.paid],
            "known": [[c.code for c in k] for k in self.known],
            "purchases": self.purchases,
        }

    def zones(self) -> dict[str, list[str]]:
        z = {f"hand:{s}": [c.code for c in h] for s, h in enumerate(self.hands)}
        z.update({f"won:{s}": [t.code for t in w] for s, w in enumerate(self.won)})
        z["stock"] = [c.code for c in self.stock]
        z["discard"] = [c.code for c in self.discard]
        z["field"] = [t.code for t in self.field]
        z["majors"] = [t.code for t in self.pile]
        return z

    def check_invariants(self) -> None:
        minors = sum(len(h) for h in self.hands) + len(self.stock) + len(self.discard)
        assert minors == len(MINORS), f"{minors} minors instead of 56"
        majors = sum(len(w) for w in self.won) + len(self.field) + len(self.pile)
        assert majors == len(MAJORS), f"{majors} majors instead of 22"
        assert FOOL not in self.field, "T0 lies on the field"
        assert len(self.field) <= FIELD_SIZE
        assert len(self.field) == FIELD_SIZE or not self.pile, "the field was not refilled"
        for s, k in enumerate(self.known):
            assert set(k) <= set(self.hands[s]), "a publicly known card left the hand unseen"
        assert self.hand_key == _key_of(self.hands[self.turn]), "the hand's value key drifted"
        if self.phase == "pay":
            assert self.buying in self.field and self.owed > 0
            assert can_pay(self.hands[self.turn], self.owed), "a purchase dead-ended"
            assert sum(_VALUE[c] for c in self.paid) + self.owed == _number(self.buying)
        else:
            assert self.buying is None and not self.paid
        if self.phase == "draw":
            assert self.stock, "a turn began with an empty stock"
        sc = self.scores()
        for s, w in enumerate(self.won):
            expect = len(w) - 5 * (FOOL in w) + 5 * len(sc.detail["sets"][s])
            assert sc.totals[s] == expect

    def __deepcopy__(self, memo: dict[int, Any]) -> MattoState:
        """The copy behind :meth:`clone`: every container the match changes is copied,
        cards, actions, the game and the records of finished purchases are shared.
        The seed's generator is shared too: a game of matto is one hand, and nothing
        draws from it after the deal."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        new.__dict__ = d
        d["_preset"] = list(self._preset)
        d["deals"] = list(self.deals)
        d["history"] = list(self.history)
        d["_legal"] = None
        for name in ("stock", "discard", "field", "pile", "paid", "purchases"):
            d[name] = list(d[name])
        for name in ("hands", "won", "known"):
            d[name] = [list(x) for x in d[name]]
        d["held"] = [set(x) for x in self.held]
        d["shown"] = set(self.shown)
        return new

    # -- worlds for search and leak tests ---------------------------------------------
    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """A deal built from the seat's knowledge only, the unseen cards uniform.

        The public history is walked with *slots* in place of the others' unseen
        cards (their dealt cards and stock draws): a paid card that was not known
        in the payer's hand is written into the payer's first unseen slot.  The
        minors the seat has never seen then fill the remaining slots and the rest
        of the stock uniformly, and the face-down major pile is shuffled.  Every
        action text names only public cards, so the history replays unchanged.
        A purchase under way is public proof that the buyer can still pay exactly:
        fillings that break it are rejected (uniform under that condition).
        """
        n = self.players
        deal = self.deals[0]
        mine = deal["hands"][seat]
        # slots: ("h", p, i) the i-th dealt card of seat p, ("s", j) stock position j
        held: list[list[tuple[Any, ...]]] = [
            [("h", p, i) for i in range(HAND_SIZE)] if p != seat else [] for p in range(n)
        ]
        known: list[list[str]] = [[] for _ in range(n)]
        fixed: dict[tuple[Any, ...], str] = {}
        discard = list(deal["discard"])
        drawn = 0
        turn = (deal["dealer"] + 1) % n
        for a in self.history:
            text = a.text
            if text == "draw stock":
                if turn != seat:
                    held[turn].append(("s", drawn))
                drawn += 1
            elif text == "draw discard":
                known[turn].append(discard.pop())
            elif text == "end":
                turn = (turn + 1) % n
            elif text.startswith("pay "):
                code = text[4:]
                discard.append(code)
                if turn == seat:
                    continue
                if code in known[turn]:
                    known[turn].remove(code)
                else:
                    fixed[held[turn].pop(0)] = code
        seen = self.shown | self.held[seat]
        unknown = [c.code for c in MINORS if c not in seen]
        # every slot of the others is either still held (unseen) or fixed by a payment
        free = [x for p in range(n) for x in held[p]]
        free += [("s", j) for j in range(drawn, len(deal["stock"]))]
        assert len(free) == len(unknown), "the seat's knowledge does not add up"
        buyer = self.turn if self.phase == "pay" and self.turn != seat else None
        buyer_slots = [i for i, x in enumerate(free) if buyer is not None and x in held[buyer]]
        pool = list(unknown)
        for _ in range(100_000):
            shuffle(rng, pool)
            if buyer is None:
                break
            # a purchase under way tells everyone that the buyer can still pay exactly
            hand = [card(pool[i]) for i in buyer_slots] + [card(c) for c in known[buyer]]
            if can_pay(hand, self.owed):
                break
        fill = dict(fixed)
        fill.update(zip(free, pool, strict=True))
        stock = []
        for j, code in enumerate(deal["stock"]):
            stock.append(fill.get(("s", j), code))  # the seat's own draws stay
        hands = [
            list(mine) if p == seat else [fill[("h", p, i)] for i in range(HAND_SIZE)]
            for p in range(n)
        ]
        majors = list(deal["majors"])
        revealed = len(majors) - len(self.pile)
        hidden = sorted(majors[revealed:], key=lambda c: card(c).index)
        shuffle(rng, hidden)
        world = {
            "hands": hands,
            "discard": list(deal["discard"]),
            "stock": stock,
            "majors": majors[:revealed] + hidden,
            "dealer": deal["dealer"],
        }
        return [world], [a.text for a in self.history]


_CARD = {c.code: c for c in CLASSIC}.__getitem__
_number = attrgetter("number")
_index = attrgetter("index")
_END = ACTIONS[END]


def sorted_codes(cs: list[Card]) -> list[str]:
    """Codes sorted in the deck's order (majors by number, suits c d s w, ranks up)."""
    return [c.code for c in sorted(cs, key=_index)]


Matto.state_class = MattoState
