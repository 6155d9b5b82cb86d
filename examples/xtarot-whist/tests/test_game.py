"""Whist's rules on hand-built deals whose outcome is known in advance."""

from __future__ import annotations

import random
from typing import Any

import pytest
import xtarot
from xtarot.engine import ConfigError, DealError, IllegalAction, State

from xtarot_whist.game import DECK, trick_winner


def suit(letter: str, ranks: str = "2 3 4 5 6 7 8 9 10 J Q K A") -> list[str]:
    return [r + letter for r in ranks.split()]


#: Each seat holds one suit; seat 3 deals and turns up Aw: trees are trump.  Seat 3
#: trumps the opening cup lead and then leads trees nobody else holds: 13 tricks to 0.
ONE_SUIT_EACH: dict[str, Any] = {
    "hands": [suit("c"), suit("d"), suit("s"), suit("w")],
    "dealer": 3,
    "trump": "Aw",
}

#: Seat 0: 7c-Ac and 2w-6w; seat 3 (dealer, trump Aw): 2c-6c and 7w-Aw.  Played with
#: "always the lowest legal card" seat 0 takes five cup tricks (7c..Jc over seat 3's
#: small cups), then seat 3 trumps Qc and draws every trump: 5 tricks to 8.
SPLIT: dict[str, Any] = {
    "hands": [
        suit("c", "7 8 9 10 J Q K A") + suit("w", "2 3 4 5 6"),
        suit("d"),
        suit("s"),
        suit("c", "2 3 4 5 6") + suit("w", "7 8 9 10 J Q K A"),
    ],
    "dealer": 3,
    "trump": "Aw",
}


def lowest_first(state: State, hand_number: int = 1) -> None:
    """Play the first legal action (the lowest card, cups first) until the hand ends."""
    while not state.is_terminal and state.view(0)["hand_number"] == hand_number:
        state.apply(state.legal_actions()[0])


def test_the_deck_is_the_52_plain_cards() -> None:
    codes = {c.code for c in DECK}
    assert len(codes) == 52
    assert {"2c", "10s", "Jd", "Qw", "Kc", "Ad"} <= codes
    assert not codes & {"Rc", "Cc", "Fw", "Nd", "Ms", "T0"}


def test_follow_suit_when_able() -> None:
    state = xtarot.load("whist").new_state(deal=SPLIT, seed=1)
    assert state.current_player == 0  # left of the dealer leads
    state.apply("play 7c")
    state.apply("play 2d")  # seat 1 has no cups: any card
    state.apply("play 2s")
    # seat 3 holds cups: only cups are legal
    assert [a.text for a in state.legal_actions()] == [f"play {c}" for c in suit("c", "2 3 4 5 6")]
    with pytest.raises(IllegalAction, match="must follow the led suit"):
        state.apply("play Aw")
    with pytest.raises(IllegalAction, match="do not hold"):
        state.apply("play Ac")


def test_trump_beats_the_led_suit() -> None:
    state = xtarot.load("whist").new_state(deal=ONE_SUIT_EACH, seed=1)
    for text in ("play Ac", "play Ad", "play As", "play 2w"):
        state.apply(text)
    view = state.view(0)
    assert view["tricks"][0]["winner"] == 3  # the 2 of trumps beats the led ace
    assert view["current_player"] == 3 and view["trick"]["leader"] == 3
    assert view["voids"][1] == ["c"] and view["voids"][0] == []


def test_trick_winner_function() -> None:
    from xtarot.cards import card

    plays = [(0, card("Kc")), (1, card("Ac")), (2, card("Ad")), (3, card("5c"))]
    assert trick_winner(plays, "s") == 1  # highest of the led suit; the ace is high
    assert trick_winner(plays, "d") == 2  # the only trump
    assert trick_winner([(2, card("2s")), (3, card("3s"))], "s") == 3


def test_partnership_scores_the_tricks_over_the_book() -> None:
    state = xtarot.load("whist", hands=1).new_state(deal=SPLIT, seed=1)
    lowest_first(state)
    assert state.is_terminal
    scores = state.scores()
    assert scores.detail["hands"] == [
        {"dealer": 3, "trump_card": "Aw", "tricks": [5, 8], "points": [0, 2]}
    ]
    assert scores.totals == (0.0, 2.0, 0.0, 2.0)  # seats 1 and 3 share side B's points
    assert scores.ranks == (2, 1, 2, 1) and scores.winners == [1, 3]
    assert scores.teams == ((0, 2), (1, 3))
    assert state.view(1)["tricks_won"] == [5, 0, 0, 8]


def test_match_ends_when_a_side_reaches_the_target() -> None:
    state = xtarot.load("whist", target=7).new_state(deal=ONE_SUIT_EACH, seed=1)
    lowest_first(state)
    assert state.is_terminal  # 13 tricks: 7 points, the target exactly
    assert state.scores().detail["side_points"] == [0, 7]
    assert state.scores().final


def test_match_goes_on_below_the_target_and_the_deal_passes_left() -> None:
    state = xtarot.load("whist", target=8).new_state(deal=ONE_SUIT_EACH, seed=1)
    lowest_first(state)
    assert not state.is_terminal
    view = state.view(0)
    assert view["hand_number"] == 2 and view["dealer"] == 0  # seat 3's left
    assert view["current_player"] == 1
    assert view["last_trick"]["winner"] == 3 and view["tricks"] == []
    assert view["scores"]["detail"]["side_points"] == [0, 7]
    assert not view["scores"]["final"]


def test_fixed_number_of_hands_ignores_the_target() -> None:
    game = xtarot.load("whist", hands=2, target=1)
    state = game.new_state(deal=ONE_SUIT_EACH, seed=4)
    lowest_first(state)
    assert not state.is_terminal  # 7 points, but two hands are played
    lowest_first(state, 2)
    assert state.is_terminal and len(state.scores().detail["hands"]) == 2
    assert [h["dealer"] for h in state.scores().detail["hands"]] == [3, 0]


def test_deck_order_is_dealt_from_the_dealers_left() -> None:
    order = [c.code for c in DECK]
    state = xtarot.load("whist").new_state(deck=order, seed=5)
    deal = state.deals[0]
    dealer = deal["dealer"]
    assert deal["trump"] == order[-1] and order[-1] in deal["hands"][dealer]
    assert deal["hands"][(dealer + 1) % 4][0] == order[0]
    assert state.view(0)["trump"] == "w" and state.current_player == (dealer + 1) % 4


def test_the_dealers_last_card_is_trump_when_the_deal_names_none() -> None:
    deal = {"hands": ONE_SUIT_EACH["hands"], "dealer": 1}
    state = xtarot.load("whist").new_state(deal=deal, seed=1)
    assert state.deals[0]["trump"] == "Ad" and state.view(2)["trump"] == "d"


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({**ONE_SUIT_EACH, "trump": "Ac"}, "not in the dealer's hand"),
        ({**ONE_SUIT_EACH, "dealer": 4}, "dealer must be a seat 0..3"),
        (
            {"hands": [["Rc", *suit("c")[1:]], *ONE_SUIT_EACH["hands"][1:]], "dealer": 0},
            "Rc is not a whist card",
        ),
        ({"hands": ONE_SUIT_EACH["hands"][:3], "dealer": 0}, "must list 4 hands"),
        ({"hands": ONE_SUIT_EACH["hands"]}, "missing dealer"),
    ],
)
def test_bad_deals_say_what_is_wrong(deal: dict[str, Any], message: str) -> None:
    with pytest.raises(DealError, match=message):
        xtarot.load("whist").new_state(deal=deal, seed=1)


def test_bad_configuration_says_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match="at least 1 point"):
        xtarot.load("whist", target=0)
    with pytest.raises(ConfigError, match="whist is for 4 to 4 players, not 3"):
        xtarot.load("whist", players=3)
    with pytest.raises(DealError, match="52 cards"):
        xtarot.load("whist").new_state(deck=["Kc"] * 51, seed=1)


def test_views_show_only_what_the_seat_sees() -> None:
    state = xtarot.load("whist").new_state(seed=11)
    rng = random.Random(2)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    played = {c for t in state.view(0)["tricks"] for _, c in t["cards"]}
    played |= {c for _, c in state.view(0)["trick"]["cards"]}
    for seat in range(4):
        view = state.view(seat)
        others = {c for s in range(4) if s != seat for c in state.zones()[f"hand:{s}"]}
        text = repr(view)
        leaked = {c for c in others if f"'{c}'" in text} - played - {view["trump_card"]}
        assert not leaked, f"seat {seat} sees {leaked}"
    assert "hand" not in state.public_view()


def test_sampled_worlds_keep_the_turned_up_card_with_the_dealer() -> None:
    state = xtarot.load("whist").new_state(deal=SPLIT, seed=3)
    state.apply("play 7c")
    rng = random.Random(5)
    hands_seen = set()
    for _ in range(20):
        world = state.sample_world(1, rng)
        assert "Aw" in world.zones()["hand:3"]
        assert world.view(1) == state.view(1)
        hands_seen.add(tuple(world.zones()["hand:0"]))
    assert len(hands_seen) > 1  # the hidden cards really are redealt


def test_same_seed_same_match() -> None:
    game = xtarot.load("whist")
    a, b = game.new_state(seed=42), game.new_state(seed=42)
    assert a.deals == b.deals
    for _ in range(30):
        move = a.legal_actions()[0]
        a.apply(move)
        b.apply(move.text)
    assert a.snapshot() == b.snapshot()
    assert xtarot.replay(a.record()).snapshot() == a.snapshot()
