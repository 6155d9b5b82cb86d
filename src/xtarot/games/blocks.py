"""The building blocks for writing a game: the stable API for plugin authors.

Everything a new rulebook needs from xtarot is importable from here, and these
names keep their meaning and signatures across minor versions: a rename or a
new signature keeps the old form working, with a ``DeprecationWarning``, for at
least one minor version.  Modules not listed here are the built-in games' own
business and may change.

- **the contract** — :class:`Game`, :class:`State`, :class:`GameInfo`,
  :class:`Option`, :class:`Action`, :class:`ActionSpace`, :class:`Scores` (with
  :func:`competition_ranks`, "1224" ranking), and the errors :class:`ConfigError`,
  :class:`DealError`, :class:`IllegalAction`;
- **cards** — :class:`Card`, :func:`card`, :func:`cards`, the decks ``XTAROT`` and
  ``CLASSIC``, ``SUITS`` and ``SUIT_NAMES`` (``xtarot.cards``);
- **deals** — :class:`DealReader` (validates ``new_state(deal=...)`` piles with
  clear errors), :func:`parse_card`, :func:`deal_in_turn` (one card at a time
  round the table, as people deal);
- **tricks** — :func:`follow_options`, :func:`follow_or_trump_options`,
  :class:`Trick` (winner by any ranking key), :class:`VoidTracker` (public "has no
  suit X" facts);
- **auctions** — :func:`next_bidder` and :func:`auction_outcome` for a round of bids
  where a pass is final;
- **worlds** — :func:`resample_hands` (hidden cards dealt uniformly among the deals
  that respect every void), :func:`deal_uniform` and :func:`count_deals` (the exact
  sampler underneath), for ``State.sample_world``.

>>> from xtarot.games.blocks import cards, deal_in_turn
>>> [[c.code for c in h] for h in deal_in_turn(cards("Ac 2c 3c 4c 5c 6c"), [2, 0, 1])]
[['2c', '5c'], ['3c', '6c'], ['Ac', '4c']]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xtarot.cards import CLASSIC, SUIT_NAMES, SUITS, XTAROT, Card, card, cards
from xtarot.engine import (
    Action,
    ActionSpace,
    ConfigError,
    DealError,
    DealReader,
    Game,
    GameInfo,
    IllegalAction,
    Option,
    Scores,
    State,
    count_deals,
    deal_uniform,
    parse_card,
)
from xtarot.engine.core import competition_ranks
from xtarot.games.fairy500.auction import auction_outcome, next_bidder
from xtarot.games.tricks import (
    Trick,
    VoidTracker,
    follow_options,
    follow_or_trump_options,
    resample_hands,
)

__all__ = [
    "CLASSIC",
    "SUITS",
    "SUIT_NAMES",
    "XTAROT",
    "Action",
    "ActionSpace",
    "Card",
    "ConfigError",
    "DealError",
    "DealReader",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Option",
    "Scores",
    "State",
    "Trick",
    "VoidTracker",
    "auction_outcome",
    "card",
    "cards",
    "competition_ranks",
    "count_deals",
    "deal_in_turn",
    "deal_uniform",
    "follow_options",
    "follow_or_trump_options",
    "next_bidder",
    "parse_card",
    "resample_hands",
]

T = TypeVar("T")


def deal_in_turn(
    deck: Sequence[T], seats: Sequence[int], per_seat: int | None = None
) -> list[list[T]]:
    """Deal ``deck`` one card at a time to ``seats`` in that order, ``per_seat`` each
    (default: as many whole rounds as the deck allows); returns the hands indexed by
    seat number (``max(seats) + 1`` lists; a seat not in ``seats`` gets none).

    The cards left over (the stock, a kitty) are ``deck[len(seats) * per_seat:]``.
    """
    rounds = len(deck) // len(seats) if per_seat is None else per_seat
    if rounds * len(seats) > len(deck):
        raise ValueError(f"{len(deck)} cards cannot give {len(seats)} seats {rounds} each")
    hands: list[list[T]] = [[] for _ in range(max(seats) + 1)]
    for i in range(rounds * len(seats)):
        hands[seats[i % len(seats)]].append(deck[i])
    return hands
