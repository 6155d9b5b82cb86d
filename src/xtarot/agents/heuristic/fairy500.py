"""A casual-good player of フェアリーファイブハンドレッド (Fairy Five Hundred).

Strategy, from the seat's view only (the rule tables of the game give the card
orders; nothing hidden is read):

1. **Auction (ビッド)**: count the tricks the hand should take in each trump suit
   (the four F, the trump J and its colour-mate J, high trumps, extra trump length,
   side kings, short side suits to ruff) and in no trump, add what the kitty and the
   partner(s) usually bring, keep a safety margin, and bid the most valuable contract
   it expects to make. A very low hand (no F, few high cards, no long suit) bids
   misère — open misère when it is very safe after the exchange, open hand misère
   when it is safe even without one; never ``double`` / ``crazy`` (an F in the
   playing hand nearly always takes a trick). The auction must strictly rise, so
   when nothing it expects to make beats the standing bid: pass (a pass is final).
2. **Partner call (副官)**: the strongest card it does not hold — the cups F, the
   other F, the trump J and colour-mate J, then the trump K (in no trump: the F, then
   the K of its long suits).
3. **Kitty discards (キティ)**: keep trumps and side kings; void the shortest side
   suits, low cards first. For misère: shed the F and the highest cards.
4. **Play**: the side that wants tricks (declarer with its partners; each defender
   for itself; the ten-per-trick game) wins cheaply — the lowest sure winner, the
   lowest card that beats the table when last, or the strongest winner otherwise;
   it never overtakes a partner who is winning, and sheds its least useful card when
   it cannot win. The declarer leads its top trumps while the others may hold
   trumps. Misère and Ramsch (ラムシュ) players duck: the highest card that stays
   under the winner, never an F off-suit that would win; when every card wins, the
   lowest if someone still plays after (it may be beaten), the most dangerous if last;
   lead the lowest card of a suit where others still hold higher cards. Misère
   defenders keep the declarer winning: low before it, under it after it.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from xtarot.agents.base import Decision, decision_for
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import UNIVERSE, Card, card
from xtarot.engine import Action, Game
from xtarot.games.fairy500.play import MATE, MODES, SUIT_OF, key_table
from xtarot.games.fairy500.setup import CARD_OF, bid_value, card_set, misere_value

try:  # compiled (setup.py): C ints for the play's loops; as Python: no-op decorators
    import cython
except ImportError:
    from xtarot import _cython as cython  # type: ignore[no-redef]

__all__ = [
    "DENOMINATIONS",
    "MISERE_RULES",
    "Fairy500Heuristic",
    "bid_inputs",
    "contract_playouts",
    "misere_danger",
    "trick_estimate",
]

_SUITS = ("c", "d", "s", "w")
_FAIRY_ORDER = ("c", "d", "w", "s")
#: A partner brings about this many tricks (no partner at 3 players).
_PARTNER_TRICKS = {3: 0.0, 4: 1.5, 5: 1.5, 6: 1.5, 7: 2.2, 8: 2.2}
_KITTY_TRICKS = 0.6
_MARGIN = 0.3
#: Small decks (3-4 players) are dense with high cards: misère needs a lower hand.
_MISERE_SCALE = {3: 0.25, 4: 0.35, 5: 0.6, 6: 0.8, 7: 1.0, 8: 1.0}


@cache
def _plain_frac(c: Card, players: int) -> float:
    """Where ``c`` sits in its printed suit of this count's set: 0 lowest .. 1 top (K)."""
    suit = [x for x in card_set(players) if x.suit == c.suit and x.rank != "F"]
    keys = key_table("misere", c.suit or "")
    order = sorted(suit, key=lambda x: keys[x])
    return order.index(c) / max(1, len(order) - 1)


def trick_estimate(hand: list[Card], denomination: str, players: int) -> float:
    """Tricks this hand alone should take in a trump suit (or ``"nt"``).

    >>> strong = [card(c) for c in "Fc Fd Jc Jd Kc Qc 10c 9c Kd Ks".split()]
    >>> trick_estimate(strong, "c", 4) > trick_estimate(strong, "s", 4)
    True
    """
    return _estimate([c.index for c in hand], _MODE_ID[denomination], players)


# The auction's estimates work on card indices and per-card tables, as the play does
# (below); every float is summed in the order the Card-based version summed it, so the
# estimates are the same to the last bit.
@cython.locals(
    cards=list,
    m=cython.Py_ssize_t,
    players=cython.Py_ssize_t,
    i=cython.Py_ssize_t,
    s=cython.Py_ssize_t,
    r=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
    low=cython.Py_ssize_t,
    spare=cython.Py_ssize_t,
    fairies=cython.Py_ssize_t,
    est=cython.double,
    side_factor=cython.double,
    value=cython.double,
    suit=list,
    tvalue=list,
    counts=list,
    kings=list,
    queens=list,
    knights=list,
)
def _estimate(cards: list[int], m: int, players: int) -> float:
    """:func:`trick_estimate` of a hand given by card indices, in mode ``m`` (a trump
    suit's id, or the id of ``"nt"``)."""
    side_factor = max(0.5, 1.0 - 0.06 * (players - 3))
    est = 0.0
    suit = _SUIT[m]
    # per effective suit: the cards, and whether a K, Q or C is among them
    counts = [0, 0, 0, 0, 0]
    kings = [False] * 5
    queens = [False] * 5
    knights = [False] * 5
    for i in cards:
        s = suit[i]
        counts[s] += 1
        r = _RANK_ID[i]
        if r == _K:
            kings[s] = True
        elif r == _Q:
            queens[s] = True
        elif r == _C:
            knights[s] = True
    if m == _NT:
        fairies = counts[_F]  # in no trump every F (and only they) is of suit F
        est += 0.95 * fairies
        for s in range(4):
            n = counts[s]
            est += side_factor * (
                0.85 * kings[s] + 0.45 * (queens[s] and n >= 2) + 0.2 * (knights[s] and n >= 3)
            )
            est += 0.35 * max(0, n - 4)
        return est
    tvalue = _TRUMP_VALUE[m]
    low = 0
    for i in cards:
        if suit[i] == m:
            value = tvalue[i]
            if value < 0.0:
                low += 1
            else:
                est += value
    n = counts[m]
    est += 0.3 * low + 0.3 * max(0, n - 4)
    spare = max(0, n - 3)
    for s in range(4):
        if s == m:
            continue
        est += side_factor * (0.8 * kings[s] + 0.35 * (queens[s] and counts[s] >= 2))
        if counts[s] <= 1 and spare > 0:
            est += 0.4 if not counts[s] else 0.2
            spare -= 1
    return est


def misere_danger(hand: list[Card], players: int, shed: int) -> float:
    """How likely this hand takes a trick in misère after shedding its ``shed`` worst cards
    (0 = safe); every F counts heavily, high cards by how high they sit in their suit."""
    return sum(_dangers([c.index for c in hand], players)[shed:])


@cython.locals(
    cards=list,
    players=cython.Py_ssize_t,
    i=cython.Py_ssize_t,
    s=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
    danger=cython.double,
    suit=list,
    lengths=list,
    base=list,
    frac=list,
    out=list,
)
def _dangers(cards: list[int], players: int) -> list[float]:
    """:func:`_card_danger` of every card of the hand, greatest first."""
    suit = _PRINTED_SUIT
    lengths = [0, 0, 0, 0]  # per printed suit, its cards but the F
    for i in cards:
        if not _IS_F[i]:
            lengths[suit[i]] += 1
    base = _DANGER_BASE[players]
    frac = _FRAC[players]
    out = []
    for i in cards:
        if _IS_F[i]:
            out.append(3.0)
            continue
        danger = base[i]
        n = lengths[suit[i]]
        if n >= 4:
            danger += 0.1 * (n - 3) * frac[i]  # the others run out of a long suit first
        out.append(danger)
    out.sort(reverse=True)
    return out


def _card_danger(c: Card, hand: list[Card], players: int) -> float:
    if c.rank == "F":
        return 3.0
    frac = _plain_frac(c, players)
    length = sum(1 for x in hand if x.suit == c.suit and x.rank != "F")
    danger = max(0.0, frac - 0.25) ** 2 * 2.5
    if length >= 4:
        danger += 0.1 * (length - 3) * frac  # the others run out of a long suit first
    return danger


#: the misère bids the auction makes: (kind, danger limit, whether the danger is the
#: whole hand's (open hand: no kitty exchange) rather than the hand's after shedding
#: three cards); a kind is bid when the scaled danger (:func:`bid_inputs`) is below its
#: limit, and among those, as among the trick contracts, the most valuable legal one
MISERE_RULES: Final = (
    ("misere", 0.35, False),
    ("open-misere", 0.15, False),
    ("open-hand-misere", 0.15, True),
)


def bid_inputs(cards: list[int], players: int) -> tuple[list[float], float, float]:
    """What the auction reads off a hand of card indices: per trump of
    :data:`DENOMINATIONS` the tricks it counts on with the kitty and a partner (it bids
    ``int(est - margin)`` of them, at most 10), and the misère danger after shedding
    three cards and of the whole hand, each divided by this count's misère scale.  The
    heuristic's bidding rule and the auction evidence of the search bots
    (:mod:`xtarot.agents.auction_evidence`) both read a hand through this."""
    extra = _PARTNER_TRICKS[players] + _KITTY_TRICKS
    ests = [_estimate(cards, _MODE_ID[d], players) + extra for d in DENOMINATIONS]
    dangers = _dangers(cards, players)
    scale = _MISERE_SCALE[players]
    danger_ex = sum(dangers[3:])  # misere_danger(hand, n, 3)
    danger_hand = sum(dangers)
    return ests, danger_ex / scale, danger_hand / scale


class Fairy500Heuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def __init__(
        self, seed: int | None = None, *, value_model: Any = None, value_margin: float = 30.0
    ) -> None:
        super().__init__(seed)
        self._by_card: dict[int, Action] = {}
        #: optional hand-value model (``xtarot.adapters.value.ValueModel`` or anything
        #: with ``contract_values(view) -> {bid text: expected declarer score}``): when
        #: set, the auction bids the legal contract of highest expected score, if that
        #: exceeds ``value_margin`` points, instead of counting tricks (docs/agents.md,
        #: *The hand-value model*)
        self.value_model = value_model
        self.value_margin = float(value_margin)

    def act(self, decision: Decision) -> Action:
        view = decision.view
        phase = view["phase"]
        if phase == "play":
            # the legal plays by card index, in the order they come
            by_card = self._by_card = {CARD_OF[a.id].index: a for a in decision.legal}
            return self._play(view, by_card)
        legal = {a.text: a for a in decision.legal}
        if phase == "auction":
            return self._bid(view, legal)
        if phase == "call":
            return self._call(view, legal)
        return self._discard(view, legal)

    # -- auction ------------------------------------------------------------------------
    def _bid(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        model = self.value_model
        if model is not None and getattr(model, "players", view["players"]) == view["players"]:
            return self._bid_by_model(view, legal)  # (a model of another count: not used)
        n = view["players"]
        index = _INDEX
        ests, danger_ex, danger_hand = bid_inputs([index[c] for c in view["hand"]], n)
        best: tuple[int, str, float] | None = None
        for d, est in zip(DENOMINATIONS, ests, strict=True):
            tricks = min(10, int(est - _MARGIN))
            if tricks < 6:
                continue
            text = f"bid {tricks}{d}"
            value = bid_value(tricks, d)
            if text in legal and (best is None or value > best[0]):
                best = (value, text, est)
        for kind, limit, whole in MISERE_RULES:
            if (danger_hand if whole else danger_ex) >= limit:
                continue
            value, text = misere_value(kind, "", n), f"bid {kind}"
            if text in legal and (best is None or value > best[0]):
                best = (value, text, -danger_ex)
        if best is not None:
            value, text, est = best
            if "misere" in text:
                return self._say(
                    legal[text],
                    f"a very low hand (misère danger {danger_ex:.2f}): {text[4:]} "
                    f"is the best contract I expect to make ({value})",
                    f"非常に弱い手札（危険度{danger_ex:.2f}）：{text[4:]}が"
                    f"達成できる最高の契約（{value}点）",
                )
            return self._say(
                legal[text],
                f"I count about {est:.1f} tricks with kitty and partner: {text[4:]} is the "
                f"best contract I expect to make ({value}) with a safety margin",
                f"キティと副官を含め約{est:.1f}トリック：安全幅を取って{text[4:]}"
                f"（{value}点）が達成できる最高の契約",
            )
        return self._say(
            legal["pass"],
            "no contract I expect to make beats the standing bid: pass",
            "今の最高ビッドを上回って達成できる契約がないのでパス",
        )

    def _bid_by_model(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        """The legal trick contract or plain misère of highest expected declarer score
        by the hand-value model; pass when none is expected to gain more than
        ``value_margin`` (what defending usually brings)."""
        values = self.value_model.contract_values(view)
        choices = [(v, text) for text, v in values.items() if text in legal]
        if choices:
            value, text = max(choices)
            if value > self.value_margin:
                return self._say(
                    legal[text],
                    f"the hand-value model expects {value:+.0f} points from {text[4:]}, "
                    "the most of any contract I may bid",
                    f"手札評価モデルの期待値：{text[4:]}で{value:+.0f}点（ビッドできる中で最高）",
                )
        return self._say(
            legal["pass"],
            f"the hand-value model expects no contract above the standing bid to gain more "
            f"than {self.value_margin:.0f} points: pass",
            f"手札評価モデルでは今の最高ビッドを上回る契約の期待値が{self.value_margin:.0f}点以下なのでパス",
        )

    # -- partner call -------------------------------------------------------------------
    def _call(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        trump = view["contract"]["trump"]
        held = set(view["hand"]) | set(view.get("kitty") or [])
        wanted = [f"F{s}" for s in _FAIRY_ORDER]
        if trump is not None:
            wanted += [f"J{trump}", f"J{MATE[trump]}", f"K{trump}", f"Q{trump}", f"C{trump}"]
        hand = [card(c) for c in view["hand"]]
        by_length = sorted(_SUITS, key=lambda s: -sum(1 for c in hand if c.suit == s))
        wanted += [f"K{s}" for s in by_length] + [f"Q{s}" for s in by_length]
        for code in wanted:
            if code not in held and f"call {code}" in legal:
                return self._say(
                    legal[f"call {code}"],
                    f"call the strongest card I do not hold: {code}",
                    f"自分が持っていない最強の札{code}を指名",
                )
        text = next(iter(legal))
        return self._say(
            legal[text], "no strong card left to call: the first legal call", "最初の合法な指名"
        )

    # -- kitty discards -----------------------------------------------------------------
    def _discard(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        contract = view["contract"]
        n = view["players"]
        hand = [card(c) for c in view["hand"]]
        options = [card(t.split(" ", 1)[1]) for t in legal]
        if contract["kind"] == "misere":
            pick = max(options, key=lambda c: _card_danger(c, hand, n))
            return self._say(
                legal[f"discard {pick.code}"],
                f"misère: discard my most dangerous card {pick.code}",
                f"ミゼール：一番危険な札{pick.code}を捨てる",
            )
        mode = contract["order"]
        suit_of = SUIT_OF[mode]
        trump = contract["trump"]

        def keep_value(c: Card) -> tuple[int, int, int]:
            s = suit_of[c]
            if s == trump or s == "F":
                return (3, 0, 0)
            length = sum(1 for x in hand if suit_of[x] == s)
            strength = key_table(mode, s)[c]
            if c.rank == "K":
                return (2, 0, strength)
            return (1, length, strength)

        pick = min(options, key=keep_value)
        return self._say(
            legal[f"discard {pick.code}"],
            "keep trumps and kings, void short side suits",
            "切札とキングを残し短いスートを空にする",
        )

    # -- play ---------------------------------------------------------------------------
    # The play is most of a hand's decisions, so it works on card indices (``Card.index``)
    # and the int tables built at import (:data:`_KEYS`, :data:`_SUIT`, :data:`_OWN`)
    # rather than on cards, codes and the game's dicts: the same choices (ties go to the
    # first card in the order the legal moves come, as ``min`` and ``max`` break them),
    # at a fraction of the cost, and loops that Cython turns into C when the module is
    # compiled (``xtarot._compiled``).
    @cython.locals(
        seat=cython.Py_ssize_t,
        n=cython.Py_ssize_t,
        m=cython.Py_ssize_t,
        decl=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        s=cython.Py_ssize_t,
        led=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        win_seat=cython.Py_ssize_t,
        later=cython.Py_ssize_t,
        top_out=cython.Py_ssize_t,
        low=cython.Py_ssize_t,
        high=cython.Py_ssize_t,
        sure=cython.Py_ssize_t,
        seen=bytearray,
        keys=list,
        suit=list,
        options=list,
        hand=list,
        outstanding=list,
        play_seats=list,
        play_cards=list,
    )
    def _play(self, view: dict[str, Any], by_card: dict[int, Action]) -> Action:
        contract = view["contract"]
        seat = view["seat"]
        n = view["players"]
        mode: str = contract["order"]
        kind: str = contract["kind"]
        m = _MODE_ID[mode]
        decl = -1 if contract["declarer"] is None else contract["declarer"]
        options = list(by_card)
        index = _INDEX
        # what is seen, by card: the tricks, the table, my hand, my kitty discards
        seen = bytearray(_NCARDS)
        for t in view["tricks"]:
            for _, code in t["cards"]:
                seen[index[code]] = 1
        play_seats: list[int] = []
        play_cards: list[int] = []
        trick = view["trick"]
        if trick is not None:
            for s, code in trick["cards"]:
                i = index[code]
                seen[i] = 1
                play_seats.append(s)
                play_cards.append(i)
        hand = []
        for code in view["hand"]:
            i = index[code]
            seen[i] = 1
            hand.append(i)
        for code in view.get("discards") or ():
            seen[index[code]] = 1
        outstanding = [i for i in _DECK[n] if not seen[i]]
        suit = _SUIT[m]
        nplays = len(play_cards)

        if kind == "ramsch" or (kind == "misere" and seat == decl):
            return self._duck(m, options, play_cards, outstanding, n - 1 - nplays)
        if kind == "misere":
            return self._feed(m, options, play_seats, play_cards, decl)
        friends: set[int] = {seat}
        if kind == "contract":
            if seat == decl:
                friends |= set(view["partners"])
            elif view["is_partner"]:
                friends.add(decl)
        if not nplays:
            return self._lead(m, options, outstanding, hand, seat == decl)
        led = suit[play_cards[0]]
        keys = _KEYS[m * 5 + led]
        # the play winning so far: the first of the strongest
        win_seat = play_seats[0]
        best = keys[play_cards[0]]
        for i in range(1, nplays):
            k = keys[play_cards[i]]
            if k > best:
                best, win_seat = k, play_seats[i]
        later = n - 1 - nplays
        top_out = _top(keys, outstanding)
        if win_seat in friends and win_seat != seat and (top_out <= best or later == 0):
            return self._shed(
                m,
                options,
                hand,
                "my partner is winning the trick: play low",
                "味方が勝っているので低い札を出す",
            )
        # the cards that beat the table (their keys are distinct): the cheapest, the
        # strongest, and the cheapest that no unseen card beats
        low = high = sure = -1
        for i in options:
            k = keys[i]
            if k > best:
                if low < 0 or k < keys[low]:
                    low = i
                if high < 0 or k > keys[high]:
                    high = i
                if k > top_out and (sure < 0 or k < keys[sure]):
                    sure = i
        if low >= 0:
            if later == 0:
                pick = low
                why = (
                    "last to play: win with the cheapest card that beats the table",
                    "最後の手番：場を上回る最小の札で勝つ",
                )
            elif sure >= 0:
                pick = sure
                why = (
                    "win with my cheapest card that nobody can beat",
                    "誰にも負けない最小の札で勝つ",
                )
            else:
                pick = high
                why = ("try to win with my strongest card", "最強の札で勝ちを狙う")
            return self._say(by_card[pick], *why)
        return self._shed(
            m,
            options,
            hand,
            "cannot win this trick: shed my least useful card",
            "このトリックは勝てないので一番不要な札を捨てる",
        )

    @cython.locals(
        m=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        x=cython.Py_ssize_t,
        s=cython.Py_ssize_t,
        pick=cython.Py_ssize_t,
        worth=cython.Py_ssize_t,
        least=cython.Py_ssize_t,
        suit=list,
        own=list,
        options=list,
        hand=list,
    )
    def _shed(self, m: int, options: list[int], hand: list[int], en: str, ja: str) -> Action:
        """The least useful card: not a trump, weak in its suit, from a short suit
        (the first of the least, as ``min`` on ``(trumpish, strength, length)``)."""
        suit = _SUIT[m]
        own = _OWN[m]
        trump = _TRUMP_ID[m]
        pick = -1
        least = 0
        for i in options:
            s = suit[i]
            worth = (1 if s in (trump, _F) else 0) * 1_000_000 + (own[i] + 10) * 100
            for x in hand:
                if suit[x] == s:
                    worth += 1
            if pick < 0 or worth < least:
                pick, least = i, worth
        return self._say(self._by_card[pick], en, ja)

    @cython.locals(
        m=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        x=cython.Py_ssize_t,
        s=cython.Py_ssize_t,
        trump=cython.Py_ssize_t,
        pick=cython.Py_ssize_t,
        length=cython.Py_ssize_t,
        most=cython.Py_ssize_t,
        ntrumps=cython.Py_ssize_t,
        suit=list,
        own=list,
        keys=list,
        options=list,
        hand=list,
        outstanding=list,
        tops=list,
    )
    def _lead(
        self,
        m: int,
        options: list[int],
        outstanding: list[int],
        hand: list[int],
        declarer: bool,
    ) -> Action:
        suit = _SUIT[m]
        own = _OWN[m]
        trump = _TRUMP_ID[m]
        # per effective suit: the strongest unseen card were that suit led (-2: none);
        # a card is *top* when it beats that
        tops = [_top(_KEYS[m * 5 + s], outstanding) for s in range(5)]
        if trump >= 0 and declarer:
            keys = _KEYS[m * 5 + trump]
            pick = -1
            for i in options:
                if suit[i] == trump and (pick < 0 or keys[i] > keys[pick]):
                    pick = i
            out_trumps = False
            for x in outstanding:
                if suit[x] == trump:
                    out_trumps = True
                    break
            if pick >= 0 and out_trumps and own[pick] > tops[trump]:
                return self._play_card(
                    pick,
                    "declarer: draw trumps with my top trump",
                    "デクレアラー：最強の切札で切札を引き出す",
                )
        # a card nobody can beat, off trumps, from my longest suit (the first of them)
        pick, most = -1, -1
        for i in options:
            s = suit[i]
            if s != trump and own[i] > tops[s]:
                length = 0
                for x in hand:
                    if suit[x] == s:
                        length += 1
                if length > most:
                    pick, most = i, length
        if pick >= 0:
            return self._play_card(
                pick, "lead a card nobody can beat", "誰にも負けない札をリードする"
            )
        if declarer and trump >= 0:
            keys = _KEYS[m * 5 + trump]
            pick, ntrumps = -1, 0
            for i in options:
                if suit[i] == trump:
                    ntrumps += 1
                    if pick < 0 or keys[i] < keys[pick]:
                        pick = i
            if ntrumps and ntrumps * 2 >= len(options):
                return self._play_card(
                    pick,
                    "declarer with long trumps: lead a low trump to draw trumps",
                    "切札が長いデクレアラー：低い切札をリードして切札を引き出す",
                )
        side = [i for i in options if suit[i] != trump] or options
        # the first of the greatest (length, or minus length for a defender; then the
        # weakest in its suit)
        pick, most = -1, 0
        for i in side:
            s = suit[i]
            length = 0
            for x in hand:
                if suit[x] == s:
                    length += 1
            x = (length if declarer else -length) * 10_000 - own[i]
            if pick < 0 or x > most:
                pick, most = i, x
        return self._play_card(
            pick,
            "no sure winner: lead low from my longest side suit"
            if declarer
            else "no sure winner: lead low from my shortest side suit to make a void",
            "確実な勝ち札がない：一番長いスートの低い札をリード"
            if declarer
            else "確実な勝ち札がない：短いスートの低い札をリードして空にする",
        )

    def _play_card(self, i: int, en: str, ja: str) -> Action:
        return self._say(self._by_card[i], en, ja)

    @cython.locals(
        m=cython.Py_ssize_t,
        later=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        x=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        above=cython.Py_ssize_t,
        pick=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        rank=cython.Py_ssize_t,
        top_rank=cython.Py_ssize_t,
        pick_above=cython.Py_ssize_t,
        suit=list,
        own=list,
        keys=list,
        options=list,
        plays=list,
        outstanding=list,
    )
    def _duck(
        self, m: int, options: list[int], plays: list[int], outstanding: list[int], later: int
    ) -> Action:
        suit = _SUIT[m]
        own = _OWN[m]
        if not plays:
            # the first of the greatest (some unseen card beats it and it is no F, the
            # number of unseen cards that beat it, its weakness)
            pick, pick_above, top_rank = -1, 0, 0
            for i in options:
                k = own[i]
                keys = _KEYS[m * 5 + suit[i]]
                above = 0
                for x in outstanding:
                    if keys[x] > k:
                        above += 1
                rank = (1 if (above > 0 and not _IS_F[i]) else 0) * 10_000_000
                rank += above * 10_000 + (5_000 - k)
                if pick < 0 or rank > top_rank:
                    pick, pick_above, top_rank = i, above, rank
            code = _CODES[pick]
            return self._play_card(
                pick,
                f"take no trick: lead {code}, {pick_above} unseen cards can beat it",
                f"トリックを取らない：{code}をリード（上回る未公開札{pick_above}枚）",
            )
        keys = _KEYS[m * 5 + suit[plays[0]]]
        best = keys[plays[0]]
        for x in plays:
            if keys[x] > best:
                best = keys[x]
        pick, top_rank = -1, 0
        for i in options:
            if keys[i] < best:
                rank = (10_000 if _IS_F[i] else 0) + own[i]
                if pick < 0 or rank > top_rank:
                    pick, top_rank = i, rank
        if pick >= 0:
            return self._play_card(
                pick,
                "take no trick: the most dangerous card that stays under the winner",
                "トリックを取らない：勝ち札の下に収まる一番危険な札を出す",
            )
        if later:
            pick = _first_min(keys, options)
            return self._play_card(
                pick,
                "every card wins for now: play my lowest so a later player may beat it",
                "どの札でも今は勝ってしまう：後の人に超えてもらえるよう最低の札を出す",
            )
        pick = _first_max(own, options)
        return self._play_card(
            pick,
            "last to play and every card wins: take it with my most dangerous card",
            "最後の手番でどの札でも勝ってしまう：一番危険な札で取る",
        )

    @cython.locals(
        m=cython.Py_ssize_t,
        decl=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        j=cython.Py_ssize_t,
        pick=cython.Py_ssize_t,
        best=cython.Py_ssize_t,
        rank=cython.Py_ssize_t,
        top_rank=cython.Py_ssize_t,
        declared=cython.Py_ssize_t,
        suit=list,
        own=list,
        keys=list,
        options=list,
        seats=list,
        plays=list,
    )
    def _feed(
        self, m: int, options: list[int], seats: list[int], plays: list[int], decl: int
    ) -> Action:
        suit = _SUIT[m]
        own = _OWN[m]
        if not plays:
            pick, top_rank = -1, 0
            for i in options:
                rank = (10_000 if _IS_F[i] else 0) + own[i]
                if pick < 0 or rank < top_rank:
                    pick, top_rank = i, rank
            return self._play_card(
                pick,
                "misère defender: lead low so the declarer cannot duck",
                "ミゼールの守り：デクレアラーがかわせないよう低い札をリード",
            )
        keys = _KEYS[m * 5 + suit[plays[0]]]
        declared = -1
        best = keys[plays[0]]
        for j in range(len(plays)):
            if keys[plays[j]] > best:
                best = keys[plays[j]]
            if declared < 0 and seats[j] == decl:
                declared = plays[j]
        if declared >= 0 and keys[declared] == best:
            pick, top_rank = -1, 0
            for i in options:
                if keys[i] < best and (pick < 0 or own[i] > top_rank):
                    pick, top_rank = i, own[i]
            if pick >= 0:
                return self._play_card(
                    pick,
                    "misère defender: stay under the declarer so it takes the trick",
                    "ミゼールの守り：デクレアラーの下に出してトリックを取らせる",
                )
        if declared < 0:
            pick = _first_min(keys, options)
            return self._play_card(
                pick,
                "misère defender: play low before the declarer",
                "ミゼールの守り：デクレアラーより前なので低く出す",
            )
        pick = _first_max(own, options)
        return self._play_card(
            pick,
            "misère defender: the declarer is safe here, shed a high card",
            "ミゼールの守り：このトリックは安全なので高い札を捨てる",
        )


@cython.locals(keys=list, cards=list, x=cython.Py_ssize_t, top=cython.Py_ssize_t)
def _top(keys: list[int], cards: list[int]) -> int:
    """The largest key among ``cards`` (-2 when there are none: below every key)."""
    top = -2
    for x in cards:
        if keys[x] > top:
            top = keys[x]
    return top


@cython.locals(keys=list, cards=list, x=cython.Py_ssize_t, pick=cython.Py_ssize_t)
def _first_min(keys: list[int], cards: list[int]) -> int:
    """The first of ``cards`` with the smallest key (as ``min``)."""
    pick = cards[0]
    for x in cards:
        if keys[x] < keys[pick]:
            pick = x
    return pick


@cython.locals(keys=list, cards=list, x=cython.Py_ssize_t, pick=cython.Py_ssize_t)
def _first_max(keys: list[int], cards: list[int]) -> int:
    """The first of ``cards`` with the largest key (as ``max``)."""
    pick = cards[0]
    for x in cards:
        if keys[x] > keys[pick]:
            pick = x
    return pick


# -- the play's tables, by card index (built once, at import) -----------------------------
_NCARDS: Final = len(UNIVERSE)
_MODE_ID: Final = {mode: i for i, mode in enumerate(MODES)}
#: effective suits as ints: the four suits in SUITS order, then the F of no trump
_SUIT_ID: Final = {"c": 0, "d": 1, "s": 2, "w": 3, "F": 4}
_F: Final = 4
#: mode id -> the trump suit's id (-1 in no trump and misère)
_TRUMP_ID: Final = [_SUIT_ID[mode] if mode in MATE else -1 for mode in MODES]
_INDEX: Final = {c.code: c.index for c in UNIVERSE}
_CODES: Final = [c.code for c in UNIVERSE]
_IS_F: Final = [c.rank == "F" for c in UNIVERSE]
#: mode id -> card index -> effective suit id (:data:`SUIT_OF`; -1: never dealt)
_SUIT: Final = [[-1] * _NCARDS for _ in MODES]
#: mode id * 5 + led suit id -> card index -> strength (:func:`key_table`; -1: cannot win)
_KEYS: Final = [[-1] * _NCARDS for _ in range(len(MODES) * 5)]
#: mode id -> card index -> strength when its own effective suit is led
_OWN: Final = [[-1] * _NCARDS for _ in MODES]
for _m, _mode in enumerate(MODES):
    for _c, _s in SUIT_OF[_mode].items():
        _SUIT[_m][_c.index] = _SUIT_ID[_s]
        _OWN[_m][_c.index] = key_table(_mode, _s)[_c]
    for _led, _l in _SUIT_ID.items():
        for _c, _k in key_table(_mode, _led).items():
            _KEYS[_m * 5 + _l][_c.index] = _k
#: players -> the indices of this count's cards, in deck order
_DECK: Final = {n: [c.index for c in card_set(n)] for n in range(3, 9)}
del _m, _mode, _c, _s, _led, _l, _k
_NT: Final = _MODE_ID["nt"]
_K, _Q, _C = 1, 2, 3
#: card index -> 1 for a K, 2 for a Q, 3 for a C, else 0
_RANK_ID: Final = [{"K": _K, "Q": _Q, "C": _C}.get(c.rank or "", 0) for c in UNIVERSE]
#: card index -> its printed suit's id (majors, which Fairy 500 never deals: 0)
_PRINTED_SUIT: Final = [_SUIT_ID.get(c.suit or "", 0) for c in UNIVERSE]
_HONOURS: Final = {"F": 0.95, "J": 0.8, "K": 0.6, "Q": 0.45}


def _trump_value(c: Card, trump: str) -> float:
    """What a card of the trump suit adds to :func:`trick_estimate` (-1: a low trump)."""
    if c.rank == "F":
        return 1.0 if c.suit == "c" else 0.92
    if c.rank == "J":
        return 0.85 if c.suit == trump else 0.78
    return _HONOURS.get(c.rank or "", -1.0)


#: trump suit id -> card index -> :func:`_trump_value` (no trump, misère: empty)
_TRUMP_VALUE: Final = [
    [_trump_value(c, mode) for c in UNIVERSE] if mode in MATE else [] for mode in MODES
]
#: players -> card index -> :func:`_plain_frac` (0.0 for cards of other counts)
_FRAC: Final = {
    n: [_plain_frac(c, n) if c.index in dealt and c.rank != "F" else 0.0 for c in UNIVERSE]
    for n, dealt in ((n, set(_DECK[n])) for n in range(3, 9))
}
#: players -> card index -> the part of :func:`_card_danger` the hand's length leaves
_DANGER_BASE: Final = {
    n: [max(0.0, f - 0.25) ** 2 * 2.5 for f in fracs] for n, fracs in _FRAC.items()
}


#: the trumps of the trick contracts, cheapest first (``nt``: no trump)
DENOMINATIONS = ("s", "w", "d", "c", "nt")


def contract_playouts(game: Game, deal: dict[str, Any], seat: int) -> dict[str, int]:
    """What heuristic players make of a dealt hand with ``seat`` declaring: the deal
    (``state.deals[0]``, a single-hand ``game``) is replayed with ``seat`` bidding each
    trump of :data:`DENOMINATIONS` (``bid 6<d>``, the others passing) and plain misère,
    and played out by this heuristic in every seat, each reading its own view (the
    declarer takes the real kitty, calls and discards as the heuristic does).  Returns
    the tricks the declarer's side takes per trump, and ``misere``: 1 when the misère is
    made.  The heuristic draws no random numbers, so this is a function of the deal.

    The hindsight value of ``benchmarks/bench_bidding.py`` and the training targets of
    ``xtarot train value`` (``xtarot.adapters.value``) are these play-outs."""
    out: dict[str, int] = {}
    players = [Fairy500Heuristic() for _ in range(game.players)]
    for denomination in (*DENOMINATIONS, "misere"):
        state = game.new_state(deal=deal)
        while state.current_player != seat:
            state.apply(game.action("pass"))
        state.apply(
            game.action("bid misere" if denomination == "misere" else f"bid 6{denomination}")
        )
        while state.public_view()["phase"] == "auction":  # the others pass
            state.apply(game.action("pass"))
        while not state.is_terminal:
            current = state.current_player
            assert current is not None
            state.apply(players[current].act(decision_for(state, peek=True)))
        hand = state.scores().detail["hands"][0]
        inner = hand.get("detail") or {}
        if denomination == "misere":
            out[denomination] = int(bool(inner.get("made")))
        else:
            out[denomination] = int(inner.get("side_tricks", 0))
    return out
