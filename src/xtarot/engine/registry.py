"""The game registry: ``games()`` lists, ``load()`` builds a configured game.

The six built-in games register themselves with :func:`register` when
``xtarot.games`` is imported; games from other packages come in through the
``xtarot.games`` entry-point group (:mod:`xtarot.engine.plugins`) the first time
the registry is read.
"""

from __future__ import annotations

import contextlib
from importlib import resources
from typing import Any

from xtarot.engine.core import Game, GameInfo
from xtarot.engine.errors import ConfigError
from xtarot.engine.plugins import LazyRegistry, group

__all__ = ["game_class", "games", "load", "register", "rules_markdown"]


def _install_game(name: str, obj: Any) -> type[Game]:
    """Check one ``xtarot.games`` entry point's object before it is registered."""
    if not (isinstance(obj, type) and issubclass(obj, Game)):
        raise TypeError(f"expected a subclass of xtarot.engine.Game, got {obj!r}")
    info = getattr(obj, "info", None)
    if not isinstance(info, GameInfo):
        raise TypeError(f"{obj.__name__}.info must be an xtarot.engine.GameInfo")
    if info.id != name:
        raise ValueError(f"the entry point is named {name!r} but the game's id is {info.id!r}")
    return obj


_REGISTRY: LazyRegistry[type[Game]] = LazyRegistry("xtarot.games", {}, _install_game)


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator: make a game available to ``load`` under its ``info.id``.

    The built-in games use it; a plugin package declares its game as an
    ``xtarot.games`` entry point instead (it may also call this directly).
    """
    game_id = game_class.info.id
    existing = dict.get(_REGISTRY, game_id)  # no plugin loading while xtarot imports
    if existing is not None and existing is not game_class:
        raise ValueError(f"game id {game_id!r} is registered twice")
    dict.__setitem__(_REGISTRY, game_id, game_class)
    return game_class


def games() -> list[GameInfo]:
    """Every registered game, built-in first, then plugins by id."""
    return [g.info for g in _REGISTRY.values()]


def game_class(game_id: str) -> type[Game]:
    """The class registered under ``game_id``; :class:`ConfigError` lists the known ids."""
    cls = _REGISTRY.get(game_id)
    if cls is None:
        known = ", ".join(_REGISTRY) or "none"
        raise ConfigError(f"unknown game {game_id!r}; games: {known}")
    return cls


def load(game_id: str, players: int | None = None, **options: Any) -> Game:
    """A configured game: ``load("sono-arcana", players=4, teams=True)``.

    ``players`` defaults to the game's largest count.  An unknown id, a player count
    the game does not allow or a bad option raises :class:`ConfigError` naming what is
    allowed.
    """
    cls = game_class(game_id)
    if players is None:
        players = cls.info.max_players
    return cls(players, **options)


def rules_markdown(game_id: str, lang: str) -> tuple[str, str] | None:
    """A game's rules summary in ``lang`` (else English, else Japanese) as Markdown.

    Returns ``(language, text)`` or ``None``.  Built-in games keep theirs in the
    ``xtarot.rules`` data folder; a plugin names a package holding
    ``<id>.<lang>.md`` files in the ``xtarot.rules`` entry-point group.
    """
    folders: list[Any] = [resources.files("xtarot").joinpath("rules")]
    plugin = group("xtarot.rules").get(game_id)
    if plugin is not None:
        with contextlib.suppress(TypeError, ModuleNotFoundError):  # ``xtarot check`` says why
            folders.insert(0, resources.files(plugin))
    for candidate in dict.fromkeys((lang, "en", "ja")):
        for folder in folders:
            path = folder.joinpath(f"{game_id}.{candidate}.md")
            if path.is_file():
                return candidate, path.read_text(encoding="utf-8")
    return None
