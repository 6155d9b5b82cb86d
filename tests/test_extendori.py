"""Extendori: hand-built deals with known outcomes for every rule, option and score."""

from __future__ import annotations

import collections
import itertools
import random
import sys

import pytest

import xtarot
from view_support import check_views_of_diverging_copies
from xtarot.cards import card, cards
from xtarot.engine import ConfigError, DealError, IllegalAction, State

# ``xtarot.games`` is also a function, so reach the module through sys.modules
E = sys.modules["xtarot.games.extendori"]


def load(players: int = 4, **options: object) -> xtarot.Game:
    return xtarot.load("extendori", players=players, **options)


def build(
    players: int = 4,
    spec: dict[int, str] | None = None,
    first: int = 0,
    stock_top: str = "",
    **options: object,
) -> dict[str, object]:
    """A deal where ``spec`` fixes some cards of some first-batch hands.  The majors
    and every suit named in ``spec`` or ``stock_top`` are left out of the filler, so the
    named cards alone decide what can follow; the other cards of those suits go to
    the stock (after ``stock_top``)."""
    game = load(players, **options)
    spec = spec or {}
    k = game.schedule[0]
    named = {c for text in spec.values() for c in cards(text)}
    top = cards(stock_top)
    reserved = {E.suit_key(c) for c in named | set(top)} | {E.MAJORS}
    filler = [c for c in game.cards if c not in named and c not in top]
    plain = [c for c in filler if E.suit_key(c) not in reserved]
    hands = []
    for s in range(players):
        mine = cards(spec.get(s, ""))
        need = k - len(mine)
        hands.append([c.code for c in mine + plain[:need]])
        plain = plain[need:]
    dealt = {code for h in hands for code in h}
    stock = [c.code for c in top] + [c.code for c in filler if c.code not in dealt]
    return {"hands": hands, "stock": stock, "first": first}


def start(deal: dict[str, object], players: int = 4, **options: object) -> State:
    return load(players, **options).new_state(deal=deal, seed=1)


def legal(state: State) -> list[str]:
    return [a.text for a in state.legal_actions()]


def play(state: State, *texts: str) -> None:
    for t in texts:
        state.apply(t)


# -- the deck, the schedules and the options ------------------------------------------
def test_deck_sizes_and_totals() -> None:
    sizes = {112: 840, 111: 840, 110: 840, 108: 780}
    for size, total in sizes.items():
        cs = E.deck_cards(size)
        assert len(cs) == size
        assert sum(E.points(c) for c in cs) == total
    assert "T23" not in {c.code for c in E.deck_cards(111)}
    assert not {"T22", "T23"} & {c.code for c in E.deck_cards(110)}
    assert not any(c.rank == "N" for c in E.deck_cards(108))


def test_points_per_card() -> None:
    scoring = "M N A R E B L W J C Q K F".split()
    for r in scoring:
        assert E.points(card(r + "d")) == 15
    for r in range(2, 11):
        assert E.points(card(f"{r}w")) == 0
    assert E.points(card("T0")) == E.points(card("T1")) == 30
    assert all(E.points(card(f"T{n}")) == 0 for n in range(2, 24))


@pytest.mark.parametrize(
    ("players", "options", "deck", "schedule"),
    [
        (3, {}, 108, (12, 12, 12)),
        (3, {"deck": 111}, 111, (13, 12, 12)),
        (3, {"deck": 108}, 108, (12, 12, 12)),
        (4, {}, 112, (14, 14)),
        (5, {}, 110, (11, 11)),
        (6, {}, 108, (9, 9)),
        (7, {}, 112, (8, 8)),
        (8, {}, 112, (7, 7)),
        (7, {"single_deal": True}, 112, (16,)),
        (8, {"single_deal": True}, 112, (14,)),
    ],
)
def test_deal_schedule(players: int, options: dict, deck: int, schedule: tuple) -> None:
    game = load(players, **options)
    assert game.deck_size == deck and game.schedule == schedule
    assert sum(schedule) * players == deck
    state = game.new_state(seed=3)
    d = state.deals[0]
    assert [len(h) for h in d["hands"]] == [schedule[0]] * players
    assert len(d["stock"]) == deck - players * schedule[0]
    assert state.current_player == d["first"]


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (3, {"deck": 112}, "108 or 111"),
        (3, {"deck": 110}, "not played at 3 players"),
        (4, {"deck": 108}, "deals 112 cards at 4"),
        (5, {"deck": 112}, "deals 110 cards"),
        (6, {"deck": 111}, "deals 108 cards"),
        (6, {"single_deal": True}, "needs 7, 8 players"),
        (5, {"teams": "pairs"}, "needs 4, 6, 8 players"),
        (4, {"teams": "threes"}, "choose one of"),
        (4, {"deck": 100}, "choose one of"),
        (4, {"hands": 0}, "at least 1"),
        (4, {"target_score": 0}, "at least 1"),
    ],
)
def test_bad_options_are_refused(players: int, options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load(players, **options)


def test_bad_deals_are_refused() -> None:
    game = load(4)
    good = build(4)
    game.validate_deal(good)
    with pytest.raises(DealError, match="must have 14 cards"):
        game.validate_deal({**good, "hands": [h[:13] for h in good["hands"]]})
    dup = [list(h) for h in good["hands"]]
    dup[1][0] = dup[0][0]
    with pytest.raises(DealError, match="appears twice"):
        game.validate_deal({**good, "hands": dup})
    with pytest.raises(DealError, match="first must be a seat"):
        game.validate_deal({**good, "first": 4})
    with pytest.raises(DealError, match="unknown order"):
        game.validate_deal({**good, "order": [0, 1, 2, 3]})
    with pytest.raises(DealError, match="stock must list the other 56"):
        game.validate_deal({**good, "stock": good["stock"][:-1]})
    three = load(3, deck=111)
    deal3 = build(3, deck=111)
    swapped = [list(h) for h in deal3["hands"]]
    swapped[0][0] = "T23"
    with pytest.raises(DealError, match="T23 is not in the 111-card deck"):
        three.validate_deal({**deal3, "hands": swapped})
    with pytest.raises(DealError, match="112-card extendori deck has 112 cards"):
        game.new_state(deck=[c.code for c in game.cards][:-1])


def test_deck_order_is_dealt_from_left_of_player_one() -> None:
    game = load(4)
    order = [c.code for c in game.cards]
    state = game.new_state(deck=order, seed=5)
    d = state.deals[0]
    first = d["first"]
    # one card at a time, the left neighbour of #1 first, #1 last
    assert d["hands"][(first + 1) % 4][0] == order[0]
    assert d["hands"][first][0] == order[3]
    assert d["hands"][(first + 1) % 4][1] == order[4]
    assert d["stock"] == order[56:]


def test_action_space_is_the_same_at_every_count() -> None:
    spaces = {tuple(a.text for a in load(n).actions) for n in range(3, 9)}
    assert len(spaces) == 1
    game = load(5)
    assert game.num_actions == 112
    assert game.action("play T0").id == 0 and game.action("PLAY  kc").text == "play Kc"


# -- following ----------------------------------------------------------------------------
def test_must_follow_the_led_suit() -> None:
    state = start(build(4, {0: "5c", 1: "Kc 2c T3", 2: "T4", 3: "T5"}))
    play(state, "play 5c")
    assert legal(state)[:2] == ["play 2c", "play Kc"]
    assert not {"play T3"} & set(legal(state))
    with pytest.raises(IllegalAction, match="must follow the led suit \\(cups\\)"):
        state.apply("play T3")


def test_majors_are_a_suit() -> None:
    state = start(build(4, {0: "T9", 1: "T2 T20", 2: "Kc", 3: "T5"}))
    play(state, "play T9")
    assert legal(state) == ["play T2", "play T20"]


def test_unable_to_follow_must_play_a_major() -> None:
    state = start(build(4, {0: "5c", 1: "T3 T7", 2: "Kc", 3: "Qc"}))
    play(state, "play 5c")
    assert legal(state) == ["play T3", "play T7"]
    minor = next(c for c in state.view(1)["hand"] if not c.startswith("T"))
    with pytest.raises(IllegalAction, match="must play a major"):
        state.apply(f"play {minor}")
    with pytest.raises(IllegalAction, match="you do not hold Kc"):
        state.apply("play Kc")


def test_no_led_suit_and_no_major_plays_anything() -> None:
    state = start(build(3, {0: "5c", 1: "Fd", 2: "Kc"}), 3)
    play(state, "play 5c")
    assert len(legal(state)) == 12  # the whole hand
    assert "play Fd" in legal(state)


def test_unfollowable_card_cannot_win() -> None:
    # seats 1 and 2 have neither cups nor majors: their coins cannot win the 2c lead
    state = start(build(3, {0: "2c", 1: "Fd", 2: "Kd"}), 3)
    play(state, "play 2c", "play Fd", "play Kd")
    assert state.view(0)["tricks"][0]["winner"] == 0
    assert state.current_player == 0
    assert state.scores().detail["hand_points"] == [30, 0, 0]


def test_majors_beat_minors() -> None:
    state = start(build(4, {0: "Ac", 1: "T2", 2: "Fc", 3: "Kc"}))
    play(state, "play Ac", "play T2", "play Fc", "play Kc")
    assert state.view(2)["tricks"][0]["winner"] == 1
    assert state.scores().detail["hand_points"] == [0, 45, 0, 0]


def test_unfollowable_major_wins_over_a_played_major_order() -> None:
    state = start(build(4, {0: "2c", 1: "T5", 2: "T9", 3: "3c"}))
    play(state, "play 2c", "play T5", "play T9", "play 3c")
    assert state.view(0)["tricks"][0]["winner"] == 2


# -- strength and wrap-arounds -----------------------------------------------------------
def w(*plays: str, top: int = 23) -> int:
    return E.trick_winner([(s, card(c)) for s, c in enumerate(plays)], top)


def test_major_order_and_top_wrap_around() -> None:
    assert w("T2", "T1", "T0") == 0  # no top major: T0 and T1 are the lowest
    assert w("T23", "T1") == 1
    assert w("T23", "T0") == 1
    assert w("T23", "T0", "T1") == 1  # T0 over T1 over the top
    assert w("T1", "T23", "T0") == 2
    assert w("T22", "T1") == 0  # T22 is not the top of the 112 deck
    assert w("T22", "T23", "T1", "T20") == 2  # T1 beats everything with the top out
    assert w("T22", "T1", top=22) == 1  # 111 cards: T22 is the top
    assert w("T21", "T0", top=21) == 1  # 110 cards: T21 is the top
    assert w("T21", "T0", top=23) == 0


def test_minor_order() -> None:
    for lo, hi in itertools.pairwise(E.MINOR_ORDER):
        assert w(lo + "c", hi + "c") == 1, (lo, hi)
    assert w("Ks", "As") == 1  # A ranks above K
    assert w("Ws", "Js") == 1  # courts above 15
    assert w("Ns", "Ms") == 0  # 0 above -1


def test_minor_wrap_around() -> None:
    assert w("Fc", "Nc") == 1
    assert w("Fc", "Mc") == 1
    assert w("Fc", "Nc", "Mc") == 2  # F < N < M
    assert w("Nc", "Fc", "Ac") == 0
    assert w("Fc", "Md") == 0  # the M of another suit does not count
    assert w("Nc", "Ac", "Kc") == 1  # without F, N is low
    assert w("Fc", "Nc", "T2") == 2  # a major still wins


@pytest.mark.parametrize(
    ("players", "options", "top"),
    [(4, {}, "T23"), (3, {"deck": 111}, "T22"), (5, {}, "T21"), (6, {}, "T23"), (3, {}, "T23")],
)
def test_t0_and_t1_over_the_top_major_in_play(players: int, options: dict, top: str) -> None:
    spec = {0: top, 1: "T1", 2: "T0"}
    if players > 3:
        spec[3] = "T20"
    state = start(build(players, spec, **options), players, **options)
    played = []
    for s in range(players):
        # seats without a major (the filler holds none) play any card
        code = spec.get(s) or state.view(s)["hand"][0]
        played.append(card(code))
        state.apply(f"play {code}")
    assert state.view(0)["tricks"][0]["winner"] == 2  # T0 takes the trick
    assert state.scores().detail["hand_points"][2] == sum(E.points(c) for c in played)
    # without T0 and T1 the top major wins
    assert E.trick_winner([(0, card("T20")), (1, card(top))], state.game.top_major) == 1


def test_n_and_m_over_f_in_play() -> None:
    state = start(build(4, {0: "Fc", 1: "Nc", 2: "Mc", 3: "Ac"}))
    play(state, "play Fc", "play Nc", "play Mc", "play Ac")
    assert state.view(0)["tricks"][0]["winner"] == 2
    assert state.scores().detail["hand_points"] == [0, 0, 60, 0]
    # 108 cards have no N: the M alone turns the F
    deal = build(3, {0: "Fs", 1: "Ms", 2: "As"})
    state = start(deal, 3)
    play(state, "play Fs", "play Ms", "play As")
    assert state.view(0)["tricks"][0]["winner"] == 1


# -- batches ------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "options"), [(3, {}), (3, {"deck": 111}), (4, {}), (8, {})])
def test_last_trick_winner_deals_the_next_batch_and_leads(players: int, options: dict) -> None:
    game = load(players, **options)
    state = game.new_state(seed=11)
    stock = list(state.deals[0]["stock"])
    k = game.schedule[1]
    while state.batch == 0:
        state.apply(state.legal_actions()[0])
    winner = state.view(0)["tricks"][-1]["winner"]
    assert state.current_player == winner
    view = state.view(winner)
    assert view["dealer"] == winner and view["batch"] == 2
    assert view["hand_sizes"] == [k] * players
    assert view["stock_count"] == len(stock) - k * players
    left = (winner + 1) % players
    # one card at a time: the dealer's left neighbour gets the stock's top card
    assert stock[0] in state.view(left)["hand"]
    assert stock[players - 1] in state.view(winner)["hand"]
    assert stock[players] in state.view(left)["hand"]


def test_whole_hand_then_next_hand_rotates_player_one() -> None:
    game = load(3, hands=3)
    state = game.new_state(deal=build(3, first=2), seed=4)
    assert state.current_player == 2
    while len(state.deals) == 1:
        state.apply(state.legal_actions()[-1])
    assert state.deals[1]["first"] == 0
    assert state.current_player == 0
    assert sum(state.scores().detail["hands"][0]) == 780
    while len(state.deals) == 2:
        state.apply(state.legal_actions()[-1])
    assert state.deals[2]["first"] == 1
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    s = state.scores()
    assert s.final and len(s.detail["hands"]) == 3
    assert sum(s.totals) == 3 * 780


# -- between hands: who is #1 (option between_hands) ----------------------------------
def start_match(deals: list[dict[str, object]], players: int, **options: object) -> State:
    """A match whose every hand is hand-built: the later deals wait in a record."""
    record = load(players, **options).new_state(deal=deals[0], seed=1).record()
    record["deals"] = deals
    return xtarot.replay(record)


def finish_hand(state: State) -> None:
    hand = len(state.deals)
    while len(state.deals) == hand and not state.is_terminal:
        state.apply(state.legal_actions()[0])


@pytest.mark.parametrize(
    ("options", "firsts"),
    [
        ({}, [2, 0, 1]),
        ({"between_hands": "rotate"}, [2, 0, 1]),
        ({"between_hands": "keep"}, [2, 2, 2]),
    ],
)
def test_between_hands_names_player_one(options: dict, firsts: list[int]) -> None:
    deals = [build(3, {f: "Ac"}, first=f) for f in firsts]
    state = start_match(deals, 3, hands=3, **options)
    for hand, f in enumerate(firsts, 1):
        assert len(state.deals) == hand
        view = state.view(f)
        assert "Ac" in view["hand"]  # this hand's hand-built deal is in play
        assert view["first"] == f and view["dealer"] == f  # #1 deals the first batch
        assert view["order"] == [f, (f + 1) % 3, (f + 2) % 3]  # the seating stays
        assert state.current_player == f  # and leads
        finish_hand(state)
    assert state.is_terminal and len(state.scores().detail["hands"]) == 3


def test_between_hands_reseat_takes_any_seating() -> None:
    orders = [[1, 0, 2], [0, 2, 1], [2, 1, 0]]
    deals = [dict(build(3, {o[0]: "Ac"}, first=o[0]), order=o) for o in orders]
    for options in ({"between_hands": "reseat"}, {"reseat_each_hand": True}):
        state = start_match(deals, 3, hands=3, **options)
        for o in orders:
            view = state.view(o[0])
            assert "Ac" in view["hand"] and view["order"] == o and view["dealer"] == o[0]
            seen = [state.current_player]
            for _ in range(2):
                state.apply(state.legal_actions()[0])
                seen.append(state.current_player)
            assert seen == o  # #1 leads and the play goes round in the drawn order
            finish_hand(state)
        assert state.is_terminal


@pytest.mark.parametrize(("rule", "wrong"), [("rotate", 2), ("keep", 0)])
def test_a_later_hand_must_name_the_right_player_one(rule: str, wrong: int) -> None:
    deals = [build(3, first=2), build(3, first=wrong)]
    right = 0 if rule == "rotate" else 2
    state = start_match(deals, 3, hands=2, between_hands=rule)
    with pytest.raises(DealError, match=f"hand 2 must have seat {right} as player #1"):
        finish_hand(state)


def test_keep_in_a_seeded_match() -> None:
    game = load(4, between_hands="keep")
    assert game.hands_limit == 4
    state = game.new_state(seed=2)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    firsts = [d["first"] for d in state.deals]
    assert len(firsts) == 4 and len(set(firsts)) == 1
    assert all("order" not in d for d in state.deals)
    again = xtarot.replay(state.record())
    assert again.snapshot() == state.snapshot()


def test_between_hands_and_its_older_name() -> None:
    assert load(4).options["between_hands"] == "rotate"
    assert load(4, reseat_each_hand=True).options["between_hands"] == "reseat"
    assert load(4, between_hands="reseat").options["reseat_each_hand"] is True
    assert load(4, between_hands="keep").options["reseat_each_hand"] is False
    # the agreeing pairs every record now holds load as they are
    for rule in ("rotate", "keep", "reseat"):
        pair = {"between_hands": rule, "reseat_each_hand": rule == "reseat"}
        assert {k: load(4, **pair).options[k] for k in pair} == pair
    # adapters pass every option with its default: the old name at its default (false)
    # leaves the choice alone, and true turns the default rotate into reseat
    assert load(4, between_hands="reseat", reseat_each_hand=False).options["reseat_each_hand"]
    older = load(4, between_hands="rotate", reseat_each_hand=True)
    assert older.options["between_hands"] == "reseat"
    with pytest.raises(ConfigError, match="reseat_each_hand=true contradicts between_hands=keep"):
        load(4, reseat_each_hand=True, between_hands="keep")
    with pytest.raises(ConfigError, match="choose one of 'rotate', 'keep', 'reseat'"):
        load(4, between_hands="stay")


@pytest.mark.parametrize("options", [{}, {"reseat_each_hand": True, "teams": "pairs"}])
def test_records_without_between_hands_replay(options: dict) -> None:
    state = load(4, **options).new_state(seed=7)
    rng = random.Random(7)
    while not state.is_terminal:
        la = state.legal_actions()
        state.apply(la[rng.randrange(len(la))])
    record = state.record()
    del record["options"]["between_hands"]  # as written before the option existed
    again = xtarot.replay(record)
    assert again.snapshot() == state.snapshot()
    assert again.game.options == state.game.options


@pytest.mark.parametrize(
    ("players", "options", "total"),
    [(3, {}, 780), (3, {"deck": 111}, 840), (4, {}, 840), (5, {}, 840), (6, {}, 780),
     (7, {}, 840), (8, {"single_deal": True}, 840)],
)  # fmt: skip
def test_each_deck_totals(players: int, options: dict, total: int) -> None:
    game = load(players, hands=1, **options)
    assert game.total_points == total
    rng = random.Random(players)
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.check_invariants()
            la = state.legal_actions()
            state.apply(la[rng.randrange(len(la))])
        assert sum(state.scores().detail["individual"]) == total


def test_default_match_is_one_hand_per_player() -> None:
    game = load(5)
    assert game.hands_limit == 5
    state = game.new_state(seed=2)
    first = state.first
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert [d["first"] for d in state.deals] == [(first + i) % 5 for i in range(5)]


def test_target_score_ends_the_match() -> None:
    game = load(4, target_score=500)
    assert game.hands_limit is None
    state = game.new_state(seed=9)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    s = state.scores()
    hands = s.detail["hands"]
    assert max(s.totals) >= 500
    before = [sum(h[p] for h in hands[:-1]) for p in range(4)]
    assert max(before) < 500
    assert s.ranks[s.totals.index(max(s.totals))] == 1
    # hands caps a target match too
    capped = load(4, target_score=100_000, hands=2).new_state(seed=9)
    while not capped.is_terminal:
        capped.apply(capped.legal_actions()[0])
    assert len(capped.deals) == 2


# -- teams and seating -----------------------------------------------------------------
def test_pairs_team_scoring() -> None:
    state = start(build(4, {0: "Ac", 1: "T2", 2: "Fc", 3: "Kc"}), teams="pairs")
    play(state, "play Ac", "play T2", "play Fc", "play Kc")
    s = state.scores()
    assert s.teams == ((0, 2), (1, 3))
    assert s.totals == (0.0, 45.0, 0.0, 45.0)
    assert s.detail["team_totals"] == [0, 45]
    assert s.ranks == (2, 1, 2, 1)  # the teams' places
    assert state.view(0)["teams"] == [[0, 2], [1, 3]]


def test_halves_team_scoring_six_players() -> None:
    game = load(6, teams="halves", hands=1)
    assert game.teams == ((0, 2, 4), (1, 3, 5))
    assert load(6, teams="pairs").teams == ((0, 3), (1, 4), (2, 5))
    state = game.new_state(seed=3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    s = state.scores()
    ind = s.detail["individual"]
    a, b = ind[0] + ind[2] + ind[4], ind[1] + ind[3] + ind[5]
    assert a + b == 780
    assert s.totals == (a, b, a, b, a, b)
    assert s.detail["team_totals"] == [a, b]


@pytest.mark.parametrize("teams", [None, "pairs", "halves"])
def test_reseat_each_hand_keeps_team_seating(teams: str | None) -> None:
    game = load(8, reseat_each_hand=True, teams=teams, hands=1)
    orders = set()
    for seed in range(30):
        state = game.new_state(seed=seed)
        order = state.deals[0]["order"]
        assert order[0] == state.deals[0]["first"] and sorted(order) == list(range(8))
        assert game.seating_ok(order)
        orders.add(tuple(order))
    assert len(orders) > 20
    # the play goes round in the drawn order
    state = game.new_state(seed=1)
    order = state.order
    seen = [state.current_player]
    for _ in range(7):
        state.apply(state.legal_actions()[0])
        seen.append(state.current_player)
    assert seen == order
    bad = {"pairs": [0, 1, 2, 3, 5, 4, 6, 7], "halves": [0, 2, 1, 3, 4, 5, 6, 7]}.get(teams or "")
    if bad:
        with pytest.raises(DealError, match="team seating"):
            game.validate_deal(dict(state.deals[0], first=0, order=bad))


# -- hidden information and sampled worlds ----------------------------------------------
def test_views_hide_other_hands_and_the_stock() -> None:
    state = load(4).new_state(seed=8)
    view = state.view(0)
    assert set(view) >= {
        "game", "players", "seat", "phase", "current_player", "hand", "legal_actions",
        "scores", "trick", "tricks", "stock_count", "hand_sizes", "order", "dealer",
    }  # fmt: skip
    text = str(view)
    hidden = [c for s in (1, 2, 3) for c in state.hands[s]] + state.stock
    assert not any(f"'{c.code}'" in text for c in hidden)
    assert "hand" not in state.public_view()


def _void_state() -> State:
    """Seat 1 cannot follow cups and trumps (void in cups); seat 2 can neither follow
    nor trump (void in cups and majors); seat 3 follows."""
    deal = build(4, {0: "5c 6c", 1: "T3", 2: "", 3: "Kc"})
    state = start(deal)
    play(state, "play 5c", "play T3")
    state.apply(state.legal_actions()[0])  # seat 2: any card
    play(state, "play Kc")
    return state


def test_voids_are_shown() -> None:
    state = _void_state()
    voids = state.view(0)["voids"]
    assert voids[1] == ["c"] and voids[2] == ["T", "c"] and voids[3] == []


def test_sampler_respects_voids_and_resamples_the_stock() -> None:
    state = _void_state()
    rng = random.Random(4)
    stock_seen = set()
    for _ in range(60):
        world = state.sample_world(0, rng)
        assert world.view(0) == state.view(0)
        assert not any(c.suit == "c" for c in world.hands[1])
        assert not any(c.suit == "c" or c.suit is None for c in world.hands[2])
        stock_seen.add(tuple(c.code for c in world.stock[world.top :]))
        # the world goes on legally
        world.apply(world.legal_actions()[0])
    assert len(stock_seen) > 50


def test_voids_reset_with_a_new_batch() -> None:
    game = load(4)
    state = game.new_state(seed=21)
    rng = random.Random(2)
    while state.batch == 0:
        la = state.legal_actions()
        state.apply(la[rng.randrange(len(la))])
    assert state.view(0)["voids"] == [[], [], [], []]


def test_fast_worlds_equal_replayed_worlds() -> None:
    rng = random.Random(7)
    for players, options in ((3, {}), (6, {"teams": "pairs", "reseat_each_hand": True})):
        game = load(players, hands=2, **options)
        state = game.new_state(seed=players)
        while not state.is_terminal:
            if rng.random() < 0.08:
                seat, key = rng.randrange(players), rng.randrange(1 << 30)
                fast = state.sample_world(seat, random.Random(key))
                slow = State.sample_world(state, seat, random.Random(key))
                assert fast.snapshot() == slow.snapshot()
            la = state.legal_actions()
            state.apply(la[rng.randrange(len(la))])


def test_void_sampler_is_uniform() -> None:
    hidden = cards("Kc 2c 3d T1 T2 5s")
    caps = [2, 2, 2]
    voids = [{"c"}, {"T"}, set()]
    valid = set()
    for perm in itertools.permutations(hidden):
        hands = (frozenset(perm[0:2]), frozenset(perm[2:4]), frozenset(perm[4:6]))
        if all(E.suit_key(c) not in voids[s] for s in range(3) for c in hands[s]):
            valid.add(hands)
    rng = random.Random(1)
    counts: collections.Counter = collections.Counter()
    n = 6000
    for _ in range(n):
        got = E.deal_respecting_voids(hidden, caps, voids, E.suit_key, rng)
        counts[tuple(frozenset(h) for h in got)] += 1
    assert set(counts) == valid
    expected = n / len(valid)
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in valid)
    assert chi2 < 3 * len(valid)  # df = len(valid) - 1
    with pytest.raises(ValueError, match="no deal"):
        E.deal_respecting_voids(cards("Kc 2c"), [1, 1], [{"c"}, set()], E.suit_key, rng)


def test_record_replays_a_full_match() -> None:
    game = load(4, teams="halves", reseat_each_hand=True)
    state = game.new_state(seed=12)
    rng = random.Random(3)
    while not state.is_terminal:
        la = state.legal_actions()
        state.apply(la[rng.randrange(len(la))])
    again = xtarot.replay(state.record())
    assert again.snapshot() == state.snapshot()
    assert len(state.deals) == 4


def test_single_deal_has_no_stock() -> None:
    state = load(7, single_deal=True).new_state(seed=1)
    assert state.deals[0]["stock"] == [] and len(state.hands[0]) == 16
    assert state.view(0)["batch_sizes"] == [16]


def test_explicit_seating_order_with_reseat() -> None:
    deal = dict(build(4, first=2), order=[2, 0, 3, 1])
    state = start(deal, reseat_each_hand=True)
    seen = [state.current_player]
    for _ in range(3):
        state.apply(state.legal_actions()[0])
        seen.append(state.current_player)
    assert seen == [2, 0, 3, 1]
    with pytest.raises(DealError, match="start with player #1"):
        load(4, reseat_each_hand=True).validate_deal(dict(deal, order=[0, 2, 3, 1]))
    # without an order pile the seating runs clockwise from #1
    assert load(4, reseat_each_hand=True).validate_deal(build(4, first=1))["order"] == [1, 2, 3, 0]


def test_a_tampered_later_hand_does_not_replay() -> None:
    state = load(3, hands=2).new_state(seed=6)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    record = state.record()
    record["deals"][1]["first"] = state.deals[0]["first"]  # #1 must move one seat on
    with pytest.raises(xtarot.RecordError, match="player #1"):
        xtarot.replay(record)


def test_the_fast_trick_winner_agrees_with_the_rules() -> None:
    """Play's table-driven winner gives ``rules.trick_winner``'s answer, wrap-arounds
    (top major against T1/T0, the led F against its N/M) included."""
    from xtarot.cards import XTAROT
    from xtarot.games.extendori.play import _trick_winner
    from xtarot.games.extendori.rules import trick_winner

    rng = random.Random(5)
    everything = list(XTAROT)
    tricky = [c for c in everything if c.rank in ("F", "N", "M") or c.number in (0, 1, 21, 22, 23)]
    for i in range(20_000):
        pool = everything if i % 2 else list(dict.fromkeys(tricky + rng.sample(everything, 12)))
        players = rng.randrange(3, 9)
        plays = list(zip(rng.sample(range(8), players), rng.sample(pool, players), strict=True))
        for top in (21, 22, 23):
            assert _trick_winner(plays, top) == trick_winner(plays, top), plays


@pytest.mark.parametrize("options", [{}, {"teams": "pairs"}])
def test_views_read_from_kept_parts_are_fresh_in_copies_going_other_ways(
    options: dict[str, str],
) -> None:
    """A view reads what a trick's views share and the voids from what the last view
    kept (issue #40); a copy of the state that goes another way from the same position
    must see its own: every view equals one of a new copy, which keeps nothing of its
    own yet, for the seat to act and another seat, to the end of the match."""
    game = xtarot.load("extendori", players=4, **options)
    check_views_of_diverging_copies(game, 0.02)
