"""The expert's exact endgame search in Extendori: hand-built last tricks whose right
card is known, agreement with a plain search through the engine, and the expert using
it only on sampled worlds."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import xtarot
from xtarot.agents import ExpertAgent, decision_for
from xtarot.agents.base import Decision
from xtarot.agents.endgame import extendori_endgame, extendori_solvable
from xtarot.agents.heuristic import STRATEGIES
from xtarot.agents.ismcts import _utilities
from xtarot.cards import XTAROT, Card, cards
from xtarot.engine import Action, State
from xtarot.engine.core import competition_ranks
from xtarot.games.extendori import MINOR_ORDER, ExtendoriState
from xtarot.games.extendori.rules import ACTIONS
from xtarot.games.tricks import Trick

GAME = xtarot.load("extendori", players=4, hands=1)


def last_tricks(hands: Sequence[str], points: Sequence[int] = (0, 0, 0, 0)) -> ExtendoriState:
    """A four-player hand in its last tricks: the stock is spent, seat 0 leads,
    ``hands`` are what each seat still holds and ``points`` what each has taken."""
    state = GAME.new_state(seed=0)
    assert isinstance(state, ExtendoriState)
    state.hands = [sorted(cards(h), key=lambda c: c.index) for h in hands]
    state.top = len(state.stock)
    state.points = list(points)
    state.trick = Trick(0)
    state.current_player = 0
    state._legal = None
    return state


def values(state: ExtendoriState) -> dict[str, float]:
    legal = state.legal_actions()
    solved = extendori_endgame(state, legal)
    assert solved is not None
    return dict(zip([a.text for a in legal], solved, strict=True))


def heuristic_move(state: State) -> str:
    seat = state.current_player
    assert seat is not None
    decision = Decision(
        seat, state.view(seat), state.legal_actions(), decision_for(state).sample_world
    )
    return STRATEGIES["extendori"](0).act(decision).text


def test_lead_the_high_major_while_the_fool_must_fall_under_it() -> None:
    """Seat 2 holds T0 and no other major: whichever major is led, T0 must follow.
    Led T14 wins the 30 points (seat 1's T6 and T12 are both lower); the heuristic's
    low T2 hands them to seat 1 and takes nothing."""
    state = last_tricks(["T2 T14", "T6 T12", "T0 6w", "2w 7w"])
    assert heuristic_move(state) == "play T2"
    v = values(state)
    assert v["play T14"] > v["play T2"]
    assert v["play T14"] > 1.0 > 0.0 > v["play T2"]  # a win against a loss (all start at 0)


def test_cash_the_lone_suit_before_giving_the_lead_away() -> None:
    """Nobody else holds a tree but seat 3's 4w, and nobody holds a major: Ew wins
    45 points for sure; the heuristic's 8c loses the lead to Kc first."""
    state = last_tricks(["8c Ew", "Kc Rd", "Ec Cd", "Lc 4w"])
    assert heuristic_move(state) == "play 8c"
    v = values(state)
    assert v["play Ew"] > v["play 8c"]


def test_the_expert_takes_the_solved_card_where_every_world_agrees() -> None:
    state = last_tricks(["T2 T14", "T6 T12", "T0 6w", "2w 7w"])
    seen: list[int] = []

    def worlds(rng: random.Random) -> State:
        seen.append(rng.randrange(1000))
        return state.clone()

    decision = Decision(0, state.view(0), state.legal_actions(), worlds)
    bot = ExpertAgent(1, iterations=20)
    assert bot.act(decision).text == "play T14"
    assert bot.last_solved == len(seen) >= 2
    why = bot.explain()
    assert why is not None and "solved exactly" in why.en and "読み切った" in why.ja
    off = ExpertAgent(1, iterations=20, endgame=False)
    off.act(decision)
    assert off.last_solved == 0


def brute_force(state: ExtendoriState, seat: int) -> dict[str, float]:
    """The same max-n model searched through the engine itself: every seat takes the
    card that gives it the most points to the end of the hand (the first such card in
    suit-and-strength order); the root's moves are valued by the end-of-hand utility."""

    def order(a: Action) -> tuple[str, int]:
        c = _card(a)
        key = c.suit if c.suit is not None else "T"
        return key, (c.number if c.number is not None else _minor_rank(c))

    def solve(s: ExtendoriState) -> list[int]:
        if s.current_player is None or not any(s.hands):
            return list(s.points)
        me = s.current_player
        best: list[int] | None = None
        for a in sorted(s.legal_actions(), key=order):
            t = s.clone()
            t.apply(a)
            got = solve(t)  # type: ignore[arg-type]
            if best is None or got[me] > best[me]:
                best = got
        assert best is not None
        return best

    out = {}
    for a in state.legal_actions():
        t = state.clone()
        t.apply(a)
        final = solve(t)  # type: ignore[arg-type]
        totals = [float(p) for p in final]
        out[a.text] = _utilities(totals, competition_ranks(totals))[seat]
    return out


def _card(a: Action) -> Card:
    return XTAROT[a.id]


def _minor_rank(c: Card) -> int:
    return MINOR_ORDER.index(c.rank or "")


@pytest.mark.parametrize("seed", range(12))
def test_the_search_agrees_with_a_plain_search_through_the_engine(seed: int) -> None:
    """Random three-card endgames (wrap-arounds included when the deal brings them):
    the pruned, tabled search gives exactly the plain search's values."""
    rng = random.Random(seed)
    deck = list(XTAROT)
    rng.shuffle(deck)
    if seed % 3 == 0:  # make sure some deals hold the wrap-around cards
        for code in ("T0", "T23", "Fc", "Nc"):
            c = next(x for x in deck if x.code == code)
            deck.remove(c)
            deck.insert(rng.randrange(12), c)
    hands = [" ".join(c.code for c in deck[3 * i : 3 * i + 3]) for i in range(4)]
    state = last_tricks(hands, points=[rng.randrange(0, 200, 15) for _ in range(4)])
    assert values(state) == pytest.approx(brute_force(state, 0))


def test_the_search_gives_up_past_its_node_limit_and_only_fits_the_last_batch() -> None:
    state = last_tricks(["T2 T14 Kc", "T6 T12 Ac", "T0 6w 2c", "2w 7w 3c"])
    assert extendori_endgame(state, state.legal_actions(), max_nodes=2) is None
    assert extendori_solvable(state, 3) and not extendori_solvable(state, 2)
    fresh = GAME.new_state(seed=1)
    assert isinstance(fresh, ExtendoriState)
    assert not extendori_solvable(fresh, 20)  # cards still to deal
    with pytest.raises(ValueError, match="play Qw is not a card seat 0 holds"):
        extendori_endgame(state, [ACTIONS.by_text("play Qw")])


def test_the_expert_solves_real_endgames_without_peeking() -> None:
    """A heuristic match played into the last tricks: the expert solves sampled worlds,
    and a position the seat cannot tell apart gets the same move and numbers."""
    players = [STRATEGIES["extendori"](s) for s in range(4)]
    state = GAME.new_state(seed=8)
    assert isinstance(state, ExtendoriState)
    while not extendori_solvable(state, 4) or len(state.legal_actions()) < 2:
        seat = state.current_player
        assert seat is not None
        state.apply(players[seat].act(decision_for(state)))
    seat = state.current_player
    assert seat is not None
    world = state.sample_world(seat, random.Random(3))
    assert world.view(seat) == state.view(seat) and world.zones() != state.zones()
    a, b = ExpertAgent(4, iterations=24), ExpertAgent(4, iterations=24)
    move = a.act(decision_for(state))
    assert move in state.legal_actions()
    assert a.last_solved > 0
    assert move.text == b.act(decision_for(world)).text
    assert a.explain() == b.explain()
