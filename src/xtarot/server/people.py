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


@dataclass
class Social:
    """A loaded table's people: its recent chat and the rematch vote."""

    chat: list[dict[str, Any]] = field(default_factory=list)
    #: the next chat message's number
    chat_n: int = 0
    #: human seats that asked for a rematch
    votes: set[int] = field(default_factory=set)
    #: the rematch table, once every human agreed, and each human seat's secret token
    #: there (kept in memory only, to hand again to a seat that proves itself with its
    #: token here after missing the moment)
    rematch: str | None = None
    tokens: dict[int, str] = field(default_factory=dict)

    def add(self, message: dict[str, Any]) -> None:
        self.chat.append(message)
        del self.chat[:-CHAT_KEEP]
        self.chat_n = message["n"] + 1
