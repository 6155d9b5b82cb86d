"""ビッド (the auction): declared values, the legal overcalls and when it ends.

Bidding starts left of the dealer and goes clockwise; a ``pass`` is final; every bid
must be strictly higher in declared value than the standing bid (RULINGS §3).  It
ends when all but one player have passed after a bid, or when everybody passed.

>>> table = BidTable(4)
>>> [a.text for a in table.above(480)][:3]  # 500, 500 (equal values: either, not both), 520
['bid 10c', 'bid misere double', 'bid 10nt']
>>> next_bidder([False, True, False, True], 0), auction_outcome([True, True, False, True], True)
(2, 'declared')
"""

from __future__ import annotations

from bisect import bisect_right

from xtarot.engine import Action

from .setup import ACTIONS, BID_OF, BID_VALUE, PASS, misere_value

__all__ = ["BidTable", "auction_outcome", "next_bidder"]


class BidTable:
    """The 37 bids with their declared values at one player count, cheapest first."""

    def __init__(self, players: int) -> None:
        bids = sorted(
            (
                BID_VALUE[i]
                if b.misere is None
                else misere_value(b.misere, b.declaration, players),
                i,
            )
            for i, b in BID_OF.items()
        )
        #: action id -> declared value
        self.values: dict[int, int] = {i: v for v, i in bids}
        self._values = [v for v, _ in bids]
        self._bids = [ACTIONS[i] for _, i in bids]
        self._choices: dict[int, list[Action]] = {}

    def pass_or_above(self, value: int) -> list[Action]:
        """``pass`` and every bid above ``value``: one shared list per value (callers
        must not change it)."""
        got = self._choices.get(value)
        if got is None:
            got = self._choices[value] = [ACTIONS[PASS], *self.above(value)]
        return got

    def above(self, value: int) -> list[Action]:
        """Every bid whose declared value is strictly above ``value``."""
        return self._bids[bisect_right(self._values, value) :]


def next_bidder(passed: list[bool], seat: int) -> int:
    """The next seat clockwise after ``seat`` that has not passed."""
    n = len(passed)
    nxt = (seat + 1) % n
    while passed[nxt]:
        nxt = (nxt + 1) % n
    return nxt


def auction_outcome(passed: list[bool], has_bid: bool) -> str:
    """``declared`` (all but one passed after a bid), ``all_pass`` or ``open``."""
    gone = sum(passed)
    if has_bid and gone == len(passed) - 1:
        return "declared"
    if gone == len(passed):
        return "all_pass"
    return "open"
