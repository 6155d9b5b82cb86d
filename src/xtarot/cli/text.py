"""Text for a terminal: Japanese line breaking (kinsoku), Markdown that renders
Japanese bold, and commands printed whole.

Rich breaks lines only at spaces and folds a longer "word" at any character, so a
Japanese sentence (which has no spaces) may put ``。`` or ``、`` at the start of a
line.  :func:`divide_line` breaks between any two characters where one is wide
(CJK), except before closing punctuation and small kana (``。、）」ッー``…) and
after opening brackets (``「（``…) — the basic 禁則処理 rules.  :func:`install`
makes every wrapped :class:`rich.text.Text` of this process use it (ASCII-only
text keeps Rich's own rule).

>>> divide_line("あいうえおかきくけこ。", 10)  # not a lone 。: こ moves down with it
[5, 9]
>>> divide_line("ab cd", 3)
[3]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

import rich.text
from markdown_it.token import Token
from rich import _wrap
from rich.cells import cell_len, chop_cells
from rich.markdown import Markdown

__all__ = ["NO_END", "NO_START", "JMarkdown", "divide_line", "install"]

#: Characters that may not begin a line (行頭禁則).
NO_START = frozenset(
    "、。，．・：；？！゛゜ヽヾゝゞ々〻ー―‐）］｝〕〉》」』】〙〗〟’”｠»"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    "…‥〜～％‰℃,.;:!?)]}%"
)
#: Characters that may not end a line (行末禁則).
NO_END = frozenset("（［｛〔〈《「『【〘〖〝‘“｟«([{")

_rich_divide_line: Callable[[str, int, bool], list[int]] = _wrap.divide_line


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _can_break(text: str, i: int) -> bool:
    """Whether a new line may begin at ``text[i]``."""
    prev, cur = text[i - 1], text[i]
    if cur.isspace():
        return False  # spaces stay at the end of the line before
    if prev.isspace():
        return True
    if cur in NO_START or prev in NO_END:
        return False
    return _wide(prev) or _wide(cur)


def _units(text: str) -> Iterable[tuple[int, int]]:
    start = 0
    for i in range(1, len(text)):
        if _can_break(text, i):
            yield start, i
            start = i
    yield start, len(text)


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """The offsets where ``text`` breaks to fit ``width`` cells (Rich's contract),
    with Japanese line-breaking rules."""
    if text.isascii():
        return _rich_divide_line(text, width, fold)
    breaks: list[int] = []
    offset = 0
    for start, end in _units(text):
        unit = text[start:end]
        length = cell_len(unit.rstrip())
        if offset + length <= width:
            offset += cell_len(unit)
            continue
        if length > width:  # longer than a line: fold it (or crop)
            if not fold:
                if start:
                    breaks.append(start)
                offset = cell_len(unit)
                continue
            pieces = chop_cells(unit, width)
            for k, piece in enumerate(pieces):
                if start and (k or offset):
                    breaks.append(start)
                start += len(piece)
                offset = cell_len(piece)
        elif offset and start:
            breaks.append(start)
            offset = cell_len(unit)
    return breaks


def install() -> None:
    """Make Rich wrap every text of this process with :func:`divide_line`.

    >>> install(); install()  # idempotent
    >>> rich.text.divide_line is divide_line
    True
    """
    rich.text.divide_line = divide_line  # type: ignore[attr-defined]


class JMarkdown(Markdown):
    """Rich's Markdown, plus ``**bold**`` that CommonMark leaves as text.

    CommonMark opens emphasis only where ``**`` is "left-flanking", which fails
    between a Japanese letter and punctuation (``の**「護符」**を``): Rich would
    print the asterisks.  Such leftover pairs become bold here.

    >>> from rich.console import Console
    >>> console = Console(width=40, color_system=None)
    >>> with console.capture() as cap:
    ...     console.print(JMarkdown("誰かが**+500点以上**になったら終了。"))
    >>> "**" in cap.get(), "+500点以上" in cap.get()
    (False, True)
    """

    def __init__(self, markup: str, **kwargs: object) -> None:
        super().__init__(markup, **kwargs)  # type: ignore[arg-type]
        for token in self.parsed:
            if token.type == "inline" and token.children:
                token.children = _bold_pairs(token.children)


def _bold_pairs(children: list[Token]) -> list[Token]:
    """Pairs of ``**`` left in text tokens (even across inline code) become bold."""
    pieces: list[Token | None] = []  # None: a "**" marker
    for child in children:
        if child.type != "text" or "**" not in child.content:
            pieces.append(child)
            continue
        for i, part in enumerate(child.content.split("**")):
            if i:
                pieces.append(None)
            if part:
                pieces.append(Token("text", "", 0, content=part))
    markers = [i for i, p in enumerate(pieces) if p is None]
    out: list[Token] = []
    opened = False
    for i, piece in enumerate(pieces):
        if piece is not None:
            out.append(piece)
        elif len(markers) % 2 and i == markers[-1]:  # an odd one out stays text
            out.append(Token("text", "", 0, content="**"))
        else:
            kind = "strong_close" if opened else "strong_open"
            out.append(Token(kind, "strong", -1 if opened else 1, markup="**"))
            opened = not opened
    return out
