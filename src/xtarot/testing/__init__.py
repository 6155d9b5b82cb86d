"""The conformance kit: checks every registered game must pass.

The test suite runs it for every game, every player count and every main option
(``tests/test_conformance.py``); a new game gets these checks for free by being
registered.  Every failure message names the configuration and seed, so a bug
found by a random playout is reproduced with ``replay_failure(...)`` or simply by
re-running :func:`playout` with the printed arguments.

A game from a plugin package is checked the same way: ``xtarot check GAME`` on the
command line, :func:`check_game` from Python, or :func:`conformance_tests` in the
plugin's own pytest suite.  :func:`check_agent` runs a bot's ``act()`` and
``explain()`` on every decision of random games (it must pick a legal action and
explain it in English and Japanese, never raise).

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

from xtarot.agents import AGENTS, Agent, decision_for, make_agent
from xtarot.engine import Game, GameInfo, IllegalAction, State, load
from xtarot.record import replay

__all__ = [
    "AgentReport",
    "CheckResult",
    "ConformanceReport",
    "check_agent",
    "check_game",
    "check_leaks",
    "check_masking",
    "check_state",
    "configurations",
    "conformance_tests",
    "moves_digest",
    "playout",
    "run_conformance",
]


def moves_digest(
    game: str,
    players: int,
    seeds: tuple[int, ...],
    factory: Any,
    random_seats: tuple[int, ...] = (),
    options: tuple[tuple[str, Any], ...] = (),
) -> str:
    """The first 16 hex digits of SHA-256 over every move a bot makes in these seeded
    matches: ``factory(seed)`` builds one bot a seat (seeded ``10 * match seed + seat``);
    the seats in ``random_seats`` play at random, drawn from the match seed.  Recorded
    once, it proves that a faster version of a bot still makes every move it made.

    >>> from xtarot.agents import RandomAgent
    >>> a = moves_digest("matto", 3, (1,), RandomAgent)
    >>> a == moves_digest("matto", 3, (1,), RandomAgent), len(a)
    (True, 16)
    """
    import hashlib

    digest = hashlib.sha256()
    for seed in seeds:
        state = load(game, players=players, **dict(options)).new_state(seed=seed)
        bots = [factory(10 * seed + s) for s in range(players)]
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            if seat in random_seats:
                action = rng.choice(state.legal_actions())
            else:
                peek = bool(getattr(bots[seat], "reads_view_only", False))
                action = bots[seat].act(decision_for(state, peek=peek))
                digest.update(f"{seat} {action.text}\n".encode())
            state.apply(action)
    return digest.hexdigest()[:16]


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


# -- agents ---------------------------------------------------------------------------------
@dataclass
class AgentReport:
    """What :func:`check_agent` saw: decisions asked, explanations read."""

    agent: str
    games: int = 0
    decisions: int = 0
    explanations: int = 0


#: Small budgets for the search bots when they are only checked for robustness.
QUICK_SETTINGS: dict[str, dict[str, Any]] = {
    "ismcts": {"iterations": 8},
    "pimc": {"worlds": 3},
    "expert": {"iterations": 4, "max_candidates": 3, "depth": 4},
    "hard": {"iterations": 4, "max_candidates": 3, "depth": 4},
}


def check_agent(
    game: Game,
    agent: str | Agent,
    games: int,
    *,
    seed: int = 0,
    settings: dict[str, Any] | None = None,
) -> AgentReport:
    """Ask ``agent`` for a move at every decision of ``games`` random playouts.

    The playouts go on with random moves (so the bot meets the positions random
    play reaches, not only its own); at each decision the bot must return one of
    the legal actions and ``explain()`` must give an :class:`Explanation` with
    non-empty English and Japanese texts (or ``None``).  Failures name the game,
    seed and step.  A name is built with ``make_agent`` (search bots on a small
    budget, :data:`QUICK_SETTINGS`, unless ``settings`` says otherwise).
    """
    if isinstance(agent, str):
        name = agent
        opts = QUICK_SETTINGS.get(name, {}) if settings is None else settings
        bot: Agent = make_agent(name, seed, **opts)
    else:
        bot, name = agent, getattr(agent, "name", type(agent).__name__)
    report = AgentReport(name)
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_state(seed=seed + g)
        step = 0
        while not state.is_terminal:
            where = f"{label(game)} seed={seed + g} step={step} agent={name}"
            decision = decision_for(state)
            try:
                chosen = bot.act(decision)
                explanation = bot.explain()
            except Exception as exc:
                raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
            legal_ids = {a.id for a in decision.legal}
            if getattr(chosen, "id", None) not in legal_ids:
                raise AssertionError(f"{where}: chose {chosen!r}, which is not a legal action")
            if explanation is not None:
                for lang in ("en", "ja"):
                    text = explanation.text(lang)
                    if not isinstance(text, str) or not text.strip():
                        raise AssertionError(f"{where}: empty {lang} explanation")
                report.explanations += 1
            report.decisions += 1
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            step += 1
        report.games += 1
    return report


# -- a whole game ---------------------------------------------------------------------------
@dataclass
class CheckResult:
    """One configuration checked by :func:`check_game`."""

    config: dict[str, Any]
    label: str
    report: ConformanceReport
    agents: list[AgentReport] = field(default_factory=list)


def check_game(
    game_id: str,
    *,
    players: int | None = None,
    config: dict[str, Any] | None = None,
    games: int = 200,
    deep_games: int | None = None,
    seed: int = 1000,
    agents: tuple[str, ...] | None = None,
    agent_games: int = 3,
    progress: Any = None,
) -> list[CheckResult]:
    """The whole kit for one registered game: every configuration, or those of one
    player count, or one ``config`` (``{"players": n, **options}``).

    Per configuration: ``games`` fast playouts (one hand per match when the game's
    ``bulk_options`` say so) and whole matches, ``deep_games`` deep ones (default
    ``games // 10``, at least 2) with the leak test, masking, illegal input and
    clones, and :func:`check_agent` for ``agents`` (default: every bot name that
    can play the game, search bots on a small budget).  Raises ``AssertionError``
    at the first failure with the configuration and seed; ``progress(label)`` is
    called before each configuration.
    """
    info = next((i for i in _games() if i.id == game_id), None)
    if info is None:
        load(game_id)  # raises ConfigError naming the known games
        raise AssertionError(game_id)  # pragma: no cover
    configs = configurations(info)
    if players is not None:
        if players not in info.players:
            load(game_id, players=players)  # the game's own error names the counts
        configs = [c for c in configs if c["players"] == players]
    if config is not None:
        configs = [c for c in configs if c == config] or [config]
    deep = max(2, games // 10) if deep_games is None else deep_games
    if agents is None:
        agents = tuple(_agents_for(game_id))
    out: list[CheckResult] = []
    for cfg in configs:
        game = load(game_id, **cfg)
        bulk = {k: v for k, v in game.info.bulk_options if k not in cfg}
        quick = load(game_id, **cfg, **bulk) if bulk else game
        if progress is not None:
            progress(label(game))
        many = games if set(cfg) == {"players"} else max(1, games // 4)
        report = run_conformance(quick, many, seed=seed, deep_games=deep)
        if bulk:
            report.merge(run_conformance(game, max(1, many // 20), seed=seed + 50_000))
        if report.leak_checks == 0 and deep > 0:
            report.merge(run_conformance(quick, 0, seed=seed + 90_000, deep_games=deep))
        assert deep == 0 or report.leak_checks > 0, f"{label(game)}: no leak test ran"
        if deep and report.worlds and report.worlds_differing <= report.worlds // 2:
            raise AssertionError(
                f"{label(game)}: sample_world returned the true hidden cards in "
                f"{report.worlds - report.worlds_differing} of {report.worlds} worlds; it must "
                "draw the cards the seat cannot see at random"
            )
        result = CheckResult(cfg, label(game), report)
        if set(cfg) == {"players"}:  # agents once per player count
            for name in agents:
                result.agents.append(check_agent(quick, name, agent_games, seed=seed))
        out.append(result)
    return out


def _games() -> list[GameInfo]:
    from xtarot.engine import games

    return games()


def _agents_for(game_id: str) -> list[str]:
    from xtarot.agents.heuristic import STRATEGIES

    return [n for n in AGENTS if n != "heuristic" or game_id in STRATEGIES]


def conformance_tests(
    game_id: str,
    *,
    games: int = 200,
    deep_games: int | None = None,
    seed: int = 1000,
    agents: tuple[str, ...] | None = None,
) -> Any:
    """A pytest test function running :func:`check_game` once per configuration.

    In a plugin's test suite::

        from xtarot.testing import conformance_tests

        test_conformance = conformance_tests("whist", games=200)

    Each player count and option value becomes its own test case (``-k`` selects).
    """
    import pytest

    info = next((i for i in _games() if i.id == game_id), None)
    if info is None:
        load(game_id)  # raises ConfigError naming the registered games
    assert info is not None
    cases = [
        pytest.param(cfg, id="-".join(f"{k}={v}" for k, v in cfg.items()))
        for cfg in configurations(info)
    ]

    @pytest.mark.parametrize("cfg", cases)
    def test_conformance(cfg: dict[str, Any]) -> None:
        (result,) = check_game(
            game_id, config=cfg, games=games, deep_games=deep_games, seed=seed, agents=agents
        )
        assert result.report.games > 0

    test_conformance.__name__ = f"test_conformance_{game_id.replace('-', '_')}"
    return test_conformance
