"""Bots: legality, explanations, never peeking, strength against random, tournaments."""

from __future__ import annotations

import copy
import random

import pytest

import xtarot
from xtarot.agents import (
    ISMCTSAgent,
    PIMCAgent,
    RandomAgent,
    decision_for,
    make_agent,
    play_match,
    utility,
)
from xtarot.engine import Scores
from xtarot.lab import run_tournament


def mid_game(seed: int = 4, steps: int = 9) -> xtarot.State:
    state = xtarot.load("sono-arcana", players=4).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    while len(state.legal_actions()) < 2:  # a real decision
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("name", ["random", "ismcts", "pimc"])
def test_bots_play_legal_moves_and_explain_them(name: str) -> None:
    settings = {"ismcts": {"iterations": 60}, "pimc": {"worlds": 3}}.get(name, {})
    bot = make_agent(name, 3, **settings)
    assert bot.explain() is None
    game = xtarot.load("sono-arcana", players=3)
    state = play_match(game, [bot, RandomAgent(1), RandomAgent(2)], seed=8)
    assert state.is_terminal
    why = bot.explain()
    assert why is not None and why.agent == name and why.en and why.ja
    assert why.text("ja") == why.ja


def test_search_bots_never_peek_at_hidden_cards() -> None:
    """Two positions the seat cannot tell apart get the same decision and numbers."""
    state = mid_game()
    seat = state.current_player
    assert seat is not None
    world = state.sample_world(seat, random.Random(11))
    assert world.view(seat) == state.view(seat)
    assert world.deals != state.deals  # other hands differ
    for make in (
        lambda: ISMCTSAgent(seed=5, iterations=120),
        lambda: PIMCAgent(seed=5, worlds=4),
    ):
        a, b = make(), make()
        assert a.act(decision_for(state)).text == b.act(decision_for(world)).text
        assert a.explain() == b.explain()


def test_ismcts_explanation_reports_visit_shares() -> None:
    state = mid_game()
    bot = ISMCTSAgent(seed=2, iterations=200)
    action = bot.act(decision_for(state))
    why = bot.explain()
    assert why is not None and why.chosen == action.text == why.moves[0].text
    assert abs(sum(m.share for m in why.moves) - 1) < 1e-9
    assert why.moves[0].visits == max(m.visits for m in why.moves)
    assert bot.last_iterations == 200


def test_ismcts_time_budget() -> None:
    state = mid_game()
    bot = ISMCTSAgent(seed=2, seconds=0.2)
    bot.act(decision_for(state))
    assert bot.last_iterations > 10


def test_ismcts_root_parallel_search_is_deterministic() -> None:
    """``workers=2``: two searches in processes, their root visits summed; the same
    seed gives the same move and numbers, and running the searches one after another
    (where processes cannot be forked) gives the same answer."""
    from xtarot.agents import ismcts

    state = mid_game()
    runs = []
    for _ in range(2):
        bot = ISMCTSAgent(seed=7, iterations=40, workers=2)
        runs.append((bot.act(decision_for(state)).text, bot.explain(), bot.last_iterations))
    assert runs[0] == runs[1]
    _, why, done = runs[0]
    assert done == 80 and why is not None
    assert sum(m.visits for m in why.moves) == 80  # every iteration starts at a root move
    real = ismcts.multiprocessing.get_all_start_methods
    try:
        ismcts.multiprocessing.get_all_start_methods = lambda: ["spawn"]  # type: ignore[assignment]
        bot = ISMCTSAgent(seed=7, iterations=40, workers=2)
        assert (bot.act(decision_for(state)).text, bot.explain(), bot.last_iterations) == runs[0]
    finally:
        ismcts.multiprocessing.get_all_start_methods = real  # type: ignore[assignment]
    single = ISMCTSAgent(seed=7, iterations=40)
    single.act(decision_for(state))
    assert single.last_iterations == 40
    with pytest.raises(ValueError, match="workers is a whole number of processes, 1 or more"):
        ISMCTSAgent(workers=0)


def test_ismcts_values_every_seat_as_utility_does() -> None:
    from xtarot.agents.ismcts import _utilities

    rng = random.Random(3)
    for _ in range(500):
        n = rng.randrange(2, 9)
        totals = tuple(float(rng.choice([-40, -1, 0, 0, 3, 7, 7, 120, 2.5])) for _ in range(n))
        ranks = tuple(1 + sum(1 for t in totals if t > x) for x in totals)
        scores = Scores(totals=totals, ranks=ranks, final=True)
        assert _utilities(totals, ranks) == [utility(scores, s) for s in range(n)]
    # another margin weight scales the bonus and the malus, not the win share
    assert _utilities((30.0, 20.0), (1, 2), margin=1.0) == [1.0 + 10 / 60, -10 / 60]
    assert _utilities((30.0, 20.0), (1, 2), margin=0.0) == [1.0, 0.0]
    # against the largest total a win by 3 and a win by 10 are worth the same; against
    # a floor of 20 points the larger win counts for more (a total above it still rules)
    assert _utilities((3.0, 0.0, 0.0), (1, 2, 2))[0] == _utilities((10.0, 0.0, 0.0), (1, 2, 2))[0]
    assert _utilities((3.0, 0.0, 0.0), (1, 2, 2), 1.0, points=20.0) == [
        1.0 + 3 / 40,
        -3 / 40,
        -3 / 40,
    ]
    assert _utilities((10.0, 0.0, 0.0), (1, 2, 2), 1.0, points=20.0)[0] == 1.0 + 10 / 40
    assert _utilities((30.0, 20.0), (1, 2), 1.0, points=20.0) == [1.0 + 10 / 60, -10 / 60]


#: sha256 of :func:`_search_digest`'s root statistics, made with the search as it was
#: before issue #40's speed-ups (tree, play-outs, worlds): they must not change them
ISMCTS_ROOT_DIGEST = "1e5f85b8d76bb73f33bf7891b6135729353ec06c178614b89aa31b72f039b42f"


def _search_digest() -> str:
    """Seeded searches at positions of every phase (the auction, a call, discards,
    tricks under way) of fairy500 and at other games' positions: each one's move, its
    root statistics (visits and mean value of every move, exactly) and where it left
    its generator, hashed."""
    import hashlib
    import json

    out = []
    for game_id, players, options in [
        ("fairy500", 4, {"hands": 1}),
        ("fairy500", 5, {"classical": True}),
        ("fairy500", 4, {"pairs": True, "hands": 2}),
        ("sono-arcana", 3, {}),
        ("matto", 4, {}),
    ]:
        game = xtarot.load(game_id, players=players, **options)
        for seed in (1, 2):
            state = game.new_state(seed=seed)
            walk = random.Random(seed)
            for step in range(75):
                if state.is_terminal:
                    break
                legal = state.legal_actions()
                if step % 6 == 0 and len(legal) > 1:
                    horizon = "match" if step % 12 else "hand"
                    bot = ISMCTSAgent(seed=seed * 100 + step, iterations=40, horizon=horizon)
                    move = bot.act(decision_for(state))
                    why = bot.explain()
                    assert why is not None
                    stats = [(m.text, m.visits, m.mean.hex()) for m in why.moves]
                    out.append([game_id, step, move.text, stats, bot.rng.getrandbits(32)])
                state.apply(legal[walk.randrange(len(legal))])
    return hashlib.sha256(json.dumps(out).encode()).hexdigest()


def test_ismcts_root_statistics_are_the_golden_ones() -> None:
    """The search's speed-ups (a lean play-out to the standing, leaner worlds and tree)
    draw the same random numbers and reach exactly the same root statistics."""
    assert _search_digest() == ISMCTS_ROOT_DIGEST


@pytest.mark.slow  # about 20 s: on demand (pytest -m slow); bench_bots.py measures strength
def test_ismcts_beats_random_players() -> None:
    game = xtarot.load("sono-arcana", players=4)
    share = 0.0
    games = 8
    for g in range(games):
        seat = g % 4
        bots = [RandomAgent(100 * g + s) for s in range(4)]
        bots[seat] = ISMCTSAgent(seed=g, iterations=150)
        final = play_match(game, bots, seed=500 + g).scores()
        if seat in final.winners:
            share += 1 / len(final.winners)
    assert share / games > 0.4  # fair share is 0.25


def test_utility_puts_winning_first() -> None:
    win = Scores(totals=(10.0, 2.0, 2.0), ranks=(1, 2, 2), final=True)
    shared = Scores(totals=(5.0, 5.0, 1.0), ranks=(1, 1, 3), final=True)
    assert utility(win, 0) > 1 > utility(shared, 0) > 0.4
    assert utility(win, 1) < 0.1


def test_tournament_rotates_seats_and_reports_honest_shares() -> None:
    result = run_tournament(
        "sono-arcana", 3, ["pimc", "random", "random"], games=6, seed=3,
        settings={"pimc": {"worlds": 2}},
    )  # fmt: skip
    assert set(result.agents) == {"pimc", "random#1", "random#2"}
    assert all(a.seats == 6 for a in result.agents.values())
    assert abs(sum(a.wins for a in result.agents.values()) - 6) < 1e-9
    data = result.to_dict()
    for row in data["agents"]:
        lo, hi = row["win_share_ci95"]
        assert 0 <= lo <= row["win_share"] <= hi <= 1
        assert row["fair_share"] == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="at least one game"):
        run_tournament("sono-arcana", 3, ["random"], games=0)


def test_heuristic_lot_value_counts_the_rule_itself() -> None:
    """The heuristic values a lot from two masks of last digits; the rule counts each
    talisman: +2 when no other held ends in its digit, -1 when one does.  The parent's
    count of unseen talismans that would add to the lot is the same as trying each."""
    from xtarot.agents.heuristic.sono_arcana import _helping, lot_value

    def score(pile: list[str]) -> int:
        digits = [int(t[1:]) % 10 for t in pile]
        return sum(2 if digits.count(d) == 1 else -1 for d in digits)

    rng = random.Random(40)
    talismans = [f"T{n}" for n in range(24)]
    for _ in range(500):
        drawn = rng.sample(talismans, rng.randrange(1, 13))
        cut = rng.randrange(len(drawn))
        held, lot = drawn[:cut], drawn[cut:]
        assert lot_value(held, lot) == score(held + lot) - score(held)
        other = rng.sample([t for t in talismans if t not in drawn], rng.randrange(4))
        unseen = [t for t in talismans if t not in drawn and t not in other]
        value = lot_value(held, lot)
        better = sum(lot_value(held, [*lot, t]) > value for t in unseen)
        assert _helping([held, other], held, lot) == (len(unseen), better)


def test_heuristic_lot_values_and_rules() -> None:
    from xtarot.agents.heuristic.sono_arcana import lot_value

    assert lot_value(["T3", "T5"], ["T13"]) == -4  # T3 turns face down, T13 too
    assert lot_value(["T3", "T13"], ["T23"]) == -1  # already face down: one more -1
    assert lot_value([], ["T1", "T2"]) == 4
    state = xtarot.load("sono-arcana", players=3).new_state(
        deal={
            "hands": [
                [f"{r}c" for r in "2 3 4 5 6 7 8 9 10 J Q K".split()] + ["2s", "3s", "4s", "5s"],
                [f"{r}d" for r in "2 3 4 5 6 7 8 9 10 J Q K".split()] + ["6s", "7s", "8s", "9s"],
                ["10s", "Js", "Qs", "Ks"] + [f"{r}w" for r in "2 3 4 5 6 7 8 9 10 J Q K".split()],
            ],
            "talismans": [f"T{n}" for n in range(24)],
            "parent": 0,
        },
        seed=1,
    )
    bot = make_agent("heuristic")
    # the lot T0 is worth +2 to the parent, who has nothing yet
    first = bot.act(decision_for(state))
    assert first.text in ("lot 1", "lot 2")
    state.apply("lot 1")
    bid = bot.act(decision_for(state))
    assert bid.text == "bid up Kc"  # wants it: strongest card of the longest suit
    assert "want" in bot.explain().en  # type: ignore[union-attr]


def test_heuristic_beats_random_and_refuses_unknown_games() -> None:
    result = run_tournament("sono-arcana", 4, ["heuristic", "random"], games=120, seed=9)
    assert result.agents["heuristic"].win_share * 4 > 1.3
    bot = make_agent("heuristic")
    fake = decision_for(mid_game())
    fake = type(fake)(fake.seat, {**fake.view, "game": "chess"}, fake.legal, fake.sample_world)
    with pytest.raises(ValueError, match="no heuristic bot for chess"):
        bot.act(fake)


class _Keeper:
    """An agent that keeps every view it is given (with a copy of how it looked then)
    and scribbles on it, as a careless agent might; it declares nothing, so it must
    get fresh copies."""

    name = "keeper"

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.kept: list[tuple[dict, dict]] = []

    def act(self, decision):  # type: ignore[no-untyped-def]
        self.kept.append((decision.view, copy.deepcopy(decision.view)))
        decision.view["scribbled"] = True
        return decision.legal[self.rng.randrange(len(decision.legal))]

    def explain(self) -> None:
        return None


def test_play_match_copies_views_unless_the_agent_only_reads_them() -> None:
    """``play_match`` hands a ``reads_view_only`` agent the seat's view without a copy
    and any other agent a fresh one.  Fairy 500's peeked view shares its trick list
    and scores with the state, so a kept peeked view would change as the match goes
    on; the keeper's kept views never do, and its scribbles never reach the table."""
    game = xtarot.load("fairy500", players=3, hands=1)
    keeper = _Keeper(1)
    state = play_match(game, [keeper, RandomAgent(2), RandomAgent(3)], seed=5)
    assert state.is_terminal and len(keeper.kept) > 5
    for view, then in keeper.kept:
        view.pop("scribbled")
        assert view == then
    assert "scribbled" not in state.view(0)
    # the same match again: the same moves
    mine = play_match(game, [_Keeper(1), RandomAgent(2), RandomAgent(3)], seed=5)
    assert [a.text for a in mine.history] == [a.text for a in state.history]


def test_decision_for_peeks_only_when_asked() -> None:
    state = mid_game()
    copied = decision_for(state)
    peeked = decision_for(state, peek=True)
    assert copied.view == peeked.view
    assert copied.view is not peeked.view
    seat = state.current_player
    assert peeked.view == state.view(seat)


def test_heuristic_agent_copies_the_view_for_a_strategy_that_keeps_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The heuristic wrapper reads only; a (plugin) strategy that does not declare
    ``reads_view_only`` gets its own copy, so scribbling on it leaves the state alone."""
    from xtarot.agents.heuristic import STRATEGIES, HeuristicAgent

    monkeypatch.setitem(STRATEGIES, "sono-arcana", _Keeper)
    state = mid_game()
    seat = state.current_player
    bot = HeuristicAgent(1)
    assert bot.reads_view_only
    bot.act(decision_for(state, peek=True))
    assert "scribbled" not in state.peek_view(seat)
