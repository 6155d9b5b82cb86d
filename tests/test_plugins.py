"""Plugins: games and their companions from other installed packages (issue #19).

A throwaway distribution is written to a temporary folder (a package plus a
``.dist-info`` with ``entry_points.txt``, exactly what ``pip install`` leaves) and
put on ``sys.path``, so ``importlib.metadata`` finds it like any installed plugin.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.agents import AGENTS, make_agent, play_match
from xtarot.agents.heuristic import STRATEGIES
from xtarot.cli.main import app
from xtarot.cli.render import UIS, ui_for
from xtarot.engine import ConfigError, plugins
from xtarot.engine.registry import rules_markdown
from xtarot.testing import check_agent, check_game, conformance_tests

BUILT_IN = ["arcana-duel", "extendori", "fairy500", "grail-mahjong", "matto", "sono-arcana"]

PACKAGE = """
from dataclasses import replace

from xtarot.agents.heuristic.sono_arcana import SonoArcanaHeuristic
from xtarot.cli.render import GameUI
from xtarot.games.sono_arcana import SonoArcana


class Mini(SonoArcana):
    '''Sono-arcana under another id: a complete game that is not built in.'''

    info = replace(SonoArcana.info, id="mini-arcana", name_en="Mini Arcana", name_ja="ミニ")


class Wrong:
    pass


class MiniUI(GameUI):
    pass


def heuristic(seed):
    return SonoArcanaHeuristic(seed)


def patient(seed=None, **settings):
    from xtarot.agents import RandomAgent

    return RandomAgent(seed)
"""

ENTRY_POINTS = """
[xtarot.games]
mini-arcana = mini_plugin:Mini
broken = mini_plugin_missing:Game
wrong = mini_plugin:Wrong
misnamed = mini_plugin:Mini
[xtarot.heuristics]
mini-arcana = mini_plugin:heuristic
[xtarot.agents]
patient = mini_plugin:patient
random = mini_plugin:patient
[xtarot.screens]
mini-arcana = mini_plugin:MiniUI
[xtarot.layouts]
mini-arcana = mini_plugin.web
sono-arcana = mini_plugin.web
[xtarot.rules]
mini-arcana = mini_plugin.rules
"""


def write_plugin(root: Path) -> None:
    pkg = root / "mini_plugin"
    (pkg / "web").mkdir(parents=True)
    (pkg / "rules").mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(PACKAGE), encoding="utf-8")
    (pkg / "web" / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "web" / "mini-arcana.js").write_text(
        'XLayouts.register("mini-arcana", {});\n', encoding="utf-8"
    )
    (pkg / "web" / "mini-arcana.css").write_text(".mini { color: red; }\n", encoding="utf-8")
    (pkg / "rules" / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "rules" / "mini-arcana.en.md").write_text("# Mini Arcana\n\nLike <b>x</b>.\n")
    (pkg / "rules" / "mini-arcana.ja.md").write_text("# ミニ\n\n説明。\n", encoding="utf-8")
    info = root / "mini_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mini-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)


def _forget() -> None:
    for name in [m for m in sys.modules if m.startswith("mini_plugin")]:
        del sys.modules[name]
    plugins.reset()
    try:
        from xtarot.server import app as server_app
    except ImportError:
        return
    server_app.plugin_layouts.cache_clear()
    server_app.table_html.cache_clear()
    server_app.replay_html.cache_clear()
    server_app.rules_html.cache_clear()


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    write_plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    _forget()
    yield tmp_path
    monkeypatch.undo()
    importlib.invalidate_caches()
    _forget()


def problem_names() -> dict[tuple[str, str], str]:
    return {(p.group, p.name): p.error for p in plugins.problems()}


def test_a_plugin_game_is_listed_loaded_and_replayed(plugin: Path) -> None:
    ids = [g.id for g in xtarot.games()]
    assert ids[:6] == BUILT_IN and "mini-arcana" in ids  # built-ins first
    game = xtarot.load("mini-arcana", players=3)
    state = play_match(game, [make_agent("heuristic", s) for s in range(3)], seed=4)
    assert state.is_terminal
    again = xtarot.replay(json.loads(json.dumps(state.record())))
    assert again.snapshot() == state.snapshot() and again.game.id == "mini-arcana"


def test_broken_plugins_are_reported_and_the_others_still_load(plugin: Path) -> None:
    ids = [g.id for g in xtarot.games()]
    assert "mini-arcana" in ids and not {"broken", "wrong", "misnamed"} & set(ids)
    problems = problem_names()
    assert "ModuleNotFoundError" in problems[("xtarot.games", "broken")]
    assert "mini_plugin_missing" in problems[("xtarot.games", "broken")]
    assert "subclass of xtarot.engine.Game" in problems[("xtarot.games", "wrong")]
    assert "'misnamed' but the game's id is 'mini-arcana'" in problems[("xtarot.games", "misnamed")]
    # a plugin cannot take a built-in bot's name
    assert AGENTS["random"].__name__ == "RandomAgent"
    assert "already taken" in problem_names()[("xtarot.agents", "random")]
    text = str(next(p for p in plugins.problems() if p.name == "broken"))
    assert "mini-plugin" in text and "xtarot.games" in text
    with pytest.raises(ConfigError, match=r"unknown game 'broken'.*mini-arcana"):
        xtarot.load("broken")


def test_plugin_bots_heuristics_and_screens_are_picked_up(plugin: Path) -> None:
    assert "patient" in AGENTS and "mini-arcana" in STRATEGIES
    game = xtarot.load("mini-arcana", players=4)
    report = check_agent(game, "heuristic", 2, seed=3)
    assert report.decisions > 0 and report.explanations == report.decisions
    assert check_agent(game, "patient", 1).decisions > 0
    assert "mini-arcana" in UIS and type(ui_for("mini-arcana")).__name__ == "MiniUI"


def test_rules_texts_come_from_the_plugin(plugin: Path) -> None:
    assert rules_markdown("mini-arcana", "ja") == ("ja", "# ミニ\n\n説明。\n")
    lang, text = rules_markdown("mini-arcana", "fr") or ("", "")
    assert lang == "en" and text.startswith("# Mini Arcana")
    result = CliRunner().invoke(app, ["rules", "mini-arcana", "--lang", "en"])
    assert result.exit_code == 0 and "Mini Arcana" in result.output


def test_check_game_and_the_pytest_helper_run_the_kit_on_a_plugin(plugin: Path) -> None:
    results = check_game("mini-arcana", players=4, games=6, agents=("random", "heuristic"))
    assert [r.config for r in results] == [{"players": 4}, {"players": 4, "teams": True}]
    assert results[0].report.games >= 6 and results[0].report.leak_checks > 0
    assert [a.agent for a in results[0].agents] == ["random", "heuristic"]
    test = conformance_tests("mini-arcana", games=4, agents=())
    marks = [m for m in test.pytestmark if m.name == "parametrize"]
    cases = marks[0].args[1]
    assert [c.id for c in cases] == ["players=3", "players=4", "players=5", "players=4-teams=True"]
    test(cases[0].values[0])  # runs one configuration for real


def test_check_game_fails_on_a_leaking_game(plugin: Path) -> None:
    """The kit is not a rubber stamp: a sampler that returns the true state fails."""
    from xtarot.games.sono_arcana import SonoArcana

    mini = xtarot.engine.registry.game_class("mini-arcana")
    assert issubclass(mini, SonoArcana)
    state_class = type(mini(3).new_state(seed=1))

    def honest_world(self: Any, seat: int, rng: Any) -> Any:
        return self.clone()

    original = state_class.sample_world
    state_class.sample_world = honest_world  # type: ignore[method-assign]
    try:
        with pytest.raises(AssertionError, match="true hidden cards"):
            check_game("mini-arcana", players=3, games=4, agents=())
    finally:
        state_class.sample_world = original  # type: ignore[method-assign]


def test_cli_check_and_plugins_commands(plugin: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["check", "mini-arcana", "-p", "3", "--games", "4"])
    assert result.exit_code == 0, result.output
    assert "mini-arcana[players=3" in result.output and "Passed" in result.output
    assert "web layout: mini-arcana.js + css" in result.output
    assert "rules texts: en, ja" in result.output
    result = runner.invoke(app, ["check", "nope"])
    assert result.exit_code == 2 and "mini-arcana" in result.output
    result = runner.invoke(app, ["check", "mini-arcana", "-p", "9"])
    assert result.exit_code == 2 and "3" in result.output
    result = runner.invoke(app, ["plugins", "--json"])
    rows = json.loads(result.output)
    status = {(r["group"], r["name"]): r["status"] for r in rows}
    assert status[("xtarot.games", "mini-arcana")] == "ok"
    assert "ModuleNotFoundError" in status[("xtarot.games", "broken")]
    assert "built-in game keeps its own layout" in status[("xtarot.layouts", "sono-arcana")]
    result = runner.invoke(app, ["plugins", "--lang", "ja"])
    assert result.exit_code == 0 and "mini-plugin" in result.output


def test_the_web_server_serves_plugin_layouts(plugin: Path, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from xtarot.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0)) as client:
        games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
        assert games["mini-arcana"]["default_bot"] == "normal"
        assert "heuristic" in games["mini-arcana"]["bots"]  # its heuristic came with it
        page = client.get("/table").text
        assert '<script src="layouts/mini-arcana.js" data-layout="mini-arcana"></script>' in page
        assert '<link rel="stylesheet" href="layouts/mini-arcana.css">' in page
        assert page.index("layouts/mini-arcana.js") < page.index("static/table.js")
        replay = client.get("/replay").text  # the replay page draws with the same layouts
        assert '<script src="layouts/mini-arcana.js" data-layout="mini-arcana"></script>' in replay
        assert replay.index("layouts/mini-arcana.js") < replay.index("static/replay.js")
        js = client.get("/layouts/mini-arcana.js")
        assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
        assert client.get("/layouts/mini-arcana.css").text.startswith(".mini")
        assert client.get("/layouts/sono-arcana.js").status_code == 404
        assert client.get("/layouts/..%2Fsecret.js").status_code == 404
        rules = client.get("/api/games/mini-arcana/rules?lang=en").json()
        assert "&lt;b&gt;" in rules["html"]  # raw HTML in a plugin's rules is escaped
        made = client.post(
            "/api/tables",
            json={"game": "mini-arcana", "players": 3, "seats": ["human", "heuristic", "random"]},
        )
        assert made.status_code == 201, made.text


def test_without_plugins_nothing_changes() -> None:
    _forget()
    ids = [g.id for g in xtarot.games()]  # other installed plugins may follow
    assert ids[:6] == BUILT_IN and "mini-arcana" not in ids
    assert "mini-arcana" not in STRATEGIES and "patient" not in AGENTS


def test_an_installed_plugin_works_from_the_command_line(plugin: Path) -> None:
    """A fresh process finds the plugin through its entry points alone."""
    out = subprocess.run(
        [sys.executable, "-m", "xtarot.cli.main", "games", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(plugin)},
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "mini-arcana" in [g["id"] for g in json.loads(out.stdout)]
    assert "plugin 'broken' in xtarot.games (package mini-plugin)" in out.stderr


def test_the_documented_building_blocks_are_exactly_the_stable_api() -> None:
    """docs/plugins.md's table and ``xtarot.games.blocks.__all__`` name the same things."""
    import re

    from xtarot.games import blocks

    doc = (Path(__file__).parent.parent / "docs" / "plugins.md").read_text(encoding="utf-8")
    section, others = doc.split("## Building blocks", 1)[1].split("The other parts", 1)
    table = [line for line in section.splitlines() if line.startswith("| ") and "`" in line]
    documented = {name for line in table for name in re.findall(r"`(\w+)`", line)}
    assert documented == set(blocks.__all__)
    for name in blocks.__all__:
        assert getattr(blocks, name) is not None
    rows = [
        line.split("|") for line in others.splitlines() if line.startswith("| ") and "`" in line
    ]
    assert len(rows) >= 6
    for row in rows:  # | for | `module` | `name`, ... |
        module = importlib.import_module(re.findall(r"`([\w.]+)`", row[2])[0])
        for name in re.findall(r"`(\w+)`", row[3]):
            assert hasattr(module, name), f"{module.__name__} has no {name}"
    hands = blocks.deal_in_turn(list(range(10)), [1, 0], per_seat=4)
    assert hands == [[1, 3, 5, 7], [0, 2, 4, 6]]
    with pytest.raises(ValueError, match="cannot give 2 seats 6 each"):
        blocks.deal_in_turn(list(range(10)), [0, 1], per_seat=6)
