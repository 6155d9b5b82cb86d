"""Fairy Five Hundred (fairy500): hand-built deals with known outcomes for every rule."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import xtarot
from xtarot.cards import card
from xtarot.engine import ConfigError, DealError, IllegalAction
from xtarot.games.fairy500 import ACTIONS, SUIT_OF, card_set, key_table, misere_value
from xtarot.games.fairy500.scoring import (
    contract_scores,
    misere_bonus,
    misere_scores,
    ramsch_scores,
)


# -- helpers ------------------------------------------------------------------------------
def deal_for(
    n: int, hands: dict[int, str], kitty: str | None = None, dealer: int | None = None
) -> dict[str, Any]:
    """A deal: the given hands (and kitty); the rest of the card set fills the others in
    deck order.  The default dealer is the last seat, so seat 0 bids first."""
    given = {s: h.split() for s, h in hands.items()}
    used = {c for h in given.values() for c in h} | set(kitty.split() if kitty else [])
    rest = [c.code for c in card_set(n) if c.code not in used]
    out = []
    for s in range(n):
        if s in given:
            out.append(given[s])
        else:
            out.append(rest[:10])
            rest = rest[10:]
    k = kitty.split() if kitty else rest[:4]
    return {"hands": out, "kitty": k, "dealer": n - 1 if dealer is None else dealer}


def start(n: int, cards: dict[int, str], kitty: str | None = None, **options: Any):
    return xtarot.load("fairy500", players=n, **options).new_state(
        deal=deal_for(n, cards, kitty), seed=1
    )


def act(state, *texts: str) -> None:
    for t in texts:
        state.apply(t)


def texts(state) -> list[str]:
    return [a.text for a in state.legal_actions()]


def strength(state, code: str) -> int:
    h = state.h
    c = card(code)
    trick = h.trick
    led = trick.led if trick is not None and trick.plays else SUIT_OF[h.mode][c]
    return key_table(h.mode, led)[c]


def finish(state, strong: set[int], hand: int | None = None) -> None:
    """Play the hand out: seats in ``strong`` play their strongest legal card, the
    others their weakest (ties: deck order)."""
    number = len(state.results) if hand is None else hand
    while not state.is_terminal and len(state.results) == number:
        seat = state.current_player
        legal = [a.text for a in state.legal_actions()]
        ranked = sorted(legal, key=lambda t: (strength(state, t.split()[1]), card(t.split()[1])))
        state.apply(ranked[-1] if seat in strong else ranked[0])


TOP_CUPS_4 = "Fc Fd Fw Fs Jc Jd Kc Qc Cc 10c"
JUNK_KITTY_4 = "5s 6s 7s 8s"


def cups_contract(bid: str, call: str | None, n: int = 4, **options: Any):
    """Seat 0 declares ``bid`` with the ten top cups trumps, discards the kitty back."""
    s = start(n, {0: TOP_CUPS_4, 2: "9c 5d 6d 7d 8d 9d 10d Cd Qd Kd"}, JUNK_KITTY_4, **options)
    act(s, bid, *["pass"] * (n - 1))
    if call is not None and not options.get("classical"):
        act(s, f"call {call}")
    act(s, *[f"discard {c}" for c in JUNK_KITTY_4.split()])
    if call is not None and options.get("classical"):
        act(s, f"call {call}")
    return s


# -- cards, actions, deals, options ---------------------------------------------------------
def test_card_sets_per_player_count() -> None:
    sizes = {n: len(card_set(n)) for n in range(3, 9)}
    assert sizes == {3: 34, 4: 44, 5: 54, 6: 64, 7: 74, 8: 84}
    three = {c.code for c in card_set(3)}
    assert {"7c", "7d", "8s", "Fw"} <= three and "7s" not in three and "7w" not in three
    five = {c.code for c in card_set(5)}
    assert {"2c", "2d", "3s"} <= five and "2s" not in five
    six = {c.code for c in card_set(6)}
    assert {"Es", "2w"} <= six and "Bs" not in six
    seven = {c.code for c in card_set(7)}
    assert {"Wc", "Wd", "Ls"} <= seven and "Ws" not in seven and "Nc" not in seven
    eight = {c.code for c in card_set(8)}
    assert {"Nc", "Aw", "Ws"} <= eight and "Mc" not in eight


def test_action_space_is_fixed_and_round_trips() -> None:
    assert len(ACTIONS) == 290
    for t in ("pass", "bid 7c", "bid 10nt", "bid misere", "bid hand-misere double",
              "bid open-hand-misere crazy", "call Fc", "discard Nw", "play Kc"):  # fmt: skip
        a = ACTIONS.by_text(t)
        assert ACTIONS[a.id] is a
    for n in (3, 8):
        assert xtarot.load("fairy500", players=n).num_actions == 290


def test_bid_values() -> None:
    g = xtarot.load("fairy500", players=4)
    v = {a.text: g.bid_values[a.id] for a in ACTIONS if a.id in g.bid_values}
    assert v["bid 6s"] == 40 and v["bid 6w"] == 60 and v["bid 6d"] == 80
    assert v["bid 6c"] == 100 and v["bid 6nt"] == 120 and v["bid 7s"] == 140
    assert v["bid 10c"] == 500 and v["bid 10nt"] == 520
    assert len([t for t in v if not t.startswith("bid misere") and "misere" not in t]) == 25
    assert v["bid misere"] == 250 and v["bid open-hand-misere"] == 550
    assert v["bid misere double"] == 500 and v["bid misere crazy"] == 2500
    assert [misere_value(k, "", 6) for k in ("misere", "hand-misere", "open-misere",
            "open-hand-misere")] == [150, 250, 350, 450]  # fmt: skip
    assert [misere_value(k, "", 7) for k in ("misere", "hand-misere", "open-misere",
            "open-hand-misere")] == [50, 150, 250, 350]  # fmt: skip
    assert misere_value("open-misere", "double", 8) == 500


def test_bad_deals_and_options() -> None:
    g = xtarot.load("fairy500", players=3)
    good = deal_for(3, {})
    g.new_state(deal=good)
    bad = deal_for(3, {})
    bad["hands"][0][0] = "5c"  # not in the 3-player set
    with pytest.raises(DealError, match="not in the 3-player card set"):
        g.new_state(deal=bad)
    bad = deal_for(3, {})
    bad["hands"][1][0] = bad["hands"][0][0]
    with pytest.raises(DealError, match="twice"):
        g.new_state(deal=bad)
    with pytest.raises(DealError, match="10 cards"):
        g.new_state(deal={**good, "hands": [good["hands"][0][:9], *good["hands"][1:]]})
    with pytest.raises(DealError, match="dealer"):
        g.new_state(deal={**good, "dealer": 3})
    with pytest.raises(DealError, match="missing kitty"):
        g.new_state(deal={"hands": good["hands"], "dealer": 0})
    with pytest.raises(DealError, match="34 cards"):
        g.new_state(deck=[c.code for c in card_set(3)][:-1])
    with pytest.raises(ConfigError, match="needs 4 players"):
        xtarot.load("fairy500", players=5, pairs=True)
    with pytest.raises(ConfigError, match="all_pass"):
        xtarot.load("fairy500", players=5, all_pass="shuffle")


def test_deck_order_deals_from_the_dealers_left() -> None:
    g = xtarot.load("fairy500", players=3)
    deck = [c.code for c in card_set(3)]
    s = g.new_state(deck=deck, seed=3)
    d = s.deals[0]
    first = (d["dealer"] + 1) % 3
    assert d["hands"][first][0] == deck[0] and d["kitty"] == deck[30:]


# -- the auction ----------------------------------------------------------------------------
def test_auction_starts_left_of_dealer_and_passes_are_final() -> None:
    s = xtarot.load("fairy500", players=4).new_state(deal=deal_for(4, {}, dealer=1))
    assert s.current_player == 2
    act(s, "bid 6s")
    assert s.current_player == 3
    act(s, "pass")
    assert s.current_player == 0
    act(s, "bid 6w", "bid 6d")  # seat 0 overcalls, then seat 1
    assert s.current_player == 2
    act(s, "pass")
    assert s.current_player == 0  # seat 3 passed and is skipped
    act(s, "pass")
    assert s.h.declarer == 1 and s.h.bid.text == "bid 6d" and s.h.phase == "call"


def test_bids_must_rise_strictly_in_value() -> None:
    s = start(4, {})
    act(s, "bid 10c")  # 500
    legal = texts(s)
    assert "bid misere double" not in legal  # also 500 at 3-4 players
    assert "bid 10nt" in legal and "bid hand-misere double" in legal  # 520, 700
    with pytest.raises(IllegalAction, match="higher in value"):
        s.apply("bid 9nt")
    act(s, "bid 10nt")
    assert "bid 10nt" not in texts(s) and "bid misere" not in texts(s)


def test_last_seat_may_still_bid_after_three_passes() -> None:
    s = start(4, {})
    act(s, "pass", "pass", "pass")
    assert s.current_player == 3 and "bid 6s" in texts(s)
    act(s, "bid 6s")
    assert s.h.declarer == 3 and s.h.phase == "call"


# -- partner calls and the kitty ----------------------------------------------------------
def test_call_one_card_at_four_and_two_at_eight_none_at_three() -> None:
    s = start(4, {})
    act(s, "bid 6c", "pass", "pass", "pass")
    assert s.h.phase == "call" and s.current_player == 0
    assert "call 2c" not in texts(s)  # not in the 4-player set
    with pytest.raises(IllegalAction, match="card set"):
        s.apply("call 2c")
    act(s, "call Kc")
    assert s.h.phase == "discard" and len(s.h.hands[0]) == 14

    s = start(8, {})
    act(s, "bid 6c", *["pass"] * 7, "call Kc")
    assert s.h.phase == "call" and "call Kc" not in texts(s)
    act(s, "call Nw")
    assert s.h.phase == "discard"

    s = start(3, {})
    act(s, "bid 6c", "pass", "pass")
    assert s.h.phase == "discard"


def test_no_call_in_misere_and_no_kitty_in_hand_misere() -> None:
    s = start(5, {})
    act(s, "bid misere", *["pass"] * 4)
    assert s.h.phase == "discard" and len(s.h.hands[0]) == 14
    s = start(5, {})
    act(s, "bid hand-misere", *["pass"] * 4)
    assert s.h.phase == "play" and s.current_player == 1 and s.view(0)["kitty_size"] == 4
    s = start(5, {})
    act(s, "bid open-hand-misere crazy", *["pass"] * 4)
    assert s.h.phase == "play" and s.h.value == 4500


def test_kitty_and_discards_are_the_declarers_secret() -> None:
    s = start(4, {0: TOP_CUPS_4}, JUNK_KITTY_4)
    act(s, "bid 6c", "pass", "pass", "pass", "call 9c")
    assert s.view(0)["kitty"] == JUNK_KITTY_4.split()
    assert s.view(1)["kitty"] is None and s.public_view()["kitty"] is None
    act(s, "discard Fs", "discard 5s")
    assert s.view(0)["discards"] == ["Fs", "5s"]
    assert s.view(2)["discards"] is None and s.view(2)["discard_count"] == 2
    assert s.view(2)["hand_sizes"][0] == 12
    with pytest.raises(IllegalAction, match="do not hold"):
        s.apply("discard 5s")


# -- card orders and following -------------------------------------------------------------
def test_trump_order() -> None:
    keys = key_table("c", "s")
    order = "Fc Fd Fw Fs Jc Jd Kc Qc Cc 10c 5c Ks Qs Cs Js 10s 5s".split()
    assert sorted(order, key=lambda c: -keys[card(c)]) == order
    assert keys[card("Kd")] == keys[card("Jw")] == -1  # other suits cannot win
    eight = key_table("c", "w")
    assert eight[card("Aw")] < eight[card("2w")] and eight[card("Nw")] < eight[card("Aw")]
    assert eight[card("Ww")] < eight[card("Jw")] < eight[card("Cw")]
    assert key_table("s", "w")[card("Jw")] > key_table("s", "w")[card("Ks")]
    assert SUIT_OF["w"][card("Js")] == "w" and SUIT_OF["w"][card("Jc")] == "c"


def test_colour_mate_jack_must_follow_trump() -> None:
    s = start(4, {1: "5c 6c 7c 8c 5s 6s 7s 8s 9s 10s", 2: "Jd 5d 6d 7d 8d 9d 10d 5w 6w 7w"},
              "Cd Qd Kd 8w")  # fmt: skip
    act(s, "bid 6c", "pass", "pass", "pass", "call Fc")
    act(s, "discard Cd", "discard Qd", "discard Kd", "discard 8w")
    act(s, "play 5c")
    assert texts(s) == ["play Jd"]  # the colour-mate J is a trump
    act(s, "play Jd")
    # and a led coins suit is not followed by the trump J: seat 2 keeps it for trumps
    s2 = start(4, {1: "5d 6c 7c 8c 5s 6s 7s 8s 9s 10s", 2: "Jd 6w 6d 7d 8d 9d 10d 5w 7w 9w"})
    act(s2, "bid 6c", "pass", "pass", "pass", "call Fc")
    act(s2, *[f"discard {c}" for c in s2.h.kitty])
    act(s2, "play 5d")
    assert "play Jd" not in texts(s2) and "play 6d" in texts(s2)


def test_fairy_is_a_trump_in_trump_contracts() -> None:
    s = start(4, {1: "5c 6c 7c 8c 5s 6s 7s 8s 9s 10s", 2: "Fw 5d 6d 7d 8d 9d 10d 5w 6w 7w"})
    act(s, "bid 6c", "pass", "pass", "pass", "call Fc", *[f"discard {c}" for c in s.h.kitty])
    act(s, "play 5c")
    assert texts(s) == ["play Fw"]


def test_fairy_led_at_no_trump() -> None:
    s = start(4, {0: "Jc Cc Qc Jd Cd Qd Kd Cw Qw Kw", 1: "Fs 5c 6c 7c 8c 5s 6s 7s 8s 9s",
                  2: "Fd 5d 6d 7d 8d 9d 10d Kc 6w 7w", 3: "Ks Qs Cs Js 10s 5w 8w 9w 10w Jw"},
              "Fc Fw 9c 10c")  # fmt: skip
    act(s, "bid 6nt", "pass", "pass", "pass", "call Kd")
    act(s, *[f"discard {c}" for c in "Fc Fw 9c 10c".split()])
    act(s, "play Fs")
    assert texts(s) == ["play Fd"]  # an F lead must be followed by an F
    act(s, "play Fd")
    assert "play Ks" in texts(s) and "play 5w" in texts(s)  # no F: anything
    act(s, "play Ks")
    act(s, s.legal_actions()[0].text)
    assert s.h.tricks[0]["winner"] == 2  # coins F beats swords F; the K cannot win


def test_fairy_beats_the_led_suit_at_no_trump() -> None:
    keys = key_table("nt", "c")
    assert keys[card("Fs")] > keys[card("Kc")] > keys[card("Qc")] > keys[card("Jc")]
    assert keys[card("Kd")] == -1 and SUIT_OF["nt"][card("Fc")] == "F"


def test_off_suit_fairy_wins_in_misere() -> None:
    s = start(4, {1: "Ks 5c 6c 7c 8c 9c 10c Cc Qc Kc", 2: "Fc Fd 5d 6d 7d 8d 9d 10d 5w 6w",
                  3: "Fs 5s 6s 7s 8s 9s 10s 7w 8w 9w"})  # fmt: skip
    act(s, "bid misere", "pass", "pass", "pass", *[f"discard {c}" for c in s.h.kitty])
    act(s, "play Ks")
    assert "play Fc" in texts(s)  # void in swords: any card, the F too
    act(s, "play Fc")
    assert "play Fs" in texts(s) and "play 5s" in texts(s)  # Fs is a sword in misere
    act(s, "play 5s")
    act(s, s.legal_actions()[0].text)
    assert s.h.tricks[0]["winner"] == 2  # the off-suit F beats the led K
    keys = key_table("misere", "s")
    assert keys[card("Fs")] > keys[card("Fc")] > keys[card("Fd")] > keys[card("Fw")]
    assert keys[card("Fw")] > keys[card("Ks")] > keys[card("Qs")] > keys[card("Cs")]
    assert keys[card("Cs")] > keys[card("Js")] > keys[card("10s")]


def test_open_misere_hand_is_shown_after_the_opening_lead() -> None:
    s = start(4, {})
    act(s, "bid open-misere", "pass", "pass", "pass", *[f"discard {c}" for c in s.h.kitty])
    assert s.view(2)["open_hand"] is None
    lead = s.legal_actions()[0].text
    act(s, lead)
    shown = s.public_view()["open_hand"]
    assert shown == s.view(0)["hand"] and len(shown) == 10
    assert s.view(3)["open_hand"] == shown


# -- scoring: trick contracts ---------------------------------------------------------------
def test_contract_made_with_partner() -> None:
    s = cups_contract("bid 6c", "9c")
    finish(s, {0, 2})
    assert s.scores().totals == (100.0, 0.0, 50.0, 0.0)
    assert s.results[0]["detail"]["made"] and s.results[0]["tricks"][0] == 10


def test_small_and_grand_slam() -> None:
    s = cups_contract("bid 9c", "9c")
    finish(s, {0, 2})
    assert s.scores().totals[:3] == (500.0, 0.0, 250.0)  # 400 + 100
    s = cups_contract("bid 10c", "9c")
    finish(s, {0, 2})
    assert s.scores().totals[:3] == (800.0, 0.0, 400.0)  # 500 + 300
    assert s.is_terminal  # 800 >= 500 ends the match


def test_called_card_in_own_hand_or_discarded_multiplies() -> None:
    s = cups_contract("bid 6c", "Kc")
    finish(s, {0})
    assert s.scores().totals == (150.0, 0.0, 0.0, 0.0)
    s = cups_contract("bid 6c", "5s")  # in the kitty, then discarded
    finish(s, {0})
    assert s.scores().totals == (150.0, 0.0, 0.0, 0.0)
    assert s.results[0]["detail"]["declarer_factor"] == 1.5


def test_contract_failed_and_no_slam_bonus_three_players() -> None:
    hand = "Fc Fd Fw Fs Jc Jd Kc Qc Cc 8s"
    s = start(3, {0: hand, 1: "9s 10s Js 7d 8d 9d 10d Cd Qd Kd"}, "8w 9w 10w Jw")
    act(s, "bid 10c", "pass", "pass", *[f"discard {c}" for c in "8w 9w 10w Jw".split()])
    finish(s, {0})
    assert s.results[0]["tricks"][0] == 9
    assert s.scores().totals[0] == -500.0 and s.is_terminal
    assert s.scores().totals[1] + s.scores().totals[2] == 10.0  # 10 per defender trick
    s = start(3, {0: hand, 1: "9s 10s Js 7d 8d 9d 10d Cd Qd Kd"}, "8w 9w 10w Jw")
    act(s, "bid 9c", "pass", "pass", *[f"discard {c}" for c in "8w 9w 10w Jw".split()])
    finish(s, {0})
    assert s.scores().totals[0] == 500.0  # 400 + small slam 100


def test_eight_players_two_calls() -> None:
    top = "Fc Fd Fw Fs Jc Jd Kc Qc Cc Wc"
    kitty = "Ns As 2s 3s"

    def play(c1: str, c2: str, hands: dict[int, str]):
        s = start(8, {0: top, **hands}, kitty)
        act(s, "bid 6c", *["pass"] * 7, f"call {c1}", f"call {c2}")
        act(s, *[f"discard {c}" for c in kitty.split()])
        finish(s, {0})
        return s.scores().totals

    both = play("Lc", "Bc", {4: "Lc Bc Nd Ad 2d 3d 4d 5d 6d 7d"})
    assert both[0] == 100 and both[4] == 100  # two called cards: the full V
    split = play("Lc", "Bc", {3: "Lc Nd Ad 2d 3d 4d 5d 6d 7d 8d", 5: "Bc Nw Aw 2w 3w 4w 5w "
                              "6w 7w 8w"})  # fmt: skip
    assert split[0] == 100 and split[3] == 50 and split[5] == 50
    own = play("Kc", "Lc", {4: "Lc Nd Ad 2d 3d 4d 5d 6d 7d 8d"})
    assert own[0] == 150 and own[4] == 50
    none = play("Kc", "Ns", {})  # one in hand, one discarded
    assert none[0] == 200 and sum(none) == 200


def test_classical_option() -> None:
    s = cups_contract("bid 6c", "9c", classical=True)
    assert s.h.phase == "play"
    assert s.view(1)["partners"] == [2] and s.public_view()["partners"] == [2]
    finish(s, {0, 2})
    assert s.scores().totals == (250.0, 0.0, 125.0, 0.0)  # all 10 tricks: at least 250
    s = start(4, {0: TOP_CUPS_4}, JUNK_KITTY_4, classical=True)
    act(s, "bid 6c", "pass", "pass", "pass")
    assert s.h.phase == "discard"  # the kitty first, then the call
    act(s, "discard 5s", "discard 6s", "discard 7s", "discard Fs")
    legal = texts(s)
    assert "call Kc" not in legal and "call 5s" not in legal and "call Fs" not in legal
    assert "call 9c" in legal
    with pytest.raises(IllegalAction, match="seen"):
        s.apply("call 8s")


def test_pairs_option() -> None:
    s = cups_contract("bid 6c", None, pairs=True)
    assert s.view(1)["partners"] == [2] and s.view(2)["is_partner"]
    finish(s, {0, 2})
    assert s.scores().totals == (100.0, 0.0, 50.0, 0.0)  # no multiplier, partner V/2
    s = start(4, {0: "5c 6c 7c 5d 6d 7d 5s 6s 7s 5w"}, "Fc Fd Fw Fs", pairs=True)
    act(s, "bid misere", "pass", "pass", "pass", *[f"discard {c}" for c in "Fc Fd Fw Fs".split()])
    assert s.view(1)["partners"] == []
    finish(s, set())
    assert s.scores().totals == (250.0, 0.0, 0.0, 0.0)


def test_contract_scoring_paths() -> None:
    kw = {"tricks_bid": 7, "base": 200, "classical": False}
    pts, d = contract_scores([5, 2, 1, 2], 0, {2: 1}, 0, **kw)
    assert pts == [-200, 20, -100, 20] and not d["made"]
    pts, _ = contract_scores([7, 0, 3, 0], 0, {}, 1, **kw)
    assert pts == [300, 0, 30, 0]
    pts, _ = contract_scores([4, 0, 3, 3], 0, {2: 1, 3: 1}, 0, **kw)
    assert pts == [200, 0, 100, 100]
    pts, _ = contract_scores([3, 0, 3, 4], 0, {}, 2, **kw)
    assert pts == [-400, 0, 30, 40]
    pts, d = contract_scores([9, 1, 0, 0], 0, {}, 0, tricks_bid=9, base=340, classical=False)
    assert pts[0] == 440 and d["bonus"] == 100
    pts, _ = contract_scores([10, 0, 0], 0, {}, 0, tricks_bid=10, base=440, classical=False)
    assert pts[0] == 740
    pts, _ = contract_scores([10, 0, 0], 0, {}, 0, tricks_bid=10, base=440, classical=True)
    assert pts[0] == 740  # already above 250
    pts, _ = contract_scores([10, 0, 0, 0], 0, {}, 1, tricks_bid=7, base=140, classical=True)
    assert pts[0] == 375  # 250 x 1.5
    pts, _ = contract_scores([8, 0, 2, 0], 0, {}, 0, tricks_bid=9, base=360, classical=False)
    assert pts[0] == -360  # no bonus on failure


# -- scoring: misere -------------------------------------------------------------------------
def test_misere_success_and_double_without_fairy() -> None:
    low = "5c 6c 7c 5d 6d 7d 5s 6s 7s 5w"
    s = start(4, {0: low}, "Kc Kd Ks Kw")
    act(s, "bid misere", "pass", "pass", "pass", *[f"discard {c}" for c in "Kc Kd Ks Kw".split()])
    finish(s, set())
    assert s.scores().totals == (250.0, 0.0, 0.0, 0.0)
    s = start(4, {0: low}, "Kc Kd Ks Kw")
    act(s, "bid hand-misere double", "pass", "pass", "pass")
    finish(s, set())
    assert s.results[0]["tricks"][0] == 0
    assert s.scores().totals == (-700.0, 0.0, 0.0, 0.0)  # no F in the playing hand


def test_misere_failure_pays_defenders() -> None:
    s = start(4, {0: "Kc Qc Cc Kd Qd Cd Ks Qs Cs Kw"}, "5c 5d 5s 5w")
    act(s, "bid misere", "pass", "pass", "pass", *[f"discard {c}" for c in "5c 5d 5s 5w".split()])
    finish(s, {0})
    taken = s.results[0]["tricks"][0]
    assert taken > 0
    assert s.scores().totals == (-250.0, 10.0 * taken, 10.0 * taken, 10.0 * taken)


def test_misere_fairy_bonus_end_to_end() -> None:
    hand = "Fs 5d 6d 7d 5s 6s 7s 5w 6w 7w"
    for bid, expected in (("bid hand-misere", 700.0), ("bid hand-misere double", 1050.0)):
        s = start(4, {0: hand, 1: "Fc 5c 6c 7c 8c 9c 10c Jc Cc Qc"})
        act(s, bid, "pass", "pass", "pass", "play Fc")
        act(s, s.legal_actions()[0].text)
        act(s, s.legal_actions()[0].text)
        act(s, "play Fs")
        assert s.h.tricks[0]["winner"] == 1
        finish(s, set())
        assert s.scores().totals[0] == expected  # 350 x 2 / 700 x 1.5


def test_misere_bonus_table() -> None:
    assert misere_bonus([], "") == 1
    assert misere_bonus(["Fc"], "") == 10
    assert misere_bonus(["Fc"], "double") == 7.5
    assert misere_bonus(["Fc"], "crazy") == 2
    assert misere_bonus(["Fd"], "") == 2 and misere_bonus(["Fw"], "double") == 1.5
    assert misere_bonus(["Fs", "Fc"], "crazy") == 4  # strongest first, second F x2
    assert misere_bonus(["Fs", "Fd", "Fw"], "") == 4  # a third F adds nothing
    assert misere_bonus(["Fs", "Fd", "Fw", "Fc"], "double") == 15
    pts, d = misere_scores([0, 3, 4, 3], 0, value=1500, declaration="crazy",
                           play_hand_fairies=["Fc", "Fd"])  # fmt: skip
    assert pts == [6000, 0, 0, 0] and d["made"]
    pts, _ = misere_scores([0, 3, 4, 3], 0, value=1500, declaration="crazy",
                           play_hand_fairies=["Fd"])  # fmt: skip
    assert pts == [-1500, 0, 0, 0]
    pts, _ = misere_scores([2, 3, 2, 3], 0, value=500, declaration="double",
                           play_hand_fairies=["Fd"])  # fmt: skip
    assert pts == [-500, 20, 20, 20]


def test_discarded_fairy_gives_no_bonus() -> None:
    low = "5c 6c 7c 5d 6d 7d 5s 6s 7s 5w"
    s = start(4, {0: low}, "Fc Fd Ks Kw")
    act(s, "bid misere crazy", "pass", "pass", "pass")
    act(s, *[f"discard {c}" for c in "Fc Fd Ks Kw".split()])
    finish(s, set())
    assert s.results[0]["tricks"][0] == 0
    assert s.scores().totals[0] == -2500.0  # crazy without the cups F in the playing hand


# -- everyone passes ---------------------------------------------------------------------
def test_ramsch_one_player_takes_everything() -> None:
    s = start(4, {0: "Fc Fd Fw Fs Kc Kd Ks Kw Qc Qd"})
    act(s, "pass", "pass", "pass", "pass")
    assert s.h.kind == "ramsch" and s.current_player == 0  # left of the dealer (3)
    assert s.view(0)["kitty"] is None and s.view(0)["kitty_size"] == 4
    finish(s, {0})
    assert s.results[0]["tricks"] == [10, 0, 0, 0]
    assert s.scores().totals == (-300.0, 100.0, 100.0, 100.0)  # 4 F tricks are free


def test_ramsch_fairy_trick_is_free_and_multipliers() -> None:
    s = start(4, {0: "Fc Fd Fw Kc Kd Ks Kw Qc Qd Qw", 1: "Fs 5c 6c 7c 8c 9c 10c 5d 6d 7d"})
    act(s, "pass", "pass", "pass", "pass")
    finish(s, {0})
    won = s.results[0]["tricks"]
    assert won[1] == 1 and won[0] == 9 and s.results[0]["detail"]["successful"] == [2, 3]
    assert s.scores().totals == (-300.0, 0.0, 150.0, 150.0)
    pts, d = ramsch_scores([["Fc"], ["Fd", "Fs"], [], [], [], []], [0, 0, 3, 2, 3, 2],
                           [0, 0, 3, 2, 3, 2])  # fmt: skip
    assert pts == [1500, 600, -150, -100, -150, -100] and d["amount"] == 150
    pts, d = ramsch_scores([[]] * 8, [0, 0, 0, 0, 0, 0, 4, 6], [0, 0, 0, 0, 0, 0, 4, 6])
    assert d["amount"] == 50 and pts[0] == 50
    amounts = [ramsch_scores([[]] * 8, [0] * k + [1] * (8 - k), [0] * k + [1] * (8 - k))[1]
               ["amount"] for k in range(1, 7)]  # fmt: skip
    assert amounts == [300, 150, 100, 80, 60, 50]


def test_all_pass_ten_per_trick() -> None:
    s = start(4, {0: "Fc Fd Fw Fs Kc Kd Ks Kw Qc Qd"}, all_pass="ten_per_trick")
    act(s, "pass", "pass", "pass", "pass")
    assert s.h.kind == "ten_per_trick" and s.h.mode == "nt" and s.current_player == 0
    finish(s, {0})
    assert s.scores().totals == (100.0, 0.0, 0.0, 0.0)


def test_all_pass_redeal() -> None:
    s = start(4, {}, all_pass="redeal")
    act(s, "pass", "pass", "pass", "pass")
    assert len(s.deals) == 2 and s.h.dealer == 0 and s.current_player == 1
    assert s.results[0]["kind"] == "redeal" and s.scores().totals == (0.0,) * 4
    assert not s.is_terminal


def test_classical_all_pass_redeals_unless_all_pass_is_given() -> None:
    """RULINGS §3: the クラシカルオプション bundles "全員パスの場合は配り直し"."""
    assert xtarot.load("fairy500", players=4, classical=True).options["all_pass"] == "redeal"
    s = start(4, {}, classical=True)
    act(s, "pass", "pass", "pass", "pass")
    assert len(s.deals) == 2 and s.results[0]["kind"] == "redeal"
    s = start(4, {}, classical=True, all_pass="ramsch")
    act(s, "pass", "pass", "pass", "pass")
    assert len(s.deals) == 1 and s.h.phase == "play"
    assert xtarot.replay(s.record()).game.options["all_pass"] == "ramsch"


# -- the match ------------------------------------------------------------------------------
def test_match_continues_below_500_with_the_next_dealer() -> None:
    s = cups_contract("bid 6c", "9c")
    finish(s, {0, 2})
    assert not s.is_terminal and s.h.dealer == 0 and s.current_player == 1
    assert s.h.phase == "auction" and s.view(1)["last_result"]["points"] == [100, 0, 50, 0]
    assert s.view(1)["hand_number"] == 2
    s = cups_contract("bid 6c", "9c", hands=1)
    finish(s, {0, 2})
    assert s.is_terminal and s.scores().final and s.scores().winners == [0]
    with pytest.raises(ConfigError, match="1 or more"):
        xtarot.load("fairy500", players=4, hands=0)


def test_hands_option_counts_played_hands_not_redeals() -> None:
    g = xtarot.load("fairy500", players=3, hands=2, all_pass="redeal")
    s = g.new_state(deal=deal_for(3, {}), seed=4)
    act(s, "pass", "pass", "pass")  # a redeal
    assert not s.is_terminal and len(s.deals) == 2
    act(s, "bid 6s", "pass", "pass")
    act(s, *[a.text for a in s.legal_actions()[:4]])
    assert s.h.phase == "play"
    finish(s, set())
    assert not s.is_terminal or any(abs(t) >= 500 for t in s.scores().totals)
    if not s.is_terminal:
        act(s, "bid 6s", "pass", "pass")
        act(s, *[a.text for a in s.legal_actions()[:4]])
        finish(s, set())
        assert s.is_terminal and len(s.results) == 3


def test_full_random_matches_end_at_500_and_replay() -> None:
    rng = random.Random(5)
    for n in (3, 8):
        g = xtarot.load("fairy500", players=n)
        for seed in range(20):
            s = g.new_state(seed=seed)
            while not s.is_terminal:
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
            assert any(abs(t) >= 500 for t in s.scores().totals)
            again = xtarot.replay(s.record())
            assert again.snapshot() == s.snapshot()


@pytest.mark.parametrize(
    ("players", "options"), [(3, {}), (4, {"classical": True}), (5, {"all_pass": "redeal"})]
)
def test_a_clone_keeps_its_position_while_the_original_plays_on(
    players: int, options: dict[str, Any]
) -> None:
    """A hand empties its one ``Trick`` for the next lead and is copied slot by slot: a
    clone made at any decision is not moved by the original's later moves, and the same
    moves take it to the same end."""
    s = xtarot.load("fairy500", players=players, hands=2, **options).new_state(seed=players)
    rng = random.Random(players)
    clones = []
    while not s.is_terminal:
        snapshot = json.loads(json.dumps(s.snapshot()))  # (it shares the state's lists)
        clones.append((s.clone(), snapshot, s.view(len(clones) % players)))
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert len(clones) > 10 * players  # a whole hand at least: ten tricks and more
    for k, (twin, snapshot, view) in enumerate(clones):
        assert twin.snapshot() == snapshot
        assert twin.view(k % players) == view
    for twin, _, _ in clones[::9]:
        for action in s.history[len(twin.history) :]:
            twin.apply(action.text)
        assert twin.snapshot() == s.snapshot() and twin.scores() == s.scores()


# -- hidden information ---------------------------------------------------------------------
def test_partner_is_secret_until_the_called_card_is_played() -> None:
    s = cups_contract("bid 6c", "9c")
    assert s.view(2)["is_partner"] and s.view(2)["partners"] == [2]
    assert s.view(1)["partners"] == [] and not s.view(1)["is_partner"]
    assert s.view(0)["partners"] == []
    while "9c" not in [c.code for c in s.h.played[2]]:
        assert s.view(3)["partners"] == []
        finish_one(s, {0, 2})
    assert s.view(3)["partners"] == [2] and s.public_view()["partners"] == [2]


def finish_one(state, strong: set[int]) -> None:
    seat = state.current_player
    legal = [a.text for a in state.legal_actions()]
    ranked = sorted(legal, key=lambda t: (strength(state, t.split()[1]), card(t.split()[1])))
    state.apply(ranked[-1] if seat in strong else ranked[0])


def test_sampled_worlds_respect_public_knowledge() -> None:
    s = start(4, {1: "Ks 5c 6c 7c 8c 9c 10c Cc Qc Kc", 2: "Fc Fd 5d 6d 7d 8d 9d 10d 5w 6w"})
    act(s, "bid open-misere", "pass", "pass", "pass", *[f"discard {c}" for c in s.h.kitty])
    act(s, "play Ks", "play Fc")  # seat 2 shows it has no swords
    rng = random.Random(2)
    shown = s.public_view()["open_hand"]
    differs = 0
    for _ in range(30):
        w = s.sample_world(1, rng)
        assert not [c for c in w.h.hands[2] if c.suit == "s"]
        assert w.public_view()["open_hand"] == shown
        assert w.view(1) == s.view(1)
        differs += w.h.hands[3] != s.h.hands[3]
        assert sorted(w.h.discards, key=lambda c: c.index) != [] and len(w.h.discards) == 4
    assert differs > 10
    # the declarer keeps its kitty and discards in every world
    for _ in range(5):
        w = s.sample_world(0, rng)
        assert w.h.discards == s.h.discards and w.h.kitty == s.h.kitty


def test_sampled_worlds_keep_the_played_called_card_and_the_partners_knowledge() -> None:
    s = cups_contract("bid 6c", "9c")
    rng = random.Random(3)
    for _ in range(10):
        w = s.sample_world(2, rng)  # the partner: it holds the called card in every world
        assert card("9c") in w.h.hands[2] and w.view(2)["is_partner"]
        w = s.sample_world(1, rng)  # a defender: the called card may be anywhere hidden
        assert card("9c") not in w.h.hands[1]
    while "9c" not in [c.code for c in s.h.played[2]]:
        finish_one(s, {0, 2})
    for _ in range(10):
        w = s.sample_world(3, rng)
        assert card("9c") in w.h.played[2] and w.view(3)["partners"] == [2]


def test_discards_look_alike_to_the_others() -> None:
    s = start(4, {0: TOP_CUPS_4}, JUNK_KITTY_4)
    act(s, "bid 6c", "pass", "pass", "pass", "call 9c")
    a = s.legal_actions()[0]
    assert s.action_seen_by(a, 0) == a.text
    assert s.action_seen_by(a, 1) == "discard ?" and s.action_seen_by(a, None) == "discard ?"
    act(s, *[f"discard {c}" for c in JUNK_KITTY_4.split()])
    b = s.legal_actions()[0]
    assert s.action_seen_by(b, 3) == b.text  # plays are face up


def test_the_engine_deal_is_the_uniform_constrained_deal() -> None:
    from collections import Counter

    from xtarot.engine import deal_uniform

    items = [card(c) for c in "Kc Qc Jc Kd Qd Jd Ks Qs".split()]

    def allowed(c):  # seat 1 is void in cups, seat 2 in coins
        return (
            {0, 3}
            if c.suit == "c" and c.rank == "K"
            else {0, 2, 3}
            if c.suit == "c"
            else ({0, 1, 3} if c.suit == "d" else {0, 1, 2, 3})
        )

    rng = random.Random(7)
    seen = Counter(
        tuple(frozenset(h) for h in deal_uniform(items, [2, 2, 2, 2], allowed, rng))
        for _ in range(6000)
    )
    from xtarot.engine import count_deals

    assert len(seen) == count_deals(items, [2, 2, 2, 2], allowed)  # every deal occurs
    expected = 6000 / len(seen)
    chi2 = sum((o - expected) ** 2 / expected for o in seen.values())
    assert chi2 < len(seen) + 6 * (2 * len(seen)) ** 0.5  # far inside a uniform draw's range
    for deal in seen:
        for s, hand in enumerate(deal):
            assert all(s in allowed(c) for c in hand)


def test_quick_standing_agrees_with_the_scores() -> None:
    """``_standing`` (what a search reads after each play-out) is ``scores()``'s totals
    and ranks, hand by hand and at the end."""
    for players in (3, 4, 6):
        game = xtarot.load("fairy500", players=players)
        for seed in range(3):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                scores = state.scores()
                assert state._standing() == (scores.totals, scores.ranks)
