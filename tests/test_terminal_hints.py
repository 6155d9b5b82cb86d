"""Hints are never false: when the heuristic's explanation says that no unseen card
can beat its card, that is checked against every unseen card (majors included), over
many random Extendori positions; a hint that is only likely says so."""

from __future__ import annotations

import random
import re

import pytest

import xtarot
from xtarot.agents import decision_for
from xtarot.agents.heuristic.extendori import ExtendoriHeuristic
from xtarot.cards import card
from xtarot.games.extendori.rules import MINOR_ORDER, deck_cards, points, trick_winner

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
            decision = decision_for(state, peek=True)  # read at once, never kept
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


def _strength(code: str) -> int:
    """A card's rank for "lowest": majors above every minor, minors by MINOR_ORDER."""
    c = card(code)
    return 100 + int(c.number or 0) if c.suit is None else MINOR_ORDER.index(c.rank)


def _check_reason(en: str, ja: str, view: dict, legal: list[str], mine: str) -> set[str]:
    """Every claim the extendori heuristic's reason makes, checked against the position;
    the kinds of claims met."""
    seat, players = view["seat"], view["players"]
    top = max(c.number or 0 for c in deck_cards(view["deck"]) if c.suit is None)
    plays = [(s, card(c)) for s, c in view["trick"]["cards"]]
    after_me = players - len(plays) - 1
    table_points = sum(points(c) for _, c in plays)

    def wins(code: str) -> bool:
        return bool(plays) and trick_winner([*plays, (seat, card(code))], top) == seat

    def beaten_by() -> int:
        mine_plays = [*plays, (seat, card(mine))]
        winner = trick_winner(mine_plays, top)
        return sum(trick_winner([*mine_plays, (-1, u)], top) != winner for u in _unseen(view))

    kinds: set[str] = set()
    if "plain" in en:
        kinds.add("plain")
        assert points(card(mine)) == 0, (en, mine)
        assert "得点なし" in ja
    if "my lowest plain card (" in en:  # a dump: no plain card I may play ranks lower
        kinds.add("lowest dump")
        assert _strength(mine) == min(_strength(c) for c in legal if not points(card(c))), en
    m = re.search(r"my lowest plain card of (\w+), the shortest .* \((\d+) cards\)", en)
    if m:  # a lead: lowest plain card of the shortest suit that has one
        kinds.add("lowest lead")
        suit = card(mine).suit
        length = sum(card(c).suit == suit for c in legal)
        assert int(m.group(2)) == length
        plain_suits = {card(c).suit for c in legal if card(c).suit and not points(card(c))}
        assert all(length <= sum(card(c).suit == s for c in legal) for s in plain_suits), en
        same = [c for c in legal if card(c).suit == suit and not points(card(c))]
        assert _strength(mine) == min(map(_strength, same)), en
    if "lowest plain major" in en:
        kinds.add("lowest major")
        assert not [c for c in legal if card(c).suit and not points(card(c))]
        assert _strength(mine) == min(_strength(c) for c in legal if not points(card(c)))
    m = re.search(r"give up (\S+) \((\d+) points\)", en)
    if m:
        kinds.add("forced points")
        assert "every card I can play is worth points" in en
        assert all(points(card(c)) for c in legal), (en, legal)
        assert m.group(1) == mine and int(m.group(2)) == points(card(mine))
    if "only point cards left" in en:
        kinds.add("point lead")
        assert all(points(card(c)) for c in legal), (en, legal)
    if "takes the trick for now" in en:
        kinds.add("takes")
        assert wins(mine), en
    if "does not take the trick" in en or "do not overtake" in en:
        kinds.add("ducks")
        assert plays and not wins(mine), en
    if "I cannot win this trick" in en:
        kinds.add("cannot win")
        assert not any(wins(c) for c in legal), en
    if "the trick holds no points" in en or "no points on the table" in en:
        kinds.add("no points")
        assert table_points == 0, en
    m = re.search(r"take the (\d+) points with (\S+)", en)
    if m:
        kinds.add("last takes")
        assert after_me == 0 and wins(mine)
        assert int(m.group(1)) == table_points + points(card(mine)), en
    if "last to play" in en:
        assert after_me == 0, en
    m = re.search(r"\((\d+) unseen cards could beat it\)", en)
    if m:
        kinds.add("beaters")
        assert int(m.group(1)) == beaten_by(), en
    if "give them a point card" in en:
        assert points(card(mine)), en
    m = re.search(r"about ([\d.]+) points are expected \(I fight from (\d+)\)", en)
    if m:
        kinds.add("expected")
        assert float(m.group(1)) < int(m.group(2))
    return kinds


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {}), (4, {"teams": "pairs"}),
                                                  (5, {}), (8, {})])  # fmt: skip
def test_extendori_reasons_are_true(players: int, options: dict) -> None:
    """Over many random positions every claim of the reason holds: a "plain" card is
    worth no points (Mc, Rw, Es are worth 15), "lowest" is the lowest, a card said to
    take the trick takes it, counts of cards and points are exact."""
    kinds: set[str] = set()
    for seed in range(10):
        game = xtarot.load("extendori", players=players, hands=1, **options)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            decision = decision_for(state, peek=True)  # read at once, never kept
            bot = ExtendoriHeuristic(seed)
            action = bot.act(decision)
            why = bot.explain()
            assert why is not None
            legal = [a.text.split()[1] for a in decision.legal]
            kinds |= _check_reason(why.en, why.ja, decision.view, legal, action.text.split()[1])
            state.apply(action if rng.random() < 0.7 else rng.choice(state.legal_actions()))
    assert {"plain", "lowest dump", "lowest lead", "forced points", "beaters"} <= kinds, kinds


def test_the_issue_position_does_not_call_a_15_point_card_plain() -> None:
    """xtarot play extendori --seed 565896392 -p 4 -o hands=1: the first hint (10c led,
    Mc and Ac in hand, both worth 15) called Mc "my lowest plain card"."""
    from typer.testing import CliRunner

    from xtarot.cli.main import app

    env = {"COLUMNS": "100", "TERM": "dumb", "XTAROT_HINT_SECONDS": "0.01", "LANG": "C.UTF-8"}
    args = ["play", "extendori", "--seed", "565896392", "-p", "4", "-o", "hands=1", "--fast"]
    result = CliRunner().invoke(app, [*args, "--lang", "en"], input="?\nq\nn\n", env=env)
    why = " ".join(result.stdout.split("Why:")[1].split("Win estimate")[0].split())
    assert "plain" not in why and "every card I can play is worth points" in why, why
    assert "give up Mc (15 points)" in why


def test_arcana_duel_says_no_attack_is_possible_only_when_none_is_legal() -> None:
    """The duel hint said "no attack is possible" while attacks were legal (issue #37):
    over random positions, that reason comes only when no attack move is legal, and
    "no attack could win or tie" only when none could."""
    from xtarot.agents.heuristic.arcana_duel import ArcanaDuelHeuristic, power

    said: set[str] = set()
    for seed in range(60):
        state = xtarot.load("arcana-duel").new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            decision = decision_for(state, peek=True)  # read at once, never kept
            bot = ArcanaDuelHeuristic(seed)
            action = bot.act(decision)
            why = bot.explain()
            assert why is not None
            legal = [a.text for a in decision.legal]
            attacks = [t for t in legal if t.startswith(("attack ", "at "))]
            if "no attack is possible" in why.en:
                said.add("none possible")
                assert not attacks, (why.en, legal)
            if "no attack could win or tie" in why.en:
                said.add("none wins")
                view = decision.view
                theirs = view["fields"][1 - view["seat"]]
                assert theirs["face_down"] == 0
                mine = view["fields"][view["seat"]]
                free = [e["card"] for e in mine["face_up"] if not e["attacked"]]
                free += mine.get("face_down_cards", [])
                forming = view["attack"]["cards"] if view["attack"] else []
                most = sum(power(c) for c in [*forming, *free])
                weakest = min(power(e["card"]) for e in theirs["face_up"])
                assert most < weakest or not free, (why.en, most, weakest)
            state.apply(action if rng.random() < 0.8 else rng.choice(state.legal_actions()))
    assert said, "the positions never reached a finished attack phase"
