"""The game registry: ``games()`` lists, ``load()`` builds a configured game."""

from __future__ import annotations

from typing import Any

from xtarot.engine.core import Game, GameInfo
from xtarot.engine.errors import ConfigError

__all__ = ["games", "load", "register"]

_REGISTRY: dict[str, type[Game]] = {}


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator: make a game available to ``load`` under its ``info.id``."""
    game_id = game_class.info.id
    if game_id in _REGISTRY and _REGISTRY[game_id] is not game_class:
        raise ValueError(f"game id {game_id!r} is registered twice")
    _REGISTRY[game_id] = game_class
    return game_class


def games() -> list[GameInfo]:
    """Every registered game, in registration order."""
    return [g.info for g in _REGISTRY.values()]


def load(game_id: str, players: int | None = None, **options: Any) -> Game:
    """A configured game: ``load("sono-arcana", players=4, teams=True)``.

    ``players`` defaults to the game's largest count.  An unknown id, a player count
    the game does not allow or a bad option raises :class:`ConfigError` naming what is
    allowed.
    """
    game_class = _REGISTRY.get(game_id)
    if game_class is None:
        known = ", ".join(_REGISTRY) or "none"
        raise ConfigError(f"unknown game {game_id!r}; games: {known}")
    if players is None:
        players = game_class.info.max_players
    return game_class(players, **options)
