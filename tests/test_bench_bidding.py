"""The bidding benchmark's counting (benchmarks/bench_bidding.py), on hand-built
records and a few real heuristic hands: no bot search, well under a second."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import xtarot
from xtarot.agents import make_agent
from xtarot.agents.heuristic.fairy500 import contract_playouts

VALUES_7S = {"s": 7, "w": 5, "d": 4, "c": 6, "nt": 3, "misere": 0}


@pytest.fixture
def bench(bench_script: Callable[[str], Any]) -> Any:
    return bench_script("bench_bidding")


def _contract(bid: str, value: int, made: bool, values: dict[str, int], **extra: Any) -> dict:
    tricks = int(bid.split()[1].rstrip("swdcnt"))
    rec = {
        "seat": 0,
        "score": float(value if made else -value),
        "kind": "contract",
        "declarer": True,
        "bid": bid,
        "made": made,
        "passed_at": None,
        "hindsight": 0,
        "values": values,
        "value": value,
        "tricks_bid": tricks,
        "trump": bid.split()[1][len(str(tricks)) :],
        "called": ["Fc"],
        "partners": {"2": 1},
        "partner_tricks": 2,
        "held_by_declarer": 0,
    }
    rec.update(extra)
    return rec


def test_hindsight_value_is_the_best_contract_made(bench: Any) -> None:
    assert bench.hindsight_value(VALUES_7S, 4) == 140  # 7s; 6c is 100
    assert bench.hindsight_value({**VALUES_7S, "c": 7}, 4) == 200  # 7c
    assert bench.hindsight_value({**VALUES_7S, "nt": 11}, 4) == 520  # capped at 10nt
    assert bench.hindsight_value({"s": 3, "misere": 1}, 6) == 150  # misère's value at 6p
    assert bench.hindsight_value({"s": 5, "misere": 0}, 4) == 0


def test_fairy500_counting_on_hand_built_records(bench: Any) -> None:
    records = [
        # made 6s (40) although a 7s (140) was there: under-bid, gap 100
        _contract("bid 6s", 40, True, VALUES_7S, hindsight=140),
        # failed 8s: the play-out took 7, so it was over-bid by one
        _contract("bid 8s", 240, False, VALUES_7S, hindsight=140),
        # failed 6c although the play-out made 6: failed in play; no partner found
        _contract(
            "bid 6c",
            100,
            False,
            VALUES_7S,
            hindsight=140,
            partners={},
            partner_tricks=0,
            held_by_declarer=1,
        ),
        # made 7d beyond the play-out's 4 tricks
        _contract("bid 7d", 180, True, VALUES_7S, hindsight=140),
        # a pass at a standing 100 with a 140 hand: a makeable overcall passed
        {
            "seat": 1,
            "score": 20.0,
            "kind": "contract",
            "declarer": False,
            "bid": "",
            "made": True,
            "passed_at": 100,
            "hindsight": 140,
            "values": VALUES_7S,
        },
        # a pass at 140 with a 140 hand: nothing higher to make
        {
            "seat": 2,
            "score": 10.0,
            "kind": "contract",
            "declarer": False,
            "bid": "",
            "made": True,
            "passed_at": 140,
            "hindsight": 140,
            "values": VALUES_7S,
        },
    ]
    s = bench.summarise_fairy500(records)
    assert s["matches"] == 6
    assert s["declared"]["k"] == 4 and s["contracts"] == 4
    assert s["contracts_made"]["k"] == 2
    assert s["over_bid"]["k"] == 1
    assert s["failed_in_play"]["k"] == 1
    assert s["under_bid"]["k"] == 1
    assert s["under_gap"]["mean"] == 50.0  # (100 + 0) / 2 made contracts
    assert s["beat_playout"]["k"] == 1
    assert s["tricks_over"]["mean"] == pytest.approx((-1 + 1 + 0 + 3) / 4)
    assert s["passes"] == 2 and s["passed_makeable"]["k"] == 1
    assert s["calls"] == 4 and s["call_found_partner"]["k"] == 3
    assert s["made_with_partner"]["k"] == 2 and s["made_alone"]["n"] == 1
    assert s["declarer_score"]["mean"] == pytest.approx((40 - 240 - 100 + 180) / 4)


def test_grail_counting_on_hand_built_records(bench: Any) -> None:
    def choice(claimed: bool, executed: bool, mine: float, other: float) -> dict[str, Any]:
        return {"claimed": claimed, "executed": executed, "hindsight": mine, "alternative": other}

    records = [
        {
            "seat": 0,
            "score": 0.0,
            "win": 0.0,
            "choices": [
                choice(True, True, 0.0, 1.0),  # claimed, lost; the pass would have won
                choice(False, False, 0.0, 0.5),  # passed; a claim would have shared the win
            ],
        },
        {
            "seat": 1,
            "score": 9.0,
            "win": 1.0,
            "choices": [
                choice(True, True, 1.0, 0.0),  # claimed and won; the pass would not have
                choice(True, False, 0.0, 0.0),  # claimed, beaten by another claim
            ],
        },
    ]
    s = bench.summarise_grail(records)
    assert s["could_claim"] == 4
    assert s["claims"]["k"] == 3 and s["executed"]["k"] == 2
    assert s["executed_lost"]["k"] == 1
    assert s["claims_regretted"]["k"] == 1 and s["claims_vindicated"]["k"] == 1
    assert s["claim_edge"]["mean"] == pytest.approx(0.0)
    assert s["declines_regretted"]["k"] == 1 and s["declines_regretted"]["n"] == 1
    assert s["win_share"]["mean"] == 0.5


def test_fairy500_record_of_a_real_hand(bench: Any) -> None:
    """In heuristic self-play the declarer's actual side tricks are its own play-out's:
    the hindsight replays the same deal with the same (view-only) heuristic."""
    game = xtarot.load("fairy500", players=4, hands=1)
    found = 0
    for seed in range(1, 6):
        played = bench.play(game, [make_agent("heuristic", s) for s in range(4)], seed)
        hand = played.state.scores().detail["hands"][0]
        if hand["kind"] != "contract":
            continue
        seat = hand["declarer"]
        values = contract_playouts(game, played.state.deals[0], seat)
        rec = bench.fairy500_record(game, played.state, seat, values)
        assert rec["declarer"] and rec["bid"] == hand["bid"]
        assert rec["side_tricks"] == hand["detail"]["side_tricks"]
        assert rec["value"] == game.bid_values[game.action(hand["bid"]).id]
        assert values[rec["trump"]] == rec["side_tricks"]  # the play-out is the hand itself
        assert rec["made"] == (rec["side_tricks"] >= rec["tricks_bid"])
        if rec["made"]:
            assert rec["hindsight"] >= rec["value"]
        found += 1
        other = (seat + 1) % 4
        rec = bench.fairy500_record(game, played.state, other, values)
        assert not rec["declarer"] and rec["bid"] == ""
    assert found


def test_claim_rounds_are_recorded_with_their_hindsight(bench: Any) -> None:
    game = xtarot.load("grail-mahjong", players=3, hands=1)
    played = bench.play(game, [make_agent("heuristic", s) for s in range(3)], 3, watch=2)
    assert played.claims  # seat 2 could claim in this deal
    for choice in played.claims:
        assert choice.before.current_player == 2
        assert choice.chosen not in choice.alternatives
    rec = bench.grail_record(played, 2, 1)
    assert len(rec["choices"]) == len(played.claims)
    executed = [c for c in rec["choices"] if c["executed"]]
    assert all(c["claimed"] for c in executed)
    history = [a.text for a in played.state.history]
    assert sum(c.chosen in history for c in played.claims) == len(played.claims)


def test_quick_run_gives_json_rows(bench: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick", "--levels", "normal", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["game"], r["players"]) for r in out["rows"]] == [
        ("fairy500", 4),
        ("grail-mahjong", 3),
    ]
    fairy = out["rows"][0]["levels"]["normal"]
    assert fairy["matches"] == 4 and fairy["budget"] == "the heuristic"
    with pytest.raises(SystemExit):
        bench.main(["--levels", "wizard"])


def test_expert_settings_reach_the_expert_level(bench: Any) -> None:
    """``--expert-setting KEY=VALUE`` is read as a number where it is one and handed to
    the expert (only), and the row's budget names it."""
    assert bench.expert_settings(["a=8", "b=0.9", "c=false", "d=abc"]) == [
        ("a", 8),
        ("b", 0.9),
        ("c", False),
        ("d", "abc"),
    ]
    for bad in ("min_make", "=3", "a=1:b=2"):
        with pytest.raises(ValueError, match="KEY=VALUE"):
            bench.expert_settings([bad])
    budgets = bench.Budgets(expert_settings=(("min_make", 0.5), ("min_declared", 3)))
    bot = budgets.agent("expert", 1)
    assert (bot.min_make, bot.min_declared, bot.iterations) == (0.5, 3, 100)
    assert budgets.describe("expert") == "100 play-outs a move, min_make=0.5, min_declared=3"
    assert not hasattr(budgets.agent("normal", 1), "min_make")
    with pytest.raises(SystemExit):
        bench.main(["--quick", "--expert-setting", "min_make"])


def test_declarers_compared_on_the_same_hands(bench: Any) -> None:
    mine = {
        (0, 0): _contract("bid 7s", 140, True, VALUES_7S),  # both declared
        (0, 1): _contract("bid 6c", 100, False, VALUES_7S),  # only this level
        (1, 0): {"declarer": False, "kind": "contract", "score": 30.0},
    }
    base = {
        (0, 0): _contract("bid 6s", 40, True, VALUES_7S),
        (0, 1): {"declarer": False, "kind": "contract", "score": 20.0},
        (1, 0): _contract("bid 6d", 80, True, VALUES_7S),  # only normal
    }
    c = bench.compare_declarers(mine, base)
    assert c["both"] == 1 and c["both_score_edge"]["mean"] == 100.0
    assert c["both_value_edge"]["mean"] == 100.0
    assert c["only_this"] == 1 and c["only_this_made"]["k"] == 0
    assert c["only_this_score_normal"]["mean"] == 20.0
    assert c["only_normal"] == 1 and c["only_normal_score"]["mean"] == 80.0


def test_a_lot_model_is_measured_on_its_own_game(
    bench: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--value-model`` with the shipped sono-arcana lot model: the level normal+value
    on sono-arcana 4p only, with its paired edges over normal."""
    pytest.importorskip("numpy")
    from importlib import resources

    path = resources.files("xtarot.adapters").joinpath("models", "value-sono-arcana-4p.npz")
    args = ["--quick", "--games", "grail-mahjong,sono-arcana", "--levels", "normal"]
    assert bench.main([*args, "--value-model", str(path), "--json", "--quiet"]) == 0
    rows = {r["game"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert list(rows["grail-mahjong"]["levels"]) == ["normal"]
    sono = rows["sono-arcana"]["levels"]
    assert list(sono) == ["normal", "normal+value"] and rows["sono-arcana"]["players"] == 4
    assert "lot model, margin 0.02" in sono["normal+value"]["budget"]
    assert sono["normal+value"]["win_edge_over_normal"]["n"] == 1
    assert sono["normal"]["win_share"]["mean"] == 0.25  # the heuristic in every seat
