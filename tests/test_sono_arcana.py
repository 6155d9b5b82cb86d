"""そのアルカナは欲しくない: hand-built deals with known outcomes for every rule."""

from __future__ import annotations

import random

import pytest

import xtarot
from view_support import check_views_of_diverging_copies
from xtarot.cards import card
from xtarot.games.sono_arcana import BIDDING_CARDS, bidding_set, strength

TALISMANS = [f"T{n}" for n in range(24)]


def suit(s: str, ranks: str) -> list[str]:
    return [r + s for r in ranks.split()]


# 3 players: the 48-card set (2..10 J Q K of each suit).  Seat 0 holds every cup,
# seats 1 and 2 hold none, so seat 0's face-up cup lead is never followed.
VOID_CUPS = {
    "hands": [
        suit("c", "2 3 4 5 6 7 8 9 10 J Q K") + suit("s", "2 3 4 5"),
        suit("d", "2 3 4 5 6 7 8 9 10 J Q K") + suit("s", "6 7 8 9"),
        suit("s", "10 J Q K") + suit("w", "2 3 4 5 6 7 8 9 10 J Q K"),
    ],
    "talismans": TALISMANS,
    "parent": 0,
}

# 3 players where seats 1 and 2 both hold cups.
MIXED = {
    "hands": [
        suit("c", "2 3 4 5 6") + suit("d", "2 3 4 5 6") + suit("s", "2 3 4 5 6") + ["2w"],
        suit("c", "7 8 9") + suit("d", "7 8 9 10 J") + suit("s", "7 8 9") + suit("w", "3 4 5 6 7"),
        suit("c", "10 J Q K") + suit("d", "Q K") + suit("s", "10 J Q K")
        + suit("w", "8 9 10 J Q K"),
    ],
    "talismans": TALISMANS,
    "parent": 0,
}  # fmt: skip


def new(deal: dict, players: int = 3, **options: object) -> xtarot.State:
    return xtarot.load("sono-arcana", players=players, **options).new_state(deal=deal, seed=1)


def play(state: xtarot.State, *texts: str) -> None:
    for t in texts:
        state.apply(t)


# -- set-up -------------------------------------------------------------------------------
def test_bidding_card_sets_per_player_count() -> None:
    assert len(BIDDING_CARDS) == 80
    five, four, three = bidding_set(5), bidding_set(4), bidding_set(3)
    assert (len(five), len(four), len(three)) == (80, 64, 48)
    assert {c.rank for c in five} == {
        "N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
        "R", "E", "B", "L", "W", "J", "C", "Q", "K",
    }  # fmt: skip
    assert not {c.rank for c in four} & {"C", "W", "L", "N"}
    assert not {c.rank for c in three} & {"C", "W", "L", "N", "B", "E", "R", "A"}
    assert all(not c.is_major and c.rank not in ("M", "F") for c in five)


def test_strength_order() -> None:
    order = "N A 2 3 4 5 6 7 8 9 10 R E B L W J C Q K".split()
    assert [strength(card(r + "c")) for r in order] == list(range(20))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deal_gives_16_each_and_a_random_parent(players: int) -> None:
    game = xtarot.load("sono-arcana", players=players)
    parents = set()
    for seed in range(40):
        state = game.new_state(seed=seed)
        deal = state.deals[0]
        assert [len(h) for h in deal["hands"]] == [16] * players
        assert sorted(deal["talismans"], key=lambda t: int(t[1:])) == TALISMANS
        parents.add(deal["parent"])
        assert state.current_player == deal["parent"]
    assert parents == set(range(players))


def test_deck_order_deals_round_robin_and_stacks_talismans_in_order() -> None:
    game = xtarot.load("sono-arcana", players=3)
    bidding = [c.code for c in bidding_set(3)]
    deck = TALISMANS[::-1] + bidding
    state = game.new_state(deck=deck, seed=5)
    deal = state.deals[0]
    assert deal["hands"][0] == bidding[0::3] and deal["hands"][2] == bidding[2::3]
    assert deal["talismans"] == TALISMANS[::-1]
    assert state.view(0)["lot"] == ["T23"]  # the top talisman is revealed first


def test_bad_decks_and_deals_are_refused_clearly() -> None:
    game = xtarot.load("sono-arcana", players=3)
    with pytest.raises(xtarot.DealError, match="72 cards"):
        game.new_state(deck=TALISMANS)
    with pytest.raises(xtarot.DealError, match="'Xq' is not a card of the Xtarot deck"):
        game.new_state(deck=["Xq"] * 72)
    bad = {**VOID_CUPS, "hands": [VOID_CUPS["hands"][0], VOID_CUPS["hands"][0], []]}
    with pytest.raises(xtarot.DealError, match="twice"):
        game.new_state(deal=bad)
    wrong_set = {
        **VOID_CUPS,
        "hands": [["Ac", *VOID_CUPS["hands"][0][1:]], *VOID_CUPS["hands"][1:]],
    }
    with pytest.raises(xtarot.DealError, match="not a bidding card at 3 players"):
        game.new_state(deal=wrong_set)
    with pytest.raises(xtarot.DealError, match=r"parent must be a seat 0\.\.2"):
        game.new_state(deal={**VOID_CUPS, "parent": 3})
    with pytest.raises(xtarot.DealError, match="missing talismans"):
        game.new_state(deal={"hands": VOID_CUPS["hands"], "parent": 0})


def test_config_errors_name_what_is_allowed() -> None:
    with pytest.raises(xtarot.ConfigError, match="3 to 5 players, not 6"):
        xtarot.load("sono-arcana", players=6)
    with pytest.raises(xtarot.ConfigError, match="needs 4 players, not 5"):
        xtarot.load("sono-arcana", players=5, teams=True)
    with pytest.raises(xtarot.ConfigError, match="unknown option colour; options: teams"):
        xtarot.load("sono-arcana", players=4, colour=True)
    with pytest.raises(xtarot.ConfigError, match=r"unknown game 'sono'; games: .*sono-arcana"):
        xtarot.load("sono")


# -- the lot -------------------------------------------------------------------------------
def test_parent_reveals_one_then_chooses_a_second() -> None:
    state = new(MIXED)
    assert state.view(1)["lot"] == ["T0"] and state.view(1)["talismans_left"] == 23
    assert [a.text for a in state.legal_actions()] == ["lot 1", "lot 2"]
    state.apply("lot 2")
    assert state.view(2)["lot"] == ["T0", "T1"] and state.view(2)["talismans_left"] == 22
    assert state.legal_actions()[0].text.startswith("bid up ")


def test_lot_two_every_round_ends_the_auction_with_cards_left() -> None:
    state = xtarot.load("sono-arcana", players=4).new_state(seed=3)
    rng = random.Random(0)
    while not state.is_terminal:
        legal = state.legal_actions()
        if legal[0].text == "lot 1":
            state.apply("lot 2")
        else:
            state.apply(legal[rng.randrange(len(legal))])
    view = state.public_view()
    assert len(view["rounds"]) == 12 and view["hand_sizes"] == [4, 4, 4, 4]
    assert sum(len(w) for w in view["won"]) == 24


def test_no_choice_when_the_stack_is_empty_after_the_first_reveal() -> None:
    state = xtarot.load("sono-arcana", players=3).new_state(seed=11)
    rng = random.Random(1)
    choices = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        if legal[0].text == "lot 1":
            choices += 1
            state.apply("lot 2" if choices <= 11 else "lot 1")
        else:
            state.apply(legal[rng.randrange(len(legal))])
        if len(state.public_view()["rounds"]) == 12 and state.public_view()["phase"] != "over":
            break
    # 11 rounds took two talismans, round 12 took one: one talisman is left
    view = state.public_view()
    assert view["talismans_left"] == 0 and view["lot"] == [state.deals[0]["talismans"][23]]
    assert view["phase"] == "bid"  # revealed without a lot 1 / lot 2 choice


def test_final_round_reveals_every_remaining_talisman() -> None:
    state = xtarot.load("sono-arcana", players=5).new_state(seed=2)
    rng = random.Random(2)
    while len(state.public_view()["rounds"]) < 15:
        legal = state.legal_actions()
        state.apply("lot 1" if legal[0].text == "lot 1" else legal[rng.randrange(len(legal))])
    view = state.public_view()
    assert view["final_round"] and view["phase"] == "bid"
    assert len(view["lot"]) == 9 and view["talismans_left"] == 0
    assert all(a.text.startswith("bid ") for a in state.legal_actions())
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert len(state.public_view()["rounds"]) == 16


# -- face-up bids ----------------------------------------------------------------------------
def test_face_up_others_must_follow_the_led_suit() -> None:
    state = new(MIXED)
    play(state, "lot 1", "bid up 6c")
    assert state.current_player == 1  # clockwise from the parent
    assert sorted(a.text for a in state.legal_actions()) == ["play 7c", "play 8c", "play 9c"]
    before = state.snapshot()
    # The suit by name, as every game's message says it (issue #37: not "(c)").
    with pytest.raises(xtarot.IllegalAction, match=r"must follow the led suit \(cups\)"):
        state.apply("play 7d")
    with pytest.raises(xtarot.IllegalAction, match="do not hold Kc"):
        state.apply("play Kc")
    assert state.snapshot() == before


def test_face_up_strongest_valid_card_of_the_led_suit_wins() -> None:
    state = new(MIXED)
    play(state, "lot 2", "bid up 6c", "play 9c", "play 10c")
    last = state.public_view()["rounds"][-1]
    assert last["winner"] == 2 and last["void"] == []
    assert state.public_view()["won"][2] == ["T0", "T1"]
    assert state.current_player == 2  # the winner is the next parent
    assert state.public_view()["parent"] == 2


def test_equal_strengths_are_void_across_suits_including_the_parents_card() -> None:
    # seat 1 cannot follow cups: its 9d voids the parent's 9c; seat 2's Kw is the
    # strongest valid card but not of the led suit, so nothing valid of cups remains
    # and the parent wins.
    state = new(VOID_CUPS)
    play(state, "lot 1", "bid up 9c", "play 9d", "play Kw")
    last = state.public_view()["rounds"][-1]
    assert last["void"] == ["9c", "9d"] and last["winner"] == 0
    assert state.public_view()["won"][0] == ["T0"]


FOUR = {
    "hands": [
        suit("c", "A 2 3 4 5 6 7 8") + suit("d", "A 2 3 4 5 6 7 8"),
        suit("c", "9 10 R E") + suit("s", "A 2 3 4 5 6 7 8") + suit("d", "9 10 R E"),
        suit("c", "B J Q K") + suit("d", "B J Q K") + suit("s", "9 10 R E B J Q K"),
        suit("w", "A 2 3 4 5 6 7 8 9 10 R E B J Q K"),
    ],
    "talismans": TALISMANS,
    "parent": 0,
}


def test_an_off_suit_equal_card_voids_the_best_follower_and_a_weaker_one_wins() -> None:
    state = new(FOUR, players=4)
    play(state, "lot 1", "bid up 2c", "play 9c", "play Kc", "play Kw")
    last = state.public_view()["rounds"][-1]
    assert last["void"] == ["Kc", "Kw"]
    assert last["winner"] == 1  # 9c beats the parent's 2c once Kc is void
    assert state.current_player == 1


def test_failing_to_follow_is_recorded_as_a_void() -> None:
    state = new(VOID_CUPS)
    play(state, "lot 1", "bid up 9c", "play 9d", "play Kw")
    assert state.voids[1] == {"c"} and state.voids[2] == {"c"}
    assert state.voids[0] == set()


# -- face-down bids --------------------------------------------------------------------------
def test_face_down_cards_are_hidden_until_the_reveal() -> None:
    state = new(VOID_CUPS)
    play(state, "lot 1", "bid down 9c")
    seat1 = state.view(1)
    assert seat1["mode"] == "down" and seat1["table"] == [{"seat": 0, "card": None}]
    assert state.view(0)["table"] == [{"seat": 0, "card": "9c"}]
    # no suit obligation: seat 1 may play anything
    assert len(state.legal_actions()) == 16
    state.apply("play 9d")
    seat2 = state.view(2)
    assert seat2["table"] == [{"seat": 0, "card": None}, {"seat": 1, "card": None}]
    assert "9c" not in str(state.public_view()) and "9d" not in str(state.public_view()["table"])
    state.apply("play Kw")
    last = state.public_view()["rounds"][-1]
    assert last["cards"] == [[0, "9c"], [1, "9d"], [2, "Kw"]]
    assert last["winner"] == 2  # strongest valid card of any suit
    assert state.voids == [set(), set(), set()]  # no suit obligation, no inference


def test_face_down_all_void_goes_to_the_parent() -> None:
    state = new(VOID_CUPS)
    play(state, "lot 1", "bid down 9c", "play 9d", "play 9w")
    last = state.public_view()["rounds"][-1]
    assert sorted(last["void"]) == ["9c", "9d", "9w"] and last["winner"] == 0


def test_face_down_parent_card_is_not_a_led_card() -> None:
    state = new(MIXED)
    play(state, "lot 1", "bid down 2c", "play 7d", "play Ks")
    assert state.public_view()["rounds"][-1]["winner"] == 2  # Ks, not a cup


# -- scoring ---------------------------------------------------------------------------------
def scored(won: list[list[str]], players: int = 3, **options: object) -> xtarot.Scores:
    state = xtarot.load("sono-arcana", players=players, **options).new_state(seed=0)
    state.won = [[card(t) for t in w] for w in won]  # type: ignore[attr-defined]
    return state.scores()


def test_digit_conflicts_turn_every_sharing_talisman_face_down() -> None:
    s = scored([["T3", "T13", "T23", "T5"], ["T4", "T14"], ["T0", "T1", "T2"]])
    assert s.detail["face_down"] == [["T3", "T13", "T23"], ["T4", "T14"], []]
    assert s.detail["face_up"] == [["T5"], [], ["T0", "T1", "T2"]]
    assert s.totals == (-1.0, -2.0, 6.0)  # 2 - 3, -2, 3 x 2
    assert s.ranks == (2, 3, 1) and s.winners == [2]


def test_ties_go_to_the_highest_face_up_talisman() -> None:
    s = scored([["T5", "T9"], ["T6", "T17"], ["T1", "T2"]])
    assert s.totals == (4.0, 4.0, 4.0)
    assert s.ranks == (2, 1, 3) and s.winners == [1]


def test_players_still_tied_share_the_place() -> None:
    s = scored([["T3", "T13"], ["T4", "T14"], ["T9", "T7", "T8", "T19"]])
    # seats 0 and 1: -2 with no face-up talisman; seat 2: T9/T19 face down, 7 and 8 up
    assert s.totals == (-2.0, -2.0, 2.0)
    assert s.ranks == (2, 2, 1)
    s2 = scored([[], [], []])
    assert s2.ranks == (1, 1, 1) and s2.winners == [0, 1, 2]


def test_team_option_sums_partners_and_breaks_ties_by_team() -> None:
    s = scored([["T5"], ["T6"], ["T9"], ["T7"]], players=4, teams=True)
    assert s.teams == ((0, 2), (1, 3))
    assert s.detail["team_totals"] == [4, 4]
    assert s.totals == (4.0, 4.0, 4.0, 4.0)
    assert s.ranks == (1, 2, 1, 2)  # team 0+2 holds T9, the best face-up talisman
    s2 = scored([["T3", "T13"], ["T6"], [], ["T16"]], players=4, teams=True)
    # T3+T13 conflict within seat 0 only; T6 and T16 belong to different players
    assert s2.detail["individual"] == [-2, 2, 0, 2]
    assert s2.detail["team_totals"] == [-2, 4] and s2.winners == [1, 3]


def test_final_scores_match_the_rounds_log() -> None:
    state = xtarot.load("sono-arcana", players=5).new_state(seed=99)
    rng = random.Random(5)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    view = state.public_view()
    held: list[list[int]] = [[] for _ in range(5)]
    for r in view["rounds"]:
        held[r["winner"]].extend(int(t[1:]) for t in r["lot"])
    expected = []
    for ts in held:
        digits = [t % 10 for t in ts]
        up = sum(1 for t in ts if digits.count(t % 10) == 1)
        expected.append(2 * up - (len(ts) - up))
    final = state.scores()
    assert final.final and list(final.totals) == expected
    assert view["scores"]["final"] and view["phase"] == "over" and view["current_player"] is None


def test_face_down_moves_are_masked_for_everyone_but_the_actor() -> None:
    state = new(VOID_CUPS)
    state.apply("lot 1")
    down = state.game.action("bid down 9c")
    assert state.action_seen_by(down, 0) == "bid down 9c"
    assert state.action_seen_by(down, 1) == "bid down ?"
    assert state.action_seen_by(down, None) == "bid down ?"
    state.apply(down)
    play_9d = state.game.action("play 9d")
    assert state.action_seen_by(play_9d, 2) == "play ?"
    assert state.action_seen_by(play_9d, 1) == "play 9d"
    state.apply(play_9d)
    # the last card completes the round, which is revealed at once
    assert state.action_seen_by(state.game.action("play Kw"), 0) == "play Kw"
    up = new(VOID_CUPS)
    up.apply("lot 1")
    assert up.action_seen_by(up.game.action("bid up 9c"), 2) == "bid up 9c"


@pytest.mark.parametrize(("players", "teams"), [(3, False), (4, False), (4, True), (5, False)])
def test_quick_standings_agree_with_the_scores(players: int, teams: bool) -> None:
    """``_standing`` (play-out ends), ``_totals`` (tensors) and ``_scores_dict`` (the
    views' scores) are shortcuts of ``scores()``: same totals and ranks, the same dict,
    at every moment of random matches."""
    options = {"teams": True} if teams else {}
    game = xtarot.load("sono-arcana", players=players, **options)
    rng = random.Random(players)
    checked = 0
    for seed in range(20):
        state = game.new_state(seed=seed)
        while True:
            scores = state.scores()
            assert state._standing() == (scores.totals, scores.ranks)
            assert state._totals() == scores.totals
            assert state._scores_dict() == scores.to_dict()
            checked += 1
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 20 * players * 10


@pytest.mark.parametrize("teams", [False, True])
def test_totals_counted_once_a_pile_grows_stay_right_in_copies(teams: bool) -> None:
    """``_totals`` and ``scores()`` count a pile again only when it has grown
    (``_won_counts``); a copy that goes another way from the same position still gets
    its own piles' points."""
    from xtarot.games.sono_arcana import _pile_points

    game = xtarot.load("sono-arcana", players=4, teams=teams)

    def fresh(st: xtarot.State) -> tuple[float, ...]:
        individual = [_pile_points(held)[0] for held in st.won]  # type: ignore[attr-defined]
        return st._seat_totals(individual)[0]  # type: ignore[attr-defined]

    for seed in range(30):
        rng = random.Random(seed)
        st = game.new_state(seed=seed)
        copies: list[tuple[xtarot.State, random.Random]] = []
        while not st.is_terminal:
            assert st._totals() == fresh(st)  # type: ignore[attr-defined]
            if rng.random() < 0.05:
                copies.append((st.clone(), random.Random(seed * 100 + len(copies))))
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        assert st.scores().totals == fresh(st) == st._totals()  # type: ignore[attr-defined]
        piles = [_pile_points(held) for held in st.won]  # type: ignore[attr-defined]
        ranking = st._ranking([p for p, _ in piles], [b for _, b in piles])  # type: ignore[attr-defined]
        assert st.scores().ranks == ranking[1]
        for other, r in copies:  # each copy plays on differently
            while not other.is_terminal:
                legal = other.legal_actions()
                other.apply(legal[r.randrange(len(legal))])
                assert other._totals() == fresh(other)  # type: ignore[attr-defined]
            assert other.scores().totals == other._totals()  # type: ignore[attr-defined]


def test_views_read_from_kept_parts_are_fresh_in_copies_going_other_ways() -> None:
    """A view reads the parts of a round (lot, piles, rounds, scores) and the hands'
    codes from what the last view kept; a copy of the state that goes another way from
    the same position must see its own: every view equals one of a new copy (which
    keeps nothing of its own yet), for the seat to act and another seat."""
    game = xtarot.load("sono-arcana", players=4, teams=True)
    check_views_of_diverging_copies(game, 0.05)
