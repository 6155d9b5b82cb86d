"""マット呼んだ? (Did You Call Matto?): hand-built deals with known outcomes for every rule."""

from __future__ import annotations

import random

import pytest

import xtarot
from xtarot.cards import CLASSIC, card
from xtarot.games.matto import MINORS, SETS, can_pay, minor_value

ALL_MINORS = [c.code for c in MINORS]
OTHER_MAJORS = [f"T{n}" for n in range(22)]


def make_deal(
    hands: list[list[str]],
    discard: str = "Jd",
    stock_top: list[str] | None = None,
    field: list[str] | None = None,
    pile_top: list[str] | None = None,
    dealer: int = 0,
) -> dict:
    """A deal with the given hands, discard and top of piles; the rest in deck order."""
    stock_top = stock_top or []
    used = {c for h in hands for c in h} | {discard} | set(stock_top)
    stock = stock_top + [c for c in ALL_MINORS if c not in used]
    field = field or ["T10", "T5", "T20"]
    pile_top = pile_top or []
    start = field + pile_top
    majors = start + [t for t in OTHER_MAJORS if t not in start]
    return {"hands": hands, "discard": [discard], "stock": stock, "majors": majors,
            "dealer": dealer}  # fmt: skip


BASIC = make_deal(
    hands=[
        ["Ac", "2c", "3c", "4c", "5c"],
        ["3d", "7d", "2s", "8w", "Kc"],
        ["6c", "7c", "8c", "9c", "10c"],
    ],
    discard="Jd",
    stock_top=["4s", "9w", "Qs"],
    field=["T10", "T5", "T20"],
    pile_top=["T19", "T0", "T7"],
)


def new(deal: dict, players: int = 3) -> xtarot.State:
    return xtarot.load("matto", players=players).new_state(deal=deal, seed=1)


def texts(state: xtarot.State) -> list[str]:
    return [a.text for a in state.legal_actions()]


def play(state: xtarot.State, *actions: str) -> None:
    for t in actions:
        state.apply(t)


# -- values and the deal ------------------------------------------------------------------
def test_minor_values_and_exact_sums() -> None:
    assert [minor_value(card(c)) for c in ("Aw", "2d", "10s", "Jc", "Cc", "Qd", "Kw")] == [
        1, 2, 10, 10, 10, 10, 10,
    ]  # fmt: skip
    assert can_pay([card("Kc"), card("Qd"), card("Aw")], 21)
    assert not can_pay([card("Kc"), card("Qd")], 15)
    assert can_pay([], 0) and not can_pay([card("Kc")], -1)


def test_left_of_the_dealer_starts_with_a_draw() -> None:
    s = new(BASIC)
    assert s.current_player == 1
    assert texts(s) == ["draw stock", "draw discard"]
    s2 = new({**BASIC, "dealer": 2})
    assert s2.current_player == 0


def test_seeded_deals_never_show_the_fool_on_the_field() -> None:
    game = xtarot.load("matto", players=4)
    for seed in range(300):
        s = game.new_state(seed=seed)
        assert "T0" not in s.view(0)["field"]
        assert len(s.view(0)["field"]) == 3
        assert s.view(0)["stock_left"] == 56 - 20 - 1


def test_explicit_deal_with_the_fool_in_the_field_is_refused() -> None:
    bad = make_deal(BASIC["hands"], field=["T0", "T5", "T20"])
    with pytest.raises(xtarot.DealError, match="T0 is among the first three"):
        new(bad)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [["Ac"]] * 3}, "hand of seat 0 must have 5"),
        ({"discard": []}, "exactly one minor"),
        ({"discard": ["T3"]}, "only minor arcana"),
        ({"dealer": 3}, "dealer must be a seat"),
        ({"stock": ["Ac"]}, "appears twice"),
        ({"majors": ["T1"]}, "all 22 majors"),
        ({"kitty": []}, "unknown kitty"),
    ],
)
def test_bad_deals_are_refused_clearly(change: dict, message: str) -> None:
    with pytest.raises(xtarot.DealError, match=message):
        new({**BASIC, **change})


def test_deck_order_deals_minors_then_majors() -> None:
    minors = ALL_MINORS
    deck = minors + [f"T{n}" for n in range(1, 22)] + ["T0"]
    s = xtarot.load("matto", players=3).new_state(deck=deck, seed=3)
    deal = s.deals[0]
    assert deal["hands"][0] == minors[0:15:3] and deal["hands"][2] == minors[2:15:3]
    assert deal["discard"] == [minors[15]] and deal["stock"] == minors[16:]
    assert s.view(0)["field"] == ["T1", "T2", "T3"]


def test_deck_order_with_the_fool_on_top_is_refused() -> None:
    with pytest.raises(xtarot.DealError, match="T0"):
        xtarot.load("matto", players=3).new_state(deck=[c.code for c in CLASSIC])


# -- drawing --------------------------------------------------------------------------------
def test_drawing_the_discard_top_is_public() -> None:
    s = new(BASIC)
    play(s, "draw discard")
    v1 = s.view(1)
    assert "Jd" in v1["hand"] and v1["discard"] == [] and v1["discard_top"] is None
    assert s.view(0)["known_in_hands"][1] == ["Jd"]
    assert "hand" not in s.public_view()
    play(s, "end")
    # the discard pile is empty: the stock only
    assert texts(s) == ["draw stock"]


def test_drawing_the_stock_takes_its_top_and_stays_hidden() -> None:
    s = new(BASIC)
    play(s, "draw stock")
    assert "4s" in s.view(1)["hand"]
    assert s.view(0)["known_in_hands"][1] == []
    assert s.view(0)["hand_sizes"] == [5, 6, 5]
    assert s.view(0)["stock_left"] == 39
    assert "4s" not in str(s.view(0)) and "4s" not in str(s.public_view())


def test_a_turn_begins_with_a_draw_and_has_no_discard_step() -> None:
    s = new(BASIC)
    with pytest.raises(xtarot.IllegalAction, match="first take a card"):
        s.apply("end")
    play(s, "draw stock")
    assert "end" in texts(s) and "draw stock" not in texts(s)
    with pytest.raises(xtarot.IllegalAction, match="already drawn"):
        s.apply("draw discard")
    play(s, "end")
    assert s.current_player == 2


# -- purchases --------------------------------------------------------------------------
def test_purchase_with_several_cards_in_the_chosen_order() -> None:
    s = new(BASIC)
    play(s, "draw stock")  # seat 1: 3d 7d 2s 8w Kc + 4s
    assert texts(s) == ["buy T5", "buy T10", "buy T20", "end"]
    play(s, "buy T10")
    # 3d (7 left: 7d), 7d (3d), 2s (8w), 8w (2s), 4s? 6 left: no; Kc pays 10 alone
    assert texts(s) == ["pay Kc", "pay 3d", "pay 7d", "pay 2s", "pay 8w"]
    with pytest.raises(xtarot.IllegalAction, match="could not be paid exactly"):
        s.apply("pay 4s")
    with pytest.raises(xtarot.IllegalAction, match="finish paying"):
        s.apply("end")
    play(s, "pay 7d")
    assert s.view(0)["buying"] == {"major": "T10", "owed": 3, "paid": ["7d"]}
    assert texts(s) == ["pay 3d"]
    play(s, "pay 3d")
    v = s.view(0)
    assert v["discard"] == ["Jd", "7d", "3d"] and v["discard_top"] == "3d"
    assert v["won"][1] == ["T10"]
    assert v["field"] == ["T5", "T20", "T19"]  # the replacement is turned up at once
    assert v["majors_left"] == 18
    assert v["purchases"] == [{"seat": 1, "major": "T10", "paid": ["7d", "3d"], "fool": False}]
    # any number of purchases: T5 = 2s + ... no (2s 8w Kc 4s left: 4s? no 5) -> not offered
    assert texts(s) == ["buy T20", "end"]  # 2s + 8w + Kc = 20
    play(s, "buy T20", "pay Kc", "pay 2s", "pay 8w")
    assert s.view(0)["discard_top"] == "8w"
    assert s.view(1)["hand"] == ["4s"]


def test_the_other_order_puts_the_other_card_on_top() -> None:
    s = new(BASIC)
    play(s, "draw stock", "buy T10", "pay 3d", "pay 7d")
    assert s.view(0)["discard"] == ["Jd", "3d", "7d"]
    play(s, "end", "draw discard")  # seat 2 takes the 7d the buyer left on top
    assert s.view(0)["known_in_hands"][2] == ["7d"]


def test_buy_is_offered_only_when_payable() -> None:
    hands = [
        ["Ac", "2c", "3c", "4c", "5c"],
        ["Kc", "Kd", "Ks", "Kw", "Qc"],
        ["6c", "7c", "8c", "9c", "10c"],
    ]
    s = new(make_deal(hands, stock_top=["Qd"], field=["T21", "T5", "T9"]))
    play(s, "draw stock")
    assert texts(s) == ["end"]
    with pytest.raises(xtarot.IllegalAction, match="cannot pay exactly 21"):
        s.apply("buy T21")
    with pytest.raises(xtarot.IllegalAction, match="not on the field"):
        s.apply("buy T3")


def test_fool_turned_up_after_a_purchase_goes_to_the_buyer() -> None:
    s = new(make_deal(BASIC["hands"], stock_top=["4s"], pile_top=["T0", "T7"]))
    play(s, "draw stock", "buy T10", "pay Kc")
    v = s.view(0)
    assert v["won"][1] == ["T10", "T0"]
    assert v["field"] == ["T5", "T20", "T7"]  # a further replacement
    assert v["purchases"][0]["fool"] is True
    sc = s.scores()
    assert sc.totals[1] == 2 - 5  # two majors, the Fool's -5
    assert sc.detail["fool"] == [False, True, False]


def test_purchases_can_empty_the_hand() -> None:
    hands = [
        ["Ac", "2c", "3c", "4c", "5c"],
        ["Kc", "Kd", "Ks", "Aw", "Qc"],
        ["6c", "7c", "8c", "9c", "10c"],
    ]
    deal = make_deal(
        hands, stock_top=["Qd"], field=["T20", "T21", "T10"], pile_top=["T2", "T3", "T4"]
    )
    s = new(deal)
    play(s, "draw stock", "buy T20", "pay Kc", "pay Kd", "buy T21", "pay Aw", "pay Ks")
    play(s, "pay Qc", "buy T10", "pay Qd")
    assert s.view(1)["hand"] == [] and texts(s) == ["end"]
    assert s.view(1)["won"][1] == ["T20", "T21", "T10"]
    assert s.scores().totals[1] == 3 + 5  # 世界の終わり T20 + T21


# -- the end ------------------------------------------------------------------------------
def test_game_ends_at_the_end_of_the_turn_that_empties_the_stock() -> None:
    hands = [
        ["Ac", "2c", "3c", "4c", "5c"],
        ["3d", "7d", "2s", "8w", "Kc"],
        ["6c", "7c", "8c", "9c", "10c"],
    ]
    s = new(make_deal(hands, field=["T10", "T5", "T20"]))
    turns = 0
    while s.view(0)["stock_left"] > 1:
        play(s, "draw stock", "end")
        turns += 1
    assert turns == 39 and not s.is_terminal
    seat = s.current_player
    play(s, "draw stock")
    assert s.view(0)["stock_left"] == 0 and s.view(0)["last_turn"]
    # field majors can still be bought in that turn
    buys = [t for t in texts(s) if t.startswith("buy")]
    assert buys
    play(s, buys[0])
    while s.view(0)["buying"] is not None:
        play(s, texts(s)[0])
    assert s.current_player == seat and not s.is_terminal
    play(s, "end")
    assert s.is_terminal and s.current_player is None and s.legal_actions() == []
    assert s.scores().final


def _greedy(s: xtarot.State) -> None:
    """Draw the stock, buy whatever can be bought, end."""
    legal = texts(s)
    for prefix in ("pay", "buy", "draw stock"):
        for t in legal:
            if t.startswith(prefix):
                s.apply(t)
                return
    s.apply("end")


def test_game_ends_at_the_end_of_the_turn_that_empties_the_major_pile() -> None:
    s = xtarot.load("matto", players=3).new_state(seed=5)
    s = new(s.deals[0])  # the same deal, given explicitly
    emptied_turn = None
    while not s.is_terminal:
        before = s.view(0)
        _greedy(s)
        after = s.public_view()
        if before["majors_left"] > 0 and after["majors_left"] == 0:
            emptied_turn = after["turn"]
            assert not s.is_terminal and after["stock_left"] > 0
            assert after["last_turn"]
        if emptied_turn is not None and not s.is_terminal:
            assert s.public_view()["turn"] == emptied_turn  # no further turn starts
    assert emptied_turn is not None
    assert s.public_view()["stock_left"] > 0
    assert sum(len(w) for w in s.public_view()["won"]) + len(s.public_view()["field"]) == 22


# -- scoring ------------------------------------------------------------------------------
def test_scoring_with_the_three_sets_and_the_fool() -> None:
    s = new(BASIC)
    s.won = [
        [card(t) for t in ("T12", "T13", "T15", "T20", "T21", "T1")],
        [card(t) for t in ("T17", "T18", "T19", "T0")],
        [card(t) for t in ("T12", "T13")],
    ]
    sc = s.scores()
    assert sc.totals == (6 + 5 + 5, 4 - 5 + 5, 2)
    assert sc.detail["sets"] == [
        ["Straight to Hell", "End of the World"],
        ["Radiance of the Heavens"],
        [],
    ]
    assert sc.ranks == (1, 2, 3)
    assert [len(need) for _, _, need in SETS] == [3, 3, 2]


def test_ties_share_the_win() -> None:
    s = new(BASIC)
    s.won = [[card("T1")], [card("T2")], []]
    assert s.scores().ranks == (1, 1, 3)


# -- hidden information ----------------------------------------------------------------
def test_views_hide_hands_and_stock() -> None:
    s = new(BASIC)
    v = s.view(0)
    assert v["hand"] == ["Ac", "2c", "3c", "4c", "5c"] and v["legal_actions"] == []
    assert v["hand_sizes"] == [5, 5, 5] and v["stock_left"] == 40
    assert "Kc" not in str(v) and "4s" not in str(v) and "T19" not in str(v)
    assert s.view(1)["legal_actions"] == ["draw stock", "draw discard"]


def test_sampled_worlds_keep_public_cards_and_a_payable_purchase() -> None:
    s = new(BASIC)
    play(s, "draw discard", "buy T10", "pay 7d")
    rng = random.Random(4)
    differ = 0
    for _ in range(30):
        w = s.sample_world(0, rng)
        assert w.view(0) == s.view(0)
        hand1 = w.hands[1]
        assert card("Jd") in hand1  # taken from the discard pile: public
        assert can_pay(hand1, 3)  # the purchase under way must stay payable
        differ += w.zones() != s.zones()
    assert differ > 20


@pytest.mark.parametrize("steps", [2, 9, 20, 45])
def test_sampled_worlds_use_only_the_seats_knowledge(steps: int) -> None:
    s = xtarot.load("matto", players=4).new_state(seed=8)
    rng = random.Random(6)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    for seat in range(4):
        world = s.sample_world(seat, random.Random(1))
        a = s.sample_world(seat, random.Random(2)).snapshot()
        b = world.sample_world(seat, random.Random(2)).snapshot()
        assert a == b


def test_value_keys_give_the_subset_sums_of_the_hand() -> None:
    from xtarot.games.matto import _UNIT, _reach, _sums

    rng = random.Random(3)
    for size in range(0, 12):
        for _ in range(30):
            hand = rng.sample(list(MINORS), size)
            key = sum(_UNIT[c] for c in hand)
            assert _reach(key) == _sums([minor_value(c) for c in hand]), hand


def test_a_clone_is_independent_and_plays_on_like_the_original() -> None:
    game = xtarot.load("matto", players=4)
    state = game.new_state(seed=21)
    rng = random.Random(4)
    for _ in range(50):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    before = state.snapshot()
    twin = state.clone()
    assert twin.snapshot() == before
    twin.random_playout(random.Random(8))
    assert twin.is_terminal and state.snapshot() == before
    state.random_playout(random.Random(8))
    assert state.record() == twin.record()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_quick_score_totals_agree_with_the_scores(players: int) -> None:
    """``_score_totals`` (what the tensors read, remembered until a major is won) is a
    shortcut of ``scores().totals``: the same numbers at every moment of random
    matches, sets and the Fool's penalty included."""
    game = xtarot.load("matto", players=players)
    rng = random.Random(players)
    with_set = with_fool = 0
    for seed in range(25):
        state = game.new_state(seed=seed)
        while True:
            scores = state.scores()
            assert state._score_totals() == scores.totals
            if state.is_terminal:
                with_set += any(scores.detail["sets"])
                with_fool += any(scores.detail["fool"])
                break
            state.apply(rng.choice(state.legal_actions()))
    assert with_set and with_fool  # both scoring paths were met


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_views_scores_are_the_scores(players: int) -> None:
    """``_scores_dict`` (the views' ``scores``, made directly and remembered until a
    major is won or the match ends) is ``scores().to_dict()`` key for key, in the same
    order, at every moment of random matches, sets and the Fool's penalty included."""
    game = xtarot.load("matto", players=players)
    rng = random.Random(10 + players)
    with_set = with_fool = 0
    for seed in range(25):
        state = game.new_state(seed=seed)
        while True:
            scores = state.scores()
            made = state._scores_dict()
            assert made == scores.to_dict()
            assert list(made) == list(scores.to_dict())
            assert list(made["detail"]) == list(scores.detail)
            assert state.peek_view(state.turn)["scores"] is made
            if state.is_terminal:
                with_set += any(scores.detail["sets"])
                with_fool += any(scores.detail["fool"])
                assert made["final"] and made["winners"]
                break
            state.apply(rng.choice(state.legal_actions()))
    assert with_set and with_fool  # both scoring paths were met
