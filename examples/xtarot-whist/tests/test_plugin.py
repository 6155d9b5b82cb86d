"""The package as a plugin: its entry points, what xtarot finds through them, the data
files it ships."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata, resources

import xtarot
from xtarot.engine.registry import rules_markdown

from xtarot_whist.game import Whist

GROUPS = {
    "xtarot.games": "xtarot_whist.game:Whist",
    "xtarot.heuristics": "xtarot_whist.heuristic:WhistHeuristic",
    "xtarot.screens": "xtarot_whist.screen:WhistUI",
    "xtarot.layouts": "xtarot_whist.web",
    "xtarot.rules": "xtarot_whist.rules",
    "xtarot.tensors": "xtarot_whist.tensors:fields",
}


def test_entry_points_are_declared() -> None:
    for group, value in GROUPS.items():
        (ep,) = [e for e in metadata.entry_points(group=group) if e.name == "whist"]
        assert ep.value == value
        assert ep.load() is not None


def test_a_fresh_interpreter_finds_the_game() -> None:
    """Nothing imports the plugin by hand: xtarot discovers it on its own."""
    code = (
        "import xtarot\n"
        "ids = [g.id for g in xtarot.games()]\n"
        "game = xtarot.load('whist')\n"
        "print(ids.index('whist') >= 6, type(game).__module__, game.players)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "xtarot_whist.game", "4"]


def test_load_and_games_list() -> None:
    info = next(i for i in xtarot.games() if i.id == "whist")
    assert (info.name_en, info.name_ja, info.min_players, info.max_players) == (
        "Whist", "ホイスト", 4, 4,
    )  # fmt: skip
    assert isinstance(xtarot.load("whist"), Whist)


def test_rules_texts_ship_in_both_languages() -> None:
    for lang, word in (("en", "trump"), ("ja", "切り札")):
        found = rules_markdown("whist", lang)
        assert found is not None and found[0] == lang and word in found[1]


def test_web_layout_files_ship() -> None:
    web = resources.files("xtarot_whist.web")
    script = web.joinpath("whist.js").read_text(encoding="utf-8")
    assert "XLayouts.register(WH, {" in script and 'const WH = "whist"' in script
    assert web.joinpath("whist.css").is_file()
