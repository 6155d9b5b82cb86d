"""The full-screen terminal app (``xtarot play`` / ``xtarot replay`` on a terminal),
driven headless by Textual's pilot.

Every game is played through a whole hand (a whole match where the game has no
shorter option) in both languages at 80×24, against random bots: at every decision
the header, the hand, the table (its first lines: the current trick / lot / field)
and the input must be wholly on screen, one below the other, and the moves offered
must be the legal ones.  The other tests click a move and a card, take a move back,
ask for a hint, open and close the rules, save, resize, quit, and step a replay
forwards and backwards.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual import events

pytest.importorskip("textual")

import itertools

import xtarot
from xtarot.cli.i18n import t
from xtarot.cli.main import full_screen
from xtarot.cli.play import EXIT_ABANDONED, PlaySession
from xtarot.tui.parts import table_parts
from xtarot.tui.play import AppFront, PlayApp
from xtarot.tui.shot import screen_text
from xtarot.tui.widgets import ConfirmScreen, PagerScreen

INFOS = {info.id: info for info in xtarot.games()}
GAMES = [g for g in ("extendori", "fairy500", "matto", "sono-arcana", "grail-mahjong",
                     "arcana-duel") if g in INFOS]  # fmt: skip
#: The label of the line that shows what is being played for now.
NOW = {
    "extendori": "tr_trick",
    "fairy500": "tr_trick",
    "sono-arcana": "sa_lot",
    "matto": "mt_field",
    "grail-mahjong": "gm_discards",
    "arcana-duel": "ad_field",
}


def session(
    game: str, lang: str, seed: int, tmp_path: Path, players: int | None = None, **kw: Any
) -> PlaySession:
    info = INFOS[game]
    n = players or (2 if info.max_players == 2 else min(4, info.max_players))
    g = xtarot.load(game, players=n, **dict(info.bulk_options))
    bots = {s: "random" for s in range(1, n)}
    console = Console(file=io.StringIO())
    kw.setdefault("save", tmp_path / f"{game}-{lang}.json")
    return PlaySession(console, g, 0, bots, seed, lang, fast=True, front=AppFront(), **kw)


async def settle(app: PlayApp, pilot: Any, timeout: float = 20.0) -> None:
    """Until the match waits for the person (or is over)."""
    end = time.monotonic() + timeout
    while not (app.waiting or app.over is not None):
        if time.monotonic() > end:
            raise AssertionError("the match did not come back to the person")
        await asyncio.sleep(0.003)  # (pilot.pause() would draw the screen each time)
    await pilot.wait_for_scheduled_animations()  # (drawn, without waiting for idle)


def rows_of(app: PlayApp, selector: str, screen: list[str] | None = None) -> list[str]:
    """The rows of the screen a widget takes (whole rows: it spans the width)."""
    region = app.query_one(selector).region
    return (screen or screen_text(app))[region.y : region.bottom]


def wholly_shown(app: PlayApp, selector: str) -> None:
    widget = app.query_one(selector)
    geometry = app.screen.find_widget(widget)
    region = geometry.region
    assert widget.display and region.width > 0 and region.height > 0, selector
    assert geometry.clip.contains_region(region), (selector, region, geometry.clip)
    assert app.screen.region.contains_region(region), (selector, region)


def plain_lines(renderable: Any, width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


def check_board(app: PlayApp, game: str, lang: str) -> None:
    """Header, table (from its first line to the line of what is played for now), hand
    and input wholly on screen, in this order and apart."""
    _width, height = app.size
    for selector in ("#header", "#table", "#hand", "#lower", "#input"):
        wholly_shown(app, selector)
    order = [app.query_one(s).region for s in ("#header", "#table", "#hand", "#lower", "#input")]
    for upper, lower in itertools.pairwise(order):
        assert upper.bottom <= lower.y, (upper, lower)
    assert order[-1].bottom <= height
    screen = screen_text(app)
    assert app.title in rows_of(app, "#header", screen)[0]
    shown = "\n".join(rows_of(app, "#hand", screen))
    assert t("tui_hand", lang, n=len(app.view["hand"])) in shown  # type: ignore[index]
    body = app.query_one("#table-body")
    full = plain_lines(table_parts(app.session.ui, app.view, lang), body.content_region.width)
    full = [line for line in full if line.strip()]
    visible = [row.strip() for row in rows_of(app, "#table", screen)]
    assert full and full[0].strip() in visible  # the table starts at its top
    label = t(NOW[game], lang)
    line = next((x.strip() for x in full if label in x), None)
    if line is not None:  # what is played for now is on screen
        assert line in visible, (line, visible)
    assert app.query_one("#input").region.height == 1
    assert len(app.legal) == len(app.session.state.legal_actions())  # type: ignore[union-attr]


async def until(pilot: Any, test: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.005)
    await pilot.wait_for_scheduled_animations()


async def quit_without_saving(app: PlayApp, pilot: Any) -> None:
    """ctrl+q, and No to "Save the record?" (asked when there is no --save)."""
    await settle(app, pilot)
    await pilot.press("ctrl+q")
    if app.session.save is None:
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
    await until(pilot, lambda: app.return_code is not None)


async def keys(app: PlayApp, *names: str) -> None:
    """Keys as the terminal sends them, and on until the session has the line
    (``pilot.press`` would wait for the whole process to idle after each key, bots
    included)."""
    answered = app.answered
    driver = app._driver
    assert driver is not None
    for name in names:
        event = events.Key(name, name if len(name) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)
    end = time.monotonic() + 20
    while app.answered == answered and app.over is None:
        assert time.monotonic() < end, "the keys were not taken"
        await asyncio.sleep(0.003)


async def play_through(app: PlayApp, pilot: Any, game: str, lang: str, rng: random.Random) -> int:
    """Answer every decision until the match is over; the number of decisions."""
    decisions = 0
    while True:
        await settle(app, pilot)
        if app.over is not None:
            return decisions
        if not app.choosing:  # "Enter for the next hand"
            await keys(app, "enter")
            continue
        decisions += 1
        check_board(app, game, lang)
        n = rng.randrange(len(app.legal))
        if decisions % 3 == 0:  # typed: the first key goes from the list to the input
            await keys(app, *str(n + 1), "enter")
        else:
            app.query_one("#moves").highlighted = n  # type: ignore[attr-defined]
            await keys(app, "enter")


#: Games whose shortest match is long (Arcana Duel: about 130 decisions): by default
#: the app takes over a match random play has brought near its end; the whole match
#: is a slow test.
LONG = {"arcana-duel": 24}


def near_the_end(game: str, moves_left: int, seed: int = 7) -> xtarot.engine.State:
    """A match of ``game`` played at random to ``moves_left`` moves before the end of
    one random course (the app's own course from there differs)."""
    info = INFOS[game]
    g = xtarot.load(game, players=2 if info.max_players == 2 else 4, **dict(info.bulk_options))
    rng = random.Random(seed)
    course = g.new_state(seed=seed)
    while not course.is_terminal:
        course.apply(rng.choice(course.legal_actions()))
    state = g.new_state(seed=seed)
    for action in course.history[: max(0, len(course.history) - moves_left)]:
        state.apply(action.text)
    return state


def whole_hand(game: str, lang: str, tmp_path: Path, state: Any = None) -> None:
    s = session(game, lang, 7, tmp_path, state=state)
    app = PlayApp(s)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            decisions = await play_through(app, pilot, game, lang, random.Random(7))
            assert decisions >= 1
            assert t("game_over", lang) in "\n".join(screen_text(app))
            await pilot.press("enter")  # leaves
        assert app.return_code == 0

    asyncio.run(go())
    record = xtarot.load_record(tmp_path / f"{game}-{lang}.json")
    assert xtarot.replay(record).is_terminal and record["meta"].get("undos", 0) == 0
    if state is not None:  # the match went on from where it was taken over
        assert record["actions"][: len(state.history)] == [a.text for a in state.history]
    # what the terminal keeps after the app: the result and how to play it again
    shown = "\n".join(str(getattr(x, "plain", x)) for x in s.front.epilogue)  # type: ignore[attr-defined]
    assert t("game_over", lang) in shown and t("saved", lang, path="")[:4] in shown


#: Two games play their whole hand in the app by default, one in each language (every
#: screen of both languages is checked by the tests above and by test_tui_replay, and
#: every game's whole match by the plain client in test_terminal, in the wheel stage
#: too); the rest run on demand (``pytest -m slow``).
QUICK_WHOLE_HANDS = {
    ("fairy500", "ja"),
    ("grail-mahjong", "en"),
}
WHOLE_HANDS = [
    pytest.param(game, lang, marks=[] if (game, lang) in QUICK_WHOLE_HANDS else [pytest.mark.slow])
    for game in GAMES
    for lang in ("en", "ja")
]


@pytest.mark.parametrize(("game", "lang"), WHOLE_HANDS)
def test_a_whole_hand_at_80x24(game: str, lang: str, tmp_path: Path) -> None:
    state = near_the_end(game, LONG[game]) if game in LONG else None
    whole_hand(game, lang, tmp_path, state)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", sorted(LONG))
def test_a_whole_long_match_at_80x24(game: str, lang: str, tmp_path: Path) -> None:
    whole_hand(game, lang, tmp_path)


def _first_decision(game: str, lang: str, tmp_path: Path, seed: int = 3, **kw: Any) -> PlayApp:
    return PlayApp(session(game, lang, seed, tmp_path, **kw))


def test_click_a_move_and_a_card(tmp_path: Path) -> None:
    app = _first_decision("sono-arcana", "en", tmp_path, save=None)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            state = app.session.state
            assert state is not None
            before, legal = len(state.history), list(app.legal)
            moves = app.query_one("#moves")
            await pilot.click("#moves", offset=(4, 1))  # the first move (under the title)
            await settle(app, pilot)
            mine = [a.text for i, a in enumerate(state.history) if app.session.actors[i] == 0]
            assert len(state.history) > before and mine[-1] == legal[0].text
            assert moves.border_title.startswith(t("legal_moves", "en"))
            # a card of the hand: the move that plays it
            code = app.legal[-1].text.split()[-1]
            hand = app.query_one("#hand").region
            y, row = next(
                (y, row)
                for y, row in enumerate(rows_of(app, "#hand"))
                if re.search(rf"(?<!\S){code}(?!\S)", row)
            )
            x = re.search(rf"(?<!\S){code}(?!\S)", row).start()  # type: ignore[union-attr]
            await pilot.click(offset=(x + 1, hand.y + y))
            await settle(app, pilot)
            mine = [a.text for i, a in enumerate(state.history) if app.session.actors[i] == 0]
            assert mine[-1].endswith(code)
            await quit_without_saving(app, pilot)  # do not save
        assert app.return_code == EXIT_ABANDONED

    asyncio.run(go())


def test_undo_hint_rules_help_and_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XTAROT_HINT_SECONDS", "0.05")
    path = tmp_path / "mid.json"
    app = _first_decision("extendori", "ja", tmp_path, save=path)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            state = app.session.state
            assert state is not None
            start = len(state.history)
            await pilot.press("enter")  # play the first move
            await settle(app, pilot)
            assert len(state.history) > start
            await pilot.press("f4")  # undo
            await settle(app, pilot)
            state = app.session.state
            assert state is not None and len(state.history) == start
            log = "\n".join(str(getattr(x, "plain", x)) for x in app.query_one("#log").items)  # type: ignore[attr-defined]
            assert t("undo_done", "ja", action="").split("：")[0][:4] in log
            await pilot.press("f3")  # hint: said in the log, its move highlighted
            await settle(app, pilot)
            log = "\n".join(str(getattr(x, "plain", x)) for x in app.query_one("#log").items)  # type: ignore[attr-defined]
            assert "ヒント（" in log
            hinted = app.legal[app.query_one("#moves").highlighted].text  # type: ignore[attr-defined,index]
            assert hinted in log.split("ヒント（")[-1]
            await pilot.press("f2")  # the rules: a pager over the board
            await pilot.pause()
            assert isinstance(app.screen, PagerScreen)
            text = "\n".join(screen_text(app))
            assert "エクステンドリ" in text
            await pilot.press("pagedown", "q")
            await pilot.pause()
            assert not isinstance(app.screen, PagerScreen)
            for key in "rules":  # typed, as in the plain client
                await pilot.press(key)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PagerScreen))
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, PagerScreen) and app.waiting)
            await pilot.press("f1")  # help: the keys and the moves again
            await until(pilot, lambda: isinstance(app.screen, PagerScreen))
            assert t("legal_moves", "ja") in "\n".join(screen_text(app))
            await pilot.press("q")
            await until(pilot, lambda: not isinstance(app.screen, PagerScreen))
            await pilot.press("ctrl+s")  # the record so far; the match goes on
            await until(pilot, path.exists)
            await settle(app, pilot)
            record = xtarot.load_record(path)
            assert record["result"] is None and record["meta"]["undos"] == 1
            assert len(xtarot.replay(record).history) == start
            assert app.choosing
            await quit_without_saving(app, pilot)
        assert app.return_code == EXIT_ABANDONED

    asyncio.run(go())


def test_resize_to_120x40_uses_the_room(tmp_path: Path) -> None:
    app = _first_decision("fairy500", "en", tmp_path, save=None)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            check_board(app, "fairy500", "en")
            small = app.query_one("#lower").region.height
            assert app.query_one("#hand").region.height <= 3  # one flowing line
            await pilot.resize_terminal(120, 40)
            await pilot.pause(0.1)
            assert app.size == (120, 40)
            check_board(app, "fairy500", "en")
            assert app.query_one("#header").region.width == 120
            assert app.query_one("#lower").region.height > small + 8
            assert app.query_one("#hand").region.height >= 4  # a row per suit
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.1)
            check_board(app, "fairy500", "en")
            await quit_without_saving(app, pilot)
        assert app.return_code == EXIT_ABANDONED

    asyncio.run(go())


def test_the_app_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Tty())
    monkeypatch.setattr(sys, "stdout", Tty())
    assert full_screen(env={"TERM": "xterm-256color"})
    assert not full_screen(True, env={"TERM": "xterm-256color"})  # --plain
    assert not full_screen(env={"TERM": "dumb"})
    assert not full_screen(env={"TERM": "xterm", "XTAROT_PLAIN": "1"})
    assert full_screen(env={"TERM": "xterm", "XTAROT_PLAIN": "0"})
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # a pipe
    assert not full_screen(env={"TERM": "xterm-256color"})
