"""アルカナデュエル (Arcana Duel): hand-built deals with known outcomes for every rule."""

from __future__ import annotations

import random

import pytest

import xtarot
from view_support import check_views_of_diverging_copies
from xtarot.cards import CLASSIC, card
from xtarot.engine import State
from xtarot.games.arcana_duel import attack_steps, power

ALL = [c.code for c in CLASSIC]


def make_deal(
    h0: list[str], h1: list[str], stock_top: tuple[str, ...] = (), first: int = 0
) -> dict:
    """Hands of 8 (the first five are laid as the field), the stock's top, the rest after."""
    used = set(h0) | set(h1) | set(stock_top)
    stock = list(stock_top) + [c for c in ALL if c not in used]
    return {"hands": [h0, h1], "stock": stock, "first_attacker": first}


def new(deal: dict) -> xtarot.State:
    s = xtarot.load("arcana-duel").new_state(deal=deal, seed=1)
    return s


def set_up(s: xtarot.State) -> None:
    """Each seat lays the first five cards of its dealt hand."""
    for seat in (0, 1):
        for code in s.deals[0]["hands"][seat][:5]:
            assert s.current_player == seat
            s.apply(f"place {code}")


def texts(s: xtarot.State) -> list[str]:
    return [a.text for a in s.legal_actions()]


def play(s: xtarot.State, *actions: str) -> None:
    for t in actions:
        s.apply(t)


# Seat 0 lays 5c 4d T21 T20 2c (keeps 3c 6c 7c); seat 1 lays 7s Kd 8w T10 9s (keeps 2d 3d 5d).
BATTLE = make_deal(
    ["5c", "4d", "T21", "T20", "2c", "3c", "6c", "7c"],
    ["7s", "Kd", "8w", "T10", "9s", "2d", "3d", "5d"],
    stock_top=("Ac", "Ad", "As", "Aw", "8c", "8d"),
)


# -- power, deal, set-up -------------------------------------------------------------------
def test_power() -> None:
    assert [power(card(c)) for c in ("Ac", "7d", "10s", "Jw", "Cc", "Qd", "Ks")] == [
        1, 7, 10, 10, 10, 10, 10,
    ]  # fmt: skip
    assert power(card("T0")) == 0 and power(card("T13")) == 13


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [["Ac"] * 8]}, "2 hands"),
        ({"hands": [ALL[:7], ALL[8:16]]}, "hand of seat 0 must have 8"),
        ({"stock": ["5c"]}, "appears twice"),
        ({"first_attacker": 2}, "first_attacker must be seat 0 or 1"),
        ({"stock": ["T22"]}, "not a card of the classic tarot deck"),
        ({"dealer": 0}, "unknown dealer"),
    ],
)
def test_bad_deals_are_refused_clearly(change: dict, message: str) -> None:
    with pytest.raises(xtarot.DealError, match=message):
        new({**BATTLE, **change})


def test_deck_order_deals_alternately() -> None:
    s = xtarot.load("arcana-duel").new_state(deck=ALL, seed=2)
    deal = s.deals[0]
    assert deal["hands"] == [ALL[0:16:2], ALL[1:16:2]] and deal["stock"] == ALL[16:]
    assert len(deal["stock"]) == 62


def test_only_two_players() -> None:
    with pytest.raises(xtarot.ConfigError):
        xtarot.load("arcana-duel", players=3)


def test_setup_is_hidden_and_one_seat_at_a_time() -> None:
    s = new(BATTLE)
    assert s.current_player == 0
    assert texts(s) == [f"place {c}" for c in ("T20", "T21", "2c", "3c", "5c", "6c", "7c", "4d")]
    play(s, "place 5c", "place 4d")
    v1 = s.view(1)
    assert v1["phase"] == "setup" and v1["first_attacker"] is None
    assert v1["fields"][0] == {"face_up": [], "face_down": 2}
    assert "5c" not in str(v1) and "5c" not in str(s.public_view())
    assert s.view(0)["fields"][0]["face_down_cards"] == ["5c", "4d"]
    play(s, "place T21", "place T20", "place 2c")
    assert s.current_player == 1  # seat 0 has laid five and keeps three
    assert s.view(0)["hand"] == ["3c", "6c", "7c"]
    play(s, "place 7s", "place Kd", "place 8w", "place T10", "place 9s")
    v = s.view(1)
    assert v["phase"] == "attack" and v["first_attacker"] == 0 and v["attacker"] == 0
    assert s.current_player == 0
    assert v["hand_sizes"] == [3, 3] and v["stock_left"] == 62


def test_sampled_worlds_during_setup_rewrite_hidden_placements() -> None:
    s = new(BATTLE)
    play(s, "place 5c", "place 4d", "place T21")
    rng = random.Random(3)
    changed = 0
    firsts = set()
    for _ in range(20):
        w = s.sample_world(1, rng)
        assert w.view(1) == s.view(1) and w.public_view() == s.public_view()
        changed += [a.text for a in w.history] != [a.text for a in s.history]
        firsts.add(w.first_attacker)
    assert changed >= 18
    assert firsts == {0, 1}  # not announced yet: drawn again


# -- attacks ------------------------------------------------------------------------------
def test_multi_card_attack_on_a_face_down_card_the_defender_picks() -> None:
    s = new(BATTLE)
    set_up(s)
    assert "end" not in texts(s)  # one attack is compulsory
    with pytest.raises(xtarot.IllegalAction, match="at least one attack"):
        s.apply("end")
    last = s.apply("attack 5c 4d at down")
    assert last.text == "at down"
    assert [a.text for a in s.history[-3:]] == ["attack 5c", "attack 4d", "at down"]
    # the defender's seat decides, knowing the attack's power
    assert s.current_player == 1
    assert texts(s) == ["defend T10", "defend Kd", "defend 7s", "defend 9s", "defend 8w"]
    v = s.view(1)
    assert v["attack"] == {"cards": ["5c", "4d"], "power": 9, "target": "down"}
    assert v["fields"][0]["face_up"] == [
        {"card": "5c", "attacked": True},
        {"card": "4d", "attacked": True},
    ]
    assert s.view(0)["legal_actions"] == []
    play(s, "defend 7s")  # 9 > 7: the attacker takes the defending card
    v = s.view(0)
    assert v["points"][0] == {"count": 1, "cards": ["7s"], "face_down": 0}
    assert v["fields"][1]["face_down"] == 4 and v["fields"][1]["face_up"] == []
    assert v["combats"][-1]["result"] == "attacker" and v["combats"][-1]["power"] == 9
    assert s.current_player == 0
    # used cards cannot attack again this turn; end is now allowed
    assert texts(s) == ["attack T20", "attack T21", "attack 2c", "end"]


def test_attacker_loss_gives_every_attacking_card_then_refill() -> None:
    s = new(BATTLE)
    set_up(s)
    play(s, "attack 2c 5c at down", "defend T10")  # 7 < 10
    v = s.view(1)
    assert v["points"][1]["cards"] == ["2c", "5c"] and v["points"][1]["count"] == 2
    assert v["lost_this_turn"] == 2
    assert v["fields"][0]["face_down"] == 3 and v["fields"][0]["face_up"] == []
    assert v["fields"][1]["face_up"] == [{"card": "T10", "attacked": False}]  # stays face up
    # the defending card is now a named target
    play(s, "attack T20")
    assert "at T10" in texts(s) and "at down" in texts(s)
    play(s, "at T10")  # 20 > 10
    assert s.view(0)["points"][0]["cards"] == ["T10"]
    play(s, "end")
    # refill again: draw the 2 lost, place up to 5
    assert s.view(0)["phase"] == "refill" and s.current_player == 0
    assert s.view(0)["hand"] == ["Ac", "3c", "6c", "7c", "Ad"]
    assert all(t.startswith("place ") for t in texts(s))
    play(s, "place Ac", "place Ad")
    # seat 1's turn: it lost one card, so it draws one and places one
    assert s.current_player == 1 and s.view(1)["phase"] == "refill"
    assert s.view(1)["hand"] == ["2d", "3d", "5d", "As"]
    play(s, "place As")
    assert s.view(1)["phase"] == "attack" and s.view(1)["stock_left"] == 62 - 3


def test_attacker_that_loses_its_whole_field_goes_on_to_the_refill() -> None:
    s = new(BATTLE)
    set_up(s)
    play(s, "attack 5c 4d 2c at down", "defend T10")  # 11 > 10: win
    play(s, "attack T20 T21 at down", "defend Kd")  # 41 > 10
    assert texts(s) == ["end"]  # nothing left that has not attacked
    s2 = new(
        make_deal(
            ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c"],
            ["T21", "Kd", "Qd", "Cd", "Jd", "2d", "3d", "4d"],
        )
    )
    set_up(s2)
    play(s2, "attack Ac 2c 3c 4c 5c at down", "defend T21")  # 15 < 21
    assert s2.view(0)["fields"][0] == {"face_up": [], "face_down": 0, "face_down_cards": []}
    assert not s2.is_terminal and texts(s2) == ["end"]
    play(s2, "end")  # draws the 5 lost cards and lays five
    assert s2.view(0)["hand_sizes"][0] == 8 and s2.current_player == 0
    for code in s2.view(0)["hand"][:5]:
        play(s2, f"place {code}")
    assert s2.current_player == 1 and len(s2.field[0]) == 5


def test_equal_power_is_a_tie_and_nothing_moves() -> None:
    s = new(
        make_deal(
            ["4c", "6c", "T3", "T4", "T5", "2c", "3c", "5c"],
            ["Kd", "Qd", "Cd", "Jd", "10d", "2d", "3d", "4d"],
        )
    )
    set_up(s)
    play(s, "attack 4c 6c at down", "defend Kd")  # 10 = 10
    v = s.view(0)
    assert v["combats"][-1]["result"] == "tie"
    assert v["points"] == [
        {"count": 0, "cards": [], "face_down": 0},
        {"count": 0, "cards": [], "face_down": 0},
    ]
    assert v["fields"][0]["face_up"] == [
        {"card": "4c", "attacked": True},
        {"card": "6c", "attacked": True},
    ]
    assert v["fields"][1]["face_up"] == [{"card": "Kd", "attacked": False}]
    play(s, "attack T3 T4 T5 at Kd")  # 12 > 10
    assert s.view(0)["points"][0]["cards"] == ["Kd"]


def test_full_attack_text_is_all_or_nothing() -> None:
    s = new(BATTLE)
    set_up(s)
    before = s.snapshot()
    with pytest.raises(xtarot.IllegalAction, match="stopped at step 'at Kd'"):
        s.apply("attack 5c 4d at Kd")  # Kd is face down: it cannot be named
    assert s.snapshot() == before
    with pytest.raises(xtarot.IllegalAction):
        s.apply("attack 5c 5c at down")
    assert s.snapshot() == before
    assert attack_steps("ATTACK kc AT down") == ["attack kc", "at down"]
    play(s, "attack 5C 4d AT down")  # forgiving case, as for every action
    assert s.current_player == 1


# -- the Fool -----------------------------------------------------------------------------
FOOL_ATTACK = make_deal(
    ["T0", "5c", "6c", "7c", "8c", "2c", "3c", "4c"],
    ["Kd", "Qd", "Cd", "Jd", "10d", "2d", "3d", "4d"],
    stock_top=("As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s"),
)


def test_fool_revealed_by_the_attacker_resets_both_fields() -> None:
    s = new(FOOL_ATTACK)
    set_up(s)
    play(s, "attack 5c T0 at down")  # the defender picks nothing
    assert s.current_player == 0 and s.view(0)["phase"] == "reset"
    v1 = s.view(1)
    # whole fields into their owners' points; unrevealed cards stay face down
    assert v1["points"][0] == {"count": 5, "cards": ["T0", "5c"], "face_down": 3}
    assert v1["points"][1]["count"] == 5 and v1["points"][1]["face_down"] == 0
    assert s.view(0)["points"][0]["cards"] == ["T0", "5c", "6c", "7c", "8c"]
    assert v1["combats"][-1]["result"] == "fool"
    # the attacker then the defender draw 5 and place 5
    assert sorted(s.view(0)["hand"]) == sorted(["2c", "3c", "4c", "As", "2s", "3s", "4s", "5s"])
    assert sorted(s.view(1)["hand"]) == sorted(["2d", "3d", "4d", "6s", "7s", "8s", "9s", "10s"])
    for code in ("As", "2s", "3s", "4s", "5s"):
        play(s, f"place {code}")
    assert s.current_player == 1 and s.view(1)["phase"] == "reset"
    for code in ("6s", "7s", "8s", "9s", "10s"):
        play(s, f"place {code}")
    # the attacker's turn ended at once: seat 1 attacks now, no refill needed
    v = s.view(1)
    assert v["attacker"] == 1 and v["phase"] == "attack" and v["lost_this_turn"] == 0
    assert v["fields"][0]["face_down"] == 5 and v["fields"][1]["face_down"] == 5


def test_fool_picked_by_the_defender_resets_both_fields() -> None:
    s = new(
        make_deal(
            ["T21", "T20", "T19", "T18", "T17", "2c", "3c", "4c"],
            ["T0", "Qd", "Cd", "Jd", "10d", "2d", "3d", "4d"],
        )
    )
    set_up(s)
    play(s, "attack T21 at down", "defend Qd")  # 21 > 10
    play(s, "attack T20 at down", "defend T0")
    v = s.view(0)
    assert v["combats"][-1]["result"] == "fool" and v["combats"][-1]["defence"] == "T0"
    # the attacking card goes to its owner's pile, not the defender's
    assert v["points"][0]["count"] == 1 + 5 and "T20" in v["points"][0]["cards"]
    assert v["points"][1]["count"] == 4 and v["points"][1]["cards"] == ["T0"]
    assert v["points"][1]["face_down"] == 3
    assert v["fields"] == [
        {"face_up": [], "face_down": 0, "face_down_cards": []},
        {"face_up": [], "face_down": 0},
    ]
    assert s.current_player == 0 and v["phase"] == "reset"


# -- the end ------------------------------------------------------------------------------
def test_annihilation_wins_at_once() -> None:
    s = new(
        make_deal(
            ["T21", "T20", "T19", "T18", "T17", "2c", "3c", "4c"],
            ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "8d"],
        )
    )
    set_up(s)
    for code, picked in zip(("T21", "T20", "T19", "T18"), ("Ad", "2d", "3d", "4d"), strict=True):
        play(s, f"attack {code} at down", f"defend {picked}")
    assert not s.is_terminal
    play(s, "attack T17 at down", "defend 5d")
    assert s.is_terminal and s.current_player is None
    sc = s.scores()
    assert sc.final and sc.winners == [0] and sc.detail["end"] == "annihilation"
    assert sc.totals == (5.0, 0.0)


def test_fool_reset_with_empty_fields_is_not_an_annihilation() -> None:
    s = new(FOOL_ATTACK)
    set_up(s)
    play(s, "attack T0 at down")
    assert not s.is_terminal and s.view(0)["fields"][1]["face_down"] == 0


def _simple(s: xtarot.State) -> None:
    legal = texts(s)
    for prefix in ("place", "defend", "at down", "at ", "end", "attack"):
        for t in legal:
            if t.startswith(prefix):
                s.apply(t)
                return


def test_stock_out_ends_at_the_end_of_that_turn_and_counts_points() -> None:
    for seed in range(40):
        deal = xtarot.load("arcana-duel").new_state(seed=seed).deals[0]
        s = new(deal)
        emptied_turn = None
        while not s.is_terminal:
            _simple(s)
            v = s.public_view()
            if emptied_turn is None and v["stock_left"] == 0:
                emptied_turn = v["turn"]
            if emptied_turn is not None and not s.is_terminal:
                assert v["turn"] == emptied_turn  # no further turn starts
        sc = s.scores()
        if sc.detail["end"] != "stock_out":
            continue
        counts = sc.detail["points"]
        assert emptied_turn is not None
        assert sum(counts) + sum(len(f) for f in s.field) + sum(map(len, s.hands)) == 78
        if counts[0] == counts[1]:
            assert sc.ranks == (1, 1)
        else:
            assert sc.winners == [counts.index(max(counts))]
        break
    else:
        pytest.fail("no seed ended by stock-out")


def test_draw_is_shared_on_equal_points() -> None:
    s = new(BATTLE)
    s.points = [[card("Ac")], [card("Ad")]]
    assert s.scores().ranks == (1, 1)


# -- hidden information ----------------------------------------------------------------
def test_views_hide_hands_face_down_cards_and_stock() -> None:
    s = new(BATTLE)
    set_up(s)
    v = s.view(1)
    assert v["hand"] == ["2d", "3d", "5d"]
    assert v["fields"][0] == {"face_up": [], "face_down": 5}
    for hidden in ("5c", "T21", "3c", "Ac", "8d"):
        assert hidden not in str(v) and hidden not in str(s.public_view())
    assert "hand" not in s.public_view()


def test_sampled_worlds_keep_everything_the_seat_saw() -> None:
    s = new(BATTLE)
    set_up(s)
    play(s, "attack 2c 5c at down", "defend T10", "attack T20 at T10", "end")
    rng = random.Random(9)
    for seat in (0, 1):
        for _ in range(10):
            w = s.sample_world(seat, rng)
            assert w.view(seat) == s.view(seat)
            assert set(w.hands[seat]) == set(s.hands[seat])
            assert set(w.field[seat]) == set(s.field[seat])


def test_fool_among_attackers_with_a_named_target() -> None:
    s = new(
        make_deal(
            ["T0", "4c", "6c", "T3", "T4", "2c", "3c", "5c"],
            ["Kd", "Qd", "Cd", "Jd", "10d", "2d", "3d", "4d"],
        )
    )
    set_up(s)
    play(s, "attack 4c 6c at down", "defend Kd")  # a tie: Kd stays face up
    play(s, "attack T0 T3 at Kd")
    v = s.view(1)
    assert v["combats"][-1]["result"] == "fool" and v["combats"][-1]["target"] == "Kd"
    assert v["points"][0]["count"] == 5 and v["points"][1]["count"] == 5
    assert s.view(0)["points"][1] == {"count": 5, "cards": ["Kd"], "face_down": 4}
    assert s.view(0)["points"][0]["cards"] == ["T0", "T3", "T4", "4c", "6c"]
    assert s.current_player == 0 and v["phase"] == "reset"


def test_placements_are_masked_for_the_other_seat() -> None:
    s = new(BATTLE)
    a = s.legal_actions()[0]
    assert s.action_seen_by(a, 0) == a.text
    assert s.action_seen_by(a, 1) == "place ?" and s.action_seen_by(a, None) == "place ?"
    set_up(s)
    attack = s.legal_actions()[0]
    assert s.action_seen_by(attack, 1) == attack.text


@pytest.mark.parametrize("steps", [3, 10, 14, 25, 40])
def test_sampled_worlds_use_only_the_seats_knowledge(steps: int) -> None:
    s = xtarot.load("arcana-duel").new_state(seed=11)
    rng = random.Random(5)
    for _ in range(steps):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    for seat in (0, 1):
        world = s.sample_world(seat, random.Random(1))
        a = s.sample_world(seat, random.Random(2)).snapshot()
        b = world.sample_world(seat, random.Random(2)).snapshot()
        assert a == b


def test_a_clone_is_independent_and_plays_on_like_the_original() -> None:
    game = xtarot.load("arcana-duel", players=2)
    state = game.new_state(seed=21)
    rng = random.Random(4)
    for _ in range(60):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    before = state.snapshot()
    twin = state.clone()
    assert twin.snapshot() == before
    twin.random_playout(random.Random(8))
    assert twin.is_terminal and state.snapshot() == before
    assert state.view(0) != twin.view(0)
    state.random_playout(random.Random(8))
    assert state.record() == twin.record()


def test_views_keep_the_scores_and_combats_of_the_moment() -> None:
    """A view hands out the scores' JSON kept since they last changed and the finished
    combats' own records: at every step of random duels (and of copies going other
    ways) they equal ``scores().to_dict()`` and a fresh copy's view."""
    game = xtarot.load("arcana-duel")
    for seed in range(3):
        rng = random.Random(seed)
        s = game.new_state(seed=seed)
        copies = []
        while True:
            view = s.peek_view(s.current_player or 0)
            assert view["scores"] == s.scores().to_dict()
            assert view == s.clone().view(s.current_player or 0)
            if s.is_terminal:
                break
            if rng.random() < 0.03:
                copies.append(s.clone())
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        for other in copies:
            while not other.is_terminal:
                legal = other.legal_actions()
                other.apply(legal[rng.randrange(len(legal))])
                assert other.peek_view(0)["scores"] == other.scores().to_dict()


def test_views_of_diverging_copies_equal_views_made_from_nothing_kept() -> None:
    """A view reads each field and hand sorted, and the points piles' JSON, from what
    the state keeps (``_sorted``, ``_view_scores``), which a copy inherits.  Copies of
    random duels, taken where views were read, then played other ways: at every step
    each seat's view and the public view (key order included) equal those of a copy
    whose kept parts were dropped, which makes every part afresh."""

    def bare(state: State) -> State:
        copy = state.clone()
        copy._sorted = [None] * 4  # type: ignore[attr-defined]
        copy._view_scores = None  # type: ignore[attr-defined]
        return copy

    check_views_of_diverging_copies(xtarot.load("arcana-duel"), 0.03, fresh=bare)


def test_a_state_keeps_few_attributes_and_its_turn_attributes_up_to_date() -> None:
    """CPython (3.11-3.13) shares one key table among a class's instance dicts only for
    the first 29 attribute names (docs/engine.md): a duel sets at most 28 as it plays,
    leaving room for ``is_terminal`` (set when it ends); views add ``_view_scores``.
    ``current_player`` and ``is_terminal`` are plain attributes: they must follow the
    stage as the property they replace did."""
    game = xtarot.load("arcana-duel")
    for seed in range(20):
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        keys = set(s.__dict__)
        while True:
            stage = s.stage  # type: ignore[attr-defined]
            expected = {
                "attack": s.attacker,  # type: ignore[attr-defined]
                "defend": 1 - s.attacker,  # type: ignore[attr-defined]
                "over": None,
            }.get(stage, s._placer)  # type: ignore[attr-defined]
            assert s.current_player == expected and s.is_terminal == (stage == "over")
            if s.is_terminal:
                break
            la = s.legal_actions()
            s.apply(la[rng.randrange(len(la))])
            if not s.is_terminal:
                keys |= set(s.__dict__)
        assert len(keys) <= 28, sorted(keys)
        assert len(keys | set(s.__dict__)) <= 29
