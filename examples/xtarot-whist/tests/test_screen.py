"""The terminal screen: fits 80 columns in English and Japanese, shows whist's state."""

from __future__ import annotations

import random
from typing import Any

import pytest
import xtarot
from rich.console import Console, RenderableType
from xtarot.cli.render import UIS, ui_for
from xtarot.engine import State

from xtarot_whist.screen import WhistUI

TITLES = {"en": "Whist", "ja": "ホイスト"}


def show(*items: RenderableType) -> list[str]:
    console = Console(width=80, color_system=None, legacy_windows=False)
    with console.capture() as cap:
        for item in items:
            console.print(item)
    return cap.get().splitlines()


def midway(seed: int, moves: int) -> State:
    state = xtarot.load("whist").new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def width(line: str) -> int:
    return sum(2 if ord(ch) > 0x2E7F else 1 for ch in line.rstrip())


def test_xtarot_uses_the_plugin_screen() -> None:
    assert isinstance(UIS["whist"], WhistUI)
    assert isinstance(ui_for("whist"), WhistUI)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_board_fits_80_columns(lang: str) -> None:
    ui = WhistUI()
    state = midway(7, 22)  # two cards of the sixth trick are on the table
    seat = state.current_player
    assert seat is not None
    view: dict[str, Any] = state.view(seat)
    lines = show(ui.view(view, lang, TITLES[lang]), ui.menu(view, view["legal_actions"], lang))
    assert max(width(line) for line in lines) <= 80
    assert len(lines) <= 24
    text = "\n".join(lines)
    assert view["trump_card"] in text
    assert ("trump" in text) if lang == "en" else ("切り札" in text)
    for code in view["hand"]:
        assert code in text
    led = view["trick"]["cards"][0][1]
    assert led in text
    if lang == "en":
        assert "winning:" in text and "[dealer]" in text


def test_whole_match_announces_tricks_hands_and_the_result() -> None:
    ui = WhistUI()
    state = xtarot.load("whist", hands=2).new_state(seed=5)
    rng = random.Random(1)
    lines: list[str] = []
    while not state.is_terminal:
        before = state.view(0)
        actor = state.current_player
        assert actor is not None
        action = rng.choice(state.legal_actions())
        seen = state.action_seen_by(action, 0)
        state.apply(action)
        after = state.view(0)
        lines += show(*ui.announce(before, after, actor, "en", seen=seen))
        if after["hand_number"] != before["hand_number"] and not state.is_terminal:
            lines += show(*ui.hand_end(before, after, "en"), *ui.opening(after, "en"))
    final = state.view(0)
    lines += show(*ui.final(final, final["scores"], "ja"))
    text = "\n".join(lines)
    assert text.count("wins the trick") == 13 * len(final["scores"]["detail"]["hands"])
    assert "Hand 1: side" in text
    assert "勝" in text  # the winners line, in Japanese
    assert max(width(line) for line in lines) <= 80
