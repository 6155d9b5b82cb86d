"""フェアリーファイブハンドレッド (Fairy Five Hundred), id ``fairy500``, 3-8 players.

A bidding trick-taking game built on Five Hundred with pieces of Skat, Napoleon and
Contract Bridge.  Rulebook: ``shared/seeds/001``; readings: RULINGS §3; summary:
``docs/rules/fairy500.md``.  The package is split the way a hand is played:
:mod:`.setup` (card sets, bids, actions), :mod:`.auction` (declared values, overcalls),
:mod:`.play` (card orders), :mod:`.scoring`, :mod:`.hand` (one deal's record),
:mod:`.worlds` (sampled worlds) and :mod:`.game` (the game and the match state).

使用カード (cards)
    34 / 44 / 54 / 64 / 74 / 84 cards for 3 .. 8 players (see :func:`card_set`); 10
    cards each, 4 face down as the キティ (kitty).  The first ディーラー (dealer) is
    random; the deal passes clockwise.

ビッド (the auction)
    From the dealer's left, clockwise.  ``pass`` is final; a bid must beat the
    standing bid's 基本点 (base value).  Trick contracts ``bid 6s`` .. ``bid 10nt``
    (40 .. 520) and the ミゼール (misère) kinds ``bid misere``, ``bid hand-misere``,
    ``bid open-misere``, ``bid open-hand-misere``, each optionally ``double`` (x2,
    "I will hold an F") or ``crazy`` (x10, "I will hold the cups F").  When all but
    one have passed after a bid, the last bidder is the デクレアラー (declarer).  When
    everybody passes: ラムシュ (Ramsch), or per option ``all_pass`` a redeal or a
    no-trump game at 10 per trick.

副官 (partner) and キティ (kitty)
    At 4-6 players the declarer of a trick contract calls one card (``call <card>``),
    at 7-8 two; its holder is the secret partner, revealed when the card is played.
    None at 3 players, in misère, or with ``pairs`` (4 players: the opposite seat).
    The declarer then takes the kitty and discards four (``discard <card>``); hand
    misères play without it; in Ramsch it is dead.

プレイ (play)
    The declarer's left leads (Ramsch: the dealer's left); must follow; 10 tricks.
    Trump: cups F > coins F > trees F > swords F > trump J > colour-mate J > trump
    K Q C 15..N, and every F and the colour-mate J are trumps.  No trump: the four F
    are a suit of their own above all.  Misère and Ramsch: the led suit's F, then
    cups F > coins F > trees F > swords F, and the F keep their printed suits.

得点 (scoring)
    Contract made: +V (base + slam bonus), failed: -V; x1.5 / x2 for called cards the
    declarer holds or discarded; each partner V/2 per called card held; defenders
    10 per trick.  Misère: +value x F bonus with no trick, else -value; defenders 10
    per trick the declarer took.  Ramsch: no trick = 300/150/100/80/60/50 by the
    number of such players (x2 per F, x10 for the cups F); otherwise -50 per trick
    not won with an F.  The match ends when somebody reaches +500 or -500.

>>> import xtarot
>>> s = xtarot.load("fairy500", players=4).new_state(seed=1)
>>> s.h.phase, len(s.view(0)["hand"]), s.view(0)["kitty"]
('auction', 10, None)
"""

from .game import Fairy500, Fairy500State, Hand
from .play import MATE, SUIT_OF, key_table
from .setup import ACTIONS, Bid, card_set, misere_value

__all__ = [
    "ACTIONS",
    "MATE",
    "SUIT_OF",
    "Bid",
    "Fairy500",
    "Fairy500State",
    "Hand",
    "card_set",
    "key_table",
    "misere_value",
]
