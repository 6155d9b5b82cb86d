"""Checking explicit deals: the checks every game's ``_validate_deal`` shares.

A :class:`DealReader` checks that a deal names exactly the game's piles, parses card
codes against the game's deck (errors name the pile), refuses a card given twice
anywhere in the deal, and checks hands and seats; the game adds its own rules (card
sets per player count, pile sizes).

>>> from xtarot.cards import XTAROT
>>> reader = DealReader("demo", {"hands": [["Kc"], ["2d"]], "dealer": 1}, ["hands", "dealer"],
...                     XTAROT)
>>> hands = reader.hands("hands", players=2, size=1)
>>> [[c.code for c in h] for h in hands], reader.seat("dealer", 2)
([['Kc'], ['2d']], 1)
>>> reader.card("Kc", "stock")
Traceback (most recent call last):
...
xtarot.engine.errors.DealError: Kc appears twice (again in stock)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from xtarot.cards import Card, Deck
from xtarot.engine.errors import DealError

__all__ = ["DealReader", "parse_card"]


def parse_card(deck: Deck, code: Any, where: str) -> Card:
    """A card of ``deck``; an unknown code raises :class:`DealError` naming ``where``."""
    try:
        return deck.parse(code)
    except ValueError as err:
        raise DealError(f"{where}: {err}") from None


def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class DealReader:
    """Reads one deal; raises :class:`DealError` with the pile and card at fault."""

    def __init__(
        self,
        game_id: str,
        deal: dict[str, Any],
        piles: Sequence[str],
        deck: Deck,
        *,
        optional: Sequence[str] = (),
        hint: str = "",
        allowed: Collection[Card] | None = None,
        outside: str = "{card} is not in this game's card set",
    ) -> None:
        """``optional`` piles may be given; ``hint`` follows the pile listing in the
        error; ``allowed`` limits the cards (e.g. this player count's card set), with
        ``outside`` as the reason (``{card}`` is filled in)."""
        names = set(piles)
        missing = names - set(deal)
        extra = set(deal) - names - set(optional)
        if missing or extra:
            article = "an" if game_id[:1] in "aeiou" else "a"
            raise DealError(
                f"{article} {game_id} deal has the piles {_listing(list(piles))}{hint}"
                + (f"; missing {', '.join(sorted(missing))}" if missing else "")
                + (f"; unknown {', '.join(sorted(extra))}" if extra else "")
            )
        self.deal = deal
        self.deck = deck
        self.allowed = allowed
        self.outside = outside
        self.seen: set[Card] = set()

    def card(self, code: Any, where: str) -> Card:
        """One card of the deck, not seen before in this deal."""
        c = parse_card(self.deck, code, where)
        if self.allowed is not None and c not in self.allowed:
            raise DealError(f"{where}: {self.outside.format(card=c)}")
        if c in self.seen:
            raise DealError(f"{c} appears twice (again in {where})")
        self.seen.add(c)
        return c

    def cards(self, codes: Any, where: str, size: int | None = None) -> list[Card]:
        """A list of cards (``size`` of them when given)."""
        if not isinstance(codes, list):
            raise DealError(f"{where} must be a list of card codes")
        if size is not None and len(codes) != size:
            raise DealError(f"{where} must have {size} cards, not {len(codes)}")
        return [self.card(code, where) for code in codes]

    def hands(self, pile: str, players: int, size: int, note: str = "") -> list[list[Card]]:
        """One hand of ``size`` cards per seat."""
        hands = self.deal[pile]
        if not isinstance(hands, list) or len(hands) != players:
            raise DealError(f"{pile} must list {players} hands, one per seat")
        out = []
        for s, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != size:
                raise DealError(f"hand of seat {s} must have {size} cards{note}")
            out.append([self.card(code, f"hand of seat {s}") for code in hand])
        return out

    def seat(self, pile: str, players: int) -> int:
        """A seat number ``0..players-1``."""
        value = self.deal[pile]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
            raise DealError(f"{pile} must be a seat 0..{players - 1}, not {value!r}")
        return value
