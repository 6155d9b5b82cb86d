"""The people at a table: display names, table talk (chat) and the vote for a rematch.

None of this is part of the game or its record.  Names and chat messages are plain
text chosen by players: the server checks their size and characters here, stores them
with the table (so they survive a restart) and sends them to every client of the table;
the browser sets them as text, never as HTML.

>>> clean_name("  Ada   Lovelace ")
'Ada Lovelace'
>>> clean_name("x" * 25)
Traceback (most recent call last):
...
ValueError: a name is 1 to 24 characters (this one has 25)
>>> clean_chat("gg\\nwp")
'gg wp'
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CHAT_BURST",
    "CHAT_KEEP",
    "CHAT_MAX",
    "CHAT_PER_SECOND",
    "NAME_MAX",
    "PHRASES",
    "Social",
    "clean_chat",
    "clean_name",
    "player_id",
    "rematch_token",
]

#: Longest display name (characters).
NAME_MAX = 24
#: Longest chat message (characters).
CHAT_MAX = 200
#: Chat messages a client is sent when it joins (the latest ones).
CHAT_KEEP = 50
#: Chat messages one connection may send: per second sustained, and in a burst.
CHAT_PER_SECOND = 0.5
CHAT_BURST = 5.0
#: The quick phrases, by id: each reader sees them in their own language (the texts
#: live in the browser's ``i18n.js``: よろしくお願いします / Hi, ナイス! / Nice!, ...).
PHRASES = ("hello", "nice", "thanks", "gg", "sorry", "wait", "again")

# Characters that would let a name or a message disguise itself or the page's text:
# controls, and the bidirectional overrides and isolates.
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def _plain(raw: Any, what: str, limit: int) -> str:
    if not isinstance(raw, str):
        raise ValueError(f"{what} must be text")
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    bad = next((c for c in text if unicodedata.category(c) == "Cc" or c in _BIDI), None)
    if bad is not None:
        raise ValueError(f"{what} may not hold control characters (U+{ord(bad):04X})")
    if not 1 <= len(text) <= limit:
        raise ValueError(f"{what} is 1 to {limit} characters (this one has {len(text)})")
    return text


def clean_name(raw: Any) -> str:
    """A display name as shown: spaces collapsed, 1-24 characters, no control
    characters; raises ``ValueError`` saying what is wrong."""
    return _plain(raw, "a name", NAME_MAX)


def clean_chat(raw: Any) -> str:
    """A chat message as shown: one line, 1-200 characters, no control characters."""
    return _plain(raw, "a chat message", CHAT_MAX)


#: A player key as browsers make it: 16 to 64 URL-safe characters (the browser makes 32
#: from 24 random bytes).
_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def player_id(key: Any) -> str | None:
    """The public id of the player who holds the secret ``key``: a hash of it, so the
    server stores and shows only this id and never the key itself (``None`` for
    something that is not a key).

    >>> player_id("not a key!") is None
    True
    >>> len(player_id("a" * 32))
    20
    """
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        return None
    return hashlib.sha256(b"xtarot-player:" + key.encode("ascii")).hexdigest()[:20]


def rematch_token(token: str) -> str:
    """A seat's token at its rematch table, derived from its token at this one.

    Only the holder of the old token can work it out, so the server stores no token
    (only its hash, as for every seat) and can tell it again, after a restart, to
    whoever proves they held the old seat.

    >>> rematch_token("abc") == rematch_token("abc") != rematch_token("abd")
    True
    """
    digest = hashlib.sha256(b"xtarot-rematch:" + token.encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode("ascii")


@dataclass
class Social:
    """A loaded table's people: its recent chat and the rematch vote."""

    chat: list[dict[str, Any]] = field(default_factory=list)
    #: the next chat message's number
    chat_n: int = 0
    #: human seats that asked for a rematch, with the hash of their token there
    #: (:func:`rematch_token` of the token they voted with; stored with the table's
    #: settings, :mod:`xtarot.server.rematch`)
    votes: dict[int, str] = field(default_factory=dict)
    #: the rematch table, once every human agreed (stored with the table's settings),
    #: and where each seat sits there (the host may have shuffled the seats)
    rematch: str | None = None
    moved: dict[int, int] = field(default_factory=dict)

    def add(self, message: dict[str, Any]) -> None:
        self.chat.append(message)
        del self.chat[:-CHAT_KEEP]
        self.chat_n = message["n"] + 1
