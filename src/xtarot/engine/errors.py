"""The errors every game raises.  Each says what was wrong and what is allowed."""

from __future__ import annotations

__all__ = ["ConfigError", "DealError", "IllegalAction", "RecordError", "XtarotError"]


class XtarotError(ValueError):
    """Base class of the project's errors (all are ``ValueError``)."""


class IllegalAction(XtarotError):
    """An action that is not legal now, or text that names no action.

    The state it was offered to is unchanged.  ``legal`` holds the legal texts.
    """

    def __init__(self, message: str, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.legal = legal or []


class ConfigError(XtarotError):
    """Unknown game id, a player count the game does not allow, or a bad option."""


class DealError(XtarotError):
    """An explicit deck order or deal that is not a valid deal of the game."""


class RecordError(XtarotError):
    """A game record that is corrupt, of an unknown version, or does not replay."""
