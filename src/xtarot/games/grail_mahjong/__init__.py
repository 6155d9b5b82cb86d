"""聖杯麻雀 (Grail Mahjong), id ``grail-mahjong``: a mahjong-like game for 2-4 players.

Rulebook: ``shared/seeds/003``; readings: RULINGS §5; summary: ``docs/rules/grail-mahjong.md``.

準備 (set-up)
    Numbers 1..k in five suits — 大アルカナ (the majors ``T1..Tk``, suit ``T``),
    聖杯 ``c``, 金貨 ``d``, 魔剣 ``s``, 聖樹 ``w`` (``A`` = 1) — with k = 6, 8, 10 at 2, 3,
    4 players, plus three cups specials: ``Oc`` ダーザの杯 (wild), ``Rc`` 聖杯の休息 (its
    discard ends the hand), ``Lc`` 聖杯の幸運 (doubles its owner's score): 33, 43, 53
    cards.  9 each, the rest is the 山札 (stock).  The first 親 (dealer) is random;
    later the last hand's winner deals.

手番 (a turn), counter-clockwise from the dealer (next seat = seat - 1)
    Draw (an empty stock ends the hand in a showdown); meld from the hand as often as
    wanted — ポン (pon) of three equal numbers, チー (chi) of a run of three in one
    suit, add a card of the number to one's pon (カン; then a replacement draw), extend
    one's chi at an end (no draw unless option ``chi_extension_draws``); melds hold 3
    to 6 cards; then discard a card, or play ``Lc`` face up into one's area
    (``luck``).  ``Oc`` stands for any number card in a meld, its meaning fixed when
    melded.

鳴き (claims)
    Every other seat answers each discard blind, in turn order after the discarder:
    ``pass`` or ``claim pon``/``claim chi`` with two of its cards.  Nobody learns who
    could claim; only the winning claim is revealed.  Pon beats chi, then the nearest
    seat after the discarder.  The claimer melds, may meld more, and discards; play
    goes on from the claimer without a draw.

終わり (the end of a hand)
    Discarding ``Rc`` → showdown (even as one's last card).  A hand emptied any other
    way → あがり, that player wins at once.  Showdown: the highest score wins, ties
    share.  Score: (n - 2)^2 per meld of n cards (1, 4, 9, 16), doubled with ``Lc``;
    only winners add it to their total.  A match is ``hands`` hands (default 10).

Action space
    Every meld and claim text of the 53-card set is one fixed id (2,909 ids at every
    player count); see :mod:`xtarot.games.grail_mahjong.actions`.
"""

from __future__ import annotations

import random
from typing import Any

from xtarot.cards import Card, Deck
from xtarot.engine import ConfigError, DealError, DealReader, Game, GameInfo, Option, register
from xtarot.engine.rand import below, shuffle
from xtarot.games.grail_mahjong.actions import ACTIONS, HAND_SIZE, card_set, k_for, runs_of
from xtarot.games.grail_mahjong.state import GrailMahjongState, Meld
from xtarot.games.grail_mahjong.tables import tables_for

__all__ = ["GrailMahjong", "GrailMahjongState", "Meld"]


@register
class GrailMahjong(Game):
    """聖杯麻雀 for 2-4 players."""

    info = GameInfo(
        id="grail-mahjong",
        name_ja="聖杯麻雀",
        name_en="Grail Mahjong",
        min_players=2,
        max_players=4,
        options=(
            Option(
                "hands",
                10,
                int,
                "number of hands in the match",
                "1試合のプレイ回数",
            ),
            Option(
                "chi_extension_draws",
                False,
                bool,
                "extending one's own chi also draws a replacement card",
                "自分のチーを伸ばしたときも山札から1枚補充する",
            ),
        ),
        bulk_options=(("hands", 1),),
    )
    actions = ACTIONS
    state_class = GrailMahjongState
    deck_doc = (
        "deck=[...]: the player count's 33/43/53 cards (numbers 1..k in T c d s w, "
        "Oc, Rc, Lc), each once, top first; the first 9 go to seat 0, the next 9 to "
        "seat 1, and so on; the rest is the stock, top first.  The dealer comes from the seed."
    )

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        self.k = k_for(players)
        self.card_set: list[Card] = card_set(players)
        self.codes: tuple[str, ...] = tuple(c.code for c in self.card_set)
        self.runs_of = runs_of(self.k)
        self.deck = Deck(f"grail-mahjong {players}-player", self.card_set)
        self.tables = tables_for(self.k)
        #: where each seat's dealt cards and the stock lie in a dealt deck
        self._hand_slices = tuple(slice(HAND_SIZE * s, HAND_SIZE * (s + 1)) for s in range(players))
        self._stock_from = HAND_SIZE * players
        #: per discarder, the seats asked to answer, in turn order
        self.asked_after: tuple[tuple[int, ...], ...] = tuple(
            tuple((seat - i) % players for i in range(1, players)) for seat in range(players)
        )

    def _check_options(self) -> None:
        if self.options["hands"] < 1:
            raise ConfigError(
                f"grail-mahjong: option hands={self.options['hands']} must be 1 or more"
            )

    def _random_deal(self, rng: random.Random) -> dict[str, Any]:
        cs = list(self.codes)
        shuffle(rng, cs)
        return self._split(cs, below(rng, self.players))

    def _split(self, cs: list[str], dealer: int) -> dict[str, Any]:
        return {
            "hands": list(map(cs.__getitem__, self._hand_slices)),
            "stock": cs[self._stock_from :],
            "dealer": dealer,
        }

    def _deal_from_deck(self, deck: list[str], rng: random.Random) -> dict[str, Any]:
        if len(deck) != len(self.card_set):
            raise DealError(
                f"a {self.players}-player deck has {len(self.card_set)} cards, not {len(deck)}"
            )
        return self._split(list(deck), below(rng, self.players))

    def _validate_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        n = self.players
        reader = DealReader(self.id, deal, ["hands", "stock", "dealer"], self.deck)
        hands = reader.hands("hands", n, HAND_SIZE)
        stock = deal["stock"]
        rest = len(self.card_set) - HAND_SIZE * n
        if not isinstance(stock, list) or len(stock) != rest:
            raise DealError(f"stock must list the other {rest} cards, top first")
        return {
            "hands": [[c.code for c in h] for h in hands],
            "stock": [c.code for c in reader.cards(stock, "stock")],
            "dealer": reader.seat("dealer", n),
        }
