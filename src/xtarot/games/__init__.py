"""The games.  Importing this package registers every game with the engine."""

from xtarot.games import sono_arcana

__all__ = ["sono_arcana"]
