"""The games.  Importing this package registers every game with the engine."""

from xtarot.games import arcana_duel, extendori, fairy500, grail_mahjong, matto, sono_arcana

__all__ = [
    "arcana_duel",
    "extendori",
    "fairy500",
    "grail_mahjong",
    "matto",
    "sono_arcana",
]
