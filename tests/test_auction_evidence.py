"""Soft auction evidence (docs/agents.md, *Soft auction evidence*): fairy500 worlds
weighed by how well each other seat's dealt hand explains its bids and passes under
the heuristic's bidding rule, blurred.

Checked on hand-built deals (a world giving the bidder of a high contract a strong
hand outweighs one giving it a weak hand; a pass says the reverse); the model's move
probabilities over the legal moves sum to 1 (the blur is a proper distribution over
the heuristic's choices); the weighted worlds agree with the view and are the same
from the true state and from a state the seat cannot tell from it; the expert's
option is deterministic, off by default and its bad settings are refused.
"""

from __future__ import annotations

import math
import random

import pytest

import xtarot
from view_support import check_weighed_worlds_blind
from xtarot.agents import decision_for, make_agent
from xtarot.agents.auction_evidence import AuctionEvidence
from xtarot.agents.expert import ExpertAgent
from xtarot.agents.heuristic.fairy500 import DENOMINATIONS, bid_inputs
from xtarot.agents.inference import inferred_decision
from xtarot.cards import card
from xtarot.engine import State

STRONG = "Fc Fd Fs Jc Js Kc Qc 10c 9c Kd".split()  # many clubs, three F
WEAK = "5d 6d 7d 5s 6s 7s 5w 6w 7w 8w".split()  # nothing high, no club
MIDDLE = "Fw Kw Qw 5c 6c 8d 9d 8s 9s 10s".split()
OTHER = "7c 8c Cc Qd Cd Jd 10d Qs Cs Ks".split()
KITTY = "Jw Cw 10w 9w".split()


def _deal(hands: list[list[str]]) -> dict[str, object]:
    return {"hands": hands, "kitty": list(KITTY), "dealer": 0}


def _play(hands: list[list[str]], moves: list[str]) -> State:
    """A single fairy500 hand of this deal (seat 1 bids first) after ``moves``."""
    state = xtarot.load("fairy500", players=4, hands=1).new_state(deal=_deal(hands))
    for text in moves:
        state.apply(state.game.action(text))
    return state


def test_the_heuristic_bids_high_with_the_strong_hand() -> None:
    """The hand-built deal does what the tests below assume."""
    state = _play([MIDDLE, STRONG, WEAK, OTHER], [])
    assert state.current_player == 1
    bid = make_agent("heuristic", 0).act(decision_for(state)).text
    assert bid.startswith("bid ") and bid.endswith("c") and int(bid[4:-1]) >= 7
    ests, _, _ = bid_inputs([card(c).index for c in STRONG], 4)
    weak, _, _ = bid_inputs([card(c).index for c in WEAK], 4)
    assert ests[DENOMINATIONS.index("c")] > weak[DENOMINATIONS.index("c")] + 3


def test_a_high_bid_weighs_a_strong_hand_over_a_weak_one() -> None:
    bid = make_agent("heuristic", 0).act(decision_for(_play([MIDDLE, STRONG, WEAK, OTHER], [])))
    moves = [bid.text, "pass", "pass"]  # seat 1 bids, seats 2 and 3 pass: seat 0 to act
    truth = _play([MIDDLE, STRONG, WEAK, OTHER], moves)
    swapped = _play([MIDDLE, WEAK, STRONG, OTHER], moves)  # the bidder holds the weak hand
    assert truth.current_player == 0
    assert truth.view(0) == swapped.view(0)  # seat 0 cannot tell them apart
    evidence = AuctionEvidence()
    strong, weak = evidence.log_likelihood(truth, 0), evidence.log_likelihood(swapped, 0)
    assert strong > weak + 5
    # the bid alone says it too, and the pass of a weak hand is likelier than a strong one's
    ests = {
        name: bid_inputs([card(c).index for c in hand], 4)
        for name, hand in (("strong", STRONG), ("weak", WEAK))
    }
    game = truth.game
    legal = len(game.bid_table.pass_or_above(0))
    p_bid = {k: evidence.move_probability(*v, 4, bid.text, 0, legal) for k, v in ests.items()}
    p_pass = {k: evidence.move_probability(*v, 4, "pass", 0, legal) for k, v in ests.items()}
    assert p_bid["strong"] > 10 * p_bid["weak"]
    assert p_pass["weak"] > 10 * p_pass["strong"]
    # the seat's own moves are never weighed: for seat 1 the weight is the passes of
    # seats 2 and 3 over its bid, each from its own dealt hand
    value = game.bid_values[game.action(bid.text).id]
    over = len(game.bid_table.pass_or_above(value))
    expected = sum(
        math.log(
            evidence.move_probability(
                *bid_inputs([card(c).index for c in hand], 4), 4, "pass", value, over
            )
        )
        for hand in (WEAK, OTHER)
    )
    assert evidence.log_likelihood(truth, 1) == pytest.approx(expected)


def test_a_sharper_temperature_separates_more() -> None:
    bid = make_agent("heuristic", 0).act(decision_for(_play([MIDDLE, STRONG, WEAK, OTHER], [])))
    moves = [bid.text, "pass", "pass"]
    truth = _play([MIDDLE, STRONG, WEAK, OTHER], moves)
    swapped = _play([MIDDLE, WEAK, STRONG, OTHER], moves)

    def gap(t: float) -> float:
        evidence = AuctionEvidence(temperature=t)
        return evidence.log_likelihood(truth, 0) - evidence.log_likelihood(swapped, 0)

    assert gap(0.25) > gap(0.5) > gap(1.0) > 0


def test_move_probabilities_sum_to_one_over_the_legal_moves() -> None:
    """Each trick count (and each misère danger) blurred by its own noise, the
    heuristic's choice is one legal move: the model's probabilities are a distribution."""
    game = xtarot.load("fairy500", players=4, hands=1)
    rng = random.Random(5)
    for floor in (0.0, 0.05):
        evidence = AuctionEvidence(temperature=0.6, misere_temperature=0.12, floor=floor)
        for _ in range(60):
            ests = [rng.uniform(3.0, 12.0) for _ in DENOMINATIONS]
            danger_ex, danger_hand = rng.uniform(0.0, 0.6), rng.uniform(0.0, 0.6)
            standing = rng.choice([0, 40, 160, 250, 340, 450, 520])
            legal = game.bid_table.pass_or_above(standing)
            total = sum(
                evidence.move_probability(
                    ests, danger_ex, danger_hand, 4, a.text, standing, len(legal)
                )
                for a in legal
            )
            assert total == pytest.approx(1.0, abs=1e-9)
    # a bid the heuristic never makes gets the floor only
    evidence = AuctionEvidence(floor=0.05)
    assert evidence.move_probability([5.0] * 5, 1.0, 1.0, 4, "bid misere double", 0, 38) == (
        pytest.approx(0.05 / 38)
    )


def _heuristic_auction(seed: int, steps: int) -> State:
    state = xtarot.load("fairy500", players=4, hands=1).new_state(seed=seed)
    agents = [make_agent("heuristic", k) for k in range(4)]
    for _ in range(steps):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(decision_for(state, peek=True)))
    return state


def test_weighted_worlds_agree_with_the_view_and_leak_nothing() -> None:
    """The weights read the world alone: from the true state and from another deal the
    seat cannot tell from it, the same random stream gives the same worlds."""
    evidence = AuctionEvidence()
    for seed, steps in ((4, 3), (7, 6)):  # in the auction; in the play
        truth = _heuristic_auction(seed, steps)
        seat = truth.current_player
        assert seat is not None
        view = truth.view(seat)
        assert evidence.informs(view, seat)
        twin = truth.sample_world(seat, random.Random(99))
        assert twin.view(seat) == view
        assert twin.zones() != truth.zones()
        for s in range(4):
            wa = truth.sample_world(seat, random.Random(s))
            wb = twin.sample_world(seat, random.Random(s))
            assert evidence.log_likelihood(wa, seat) == evidence.log_likelihood(wb, seat)
        check_weighed_worlds_blind(
            truth, twin, seat, evidence, evidence.log_weight(seat), candidates=6, pool=8, seed=2
        )


def test_the_true_deal_of_heuristic_play_explains_the_auction_well() -> None:
    """In heuristic self-play the true deal is, on average over positions, likelier
    than the uniform worlds of the same position."""
    evidence = AuctionEvidence()
    above = 0
    for seed in range(8):
        state = _heuristic_auction(seed, 3)
        seat = state.current_player
        assert seat is not None
        rng = random.Random(seed)
        logs = [evidence.log_likelihood(state.sample_world(seat, rng), seat) for _ in range(16)]
        above += evidence.log_likelihood(state, seat) > sum(logs) / len(logs)
    assert above >= 6


def test_the_expert_option_is_deterministic_and_off_by_default() -> None:
    truth = _heuristic_auction(7, 6)
    seat = truth.current_player
    assert seat is not None
    legal = truth.legal_actions()
    assert len(legal) > 1
    assert ExpertAgent(1, iterations=30).auction == 0.0
    moves = [ExpertAgent(1, iterations=30, auction=0.5).act(decision_for(truth)) for _ in range(2)]
    assert moves[0] == moves[1] and moves[0] in legal
    # no other seat has moved yet: the option changes nothing
    first = xtarot.load("fairy500", players=4, hands=1).new_state(seed=7)
    seat = first.current_player
    assert seat is not None
    assert not AuctionEvidence().informs(first.view(seat), seat)
    on = ExpertAgent(3, iterations=40, auction=0.5).act(decision_for(first))
    off = ExpertAgent(3, iterations=40).act(decision_for(first))
    assert on == off


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"temperature": 0}, "temperature"),
        ({"temperature": -1.0}, "temperature"),
        ({"temperature": math.inf}, "temperature"),
        ({"temperature": math.nan}, "temperature"),
        ({"temperature": True}, "temperature"),
        ({"misere_temperature": 0.0}, "misere_temperature"),
        ({"floor": 1.0}, "floor"),
        ({"floor": -0.1}, "floor"),
    ],
)
def test_bad_evidence_settings_are_refused(settings: dict[str, float], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        AuctionEvidence(**settings)


def test_bad_expert_settings_and_other_games_are_refused() -> None:
    with pytest.raises(ValueError, match="auction is a temperature"):
        ExpertAgent(1, iterations=10, auction=-0.5)
    with pytest.raises(ValueError, match="auction is a temperature"):
        ExpertAgent(1, iterations=10, auction=True)
    with pytest.raises(ValueError, match="auction_pool"):
        ExpertAgent(1, iterations=10, auction=0.5, auction_pool=0)
    with pytest.raises(ValueError, match="chains need a PolicyInference"):
        inferred_decision(decision_for(_heuristic_auction(1, 2)), AuctionEvidence(), chains=2)
    other = xtarot.load("sono-arcana", players=3).new_state(seed=1)
    with pytest.raises(ValueError, match="for fairy500"):
        AuctionEvidence().log_likelihood(other, 0)
    assert not AuctionEvidence().informs(other.view(0), 0)
    # in another game the expert's option does nothing
    move = ExpertAgent(2, iterations=20, auction=0.5).act(decision_for(other))
    assert move == ExpertAgent(2, iterations=20).act(decision_for(other))


@pytest.mark.parametrize("players", [4, 6])
def test_a_cold_temperature_is_the_heuristics_own_rule(players: int) -> None:
    """With almost no blur the model gives the heuristic's own move, from its own hand,
    all the probability: the evidence reads a hand as the heuristic's auction does."""
    evidence = AuctionEvidence(temperature=1e-6, misere_temperature=1e-6, floor=0.0)
    game = xtarot.load("fairy500", players=players, hands=1)
    agent = make_agent("heuristic", 0)
    moves = 0
    for seed in range(12):
        state = game.new_state(seed=seed)
        standing = 0
        while state.public_view()["phase"] == "auction":
            seat = state.current_player
            assert seat is not None
            move = agent.act(decision_for(state)).text
            hand = [card(c).index for c in state.view(seat)["hand"]]
            legal = len(state.legal_actions())
            p = evidence.move_probability(
                *bid_inputs(hand, players), players, move, standing, legal
            )
            assert p == pytest.approx(1.0), (seed, move)
            moves += 1
            state.apply(game.action(move))
            if move != "pass":
                standing = game.bid_values[game.action(move).id]
    assert moves > 40
