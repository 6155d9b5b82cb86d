"""The compiled modules (``setup.py``, Cython; :mod:`xtarot._compiled`) against their
``.py`` sources.

Two fresh processes play the same games, one as installed (compiled where the install
could) and one with ``XTAROT_PURE_PYTHON=1``: the adapters' matches through the
PettingZoo environment and the OpenSpiel game (every observation tensor, mask, reward and
OpenSpiel tensor hashed), and heuristic play-outs of every game at every player count
(the engine, game and heuristic modules of :data:`~xtarot._compiled.PLAYOUTS`: every
move, peeked view and explanation hashed), and ``expert``'s moves at a fixed number of
play-outs on positions of every game; the two digests must be equal bit for bit.
With ``XTAROT_REQUIRE_COMPILED=1`` (set by ``.ci/run`` where a compiler is at hand) the
installed side must really be compiled, every module of the list (``PLAYOUTS`` too when
``XTAROT_COMPILE_PLAYOUTS=1`` says the install compiled them: CI's built wheel), so the
comparison cannot pass by comparing the sources with themselves.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from xtarot._compiled import MODULES, PLAYOUTS

# every game at its smallest table, three matches each (whole matches: every hand, every
# block of the incremental tensors changing), actions drawn from the mask
ADAPTERS = r"""
import hashlib, json, random, sys
import numpy as np
import pyspiel
import xtarot
from xtarot._compiled import compiled
from xtarot.adapters.openspiel import short_name
from xtarot.adapters.pettingzoo import env

out = {"compiled": compiled(), "digests": {}}
for info in xtarot.games():
    if info.id == "whist":  # the example plugin, when installed, is not compiled
        continue
    h = hashlib.sha256()
    e = env(info.id, players=info.min_players)
    for seed in range(3):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter(max_iter=4000):
            obs, reward, term, trunc, _ = e.last()
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            h.update(repr((agent, reward, term, trunc)).encode())
            other = e.observe(e.possible_agents[(e._seat[agent] + 1) % len(e.possible_agents)])
            h.update(other["observation"].tobytes())
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
    game = pyspiel.load_game(short_name(info.id), {"players": info.min_players})
    state = game.new_initial_state()
    rng = random.Random(7)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
            continue
        seat = state.current_player()
        h.update(np.asarray(state.information_state_tensor(seat), np.float32).tobytes())
        h.update(np.asarray(state.observation_tensor(seat), np.float32).tobytes())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    h.update(repr(state.returns()).encode())
    out["digests"][info.id] = h.hexdigest()
print(json.dumps(out))
"""

# heuristic play-outs of every game at every player count, single hands, views peeked
# as in the lab: every view, move and explanation (the compiled engine, games and
# heuristics); the package alone, no adapter framework
HEURISTIC = r"""
import hashlib, json
import xtarot
from xtarot._compiled import compiled
from xtarot.agents import Decision
from xtarot.agents.heuristic import HeuristicAgent

out = {"compiled": compiled(), "digests": {}}
for info in xtarot.games():
    if info.id == "whist":  # the example plugin, when installed, is not compiled
        continue
    h = hashlib.sha256()
    for players in info.players:
        game = xtarot.load(info.id, players=players, **dict(info.bulk_options))
        for seed in range(4):
            state = game.new_state(seed=seed)
            bots = [HeuristicAgent(seed) for _ in range(players)]
            while not state.is_terminal:
                seat = state.current_player
                view = state.peek_view(seat)
                h.update(json.dumps(view, sort_keys=True).encode())
                bot = bots[seat]
                action = bot.act(Decision(seat, view, state.legal_actions(), None))
                h.update(repr((action, bot.explain())).encode())
                state.apply(action)
            h.update(repr(state.scores()).encode())
    out["digests"][info.id] = h.hexdigest()
print(json.dumps(out))
"""


#: The expert at a fixed number of play-outs (issue #40: the same moves compiled and
#: pure): on positions of heuristic matches of every game at its usual player count, its
#: move, its explanation (each candidate's visits, share and mean value) and the
#: play-outs it made, hashed.  Its play-outs run through the compiled states and
#: heuristics, its worlds through the compiled ``sample_world``.
EXPERT = r"""
import hashlib, json
import xtarot
from xtarot._compiled import compiled
from xtarot.agents import ExpertAgent, decision_for
from xtarot.agents.heuristic import HeuristicAgent

USUAL = {"arcana-duel": 2, "extendori": 4, "fairy500": 4, "grail-mahjong": 3,
         "matto": 4, "sono-arcana": 4}
out = {"compiled": compiled(), "digests": {}}
for gid, players in USUAL.items():
    info = next(i for i in xtarot.games() if i.id == gid)
    game = xtarot.load(gid, players=players, **dict(info.bulk_options))
    h = hashlib.sha256()
    for seed in range(2):
        state = game.new_state(seed=seed)
        bots = [HeuristicAgent(seed) for _ in range(players)]
        choices = 0
        while not state.is_terminal and choices < 12:
            decision = decision_for(state)
            if len(decision.legal) > 1:
                if choices % 6 == seed:  # two positions a match, early and later
                    expert = ExpertAgent(seed=seed * 100 + choices, iterations=24)
                    move = expert.act(decision)
                    h.update(repr((move, expert.explain(), expert.last_iterations)).encode())
                choices += 1
            state.apply(bots[decision.seat].act(decision))
    out["digests"][gid] = h.hexdigest()
print(json.dumps(out))
"""


def _play(script: str, pure: bool) -> dict[str, Any]:
    env = dict(os.environ)
    env["XTAROT_PURE_PYTHON"] = "1" if pure else ""
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def _required(names: tuple[str, ...], installed: list[str]) -> None:
    missing = sorted(set(names) - set(installed))
    assert not missing, f"the install did not compile {missing}"


def _switch(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def test_compiled_and_pure_adapters_agree_bit_for_bit() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    pure = _play(ADAPTERS, pure=True)
    installed = _play(ADAPTERS, pure=False)
    assert pure["compiled"] == []  # the switch loads every module from its source
    if _switch("XTAROT_REQUIRE_COMPILED"):
        _required(MODULES, installed["compiled"])
    assert len(pure["digests"]) >= 6
    assert installed["digests"] == pure["digests"]


def _play_both_on_the_playouts_path(script: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``script`` pure and as installed, where the play-outs' path (``PLAYOUTS``) is
    compiled: every module of it when the install says so (CI's wheel), else skipped
    when none is (nothing to compare)."""
    pure = _play(script, pure=True)
    installed = _play(script, pure=False)
    assert pure["compiled"] == []
    if _switch("XTAROT_REQUIRE_COMPILED") and _switch("XTAROT_COMPILE_PLAYOUTS"):
        _required(PLAYOUTS, installed["compiled"])
    elif not set(PLAYOUTS) & set(installed["compiled"]):
        pytest.skip("no module of the play-outs' path is compiled here: nothing to compare")
    return pure, installed


def test_compiled_and_pure_heuristic_playouts_agree_bit_for_bit() -> None:
    pure, installed = _play_both_on_the_playouts_path(HEURISTIC)
    assert len(pure["digests"]) >= 6
    assert installed["digests"] == pure["digests"]


def test_compiled_and_pure_expert_moves_agree_bit_for_bit() -> None:
    """``expert`` at the same number of play-outs chooses the same moves, for the same
    reasons and figures, compiled and pure (the play-outs' path compiled)."""
    pure, installed = _play_both_on_the_playouts_path(EXPERT)
    assert len(pure["digests"]) == 6
    assert installed["digests"] == pure["digests"]


def test_the_pure_switch_loads_sources_only() -> None:
    code = (
        "import xtarot.adapters.incremental as m, xtarot.adapters.direct as d, xtarot._pure as p\n"
        "print(m.__file__, d.__file__, any(isinstance(f, p.SourceFinder) for f in "
        "__import__('sys').meta_path))"
    )
    env = {**os.environ, "XTAROT_PURE_PYTHON": "1"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    first, second, installed = proc.stdout.split()
    assert first.endswith("incremental.py") and second.endswith("direct.py")
    assert installed == "True"
    env["XTAROT_PURE_PYTHON"] = "0"  # 0 or empty: as installed
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    assert proc.stdout.split()[2] == "False"


def _setup_function(name: str) -> Any:
    """A function of ``setup.py``, read from its source (importing it would build)."""
    source = Path(__file__).resolve().parents[1] / "setup.py"
    if not source.is_file():
        pytest.skip("no source tree beside the tests")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    space: dict[str, Any] = {}
    exec(compile(ast.Module([node], []), str(source), "exec"), space)
    return space[name]


@pytest.mark.parametrize(
    ("commands", "asked", "compiles"),
    [
        (["bdist_wheel", "--dist-dir", "x"], "", True),  # pip install ., python -m build
        (["editable_wheel", "--dist-dir", "x"], "", False),  # pip install -e .
        (["build_ext", "--inplace"], "", False),
        (["bdist_wheel"], "0", False),  # asked not to
        (["editable_wheel"], "1", True),  # asked to
        (["build_ext", "--inplace"], "1", True),
        (["bdist_wheel"], "auto", True),
    ],
)
def test_a_wheel_to_install_compiles_the_playouts_path(
    commands: list[str], asked: str, compiles: bool
) -> None:
    assert _setup_function("compile_playouts")(commands, asked) is compiles
