"""The conformance kit: checks every registered game must pass.

The test suite runs it for every game, every player count and every main option
(``tests/test_conformance.py``); a new game gets these checks for free by being
registered.  Every failure message names the configuration and seed, so a bug
found by a random playout is reproduced with ``replay_failure(...)`` or simply by
re-running :func:`playout` with the printed arguments.

Checks at every step of a seeded random playout (:func:`playout`):

- every card of the match is in exactly one zone (``state.zones()``);
- the game's own invariants hold (``state.check_invariants()``), e.g. fixed totals;
- legal actions are non-empty until the match ends, empty after, ids match the mask,
  and every legal action's text and id round-trip;
- (deep mode) an illegal id and an unparseable text raise ``IllegalAction`` and
  leave the state unchanged; a clone is independent of the original; the leak test
  (:func:`check_leaks`) at random moments;
- at the end: the scores are final and ranked; the record replays to an identical
  state; the same seed and actions give an identical state.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from xtarot.engine import Game, GameInfo, IllegalAction, State, load
from xtarot.record import replay

__all__ = [
    "ConformanceReport",
    "check_leaks",
    "check_masking",
    "check_state",
    "configurations",
    "playout",
    "run_conformance",
]


def configurations(info: GameInfo) -> list[dict[str, Any]]:
    """Every player count with default options, plus each non-default value of each
    option (booleans: ``True``; choices: every choice) at every count that allows it.

    Each item is ``{"players": n, **options}`` for ``load(info.id, **item)``.
    """
    out: list[dict[str, Any]] = [{"players": n} for n in info.players]
    for opt in info.options:
        values: list[Any]
        if opt.kind is bool:
            values = [not opt.default]
        elif opt.choices is not None:
            values = [v for v in opt.choices if v != opt.default]
        else:
            values = []
        for value, n in itertools.product(values, info.players):
            if opt.players is not None and n not in opt.players:
                continue
            try:
                load(info.id, players=n, **{opt.name: value})
            except ValueError:
                continue  # not allowed at this count (the game says so clearly)
            out.append({"players": n, opt.name: value})
    return out


def label(game: Game) -> str:
    opts = ",".join(f"{k}={v}" for k, v in game.options.items())
    return f"{game.id}[players={game.players}{',' + opts if opts else ''}]"


@dataclass
class ConformanceReport:
    """What a run of the kit saw (for assertions and for the closing notes)."""

    games: int = 0
    actions: int = 0
    leak_checks: int = 0
    worlds: int = 0
    worlds_differing: int = 0
    illegal_checks: int = 0
    clone_checks: int = 0
    winners: Counter[int] = field(default_factory=Counter)

    def merge(self, other: ConformanceReport) -> None:
        for name in (
            "games", "actions", "leak_checks", "worlds", "worlds_differing",
            "illegal_checks", "clone_checks",
        ):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.winners.update(other.winners)


_ROUND_TRIPPED: dict[type, set[int]] = {}


def _codes(state: State) -> list[str]:
    return [code for zone in state.zones().values() for code in zone]


def check_state(state: State, deck: frozenset[str], where: str) -> None:
    """Card conservation, the game's invariants and the legal-action contract."""
    codes = _codes(state)
    if len(codes) != len(deck) or set(codes) != deck:
        counts = Counter(codes)
        twice = sorted(c for c, k in counts.items() if k > 1)
        raise AssertionError(
            f"{where}: cards are not each in exactly one place: in several places {twice}, "
            f"missing {sorted(deck - set(codes))}, foreign {sorted(set(codes) - deck)}"
        )
    state.check_invariants()
    legal = state.legal_actions()
    mask = state.legal_action_mask()
    assert len(mask) == state.game.num_actions
    if state.is_terminal:
        assert not legal and not any(mask), f"{where}: legal actions after the end"
        assert state.current_player is None
        return
    assert legal, f"{where}: no legal action but the match is not over"
    # itertools.compress: the same ids, ~10x faster for large action spaces
    assert sorted(a.id for a in legal) == list(itertools.compress(range(len(mask)), mask)), where
    seen = _ROUND_TRIPPED.setdefault(type(state.game), set())
    for a in legal:
        if a.id not in seen:  # each action's text/id round trip is checked once
            assert state.game.action(a.text) is a and state.game.action(a.id) is a, where
            seen.add(a.id)


def check_leaks(state: State, seat: int, rng: random.Random, worlds: int = 6) -> tuple[int, int]:
    """The leak test at one moment, for one seat.

    Sampled worlds must show the seat exactly the same view and the spectator the
    same public view, and must have replayed the same number of actions.  Returns
    ``(worlds sampled, worlds whose hidden cards differ from the true state)``.
    """
    mine = state.view(seat)
    public = state.public_view()
    truth = state.zones()
    differing = 0
    for i in range(worlds):
        world = state.sample_world(seat, rng)
        assert world.view(seat) == mine, f"seat {seat}'s view differs in a sampled world"
        assert world.public_view() == public, "the public view differs in a sampled world"
        assert len(world.history) == len(state.history)
        assert world.current_player == state.current_player
        json.dumps(mine)  # views are JSON-serialisable
        if world.zones() != truth:
            differing += 1
        if i == 0:
            # the sampler may use only the seat's information: from the true state and
            # from a world the seat cannot tell apart, the same random stream must
            # give the same world
            probe = rng.getrandbits(32)
            a = state.sample_world(seat, random.Random(probe)).snapshot()
            b = world.sample_world(seat, random.Random(probe)).snapshot()
            assert a == b, f"seat {seat}'s sampled worlds depend on hidden information"
    return worlds, differing


def check_masking(state: State, seat: int, at: str) -> None:
    """``action_seen_by`` agrees with the views: two moves that look the same to
    ``seat`` leave it the same view, two that look different leave different views."""
    groups: dict[str, list[Any]] = {}
    for a in state.legal_actions():
        groups.setdefault(state.action_seen_by(a, seat), []).append(a)
    after: dict[str, str] = {}
    for seen, actions in groups.items():
        views = set()
        for a in actions[:3]:
            twin = state.clone()
            twin.apply(a)
            views.add(json.dumps(twin.view(seat), sort_keys=True))
        assert len(views) == 1, f"{at}: moves that look alike ({seen!r}) to seat {seat} differ"
        after[seen] = views.pop()
    assert len(set(after.values())) == len(after), f"{at}: distinct-looking moves, same view"


def playout(game: Game, seed: int, *, deep: bool = False) -> tuple[State, ConformanceReport]:
    """One seeded random playout with the checks above; returns the final state."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    where = f"{label(game)} seed={seed}"
    deck = frozenset(_codes(state))
    assert len(deck) == len(_codes(state)), f"{where}: a card is in two places at the start"
    report = ConformanceReport(games=1)
    step = 0
    while True:
        at = f"{where} step={step}"
        check_state(state, deck, at)
        if state.is_terminal:
            break
        if deep:
            _deep_checks(state, rng, at, report)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    report.actions = step
    scores = state.scores()
    assert scores.final, f"{where}: final scores not marked final"
    assert len(scores.totals) == game.players and min(scores.ranks) == 1, where
    for s in scores.winners:
        report.winners[s] += 1
    again = replay(json.loads(json.dumps(state.record())))
    assert again.snapshot() == state.snapshot(), f"{where}: the record does not replay exactly"
    if deep:
        twin = game.new_state(seed=seed)
        for a in state.history:
            twin.apply(a.text)
        assert twin.snapshot() == state.snapshot(), f"{where}: same seed+actions, other state"
        with_deal = game.new_state(deal=state.deals[0], seed=seed)
        assert with_deal.snapshot()["deals"][0] == state.deals[0]
    return state, report


def _deep_checks(state: State, rng: random.Random, at: str, report: ConformanceReport) -> None:
    before = state.snapshot()
    mask = state.legal_action_mask()
    illegal = [i for i, m in enumerate(mask) if not m]
    if illegal:
        bad = rng.choice(illegal)
        try:
            state.apply(bad)
        except IllegalAction as err:
            assert str(err), at
        else:
            raise AssertionError(f"{at}: illegal action id {bad} was accepted")
        assert state.snapshot() == before, f"{at}: a rejected action changed the state"
        report.illegal_checks += 1
    for junk in ("frobnicate 9z", "play", "", "play Xq"):
        try:
            state.apply(junk)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{at}: junk text {junk!r} was accepted")
    assert state.snapshot() == before, f"{at}: junk input changed the state"
    if rng.random() < 0.2:
        twin = state.clone()
        legal = twin.legal_actions()
        twin.apply(legal[rng.randrange(len(legal))])
        assert state.snapshot() == before, f"{at}: acting on a clone changed the original"
        report.clone_checks += 1
    if rng.random() < 0.1:
        check_masking(state, rng.randrange(state.players), at)
    if rng.random() < 0.25:
        seat = rng.randrange(state.players)
        n, differing = check_leaks(state, seat, rng)
        report.leak_checks += 1
        report.worlds += n
        report.worlds_differing += differing


def run_conformance(
    game: Game, games: int, *, seed: int = 0, deep_games: int = 0
) -> ConformanceReport:
    """``games`` fast playouts (seeds ``seed..``) and ``deep_games`` deep ones."""
    report = ConformanceReport()
    for i in range(games):
        _, r = playout(game, seed + i)
        report.merge(r)
    for i in range(deep_games):
        _, r = playout(game, seed + games + i, deep=True)
        report.merge(r)
    return report
