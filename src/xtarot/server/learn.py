"""Learn: a guided first hand of each game against easy bots (``POST /api/learn``).

A learn table is an ordinary table with one human seat (seat 0) and ``easy`` bots,
set up so that one hand is short and shows the game's rules: the smallest usual player
count, a single hand where the game has a ``hands`` option, and a friendly deal.  It is
stored with ``settings["learn"] = True``: the table page then shows the coach (the rules
as they come up in the player's own view, and the hint for each decision; see
``static/learn.js``), and the match is not rated.

The deals were picked by playing each one with the server's own bots (seeded as
:meth:`xtarot.server.hub.Hub.seat_agent` seeds them) while the human seat followed the
hint bot: the learner meets the game's main rules in that hand (a contract as declarer,
a claim, a purchase, an attack...) and, following the hints, wins it.
``LEARN[game].seeds[k % len(seeds)]`` is the deal of the ``k``-th *Learn again*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["LEARN", "LearnSetup", "learn_setup"]


@dataclass(frozen=True)
class LearnSetup:
    """How a game's learn table is set up."""

    players: int
    seeds: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def seats(self) -> list[str]:
        """The learner in seat 0 (Seat 1), easy bots in the others."""
        return ["human"] + ["easy"] * (self.players - 1)

    def seed(self, again: int) -> int:
        return self.seeds[again % len(self.seeds)]


#: Per game: the player count, the options and the deals, in the order Learn again
#: takes them.  Fairy 500 at four players (its usual table: at three there is no partner
#: to call); the others at their smallest count.
LEARN: dict[str, LearnSetup] = {
    # the learner wins the auction and declares (call, kitty) and makes the contract
    "fairy500": LearnSetup(4, (7, 20, 32), {"hands": 1}),
    # following, a major when the led suit is missing, a free card, a second batch
    "extendori": LearnSetup(3, (14, 36, 17), {"hands": 1}),
    # pon, chi, claims, the three special cups; the learner goes out (agari) or wins
    "grail-mahjong": LearnSetup(2, (2, 11, 30), {"hands": 1}),
    # purchases and payments, the Fool turning up
    "matto": LearnSetup(3, (8, 6, 4)),
    # lot choice, face-up and face-down bids, voided cards, clashing talismans
    "sono-arcana": LearnSetup(3, (1, 5, 2)),
    # set-up, attacks, defence, refills; ends in an annihilation
    "arcana-duel": LearnSetup(2, (1, 13, 11)),
}


def learn_setup(game: str) -> LearnSetup | None:
    """The learn table of ``game`` (``None``: the game has none, e.g. a plugin)."""
    return LEARN.get(game)
