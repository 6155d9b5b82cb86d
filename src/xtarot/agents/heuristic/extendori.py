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
every seat, so the strategy works on card codes and per-code tables, judges "would
this unseen card take the trick" by arithmetic on the trick's ranks instead of
replaying the trick, and words its explanation only when ``explain()`` asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from xtarot.agents.base import Decision, Explanation
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import XTAROT, card
from xtarot.engine import Action
from xtarot.games.extendori.rules import MINOR_ORDER, deck_cards, points, trick_winner

__all__ = ["ExtendoriHeuristic", "card_points"]

_TOP = {111: 22, 110: 21}
FIGHT = 15
VOID_RISK = 0.5

# -- per-code tables -------------------------------------------------------------------
#: following key: the suit letter, or "T" for a major
_KEY: dict[str, str] = {c.code: c.suit if c.suit is not None else "T" for c in XTAROT}
#: points of a card
_PTS: dict[str, int] = {c.code: points(c) for c in XTAROT}
#: a minor's place in MINOR_ORDER, a major's number
_ORD: dict[str, int] = {
    c.code: MINOR_ORDER.index(c.rank) if c.suit is not None else int(c.number or 0) for c in XTAROT
}
#: plain worth of a card for keeping: majors above every minor, by rank
_STRENGTH: dict[str, int] = {
    code: 100 + _ORD[code] if _KEY[code] == "T" else _ORD[code] for code in _KEY
}
_F, _N = MINOR_ORDER.index("F"), MINOR_ORDER.index("N")  # M is 0, N is 1
#: per deck size: its codes in deck order, the same split by following key, its points
_DECKS: dict[int, tuple[tuple[str, ...], dict[str, tuple[str, ...]], int]] = {}
_SUIT_NAMES = {"c": ("cups", "聖杯"), "d": ("coins", "金貨"), "s": ("swords", "魔剣"),
               "w": ("trees", "聖樹")}  # fmt: skip


def card_points(code: str) -> int:
    """A card's points from its code.

    >>> card_points("Kc"), card_points("7c"), card_points("T0"), card_points("T5")
    (15, 0, 30, 0)
    """
    return _PTS[code]


def _deck(size: int) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]], int]:
    deck = _DECKS.get(size)
    if deck is None:
        codes = tuple(c.code for c in deck_cards(size))
        by_key = {k: tuple(c for c in codes if _KEY[c] == k) for k in "cdswT"}
        deck = _DECKS[size] = (codes, by_key, sum(_PTS[c] for c in codes))
    return deck


@lru_cache(maxsize=8192)
def _none_of(other: int, total: int, hand: int) -> float:
    """The chance that ``hand`` cards drawn from ``total`` all come from the ``other``
    ones (none of a given suit), drawn one by one without replacement."""
    p = 1.0
    for i in range(hand):
        p *= max(other - i, 0) / max(total - i, 1)
    return p


class _Trick:
    """The cards of a trick so far, read for one question: would one more card, added
    by a later player, take the trick?  Same answers as ``trick_winner``, by arithmetic:
    with majors on the table only a major can win, and the wrap-around (top major below
    ``T1``/``T0``) applies when the trick would hold both ends; in a minor trick any
    major wins, a led-suit card wins by rank, and the led ``F`` falls below ``N``/``M``
    when both would be in the trick."""

    __slots__ = ("best", "best_wrapped", "high", "led", "low", "majors", "top", "wrap")

    def __init__(self, codes: list[str], top: int) -> None:
        led = _KEY[codes[0]]
        nums = [_ORD[c] for c in codes if _KEY[c] == "T"]
        self.top = top
        self.majors = bool(nums)
        if nums:
            ranks = nums
            self.low = 0 in ranks or 1 in ranks  # T0/T1: the wrap's winning end
            self.high = top in ranks  # the top major: the wrap's losing end
        else:
            ranks = [_ORD[c] for c in codes if _KEY[c] == led]
            self.low = 0 in ranks or _N in ranks  # M/N of the led suit
            self.high = _F in ranks
        self.led = led
        self.wrap = self.low and self.high
        self.best = max(ranks)
        self.best_wrapped = max(100 - r if r <= 1 else r for r in ranks)

    def taken_by(self, code: str) -> bool:
        """Whether ``code`` played now would win the trick."""
        key = _KEY[code]
        r = _ORD[code]
        if self.majors:
            if key != "T":
                return False
            wrap = self.wrap or (r == self.top and self.low) or (r <= 1 and self.high)
        else:
            if key == "T":
                return True
            if key != self.led:
                return False
            wrap = self.wrap or (r == _F and self.low) or (r <= 1 and self.high)
        if wrap:
            return (100 - r if r <= 1 else r) > self.best_wrapped
        return r > self.best

    def count_taken(self, codes: list[str]) -> int:
        """How many of ``codes`` (all of the led suit, or all majors) would win the
        trick: :meth:`taken_by` for a whole suit at once."""
        if not codes:
            return 0
        if self.majors != (_KEY[codes[0]] == "T"):
            # a minor never beats a trumped trick; any major beats a minor trick
            return 0 if self.majors else len(codes)
        wrap0, low, high = self.wrap, self.low, self.high
        best, best_wrapped = self.best, self.best_wrapped
        turn = self.top if self.majors else _F  # the wrap's losing end
        count = 0
        for c in codes:
            r = _ORD[c]
            if wrap0 or (r == turn and low) or (r <= 1 and high):
                if (100 - r if r <= 1 else r) > best_wrapped:
                    count += 1
            elif r > best:
                count += 1
        return count


@lru_cache(maxsize=512)
def _led(code: str, top: int) -> _Trick:
    """The trick of one led card (the same for every lead of that card)."""
    return _Trick([code], top)


class ExtendoriHeuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._pending: tuple[Action, Callable[[], tuple[str, str]]] | None = None

    # -- explanations ---------------------------------------------------------------------
    def explain(self) -> Explanation | None:
        if self._pending is not None:
            action, words = self._pending
            self._pending = None
            self._said = None  # the pending words are the later
            en, ja = words()
            self._last = Explanation(self.name, action.text, en, ja)
            return self._last
        return super().explain()

    def _say(self, action: Action, en: str, ja: str) -> Action:
        self._pending = None
        return super()._say(action, en, ja)

    def _say_later(self, action: Action, words: Callable[[], tuple[str, str]]) -> Action:
        """Like ``_say``, the words (English, Japanese) built only if asked for: play-outs
        never ask, and counting the cards that could beat a move costs time."""
        self._pending = (action, words)
        return action

    # -- reading the view ---------------------------------------------------------------
    def act(self, decision: Decision) -> Action:
        view = decision.view
        legal = {a.text[5:]: a for a in decision.legal}  # "play <card>"
        seat: int = view["seat"]
        n: int = view["players"]
        top = _TOP.get(view["deck"], 23)
        trick = view["trick"]
        table: list[list[Any]] = trick["cards"]
        seen = {c for t in view["tricks"] for _, c in t["cards"]}
        seen.update([c for _, c in table])
        seen.update(view["hand"])
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
        ctx = _Ctx(seat, top, table, seen, after, view, partner)
        if not table:
            return self._lead(ctx, legal)
        return self._follow(ctx, legal)

    # -- following ------------------------------------------------------------------------
    def _follow(self, ctx: _Ctx, legal: dict[str, Action]) -> Action:
        table_pts = sum(_PTS[c] for c in ctx.codes)
        current = trick_winner([(s, card(c)) for s, c in ctx.table], ctx.top)
        winners = [c for c in legal if ctx.wins_now(c)]
        if current in ctx.partner:
            safe = not ctx.after or ctx.threats(None) == 0
            gifts = [c for c in legal if _PTS[c] and not ctx.wins_now(c)]
            if safe and gifts:
                pick = min(gifts, key=lambda c: (-_PTS[c], _STRENGTH[c]))

                def gift_words() -> tuple[str, str]:
                    risk = ctx.risk(pick)
                    if risk is None:
                        return (
                            "my partner wins this trick for sure: give them a point card",
                            "パートナーがこのトリックを確実に取る：絵札を渡す",
                        )
                    if len(risk) == 2:
                        cards, n = risk
                        return (
                            f"my partner likely wins this trick (unless one of {n} unseen "
                            f"cards comes: {cards}): give them a point card",
                            f"パートナーがおそらくこのトリックを取る（未公開の{n}枚（{cards}）が"
                            "出なければ）：絵札を渡す",
                        )
                    en, ja, chance = risk
                    return (
                        "my partner likely wins this trick (only a major from a player out of "
                        f"{en} could beat it, about {chance}%): give them a point card",
                        f"パートナーがおそらくこのトリックを取る（勝てるのは{ja}のない人の"
                        f"大アルカナだけ、約{chance}%）：絵札を渡す",
                    )

                return self._say_later(legal[pick], gift_words)
            return self._dump(
                legal, ("my partner is winning", "パートナーが勝っている"), ctx, partner=True
            )
        if not ctx.after:
            if winners:
                pick = max(winners, key=lambda c: (_PTS[c], -_STRENGTH[c]))
                gain = table_pts + _PTS[pick]
                if gain > 0:
                    return self._say(
                        legal[pick],
                        f"last to play: take the {gain} points with {pick}",
                        f"最後の手番：{pick}で{gain}点を取る",
                    )
            if winners:
                why = ("last to play and the trick holds no points", "最後の手番で、場に得点がない")
            else:
                why = (
                    "last to play and I cannot win this trick",
                    "最後の手番で、このトリックは取れない",
                )
            return self._dump(legal, why, ctx)
        sure = [c for c in winners if ctx.threats(c) == 0]
        expected = table_pts + ctx.density * len(ctx.after)
        if sure:
            pick = min(sure, key=lambda c: (-_PTS[c], _STRENGTH[c]))
            if expected > 0 or _PTS[pick] > 0:

                def sure_words() -> tuple[str, str]:
                    risk = ctx.risk(pick)
                    if risk is None:
                        return (
                            f"{pick} cannot be beaten by any unseen card: win the trick cheaply",
                            f"{pick}は未公開のどの札にも負けない：安くトリックを取る",
                        )
                    if len(risk) == 2:
                        cards, n = risk
                        return (
                            f"{pick} likely wins the trick cheaply: only {n} unseen cards "
                            f"could still take it ({cards})",
                            f"{pick}でおそらく安くトリックを取れる：これから覆せる未公開の札は"
                            f"{n}枚（{cards}）",
                        )
                    en, ja, chance = risk
                    return (
                        f"{pick} cannot be beaten by any unseen card of {en}, only by a major "
                        f"from a later player out of {en} (about {chance}%): it likely wins "
                        "the trick cheaply",
                        f"{pick}は未公開の{ja}には負けない。負けるのは後の人が{ja}を持たず"
                        f"大アルカナを出すときだけ（約{chance}%）：おそらく安くトリックを取れる",
                    )

                return self._say_later(legal[pick], sure_words)
        if expected >= FIGHT and winners:
            pick = min(winners, key=lambda c: (ctx.threats(c), _PTS[c], _STRENGTH[c]))

            def fight_words() -> tuple[str, str]:
                beaten = ctx.all_threats(pick)
                return (
                    f"{table_pts} points on the table: fight with {pick} "
                    f"({beaten} unseen cards could beat it)",
                    f"場に{table_pts}点：{pick}で勝負する（これに勝てる未公開の札は{beaten}枚）",
                )

            return self._say_later(legal[pick], fight_words)
        if not winners:
            why = ("I cannot win this trick", "このトリックは取れない")
        elif sure:  # nothing to win: no points on the table, none left unseen
            why = (
                "no points on the table and none among the unseen cards",
                "場に得点がなく、未公開の札にも得点札がない",
            )
        else:
            why = (
                f"no card of mine is sure to win this trick and only about {expected:.1f} "
                f"points are expected (I fight from {FIGHT})",
                f"確実に取れる札がなく、見込みは約{expected:.1f}点だけ（勝負するのは{FIGHT}点から）",
            )
        return self._dump(legal, why, ctx)

    # -- leading --------------------------------------------------------------------------
    def _lead(self, ctx: _Ctx, legal: dict[str, Action]) -> Action:
        sure = [c for c in legal if ctx.threats(c) == 0]
        minors = [c for c in sure if _KEY[c] != "T"]
        majors = [c for c in sure if _KEY[c] == "T"]
        pool = minors or majors
        if pool:
            pick = max(pool, key=lambda c: (_PTS[c], -_STRENGTH[c]))

            def lead_words() -> tuple[str, str]:
                risk = ctx.risk(pick)
                if risk is None:
                    return (
                        f"lead {pick}: no unseen card can beat it",
                        f"{pick}を打ち出す：未公開のどの札にも負けない",
                    )
                if len(risk) == 2:
                    cards, n = risk
                    return (
                        f"lead {pick}: it likely wins, only {n} unseen cards could take the "
                        f"trick ({cards})",
                        f"{pick}を打ち出す：おそらく勝つ。覆せる未公開の札は{n}枚（{cards}）",
                    )
                en, ja, chance = risk
                return (
                    f"lead {pick}: no unseen card of {en} can beat it, only a major from a "
                    f"player out of {en} (about {chance}%), so it likely wins",
                    f"{pick}を打ち出す：未公開の{ja}には負けない。負けるのは{ja}を持たない人が"
                    f"大アルカナを出すときだけ（約{chance}%）なので、おそらく勝つ",
                )

            return self._say_later(legal[pick], lead_words)
        plain = [c for c in legal if not _PTS[c]]
        if plain:
            length: dict[str, int] = {}
            for c in legal:
                length[_KEY[c]] = length.get(_KEY[c], 0) + 1
            pick = min(plain, key=lambda c: (_KEY[c] == "T", length[_KEY[c]], _STRENGTH[c]))
            if _KEY[pick] == "T":
                return self._say(
                    legal[pick],
                    f"no sure winner and no plain card of a suit: lead {pick}, my lowest "
                    "plain major",
                    f"確実に勝てる札も得点なしのスートの札もない：得点なしの一番低い大アルカナ"
                    f"{pick}を打ち出す",
                )
            en, ja = _SUIT_NAMES[_KEY[pick]]
            held = length[_KEY[pick]]
            return self._say(
                legal[pick],
                f"no sure winner: lead {pick}, my lowest plain card of {en}, the shortest "
                f"of my suits that hold a plain card ({held} card{'' if held == 1 else 's'})",
                f"確実に勝てる札がない：得点なしの札がある中で一番短いスート（{ja}、"
                f"{length[_KEY[pick]]}枚）の一番低い得点なしの札{pick}を打ち出す",
            )
        pick = min(legal, key=lambda c: (ctx.threats(c), _PTS[c]))

        def point_lead_words() -> tuple[str, str]:
            n = ctx.all_threats(pick)
            return (
                f"only point cards left: lead {pick} ({n} unseen cards could beat it)",
                f"絵札しか残っていない：{pick}を打ち出す（これに勝てる未公開の札は{n}枚）",
            )

        return self._say_later(legal[pick], point_lead_words)

    # -- dumping --------------------------------------------------------------------------
    def _dump(
        self,
        legal: dict[str, Action],
        why: tuple[str, str],
        ctx: _Ctx,
        *,
        partner: bool = False,
    ) -> Action:
        """Play the cheapest card (see rule 6), saying ``why`` and what the card is —
        each word true of the position: "plain" only for a card worth no points,
        "lowest" only when no plain card of mine ranks lower, "does not take the
        trick" only when it does not."""
        wins = ctx.wins_now
        pick = min(legal, key=lambda c: (_PTS[c], wins(c), _STRENGTH[c]))

        def words() -> tuple[str, str]:
            en, ja = why
            takes = wins(pick)
            if partner and not takes:
                en, ja = f"{en}: do not overtake", f"{ja}：追い越さない"
            pts = _PTS[pick]
            if pts == 0:
                lowest = min(_STRENGTH[c] for c in legal if not _PTS[c])
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
                tail = (
                    f"{tail[0]}; it takes the trick for now",
                    f"{tail[1]}（今のところトリックを取る）",
                )
            return f"{en}: {tail[0]}", f"{ja}：{tail[1]}"

        return self._say_later(legal[pick], words)


class _Ctx:
    """What one decision knows: the trick so far, the unseen cards, who plays after me."""

    def __init__(
        self,
        seat: int,
        top: int,
        table: list[list[Any]],
        seen: set[str],
        after: list[int],
        view: dict[str, Any],
        partner: set[int],
    ) -> None:
        self.seat = seat
        self.top = top
        self.table = table
        self.codes: list[str] = [c for _, c in table]
        self.after = after
        self.partner = partner
        self.opp_after = [s for s in after if s not in partner]
        self.seen = seen
        codes, self._deck_by_key, deck_points = _deck(view["deck"])
        self._deck_codes = codes
        self._unseen: dict[str, list[str]] = {}
        #: how many cards I have not seen (every seen card is one of the deck's)
        self.n_unseen = len(codes) - len(seen)
        unseen_points = deck_points - sum(map(_PTS.__getitem__, seen))
        self.density = unseen_points / self.n_unseen if self.n_unseen else 0.0
        self.voids: list[list[str]] = view["voids"]
        self.hand_sizes: list[int] = view["hand_sizes"]
        self._now = _Trick(self.codes, top) if self.codes else None
        self._wins: dict[str, bool] = {}
        self._void: dict[str, float] = {}
        self._threats: dict[str | None, int] = {}

    def unseen(self, key: str | None = None) -> list[str]:
        """The unseen cards (of one following key), in deck order."""
        if key is None:
            return [c for c in self._deck_codes if c not in self.seen]
        cards = self._unseen.get(key)
        if cards is None:
            seen = self.seen
            cards = self._unseen[key] = [c for c in self._deck_by_key[key] if c not in seen]
        return cards

    def void_chance(self, suit: str) -> float:
        """The chance that some later opponent holds no card of ``suit``."""
        if suit in self._void:
            return self._void[suit]
        total = self.n_unseen
        other = total - len(self.unseen(suit))
        keep = 1.0
        for s in self.opp_after:
            if suit in self.voids[s]:
                keep = 0.0
                break
            keep *= 1.0 - _none_of(other, total, self.hand_sizes[s])
        self._void[suit] = 1.0 - keep
        return self._void[suit]

    def wins_now(self, code: str) -> bool:
        """Whether ``code`` would take the trick as it stands (I am not leading)."""
        won = self._wins.get(code)
        if won is None:
            assert self._now is not None
            won = self._wins[code] = self._now.taken_by(code)
        return won

    def _after(self, code: str | None) -> _Trick:
        """The trick once I have played ``code`` (``None``: as it stands)."""
        if code is None:
            assert self._now is not None
            return self._now
        if not self.codes:
            return _led(code, self.top)
        return _Trick([*self.codes, code], self.top)

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
        cards = [card(u) for u in self.unseen()]
        return [u.code for u in cards if trick_winner([*plays, (-1, u)], self.top) != winner]

    def all_threats(self, code: str | None) -> int:
        """How many unseen cards could take the trick (see :meth:`beaters`)."""
        return len(self.beaters(code))

    def risk(self, code: str | None) -> tuple[str, str, int] | tuple[str, int] | None:
        """How the trick could still be lost after ``code``, for an explanation:
        ``None`` when no unseen card can take it; ``(suit_en, suit_ja, chance%)`` when
        only a major can, from a later player out of the led suit; else
        ``(cards, count)``: the unseen cards that could (the heuristic counted the
        trick as safe, so the explanation must say "probably")."""
        beaters = self.beaters(code)
        if not beaters:
            return None
        led = _KEY[self.codes[0] if self.codes else code]  # type: ignore[index]
        if led != "T" and all(_KEY[u] == "T" for u in beaters):
            en, ja = _SUIT_NAMES[led]
            return en, ja, round(100 * self.void_chance(led))
        shown = " ".join(beaters[:4]) + (" …" if len(beaters) > 4 else "")
        return shown, len(beaters)

    def threats(self, code: str | None) -> int:
        """Unseen cards that would beat the trick's winner after I play ``code``."""
        count = self._threats.get(code)
        if count is not None:
            return count
        led = _KEY[self.codes[0] if self.codes else code]  # type: ignore[index]
        majors_count = led == "T" or self.void_chance(led) >= VOID_RISK
        count = 0
        if self.opp_after:
            trick = self._after(code)
            if led != "T":
                count = trick.count_taken(self.unseen(led))
            if majors_count:
                majors = self.unseen("T")
                if led != "T" and not trick.majors:
                    count += len(majors)  # any major takes a minor trick
                else:
                    count += trick.count_taken(majors)
        self._threats[code] = count
        return count
