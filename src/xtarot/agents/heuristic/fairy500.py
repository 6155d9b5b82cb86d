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
from typing import Any

from xtarot.agents.base import Decision, decision_for
from xtarot.agents.heuristic.strategy import Strategy
from xtarot.cards import Card, card
from xtarot.engine import Action, Game
from xtarot.games.fairy500.play import MATE, SUIT_OF, key_table
from xtarot.games.fairy500.setup import bid_value, card_set, misere_value

__all__ = [
    "DENOMINATIONS",
    "Fairy500Heuristic",
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
def _deck(players: int) -> tuple[Card, ...]:
    """This player count's cards, in deck order (:func:`card_set`, kept)."""
    return tuple(card_set(players))


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
    side_factor = max(0.5, 1.0 - 0.06 * (players - 3))
    est = 0.0
    if denomination == "nt":
        fairies = [c for c in hand if c.rank == "F"]
        est += 0.95 * len(fairies)
        for s in _SUITS:
            cs = [c for c in hand if c.suit == s and c.rank != "F"]
            ranks = {c.rank for c in cs}
            est += side_factor * (
                0.85 * ("K" in ranks)
                + 0.45 * ("Q" in ranks and len(cs) >= 2)
                + 0.2 * ("C" in ranks and len(cs) >= 3)
            )
            est += 0.35 * max(0, len(cs) - 4)
        return est
    t = denomination
    suit_of = SUIT_OF[t]
    trumps = [c for c in hand if suit_of[c] == t]
    honours = {"F": 0.95, "J": 0.8, "K": 0.6, "Q": 0.45}
    low = 0
    for c in trumps:
        if c.rank == "F":
            est += 1.0 if c.suit == "c" else 0.92
        elif c.rank == "J":
            est += 0.85 if c.suit == t else 0.78
        elif c.rank in honours:
            est += honours[c.rank]
        else:
            low += 1
    n = len(trumps)
    est += 0.3 * low + 0.3 * max(0, n - 4)
    spare = max(0, n - 3)
    for s in _SUITS:
        if s == t:
            continue
        cs = [c for c in hand if suit_of[c] == s]
        ranks = {c.rank for c in cs}
        est += side_factor * (0.8 * ("K" in ranks) + 0.35 * ("Q" in ranks and len(cs) >= 2))
        if len(cs) <= 1 and spare > 0:
            est += 0.4 if not cs else 0.2
            spare -= 1
    return est


def misere_danger(hand: list[Card], players: int, shed: int) -> float:
    """How likely this hand takes a trick in misère after shedding its ``shed`` worst cards
    (0 = safe); every F counts heavily, high cards by how high they sit in their suit."""
    dangers = sorted((_card_danger(c, hand, players) for c in hand), reverse=True)
    return sum(dangers[shed:])


def _card_danger(c: Card, hand: list[Card], players: int) -> float:
    if c.rank == "F":
        return 3.0
    frac = _plain_frac(c, players)
    length = sum(1 for x in hand if x.suit == c.suit and x.rank != "F")
    danger = max(0.0, frac - 0.25) ** 2 * 2.5
    if length >= 4:
        danger += 0.1 * (length - 3) * frac  # the others run out of a long suit first
    return danger


class Fairy500Heuristic(Strategy):
    """The documented strategy above; ``explain()`` names the rule that fired."""

    reads_view_only = True  # never changes the view: play-outs may peek

    def __init__(
        self, seed: int | None = None, *, value_model: Any = None, value_margin: float = 30.0
    ) -> None:
        super().__init__(seed)
        self._legal_now: dict[str, Action] = {}
        #: optional hand-value model (``xtarot.adapters.value.ValueModel`` or anything
        #: with ``contract_values(view) -> {bid text: expected declarer score}``): when
        #: set, the auction bids the legal contract of highest expected score, if that
        #: exceeds ``value_margin`` points, instead of counting tricks (docs/agents.md,
        #: *The hand-value model*)
        self.value_model = value_model
        self.value_margin = float(value_margin)

    def act(self, decision: Decision) -> Action:
        view = decision.view
        legal = {a.text: a for a in decision.legal}
        self._legal_now = legal
        phase = view["phase"]
        if phase == "auction":
            return self._bid(view, legal)
        if phase == "call":
            return self._call(view, legal)
        if phase == "discard":
            return self._discard(view, legal)
        return self._play(view, legal)

    # -- auction ------------------------------------------------------------------------
    def _bid(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        model = self.value_model
        if model is not None and getattr(model, "players", view["players"]) == view["players"]:
            return self._bid_by_model(view, legal)  # (a model of another count: not used)
        n = view["players"]
        hand = [card(c) for c in view["hand"]]
        extra = _PARTNER_TRICKS[n] + _KITTY_TRICKS
        best: tuple[int, str, float] | None = None
        for d in ("s", "w", "d", "c", "nt"):
            est = trick_estimate(hand, d, n) + extra
            tricks = min(10, int(est - _MARGIN))
            if tricks < 6:
                continue
            text = f"bid {tricks}{d}"
            value = bid_value(tricks, d)
            if text in legal and (best is None or value > best[0]):
                best = (value, text, est)
        danger_ex = misere_danger(hand, n, 3)
        danger_hand = misere_danger(hand, n, 0)
        misere: list[tuple[int, str]] = []
        scale = _MISERE_SCALE[n]
        danger_ex /= scale
        danger_hand /= scale
        if danger_ex < 0.35:
            misere.append((misere_value("misere", "", n), "bid misere"))
        if danger_ex < 0.15:
            misere.append((misere_value("open-misere", "", n), "bid open-misere"))
        if danger_hand < 0.15:
            misere.append((misere_value("open-hand-misere", "", n), "bid open-hand-misere"))
        for value, text in misere:
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
    def _play(self, view: dict[str, Any], legal: dict[str, Action]) -> Action:
        contract = view["contract"]
        seat = view["seat"]
        n = view["players"]
        mode: str = contract["order"]
        kind: str = contract["kind"]
        decl = contract["declarer"]
        options = [card(t.split(" ", 1)[1]) for t in legal]
        hand = [card(c) for c in view["hand"]]
        trick = view["trick"]
        plays: list[tuple[int, Card]] = (
            [(s, card(c)) for s, c in trick["cards"]] if trick is not None else []
        )
        # what is seen, by code: the tricks, the table, my hand, my kitty discards
        seen = {c for t in view["tricks"] for _, c in t["cards"]}
        if trick is not None:
            seen.update(c for _, c in trick["cards"])
        seen.update(view["hand"])
        seen.update(view.get("discards") or ())
        outstanding = [c for c in _deck(n) if c.code not in seen]
        suit_of = SUIT_OF[mode]

        if kind in ("ramsch",) or (kind == "misere" and seat == decl):
            return self._duck(mode, options, plays, outstanding, n - 1 - len(plays))
        if kind == "misere":
            return self._feed(mode, options, plays, decl)
        friends: set[int] = {seat}
        if kind == "contract":
            if seat == decl:
                friends |= set(view["partners"])
            elif view["is_partner"]:
                friends.add(decl)
        if not plays:
            return self._lead(view, mode, options, outstanding, hand, seat == decl)
        led = suit_of[plays[0][1]]
        keys = key_table(mode, led)
        win_seat, win_card = max(plays, key=lambda p: keys[p[1]])
        best = keys[win_card]
        later = n - 1 - len(plays)
        if win_seat in friends and win_seat != seat:
            higher_out = any(keys[c] > best for c in outstanding)
            if not higher_out or later == 0:
                return self._shed(
                    mode,
                    options,
                    legal,
                    hand,
                    "my partner is winning the trick: play low",
                    "味方が勝っているので低い札を出す",
                )
        winners = sorted((c for c in options if keys[c] > best), key=lambda c: keys[c])
        if winners:
            if later == 0:
                pick = winners[0]
                why = (
                    "last to play: win with the cheapest card that beats the table",
                    "最後の手番：場を上回る最小の札で勝つ",
                )
            else:
                top_out = max((keys[x] for x in outstanding), default=None)
                sure = [c for c in winners if top_out is None or keys[c] > top_out]
                if sure:
                    pick = sure[0]
                    why = (
                        "win with my cheapest card that nobody can beat",
                        "誰にも負けない最小の札で勝つ",
                    )
                else:
                    pick = winners[-1]
                    why = ("try to win with my strongest card", "最強の札で勝ちを狙う")
            return self._say(legal[f"play {pick.code}"], *why)
        return self._shed(
            mode,
            options,
            legal,
            hand,
            "cannot win this trick: shed my least useful card",
            "このトリックは勝てないので一番不要な札を捨てる",
        )

    def _shed(
        self,
        mode: str,
        options: list[Card],
        legal: dict[str, Action],
        hand: list[Card],
        en: str,
        ja: str,
    ) -> Action:
        suit_of = SUIT_OF[mode]

        def worth(c: Card) -> tuple[int, int, int]:
            s = suit_of[c]
            length = sum(1 for x in hand if suit_of[x] == s)
            trumpish = 1 if (s == mode or s == "F") else 0
            return (trumpish, key_table(mode, s)[c], length)

        pick = min(options, key=worth)
        return self._say(legal[f"play {pick.code}"], en, ja)

    def _lead(
        self,
        view: dict[str, Any],
        mode: str,
        options: list[Card],
        outstanding: list[Card],
        hand: list[Card],
        declarer: bool,
    ) -> Action:
        suit_of = SUIT_OF[mode]

        def top(c: Card) -> bool:
            keys = key_table(mode, suit_of[c])
            return all(keys[c] > keys[x] for x in outstanding)

        if mode in MATE and declarer:
            trumps = [c for c in options if suit_of[c] == mode]
            out_trumps = [c for c in outstanding if suit_of[c] == mode]
            keys = key_table(mode, mode)
            if trumps and out_trumps:
                high = max(trumps, key=lambda c: keys[c])
                if top(high):
                    return self._play_card(
                        high,
                        "declarer: draw trumps with my top trump",
                        "デクレアラー：最強の切札で切札を引き出す",
                    )
        sure = [c for c in options if top(c) and suit_of[c] != mode]
        if sure:
            pick = max(sure, key=lambda c: sum(1 for x in hand if suit_of[x] == suit_of[c]))
            return self._play_card(
                pick, "lead a card nobody can beat", "誰にも負けない札をリードする"
            )
        if declarer and mode in MATE:
            trumps = [c for c in options if suit_of[c] == mode]
            if trumps and len(trumps) * 2 >= len(options):
                keys = key_table(mode, mode)
                pick = min(trumps, key=lambda c: keys[c])
                return self._play_card(
                    pick,
                    "declarer with long trumps: lead a low trump to draw trumps",
                    "切札が長いデクレアラー：低い切札をリードして切札を引き出す",
                )
        side = [c for c in options if suit_of[c] != mode] or options

        def lead_key(c: Card) -> tuple[int, int]:
            s = suit_of[c]
            length = sum(1 for x in hand if suit_of[x] == s)
            return (length if declarer else -length, -key_table(mode, s)[c])

        pick = max(side, key=lead_key)
        return self._play_card(
            pick,
            "no sure winner: lead low from my longest side suit"
            if declarer
            else "no sure winner: lead low from my shortest side suit to make a void",
            "確実な勝ち札がない：一番長いスートの低い札をリード"
            if declarer
            else "確実な勝ち札がない：短いスートの低い札をリードして空にする",
        )

    def _play_card(self, c: Card, en: str, ja: str) -> Action:
        return self._say(self._legal_now[f"play {c.code}"], en, ja)

    def _duck(
        self,
        mode: str,
        options: list[Card],
        plays: list[tuple[int, Card]],
        outstanding: list[Card],
        later: int,
    ) -> Action:
        suit_of = SUIT_OF[mode]
        if not plays:
            safe = []
            for c in options:
                keys = key_table(mode, suit_of[c])
                above = sum(1 for x in outstanding if keys[x] > keys[c])
                safe.append((above, -keys[c], c))
            above, _, pick = max(safe, key=lambda t: (t[0] > 0 and t[2].rank != "F", t[0], t[1]))
            return self._play_card(
                pick,
                f"take no trick: lead {pick.code}, {above} unseen cards can beat it",
                f"トリックを取らない：{pick.code}をリード（上回る未公開札{above}枚）",
            )
        led = suit_of[plays[0][1]]
        keys = key_table(mode, led)
        best = max(keys[c] for _, c in plays)
        under = [c for c in options if keys[c] < best]
        if under:
            pick = max(under, key=lambda c: (c.rank == "F", _own_strength(mode, c)))
            return self._play_card(
                pick,
                "take no trick: the most dangerous card that stays under the winner",
                "トリックを取らない：勝ち札の下に収まる一番危険な札を出す",
            )
        if later:
            pick = min(options, key=lambda c: keys[c])
            return self._play_card(
                pick,
                "every card wins for now: play my lowest so a later player may beat it",
                "どの札でも今は勝ってしまう：後の人に超えてもらえるよう最低の札を出す",
            )
        pick = max(options, key=lambda c: _own_strength(mode, c))
        return self._play_card(
            pick,
            "last to play and every card wins: take it with my most dangerous card",
            "最後の手番でどの札でも勝ってしまう：一番危険な札で取る",
        )

    def _feed(
        self, mode: str, options: list[Card], plays: list[tuple[int, Card]], decl: int
    ) -> Action:
        suit_of = SUIT_OF[mode]
        if not plays:
            pick = min(options, key=lambda c: (c.rank == "F", _own_strength(mode, c)))
            return self._play_card(
                pick,
                "misère defender: lead low so the declarer cannot duck",
                "ミゼールの守り：デクレアラーがかわせないよう低い札をリード",
            )
        led = suit_of[plays[0][1]]
        keys = key_table(mode, led)
        declared = [c for s, c in plays if s == decl]
        best = max(keys[c] for _, c in plays)
        if declared and keys[declared[0]] == best:
            under = [c for c in options if keys[c] < best]
            if under:
                pick = max(under, key=lambda c: _own_strength(mode, c))
                return self._play_card(
                    pick,
                    "misère defender: stay under the declarer so it takes the trick",
                    "ミゼールの守り：デクレアラーの下に出してトリックを取らせる",
                )
        if not declared:
            pick = min(options, key=lambda c: keys[c] if keys[c] >= 0 else -1)
            return self._play_card(
                pick,
                "misère defender: play low before the declarer",
                "ミゼールの守り：デクレアラーより前なので低く出す",
            )
        pick = max(options, key=lambda c: _own_strength(mode, c))
        return self._play_card(
            pick,
            "misère defender: the declarer is safe here, shed a high card",
            "ミゼールの守り：このトリックは安全なので高い札を捨てる",
        )


def _own_strength(mode: str, c: Card) -> int:
    """How strong ``c`` is when its own (effective) suit is led."""
    return key_table(mode, SUIT_OF[mode][c])[c]


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
