"""聖杯麻雀 Grail Mahjong: hand-built deals with known outcomes for every rule."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import xtarot
from xtarot.engine import State
from xtarot.games.grail_mahjong import GrailMahjong
from xtarot.games.grail_mahjong.actions import ACTIONS, card_set
from xtarot.record import replay


def load(players: int, **options: Any) -> GrailMahjong:
    return xtarot.load("grail-mahjong", players=players, **options)  # type: ignore[return-value]


def make_deal(players: int, hands: list[str], stock: str = "", dealer: int = 0) -> dict[str, Any]:
    """Hands given in part are filled up (and the stock continued) with the unused
    cards in card-set order, so the specials ``Oc Rc Lc`` come last."""
    used = [c for h in hands for c in h.split()] + stock.split()
    rest = [c.code for c in card_set(players) if c.code not in used]
    full = []
    for h in hands:
        cs = h.split()
        while len(cs) < 9:
            cs.append(rest.pop(0))
        full.append(cs)
    return {"hands": full, "stock": stock.split() + rest, "dealer": dealer}


def new(players: int, cards: list[str], stock: str = "", dealer: int = 0, **options: Any) -> State:
    options.setdefault("hands", 1)
    deal = make_deal(players, cards, stock, dealer)
    return load(players, **options).new_state(deal=deal, seed=7)


def play(state: State, *texts: str) -> None:
    for t in texts:
        state.apply(t)


def legal(state: State) -> list[str]:
    return [a.text for a in state.legal_actions()]


def pass_all(state: State) -> None:
    """Every asked seat passes the current discard."""
    while state.view(0)["phase"] == "claim":
        state.apply("pass")


def melds(state: State, seat: int) -> list[list[str]]:
    return [m["cards"] for m in state.public_view()["melds"][seat]]


# -- the cards and the action space ---------------------------------------------------
def test_card_sets_and_deal_sizes() -> None:
    for n, size, k in ((2, 33, 6), (3, 43, 8), (4, 53, 10)):
        g = load(n)
        assert len(g.card_set) == size and g.k == k
        codes = {c.code for c in g.card_set}
        assert {"Oc", "Rc", "Lc", "T1", f"T{k}", "Ac", f"{k}w"} <= codes
        assert "T0" not in codes and f"T{k + 1}" not in codes and "Nc" not in codes
        s = g.new_state(seed=3)
        assert s.view(0)["stock_count"] == size - 9 * n - 1  # the dealer has drawn
        assert sorted(s.view(0)["hand_sizes"]) == [9] * (n - 1) + [10]


def test_action_space_is_fixed_and_round_trips() -> None:
    assert load(2).num_actions == load(3).num_actions == load(4).num_actions == len(ACTIONS)
    assert len(ACTIONS) < 5000
    for text in (
        "pass", "luck", "discard Rc", "discard Oc", "pon 3c 3s Oc=3", "pon T3 3c 3d",
        "chi 4c Oc=5c 6c", "chi T8 T9 T10", "add 3d 0", "add Oc=3 1", "add Oc=7c 16",
        "claim pon 3c 3s", "claim pon 3c Oc=3", "claim pon 3c 3s Oc=3", "claim chi 4c 6c",
        "claim chi Oc=3c 4c", "claim chi 4c Oc=5c 6c",
    ):  # fmt: skip
        a = ACTIONS.by_text(text)
        assert ACTIONS[a.id] is a and ACTIONS.parse(text.upper()) is a
    for missing in ("discard Lc", "pon 3s 3c Oc=3", "add 3c 17", "claim chi 4c 7c"):
        assert ACTIONS.parse(missing) is None


# -- turn order ---------------------------------------------------------------------
def test_play_is_counter_clockwise_from_the_dealer() -> None:
    s = new(3, ["", "", ""], dealer=0)
    assert s.current_player == 0 and s.view(0)["hand_sizes"] == [10, 9, 9]
    play(s, "discard " + s.view(0)["hand"][0])
    assert s.view(0)["phase"] == "claim" and s.current_player == 2  # asked: 2 then 1
    s.apply("pass")
    assert s.current_player == 1
    s.apply("pass")
    assert s.current_player == 2 and s.view(0)["hand_sizes"] == [9, 9, 10]


# -- melds from the hand ----------------------------------------------------------------
def test_pon_from_hand_with_the_wild_and_add_with_replacement_draw() -> None:
    s = new(2, ["3c 3s 3d T1 T2 Ad Aw 2s 5w", "4c 4d 4s 4w 5c 5d 5s 6c 6d"], "Oc 6s")
    acts = legal(s)
    for text in (
        "pon 3c 3d 3s", "pon 3c 3s Oc=3", "pon 3c 3d Oc=3", "pon T1 Ad Aw", "pon T2 2s Oc=2",
        "chi T1 T2 Oc=T3", "discard Oc",
    ):  # fmt: skip
        assert text in acts, text
    assert "pon 3c 3s" not in acts and "luck" not in acts
    play(s, "pon 3c 3s Oc=3")
    assert melds(s, 0) == [["3c", "3s", "Oc=3"]]
    assert s.view(0)["hand_sizes"][0] == 7
    assert "add 3d 0" in legal(s) and "add 5w 0" not in legal(s)
    stock = s.view(0)["stock_count"]
    play(s, "add 3d 0")
    assert melds(s, 0) == [["3c", "3s", "Oc=3", "3d"]]
    assert "6s" in s.view(0)["hand"] and s.view(0)["hand_sizes"][0] == 7
    assert s.view(0)["stock_count"] == stock - 1
    assert s.scores().detail["meld_scores"] == [4, 0]


def test_pon_grows_to_six_cards_with_the_wild_and_no_further() -> None:
    s = new(2, ["T3 3c 3d 3s 3w Ac Ad As Aw", ""], "Oc 2c 2d 2s")
    play(s, "pon T3 3c 3d", "add 3s 0", "add 3w 0")
    assert "add Oc=3 0" in legal(s)
    play(s, "add Oc=3 0")
    assert melds(s, 0) == [["T3", "3c", "3d", "3s", "3w", "Oc=3"]]
    assert s.scores().detail["meld_scores"][0] == 16
    play(s, "pon Ac Ad As")
    assert not [a for a in legal(s) if a.startswith("add") and a.endswith(" 0")]
    assert "add Aw 1" in legal(s)


def test_chi_from_hand_and_the_wild_meaning_decides_the_extensions() -> None:
    hands = ["2c 3c 4c 5c 6c T1 T3 T5 Aw", "4d 4s 4w 5d 5s 6d 6s 6w Ad"]
    s = new(2, hands, "Oc")
    acts = legal(s)
    for text in ("chi 2c 3c 4c", "chi 4c 5c 6c", "chi Oc=3c 4c 5c", "chi 3c 4c Oc=5c"):
        assert text in acts
    assert "chi T1 Oc=T2 T3" in acts and "chi T3 Oc=T4 T5" in acts
    # the wild as 3c: the run is 3-4-5, so 2c and 6c extend it and 3c does not
    low = s.clone()
    play(low, "chi Oc=3c 4c 5c")
    assert [a for a in legal(low) if a.startswith("add")] == ["add 2c 0", "add 6c 0"]
    # the wild as 5c in 4-5-6: only 3c extends it (7 is beyond k = 6), and 5c never
    high = s.clone()
    play(high, "chi 4c Oc=5c 6c")
    assert [a for a in legal(high) if a.startswith("add")] == ["add 3c 0"]
    assert melds(high, 0) == [["4c", "Oc=5c", "6c"]]
    # extending a chi draws nothing by default
    stock = low.view(0)["stock_count"]
    play(low, "add 6c 0", "add 2c 0")
    assert melds(low, 0) == [["2c", "Oc=3c", "4c", "5c", "6c"]]
    assert low.view(0)["stock_count"] == stock and low.view(0)["hand_sizes"][0] == 5
    assert low.scores().detail["meld_scores"][0] == 9


def test_chi_extension_draws_option() -> None:
    hands = ["2c 3c 4c 5c 6c T1 T3 T5 Aw", ""]
    s = new(2, hands, "Oc 2w", chi_extension_draws=True)
    play(s, "chi 3c 4c 5c")
    stock = s.view(0)["stock_count"]
    play(s, "add 6c 0")
    assert s.view(0)["stock_count"] == stock - 1 and "2w" in s.view(0)["hand"]
    assert s.view(0)["hand_sizes"][0] == 7


def test_a_chi_holds_six_cards_at_most() -> None:
    s = new(4, ["Ac 2c 3c 4c 5c 6c 7c T9 T10", "", "", ""], "8c")
    play(s, "chi Ac 2c 3c", "add 4c 0", "add 5c 0", "add 6c 0")
    assert melds(s, 0) == [["Ac", "2c", "3c", "4c", "5c", "6c"]]
    assert "add 7c 0" not in legal(s)
    assert not [a for a in legal(s) if a.startswith("chi")]


def test_wild_extends_a_chi_at_either_end() -> None:
    s = new(2, ["2c 3c 4c T1 T3 T5 Aw Ad As", ""], "Oc")
    play(s, "chi 2c 3c 4c")
    assert {"add Oc=Ac 0", "add Oc=5c 0"} <= set(legal(s))
    play(s, "add Oc=Ac 0")
    assert melds(s, 0) == [["Oc=Ac", "2c", "3c", "4c"]]


# -- claims ----------------------------------------------------------------------------
# 3 players (k = 8), dealer 0: turn order 0 -> 2 -> 1.  Seat 0 draws 8c and discards 5c.
CLAIM_HANDS = [
    "5c Ac 2d 7s 8w T8 T7 Aw 2w",
    "5d 5s 6c 7c T1 T2 T3 3w 8d",
    "3c 4c 6d 5w T5 7d 8s 6s Ad",
]


def claim_state(hands: list[str] | None = None) -> State:
    s = new(3, hands or CLAIM_HANDS, "8c")
    play(s, "discard 5c")
    return s


def test_claim_options_and_blind_asking() -> None:
    s = claim_state()
    assert s.current_player == 2
    assert legal(s) == ["pass", "claim pon T5 5w", "claim chi 3c 4c"]
    s.apply("pass")
    assert s.current_player == 1
    assert legal(s) == ["pass", "claim pon 5d 5s", "claim chi 6c 7c"]


def test_an_ineligible_seat_is_asked_too_and_may_only_pass() -> None:
    s = new(3, ["5c Ac 2d 7s 8w T8 T7 Aw 2w", "T1 T2 T3 3w 8d 2s 3s 4s 4d", ""], "8c")
    play(s, "discard 5c")
    s.apply("pass")
    assert s.current_player == 1 and legal(s) == ["pass"]
    s.apply("pass")
    assert s.current_player == 2 and s.view(0)["phase"] == "turn"  # nobody claimed: 2 draws


def test_pon_beats_chi() -> None:
    s = claim_state()
    stock = s.view(0)["stock_count"]
    play(s, "claim chi 3c 4c", "claim pon 5d 5s")
    v = s.public_view()
    assert v["phase"] == "turn" and s.current_player == 1
    assert v["melds"][1] == [
        {"kind": "pon", "cards": ["5c", "5d", "5s"], "claimed": "5c", "from": 0, "score": 1}
    ]
    assert v["last_claim"] == {"seat": 1, "action": "claim pon 5d 5s", "from": 0, "card": "5c"}
    assert v["stock_count"] == stock  # the claimer does not draw
    assert v["discards"] == [] and v["hand_sizes"] == [9, 7, 9]
    assert {"3c", "4c"} <= set(s.view(2)["hand"])  # the losing claim cost nothing
    # the claimer may meld more from the hand, then discards; play goes on after it
    play(s, "chi T1 T2 T3", "discard 8d")
    assert s.current_player == 0  # seat 1 - 1
    pass_all(s)
    assert s.current_player == 0 and s.view(0)["hand_sizes"][0] == 10


def test_between_chi_claims_the_nearest_after_the_discarder_wins() -> None:
    s = claim_state()
    play(s, "claim chi 3c 4c", "claim chi 6c 7c")
    assert s.current_player == 2
    assert melds(s, 2) == [["3c", "4c", "5c"]] and melds(s, 1) == []


def test_between_pon_claims_the_nearest_after_the_discarder_wins() -> None:
    s = claim_state()
    play(s, "claim pon T5 5w", "claim pon 5d 5s")
    assert s.current_player == 2 and melds(s, 2) == [["T5", "5c", "5w"]]
    # seen from the other side: seat 1 discards, seat 0 is asked first
    hands = ["T4 4c 8c Ac 2d 7s 8w T8 T7", "4d Ad As 6s 7w T1 T2 3w 8d", "4s 4w 5w T5 7d 8s 6d"]
    s = new(3, hands, "Aw 2c", dealer=1)
    play(s, "discard 4d")
    assert s.current_player == 0
    play(s, "claim pon T4 4c", "claim pon 4s 4w")
    assert s.current_player == 0 and melds(s, 0) == [["T4", "4c", "4d"]]


def test_claims_with_the_claimers_own_wild() -> None:
    hands = ["5c Ac 2d 7s 8w T8 T7 Aw 2w", "5d Oc 6c 7c T1 T2 T3 3w 8d", ""]
    s = new(3, hands, "8c")
    play(s, "discard 5c", "pass")
    acts = legal(s)
    assert {"claim pon 5d Oc=5", "claim chi 6c 7c", "claim chi Oc=4c 6c"} <= set(acts)
    # the wild may stand in for a card the claimer holds, as in a pon from the hand
    assert {"claim chi 6c Oc=7c", "claim chi Oc=6c 7c", "claim pon 5d Oc=5"} <= set(acts)
    s.apply("claim chi Oc=4c 6c")
    assert melds(s, 1) == [["Oc=4c", "5c", "6c"]]
    assert "add 7c 0" in legal(s)  # the wild is 4c: 7c extends the run at the top
    assert "add Oc=3c 0" not in legal(s)


def test_claiming_a_discarded_wild_fixes_its_meaning() -> None:
    hands = ["Oc Ac 2d 7s 8w T8 T7 Aw 2w", "5d 5s 6c 7c T1 T2 T3 3w 8d", CLAIM_HANDS[2]]
    s = new(3, hands, "8c")
    play(s, "discard Oc")
    assert legal(s) == [
        "pass",
        "claim pon T5 5w Oc=5",
        "claim pon 6d 6s Oc=6",
        "claim chi Oc=2c 3c 4c",
        "claim chi 3c 4c Oc=5c",
        "claim chi Oc=5d 6d 7d",
        "claim chi 6d 7d Oc=8d",
        "claim chi 6s Oc=7s 8s",
    ]
    play(s, "claim chi 3c 4c Oc=5c", "pass")
    assert melds(s, 2) == [["3c", "4c", "Oc=5c"]]
    assert s.public_view()["melds"][2][0]["claimed"] == "Oc"
    # the run is 3-4-5: only 2c, 6c (not held) or a wild could extend it
    assert not [a for a in legal(s) if a.startswith("add")]


def test_claim_pon_with_three_in_hand_then_add_the_fourth() -> None:
    hands = ["5c Ac 2d 7s 8w T8 T7 Aw 2w", "5d 5s 5w 7c T1 T2 T3 3w 8d", ""]
    s = new(3, hands, "8c Ad")
    play(s, "discard 5c", "pass", "claim pon 5d 5s")
    assert melds(s, 1) == [["5c", "5d", "5s"]]
    play(s, "add 5w 0")
    assert melds(s, 1) == [["5c", "5d", "5s", "5w"]] and "Ad" in s.view(1)["hand"]


def test_claims_are_blind_only_the_winner_is_revealed() -> None:
    """Seat 0 and the spectator cannot tell whether seat 2 claimed and lost."""
    a, b = claim_state(), claim_state()
    a.apply("claim chi 3c 4c")
    b.apply("pass")
    for seat in (0, 1):
        assert a.view(seat) == b.view(seat)
    assert a.public_view() == b.public_view()
    a.apply("claim pon 5d 5s")
    b.apply("claim pon 5d 5s")
    for seat in (0, 1):
        assert a.view(seat) == b.view(seat)
    assert a.public_view() == b.public_view()
    # nor whether anyone could claim: an unclaimed discard looks the same either way
    c, d = claim_state(), claim_state()
    play(c, "pass", "pass")
    play(d, "claim pon T5 5w", "pass")
    assert d.current_player == 2 and melds(d, 2)
    assert c.public_view()["claim"] is None


def test_the_claim_view_shows_the_discard_and_nothing_else() -> None:
    s = claim_state()
    v = s.view(0)
    assert v["claim"] == {"seat": 0, "card": "5c"} and v["legal_actions"] == []
    assert s.view(2)["legal_actions"] == ["pass", "claim pon T5 5w", "claim chi 3c 4c"]
    with pytest.raises(xtarot.IllegalAction, match="does not fit the discard 5c"):
        s.apply("claim pon 5d 5s")  # seat 2 does not hold them


# -- the end of a hand -------------------------------------------------------------------
def test_agari_by_melding_out_skips_the_replacement_draw() -> None:
    s = new(2, ["Ac Ad As 2c 2d 2s 3c 3d 3s", ""], "3w")
    play(s, "pon Ac Ad As", "pon 2c 2d 2s", "pon 3c 3d 3s")
    assert s.view(0)["hand"] == ["3w"]
    s.apply("add 3w 2")
    assert s.is_terminal
    r = s.public_view()["results"][0]
    assert r["end"] == "agari" and r["winners"] == [0] and r["gained"] == [6, 0]
    assert s.public_view()["stock_count"] == 33 - 18 - 1  # no replacement draw
    assert s.scores().totals == (6.0, 0.0) and s.scores().winners == [0]


def test_agari_by_discarding_the_last_card_needs_no_claim_round() -> None:
    s = new(2, ["Ac Ad As 2c 2d 2s 3c 3d 3s", "4w 4c T4"], "4s")
    play(s, "pon Ac Ad As", "pon 2c 2d 2s", "pon 3c 3d 3s", "discard 4s")
    assert s.is_terminal  # seat 1 could have claimed 4s: no claim round after agari
    r = s.public_view()["results"][0]
    assert r["end"] == "agari" and r["winners"] == [0] and r["gained"] == [3, 0]


def test_agari_by_claiming_the_last_two_cards() -> None:
    hands = ["2c 3c 4c 5c Ad As Aw 6s 6w", "T6 6c 6d T1 T2 2w 3w 4w 5w"]
    s = new(2, hands, "Ac T3")
    play(s, "pon Ac Ad As", "chi 2c 3c 4c", "add 5c 1", "discard Aw")
    assert s.view(0)["hand"] == ["6s", "6w"]
    pass_all(s)
    play(s, "discard T6")
    assert legal(s) == ["pass", "claim pon 6s 6w"]
    s.apply("claim pon 6s 6w")
    assert s.is_terminal
    r = s.public_view()["results"][0]
    assert r["end"] == "agari" and r["winners"] == [0] and r["gained"] == [6, 0]


def test_rest_discarded_as_the_last_card_is_a_showdown_not_agari() -> None:
    # dealer 1 makes a pon of four (4 points); seat 0 melds out to Rc (3 points)
    hands = ["Ac Ad As 2c 2d 2s 3c 3d Rc", "T4 4c 4d 4s 6s 6w 2w T1 T2"]
    s = new(2, hands, "Aw 5d 3s", dealer=1)
    play(s, "pon T4 4c 4d", "add 4s 0", "discard Aw")
    pass_all(s)
    play(s, "pon Ac Ad As", "pon 2c 2d 2s", "pon 3c 3d 3s")
    assert s.view(0)["hand"] == ["Rc"]
    s.apply("discard Rc")
    r = s.public_view()["results"][0]
    assert r["end"] == "rest" and r["seat"] == 0
    assert r["meld_scores"] == [3, 4] and r["winners"] == [1] and r["gained"] == [0, 4]
    assert s.scores().totals == (0.0, 4.0)


def test_rest_ends_the_hand_at_once() -> None:
    s = new(2, ["Rc Ac Ad As", ""], "Aw")
    play(s, "pon Ac Ad As", "discard Rc")
    r = s.public_view()["results"][0]
    assert s.is_terminal and r["end"] == "rest" and r["winners"] == [0]


def test_luck_doubles_and_a_showdown_tie_is_shared() -> None:
    # 2 players: seat 0 has one pon and Lc (1 x 2), seat 1 two pons (2): a tie
    hands = ["Lc Ac Ad As T6 5w 4w 3w 2w", "2c 2d 2s 3c 3d 3s Rc T5 T4"]
    s = new(2, hands, "6c 6d", dealer=0)
    play(s, "pon Ac Ad As", "luck")
    v = s.public_view()
    assert v["areas"] == [["Lc"], []] and v["claim"] is None and s.current_player == 1
    assert v["discards"] == []  # Lc is never a discard
    assert s.scores().detail["meld_scores"] == [2, 0]
    play(s, "pon 2c 2d 2s", "pon 3c 3d 3s", "discard Rc")
    r = s.public_view()["results"][0]
    assert r["meld_scores"] == [2, 2] and r["winners"] == [0, 1] and r["gained"] == [2, 2]
    assert s.scores().ranks == (1, 1)


def test_luck_as_the_last_card_is_agari_and_doubles() -> None:
    s = new(2, ["Ac Ad As 2c 2d 2s 3c 3d 3s", ""], "Lc")
    play(s, "pon Ac Ad As", "pon 2c 2d 2s", "pon 3c 3d 3s", "luck")
    r = s.public_view()["results"][0]
    assert r["end"] == "agari" and r["gained"] == [6, 0]


def churn(state: State, keep: set[str], until_stock: int) -> None:
    """Discard unwanted cards and pass every claim until the stock holds ``until_stock``
    cards and a seat is to act in its turn."""
    while True:
        v = state.view(0)
        if v["phase"] == "claim":
            state.apply("pass")
            continue
        if v["stock_count"] <= until_stock:
            return
        seat = state.current_player
        hand = state.view(seat)["hand"]  # type: ignore[arg-type]
        junk = [c for c in hand if c not in keep and c not in ("Rc", "Lc")]
        state.apply(f"discard {junk[0]}")


def test_an_empty_stock_at_the_draw_is_a_showdown() -> None:
    s = new(2, ["", ""])
    churn(s, set(), 0)
    assert s.current_player == 0  # seat 0 drew the last card (15 in the stock)
    junk = [c for c in s.view(0)["hand"] if c not in ("Rc", "Lc")]
    play(s, f"discard {junk[0]}")
    pass_all(s)
    assert s.is_terminal
    r = s.public_view()["results"][0]
    assert r["end"] == "stock" and r["seat"] == 1
    assert r["winners"] == [0, 1] and r["gained"] == [0, 0]  # 0 against 0: shared


def test_an_empty_stock_at_the_replacement_draw_is_a_showdown() -> None:
    s = new(2, ["3c 3d 3s 3w", "Ac Ad As"])
    churn(s, {"3c", "3d", "3s", "3w", "Ac", "Ad", "As"}, 0)
    assert s.current_player == 0
    play(s, "pon 3c 3d 3s", "add 3w 0")
    r = s.public_view()["results"][0]
    assert s.is_terminal and r["end"] == "stock" and r["seat"] == 0
    assert r["meld_scores"] == [4, 0] and r["winners"] == [0]


# -- the match -----------------------------------------------------------------------
def test_dealer_succession_and_match_totals() -> None:
    g = load(2, hands=2)
    deal = make_deal(2, ["Ac Ad As 2c 2d 2s 3c 3d 3s", ""], "T6 4s", dealer=1)
    s = g.new_state(deal=deal, seed=11)
    assert s.current_player == 1
    junk = [c for c in s.view(1)["hand"] if c not in ("Rc", "Lc")]
    play(s, f"discard {junk[0]}")
    pass_all(s)
    play(s, "pon Ac Ad As", "pon 2c 2d 2s", "pon 3c 3d 3s", "discard 4s")
    v = s.public_view()
    assert v["results"][0]["next_dealer"] == 0
    assert v["dealer"] == 0 and s.current_player == 0 and v["hand_number"] == 2
    assert len(s.deals) == 2 and s.deals[1]["dealer"] == 0
    assert s.scores().totals == (3.0, 0.0) and not s.scores().final
    assert v["melds"] == [[], []] and v["areas"] == [[], []]
    rng = random.Random(1)
    while not s.is_terminal:
        la = s.legal_actions()
        s.apply(la[rng.randrange(len(la))])
    res = s.public_view()["results"]
    assert len(res) == 2 and res[1]["dealer"] == 0
    totals = [sum(r["gained"][p] for r in res) for p in range(2)]
    assert s.scores().totals == tuple(float(t) for t in totals) and s.scores().final
    again = replay(json.loads(json.dumps(s.record())))
    assert again.snapshot() == s.snapshot()


def test_tied_winners_the_first_from_the_old_dealer_in_turn_order_deals() -> None:
    # 3 players, dealer 0: order 0 -> 2 -> 1.  Seats 1 and 2 tie with a pon each.
    hands = ["T8 T6 T4 T2 8w 6w 4w 2w 8d", "Ac Ad As Rc", "2c 2d 2s"]
    s = new(3, hands, "", dealer=0, hands=2)
    play(s, "discard T8")
    pass_all(s)
    assert s.current_player == 2
    play(s, "pon 2c 2d 2s", "discard " + next(c for c in s.view(2)["hand"] if c[0] != "2"))
    pass_all(s)
    assert s.current_player == 1
    play(s, "pon Ac Ad As", "discard Rc")
    r = s.public_view()["results"][0]
    assert r["winners"] == [1, 2] and r["gained"] == [0, 1, 1]
    assert r["next_dealer"] == 2  # from the old dealer 0 the turn order is 0, 2, 1
    assert s.current_player == 2 and s.public_view()["dealer"] == 2


# -- deals, options, errors ------------------------------------------------------------
def test_bad_deals_and_options_are_refused() -> None:
    g = load(2)
    good = make_deal(2, ["", ""])
    assert g.validate_deal(good) == good
    with pytest.raises(xtarot.DealError, match="piles hands, stock and dealer"):
        g.new_state(deal={"hands": good["hands"], "stock": good["stock"]})
    with pytest.raises(xtarot.DealError, match="must have 9 cards"):
        g.new_state(deal={**good, "hands": [good["hands"][0][:8], good["hands"][1]]})
    bad = json.loads(json.dumps(good))
    bad["hands"][0][0] = "7c"
    with pytest.raises(xtarot.DealError, match="not a card of the grail-mahjong 2-player"):
        g.new_state(deal=bad)
    bad["hands"][0][0] = bad["hands"][1][0]
    with pytest.raises(xtarot.DealError, match="appears twice"):
        g.new_state(deal=bad)
    with pytest.raises(xtarot.DealError, match="dealer must be a seat"):
        g.new_state(deal={**good, "dealer": 2})
    with pytest.raises(xtarot.DealError, match="other 15 cards"):
        g.new_state(deal={**good, "stock": good["stock"][:-1]})
    with pytest.raises(xtarot.ConfigError, match="must be 1 or more"):
        load(2, hands=0)
    with pytest.raises(xtarot.ConfigError):
        load(5)


def test_deck_order_is_dealt_in_blocks_of_nine() -> None:
    g = load(2)
    codes = [c.code for c in g.card_set][::-1]
    s = g.new_state(deck=codes, seed=5)
    assert s.deals[0]["hands"] == [codes[:9], codes[9:18]]
    assert s.deals[0]["stock"] == codes[18:]
    with pytest.raises(xtarot.DealError, match="has 33 cards"):
        g.new_state(deck=codes[:-1])


def test_illegal_actions_explain_themselves() -> None:
    s = new(2, ["3c 3s 3d T1 T2 Ad Aw 2s 5w", ""], "Oc")
    with pytest.raises(xtarot.IllegalAction, match="not in this game's card set"):
        s.apply("discard 9c")
    with pytest.raises(xtarot.IllegalAction, match="you do not hold 6w"):
        s.apply("discard 6w")
    with pytest.raises(xtarot.IllegalAction, match="you have no meld 0"):
        s.apply("add 3c 0")
    with pytest.raises(xtarot.IllegalAction, match="it is your turn"):
        s.apply("pass")
    with pytest.raises(xtarot.IllegalAction):
        s.apply("discard Lc")


# -- hidden information -------------------------------------------------------------------
def test_views_hide_hands_and_sampled_worlds_agree() -> None:
    g = load(3, hands=3)
    s = g.new_state(seed=21)
    rng = random.Random(2)
    steps = 0
    while not s.is_terminal and steps < 400:
        if steps % 7 == 0:
            seat = steps % 3
            v = s.view(seat)
            assert "hand" in v and "hand" not in s.public_view()
            for _ in range(2):
                world = s.sample_world(seat, rng)
                assert world.view(seat) == v
                assert world.public_view() == s.public_view()
                back = replay(json.loads(json.dumps(world.record())))
                assert back.snapshot() == world.snapshot()
                # the generic path (deals + actions replayed) sees the same
                slow = State.sample_world(s, seat, rng)
                assert slow.view(seat) == v
        la = s.legal_actions()
        s.apply(la[rng.randrange(len(la))])
        steps += 1


def test_sampled_worlds_never_keep_the_others_losing_claims() -> None:
    s = claim_state()
    play(s, "claim chi 3c 4c", "claim pon 5d 5s")
    texts = [a.text for a in s.sample_world(0, random.Random(1)).history]
    assert texts[-2:] == ["pass", "claim pon 5d 5s"]
    texts = [a.text for a in s.sample_world(2, random.Random(1)).history]
    assert texts[-2:] == ["claim chi 3c 4c", "claim pon 5d 5s"]


def test_claim_answers_are_masked_for_the_other_seats() -> None:
    s = claim_state()  # seat 2 answers first, then seat 1
    claim = s.game.action("claim chi 3c 4c")
    assert s.action_seen_by(claim, 2) == "claim chi 3c 4c"
    assert s.action_seen_by(claim, 0) == s.action_seen_by(s.game.action("pass"), 0) == "answer ?"
    s.apply(claim)
    assert s.view(2)["my_answer"] == "claim chi 3c 4c" and s.view(1)["my_answer"] is None
    # the last answer resolves the round: a winning claim shows, a losing one does not
    pon, chi, pas = (s.game.action(t) for t in ("claim pon 5d 5s", "claim chi 6c 7c", "pass"))
    assert s.action_seen_by(pon, 0) == "claim pon 5d 5s"
    assert s.action_seen_by(chi, 0) == s.action_seen_by(pas, 0) == "answer ?"
    s.apply(chi)  # loses to seat 2's nearer chi
    assert s.view(1)["my_answer"] == "claim chi 6c 7c"
    assert s.public_view()["last_claim"]["action"] == "claim chi 3c 4c"


def test_sampled_worlds_use_only_the_seats_information() -> None:
    g = load(4, hands=2)
    s = g.new_state(seed=5)
    rng = random.Random(9)
    for step in range(160):
        if step % 11 == 0 and not s.is_terminal:
            seat = step % 4
            world = s.sample_world(seat, rng)
            probe = rng.getrandbits(32)
            a = s.sample_world(seat, random.Random(probe)).snapshot()
            b = world.sample_world(seat, random.Random(probe)).snapshot()
            assert a == b
        if s.is_terminal:
            break
        la = s.legal_actions()
        s.apply(la[rng.randrange(len(la))])


def test_results_keep_each_hands_final_melds() -> None:
    s = new(2, ["Lc Ac Ad As T6 5w 4w 3w 2w", "2c 2d 2s 3c 3d 3s Rc T5 T4"], "6c 6d")
    play(s, "pon Ac Ad As", "luck", "pon 2c 2d 2s", "discard Rc")
    r = s.public_view()["results"][0]
    assert r["melds"] == [[["Ac", "Ad", "As"]], [["2c", "2d", "2s"]]] and r["luck"] == [0]


# -- the mask tables against the rules, and copies ------------------------------------
def _natural_number(c: Any) -> int | None:
    from xtarot.games.grail_mahjong.actions import NUMBER

    return NUMBER.get(c)


def _rule_legal(state: Any) -> list[str]:
    """Every legal action of the seat to act, found by testing each action id of
    the fixed space against the rules (slow and plain: the reference for the tables)."""
    from xtarot.games.grail_mahjong.actions import INFO, LUCK_CARD, NAT, WILD, suit_key

    k, seat = state.game.k, state.current_player
    hand = set(state.hands[seat])
    out = []
    if state.phase == "claim":
        d = state.discards[-1][1]
        for a in ACTIONS:
            info = INFO[a.id]
            kind = info[0]
            if kind == "pass":
                out.append(a)
            elif kind == "claim_pon":
                _, n, cs, wild_discard = info
                if wild_discard != (d is WILD) or not set(cs) <= hand:
                    continue
                if wild_discard or _natural_number(d) == n:
                    out.append(a)
            elif kind == "claim_chi":
                _, meaning, cs, wild_discard = info
                if wild_discard != (d is WILD):
                    continue
                own = [c for c in cs if c is not WILD] if wild_discard else list(cs)
                if not set(own) <= hand:
                    continue
                trio = [meaning if c is WILD else c for c in cs]
                if not wild_discard:
                    trio.append(d)
                if len({suit_key(c) for c in trio}) != 1:
                    continue
                nums = sorted(_natural_number(c) for c in trio)  # type: ignore[type-var]
                if nums == list(range(nums[0], nums[0] + 3)) and nums[0] >= 1 and nums[2] <= k:
                    out.append(a)
        return [a.text for a in out]
    melds = state.melds[seat]
    for a in ACTIONS:
        info = INFO[a.id]
        kind = info[0]
        if kind == "discard":
            ok = info[1] in hand
        elif kind == "luck":
            ok = LUCK_CARD in hand
        elif kind == "pon":
            ok = set(info[2]) <= hand
        elif kind == "chi":
            _, s, lo, w = info
            run = [NAT[s][lo + i] for i in range(3)] if lo + 2 <= k else []
            ok = bool(run) and {WILD if i == w else c for i, c in enumerate(run)} <= hand
        elif kind == "add":
            _, i, c, meaning = info
            if i >= len(melds) or len(melds[i].cards) >= 6 or c not in hand:
                continue
            m = melds[i]
            if m.kind == "pon":
                ok = (meaning if c is WILD else _natural_number(c)) == m.lo
            elif c is WILD and isinstance(meaning, int):  # a number: only for a pon
                ok = False
            else:
                card_ = meaning if c is WILD else c
                ok = (
                    suit_key(card_) == m.suit
                    and _natural_number(card_) in (m.lo - 1, m.hi + 1)
                    and 1 <= _natural_number(card_) <= k  # type: ignore[operator]
                )
        else:
            continue
        if ok:
            out.append(a)
    return [a.text for a in out]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_agree_with_the_rules_checked_one_by_one(players: int) -> None:
    g = load(players, hands=3)
    rng = random.Random(players)
    checked = 0
    for seed in range(8):
        s = g.new_state(seed=seed)
        while not s.is_terminal:
            if rng.random() < 0.3:
                assert legal(s) == _rule_legal(s), f"seed {seed}, step {len(s.history)}"
                checked += 1
            la = s.legal_actions()
            s.apply(la[rng.randrange(len(la))])
    assert checked > 120


def test_a_copy_deals_its_later_hands_as_the_original_would() -> None:
    g = load(3, hands=4)
    s = g.new_state(seed=11)
    rng = random.Random(2)
    for _ in range(40):
        la = s.legal_actions()
        s.apply(la[rng.randrange(len(la))])
    before = s.snapshot()
    twin = s.clone()
    twin.random_playout(random.Random(5))  # deals later hands from the shared generator
    assert s.snapshot() == before, "playing a copy changed the original"
    again = s.clone()
    s.random_playout(random.Random(5))
    again.random_playout(random.Random(5))
    assert s.record() == twin.record() == again.record()
    assert len(s.deals) == 4
    assert replay(s.record()).snapshot() == s.snapshot()


def test_a_meld_copy_has_every_slot() -> None:
    from xtarot.cards import card
    from xtarot.games.grail_mahjong import Meld

    m = Meld("chi", [card("3c"), card("Oc"), card("5c")], suit="c", wild=card("4c"))
    m.claimed, m.source = card("3c"), 2
    twin = m.copy()
    assert all(getattr(twin, n) == getattr(m, n) for n in Meld.__slots__)
    twin.cards.append(card("6c"))
    assert len(m.cards) == 3


def _hands_from_events(state: Any) -> list[list[str]]:
    """Each hand rebuilt from the public record of the hand alone: the seat's dealt
    cards and draws, in order, less every card it has shown (the reference for the
    hands the state reads off its masks)."""
    deal = state.deals[-1]
    out = []
    for s, events in enumerate(state.events):
        shown = {x for x in events if isinstance(x, str)}
        got = list(deal["hands"][s]) + [deal["stock"][x] for x in events if isinstance(x, int)]
        out.append([c for c in got if c not in shown])
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_are_the_cards_got_and_not_shown_in_the_order_got(players: int) -> None:
    from xtarot.games.grail_mahjong.actions import sort_key

    g = load(players, hands=2)
    rng = random.Random(30 + players)
    checked = 0
    for seed in range(4):
        s: Any = g.new_state(seed=seed)
        while not s.is_terminal:
            ref = _hands_from_events(s)
            assert [[c.code for c in h] for h in s.hands] == ref
            seat = len(s.history) % players
            want = [c.code for c in sorted(s.hands[seat], key=sort_key)]
            assert s.view(seat)["hand"] == want
            assert s.view(seat)["hand_sizes"] == [len(h) for h in ref]
            checked += 1
            la = s.legal_actions()
            s.apply(la[rng.randrange(len(la))])
    assert checked > 200


def test_a_finished_hands_record_never_changes() -> None:
    g = load(3, hands=3)
    s: Any = g.new_state(seed=4)
    rng = random.Random(8)
    seen: list[str] = []
    while not s.is_terminal:
        if len(s.past) > len(seen):  # a hand has just ended: keep what it left
            seen.append(json.dumps(s.snapshot()["state"]["past"][len(seen)]))
        la = s.legal_actions()
        s.apply(la[rng.randrange(len(la))])
        twin = s.clone()  # copies play on without touching the original's past
        twin.random_playout(random.Random(len(s.history)))
    past = s.snapshot()["state"]["past"]
    assert [json.dumps(p) for p in past[: len(seen)]] == seen and len(past) == 3


def test_a_state_keeps_few_attributes() -> None:
    """CPython (3.11-3.13) shares one key table among a class's instance dicts for
    the first 29 attribute names it meets; a state needing any other name keeps a
    private dict, and each attribute read and write is slower (about 7% per decision
    in benchmarks/bench_playouts.py).  So a state sets at most 26 names as it plays,
    leaving room for the three set only sometimes: ``_rng_shared`` (copied),
    ``_templates`` (sampled) and ``is_terminal`` (over)."""
    for players in (2, 3, 4):
        every: set[str] = set()
        for sampled in (False, True):
            s: Any = load(players, hands=2).new_state(seed=3)
            rng = random.Random(players)
            keys = set(s.__dict__)
            while not s.is_terminal:
                la = s.legal_actions()
                s.apply(la[rng.randrange(len(la))])
                keys |= set(s.__dict__)
                if sampled and len(s.history) == 1:
                    s.clone()
                    s.sample_world(0, rng)
            keys |= set(s.__dict__)
            if not sampled:
                assert len(keys - {"is_terminal"}) <= 26, sorted(keys)
            every |= keys
        assert {"_rng_shared", "_templates", "is_terminal"} <= every
        assert len(every) <= 29, sorted(every)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_claim_answers_and_face_up_cards_are_kept_across_hands(players: int) -> None:
    """What a state keeps compactly (its claim answers packed per hand, a finished
    hand as its events) still tells every claim answer -- its history index, seat and
    whether it was revealed (the winning claim of a round) -- each seat's latest answer,
    and the cards lying face up: those of the melds, discards and areas."""
    from xtarot.engine import Action

    g = load(players, hands=3)
    rng = random.Random(60 + players)
    revealed = 0
    for seed in range(4):
        s: Any = g.new_state(seed=seed)
        want: list[list[Any]] = []  # [index, seat, revealed] of every claim answer
        claim = None
        while not s.is_terminal:
            face_up = {c.code for ms in s.melds for m in ms for c in m.cards}
            face_up |= {c.code for _, c in s.discards} | {c.code for a in s.areas for c in a}
            assert s._revealed() == face_up
            latest = {seat: -1 for seat in range(players)}
            for index, seat, _ in want:
                latest[seat] = index
            assert [s._answered(seat) for seat in range(players)] == list(latest.values())
            la = s.legal_actions()
            action: Action = la[rng.randrange(len(la))]
            if s.phase == "claim":
                want.append([len(s.history), s.current_player, False])
            s.apply(action)
            if s.last_claim is not None and s.last_claim is not claim:  # a claim won
                claim = s.last_claim
                winner = next(w for w in reversed(want) if w[1] == claim["seat"])
                winner[2] = True
                revealed += 1
            elif s.last_claim is None:
                claim = None
        assert [list(d) for d in s.snapshot()["state"]["decisions"]] == want
        assert len(s.past) == 3
        final = {c.code for ms in s.melds for m in ms for c in m.cards}
        final |= {c.code for _, c in s.discards} | {c.code for a in s.areas for c in a}
        assert s._revealed_at(2) == final  # the last hand's cards are still on the table
    assert revealed > 3
