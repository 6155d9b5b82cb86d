"""The Extendori heuristic: clear-cut positions and a seeded check against random."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import xtarot
from xtarot.agents.base import Agent, Decision, RandomAgent, play_match
from xtarot.agents.heuristic import STRATEGIES, HeuristicAgent
from xtarot.agents.heuristic.extendori import ExtendoriHeuristic, _Trick, card_points
from xtarot.cards import Card, card
from xtarot.games.extendori.rules import ACTIONS, deck_cards, trick_winner
from xtarot.lab import run_tournament


def _decision(
    hand: str,
    legal: str,
    trick: str = "",
    *,
    leader: int = 1,
    seen: str = "",
    teams: list[list[int]] | None = None,
    hand_sizes: list[int] | None = None,
) -> Decision:
    """Seat 0 of 4 (112 cards, play order 1 2 3 0) to act; ``trick`` is the cards so far."""
    order = [1, 2, 3, 0]
    cards = trick.split()
    start = order.index(leader)
    plays = [[order[(start + i) % 4], c] for i, c in enumerate(cards)]
    done = seen.split()
    tricks = [
        {"leader": 1, "cards": [[order[i % 4], c] for i, c in enumerate(done[k : k + 4])],
         "winner": 1}
        for k in range(0, len(done), 4)
    ]  # fmt: skip
    view: dict[str, Any] = {
        "game": "extendori",
        "players": 4,
        "seat": 0,
        "phase": "play",
        "current_player": 0,
        "deck": 112,
        "teams": teams,
        "order": order,
        "trick": {
            "leader": leader,
            "led_suit": None if not cards else ("T" if cards[0][0] == "T" else cards[0][-1]),
            "cards": plays,
        },
        "tricks": tricks,
        "voids": [[], [], [], []],
        "hand_sizes": hand_sizes or [len(hand.split()), 8, 8, 8],
        "hand": hand.split(),
        "legal_actions": [f"play {c}" for c in legal.split()],
    }
    actions = [ACTIONS.by_text(f"play {c}") for c in legal.split()]

    def no_sampling(rng: Any) -> Any:
        raise AssertionError("the heuristic must not sample worlds")

    return Decision(0, view, actions, no_sampling)


def _act(decision: Decision) -> str:
    bot = ExtendoriHeuristic()
    action = bot.act(decision)
    explanation = bot.explain()
    assert explanation is not None and explanation.chosen == action.text
    assert explanation.en and explanation.ja
    return action.text


def test_registered() -> None:
    assert STRATEGIES["extendori"] is ExtendoriHeuristic
    agent = HeuristicAgent(1)
    assert agent.act(_decision("2c 3c", "2c 3c", "Kc Ac Fc")).text == "play 2c"
    assert card_points("Mw") == 15 and card_points("T1") == 30 and card_points("10s") == 0


def test_last_to_play_wins_with_the_lowest_winner() -> None:
    assert _act(_decision("Fc Ac 4c", "Fc Ac 4c", "Kc 3c 5c")) == "play Ac"


def test_top_major_loses_to_t0() -> None:
    # T23 leads; T0 (the lowest major) beats it when they share a trick and banks 30.
    assert _act(_decision("T0 T12 5c", "T0 T12", "T23 T5 T8")) == "play T0"


def test_led_f_loses_to_its_n() -> None:
    assert _act(_decision("Ns 9s", "Ns 9s", "Fs 2s 3s")) == "play Ns"


def test_no_point_card_on_a_lost_trick() -> None:
    # A major has taken the cups trick: keep the K, shed the 2.
    assert _act(_decision("Kc 2c", "Kc 2c", "Fc T5 3c")) == "play 2c"


def test_pointless_trick_dumps_low() -> None:
    assert _act(_decision("9c 5c", "9c 5c", "2c 3c 4c")) == "play 5c"


def test_bank_a_point_card_when_it_wins() -> None:
    assert _act(_decision("Fc 5c", "Fc 5c", "2c 3c 4c")) == "play Fc"


def test_partner_winning_is_not_overtaken() -> None:
    # Seats 0 and 2 are partners: seat 2's Fc wins, so give it the K (not the wrapping N).
    teams = [[0, 2], [1, 3]]
    assert _act(_decision("Nc Kc 5c", "Nc Kc 5c", "3c Fc 4c", teams=teams)) == "play Kc"
    # Without a partner the N takes the F.
    assert _act(_decision("Nc Kc 5c", "Nc Kc 5c", "3c Fc 4c")) == "play Nc"


def test_follower_takes_a_sure_trick_cheaply() -> None:
    # Second on a cups lead early in a batch (14 cards each, nobody shown void): the N and
    # M of cups are seen, so nothing can beat my F and it banks itself.
    bot = ExtendoriHeuristic()
    decision = _decision(
        "Fc 2c", "Fc 2c", "Kc", leader=3, seen="Nc Mc 2d 3d", hand_sizes=[2, 14, 14, 14]
    )
    assert bot.act(decision).text == "play Fc"
    explanation = bot.explain()
    assert explanation is not None and "cannot be beaten" in explanation.en


def test_lead_the_top_major_when_it_is_sure() -> None:
    seen = "T0 2c 3c 4c T1 5c 6c 7c"
    assert _act(_decision("T23 3d", "T23 3d", seen=seen, leader=0)) == "play T23"


def test_lead_low_from_the_shortest_suit() -> None:
    assert _act(_decision("2c 3c 4s Kd", "2c 3c 4s Kd", leader=0)) == "play 4s"


def test_beats_random() -> None:
    result = run_tournament(
        "extendori", 4, ["heuristic", "random", "random", "random"], games=200, seed=1,
        options={"hands": 1},
    )  # fmt: skip
    assert result.agents["heuristic"].win_share * 4 >= 1.5


def _match_moves(players: int, seed: int, heuristic_seats: int, **options: Any) -> list[str]:
    """Every move of one seeded hand: the first ``heuristic_seats`` seats play the
    heuristic, the others a seeded random bot."""
    game = xtarot.load("extendori", players=players, hands=1, **options)
    bots: list[Agent] = [
        ExtendoriHeuristic(s) if s < heuristic_seats else RandomAgent(seed + s)
        for s in range(players)
    ]
    state = play_match(game, bots, seed=seed)
    return [a.text for a in state.history]


#: sha256 of the heuristic's moves in the games of ``test_moves_digest``; a change of
#: strategy must change it on purpose (a speed-up must leave it alone)
MOVES_DIGEST = "eacddb85f10e61272c6c3ff0e2d467163aa2a54e69ee9aeacf2a2dc4cfd47bc8"


def test_moves_digest() -> None:
    games = [
        _match_moves(3, 11, 3),
        _match_moves(4, 12, 2),
        _match_moves(5, 13, 5),
        _match_moves(8, 14, 8),
        _match_moves(8, 15, 3),
        _match_moves(4, 16, 4, teams="pairs"),
        _match_moves(6, 17, 4, teams="halves"),
    ]
    assert all(len(moves) >= 100 for moves in games)
    text = "\n".join(" ".join(moves) for moves in games)
    assert hashlib.sha256(text.encode()).hexdigest() == MOVES_DIGEST


def test_trick_arithmetic_agrees_with_trick_winner() -> None:
    # The heuristic's quick "would this card take the trick" must answer as the game's
    # own trick_winner does, wrap-arounds included: deal random tricks, many of them
    # holding the top major with T0/T1 or a suit's F with its N/M.
    rng = random.Random(3)
    deck = deck_cards(112)
    ends = [card(c) for c in ("T0", "T1", "T23", "Fc", "Nc", "Mc", "Fs", "Ms")]
    checked = 0
    for _ in range(3000):
        pool = deck + ends * 6
        size = rng.randrange(1, 8)
        cards: list[Card] = []
        while len(cards) < size:
            c = rng.choice(pool)
            if c not in cards:
                cards.append(c)
        trick = _Trick([c.code for c in cards], 23)
        plays = [(s, c) for s, c in enumerate(cards)]
        for extra in rng.sample(ends + deck, 12):
            if extra in cards:
                continue
            expected = trick_winner([*plays, (-1, extra)], 23) == -1
            assert trick.taken_by(extra.code) == expected, (cards, extra)
            if extra.suit is None or extra.suit == cards[0].suit:  # what it is asked
                assert trick.count_taken([extra.code]) == expected, (cards, extra)
            checked += 1
    assert checked > 20000


def test_interleaved_matches_play_as_alone() -> None:
    """The heuristic reads a hand's finished tricks on from those it last read (issue
    #40): two matches whose decisions alternate, every seat of both played by the same
    heuristics, make the same moves and explanations as each match alone."""

    def play(games: list[Any], seeds: list[int], bots: list[Any]) -> list[list[str]]:
        states = [g.new_state(seed=seed) for g, seed in zip(games, seeds, strict=True)]
        said: list[list[str]] = [[] for _ in states]
        while not all(st.is_terminal for st in states):
            for k, st in enumerate(states):
                if st.is_terminal:
                    continue
                seat = st.current_player
                bot = bots[seat]
                action = bot.act(Decision(seat, st.peek_view(seat), st.legal_actions(), None))
                explanation = bot.explain()
                assert explanation is not None
                said[k].append(f"{action.text} {explanation.en} {explanation.ja}")
                st.apply(action)
        return said

    games = [xtarot.load("extendori", players=4, hands=1), xtarot.load("extendori", players=4)]
    together = play(games, [21, 22], [ExtendoriHeuristic(s) for s in range(4)])
    alone = [
        play([g], [seed], [ExtendoriHeuristic(s) for s in range(4)])[0]
        for g, seed in zip(games, [21, 22], strict=True)
    ]
    assert together[0] != together[1] and together == alone
