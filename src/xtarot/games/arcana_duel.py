"""アルカナデュエル (Arcana Duel), id ``arcana-duel``.

A two-player battle in the manner of a trading-card game, on the classic deck.
Rulebook: ``shared/seeds/004``; readings: RULINGS §7; summary: ``docs/rules/arcana-duel.md``.

配り方 (the deal)
    The 78 classic cards, minors and majors shuffled together; 8 to each player,
    the rest is the 山札 (stock).

プレイ準備 (set-up)
    Each player lays 5 of their 8 cards face down as their 場 (field) and keeps 3 in
    hand, without seeing the other's choice (taken one seat at a time, seat 0 first,
    with ``place <card>``; the earlier choice stays hidden).  The first attacker
    (じゃんけん) is random and is announced once both fields are laid.

手番 (a turn)
    補充 (refill): a field below 5 cards draws the shortfall, then places from hand
    face down up to 5.  攻撃 (attacks): one or more, each with a set of own field
    cards that have not attacked this turn (face-down ones are turned up), against
    one opponent card: a face-up card the attacker names, or a face-down card the
    defender picks (``defend <card>``, knowing the attack's power).  戦闘力 (power):
    pips at face value, A = 1, J C Q K = 10, majors their number (T0 = 0).  Higher
    power takes the other side's cards into its 得点 (points pile): the attacker
    wins the defending card, the defender wins every attacking card; equal power
    moves nothing.  Survivors stay face up.  ``end`` stops attacking (allowed once
    one attack was made, or when no attack is possible).  再補充 (refill again):
    draw as many cards as were lost this turn, place up to 5; the turn ends.

マット (the Fool)
    When 0:愚者 (``T0``) is revealed by an attack, as an attacking card or as the
    picked defender, the combat is not resolved: both players move their whole
    field into their own points pile, the attacker then the defender draw 5 and
    place 5, and the attacker's turn ends at once.

終了 (the end)
    An attack that leaves the defender's field empty wins at once (全滅,
    annihilation).  When the stock runs out the game ends at the end of that turn
    and the larger points pile wins (equal: a draw).

Attacks are taken in small steps so the action space stays small (314 ids):
``attack <card>`` adds one own field card to the attack being formed (it turns
face up at once: a declared attack cannot be taken back), and ``at <card>`` /
``at down`` names the target and resolves it.  The canonical full texts of the
contract, ``attack Kc 5s at T3`` and ``attack Kc at down``, are accepted by
:meth:`ArcanaDuelState.apply`, which plays them as those steps, all or nothing.
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
    IllegalAction,
    Scores,
    State,
    parse_card,
    register,
)
from xtarot.engine.core import competition_ranks
from xtarot.engine.identity import remove_same
from xtarot.engine.rand import below, shuffle

__all__ = ["ArcanaDuel", "ArcanaDuelState", "attack_steps", "power"]

DEAL_SIZE = 8
FIELD_SIZE = 5
RESET_DRAW = 5
FOOL: Card = card("T0")
CARDS: tuple[Card, ...] = tuple(CLASSIC)

_POWER: dict[Card, int] = {
    c: c.number if c.is_major else (10 if c.value is None else int(c.value))  # type: ignore[misc]
    for c in CARDS
}


def power(c: Card) -> int:
    """戦闘力: pips at face value, A = 1, J C Q K = 10, majors their number.

    >>> power(card("As")), power(card("9c")), power(card("Cw")), power(card("T21"))
    (1, 9, 10, 21)
    """
    return _POWER[c]


# -- the action space: 314 ids ---------------------------------------------------------
END, AT_DOWN = 0, 1
_N = len(CARDS)
_PLACE, _ATTACK, _AT, _DEFEND = 2, 2 + _N, 2 + 2 * _N, 2 + 3 * _N
ACTIONS = ActionSpace(
    ["end", "at down"]
    + [f"place {c}" for c in CARDS]
    + [f"attack {c}" for c in CARDS]
    + [f"at {c}" for c in CARDS]
    + [f"defend {c}" for c in CARDS]
)
_PLACE_OF = {c: ACTIONS[_PLACE + i] for i, c in enumerate(CARDS)}
_ATTACK_OF = {c: ACTIONS[_ATTACK + i] for i, c in enumerate(CARDS)}
_AT_OF = {c: ACTIONS[_AT + i] for i, c in enumerate(CARDS)}
_DEFEND_OF = {c: ACTIONS[_DEFEND + i] for i, c in enumerate(CARDS)}
_CARD_OF: dict[int, Card] = {a.id: CARDS[(a.id - 2) % _N] for a in ACTIONS if a.id >= 2}


def attack_steps(text: str) -> list[str] | None:
    """Split a full attack text into its steps, or ``None`` if it is not one.

    >>> attack_steps("attack Kc 5s at T3")
    ['attack Kc', 'attack 5s', 'at T3']
    >>> attack_steps("attack Kc at down")
    ['attack Kc', 'at down']
    >>> attack_steps("attack Kc") is None, attack_steps("attack at T3") is None
    (True, True)
    """
    words = text.split()
    if len(words) < 2 or words[0].lower() != "attack":
        return None
    lowered = [w.lower() for w in words]
    if "at" in lowered:
        i = lowered.index("at")
        cards_, target = words[1:i], words[i + 1 :]
        if not cards_ or len(target) != 1:
            return None
        return [f"attack {c}" for c in cards_] + [f"at {target[0]}"]
    if len(words) > 2:
        return [f"attack {c}" for c in words[1:]]
    return None


@register
class ArcanaDuel(Game):
    """アルカナデュエル for 2 players on the classic deck."""

    info = GameInfo(
        id="arcana-duel",
        name_ja="アルカナデュエル",
        name_en="Arcana Duel",
        min_players=2,
        max_players=2,
        deck="classic",
    )
    actions = ACTIONS
    deck_doc = (
        "deck=[...]: the 78 classic cards, each once.  The first 16 are dealt one at a time "
        "to seats 0 and 1 alternately (8 each); the other 62 are the stock, top first.  "
        "The first attacker comes from the seed."
    )

    def _random_deal(self, rng: random.Random) -> dict[str, Any]:
        deck = list(CARDS)
        shuffle(rng, deck)
        return self._deal_of(deck, below(rng, 2))

    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]:
        parsed = [parse_card(CLASSIC, code, "deck") for code in deck]
        if len(parsed) != _N:
            raise DealError(f"an arcana-duel deck has the {_N} classic cards, not {len(parsed)}")
        return self._deal_of(parsed, below(rng, 2))

    @staticmethod
    def _deal_of(deck: list[Card], first: int) -> dict[str, Any]:
        dealt = 2 * DEAL_SIZE
        return {
            "hands": [[c.code for c in deck[s:dealt:2]] for s in range(2)],
            "stock": [c.code for c in deck[dealt:]],
            "first_attacker": first,
        }

    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        reader = DealReader(self.id, deal, ["hands", "stock", "first_attacker"], CLASSIC)
        hands = reader.hands("hands", 2, DEAL_SIZE)
        stock = [c.code for c in reader.cards(deal["stock"], "stock")]
        if len(stock) != _N - 2 * DEAL_SIZE:
            raise DealError(
                f"stock must hold the other {_N - 2 * DEAL_SIZE} cards, not {len(stock)}"
            )
        first = deal["first_attacker"]
        if isinstance(first, bool) or not isinstance(first, int) or first not in (0, 1):
            raise DealError(f"first_attacker must be seat 0 or 1, not {first!r}")
        out_hands = [[c.code for c in h] for h in hands]
        return {"hands": out_hands, "stock": stock, "first_attacker": first}


class ArcanaDuelState(State):
    """A duel in progress."""

    game: ArcanaDuel
    #: plain attributes kept up to date as the duel moves (not properties: read at
    #: every decision); ``is_terminal`` is set only when the duel ends
    current_player: int | None = None  # type: ignore[assignment]
    is_terminal: bool = False  # type: ignore[assignment]

    def _setup(self, deal: dict[str, Any]) -> None:
        # (the deal is valid: its codes are looked up directly)
        self.hands: list[list[Card]] = [list(map(_CARD, h)) for h in deal["hands"]]
        self.stock: list[Card] = list(map(_CARD, reversed(deal["stock"])))  # top last
        self.field: list[list[Card]] = [[], []]
        #: each field, then each hand, sorted in the deck's order, or None until asked
        #: for again after it changed (a list never changed, so copies of the state
        #: share it): seat s's field at s, its hand at 2 + s
        self._sorted: list[list[Card] | None] = [None, None, None, None]
        self.up: set[Card] = set()  # face-up field cards
        self.used: set[Card] = set()  # cards that attacked this turn
        self.points: list[list[Card]] = [[], []]
        self.buried: set[Card] = set()  # face-down cards swept into a points pile
        self.attacker = 0
        self.forming: list[Card] = []
        self.lost = 0
        self.attacks = 0
        self.turns = 0
        self.combats: list[dict[str, Any]] = []
        self.end_reason: str | None = None
        self.winner: int | None = None
        self.stage = "setup"  # setup | refill | attack | defend | reset | over
        #: what the table sees happen: ("place", seat, action index), ("draw", seat, k),
        #: ("reveal", seat, code) for a face-down card turned up, ("reset",)
        self.events: list[tuple[Any, ...]] = []
        self._placer = 0
        self._after = "setup"
        self._begin_place(0, "setup")

    @property
    def first_attacker(self) -> int:
        return self.deals[0]["first_attacker"]  # type: ignore[no-any-return]

    # -- turn structure -------------------------------------------------------------
    # (``current_player`` is the attacker in the attack stage, the defender in the
    # defend stage, ``None`` once over, else the seat placing: set where these change)
    def _draw(self, seat: int, k: int) -> None:
        k = min(k, len(self.stock))
        if k:
            self.events.append(("draw", seat, k))
            self._sorted[2 + seat] = None
        hand, stock = self.hands[seat], self.stock
        for _ in range(k):
            hand.append(stock.pop())

    def _begin_place(self, seat: int, after: str) -> None:
        if len(self.field[seat]) < FIELD_SIZE and self.hands[seat]:
            self.current_player = self._placer = seat
            self._after = after
            if self.stage != "setup" and self.stage != "reset":
                self.stage = "refill"
            return
        self._continue(seat, after)

    def _continue(self, seat: int, after: str) -> None:
        if after == "setup":
            if seat == 0:
                self._begin_place(1, "setup")
            else:
                self._start_turn(self.first_attacker)
        elif after == "attack":
            self.stage = "attack"
            self.current_player = self.attacker
        elif after == "reset":
            self._begin_place(1 - self.attacker, "end")
        else:
            self._end_turn()

    def _start_turn(self, seat: int) -> None:
        self.attacker = seat
        self.turns += 1
        self.lost = self.attacks = 0
        self.used = set()
        self.stage = "refill"
        self._draw(seat, FIELD_SIZE - len(self.field[seat]))
        self._begin_place(seat, "attack")

    def _end_turn(self) -> None:
        self.used = set()
        if not self.stock:
            self.stage, self.end_reason = "over", "stock_out"
            self.current_player, self.is_terminal = None, True
            return
        self._start_turn(1 - self.attacker)

    # -- legal actions ----------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        stage = self.stage
        if stage == "attack":
            a = self.attacker
            forming = self.forming
            # (a set: ``in`` a list of cards compares them slowly, see engine.identity)
            used = self.used.union(forming) if forming else self.used
            fields = self._sorted
            mine = fields[a]
            if mine is None:
                mine = fields[a] = sorted(self.field[a], key=_index)
            out = [_ATTACK_OF[c] for c in mine if c not in used]
            if not forming:
                if self.attacks or not out:
                    out.append(_END_ACTION)
                return out
            up = self.up
            theirs = fields[1 - a]
            if theirs is None:
                theirs = fields[1 - a] = sorted(self.field[1 - a], key=_index)
            out += [_AT_OF[c] for c in theirs if c in up]
            if not up.issuperset(theirs):
                out.append(_AT_DOWN_ACTION)
            return out
        if stage == "defend":
            up = self.up
            d = 1 - self.attacker
            fields = self._sorted
            theirs = fields[d]
            if theirs is None:
                theirs = fields[d] = sorted(self.field[d], key=_index)
            return [_DEFEND_OF[c] for c in theirs if c not in up]
        placer = self._placer
        hand = self._sorted[2 + placer]
        if hand is None:
            hand = self._sorted[2 + placer] = sorted(self.hands[placer], key=_index)
        return list(map(_PLACE_OF.__getitem__, hand))

    def _sorted_hand(self, seat: int) -> list[Card]:
        """The seat's hand in the deck's order (kept until the hand changes)."""
        hand = self._sorted[2 + seat]
        if hand is None:
            hand = self._sorted[2 + seat] = sorted(self.hands[seat], key=_index)
        return hand

    def _why_illegal(self, action: Action) -> str:
        aid = action.id
        stage = self.stage
        seat = self.current_player
        assert seat is not None
        if stage in ("setup", "refill", "reset"):
            if _PLACE <= aid < _ATTACK:
                return f"you do not hold {_CARD_OF[aid]}"
            return "place cards from your hand face down until your field holds 5"
        if stage == "defend":
            if aid >= _DEFEND:
                return f"{_CARD_OF[aid]} is not a face-down card of your field"
            return "pick the face-down card that defends: defend <card>"
        if aid == END:
            if self.forming:
                return "name the target of the attack first: at <card> or at down"
            return "make at least one attack first"
        if _ATTACK <= aid < _AT:
            c = _CARD_OF[aid]
            if c not in self.field[self.attacker]:
                return f"{c} is not on your field"
            return f"{c} has already attacked this turn"
        if aid == AT_DOWN or _AT <= aid < _DEFEND:
            if not self.forming:
                return "choose the attacking cards first: attack <card>"
            if aid == AT_DOWN:
                return "the opponent has no face-down card"
            return f"{_CARD_OF[aid]} is not a face-up card of the opponent's field"
        return "not allowed now"

    def action_seen_by(self, action: Action, seat: int | None) -> str:
        """A placement is face down: the others see ``place ?``."""
        if seat != self.current_player and _PLACE <= action.id < _ATTACK:
            return "place ?"
        return action.text

    # -- applying -----------------------------------------------------------------------
    def _check(self, action: Action | str | int, legal: list[Action]) -> Action:
        """As :meth:`State._check`, so ``apply`` also accepts a full attack text
        (``attack Kc 5s at T3``), played as its steps, all or nothing: tried on a copy
        first, then every step but the last is applied here and the last one returned
        for ``apply`` to apply.  (Here rather than in an ``apply`` of its own, which
        would cost every move a call.)"""
        if action.__class__ is str and self.game.actions.parse(action) is None:  # type: ignore[arg-type]
            steps = attack_steps(action)  # type: ignore[arg-type]
            if steps is not None:
                trial = self.clone()
                for step in steps:
                    try:
                        trial.apply(step)
                    except IllegalAction as err:
                        raise IllegalAction(
                            f"{action!r} stopped at step {step!r}: {err}", err.legal
                        ) from None
                for step in steps[:-1]:
                    self.apply(step)
                return super()._check(steps[-1], self._legal_actions())
        return super()._check(action, legal)

    def _apply(self, action: Action) -> None:
        aid = action.id
        if aid < _ATTACK:
            if aid >= _PLACE:
                seat = self._placer
                c = _CARD_OF[aid]
                self.events.append(("place", seat, len(self.history)))
                remove_same(self.hands[seat], c)
                self.field[seat].append(c)
                self._sorted[seat] = self._sorted[2 + seat] = None
                if len(self.field[seat]) >= FIELD_SIZE or not self.hands[seat]:
                    self._continue(seat, self._after)
            elif aid == END:
                self.stage = "refill"
                self._draw(self.attacker, self.lost)
                self._begin_place(self.attacker, "end")
            else:
                self.attacks += 1
                if FOOL in self.up:  # (face up only while it attacks: in forming)
                    self._fool(None, "down")
                else:
                    self.stage = "defend"
                    self.current_player = 1 - self.attacker
            return
        c = _CARD_OF[aid]
        if aid < _AT:
            if c not in self.up:
                self.events.append(("reveal", self.attacker, c.code))
            self.forming.append(c)
            self.up.add(c)
        elif aid < _DEFEND:
            self.attacks += 1
            if FOOL in self.up:
                self._fool(c, "named")
            else:
                self._resolve(c, "named")
        else:
            self.events.append(("reveal", 1 - self.attacker, c.code))
            self.up.add(c)
            if c is FOOL:
                self._fool(c, "down")
            else:
                self._resolve(c, "down")

    def _resolve(self, target: Card, how: str) -> None:
        a, d = self.attacker, 1 - self.attacker
        forming = self.forming
        attack = 0
        for c in forming:
            attack += _POWER[c]
        defence = _POWER[target]
        self.used.update(forming)
        if attack > defence:
            result = "attacker"
            remove_same(self.field[d], target)
            self._sorted[d] = None
            self.up.discard(target)
            self.points[a].append(target)
        elif defence > attack:
            result = "defender"
            self._sorted[a] = None
            for c in forming:
                remove_same(self.field[a], c)
                self.up.discard(c)
                self.used.discard(c)
            self.points[d].extend(forming)
            self.lost += len(forming)
        else:
            result = "tie"
        self.combats.append(
            {
                "turn": self.turns,
                "attacker": a,
                "cards": [c.code for c in forming],
                "power": attack,
                "target": target.code if how == "named" else "down",
                "defence": target.code,
                "defence_power": defence,
                "result": result,
            }
        )
        self.forming = []
        if result == "attacker" and not self.field[d]:
            self.stage, self.end_reason, self.winner = "over", "annihilation", a
            self.current_player, self.is_terminal = None, True
        else:
            self.stage, self.current_player = "attack", a

    def _fool(self, target: Card | None, how: str) -> None:
        """The Fool is revealed: both fields to their owners' points, redraw, replace."""
        a = self.attacker
        self.combats.append(
            {
                "turn": self.turns,
                "attacker": a,
                "cards": [c.code for c in self.forming],
                "power": sum(_POWER[c] for c in self.forming),
                "target": target.code if how == "named" and target is not None else "down",
                "defence": target.code if target is not None else None,
                "defence_power": _POWER[target] if target is not None else None,
                "result": "fool",
            }
        )
        for seat in (a, 1 - a):
            for c in self.field[seat]:
                if c not in self.up:
                    self.buried.add(c)
                self.points[seat].append(c)
            self.field[seat] = []
        self._sorted[0] = self._sorted[1] = None
        self.up = set()
        self.used = set()
        self.forming = []
        self.events.append(("reset",))
        self._draw(a, RESET_DRAW)
        self._draw(1 - a, RESET_DRAW)
        self.stage = "reset"
        self._begin_place(a, "reset")

    # -- scoring ----------------------------------------------------------------------
    def scores(self) -> Scores:
        counts = [len(p) for p in self.points]
        if self.winner is not None:
            ranks: tuple[int, ...] = tuple(1 if s == self.winner else 2 for s in range(2))
        else:
            ranks = competition_ranks(counts)
        return Scores(
            totals=tuple(float(c) for c in counts),
            ranks=ranks,
            final=self.stage == "over",
            detail={"points": counts, "end": self.end_reason, "annihilation": self.winner},
        )

    # -- views --------------------------------------------------------------------------
    #: what every view keeps until the points, the winner or the end change: a key of
    #: what it was made from (each seat's number of points, the winner, whether the duel
    #: is over and why), the scores' JSON, and each points pile's JSON as its owner sees
    #: it and as the other seat sees it (its face-down cards only counted); a tuple,
    #: replaced, never changed, so a copy of the state may share it
    _view_scores: tuple[tuple[Any, ...], dict[str, Any], list[dict[str, Any]],
                        list[dict[str, Any]]] | None = None  # fmt: skip

    def _kept_scores(self) -> tuple[Any, ...]:
        """The scores' JSON (``scores().to_dict()``) and the points piles' JSON, made
        again only when what they are made of has changed (a view is built at every
        decision of every play-out, points change when cards are lost).  A points pile
        only grows, and its face-down cards change only as it grows (the Fool's sweep),
        so its length tells whether it changed.  Views only read these (``view`` hands
        out a JSON copy), so one dict of each serves every view until then."""
        points = self.points
        key = (len(points[0]), len(points[1]), self.winner, self.stage == "over",
               self.end_reason)  # fmt: skip
        kept = self._view_scores
        if kept is None or kept[0] != key:
            own, other = [], []
            buried = self.buried
            for pile in points:
                ordered = sorted(pile, key=_index)
                n = len(pile)
                own.append({"count": n, "cards": [c.code for c in ordered], "face_down": 0})
                shown = [c.code for c in ordered if c not in buried]
                other.append({"count": n, "cards": shown, "face_down": n - len(shown)})
            kept = self._view_scores = (key, self.scores().to_dict(), own, other)
        return kept

    def _view(self, seat: int | None) -> dict[str, Any]:
        to_act = self.current_player
        stage = self.stage
        setup = stage == "setup"
        up = self.up
        forming = self.forming
        attacked = self.used.union(forming) if forming else self.used
        kept = self._sorted
        fields = []
        for s in (0, 1):
            field = kept[s]
            if field is None:
                field = kept[s] = sorted(self.field[s], key=_index)
            face_up = [{"card": c.code, "attacked": c in attacked} for c in field if c in up]
            entry: dict[str, Any] = {"face_up": face_up, "face_down": len(field) - len(face_up)}
            if s == seat:
                entry["face_down_cards"] = [c.code for c in field if c not in up]
            fields.append(entry)
        _, scores, own, other = self._kept_scores()
        attack: dict[str, Any] | None = None
        if forming:
            total = 0
            for c in forming:
                total += _POWER[c]
            attack = {
                "cards": [c.code for c in forming],
                "power": total,
                "target": "down" if stage == "defend" else None,
            }
        hands = self.hands
        view: dict[str, Any] = {
            "game": self.game.id,
            "players": self.players,
            "seat": seat,
            "phase": stage,
            "current_player": to_act,
            "first_attacker": None if setup else self.first_attacker,
            "attacker": None if setup else self.attacker,
            "turn": self.turns,
            "stock_left": len(self.stock),
            "hand_sizes": [len(hands[0]), len(hands[1])],
            "fields": fields,
            "points": [own[0] if seat == 0 else other[0], own[1] if seat == 1 else other[1]],
            "attack": attack,
            "attacks_made": self.attacks,
            "lost_this_turn": self.lost,
            "combats": list(self.combats),  # finished combats' dicts: never changed
            "scores": scores,
        }
        if seat is not None:
            view["hand"] = [c.code for c in self._sorted_hand(seat)]
            view["legal_actions"] = [a.text for a in self.legal_actions()] if seat == to_act else []
        return view

    def _snapshot(self) -> dict[str, Any]:
        return {
            "hands": [[c.code for c in h] for h in self.hands],
            "stock": [c.code for c in reversed(self.stock)],
            "field": [[c.code for c in f] for f in self.field],
            "up": sorted_codes(self.up),
            "used": sorted_codes(self.used),
            "points": [[c.code for c in p] for p in self.points],
            "buried": sorted_codes(self.buried),
            "attacker": self.attacker,
            "forming": [c.code for c in self.forming],
            "lost": self.lost,
            "attacks": self.attacks,
            "turns": self.turns,
            "stage": self.stage,
            "placer": self._placer,
            "after": self._after,
            "combats": self.combats,
            "end": self.end_reason,
            "winner": self.winner,
        }

    def zones(self) -> dict[str, list[str]]:
        z = {f"hand:{s}": [c.code for c in h] for s, h in enumerate(self.hands)}
        z.update({f"field:{s}": [c.code for c in f] for s, f in enumerate(self.field)})
        z.update({f"points:{s}": [c.code for c in p] for s, p in enumerate(self.points)})
        z["stock"] = [c.code for c in self.stock]
        return z

    def check_invariants(self) -> None:
        total = sum(
            len(h) + len(f) + len(p)
            for h, f, p in zip(self.hands, self.field, self.points, strict=True)
        ) + len(self.stock)
        assert total == _N, f"{total} cards instead of {_N}"
        on_field = set(self.field[0]) | set(self.field[1])
        assert self.up <= on_field, "a face-up card is off the field"
        assert all(len(f) <= FIELD_SIZE for f in self.field)
        assert FOOL not in self.up or FOOL in self.forming, "T0 lies face up"
        assert self.buried <= set(self.points[0]) | set(self.points[1])
        a = self.attacker
        assert set(self.forming) <= set(self.field[a]) & self.up
        assert not (set(self.forming) & self.used)
        if self.stage in ("attack", "defend"):
            assert self.field[1 - a], "the defender's field is empty mid-turn"
        if self.stage == "defend":
            assert self.forming and any(c not in self.up for c in self.field[1 - a])
        if self.stage == "over" and self.end_reason == "annihilation":
            assert not self.field[1 - self.winner]  # type: ignore[operator]
        if self.stage == "over" and self.end_reason == "stock_out":
            assert not self.stock

    def __deepcopy__(self, memo: dict[int, Any]) -> ArcanaDuelState:
        """The copy behind :meth:`clone`: every container the duel changes is copied;
        cards, actions, the game, events and the records of finished combats are
        shared.  The seed's generator is shared too: a duel is one hand, and nothing
        draws from it after the deal."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        new.__dict__ = d
        d["_preset"] = list(self._preset)
        d["deals"] = list(self.deals)
        d["history"] = list(self.history)
        d["_legal"] = None
        for name in ("stock", "forming", "combats", "events"):
            d[name] = list(d[name])
        d["_sorted"] = list(self._sorted)
        for name in ("hands", "field", "points"):
            d[name] = [list(x) for x in d[name]]
        for name in ("up", "used", "buried"):
            d[name] = set(d[name])
        return new

    # -- worlds for search and leak tests ---------------------------------------------
    def _sample_deals(
        self, seat: int, rng: random.Random
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """A deal built from the seat's knowledge only, the unseen cards uniform.

        The opponent's cards are followed as *slots* (its 8 dealt cards, then its
        stock draws); each of its hidden placements lays its oldest slot in hand.
        A card of its later turned up from face down is written into the earliest
        of its placements since the last Fool's reset not yet given a card (this
        always fits, as it did in the true game).  Every card the seat has never
        seen then fills the other slots and the rest of the stock uniformly, and the
        opponent's ``place`` texts are rewritten to the cards of those slots.
        During the set-up the first attacker is not yet known and is drawn again.
        """
        other = 1 - seat
        deal = self.deals[0]
        hand: list[tuple[str, int]] = [("h", i) for i in range(DEAL_SIZE)]
        slot_of: dict[int, tuple[str, int]] = {}  # action index of a place -> slot
        fixed: dict[tuple[str, int], str] = {}
        pending: list[int] = []  # its placements since the last reset without a card
        own: set[int] = set()  # stock positions the seat drew itself
        shown: list[str] = []  # every card turned face up (each gets a "reveal" event)
        drawn = 0
        for event in self.events:
            kind = event[0]
            if kind == "draw":
                _, who, k = event
                if who == other:
                    hand.extend(("s", drawn + j) for j in range(k))
                else:
                    own.update(range(drawn, drawn + k))
                drawn += k
            elif kind == "place":
                _, who, index = event
                if who == other:
                    slot_of[index] = hand.pop(0)
                    pending.append(index)
            elif kind == "reveal":
                _, who, code = event
                shown.append(code)
                if who == other:
                    fixed[slot_of[pending.pop(0)]] = code
            else:
                pending.clear()
        # every card the seat has held: its dealt cards and its own draws from the stock
        seen = set(map(_CARD, deal["hands"][seat]))
        seen.update(_CARD(deal["stock"][j]) for j in own)
        seen.update(map(_CARD, shown))
        pool = [c.code for c in CARDS if c not in seen]
        # the opponent's dealt slots, then every stock position but the seat's own draws
        free = [("h", i) for i in range(DEAL_SIZE)]
        free += [("s", j) for j in range(len(deal["stock"])) if j not in own]
        free = [x for x in free if x not in fixed]
        assert len(free) == len(pool), "the seat's knowledge does not add up"
        shuffle(rng, pool)
        fill = dict(fixed)
        fill.update(zip(free, pool, strict=True))
        world_hands = [list(h) for h in deal["hands"]]
        world_hands[other] = [fill[("h", i)] for i in range(DEAL_SIZE)]
        stock = [fill.get(("s", j), code) for j, code in enumerate(deal["stock"])]
        first = below(rng, 2) if self.stage == "setup" else self.first_attacker
        world = {"hands": world_hands, "stock": stock, "first_attacker": first}
        actions = [a.text for a in self.history]
        for index, slot in slot_of.items():
            actions[index] = "place " + fill[slot]
        return [world], actions


_CARD = {c.code: c for c in CARDS}.__getitem__
_index = attrgetter("index")
_END_ACTION, _AT_DOWN_ACTION = ACTIONS[END], ACTIONS[AT_DOWN]


def sorted_codes(cs: set[Card] | list[Card]) -> list[str]:
    """Codes sorted in the deck's order."""
    return [c.code for c in sorted(cs, key=_index)]


ArcanaDuel.state_class = ArcanaDuelState
