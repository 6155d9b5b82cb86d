"""Cards and decks: the Xtarot 112-card deck and the classic 78-card tarot deck.

A card is a small immutable value with one canonical text form, its *code*
(RULINGS §1): rank followed by suit letter for the suit cards (``Kc``, ``10s``,
``Fw``, ``Nd``, ``Rc``) and ``T`` followed by the number for the major arcana
(``T0`` .. ``T23``).  Every card is interned: there is exactly one :class:`Card`
object per code, so cards compare by identity and hash fast.

>>> c = card("Kc")
>>> c.suit, c.rank, c.code
('c', 'K', 'Kc')
>>> card("Kc") is c
True
>>> str(card("T13")), card("T13").number
('T13', 13)
>>> XTAROT.parse("Xq")
Traceback (most recent call last):
...
xtarot.cards.UnknownCard: 'Xq' is not a card of the Xtarot deck
>>> len(XTAROT), len(CLASSIC)
(112, 78)
>>> CLASSIC.parse("Rc")
Traceback (most recent call last):
...
xtarot.cards.UnknownCard: 'Rc' is not a card of the classic tarot deck

The classic deck's cards are a subset of the Xtarot deck's codes (its ranks are
``A 2..10 J C Q K`` and its majors ``T0``..``T21``), so one card universe serves
both decks; a game only ever deals from its own deck.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

__all__ = [
    "CLASSIC",
    "CLASSIC_RANKS",
    "DAZA_CUP",
    "MAJOR_NAMES",
    "RANK_VALUES",
    "SUITS",
    "SUIT_NAMES",
    "XTAROT",
    "XTAROT_RANKS",
    "Card",
    "Deck",
    "UnknownCard",
    "card",
    "cards",
    "codes",
]


class UnknownCard(ValueError):
    """A card code that is not part of the deck in use."""


#: Suit letters in the project's fixed order: cups, coins, swords, trees.
SUITS: Final[tuple[str, ...]] = ("c", "d", "s", "w")

#: Suit names (Japanese, English).  Cups and coins are red, swords and trees black.
SUIT_NAMES: Final[dict[str, tuple[str, str]]] = {
    "c": ("聖杯", "cups"),
    "d": ("金貨", "coins"),
    "s": ("魔剣", "swords"),
    "w": ("聖樹", "trees"),
}
SUIT_COLOURS: Final[dict[str, str]] = {"c": "red", "d": "red", "s": "black", "w": "black"}

#: Xtarot ranks, lowest to highest printed value.
XTAROT_RANKS: Final[tuple[str, ...]] = (
    "M", "N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "R", "E", "B", "L", "W", "J", "C", "Q", "K", "F",
)  # fmt: skip

#: Classic tarot ranks (A low, then pips, then the four courts).
CLASSIC_RANKS: Final[tuple[str, ...]] = (
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K",
)  # fmt: skip

#: Printed values of the ranks that carry a number.  Courts carry none.
RANK_VALUES: Final[dict[str, float]] = {
    "M": -1, "N": 0, "A": 1, **{str(i): i for i in range(2, 11)},
    "R": 11, "E": 12, "B": 13, "L": 14, "W": 15, "F": math.inf,
}  # fmt: skip

_COURT_NAMES: Final[dict[str, tuple[str, str]]] = {
    "J": ("ジャック", "Jack"),
    "C": ("ナイト", "Knight"),
    "Q": ("クイーン", "Queen"),
    "K": ("キング", "King"),
    "A": ("エース", "Ace"),
    "F": ("フェアリー", "Fairy (F)"),
}

#: Major arcana names (Japanese, English), Marseille numbering (VIII Justice, XI
#: Strength) as on the classic deck; T22 and T23 exist only in Xtarot and are
#: shown by number.
MAJOR_NAMES: Final[tuple[tuple[str, str], ...]] = (
    ("愚者", "The Fool"),
    ("魔術師", "The Magician"),
    ("女教皇", "The High Priestess"),
    ("女帝", "The Empress"),
    ("皇帝", "The Emperor"),
    ("教皇", "The Hierophant"),
    ("恋人", "The Lovers"),
    ("戦車", "The Chariot"),
    ("正義", "Justice"),
    ("隠者", "The Hermit"),
    ("運命の輪", "Wheel of Fortune"),
    ("力", "Strength"),
    ("吊された男", "The Hanged Man"),
    ("死神", "Death"),
    ("節制", "Temperance"),
    ("悪魔", "The Devil"),
    ("塔", "The Tower"),
    ("星", "The Star"),
    ("月", "The Moon"),
    ("太陽", "The Sun"),
    ("審判", "Judgement"),
    ("世界", "The World"),
    ("大アルカナ22", "Major 22"),
    ("大アルカナ23", "Major 23"),
)


class Card:
    """One card.  Use :func:`card` or :meth:`Deck.parse`; never construct directly.

    Attributes: ``code`` (canonical text), ``index`` (0..112, stable; 112 is ``Oc``), ``suit``
    (``'c' 'd' 's' 'w'`` or ``None`` for a major), ``rank`` (``'K'``, ``'10'``…, or
    ``None`` for a major), ``number`` (the major's number, else ``None``),
    ``value`` (printed value: ``M`` = -1 … ``W`` = 15, ``F`` = infinity, the major's
    number; ``None`` for J C Q K).
    """

    __slots__ = ("code", "index", "number", "rank", "suit", "value")

    code: str
    index: int
    suit: str | None
    rank: str | None
    number: int | None
    value: float | None

    def __init__(
        self, code: str, index: int, suit: str | None, rank: str | None, number: int | None
    ) -> None:
        set_ = object.__setattr__
        set_(self, "code", code)
        set_(self, "index", index)
        set_(self, "suit", suit)
        set_(self, "rank", rank)
        set_(self, "number", number)
        value: float | None = number if number is not None else RANK_VALUES.get(rank or "")
        set_(self, "value", value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        """Sort order: majors by number, then suits c d s w, each by printed rank."""
        return self.index < other.index

    @property
    def is_major(self) -> bool:
        return self.suit is None

    @property
    def colour(self) -> str | None:
        """``'red'`` (cups, coins), ``'black'`` (swords, trees), ``None`` for majors."""
        return None if self.suit is None else SUIT_COLOURS[self.suit]

    def name(self, lang: str = "en") -> str:
        """Human name in ``'ja'`` or ``'en'``.

        >>> card("T0").name("ja"), card("Qd").name(), card("7s").name("ja")
        ('愚者', 'Queen of coins', '魔剣の7')
        """
        ja = lang == "ja"
        if self.number is not None:
            return MAJOR_NAMES[self.number][0 if ja else 1]
        assert self.suit is not None and self.rank is not None
        suit_ja, suit_en = SUIT_NAMES[self.suit]
        if self.rank == "O":
            return "ダーザの杯" if ja else "Daza's Cup (wild)"
        if self.rank in _COURT_NAMES:
            rank_ja, rank_en = _COURT_NAMES[self.rank]
        else:
            value = RANK_VALUES[self.rank]
            rank_ja = rank_en = f"{self.rank}({int(value)})" if self.rank.isalpha() else self.rank
        return f"{suit_ja}の{rank_ja}" if ja else f"{rank_en} of {suit_en}"


def _build() -> tuple[tuple[Card, ...], dict[str, Card]]:
    universe: list[Card] = []
    for n in range(24):
        universe.append(Card(f"T{n}", len(universe), None, None, n))
    for s in SUITS:
        for r in XTAROT_RANKS:
            universe.append(Card(r + s, len(universe), s, r, None))
    # ダーザの杯 (Grail Mahjong's wild cup) has no printed rank of its own in the
    # rulings; it gets the code ``Oc`` and lives outside the Xtarot deck listing.
    universe.append(Card("Oc", len(universe), "c", "O", None))
    by_code = {c.code: c for c in universe}
    return tuple(universe), by_code


#: Every card code known to the project, in index order.
UNIVERSE: Final[tuple[Card, ...]]
_BY_CODE: Final[dict[str, Card]]
UNIVERSE, _BY_CODE = _build()


def card(code: str) -> Card:
    """The card with this code (any deck).  Raises :class:`UnknownCard`.

    >>> card("10s").value
    10
    """
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise UnknownCard(f"{code!r} is not a card code (examples: Kc, 10s, Fw, T13)") from None


class Deck(Sequence[Card]):
    """An ordered, immutable set of cards with a name used in error messages."""

    __slots__ = ("_cards", "_codes", "name")

    def __init__(self, name: str, cards_: Iterable[Card]) -> None:
        self.name = name
        self._cards = tuple(cards_)
        self._codes = {c.code: c for c in self._cards}

    def __len__(self) -> int:
        return len(self._cards)

    def __getitem__(self, i):  # type: ignore[no-untyped-def, override]
        return self._cards[i]

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Card):
            return self._codes.get(item.code) is item
        return isinstance(item, str) and item in self._codes

    def __repr__(self) -> str:
        return f"<Deck {self.name}: {len(self)} cards>"

    def parse(self, code: str) -> Card:
        """The card with this code, which must belong to this deck."""
        found = self._codes.get(code) if isinstance(code, str) else None
        if found is None:
            raise UnknownCard(f"{code!r} is not a card of the {self.name} deck")
        return found

    def parse_many(self, codes_: Iterable[str]) -> list[Card]:
        return [self.parse(c) for c in codes_]

    def subset(self, name: str, keep: Iterable[Card]) -> Deck:
        """A smaller deck (e.g. a game's card set for one player count)."""
        wanted = set(keep)
        return Deck(name, (c for c in self._cards if c in wanted))


#: The Xtarot deck: 24 majors ``T0``..``T23`` and four suits of 22 ranks ``M``..``F``.
XTAROT: Final[Deck] = Deck("Xtarot", UNIVERSE[:112])

#: ダーザの杯, the wild cup of 聖杯麻雀 (code ``Oc``; see RULINGS §5).
DAZA_CUP: Final[Card] = _BY_CODE["Oc"]

#: The classic 78-card tarot deck: majors ``T0``..``T21`` and ``A 2..10 J C Q K`` in
#: each suit.
CLASSIC: Final[Deck] = Deck(
    "classic tarot",
    (c for c in UNIVERSE if (c.number is not None and c.number <= 21) or c.rank in CLASSIC_RANKS),
)


def cards(text: str | Iterable[str], deck: Deck = XTAROT) -> list[Card]:
    """Parse several codes: ``cards("Kc 10s T3")`` or ``cards(["Kc", "10s"])``.

    >>> cards("Kc 10s T3")
    [Card('Kc'), Card('10s'), Card('T3')]
    """
    items = text.split() if isinstance(text, str) else text
    return [deck.parse(c) for c in items]


def codes(cs: Iterable[Card]) -> list[str]:
    """The codes of some cards, in the given order."""
    return [c.code for c in cs]
