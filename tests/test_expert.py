"""The expert bot and the difficulty levels: legality, determinism, never peeking,
budgets, candidate moves, and how each level departs from the heuristic."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import xtarot
from xtarot.agents import (
    AGENTS,
    EasyAgent,
    ExpertAgent,
    HardAgent,
    HeuristicAgent,
    NormalAgent,
    decision_for,
    make_agent,
    play_match,
)
from xtarot.agents.endgame import extendori_move_classes
from xtarot.agents.expert import (
    CONTRACTS,
    ESTIMATES,
    STOPS,
    _fairy500_bids,
    heuristic_playout,
)
from xtarot.agents.heuristic import STRATEGIES
from xtarot.agents.ismcts import _utilities
from xtarot.agents.levels import LEVELS, level_of


def real_decision(game_id: str, players: int, seed: int, steps: int, **options: object):
    """A state after ``steps`` random moves, advanced to a move with a choice."""
    state = xtarot.load(game_id, players=players, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def test_registered_names() -> None:
    for name in ("expert", "easy", "normal", "hard"):
        assert name in AGENTS
    assert list(LEVELS) == ["easy", "normal", "hard"]
    assert level_of("normal") == "normal" and level_of("expert") is None
    assert make_agent("expert", 1, iterations=5).iterations == 5
    assert make_agent("hard", 1).seconds == 0.8


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"iterations": 0}, "iterations must be a positive number"),
        ({"iterations": 2.5}, "iterations must be a whole number"),
        ({"seconds": -1.0}, "seconds must be a positive number"),
        ({"max_candidates": 1}, "max_candidates must be a whole number >= 2"),
        ({"depth": -3}, "depth is a whole number of moves"),
        ({"endgame": "yes"}, "endgame must be true or false"),
        ({"estimate": 1}, "estimate must be true or false"),
        ({"margin": -0.5}, "margin is a weight from 0 to 10"),
        ({"margin": "big"}, "margin is a weight from 0 to 10"),
        ({"points": 0.5}, "points is a number of points, 1 or more"),
        ({"points": True}, "points is a number of points, 1 or more"),
        ({"min_make": 1.5}, "min_make is a share from 0 to 1"),
        ({"min_make": "high"}, "min_make is a share from 0 to 1"),
        ({"min_declared": -1}, "min_declared is a whole number, 0 or more"),
        ({"min_declared": 2.5}, "min_declared is a whole number, 0 or more"),
    ],
)
def test_bad_settings_say_what_is_allowed(settings: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ExpertAgent(1, **settings)
    with pytest.raises(ValueError, match="slip is a share of moves between 0 and 1"):
        EasyAgent(1, slip=1.5)


def test_same_seed_and_budget_give_the_same_match() -> None:
    game = xtarot.load("sono-arcana", players=3)

    def run() -> list[str]:
        bots = [ExpertAgent(7, iterations=12), HeuristicAgent(1), HeuristicAgent(2)]
        return [a.text for a in play_match(game, bots, seed=5).history]

    assert run() == run()


def test_expert_never_peeks_at_hidden_cards() -> None:
    """Two positions the seat cannot tell apart get the same move and the same numbers."""
    state = real_decision("sono-arcana", 4, seed=4, steps=9)
    seat = state.current_player
    assert seat is not None
    world = state.sample_world(seat, random.Random(11))
    assert world.view(seat) == state.view(seat)
    assert world.deals != state.deals
    a, b = ExpertAgent(5, iterations=60), ExpertAgent(5, iterations=60)
    assert a.act(decision_for(state)).text == b.act(decision_for(world)).text
    assert a.explain() == b.explain()


def test_budget_and_explanation() -> None:
    state = real_decision("extendori", 4, seed=3, steps=6, hands=1)
    bot = ExpertAgent(2, iterations=90)
    action = bot.act(decision_for(state))
    assert action in state.legal_actions()
    why = bot.explain()
    assert why is not None and why.agent == "expert" and why.chosen == action.text
    assert "play-outs" in why.en and "展開" in why.ja
    assert bot.last_iterations <= 90
    assert sum(m.visits for m in why.moves) == bot.last_iterations
    # every candidate met the same sampled deals in the first round at least
    assert min(m.visits for m in why.moves) >= 1


def test_a_doubting_expert_keeps_the_heuristics_move() -> None:
    """With an impossible confidence bar the expert plays exactly like the heuristic."""
    for seed in range(3):
        state = real_decision("sono-arcana", 3, seed=seed, steps=7)
        heuristic = STRATEGIES["sono-arcana"](0).act(decision_for(state)).text
        bot = ExpertAgent(seed, iterations=40, confidence=1e9)
        assert bot.act(decision_for(state)).text == heuristic


def test_expert_leaves_the_heuristic_when_the_play_outs_say_so() -> None:
    """Over a few decisions and a real budget the expert does depart from the heuristic,
    and only for a move that scored better in the same sampled deals."""
    departed = 0
    for seed in range(6):
        state = real_decision("fairy500", 4, seed=seed, steps=0, hands=1)
        bot = ExpertAgent(seed, iterations=150)
        heuristic = STRATEGIES["fairy500"](0).act(decision_for(state)).text
        chosen = bot.act(decision_for(state)).text
        if chosen != heuristic:
            departed += 1
            means = {m.text: m.mean for m in bot.explain().moves}
            assert means[chosen] > means[heuristic]
    assert departed >= 1


def test_fairy500_auction_candidates_stay_near_the_hand() -> None:
    state = real_decision("fairy500", 4, seed=2, steps=0, hands=1)
    decision = decision_for(state)
    legal = {a.text: a for a in decision.legal}
    chosen = STRATEGIES["fairy500"](0).act(decision).text
    names = _fairy500_bids(decision, legal, chosen)
    assert names[:2] == ["pass", chosen] or names[0] == "pass" == chosen
    assert all(n in legal for n in names)
    assert not any("crazy" in n or "double" in n for n in names)
    assert len(names) < len(legal) / 2


def test_fairy500_contract_reader_says_who_declared_and_whether_it_was_made() -> None:
    """Read from a finished play-out: the seat's own contract, made or failed (trick
    contracts and misère alike); ``None`` for the other seats and outside the auction."""
    game = xtarot.load("fairy500", players=4, hands=2)
    seen: set[tuple[str, bool]] = set()
    for seed in range(12):
        state = game.new_state(seed=seed)
        bots = [HeuristicAgent(s) for s in range(4)]
        for hand in (0, 1):  # the second hand reads past the first one's result
            while state.peek_view(0)["phase"] != "auction" and not state.is_terminal:
                state.apply(bots[state.current_player].act(decision_for(state)))
            if state.is_terminal:
                break
            reader = CONTRACTS["fairy500"](state.view(0))
            assert reader is not None
            while len(state.results) == hand:  # the hand is over when its result is in
                assert state.current_player is not None
                state.apply(bots[state.current_player].act(decision_for(state)))
            result = state.results[hand]
            for seat in range(4):
                got = reader(state, seat)
                if seat == result["declarer"] and result["kind"] in ("contract", "misere"):
                    assert got is result["detail"]["made"]
                    seen.add((result["kind"], bool(got)))
                else:
                    assert got is None
            if not state.is_terminal:  # the next hand's first move is in its auction
                assert CONTRACTS["fairy500"](state.view(0)) is not None
    assert {("contract", True), ("contract", False), ("misere", True)} <= seen
    playing = real_decision("fairy500", 4, seed=3, steps=0, hands=1)
    while playing.peek_view(0)["phase"] == "auction":
        playing.apply(HeuristicAgent(0).act(decision_for(playing)))
    assert CONTRACTS["fairy500"](playing.view(0)) is None


def test_expert_refuses_a_bid_with_a_high_mean_but_a_low_make_rate() -> None:
    """The paired rule alone leaves the heuristic's move for the better mean; with the
    make-rate rule a bid whose contract failed too often in the worlds where it made
    the seat declarer is refused, and a bid it does take was made often enough."""
    refused = taken = 0
    for seed in range(8):
        state = real_decision("fairy500", 4, seed=seed, steps=0, hands=1)
        heuristic = STRATEGIES["fairy500"](0).act(decision_for(state)).text
        loose = ExpertAgent(seed, iterations=100, min_make=0)
        strict = ExpertAgent(seed, iterations=100, min_make=0.9, min_declared=8)
        bold = loose.act(decision_for(state)).text
        careful = strict.act(decision_for(state)).text
        assert loose.last_contracts == {}  # the rule off: nothing counted
        if careful != heuristic:
            taken += 1
            declared, made = strict.last_contracts.get(careful, (0, 0))
            assert declared == 0 or (declared >= 8 and made >= 0.9 * declared)
        if bold != heuristic and careful == heuristic:
            why = strict.explain()
            assert why is not None and "not made often enough" in why.en
            assert "成功率" in why.ja
            for text, (declared, made) in strict.last_contracts.items():
                if text in why.en.split("not made often enough")[1]:
                    assert declared < 8 or made < 0.9 * declared
            refused += 1
    assert refused >= 1


def test_fairy500_play_outs_value_the_contracts_points() -> None:
    """A fairy500 hand's value counts its points, not just who leads: a made 8-trick
    contract is clearly worth more than a made 6 and a failed 8 clearly less than a
    failed 6; the old weight (0.1 against the largest total) barely told the made ones
    apart and even put the failed 8 above the failed 6."""
    bot = ExpertAgent(1, iterations=10)
    assert bot._prepare("fairy500")

    def value(totals: list[float], margin: float, points: float) -> float:
        ranks = tuple(1 + sum(t > x for t in totals) for x in totals)
        return _utilities(totals, ranks, margin, points)[0]

    hands = {
        "made 8s": [220, 110, 10, 0],
        "made 6s": [40, 20, 30, 10],
        "failed 6s": [-40, -20, 40, 30],
        "failed 8s": [-220, -110, 30, 40],
    }
    now = {k: value(t, bot._margin, bot._points) for k, t in hands.items()}
    old = {k: value(t, 0.1, 1.0) for k, t in hands.items()}
    assert now["made 8s"] - now["made 6s"] > 0.2 > 0.02 > old["made 8s"] - old["made 6s"]
    assert now["failed 6s"] - now["failed 8s"] > 0.35
    assert old["failed 8s"] > old["failed 6s"]  # against the largest total: the bigger fall


def test_make_rate_rule_picks_the_best_allowed_candidate() -> None:
    """``_choose`` with hand-made statistics: the best mean edge is refused, the next
    best (beyond the noise too) is taken; with both refused the heuristic's move stays."""
    state = real_decision("fairy500", 4, seed=4, steps=0, hands=1)
    legal = {a.text: a for a in state.legal_actions()}
    moves = [legal["pass"], legal["bid 7c"], legal["bid 6c"]]
    bot = ExpertAgent(1, iterations=30)
    n = 20
    # pass: 0 every world; 7c: +0.8 (varying a little), 6c: +0.5 (varying a little)
    sums = [0.0, 0.8 * n, 0.5 * n]
    dsum = [0.0, 0.8 * n, 0.5 * n]
    dsq = [0.0, n * 0.8**2 + 0.1, n * 0.5**2 + 0.1]
    worlds = [n, n, n]
    args = (moves, [0, 1, 2], sums, dsum, dsq, worlds, 3 * n, None)
    assert bot._choose(*args).text == "bid 7c"
    assert bot._choose(*args, {1}).text == "bid 6c"
    assert bot._choose(*args, {1, 2}).text == "pass"


def test_heuristic_play_out_finishes_the_hand_and_depth_hands_over_to_random() -> None:
    game = xtarot.load("matto", players=3)
    players = [STRATEGIES["matto"](s) for s in range(3)]
    full = game.new_state(seed=3)
    heuristic_playout(full, players)
    assert full.is_terminal
    short = game.new_state(seed=3)
    heuristic_playout(short, players, depth=0, rng=random.Random(1))
    assert short.is_terminal
    assert [a.text for a in short.history] != [a.text for a in full.history]


def test_expert_without_a_heuristic_searches_instead() -> None:
    state = real_decision("sono-arcana", 3, seed=1, steps=3)
    decision = decision_for(state)
    view = {**decision.view, "game": "no-such-game"}
    bot = ExpertAgent(1, iterations=20)
    action = bot.act(type(decision)(decision.seat, view, decision.legal, decision.sample_world))
    assert action in state.legal_actions()
    assert "no heuristic for no-such-game" in bot.explain().en
    for level in (EasyAgent(1), NormalAgent(1)):
        fake = type(decision)(decision.seat, view, decision.legal, decision.sample_world)
        assert level.act(fake) in state.legal_actions()


def test_easy_slips_only_to_moves_of_the_same_kind_and_never_in_the_auction() -> None:
    game = xtarot.load("fairy500", players=4, hands=1)
    state = game.new_state(seed=6)
    easy, heuristic = EasyAgent(3, slip=1.0), STRATEGIES["fairy500"](0)
    slips = 0
    while not state.is_terminal:
        decision = decision_for(state)
        mine = easy.act(decision)
        theirs = heuristic.act(decision)
        if state.view(decision.seat)["phase"] in ("auction", "call", "discard"):
            assert mine.text == theirs.text
        elif mine.text != theirs.text:
            slips += 1
            assert mine.text.split()[0] == theirs.text.split()[0]
            assert "easy bot plays loosely" in easy.explain().en
        assert "easy" in easy.explain().en and "初級" in easy.explain().ja
        state.apply(mine)
    assert slips > 0


def test_levels_order_of_strength_holds_in_their_moves() -> None:
    """normal moves exactly as the heuristic; easy (slip 0) too; hard is the expert."""
    state = real_decision("grail-mahjong", 3, seed=2, steps=4, hands=1)
    decision = decision_for(state)
    heuristic = HeuristicAgent(0).act(decision).text
    assert NormalAgent(5).act(decision).text == heuristic
    assert EasyAgent(5, slip=0.0).act(decision).text == heuristic
    hard = HardAgent(5, iterations=30)
    hard.act(decision)
    assert hard.explain().agent == "hard" and "expert" in hard.explain().en
    assert "上級" in hard.explain().ja


def test_benchmark_script_quick_json() -> None:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root / "src"), env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "bench_expert.py"), "--quick", "--json",
         "--games", "1", "--only", "sono-arcana", "--players", "3"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["budget"] == {"iterations": 8}
    (row,) = out["rows"]
    assert row["players"] == 3 and row["matches"] == 6  # one deal, six seatings
    assert row["x_fair_ci95"][0] <= row["x_fair"] <= row["x_fair_ci95"][1]
    # one deal: no spread between deals to measure, so its per-deal interval is unbounded
    assert row["x_fair_deal_ci95"][0] == 0.0 and row["x_fair_deal_ci95"][1] == float("inf")
    (deal,) = row["per_deal"]
    assert len(deal["matches"]) == 6 and {m["seat"] for m in deal["matches"]} == {0, 1, 2}
    wins = sum(m["win"] for m in deal["matches"])
    assert abs(wins / 6 * 3 - row["x_fair"]) < 1e-9
    # the paired score edge: here (every deal seen in every seating) the gap of the means
    assert abs(row["score_edge"] - (row["mean_score"] - row["heuristic_mean_score"])) < 1e-9
    assert row["score_edge_ci95"][0] <= row["score_edge"] <= row["score_edge_ci95"][1]
    duel = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "bench_expert.py"), "--endgame-duel", "2",
         "--games", "1", "--iterations", "4", "--json"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert duel.returncode == 0, duel.stderr
    out = json.loads(duel.stdout)
    assert out["trials"] == 4 and set(out["rows"]) == {"heuristic", "playouts", "solver"}
    assert out["rows"]["heuristic"]["edge"] == 0.0


def test_extendori_play_outs_stop_at_the_end_of_the_batch_and_are_valued_by_the_lead() -> None:
    """In the first batch a play-out stops once the next batch is dealt (the estimate
    then values the lead); in the last batch it plays to the end of the hand."""
    state = real_decision("extendori", 4, seed=2, steps=5, hands=1)
    stop = STOPS["extendori"](state)
    assert stop is not None
    players = [STRATEGIES["extendori"](s) for s in range(4)]
    world = state.clone()
    heuristic_playout(world, players, stop=stop)
    assert not world.is_terminal and world.batch == state.batch + 1
    assert all(len(h) == 14 for h in world.hands)  # the second batch, just dealt
    value = ESTIMATES["extendori"](world, 0)
    totals = world.scores().totals
    leader = max(range(4), key=lambda s: totals[s])
    trailer = min(range(4), key=lambda s: totals[s])
    assert 0.0 < ESTIMATES["extendori"](world, trailer) < value or trailer == 0
    assert ESTIMATES["extendori"](world, leader) > ESTIMATES["extendori"](world, trailer)
    assert STOPS["extendori"](world) is None  # the last batch: no early stop
    heuristic_playout(world, players, stop=STOPS["extendori"](world))
    assert world.is_terminal


def test_extendori_interchangeable_cards_are_simulated_once() -> None:
    """T13 and T14 with no unseen major between them are one move; 3c and 10c are two
    while unseen cups lie between; a point card is never merged with a plain one."""
    view = {
        "deck": 112,
        "hand": ["T13", "T14", "T16", "3c", "4c", "10c", "Rc"],
        "tricks": [],
        "trick": {"cards": []},
    }
    moves = [f"play {c}" for c in view["hand"]]
    classes = extendori_move_classes(view, moves)
    assert classes[1] == classes[0] == 0  # T13 ~ T14
    assert classes[2] == 2  # T15 is unseen: T16 stands apart
    assert classes[4] == classes[3] == 3  # 3c ~ 4c
    assert classes[5] == 5 and classes[6] == 6  # 5c-9c unseen; Rc has points
    played = [[1, f"{r}c"] for r in ("5", "6", "7", "8")] + [[2, "9c"], [3, "T15"]]
    view["tricks"] = [{"cards": played[:4]}, {"cards": played[4:]}]
    classes = extendori_move_classes(view, moves)
    assert classes[2] == 0 and classes[5] == 3 and classes[6] == 6
    # the expert keeps the heuristic's move as its class's representative
    state = real_decision("extendori", 4, seed=3, steps=6, hands=1)
    bot = ExpertAgent(2, iterations=40)
    bot.act(decision_for(state))
    texts = [m.text for m in bot.explain().moves]
    decision = decision_for(state)
    legal = [a.text for a in decision.legal]
    kinds = extendori_move_classes(decision.view, legal)
    assert len(texts) == len(set(kinds)) and len({kinds[legal.index(t)] for t in texts}) == len(
        texts
    )


@pytest.mark.parametrize(
    "game_id", ["arcana-duel", "extendori", "fairy500", "grail-mahjong", "matto", "sono-arcana"]
)
def test_builtin_heuristics_leave_a_peeked_view_as_it_was(game_id: str) -> None:
    """The play-outs hand the built-in heuristics ``peek_view`` (no copy): a heuristic
    that changed its view would change the state, so every decision of a few seeded
    matches is made on the peeked view and the view is compared before and after."""
    import json

    from xtarot.agents.base import Decision
    from xtarot.agents.expert import _no_sampler

    info = next(i for i in xtarot.games() if i.id == game_id)
    assert STRATEGIES[game_id](0).reads_view_only
    decisions = 0
    for n in info.players[:2]:
        game = xtarot.load(game_id, players=n, **dict(info.bulk_options))
        for seed in range(4):
            state = game.new_state(seed=seed)
            bots = [STRATEGIES[game_id](seed * 10 + s) for s in range(n)]
            while not state.is_terminal:
                seat = state.current_player
                legal = state.legal_actions()
                view = state.peek_view(seat)
                before = json.dumps(view, sort_keys=True)
                action = bots[seat].act(Decision(seat, view, legal, _no_sampler))
                assert json.dumps(state.peek_view(seat), sort_keys=True) == before
                state.apply(action)
                decisions += 1
    assert decisions > 40


def test_grail_mahjong_searches_the_heuristics_shortlist_and_values_points() -> None:
    from xtarot.agents.expert import _CANDIDATES

    state = real_decision("grail-mahjong", 3, seed=3, steps=12, hands=1)
    while state.phase != "turn" or len(state.legal_actions()) < 5:
        state.apply(state.legal_actions()[0])
    decision = decision_for(state)
    legal = {a.text: a for a in decision.legal}
    chosen = STRATEGIES["grail-mahjong"](0).act(decision).text
    names = _CANDIDATES["grail-mahjong"](decision, legal, chosen)
    assert names is not None and set(names) <= set(legal) and len(names) < len(legal)
    bot = ExpertAgent(1, iterations=40)
    bot.act(decision)
    why = bot.explain()
    assert why is not None and {m.text for m in why.moves} <= {*names, chosen}
    # the margin: weight 1 against at least 20 points here, the defaults elsewhere
    assert (bot._margin, bot._points) == (1.0, 20.0)
    other = ExpertAgent(1, iterations=5, points=5, margin=0.5)
    other._prepare("grail-mahjong")
    assert (other._margin, other._points) == (0.5, 5.0)
    plain = ExpertAgent(1, iterations=5)
    plain._prepare("matto")
    assert (plain._margin, plain._points) == (0.1, 1.0)


def test_benchmark_win_share_interval_counts_each_deal_once(
    bench_script: Callable[[str], Any],
) -> None:
    """Hand-built rows: three deals of two matches each. The per-deal interval is taken
    over the three deal means, so a deal whose two matches agree counts once, not twice."""
    bench = bench_script("bench_expert")

    def match(index: int, expert_seat: int, ranks: list[int]) -> dict[str, object]:
        agents = ["heuristic#1", "heuristic#2", "heuristic#3"]
        agents[expert_seat] = "expert"
        return {"seed": 1, "index": index, "agents": agents, "ranks": ranks,
                "scores": [float(r) for r in ranks]}  # fmt: skip

    rows = [
        match(0, 0, [1, 2, 3]), match(0, 1, [2, 1, 3]),  # deal 0: won twice
        match(1, 0, [1, 1, 3]), match(1, 2, [1, 2, 3]),  # deal 1: half a win, then none
        match(2, 1, [1, 2, 3]), match(2, 2, [3, 2, 1]),  # deal 2: none, then a win
    ]  # fmt: skip
    mean, half = bench.deal_win_share(rows)
    assert mean == (1.0 + 0.25 + 0.5) / 3
    shares = [1.0, 0.25, 0.5]
    sd = (sum((x - mean) ** 2 for x in shares) / 2) ** 0.5
    assert abs(half - 1.96 * sd / 3**0.5) < 1e-12
    deals = bench.per_deal(rows)
    assert [len(d["matches"]) for d in deals] == [2, 2, 2]
    assert [m["win"] for m in deals[1]["matches"]] == [0.5, 0.0]
    assert bench.deal_win_share(rows[:2]) == (1.0, float("inf"))


@pytest.mark.slow  # about 20 s: on demand (pytest -m slow)
def test_benchmark_out_directory_resumes_and_refuses_another_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bench_script: Callable[[str], Any]
) -> None:
    """``--out``: the matches are stored per row; a second run with the same arguments
    plays none and reports the same figures, one deal more plays only that deal, and
    another budget is refused with the store's reason (nothing written)."""
    import json

    pytest.importorskip("pyarrow")
    bench = bench_script("bench_expert")
    base = ["--only", "sono-arcana", "--players", "3", "--iterations", "4", "--json",
            "--progress", "--out", str(tmp_path)]  # fmt: skip

    def run(*more: str) -> tuple[dict[str, Any], str]:
        assert bench.main([*base, *more]) == 0
        out, err = capsys.readouterr()
        (row,) = json.loads(out)["rows"]
        return row, err

    first, err = run("--games", "1")
    assert first["matches"] == 6 and "6/6 matches" in err
    assert (tmp_path / "sono-arcana-3p" / "manifest.json").exists()
    again, err = run("--games", "1")
    assert "0/0 matches" in err  # nothing left to play
    assert again["per_deal"] == first["per_deal"] and again["x_fair"] == first["x_fair"]
    more, err = run("--games", "2")
    assert "6/6 matches" in err and more["matches"] == 12 and more["deals"] == 2
    assert more["per_deal"][0] == first["per_deal"][0]
    # the matches' own time covers both sittings, the wall time only the last
    assert more["match_seconds"] > first["match_seconds"] > 0
    with pytest.raises(SystemExit) as stop:
        bench.main([*base[:5], "9", *base[6:], "--games", "1"])
    assert stop.value.code == 2
    assert "--out:" in capsys.readouterr().err
    from xtarot.lab.store import read_rows

    stored = read_rows(tmp_path / "sono-arcana-3p")
    assert len(stored) == 12  # the refused run added none
    assert more["match_seconds"] == pytest.approx(float(stored["seconds"].sum()))


# -- the seconds budget is a deadline that is honoured (issue #37) ----------------------------
class _FakeClock:
    """A clock that moves on ``tick`` seconds every time it is read."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.tick
        return self.now


@pytest.mark.parametrize("game_id", sorted(STRATEGIES))
def test_a_hard_move_ends_at_its_deadline_by_the_bots_clock(game_id: str) -> None:
    """With a fake clock (no real time involved): every decision of every play-out
    reads the clock, so the move returns a few readings after its deadline."""
    for steps in (0, 9, 23):
        state = real_decision(game_id, 4 if game_id != "arcana-duel" else 2, 3, steps)
        decision = decision_for(state)
        bot = HardAgent(seed=1, seconds=0.05)
        clock = _FakeClock(0.001)
        bot.clock = clock  # type: ignore[method-assign]
        action = bot.act(decision)
        assert action in state.legal_actions()
        assert clock.reads > 1, "the budget must be read from the bot's clock"
        assert clock.now <= 0.05 + 0.004, (game_id, steps, clock.now)


def test_a_hard_move_is_within_budget_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every heuristic decision made 50 ms slow (a machine shared with other work): the
    move still returns within its budget plus about one decision, not after a whole
    play-out (a hand of 56 decisions here) as before.  The bound is generous."""
    import time

    real = STRATEGIES["extendori"]

    class Slow:
        name = "slow"
        reads_view_only = False

        def __init__(self, seed: int | None) -> None:
            self.inner = real(seed)

        def act(self, decision: Any) -> Any:
            time.sleep(0.05)
            return self.inner.act(decision)

        def explain(self) -> Any:
            return self.inner.explain()

    monkeypatch.setitem(STRATEGIES, "extendori", Slow)
    state = real_decision("extendori", 4, 2, 0, hands=1)
    decision = decision_for(state)
    bot = HardAgent(seed=2, seconds=0.3)
    started = time.perf_counter()
    action = bot.act(decision)
    elapsed = time.perf_counter() - started
    assert action in state.legal_actions()
    assert elapsed < 0.3 + 0.5, elapsed  # before: 2 s and more (a whole play-out)
