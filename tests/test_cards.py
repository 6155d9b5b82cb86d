"""Card codes, decks and names."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xtarot.cards import CLASSIC, XTAROT, UnknownCard, card, cards


@given(st.sampled_from(list(XTAROT)))
def test_xtarot_codes_round_trip(c) -> None:  # type: ignore[no-untyped-def]
    assert XTAROT.parse(c.code) is c and card(str(c)) is c


@given(st.sampled_from(list(CLASSIC)))
def test_classic_codes_round_trip(c) -> None:  # type: ignore[no-untyped-def]
    assert CLASSIC.parse(c.code) is c and c in XTAROT


def test_deck_contents() -> None:
    assert len(XTAROT) == 112 and len(CLASSIC) == 78
    assert [c.code for c in XTAROT if c.is_major] == [f"T{n}" for n in range(24)]
    cups = [c.rank for c in XTAROT if c.suit == "c"]
    assert cups == "M N A 2 3 4 5 6 7 8 9 10 R E B L W J C Q K F".split()
    assert [c.rank for c in CLASSIC if c.suit == "s"] == "A 2 3 4 5 6 7 8 9 10 J C Q K".split()
    assert [c.code for c in CLASSIC if c.is_major][-1] == "T21"
    assert len({c.code for c in XTAROT}) == 112


def test_values_and_colours() -> None:
    assert card("Mc").value == -1 and card("Nd").value == 0 and card("Ws").value == 15
    assert card("Fw").value == math.inf and card("Kc").value is None
    assert card("T13").value == 13 and card("T13").number == 13
    assert card("Qc").colour == card("2d").colour == "red"
    assert card("Qs").colour == card("2w").colour == "black"
    assert card("T0").colour is None


def test_names_in_both_languages() -> None:
    assert card("T0").name("ja") == "愚者" and card("T0").name("en") == "The Fool"
    assert card("T21").name("en") == "The World" and card("T8").name("en") == "Justice"
    assert card("T22").name("en") == "Major 22"
    assert card("Cc").name("ja") == "聖杯のナイト" and card("Cc").name() == "Knight of cups"
    assert card("Rw").name() == "R(11) of trees" and card("10d").name("ja") == "金貨の10"
    assert card("Oc").name("ja") == "ダーザの杯"


@pytest.mark.parametrize(
    ("deck", "code", "message"),
    [
        (XTAROT, "Xq", "'Xq' is not a card of the Xtarot deck"),
        (XTAROT, "T24", "'T24' is not a card of the Xtarot deck"),
        (XTAROT, "Oc", "'Oc' is not a card of the Xtarot deck"),
        (CLASSIC, "Rc", "'Rc' is not a card of the classic tarot deck"),
        (CLASSIC, "T22", "'T22' is not a card of the classic tarot deck"),
        (XTAROT, "kc", "'kc' is not a card of the Xtarot deck"),
    ],
)
def test_unknown_codes_name_the_deck(deck, code: str, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UnknownCard, match=message):
        deck.parse(code)


def test_cards_are_immutable_and_interned() -> None:
    import copy
    import pickle

    c = card("Kc")
    with pytest.raises(AttributeError):
        c.rank = "Q"  # type: ignore[misc]
    assert copy.deepcopy(c) is c and pickle.loads(pickle.dumps(c)) is c
    assert cards("Kc 2d") == [card("Kc"), card("2d")]
    assert sorted(cards("Kc 2c T3")) == cards("T3 2c Kc")
