"""Extendori (エクステンドリ), id ``extendori``: take the point cards (絵札) in tricks.

Rulebook: ``shared/seeds/002`` (かつみ, v1.10); readings: RULINGS §4; summary:
``docs/rules/extendori.md``.  The name joins "extend" and 点取り (taking points).

使用カード (the deck, option ``deck``)
    112 cards (all), 111 (without T23), 110 (without T22 and T23) or 108 (without the
    four N, the minor 0s).  3 players play 108 (default) or 111; 4, 7 and 8 players
    112; 5 players 110; 6 players 108.  Any other choice is refused: the rulebook
    has no deal schedule for it.

順番決め (seating) and 配り (dealing in batches)
    The draw of majors gives the order #1, #2, ...; here seat ``first`` is #1 and the
    order runs clockwise.  #1 deals the first batch and leads.  The cards are dealt in
    batches (12+12+12 / 13+12+12 at 3 players, 14+14 at 4, 11+11 at 5, 9+9 at 6, 8+8
    at 7, 7+7 at 8; option ``single_deal``: 16 / 14 at once at 7-8), one card at a
    time, starting left of the dealer and ending with the dealer.  When every 手札 (hand)
    is empty and the 山札 (stock) still holds cards, the winner of the last trick
    deals the next batch and leads.

カードのプレイ (play)
    The first card of a trick is the 打ち出し札 (led card).  Follow its suit (the
    majors are a suit) when able; otherwise play a major when holding one; otherwise
    play any card, and that card cannot win.

強さの判定 (who wins)
    Any major beats any minor.  Majors rank by number, but when the deck's top major
    (T23; T22 with 111 cards; T21 with 110) shares a trick with T1 or T0 the order
    becomes ... < top < T1 < T0.  Minors of the led suit rank
    M(-1) < N(0) < 2 < .. < 15 < J < C < Q < K < A < F, but when the led suit's F
    shares a trick with that suit's N or M the order becomes ... < A < F < N < M.
    The winner takes the trick and leads the next.

カードの得点 (points)
    Every minor except 2-10 is worth 15, T0 and T1 30 each: 840 in all (780 with
    108 cards).  A match lasts ``hands`` hands (default one per player) or until
    someone reaches ``target_score``.  Between hands (次のゲーム) the seating stays and
    #1 moves one seat clockwise, so that by default everyone is #1 once; option
    ``between_hands`` can instead keep the same #1 every hand (``keep``: 順番を変えずに
    続ける) or draw the seating and #1 again (``reseat``: 「ゲームの開始」に戻る; the
    older option ``reseat_each_hand=True`` means the same).  Option
    ``teams`` at even counts: ``pairs`` (partners opposite, seats i and i+n/2) or
    ``halves`` (two teams on alternating seats); a team scores the sum of its members.
"""

from __future__ import annotations

from xtarot.games.extendori.play import ExtendoriState
from xtarot.games.extendori.rules import (
    DECK_SIZES,
    MAJORS,
    MINOR_ORDER,
    SCHEDULES,
    deck_cards,
    points,
    suit_key,
    trick_winner,
)
from xtarot.games.extendori.sampling import deal_respecting_voids
from xtarot.games.extendori.setup import Extendori

__all__ = [
    "DECK_SIZES",
    "MAJORS",
    "MINOR_ORDER",
    "SCHEDULES",
    "Extendori",
    "ExtendoriState",
    "deal_respecting_voids",
    "deck_cards",
    "points",
    "suit_key",
    "trick_winner",
]

Extendori.state_class = ExtendoriState
