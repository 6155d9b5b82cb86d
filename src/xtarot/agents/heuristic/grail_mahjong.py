"""A casual-good player of 聖杯麻雀 (Grail Mahjong).

Strategy, from the seat's view only (every choice is a one-step look-ahead on a
simple worth of the position: meld points, cards left in the hand, and how well the
hand's cards hang together):

1. **Agari (あがり)**: a move that empties the hand wins whatever the scores: take it.
2. **Meld when it helps**: pon, chi and adds are made whenever they raise the worth;
   natural melds come before ones that spend the wild ``Oc``, and the wild goes where
   it adds most — growing a meld from n to n + 1 cards is worth 2n − 3 points, so a
   long meld beats a new small one.  (With an empty stock a pon add would end the
   hand at the replacement draw: only when that wins.)
3. **The rest (聖杯の休息)**: discard ``Rc`` as soon as my meld score is strictly ahead of
   every other seat's (the showdown is then won); never while level or behind.
4. **Luck (聖杯の幸運)**: play ``Lc`` at the first turn with nothing better to do — it
   costs no more than a discard and doubles every point from then on.
5. **Discard** the card whose loss hurts the hand least: isolated cards first, then
   cards whose pairs and runs are dead (the cards that would complete them are seen);
   never the wild.
6. **Claims (鳴き)**: claim when the new meld (plus the turn it gives, without a draw)
   is worth more than the two cards it takes; a pon is preferred to a chi.  Holding
   ``Rc`` and ahead after the claim, any claim wins the hand at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from xtarot.agents.base import Decision
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.engine import Action

try:  # compiled (setup.py): C ints for the hand's pairs; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = ["GrailMahjongHeuristic", "parse", "structure"]

WILD, REST, LUCK = "Oc", "Rc", "Lc"
_DISCARD_REST = f"discard {REST}"
#: Worth of one meld point, of one card fewer in the hand, of holding the wild.
PTS, PROG, WILD_VALUE = 1.5, 1.0, 2.5
#: Worth of a pair (same number), adjacent and one-gap cards of a suit, a card that
#: would extend one of my melds.
PAIR, ADJ, GAP, EXTEND = 0.6, 0.5, 0.25, 1.0
#: Extra worth of claiming a pon over a chi.
PON_BONUS = 0.3
#: the highest number of a suit's cards (a run grows up to it), by the number of players
_TOP_NUMBER = {2: 6, 3: 8, 4: 10}
#: Melds and discards each that :meth:`GrailMahjongHeuristic.shortlist` hands a search.
SHORTLIST = 3


def parse(code: str) -> tuple[str, int] | None:
    """``(suit, number)`` of a number card (``T`` for the majors), ``None`` for specials.

    >>> parse("T7"), parse("Ac"), parse("10d"), parse("Oc=5"), parse("Rc")
    (('T', 7), ('c', 1), ('d', 10), None, None)
    """
    known = _PARSED.get(code, _UNKNOWN)
    if known is not _UNKNOWN:
        return known  # type: ignore[return-value]
    found = _parse(code)
    if len(_PARSED) < _PARSED_MAX:
        _PARSED[code] = found
    return found


def _parse(code: str) -> tuple[str, int] | None:
    if code[0] in "ORL" and code[1] == "c":
        return None
    if code[0] == "T":
        return ("T", int(code[1:]))
    rank = code[:-1]
    return (code[-1], 1 if rank == "A" else int(rank))


#: the codes parsed so far (the deck's cards and the wild's meanings: a few hundred)
_PARSED: dict[str, tuple[str, int] | None] = {}
_PARSED_MAX = 4096
_UNKNOWN = object()


def _wild_meaning(text: str) -> tuple[str, int] | int:
    """What ``Oc=5`` (a number) or ``Oc=5c`` (a card) stands for."""
    m = text[3:]
    return int(m) if m.isdigit() else parse(m)  # type: ignore[return-value]


@cython.locals(total=cython.Py_ssize_t, n=cython.Py_ssize_t)
def _meld_score(melds: list[dict[str, Any]]) -> int:
    total = 0
    for m in melds:  # (a plain loop: a generator costs a call a meld, compiled too)
        n = len(m["cards"]) - 2
        total += n * n
    return total


def _extenders(melds: list[dict[str, Any]], k: int) -> set[tuple[str, int] | int]:
    """The cards (``(suit, n)``) or numbers (an ``int``) that would grow one of my melds."""
    out: set[tuple[str, int] | int] = set()
    for m in melds:
        out.update(_meld_extenders(m["kind"], tuple(m["cards"]), k))
    return out


@lru_cache(maxsize=1 << 12)
def _meld_extenders(kind: str, cards: tuple[str, ...], k: int) -> tuple[tuple[str, int] | int, ...]:
    """What would grow one meld (nothing once it has six cards)."""
    if len(cards) >= 6:
        return ()
    nums: list[int] = []
    suit = ""
    for t in cards:
        if t.startswith("Oc="):
            w = _wild_meaning(t)
            if isinstance(w, int):
                nums.append(w)
            else:
                suit = w[0]
                nums.append(w[1])
        else:
            p = parse(t)
            assert p is not None
            suit = p[0]
            nums.append(p[1])
    if kind == "pon":
        return (nums[0],)
    return tuple((suit, e) for e in (min(nums) - 1, max(nums) + 1) if 1 <= e <= k)


def structure(
    hand: list[str],
    seen: set[str] | None = None,
    extenders: set[tuple[str, int] | int] | None = None,
) -> float:
    """How well the hand hangs together: pairs, adjacent and one-gap cards of a suit
    (worth little once the cards that would complete them are all seen), the wild,
    and cards that would extend one of my melds.

    >>> structure(["3c", "3d"]) > structure(["3c", "4c"]) > structure(["3c", "5c"]) > 0
    True
    >>> structure(["3c", "9d"]), structure(["3c", "3d"], seen={"3s", "3w", "T3", "Oc"}) < 0.6
    (0.0, True)
    """
    seen = seen or set()
    extenders = extenders or set()
    nat = [(c, parse(c)) for c in hand]
    wild_out = WILD not in seen and WILD not in hand
    total = 0.0
    for i, (ci, pi) in enumerate(nat):
        if ci == WILD:
            total += WILD_VALUE
            continue
        if pi is None:
            continue
        if pi[1] in extenders or pi in extenders:
            total += EXTEND
        for cj, pj in nat[i + 1 :]:
            if pj is not None:
                total += _pair_worth(ci, pi, cj, pj, seen, wild_out)
    return total


def _pair_worth(
    ci: str, pi: tuple[str, int], cj: str, pj: tuple[str, int], seen: set[str], wild_out: bool
) -> float:
    """What two number cards held together are worth: a pair, adjacent or one-gap
    cards of a suit (a quarter once the cards completing them are all seen), else 0."""
    if pi[1] == pj[1]:
        live = any(c not in seen and c not in (ci, cj) for c in _same_number(pi[1]))
        return PAIR if (live or wild_out) else PAIR / 4
    if pi[0] == pj[0] and abs(pi[1] - pj[1]) <= 2:
        lo, hi = min(pi[1], pj[1]), max(pi[1], pj[1])
        need = [lo - 1, hi + 1] if hi - lo == 1 else [lo + 1]
        live = any(_code(pi[0], n) not in seen for n in need if n >= 1)
        base = ADJ if hi - lo == 1 else GAP
        return base if (live or wild_out) else base / 4
    return 0.0


#: suits of the number cards as :data:`_PACKED` numbers them
_PACKED_SUITS = "Tcdsw"
#: a number card's code -> suit index * 32 + number (:func:`parse` as one int)
_PACKED: dict[str, int] = {}
#: numbers run 0..23 (the majors) and a run's neighbour may be one past: 32 a suit
_PACKED_SIZE = 32 * len(_PACKED_SUITS)


def _code(suit: str, n: int) -> str:
    if suit == "T":
        return f"T{n}"
    return ("A" if n == 1 else str(n)) + suit


_PACKED.update(
    (_code(suit, n), i * 32 + n) for i, suit in enumerate(_PACKED_SUITS) for n in range(32)
)
#: the slots of the bitmap of cards seen past the packed cards': the wild, and one that
#: every other code (``Rc``, ``Lc``, a wild's meaning outside a meld) marks unread
_WILD_SLOT, _OTHER_SLOT = _PACKED_SIZE, _PACKED_SIZE + 1
_SEEN_SIZE = _PACKED_SIZE + 2
#: a code of a hand, a discard or an area -> its slot in the bitmap (else ``_OTHER_SLOT``)
_SLOT: dict[str, int] = {**_PACKED, WILD: _WILD_SLOT}
#: a code of a meld's card -> its slot (every ``Oc=...`` is the wild); codes missing
#: here are found by :func:`_meld_slot`
_MELD_SLOT: dict[str, int] = {
    **_SLOT,
    **{f"{WILD}={n}": _WILD_SLOT for n in range(32)},
    **{f"{WILD}={c}": _WILD_SLOT for c in _PACKED},
}


def _meld_slot(code: str) -> int:
    """The bitmap slot of a meld's card that :data:`_MELD_SLOT` does not list."""
    if code.startswith("Oc"):
        return _WILD_SLOT
    return _SLOT.get(code, _OTHER_SLOT)


@lru_cache(maxsize=64)
def _same_number(n: int) -> tuple[str, ...]:
    """The codes of number ``n`` in every suit (the majors first)."""
    return tuple(_code(s, n) for s in "Tcdsw")


def _cards_of(text: str) -> list[str]:
    """The cards an action text names (the wild as ``Oc``).

    >>> _cards_of("claim chi 3c 4c"), _cards_of("add Oc=5 0"), _cards_of("pon 5c 5d Oc")
    (['3c', '4c'], ['Oc'], ['5c', '5d', 'Oc'])
    """
    return list(_cards_in(text))


def _cards_in(text: str) -> tuple[str, ...]:
    """:func:`_cards_of` as a tuple, kept for the texts met (a few thousand at most)."""
    known = _CARDS.get(text)
    if known is not None:
        return known
    words = text.split()
    if words[0] == "claim":
        words = words[2:]
    elif words[0] == "add":
        words = words[1:2]
    else:
        words = words[1:]
    found = tuple([WILD if w.startswith("Oc") else w for w in words])
    if len(_CARDS) < _PARSED_MAX:
        _CARDS[text] = found
    return found


#: the cards of the action texts met so far
_CARDS: dict[str, tuple[str, ...]] = {}


class GrailMahjongHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    # -- the position ---------------------------------------------------------------------
    @cython.locals(seen=bytearray, x=cython.Py_ssize_t)
    def _setup(self, decision: Decision) -> None:
        view = decision.view
        self.view = view
        self.seat = decision.seat
        self.hand: list[str] = list(view["hand"])
        self.melds: list[dict[str, Any]] = view["melds"][self.seat]
        self.k = _TOP_NUMBER[view["players"]]
        # what I have seen, read straight into a bitmap of packed cards (:data:`_SLOT`):
        # one pass over the view's codes, no set of strings rebuilt at every decision
        # (plain loops: compiled, generator expressions cost a fifth of a decision)
        seen = bytearray(_SEEN_SIZE)
        slot = _SLOT.get
        other = _OTHER_SLOT
        for c in self.hand:
            seen[slot(c, other)] = 1
        meld_slot = _MELD_SLOT.get
        for ms in view["melds"]:
            for m in ms:
                for t in m["cards"]:
                    x = meld_slot(t, -1)
                    seen[x if x >= 0 else _meld_slot(t)] = 1
        for d in view["discards"]:
            seen[slot(d["card"], other)] = 1
        for a in view["areas"]:
            for c in a:
                seen[slot(c, other)] = 1
        self._seen = seen
        # the hands valued are all part of mine, so I see every card of them
        self._wild_out = not seen[_WILD_SLOT]
        self._rows: list[tuple[str, tuple[str, int] | None, list[tuple[str, float]]]] | None
        self._rows = None
        self.doubled = bool(view["areas"][self.seat]) or LUCK in self.hand
        others = []
        for s in range(view["players"]):
            if s != self.seat:
                sc = _meld_score(view["melds"][s])
                others.append(sc * 2 if view["areas"][s] else sc)
        self.best_other = max(others)

    def _mine(self, extra: int = 0) -> int:
        """My meld score now (doubled with Lc in my area), plus ``extra`` raw points."""
        sc = _meld_score(self.melds) + extra
        return sc * 2 if self.view["areas"][self.seat] else sc

    def _worth(self, hand: list[str], points: int, melds: list[dict[str, Any]]) -> float:
        mult = 2 if self.doubled else 1
        ext = _extenders(melds, self.k)
        return PTS * mult * points - PROG * len(hand) + self._structure(hand, ext)

    @cython.locals(total=cython.double, worth=cython.double)
    def _structure(self, hand: list[str], ext: set[tuple[str, int] | int]) -> float:
        """:func:`structure` of ``hand`` against what I have seen, where ``hand`` is my
        hand less some cards, in the same order (the worth of every two cards of my
        hand is found once a decision, and added up in the order it would be)."""
        rows = self._rows
        if rows is None:
            rows = self._rows = self._pair_rows()
        total = 0.0
        if len(hand) == len(self.hand):  # all of it (the same sums, in the same order)
            for ci, pi, pairs in rows:
                if ci == WILD:
                    total += WILD_VALUE
                    continue
                if pi is None:
                    continue
                if ext and (pi[1] in ext or pi in ext):
                    total += EXTEND
                for _, worth in pairs:
                    total += worth
            return total
        keep = set(hand)
        for ci, pi, pairs in rows:
            if ci not in keep:
                continue
            if ci == WILD:
                total += WILD_VALUE
                continue
            if pi is None:
                continue
            if ext and (pi[1] in ext or pi in ext):
                total += EXTEND
            for cj, worth in pairs:
                if cj in keep:
                    total += worth
        return total

    @cython.locals(
        i=cython.Py_ssize_t,
        j=cython.Py_ssize_t,
        a=cython.Py_ssize_t,
        b=cython.Py_ssize_t,
        n=cython.Py_ssize_t,
        na=cython.Py_ssize_t,
        nb=cython.Py_ssize_t,
        x=cython.Py_ssize_t,
        lo=cython.Py_ssize_t,
        hi=cython.Py_ssize_t,
        worth=cython.double,
        wild_out=cython.bint,
        live=cython.bint,
        hand=list,
        packed=list,
        seen=bytearray,
    )
    def _pair_rows(self) -> list[tuple[str, tuple[str, int] | None, list[tuple[str, float]]]]:
        """Per card of my hand: its parse and what it is worth with each later card
        (those worth something only).  The cards are packed ints here (:data:`_PACKED`)
        and what I have seen a bitmap of them: :func:`_pair_worth` of every two cards of
        the hand, without strings or calls, in loops Cython compiles to C
        (``xtarot._compiled``).  With the wild unseen every pair, run and gap is live,
        so the bitmap is read only when it is seen."""
        hand = self.hand
        n = len(hand)
        packed = [_PACKED.get(c, -1) for c in hand]
        seen = self._seen
        wild_out = self._wild_out
        rows = []
        for i in range(n):
            ci = hand[i]
            a = packed[i]
            pairs = []
            if a >= 0:  # a number card (the wild, Rc and Lc are not)
                na = a & 31
                for j in range(i + 1, n):
                    b = packed[j]
                    if b < 0:
                        continue
                    nb = b & 31
                    if na == nb:  # a pair: live while a card of its number is unseen
                        live = wild_out
                        if not live:
                            for x in range(na, _PACKED_SIZE, 32):
                                if not seen[x] and x != a and x != b:
                                    live = True
                                    break
                        worth = PAIR if live else PAIR / 4
                    elif a - na == b - nb and -2 <= na - nb <= 2:  # a run or a gap, one suit
                        lo = na if na < nb else nb
                        hi = na + nb - lo
                        x = a - na  # the suit's first slot
                        if hi - lo == 1:
                            live = (
                                wild_out
                                or (lo - 1 >= 1 and not seen[x + lo - 1])
                                or not seen[x + hi + 1]
                            )
                            worth = ADJ if live else ADJ / 4
                        else:
                            live = wild_out or not seen[x + lo + 1]
                            worth = GAP if live else GAP / 4
                    else:
                        continue
                    pairs.append((hand[j], worth))
            pi = _PARSED.get(ci, _UNKNOWN)
            rows.append((ci, parse(ci) if pi is _UNKNOWN else pi, pairs))
        return rows

    @staticmethod
    def _without(hand: list[str], cards: Iterable[str]) -> list[str]:
        out = list(hand)
        for c in cards:
            out.remove(c)
        return out

    #: optional claim model (``xtarot.adapters.value_grail.ClaimModel`` or anything with
    #: ``players``, ``margin`` and ``answer_values(view, answers) -> {answer: expected
    #: win share}``): see :meth:`_answer_by_model`
    value_model: Any = None

    def act(self, decision: Decision) -> Action:
        self._setup(decision)
        legal = {a.text: a for a in decision.legal}
        if self.view["phase"] == "claim":
            action = self._claim(legal)
            if self.value_model is not None:
                return self._answer_by_model(legal, action)
            return action
        return self._turn(legal)

    def shortlist(self, decision: Decision, k: int = SHORTLIST) -> list[str]:
        """The moves worth a search's time, by this strategy's own worth: in a turn the
        ``k`` melds that raise the worth most and the ``k`` discards that lose least,
        with ``luck`` and the discard of ``Rc`` when legal; in a claim every answer (they
        are few).  The search then spends its play-outs on these instead of on every
        legal move (discarding the wild, breaking a pair for nothing)."""
        self._setup(decision)
        texts = [a.text for a in decision.legal]
        if self.view["phase"] == "claim":
            return texts
        now = self._worth(self.hand, _meld_score(self.melds), self.melds)
        melds = [
            (self._worth(*self._after_meld(t)) - now, t)
            for t in texts
            if t.startswith(("pon ", "chi ", "add "))
        ]
        melds.sort(key=lambda x: -x[0])
        discards = sorted(self._discard_losses(texts), key=lambda x: x[0])
        out = [t for _, t in melds[:k]] + [f"discard {c}" for _, c in discards[:k]]
        out += [t for t in ("luck", f"discard {REST}") if t in texts]
        return out

    # -- my turn ----------------------------------------------------------------------------
    def _after_meld(self, text: str) -> tuple[list[str], int, list[dict[str, Any]]]:
        """Hand, raw meld points and melds after a meld or add from the hand."""
        words = text.split()
        hand = self._without(self.hand, _cards_in(text))
        melds = [dict(m) for m in self.melds]
        if words[0] == "add":
            i = int(words[2])
            melds[i] = {**melds[i], "cards": [*melds[i]["cards"], words[1]]}
        else:
            melds.append({"kind": words[0], "cards": words[1:]})
        return hand, _meld_score(melds), melds

    def _turn(self, legal: dict[str, Action]) -> Action:
        n = len(self.hand)
        for text, a in legal.items():
            if text == _DISCARD_REST:
                continue
            if len(_cards_in(text)) == n or (text == "luck" and n == 1):
                return self._say(
                    a,
                    f"{text} empties my hand: agari wins the hand whatever the scores",
                    f"{text}で手札が尽きる：点数に関係なくあがりで勝ち",
                )
        now = self._worth(self.hand, _meld_score(self.melds), self.melds)
        stock_empty = self.view["stock_count"] == 0
        best: tuple[float, str] | None = None
        for text in legal:
            if not text.startswith(("pon ", "chi ", "add ")):
                continue
            hand, points, melds = self._after_meld(text)
            if text.startswith("add ") and stock_empty:
                meld = self.melds[int(text.split()[2])]
                if meld["kind"] == "pon":
                    mine = points * (2 if self.view["areas"][self.seat] else 1)
                    if mine > self.best_other:
                        return self._say(
                            legal[text],
                            f"{text}: the replacement draw meets an empty stock and my "
                            f"{mine} points win the showdown",
                            f"{text}：補充で山札が尽きて勝負、自分の{mine}点で勝ち",
                        )
                    continue
            gain = self._worth(hand, points, melds) - now
            if best is None or gain > best[0]:
                best = (gain, text)
        if best is not None and best[0] > 0:
            gain, text = best
            pts = self._after_meld(text)[1] - _meld_score(self.melds)
            if WILD in _cards_in(text):
                why = ("the wild goes where it adds most", "ダーザの杯を最も価値が上がる所に使う")
            elif text.startswith("add"):
                why = ("growing a meld beats many small ones", "小さな面子より面子を伸ばす")
            else:
                why = ("a meld scores and empties the hand", "面子は得点になり手札も減る")
            return self._say(
                legal[text],
                f"meld: {text} (+{pts} meld points, worth {gain:+.1f}); {why[0]}",
                f"面子：{text}（面子点+{pts}、評価{gain:+.1f}）；{why[1]}",
            )
        mine = self._mine()
        rest = legal.get(_DISCARD_REST)
        if rest is not None and mine > self.best_other:
            return self._say(
                rest,
                f"I lead the meld points {mine} to {self.best_other}: discard Rc to end the "
                "hand in a showdown I win",
                f"面子点で{mine}対{self.best_other}とリード：聖杯の休息を捨てて勝負に勝つ",
            )
        if "luck" in legal:
            return self._say(
                legal["luck"],
                "play Lc now: it costs no more than a discard and doubles my score from here",
                "聖杯の幸運を今出す：捨て札1枚と同じ手間で以後の得点が倍",
            )
        return self._discard(legal, mine)

    def _discard_losses(self, texts: Iterable[str]) -> list[tuple[float, str]]:
        """``(loss, card)`` of every legal discard but ``Rc``, in the order given: how
        much the hand's structure loses without the card."""
        ext = _extenders(self.melds, self.k)
        base = self._structure(self.hand, ext)
        out = []
        for text in texts:
            if text.startswith("discard "):
                c = text[8:]
                if c != REST:
                    out.append((base - self._structure_less(c, ext), c))
        return out

    @cython.locals(total=cython.double, worth=cython.double)
    def _structure_less(self, card: str, ext: set[tuple[str, int] | int]) -> float:
        """:meth:`_structure` of my hand less ``card`` (the same sums, in the same order),
        without a copy of the hand and a set of it when the card is there once."""
        if self.hand.count(card) != 1:
            return self._structure(self._without(self.hand, [card]), ext)
        rows = self._rows
        if rows is None:
            rows = self._rows = self._pair_rows()
        total = 0.0
        for ci, pi, pairs in rows:
            if ci == card:
                continue
            if ci == WILD:
                total += WILD_VALUE
                continue
            if pi is None:
                continue
            if ext and (pi[1] in ext or pi in ext):
                total += EXTEND
            for cj, worth in pairs:
                if cj != card:
                    total += worth
        return total

    def _discard(self, legal: dict[str, Action], mine: int) -> Action:
        # the first of the least losses, as the legal moves come
        best = min(self._discard_losses(legal), key=lambda x: x[0], default=None)
        if best is None:
            return self._say(
                legal[f"discard {REST}"],
                f"only Rc is left to discard (meld points {mine} to {self.best_other})",
                f"捨てられるのは聖杯の休息だけ（面子点{mine}対{self.best_other}）",
            )
        loss, c = best
        if loss <= 0.01:
            why = (f"discard {c}: an isolated card", f"{c}を捨てる：孤立した札")
        else:
            why = (
                f"discard {c}: it helps my pairs and runs least (worth {loss:.2f})",
                f"{c}を捨てる：対子や順子への寄与が最も小さい（{loss:.2f}）",
            )
        if REST in self.hand:
            why = (
                why[0] + f"; keep Rc while not ahead ({mine} to {self.best_other})",
                why[1] + f"；リードするまで聖杯の休息は持つ（{mine}対{self.best_other}）",
            )
        return self._say(legal[f"discard {c}"], *why)

    # -- claims ------------------------------------------------------------------------------
    def _claim(self, legal: dict[str, Action]) -> Action:
        discard = self.view["claim"]["card"]
        points = _meld_score(self.melds)
        now = self._worth(self.hand, points, self.melds)
        best: tuple[tuple[bool, float], str] | None = None
        for text in legal:
            if text == "pass":
                continue
            own = _cards_of(text)
            if discard == WILD:
                own.remove(WILD)
            hand = self._without(self.hand, own)
            if not hand:
                return self._say(
                    legal[text],
                    f"{text} empties my hand: agari",
                    f"{text}で手札が尽きる：あがり",
                )
            kind = text.split()[1]
            melds = [*self.melds, {"kind": kind, "cards": self._meld_texts(text, discard)}]
            if REST in hand and self._mine(1) > self.best_other:
                return self._say(
                    legal[text],
                    f"{text} puts me ahead and gives me the turn: then Rc wins the showdown",
                    f"{text}でリードして手番を得る：聖杯の休息で勝負に勝つ",
                )
            gain = self._worth(hand, points + 1, melds) + PROG - now
            if kind == "pon":
                gain += PON_BONUS
            # a helpful pon comes before any chi
            key = (gain > 0 and kind == "pon", gain)
            if best is None or key > best[0]:
                best = (key, text)
        if best is not None and best[0][1] > 0:
            (_, gain), text = best
            return self._say(
                legal[text],
                f"claim: {text} melds at once and skips my draw (worth {gain:+.1f}); "
                "pon before chi",
                f"鳴き：{text}で即座に面子、ツモなしで手番（評価{gain:+.1f}）；チーよりポン",
            )
        return self._say(
            legal["pass"],
            f"pass on {discard}: no claim helps my hand",
            f"{discard}は見送り：手に役立つ鳴きがない",
        )

    def _answer_by_model(self, legal: dict[str, Action], chosen: Action) -> Action:
        """The claim model's answer instead of the heuristic's ``chosen`` one where the
        model expects it to win more than ``margin`` more of the hand's win share (a
        model of another player count is not used; an agari claim is always kept)."""
        model = self.value_model
        if getattr(model, "players", self.view["players"]) != self.view["players"]:
            return chosen
        if chosen.text != "pass" and len(self.hand) == 2:
            return chosen  # a claim takes two cards of mine: it empties my hand, agari
        if not any(t.startswith("claim") for t in legal):
            return chosen
        values = model.answer_values(self.view, list(legal))
        best = max(values, key=lambda t: values[t])
        gain = values[best] - values[chosen.text]
        if best == chosen.text or gain <= model.margin:
            return chosen
        return self._say(
            legal[best],
            f"the claim model expects {best} to win {values[best]:.0%} of the hand, "
            f"{chosen.text} only {values[chosen.text]:.0%}",
            f"鳴きモデルの予想：{best}で勝率{values[best]:.0%}、{chosen.text}では{values[chosen.text]:.0%}",
        )

    @staticmethod
    def _meld_texts(text: str, discard: str) -> list[str]:
        """The new meld's cards as the view would show them (for its extenders)."""
        words = text.split()[2:]
        if discard != WILD:
            words.append(discard)
        nat = [w for w in words if not w.startswith("Oc")]
        wild = [w for w in words if w.startswith("Oc")]
        if wild and "=" not in wild[0]:
            wild = []
        return nat + wild
