"""A casual-good player of エクステンドリ (Extendori), the point-taking trick game.

Points: every minor outside 2-10 is a picture card (絵札, 15 points); ``T0`` and ``T1``
are worth 30. The strategy reads only the seat's view and the legal moves:

1. **Count the unseen cards**: the deck minus my hand, this hand's finished tricks and
   the cards on the table. A card's *threats* are the unseen cards that would beat it if
   a later opponent added one to the trick (judged as the game's ``trick_winner`` judges,
   so the wrap-arounds count: the top major loses to ``T1``/``T0`` in the same trick, a
   led suit's ``F`` to its ``N``/``M``). Majors threaten a minor lead only when some
   later opponent has shown a void in the suit or, by the hand sizes and the unseen
   cards, probably holds none of it (``VOID_RISK``).
2. **Partner winning** (``teams``): never overtake a partner; when their card is sure to
   hold, give them a point card, else play low.
3. **Last to play**: win with the card that takes the most points (banking my own point
   card counts; the lowest such winner); a pointless trick is not worth a card — dump.
4. **Following**: win with the cheapest card no unseen card can beat (a point card
   first: it banks itself) whenever the trick holds or will likely draw points (the
   unseen cards' average points times the players still to come); with at least
   ``FIGHT`` points expected and no sure winner, fight with the winner that has the
   fewest threats, a plain card before a point card.
5. **Leading**: lead a sure winner (a point card first: it banks itself and draws the
   others' cards), a major only when no minor is sure; else my lowest plain card from
   my shortest suit (minors before majors), heading for a void to trump into later.
6. **Dumping** (cannot or need not win): the cheapest card — a plain minor before a
   major, never a point card while a plain card is legal, never a card that would win
   when I mean to duck; forced to give points, the weakest point card.

Speed matters here: the expert bot finishes every sampled world with this strategy in
every seat (issue #40).  So a decision reads the view's codes once into one int, a
bit per card (each following key's ranks in a field of its own, bit = the card's place
in its key's order), and decides on ints: a legal move's key, rank, points and strength
come from tables built at import, by its action id.  "Would this unseen card take the
trick" is a mask of the ranks that would (:func:`_beat`, the wrap-arounds included),
so a card's threats are the unseen cards of that mask, counted in one go.  Compiled
(``PLAYOUTS`` of :mod:`xtarot._compiled`), the masks are C ints, a
decision's facts (:class:`_Position`) an extension type of C fields, and counting the
threats a C function (``cython.compiled`` picks the C loops where Python has a faster
builtin: ``int.bit_count``, ``int.bit_length``).  The choices are the same to the
last tie (the first card, in the order of the legal moves, of those that tie, as
``min`` and ``max`` break ties), and the words of an explanation are made, from the
same facts, only when ``explain()`` asks for them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from xtarot.agents.base import Decision, Explanation
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import XTAROT, Card, card
from xtarot.engine import Action
from xtarot.games.extendori.rules import MINOR_ORDER, deck_cards, points, trick_winner

try:  # compiled (setup.py): C ints for the masks and counts; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = ["ExtendoriHeuristic", "card_points"]

_TOP = {111: 22, 110: 21}
FIGHT = 15
VOID_RISK = 0.5

# -- tables built once at import ---------------------------------------------------------
#: the following keys: the four suits, then the majors (``"T"``)
_KEYS = "cdswT"
_MAJORS = 4
#: M and N, a minor's lowest ranks, are 0 and 1; F its highest
_F = MINOR_ORDER.index("F")
#: a following key's ranks are a field of this many bits in a packed mask
_FIELD = 24
_RANKS = (1 << _FIELD) - 1


def _key(c: Card) -> int:
    return _MAJORS if c.suit is None else _KEYS.index(c.suit)


def _rank(c: Card) -> int:
    """A minor's place in MINOR_ORDER, a major's number."""
    return int(c.number or 0) if c.suit is None else MINOR_ORDER.index(c.rank)


#: per card index (a ``play <card>`` action's id): its following key, its rank in the
#: key, its points, its plain worth for keeping (majors above every minor, by rank)
_I_KEY: list[int] = [_key(c) for c in XTAROT]
_I_RANK: list[int] = [_rank(c) for c in XTAROT]
_I_PTS: list[int] = [points(c) for c in XTAROT]
_I_STRENGTH: list[int] = [100 + _rank(c) if c.suit is None else _rank(c) for c in XTAROT]
#: per card index: the bit of the card in a packed mask (its key's field, its rank)
_I_BIT: list[int] = [1 << (_FIELD * _key(c) + _rank(c)) for c in XTAROT]
#: per card code: its bit in a packed mask, and its index
_BIT: dict[str, int] = {c.code: _I_BIT[c.index] for c in XTAROT}
_INDEX: dict[str, int] = {c.code: c.index for c in XTAROT}
#: the point cards of a packed mask: minors worth 15, majors worth 30
_MINOR_POINTS = sum(_I_BIT[c.index] for c in XTAROT if c.suit is not None and points(c))
_MAJOR_POINTS = sum(_I_BIT[c.index] for c in XTAROT if c.suit is None and points(c))
#: the choices' orders as one int a card, smaller first (``min``) or larger first
#: (``max``); ties fall to the first card in the legal moves' order, as with tuples:
#: a point card first, then the lowest (``(-points, strength)``) ...
_GIFT: list[int] = [-p * 256 + s for p, s in zip(_I_PTS, _I_STRENGTH, strict=True)]
#: ... the most points, then the lowest (``max`` of ``(points, -strength)``)
_BANK: list[int] = [p * 256 - s for p, s in zip(_I_PTS, _I_STRENGTH, strict=True)]
#: ... the fewest points, then the lowest (``(points, strength)``)
_CHEAP: list[int] = [p * 256 + s for p, s in zip(_I_PTS, _I_STRENGTH, strict=True)]

# -- the same by code, for the explanations and the tests ---------------------------------
_KEY: dict[str, str] = {c.code: _KEYS[_key(c)] for c in XTAROT}
_PTS: dict[str, int] = {c.code: points(c) for c in XTAROT}
_STRENGTH: dict[str, int] = {c.code: _I_STRENGTH[c.index] for c in XTAROT}
#: per deck size: its codes in deck order, its packed mask, its cards and its points
_DECKS: dict[int, tuple[tuple[str, ...], int, int, int]] = {}
_SUIT_NAMES = {"c": ("cups", "聖杯"), "d": ("coins", "金貨"), "s": ("swords", "魔剣"),
               "w": ("trees", "聖樹")}  # fmt: skip


def card_points(code: str) -> int:
    """A card's points from its code.

    >>> card_points("Kc"), card_points("7c"), card_points("T0"), card_points("T5")
    (15, 0, 30, 0)
    """
    return _PTS[code]


def _deck(size: int) -> tuple[tuple[str, ...], int, int, int]:
    deck = _DECKS.get(size)
    if deck is None:
        codes = tuple(c.code for c in deck_cards(size))
        deck = _DECKS[size] = (
            codes, sum(_BIT[c] for c in codes), len(codes), sum(_PTS[c] for c in codes)
        )  # fmt: skip
    return deck


@lru_cache(maxsize=8192)
def _none_of(other: int, total: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``total`` all come from the ``other``
    ones (none of a given suit), drawn one by one without replacement."""
    p = 1.0
    for i in range(hand):
        p *= max(other - i, 0) / max(total - i, 1)
    return p


@cython.cfunc
@cython.returns(cython.Py_ssize_t)
@cython.locals(
    ranks=cython.Py_ssize_t,
    turn=cython.Py_ssize_t,
    low=cython.Py_ssize_t,
    high=cython.Py_ssize_t,
    m=cython.Py_ssize_t,
    below=cython.Py_ssize_t,
)
def _beat(ranks: int, turn: int) -> int:
    """The ranks of a key that, added to a trick by a later player, would take it: the
    trick's cards of that key are ``ranks`` (a bit each, never none), ``turn`` the
    key's wrap-around loser (the deck's top major, a suit's F).  By rank, unless the
    trick would hold both ends of a wrap-around: the low end (rank 0 or 1: T0/T1, a
    suit's M/N) then beats the high one, and of two low ends 0 beats 1."""
    low = ranks & 3
    high = ranks >> turn & 1
    if low and high:  # already wrapped: only the 0 beats a lone 1
        return 1 if low == 2 else 0
    if cython.compiled:  # C ints: the best rank's bit smeared down to bit 0
        below = ranks | ranks >> 1
        below |= below >> 2
        below |= below >> 4
        below |= below >> 8
        below |= below >> 16
        m = _RANKS ^ below  # the ranks above the best
    else:
        m = _RANKS ^ ((1 << ranks.bit_length()) - 1)  # the ranks above the best
    if low:
        m &= ~(1 << turn)  # the high end would wrap below the low one
    elif high:
        m |= 3  # either low end would wrap above the high one
    return m


@cython.locals(k=cython.Py_ssize_t, b=cython.Py_ssize_t)
def _add(majors: bool, ranks: int, led: int, i: int) -> tuple[bool, int]:
    """A trick's ``(majors, ranks)`` once card ``i`` is added: with a major down only
    majors count (``ranks``: their numbers), else the led suit's ranks."""
    k = _I_KEY[i]
    b = 1 << _I_RANK[i]
    if majors:
        return True, ranks | b if k == _MAJORS else ranks
    if k == _MAJORS:
        return True, b
    return False, ranks | b if k == led else ranks


@cython.cfunc
@cython.returns(cython.Py_ssize_t)
@cython.locals(x=cython.Py_ssize_t, n=cython.Py_ssize_t)
def _count(x: int) -> int:
    """How many bits ``x`` (at most one key's field) has set."""
    if cython.compiled:
        n = 0
        while x:
            x &= x - 1
            n += 1
        return n
    else:
        return x.bit_count()


#: the finished tricks last read (a copy of a view's list) and the mask of their cards:
#: every view of one trick lists the same tricks, the next trick's views one more
_TRICKS_READ: tuple[list[Any], int] = ([], 0)


def _tricks_seen(tricks: list[dict[str, Any]]) -> int:
    """The packed mask of the cards in ``tricks`` (a view's finished tricks), read on
    from the tricks last read when ``tricks`` begins with them (compared as lists: by
    identity first, the views of one hand sharing each trick's dict, else by value)."""
    global _TRICKS_READ
    read, seen = _TRICKS_READ
    k = len(read)
    if len(tricks) >= k and tricks[:k] == read:
        if len(tricks) == k:
            return seen
    else:
        k, seen = 0, 0
    bit = _BIT
    for t in tricks[k:]:
        for play in t["cards"]:
            seen |= bit[play[1]]
    _TRICKS_READ = (list(tricks), seen)
    return seen


class _Trick:
    """The cards of a trick so far, read for one question: would one more card, added
    by a later player, take the trick?  Same answers as ``trick_winner``, by the rank
    masks of :func:`_beat` (the tests hold the two to the same answers)."""

    __slots__ = ("led", "majors", "ranks", "top")

    def __init__(self, codes: list[str], top: int) -> None:
        first = _INDEX[codes[0]]
        self.led = _I_KEY[first]
        self.majors = self.led == _MAJORS
        self.ranks = 1 << _I_RANK[first]
        for c in codes[1:]:
            self.majors, self.ranks = _add(self.majors, self.ranks, self.led, _INDEX[c])
        self.top = top

    def _mask(self, key: int) -> int:
        """The ranks of ``key`` that would take the trick."""
        if self.majors:
            return _beat(self.ranks, self.top) if key == _MAJORS else 0
        if key == _MAJORS:
            return _RANKS
        return _beat(self.ranks, _F) if key == self.led else 0

    def taken_by(self, code: str) -> bool:
        """Whether ``code`` played now would win the trick."""
        i = _INDEX[code]
        return bool(self._mask(_I_KEY[i]) >> _I_RANK[i] & 1)

    def count_taken(self, codes: list[str]) -> int:
        """How many of ``codes`` (all of one following key) would win the trick."""
        if not codes:
            return 0
        mask = self._mask(_I_KEY[_INDEX[codes[0]]])
        return sum(mask >> _I_RANK[_INDEX[c]] & 1 for c in codes)


@cython.cclass
class _Position:
    """What one decision knows, as ints: the trick so far (its led key, whether a
    major is down, the ranks that count), the unseen cards (a packed mask, and the
    majors' field of it), who plays after me; and, for the explanations, the view's
    own lists.  Compiled, an extension type of C fields."""

    seat = cython.declare(cython.Py_ssize_t)
    top = cython.declare(cython.Py_ssize_t)
    led = cython.declare(cython.Py_ssize_t)
    majors = cython.declare(cython.bint)
    ranks = cython.declare(cython.Py_ssize_t)
    table_points = cython.declare(cython.Py_ssize_t)
    n_unseen = cython.declare(cython.Py_ssize_t)
    unseen_majors = cython.declare(cython.Py_ssize_t)
    deck = cython.declare(tuple)
    table = cython.declare(list)
    seen = cython.declare(object)
    unseen = cython.declare(object)
    after = cython.declare(list)
    opp_after = cython.declare(list)
    voids = cython.declare(list)
    hand_sizes = cython.declare(list)
    _void = cython.declare(list)

    @cython.locals(i=cython.Py_ssize_t, led=cython.Py_ssize_t, ranks=cython.Py_ssize_t)
    def __init__(
        self,
        seat: int,
        top: int,
        size: int,
        table: list[list[Any]],
        seen: int,
        after: list[int],
        opp_after: list[int],
        view: dict[str, Any],
    ) -> None:
        self.seat = seat
        self.top = top
        self.deck = deck = _deck(size)
        self.table = table
        self.seen = seen
        self.after = after
        self.opp_after = opp_after
        self.unseen = unseen = deck[1] & ~seen
        self.unseen_majors = unseen >> _FIELD * _MAJORS
        #: how many cards I have not seen (every seen card is one of the deck's)
        self.n_unseen = deck[2] - seen.bit_count()
        self.voids = view["voids"]
        self.hand_sizes = view["hand_sizes"]
        self._void = [-1.0] * 5
        led = ranks = points = 0
        majors = False
        if table:
            i = _INDEX[table[0][1]]
            led = _I_KEY[i]
            majors = led == _MAJORS
            ranks = 1 << _I_RANK[i]
            points = _I_PTS[i]
            for play in table[1:]:
                i = _INDEX[play[1]]
                majors, ranks = _add(majors, ranks, led, i)
                points += _I_PTS[i]
        self.led = led
        self.majors = majors
        self.ranks = ranks
        self.table_points = points

    # -- the hot path ----------------------------------------------------------------
    def density(self) -> float:
        """The unseen cards' average points."""
        n = self.n_unseen
        if not n:
            return 0.0
        seen = self.seen
        seen_points = 15 * (seen & _MINOR_POINTS).bit_count()
        seen_points += 30 * (seen & _MAJOR_POINTS).bit_count()
        return (self.deck[3] - seen_points) / n

    @cython.cfunc
    @cython.returns(cython.double)
    @cython.locals(key=cython.Py_ssize_t, keep=cython.double, total=cython.Py_ssize_t)
    def void_chance(self, key: int) -> float:
        """The chance that some later opponent holds no card of ``key`` (a suit)."""
        chance = self._void[key]
        if chance >= 0.0:
            return chance  # type: ignore[no-any-return]
        total = self.n_unseen
        other = total - _count(self.unseen >> _FIELD * key & _RANKS)
        suit = _KEYS[key]
        keep = 1.0
        for s in self.opp_after:
            if suit in self.voids[s]:
                keep = 0.0
                break
            keep *= 1.0 - _none_of(other, total, self.hand_sizes[s])
        self._void[key] = 1.0 - keep
        return 1.0 - keep

    @cython.locals(beat=cython.Py_ssize_t, led=cython.Py_ssize_t)
    def wins(self, legal: list[Action]) -> list[bool]:
        """Whether each legal card would take the trick as it stands (I follow)."""
        if self.majors:
            beat = _beat(self.ranks, self.top)
            return [_I_KEY[a.id] == _MAJORS and beat >> _I_RANK[a.id] & 1 == 1 for a in legal]
        beat = _beat(self.ranks, _F)
        led = self.led
        return [
            _I_KEY[a.id] == _MAJORS or (_I_KEY[a.id] == led and beat >> _I_RANK[a.id] & 1 == 1)
            for a in legal
        ]

    @cython.cfunc
    @cython.returns(cython.Py_ssize_t)
    @cython.locals(
        i=cython.Py_ssize_t,
        led=cython.Py_ssize_t,
        majors=cython.bint,
        ranks=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        b=cython.Py_ssize_t,
        count=cython.Py_ssize_t,
        suit=cython.Py_ssize_t,
    )
    def threats(self, i: int) -> int:
        """Unseen cards that would beat the trick's winner after I play card ``i``
        (-1: the trick as it stands)."""
        if not self.opp_after:
            return 0
        led, majors, ranks = self.led, self.majors, self.ranks
        if i >= 0:  # the trick once I add card i (as _add)
            k = _I_KEY[i]
            b = 1 << _I_RANK[i]
            if not self.table:
                led, majors, ranks = k, k == _MAJORS, b
            elif majors:
                if k == _MAJORS:
                    ranks |= b
            elif k == _MAJORS:
                majors, ranks = True, b
            elif k == led:
                ranks |= b
        count = 0
        if led != _MAJORS:
            if not majors:  # a minor never beats a trumped trick
                suit = self.unseen >> _FIELD * led & _RANKS
                count = _count(suit & _beat(ranks, _F))
            if self.void_chance(led) < VOID_RISK:
                return count
        if led != _MAJORS and not majors:
            return count + _count(self.unseen_majors)  # any major takes a minor trick
        return count + _count(self.unseen_majors & _beat(ranks, self.top))

    # -- for the explanations ------------------------------------------------------------
    def unseen_codes(self) -> list[str]:
        """The unseen cards, in deck order."""
        unseen = self.unseen
        return [c for c in self.deck[0] if _BIT[c] & unseen]

    def beaters(self, code: str | None) -> list[str]:
        """Every unseen card that, added by a later opponent, would take the trick from
        its winner after I play ``code`` — majors included (any later player may be out
        of the led suit) and wrap-arounds included (an ``F`` can hand the trick to a led
        ``N``/``M``; a card that hands the trick to an earlier player counts too): what
        an explanation may state as a fact.  Asked only when an explanation is worded,
        so it simply replays the trick with the game's ``trick_winner``."""
        if not self.opp_after:
            return []
        plays = [(s, card(c)) for s, c in self.table]
        if code is not None:
            plays.append((self.seat, card(code)))
        winner = trick_winner(plays, self.top)
        cards = [card(u) for u in self.unseen_codes()]
        return [u.code for u in cards if trick_winner([*plays, (-1, u)], self.top) != winner]

    def all_threats(self, code: str | None) -> int:
        """How many unseen cards could take the trick (see :meth:`beaters`)."""
        return len(self.beaters(code))

    def risk(self, code: str) -> tuple[str, str, int] | tuple[str, int] | None:
        """How the trick could still be lost after ``code``, for an explanation:
        ``None`` when no unseen card can take it; ``(suit_en, suit_ja, chance%)`` when
        only a major can, from a later player out of the led suit; else
        ``(cards, count)``: the unseen cards that could (the heuristic counted the
        trick as safe, so the explanation must say "probably")."""
        beaters = self.beaters(code)
        if not beaters:
            return None
        led = _KEY[self.table[0][1] if self.table else code]
        if led != "T" and all(_KEY[u] == "T" for u in beaters):
            en, ja = _SUIT_NAMES[led]
            return en, ja, round(100 * self.void_chance(_KEYS.index(led)))
        shown = " ".join(beaters[:4]) + (" …" if len(beaters) > 4 else "")
        return shown, len(beaters)


class ExtendoriHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        #: the last move, the rule that chose it and what its words need
        self._pending: tuple[Action, str, tuple[Any, ...]] | None = None

    # -- explanations ---------------------------------------------------------------------
    def explain(self) -> Explanation | None:
        if self._pending is not None:
            action, rule, facts = self._pending
            self._pending = None
            self._said = None  # the pending words are the later
            en, ja = _WORDS[rule](*facts)
            self._last = Explanation(self.name, action.text, en, ja)
            return self._last
        return super().explain()

    def _say_later(self, action: Action, rule: str, *facts: Any) -> Action:
        """Like ``_say``: the words of ``rule`` (a key of :data:`_WORDS`, given
        ``facts``), made only if asked for: play-outs never ask, and counting the
        cards that could beat a move costs time."""
        self._pending = (action, rule, facts)
        return action

    # -- reading the view ---------------------------------------------------------------
    def act(self, decision: Decision) -> Action:
        view = decision.view
        seat: int = view["seat"]
        n: int = view["players"]
        size: int = view["deck"]
        trick = view["trick"]
        table: list[list[Any]] = trick["cards"]
        bit = _BIT
        seen = _tricks_seen(view["tricks"])
        for play in table:
            seen |= bit[play[1]]
        for c in view["hand"]:
            seen |= bit[c]
        order: list[int] = view["order"]
        if table:
            start = order.index(trick["leader"])
            after = [order[(start + k) % n] for k in range(len(table) + 1, n)]
        else:
            start = order.index(seat)
            after = [order[(start + k) % n] for k in range(1, n)]
        partner: set[int] = set()
        for team in view["teams"] or []:
            if seat in team:
                partner = set(team) - {seat}
        opp_after = [s for s in after if s not in partner] if partner else after
        pos = _Position(seat, _TOP.get(size, 23), size, table, seen, after, opp_after, view)
        if not table:
            return self._lead(pos, decision.legal)
        return self._follow(pos, decision.legal, partner)

    # -- following ------------------------------------------------------------------------
    @cython.locals(
        pos=_Position,
        j=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        pick=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        sure=cython.Py_ssize_t,
        fight=cython.Py_ssize_t,
        sure_key=cython.Py_ssize_t,
        fight_key=cython.Py_ssize_t,
        threats=cython.Py_ssize_t,
        key=cython.Py_ssize_t,
        table_pts=cython.Py_ssize_t,
    )
    def _follow(self, pos: _Position, legal: list[Action], partner: set[int]) -> Action:
        table_pts = pos.table_points
        wins = pos.wins(legal)
        if partner:
            current = trick_winner([(s, card(c)) for s, c in pos.table], pos.top)
            if current in partner:
                # a point card that does not take the trick: the most points, the lowest
                pick, best = -1, 0
                for j in range(len(legal)):
                    i = legal[j].id
                    if _I_PTS[i] and not wins[j] and (pick < 0 or _GIFT[i] < best):
                        pick, best = j, _GIFT[i]
                if pick >= 0 and (not pos.after or pos.threats(-1) == 0):
                    return self._say_later(legal[pick], "gift", pos, _code(legal[pick]))
                return self._dump(pos, legal, wins, "partner", partner=True)
        if not pos.after:
            pick, best = -1, 0
            for j in range(len(legal)):
                if wins[j] and (pick < 0 or _BANK[legal[j].id] > best):
                    pick, best = j, _BANK[legal[j].id]
            if pick >= 0:
                gain = table_pts + _I_PTS[legal[pick].id]
                if gain > 0:
                    return self._say_later(legal[pick], "last", _code(legal[pick]), gain)
                return self._dump(pos, legal, wins, "last pointless")
            return self._dump(pos, legal, wins, "last lost")
        # my winners, with their threats: the sure ones (no threat) and the fighters
        sure, fight, sure_key, fight_key = -1, -1, 0, 0
        for j in range(len(legal)):
            if wins[j]:
                i = legal[j].id
                threats = pos.threats(i)
                if threats == 0 and (sure < 0 or _GIFT[i] < sure_key):
                    sure, sure_key = j, _GIFT[i]
                key = threats * 65536 + _CHEAP[i]  # (threats, points, strength)
                if fight < 0 or key < fight_key:
                    fight, fight_key = j, key
        expected = table_pts + pos.density() * len(pos.after)
        if sure >= 0 and (expected > 0 or _I_PTS[legal[sure].id] > 0):
            return self._say_later(legal[sure], "sure", pos, _code(legal[sure]))
        if expected >= FIGHT and fight >= 0:
            return self._say_later(legal[fight], "fight", pos, _code(legal[fight]), table_pts)
        if fight < 0:
            return self._dump(pos, legal, wins, "lost")
        if sure >= 0:  # nothing to win: no points on the table, none left unseen
            return self._dump(pos, legal, wins, "nothing")
        return self._dump(pos, legal, wins, "unsure", expected=expected)

    # -- leading --------------------------------------------------------------------------
    @cython.locals(
        pos=_Position,
        j=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        t=cython.Py_ssize_t,
        pick=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        minor=cython.Py_ssize_t,
        major=cython.Py_ssize_t,
        minor_key=cython.Py_ssize_t,
        major_key=cython.Py_ssize_t,
        key=cython.Py_ssize_t,
        rank=cython.Py_ssize_t,
        plain=cython.bint,
    )
    def _lead(self, pos: _Position, legal: list[Action]) -> Action:
        # a sure winner (a minor before a major): the most points, then the lowest;
        # else the plain card of my shortest suit, the lowest; else the point card
        # with the fewest threats
        minor, major, minor_key, major_key = -1, -1, 0, 0
        plain = False
        threats = [0] * len(legal)
        for j in range(len(legal)):
            i = legal[j].id
            t = threats[j] = pos.threats(i)
            if not t:
                if _I_KEY[i] != _MAJORS:
                    if minor < 0 or _BANK[i] > minor_key:
                        minor, minor_key = j, _BANK[i]
                elif major < 0 or _BANK[i] > major_key:
                    major, major_key = j, _BANK[i]
            if not _I_PTS[i]:
                plain = True
        pick = minor if minor >= 0 else major
        if pick >= 0:
            return self._say_later(legal[pick], "lead", pos, _code(legal[pick]))
        if plain:
            length = [0, 0, 0, 0, 0]
            for a in legal:
                length[_I_KEY[a.id]] += 1
            best = 0
            for j in range(len(legal)):
                i = legal[j].id
                if not _I_PTS[i]:
                    key = _I_KEY[i]
                    rank = (key == _MAJORS) * 65536 + length[key] * 256 + _I_STRENGTH[i]
                    if pick < 0 or rank < best:
                        pick, best = j, rank
            held = length[_I_KEY[legal[pick].id]]
            return self._say_later(legal[pick], "plain lead", _code(legal[pick]), held)
        best = 0
        for j in range(len(legal)):
            key = threats[j] * 256 + _I_PTS[legal[j].id]  # (threats, points)
            if pick < 0 or key < best:
                pick, best = j, key
        return self._say_later(legal[pick], "point lead", pos, _code(legal[pick]))

    # -- dumping --------------------------------------------------------------------------
    @cython.locals(
        j=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        pick=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        key=cython.Py_ssize_t,
    )
    def _dump(
        self,
        pos: _Position,
        legal: list[Action],
        wins: list[bool],
        why: str,
        *,
        partner: bool = False,
        expected: float = 0.0,
    ) -> Action:
        """Play the cheapest card (see rule 6): the fewest points, one that does not
        take the trick, the lowest; ``why`` (a key of :data:`_WHY`) says why."""
        pick, best = -1, 0
        for j in range(len(legal)):
            i = legal[j].id
            key = _I_PTS[i] * 512 + wins[j] * 256 + _I_STRENGTH[i]  # (points, wins, strength)
            if pick < 0 or key < best:
                pick, best = j, key
        return self._say_later(
            legal[pick],
            "dump",
            tuple(legal),
            why,
            expected,
            _code(legal[pick]),
            wins[pick],
            partner,
        )


def _code(action: Action) -> str:
    return XTAROT[action.id].code


# -- the words of each rule: (English, Japanese), from the facts of the decision ----------
def _risk_words(
    pos: _Position, pick: str, sure: tuple[str, str], likely: Any, only_majors: Any
) -> tuple[str, str]:
    risk = pos.risk(pick)
    if risk is None:
        return sure
    if len(risk) == 2:
        return likely(*risk)  # type: ignore[no-any-return]
    return only_majors(*risk)  # type: ignore[no-any-return]


def _gift_words(pos: _Position, pick: str) -> tuple[str, str]:
    return _risk_words(
        pos,
        pick,
        (
            "my partner wins this trick for sure: give them a point card",
            "パートナーがこのトリックを確実に取る：絵札を渡す",
        ),
        lambda cards, n: (
            f"my partner likely wins this trick (unless one of {n} unseen "
            f"cards comes: {cards}): give them a point card",
            f"パートナーがおそらくこのトリックを取る（未公開の{n}枚（{cards}）が"
            "出なければ）：絵札を渡す",
        ),
        lambda en, ja, chance: (
            "my partner likely wins this trick (only a major from a player out of "
            f"{en} could beat it, about {chance}%): give them a point card",
            f"パートナーがおそらくこのトリックを取る（勝てるのは{ja}のない人の"
            f"大アルカナだけ、約{chance}%）：絵札を渡す",
        ),
    )


def _last_words(pick: str, gain: int) -> tuple[str, str]:
    return (
        f"last to play: take the {gain} points with {pick}",
        f"最後の手番：{pick}で{gain}点を取る",
    )


def _sure_words(pos: _Position, pick: str) -> tuple[str, str]:
    return _risk_words(
        pos,
        pick,
        (
            f"{pick} cannot be beaten by any unseen card: win the trick cheaply",
            f"{pick}は未公開のどの札にも負けない：安くトリックを取る",
        ),
        lambda cards, n: (
            f"{pick} likely wins the trick cheaply: only {n} unseen cards "
            f"could still take it ({cards})",
            f"{pick}でおそらく安くトリックを取れる：これから覆せる未公開の札は{n}枚（{cards}）",
        ),
        lambda en, ja, chance: (
            f"{pick} cannot be beaten by any unseen card of {en}, only by a major "
            f"from a later player out of {en} (about {chance}%): it likely wins "
            "the trick cheaply",
            f"{pick}は未公開の{ja}には負けない。負けるのは後の人が{ja}を持たず"
            f"大アルカナを出すときだけ（約{chance}%）：おそらく安くトリックを取れる",
        ),
    )


def _fight_words(pos: _Position, pick: str, table_pts: int) -> tuple[str, str]:
    beaten = pos.all_threats(pick)
    return (
        f"{table_pts} points on the table: fight with {pick} ({beaten} unseen cards could beat it)",
        f"場に{table_pts}点：{pick}で勝負する（これに勝てる未公開の札は{beaten}枚）",
    )


def _lead_words(pos: _Position, pick: str) -> tuple[str, str]:
    return _risk_words(
        pos,
        pick,
        (
            f"lead {pick}: no unseen card can beat it",
            f"{pick}を打ち出す：未公開のどの札にも負けない",
        ),
        lambda cards, n: (
            f"lead {pick}: it likely wins, only {n} unseen cards could take the trick ({cards})",
            f"{pick}を打ち出す：おそらく勝つ。覆せる未公開の札は{n}枚（{cards}）",
        ),
        lambda en, ja, chance: (
            f"lead {pick}: no unseen card of {en} can beat it, only a major from a "
            f"player out of {en} (about {chance}%), so it likely wins",
            f"{pick}を打ち出す：未公開の{ja}には負けない。負けるのは{ja}を持たない人が"
            f"大アルカナを出すときだけ（約{chance}%）なので、おそらく勝つ",
        ),
    )


def _plain_lead_words(pick: str, held: int) -> tuple[str, str]:
    if _KEY[pick] == "T":
        return (
            f"no sure winner and no plain card of a suit: lead {pick}, my lowest plain major",
            f"確実に勝てる札も得点なしのスートの札もない：得点なしの一番低い大アルカナ{pick}を打ち出す",
        )
    en, ja = _SUIT_NAMES[_KEY[pick]]
    return (
        f"no sure winner: lead {pick}, my lowest plain card of {en}, the shortest "
        f"of my suits that hold a plain card ({held} card{'' if held == 1 else 's'})",
        f"確実に勝てる札がない：得点なしの札がある中で一番短いスート（{ja}、"
        f"{held}枚）の一番低い得点なしの札{pick}を打ち出す",
    )


def _point_lead_words(pos: _Position, pick: str) -> tuple[str, str]:
    n = pos.all_threats(pick)
    return (
        f"only point cards left: lead {pick} ({n} unseen cards could beat it)",
        f"絵札しか残っていない：{pick}を打ち出す（これに勝てる未公開の札は{n}枚）",
    )


#: why a card is dumped (English, Japanese); ``unsure`` takes the expected points
_WHY: dict[str, tuple[str, str]] = {
    "partner": ("my partner is winning", "パートナーが勝っている"),
    "last pointless": (
        "last to play and the trick holds no points",
        "最後の手番で、場に得点がない",
    ),
    "last lost": (
        "last to play and I cannot win this trick",
        "最後の手番で、このトリックは取れない",
    ),
    "lost": ("I cannot win this trick", "このトリックは取れない"),
    "nothing": (
        "no points on the table and none among the unseen cards",
        "場に得点がなく、未公開の札にも得点札がない",
    ),
}


def _dump_words(
    legal: tuple[Action, ...], why: str, expected: float, pick: str, takes: bool, partner: bool
) -> tuple[str, str]:
    """Why and what the card is — each word true of the position: "plain" only for a
    card worth no points, "lowest" only when no plain card of mine ranks lower, "does
    not take the trick" only when it does not."""
    if why == "unsure":
        en = (
            f"no card of mine is sure to win this trick and only about {expected:.1f} "
            f"points are expected (I fight from {FIGHT})"
        )
        ja = f"確実に取れる札がなく、見込みは約{expected:.1f}点だけ（勝負するのは{FIGHT}点から）"
    else:
        en, ja = _WHY[why]
    if partner and not takes:
        en, ja = f"{en}: do not overtake", f"{ja}：追い越さない"
    pts = _PTS[pick]
    if pts == 0:
        lowest = min(_I_STRENGTH[a.id] for a in legal if not _I_PTS[a.id])
        if _STRENGTH[pick] == lowest:
            tail = (
                f"dump my lowest plain card ({pick})",
                f"一番低い得点なしの札を捨てる（{pick}）",
            )
        else:
            tail = (
                f"dump {pick}, a plain card that does not take the trick",
                f"トリックを取らない得点なしの札を捨てる（{pick}）",
            )
    else:
        tail = (
            f"every card I can play is worth points: give up {pick} ({pts} points)",
            f"出せる札はすべて得点札：{pick}（{pts}点）を出す",
        )
    if takes:
        tail = (f"{tail[0]}; it takes the trick for now", f"{tail[1]}（今のところトリックを取る）")
    return f"{en}: {tail[0]}", f"{ja}：{tail[1]}"


#: rule -> the function wording it from the facts the decision kept
_WORDS: dict[str, Any] = {
    "gift": _gift_words,
    "last": _last_words,
    "sure": _sure_words,
    "fight": _fight_words,
    "lead": _lead_words,
    "plain lead": _plain_lead_words,
    "point lead": _point_lead_words,
    "dump": _dump_words,
}
