"""The Extendori game: options, seating and deals (使用カード, 順番決め, 配り)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from xtarot.cards import XTAROT, Card
from xtarot.engine import (
    ConfigError,
    DealError,
    DealReader,
    Game,
    GameInfo,
    Option,
    parse_card,
    register,
)
from xtarot.games.extendori.rules import (
    _DEFAULT_DECK,
    _POINTS,
    _SINGLE,
    ACTIONS,
    DECK_SIZES,
    SCHEDULES,
    _top_major,
    deck_cards,
)

#: Who is player #1 of the next hand (option ``between_hands``; the first is the default).
BETWEEN_HANDS = ("rotate", "keep", "reseat")


@register
class Extendori(Game):
    """Extendori for 3-8 players."""

    info = GameInfo(
        id="extendori",
        name_ja="エクステンドリ",
        name_en="Extendori",
        min_players=3,
        max_players=8,
        options=(
            Option(
                "deck",
                None,
                int,
                "cards in play: 112, 111 (no T23), 110 (no T22, T23) or 108 (no N); "
                "default by player count (3: 108 or 111; 4, 7, 8: 112; 5: 110; 6: 108)",
                "使用カード枚数：112、111(大23を除く)、110(大22・23を除く)、108(小0を除く)。"
                "既定は人数で決まる(3人:108か111、4・7・8人:112、5人:110、6人:108)",
                choices=(112, 111, 110, 108),
                nullable=True,
            ),
            Option(
                "single_deal",
                False,
                bool,
                "7-8 players: deal every card at once (16 / 14 each)",
                "7・8人：カードを一度に全部配る(16枚/14枚ずつ)",
                players=(7, 8),
            ),
            Option(
                "hands",
                None,
                int,
                "hands in the match (default: one per player, or unlimited with target_score)",
                "ゲーム数(既定：人数と同じ。目標得点を決めた場合は無制限)",
                nullable=True,
            ),
            Option(
                "target_score",
                None,
                int,
                "the match ends after the hand in which someone reaches this score",
                "誰かがこの得点に達したゲームで終了",
                nullable=True,
            ),
            Option(
                "between_hands",
                "rotate",
                str,
                "player #1 of the next hand: 'rotate' (the seat left of the last #1; "
                "default, so everyone is #1 once in the default match), 'keep' (the same "
                "#1 deals and leads every hand) or 'reseat' (draw the seating and #1 again)",
                "次のゲームの1番：'rotate'(前の1番の左隣。既定。既定のゲーム数で全員が1回ずつ"
                "1番になる)、'keep'(順番を変えずに同じ人が毎回配って打ち出す)、"
                "'reseat'(「ゲームの開始」に戻り順番を決め直す)",
                choices=BETWEEN_HANDS,
            ),
            Option(
                "reseat_each_hand",
                False,
                bool,
                "redraw the seating order and player #1 before every hand "
                "(the older name of between_hands=reseat)",
                "毎ゲーム「ゲームの開始」に戻り順番を決め直す(between_hands=reseat の旧名)",
            ),
            Option(
                "teams",
                None,
                str,
                "even counts: 'pairs' (partners opposite) or 'halves' (two teams, alternating)",
                "偶数人数：'pairs'(2人ずつ、向かい合う) または 'halves'(2組、交互に座る)",
                choices=("pairs", "halves"),
                players=(4, 6, 8),
                nullable=True,
            ),
        ),
        bulk_options=(("hands", 1),),
    )
    actions = ACTIONS
    deck_doc = (
        "deck=[...]: every card of the deck in use (112/111/110/108) once, top first.  "
        "Player #1 (and, with between_hands=reseat, the seating) comes from the seed; #1 deals "
        "the first batch one card at a time starting left of #1 and ending with #1; the "
        "rest is the stock, dealt the same way in later batches by the last trick's winner."
    )

    def _check_options(self) -> None:
        n, opts = self.players, self.options
        self._resolve_between_hands()
        deck = opts["deck"]
        if deck is None:
            deck = opts["deck"] = _DEFAULT_DECK[n]
        elif n not in DECK_SIZES[deck]:
            allowed = sorted(d for d, counts in DECK_SIZES.items() if n in counts)
            raise ConfigError(
                f"extendori: deck={deck} is not played at {n} players; the rulebook deals "
                + " or ".join(map(str, allowed))
                + f" cards at {n} players"
                + (" (108 is the default)" if n == 3 else "")
            )
        for name in ("hands", "target_score"):
            value = opts[name]
            if value is not None and value < 1:
                raise ConfigError(f"extendori: option {name} must be at least 1, not {value}")
        self.deck_size: int = deck
        self.cards: list[Card] = deck_cards(deck)
        self.card_set = frozenset(self.cards)
        self.top_major = _top_major(deck)
        self.schedule: tuple[int, ...] = _SINGLE[n] if opts["single_deal"] else SCHEDULES[(n, deck)]
        self.total_points = sum(_POINTS[c.index] for c in self.cards)
        self.target: int | None = opts["target_score"]
        limit = opts["hands"]
        self.hands_limit: int | None = limit if limit is not None or self.target else n
        mode = opts["teams"]
        if mode == "pairs":
            half = n // 2
            self.teams: tuple[tuple[int, ...], ...] | None = tuple(
                (s, s + half) for s in range(half)
            )
        elif mode == "halves":
            self.teams = (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
        else:
            self.teams = None
        self.team_of: list[int] = list(range(n))
        if self.teams:
            for t, members in enumerate(self.teams):
                for s in members:
                    self.team_of[s] = t

    def _resolve_between_hands(self) -> None:
        """Settle ``between_hands`` and its older name ``reseat_each_hand`` into one
        agreeing pair, so that old records (only ``reseat_each_hand``) replay and new
        records (both) name the rule twice in the same way.

        Only values count, never whether an option was given: the web lobby sends only
        changed options, but the OpenSpiel adapter passes every option with its
        default.  So ``reseat_each_hand=True`` turns the default ``rotate`` into
        ``reseat``, ``reseat_each_hand=False`` (its default) leaves any choice alone,
        and only ``reseat_each_hand=True`` with ``keep`` is a contradiction."""
        opts = self.options
        rule = opts["between_hands"]
        if opts["reseat_each_hand"]:
            if rule == "keep":
                raise ConfigError(
                    "extendori: reseat_each_hand=true contradicts between_hands=keep: "
                    "reseat_each_hand=true is the older name of between_hands=reseat; "
                    "give between_hands alone (rotate, keep or reseat)"
                )
            rule = "reseat"
        opts["between_hands"] = rule
        opts["reseat_each_hand"] = rule == "reseat"

    # -- seating ---------------------------------------------------------------------
    def next_first(self, first: int) -> int | None:
        """Player #1 of the hand after one whose #1 was ``first``: the next seat
        clockwise (``rotate``), the same seat (``keep``), or ``None`` when the seating
        and #1 are drawn again (``reseat``)."""
        rule = self.options["between_hands"]
        if rule == "reseat":
            return None
        return first if rule == "keep" else (first + 1) % self.players

    def clockwise(self, first: int) -> list[int]:
        """The play order of a hand whose #1 is ``first`` (no reseating)."""
        return [(first + i) % self.players for i in range(self.players)]

    def random_seating(self, rng: random.Random) -> list[int]:
        """A uniformly drawn play order (#1 first) that keeps the team seating rule."""
        n, mode = self.players, self.options["teams"]
        if mode == "pairs":
            teams = [list(t) for t in self.teams or ()]
            rng.shuffle(teams)
            for t in teams:
                rng.shuffle(t)
            return [t[0] for t in teams] + [t[1] for t in teams]
        if mode == "halves":
            a, b = list(range(0, n, 2)), list(range(1, n, 2))
            rng.shuffle(a)
            rng.shuffle(b)
            if rng.random() < 0.5:
                a, b = b, a
            return [s for pair in zip(a, b, strict=True) for s in pair]
        order = list(range(n))
        rng.shuffle(order)
        return order

    def seating_ok(self, order: Sequence[int]) -> bool:
        """Whether a play order keeps partners opposite / teams alternating."""
        n, mode, team = self.players, self.options["teams"], self.team_of
        if mode == "pairs":
            return all(team[order[i]] == team[order[i + n // 2]] for i in range(n // 2))
        if mode == "halves":
            return all(team[order[i]] != team[order[(i + 1) % n]] for i in range(n))
        return True

    # -- deals -----------------------------------------------------------------------
    def deal_cards(self, cs: Sequence[Card], first: int, order: Sequence[int]) -> dict[str, Any]:
        """Deal a shuffled deck: the first batch one at a time from left of #1, #1 last."""
        n, k = self.players, self.schedule[0]
        hands: list[list[str]] = [[] for _ in range(n)]
        for j in range(n * k):
            hands[order[(j + 1) % n]].append(cs[j].code)
        deal: dict[str, Any] = {
            "hands": hands,
            "stock": [c.code for c in cs[n * k :]],
            "first": first,
        }
        if self.options["between_hands"] == "reseat":
            deal["order"] = list(order)
        return deal

    def shuffled_deal(self, rng: random.Random, first: int | None = None) -> dict[str, Any]:
        """A random deal; ``first`` fixes #1 (the seating then runs clockwise)."""
        if self.options["between_hands"] == "reseat":
            order = self.random_seating(rng)
        else:
            order = self.clockwise(rng.randrange(self.players) if first is None else first)
        cs = list(self.cards)
        rng.shuffle(cs)
        return self.deal_cards(cs, order[0], order)

    def _random_deal(self, rng: random.Random) -> dict[str, Any]:
        return self.shuffled_deal(rng)

    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]:
        if len(deck) != self.deck_size:
            raise DealError(
                f"a {self.deck_size}-card extendori deck has {self.deck_size} cards, "
                f"not {len(deck)}"
            )
        cs = [self._parse(code, "deck") for code in deck]
        if self.options["between_hands"] == "reseat":
            order = self.random_seating(rng)
        else:
            order = self.clockwise(rng.randrange(self.players))
        return self.deal_cards(cs, order[0], order)

    def _parse(self, code: Any, where: str) -> Card:
        c = parse_card(XTAROT, code, where)
        if c not in self.card_set:
            raise DealError(f"{where}: {c} is not in the {self.deck_size}-card deck")
        return c

    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        n, k = self.players, self.schedule[0]
        reseat = self.options["between_hands"] == "reseat"
        reader = DealReader(
            self.id,
            deal,
            ["hands", "stock", "first"],
            XTAROT,
            optional=["order"] if reseat else [],
            hint=" (and order, with between_hands=reseat)" if reseat else "",
            allowed=self.card_set,
            outside=f"{{card}} is not in the {self.deck_size}-card deck",
        )
        hands = reader.hands("hands", n, k, note=" (the first batch)")
        stock = deal["stock"]
        rest = self.deck_size - n * k
        if not isinstance(stock, list) or len(stock) != rest:
            raise DealError(f"stock must list the other {rest} cards, top first")
        out_stock = [c.code for c in reader.cards(stock, "stock")]
        first = reader.seat("first", n)
        out: dict[str, Any] = {
            "hands": [[c.code for c in h] for h in hands],
            "stock": out_stock,
            "first": first,
        }
        if reseat:
            order = deal.get("order", self.clockwise(first))
            if (
                not isinstance(order, list)
                or sorted(order) != list(range(n))
                or any(isinstance(s, bool) for s in order)
            ):
                raise DealError(f"order must list the seats 0..{n - 1} in play order")
            if order[0] != first:
                raise DealError(f"order must start with player #1 (seat {first})")
            if not self.seating_ok(order):
                raise DealError(f"order {order} breaks the team seating")
            out["order"] = list(order)
        return out
