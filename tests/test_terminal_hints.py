"""Hints are never false: when the heuristic's explanation says that no unseen card
can beat its card, that is checked against every unseen card (majors included), over
many random Extendori positions; a hint that is only likely says so."""

from __future__ import annotations

import random

import pytest

import xtarot
from xtarot.agents import decision_for
from xtarot.agents.heuristic.extendori import ExtendoriHeuristic
from xtarot.cards import card
from xtarot.games.extendori.rules import deck_cards, trick_winner

CERTAIN = ("cannot be beaten by any unseen card:", "no unseen card can beat it", "for sure")


def _unseen(view: dict) -> list:
    seen = set(view["hand"]) | {c for _, c in view["trick"]["cards"]}
    for trick in view["tricks"]:
        seen.update(c for _, c in trick["cards"])
    return [c for c in deck_cards(view["deck"]) if c.code not in seen]


@pytest.mark.parametrize("players", [3, 4])
def test_extendori_certainty_is_true(players: int) -> None:
    certain = likely = 0
    for seed in range(12):
        state = xtarot.load("extendori", players=players, hands=1).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            decision = decision_for(state)
            bot = ExtendoriHeuristic(seed)
            action = bot.act(decision)
            why = bot.explain()
            assert why is not None
            view = decision.view
            if any(phrase in why.en for phrase in CERTAIN):
                certain += 1
                top = max(c.number or 0 for c in deck_cards(view["deck"]) if c.suit is None)
                plays = [(s, card(c)) for s, c in view["trick"]["cards"]]
                plays.append((view["seat"], card(action.text.split()[1])))
                winner = trick_winner(plays, top)
                for u in _unseen(view):  # any later player adding any unseen card
                    if len(plays) < players:
                        assert trick_winner([*plays, (-1, u)], top) == winner, (why.en, u)
            elif "likely" in why.en:
                likely += 1
                assert "おそらく" in why.ja
            legal = state.legal_actions()
            state.apply(action if rng.random() < 0.7 else rng.choice(legal))
    assert certain > 0 and likely > 0
