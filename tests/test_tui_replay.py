"""``xtarot replay`` in the full-screen app, driven headless by Textual's pilot at
80×24: a finished match of three hands stepped to its end and back, jumped hand by
hand, with the header, table, hands, log and bar on screen and apart at every step,
and every hand as dealt after the end; an unfinished match whose screens never show a
card the saving seat had not seen; the keys, the buttons, play / pause, resizing; and
the choice between the app and the printed lines.

Keys are sent as the terminal sends them and the screen is laid out once per step
(``pilot.press`` waits for the whole process to idle after each key, which would take
several seconds a match).
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from textual import events
from typer.testing import CliRunner

pytest.importorskip("textual")

import xtarot
from test_tui import rows_of, wholly_shown
from xtarot.agents import RandomAgent, play_match
from xtarot.cli import main as cli_main
from xtarot.cli.i18n import seat_label, t
from xtarot.tui.replay import ReplayApp
from xtarot.tui.shot import screen_text
from xtarot.tui.widgets import PagerScreen

REGIONS = ("#header", "#table", "#hand", "#log", "#bar")


def finished_record(players: int = 4, seed: int = 154) -> dict[str, Any]:
    """Grail Mahjong, three hands: four players, 32 moves (hands of 4, 17 and 11),
    or three players with seed 64, 18 moves (3, 10 and 5)."""
    game = xtarot.load("grail-mahjong", players=players, hands=3)
    state = play_match(game, [RandomAgent(s) for s in range(players)], seed=seed)
    return state.record({"human_seat": 0})


def unfinished_record(upto: int = 16) -> dict[str, Any]:
    """Fairy 500, four players, saved by Seat 3 after the bids, the declarer's four
    face-down discards and a trick and a half (seat index 2 does not declare)."""
    game = xtarot.load("fairy500", players=4, hands=1)
    whole = play_match(game, [RandomAgent(s) for s in range(4)], seed=2).record()
    return xtarot.replay(whole, upto=upto).record({"human_seat": 2})


async def drawn(pilot: Any) -> None:
    """Until the app has handled what it was sent and shows its position (laid out,
    the log scrolled): what :func:`screen_text` then draws."""
    end = time.monotonic() + 10
    while not pilot.app.settled:
        assert time.monotonic() < end, "the replay did not settle"
        await asyncio.sleep(0.002)
    await pilot._wait_for_screen()


async def key(app: ReplayApp, pilot: Any, name: str) -> None:
    """A key that moves the replay, as the terminal sends it; on until the screen
    shows the new position."""
    at = app.at
    event = events.Key(name, name if len(name) == 1 else None)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)
    end = time.monotonic() + 10
    while app.at == at:
        assert time.monotonic() < end, f"{name} did not move the replay"
        await asyncio.sleep(0.002)
    await drawn(pilot)


def check(app: ReplayApp, lang: str) -> list[str]:
    """The regions wholly on screen, one below the other and apart; the bar says the
    position; the log shows the step's first line.  The screen, one string a row."""
    shown = [s for s in REGIONS if app.query_one(s).display]
    for selector in shown:
        wholly_shown(app, selector)
    regions = [app.query_one(s).region for s in shown]
    for upper, lower in itertools.pairwise(regions):
        assert upper.bottom <= lower.y, (upper, lower)
    assert regions[-1].bottom <= app.size.height - 1  # (the footer)
    screen = screen_text(app)
    assert app.title in rows_of(app, "#header", screen)[0]
    bar = "\n".join(rows_of(app, "#bar", screen))
    assert app.query_one("#bar").region.height == 1  # the position and the buttons
    assert t("tui_replay_pos", lang, n=app.at, of=app.last) in bar
    assert t("key_next", lang) in bar and t("key_back", lang) in bar
    log = [content(row) for row in rows_of(app, "#log", screen)]
    said = app.said[app.upto[app.at - 1] if app.at else 0]
    first = getattr(said, "plain", "").split("\n")[0].strip()
    if first:
        box = app.query_one("#log")
        where = (box.scroll_y, box.max_scroll_y, box.line_of(said), len(box.lines), box.region)  # type: ignore[attr-defined]
        assert any(row.startswith(first[:16]) for row in log), (first, log, where)  # (it may wrap)
    return screen


async def until(test: Any) -> None:
    end = time.monotonic() + 10
    while not test():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


def tokens(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text))


def content(row: str) -> str:
    """A row of a region without its scroll bar."""
    return re.sub(r"[▁-█\s]+$", "", row).strip()


def every_hand_shown(app: ReplayApp, lang: str, screen: list[str]) -> None:
    """Every seat's cards now, face up, in the hands region."""
    rows = rows_of(app, "#hand", screen)
    assert t("tui_all_hands", lang) in rows[1]
    hands = app.step.hands
    assert hands is not None
    for s, cards in enumerate(hands):
        row = next(r for r in rows if re.search(rf"(?<!\d){s + 1}番席（|Seat {s + 1} \(", r))
        assert set(cards) <= tokens(row), (cards, row)


def dealt_shown(app: ReplayApp, lang: str, record: dict[str, Any]) -> None:
    """After the end: every hand as dealt, every seat's cards face up on its own row;
    the region scrolls (↑↓ once Tab has focused it) when they do not all fit."""
    lines = app.dealt_text().plain.split("\n")
    for n, deal in enumerate(record["deals"], 1):
        i = lines.index(t("replay_deal", lang, n=n))
        for s, cards in enumerate(deal["hands"]):
            assert seat_label(s, lang) in lines[i + 1 + s]
            assert set(cards) <= tokens(lines[i + 1 + s])
    box = app.query_one("#hand")
    rows = [content(row) for row in rows_of(app, "#hand")[1:]]
    assert rows == [line.strip() for line in lines[: len(rows)]]
    if len(rows) < len(lines):
        assert box.max_scroll_y > 0  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "players", "seed"), [("en", 3, 64), ("ja", 4, 154)])
def test_a_finished_match_step_by_step_at_80x24(lang: str, players: int, seed: int) -> None:
    record = finished_record(players, seed)
    app = ReplayApp(record, lang, None)
    starts = [0] + [p for p in range(1, app.last + 1) if app.steps[p].hand > app.steps[p - 1].hand]
    assert len(starts) == 3 and app.last == len(record["actions"])

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await drawn(pilot)
            assert app.at == 0
            every_hand_shown(app, lang, check(app, lang))
            for p in range(1, app.last + 1):  # to the end, with each key that moves on
                await key(app, pilot, ("right", "l", "space")[p % 3])
                assert app.at == p
                screen = check(app, lang)
                bar = "\n".join(rows_of(app, "#bar", screen))
                assert t("tui_replay_hand", lang, n=app.step.hand, of=3) in bar
                if p < app.last:
                    every_hand_shown(app, lang, screen)
            # after the end: every hand as dealt, and the final result in the log
            dealt_shown(app, lang, record)
            log = app.query_one("#log")
            assert t("final_scores", lang) in "\n".join(x.text for x in log.lines)  # type: ignore[attr-defined]
            if players == 4:  # four seats' three deals do not fit: Tab, and ↓ scrolls them
                box = app.query_one("#hand")
                assert box.max_scroll_y > 0  # type: ignore[attr-defined]
                await pilot.press("tab")
                assert app.focused is box
                await pilot.press("down")
                await until(lambda: box.scroll_y > 0)
                await pilot.press("tab")
                assert app.focused is log
            if players == 3:  # and back to the start, step by step
                for p in range(app.last - 1, -1, -1):
                    await key(app, pilot, ("left", "h")[p % 2])
                    assert app.at == p
                    check(app, lang)
                assert len(app.query_one("#log").items) == app.upto[0]  # type: ignore[attr-defined]
            else:
                await key(app, pilot, "home")
                assert app.at == 0
                check(app, lang)
            # hand by hand: PgDn / n to each hand's start, then to the end
            for target, name in zip([*starts[1:], app.last], ("pagedown", "n", "n"), strict=True):
                await key(app, pilot, name)
                assert app.at == target
                check(app, lang)
            await key(app, pilot, "pageup")  # the start of this hand (the last one)
            assert app.at == starts[2]
            await key(app, pilot, "b")  # already there: the previous hand
            assert app.at == starts[1]
            await key(app, pilot, "end")
            assert app.at == app.last
            await pilot.press("q")
        assert app.return_code == 0

    asyncio.run(go())


def test_an_unfinished_match_shows_only_what_the_saving_seat_saw() -> None:
    record = unfinished_record()
    seat = 2
    assert not xtarot.replay(record).is_terminal
    everything = {c for deal in record["deals"] for pile in _piles(deal) for c in pile}
    # what Seat 3 had seen by each position: every card its views ever showed
    walk = xtarot.replay(record, upto=0)
    seen: list[set[str]] = []
    held: list[int] = []
    known: set[str] = set()
    for text in [None, *record["actions"]]:
        if text is not None:
            walk.apply(text)
        view = walk.view(seat)
        known |= tokens(json.dumps(view))
        seen.append(set(known))
        held.append(len(view["hand"]))
    discards = [a.split()[1] for a in record["actions"] if a.startswith("discard ")]
    assert len(discards) == 4 and not set(discards) <= seen[-1]  # some stay face down
    app = ReplayApp(record, "ja", seat)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await drawn(pilot)
            for p in range(app.last + 1):
                if p:
                    await key(app, pilot, "right")
                screen = check(app, "ja")
                hidden = everything - seen[p]
                leaked = tokens("\n".join(screen)) & hidden
                assert not leaked, (p, leaked)
                hand = rows_of(app, "#hand", screen)[1]
                assert t("tui_hand", "ja", n=held[p]) in hand
            # a taller window: the hand one row per suit; and back
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            check(app, "ja")
            assert app.query_one("#hand").region.height >= 4
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            check(app, "ja")
            await pilot.press("ctrl+q")
        assert app.return_code == 0

    asyncio.run(go())


def _piles(deal: dict[str, Any]) -> list[list[str]]:
    out = list(deal.get("hands") or [])
    return out + [v for k, v in deal.items() if k != "hands" and isinstance(v, list)]


def test_play_pause_buttons_help_and_rules() -> None:
    app = ReplayApp(finished_record(), "en", None)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await drawn(pilot)
            await pilot.press("plus")
            await pilot.press("plus")
            assert app.pace == 0.25
            await key(app, pilot, "p")  # plays: a step at once, then one every 0.25 s
            assert app.playing
            await until(lambda: app.at >= 2)
            await pilot.press("enter")  # pauses
            assert not app.playing
            at = app.at
            await asyncio.sleep(0.3)
            assert app.at == at

            async def click(label: str) -> None:
                row = rows_of(app, "#bar")[0]
                x = row.index(f"[{label}")
                await pilot.click(offset=(x + 2, app.query_one("#bar").region.y))
                await drawn(pilot)

            await click("«")
            assert app.at == 0
            await click("Next")
            assert app.at == 1
            await click("End")
            assert app.at == app.last and not app.playing
            await click("‹")
            assert app.at == app.last - 1
            await click("▶")  # plays on to the end, and stops there
            await until(lambda: not app.playing)
            assert app.at == app.last
            await pilot.press("f1")
            assert isinstance(app.screen, PagerScreen)
            assert "PgDn" in "\n".join(screen_text(app))
            await pilot.press("q")
            assert not isinstance(app.screen, PagerScreen)
            await pilot.press("f2")
            assert isinstance(app.screen, PagerScreen)
            assert "Grail Mahjong" in "\n".join(screen_text(app))
            await pilot.press("escape")
            assert not isinstance(app.screen, PagerScreen) and app.return_code is None
            await pilot.press("q")
        assert app.return_code == 0

    asyncio.run(go())


def test_the_replay_command_opens_the_app_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(unfinished_record()), "utf-8")
    opened: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self: opened.append(self))
    terminal = cli_main.full_screen

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    def on_a_terminal(plain: bool = False) -> bool:
        """``full_screen`` as on a terminal (input and output)."""
        saved = sys.stdin, sys.stdout
        sys.stdin, sys.stdout = Tty(), Tty()
        try:
            return terminal(plain)
        finally:
            sys.stdin, sys.stdout = saved

    monkeypatch.setattr(cli_main, "full_screen", on_a_terminal)
    runner = CliRunner()
    env = {"LANG": "C.UTF-8", "LC_ALL": "", "COLUMNS": "100", "NO_COLOR": "1"}

    def replay(*args: str, **more: str) -> Any:
        return runner.invoke(cli_main.app, ["replay", *args], env={**env, **more})

    shown = replay(str(path), "--lang", "en")
    assert shown.exit_code == 0 and shown.stdout == ""
    assert len(opened) == 1 and opened[0].seat == 2 and opened[0].lang == "en"
    lines = replay(str(path), "--lang", "en", "--plain")
    assert lines.exit_code == 0 and len(opened) == 1
    assert "Seat 3 saw it" in lines.stdout and "   1 " in lines.stdout
    for more in ({"TERM": "dumb"}, {"XTAROT_PLAIN": "1"}):  # the same lines
        assert replay(str(path), "--lang", "en", **more).stdout == lines.stdout
    assert len(opened) == 1
    # a bad record: the same error as before, and no app
    (tmp_path / "bad.json").write_text("{not json", "utf-8")
    bad = replay(str(tmp_path / "bad.json"))
    assert bad.exit_code == 1 and "not valid JSON" in bad.output and len(opened) == 1
