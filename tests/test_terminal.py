"""End-to-end terminal play: the real console program in a pseudo-terminal (pexpect).

For every registered game and both languages a scripted human seat plays a whole
match against random bots: bad input first (an unknown word, a move number that
does not exist, a typo of a real move), a hint (``?``), the rules summary, an
``undo``, then moves chosen by number and by canonical text, to the end; the saved
record must replay to the finished match.  In-process tests (CliRunner) check that
``undo`` and ``--resume`` give exactly the match an uninterrupted session plays.
"""

from __future__ import annotations

import os
import random
import re
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.cli.i18n import rules_text, t
from xtarot.cli.main import app

runner = CliRunner()
SRC = str(Path(xtarot.__file__).resolve().parents[1])
ENV = {
    "LANG": "C.UTF-8",
    "LC_ALL": "",
    "COLUMNS": "140",
    "TERM": "dumb",
    "NO_COLOR": "1",
    "XTAROT_HINT_SECONDS": "0.1",
}
MOVE = re.compile(r"(\d+)\. ([a-z][^\r\n]*?)(?:  |\r|\n|$)")
INFOS = xtarot.games()


def short_options(info: xtarot.GameInfo) -> list[str]:
    """``--option`` arguments that keep a match short (the game's bulk options)."""
    out: list[str] = []
    for k, v in info.bulk_options:
        out += ["--option", f"{k}={v}"]
    return out


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env=ENV)


def drive(info: xtarot.GameInfo, lang: str, path: Path, seed: int) -> tuple[str, int]:
    """Play a whole match of ``info`` as seat 0 in a pseudo-terminal; the transcript."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", info.id, "--seed", str(seed), "--lang", lang,
            "--save", str(path), "--fast", "--bots", "random", *short_options(info)]  # fmt: skip
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(60, 140)
    )
    child.delaybeforesend = None
    prompt = re.escape(t("prompt", lang))
    rng = random.Random(seed)
    transcript: list[str] = []
    turns = 0
    undone = False

    def answer(text: str) -> str:
        child.sendline(text)
        child.expect(prompt)
        transcript.append(child.before)
        return child.before

    try:
        while True:
            found = child.expect([prompt, pexpect.EOF])
            transcript.append(child.before)
            if found == 1:
                break
            turns += 1
            shown = child.before.rsplit(t("legal_moves", lang), 1)[-1]
            moves = dict(MOVE.findall(shown))
            assert moves, child.before[-2000:]
            if turns == 1:
                out = answer("fold")  # not a move
                assert t("unknown_move", lang, text="fold") in out
                assert t("legal_moves", lang) in out
                out = answer(str(len(moves) + 7))  # no such number
                assert t("bad_number", lang, n=len(moves) + 7, last=len(moves)) in out
                typo = moves["1"][:-1] + ("x" if moves["1"][-1] != "x" else "y")
                out = answer(typo)  # a typo of a real move: did you mean?
                assert t("unknown_move", lang, text=typo) in out or "'" + typo in out
                out = answer("?")
                assert t("hint", lang, bot="", n="", move="").split("(")[0] in out
                out = answer("rules")
                if rules_text(info.id, lang) is None:
                    assert t("no_rules", lang) in out
                else:
                    assert len(out.splitlines()) > 10
                out = answer("undo")
                assert t("undo_none", lang) in " ".join(out.split())
                child.sendline("1")
            elif turns == 2 and not undone:
                # Take the first move back: the same position is offered again.
                undone = True
                turns = 1
                child.sendline("undo")
            else:
                pick = str(rng.randrange(1, len(moves) + 1))
                if turns % 3 == 0 and pick in moves:  # the canonical text, case mangled
                    child.sendline("  " + moves[pick].upper() + " ")
                else:
                    child.sendline(pick)
    finally:
        child.close()
    out = "".join(transcript)
    assert child.exitstatus == 0, out[-3000:]
    assert undone and t("undo_done", lang, action="").split(" ")[0] in out
    return out, turns


#: A label only the game's own table screen prints.
MARKERS = {
    "sono-arcana": "sa_lot",
    "matto": "mt_field",
    "grail-mahjong": "gm_discards",
    "arcana-duel": "ad_field",
    "extendori": "tr_col_played",
    "fairy500": "tr_col_played",
}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.id)
def test_full_match_in_a_terminal(info: xtarot.GameInfo, lang: str, tmp_path: Path) -> None:
    path = tmp_path / f"{info.id}-{lang}.json"
    start = time.perf_counter()
    out, turns = drive(info, lang, path, seed=11)
    assert turns >= 1
    assert t("game_over", lang) in out
    if info.id in MARKERS:
        assert t(MARKERS[info.id], lang) in out
    assert t("saved", lang, path=path) in out.replace("\r\n", "").replace("\n", "")
    rec = xtarot.load_record(path)
    assert rec["meta"]["human_seat"] == 0 and rec["meta"]["lang"] == lang
    state = xtarot.replay(rec)
    assert state.is_terminal
    assert time.perf_counter() - start < 30


# -- in process: undo and resume are exact ---------------------------------------------
def _record(path: Path, *extra: str, input: str, game: str = "sono-arcana") -> dict:
    result = invoke("play", game, "--seed", "9", "--fast", "--lang", "en", "--save", str(path),
                    *extra, input=input)  # fmt: skip
    assert result.exit_code == 0, result.output
    return xtarot.load_record(path)


RESUMABLE = [
    ("sono-arcana", ["--bots", "heuristic"]),  # a real bot: its choices must come back
    # the second hand is shuffled from the seed
    ("grail-mahjong", ["--option", "hands=2", "--bots", "random"]),
]


@pytest.mark.parametrize(("game", "opts"), RESUMABLE, ids=[g for g, _ in RESUMABLE])
def test_undo_and_resume_give_the_uninterrupted_match(
    game: str, opts: list[str], tmp_path: Path
) -> None:
    if game not in {i.id for i in INFOS}:
        pytest.skip(f"{game} is not registered")
    whole = _record(tmp_path / "whole.json", *opts, input="1\n" * 3000, game=game)
    assert whole["result"] is not None
    # Undo after the second decision, then carry on: the same match.
    undone = _record(tmp_path / "undo.json", *opts, input="1\n1\nundo\n" + "1\n" * 3000, game=game)
    assert undone["actions"] == whole["actions"]
    # Quit after three decisions, save, resume: the continued match is the same one.
    part = tmp_path / "part.json"
    _record(part, *opts, input="1\n1\n1\nq\n", game=game)
    saved = xtarot.load_record(part)
    assert saved["result"] is None and len(saved["deals"]) == 1
    resumed = invoke("play", "--resume", str(part), input="1\n" * 3000)
    assert resumed.exit_code == 0, resumed.output
    assert f"Resuming from {part}" in resumed.stdout.replace("\n", "")
    final = xtarot.load_record(part)  # --resume saves back to the same file
    assert final["actions"] == whole["actions"]
    assert final["deals"] == whole["deals"]
    assert final["result"] == whole["result"]
    assert final["meta"]["bots"] == whole["meta"]["bots"]


def test_resume_errors(tmp_path: Path) -> None:
    missing = invoke("play", "--resume", str(tmp_path / "nope.json"))
    assert missing.exit_code == 1 and "cannot read record" in missing.output
    path = tmp_path / "m.json"
    _record(path, input="1\nq\n")
    clash = invoke("play", "--resume", str(path), "--seed", "3")
    assert clash.exit_code == 2 and "--seed" in clash.output
    other = invoke("play", "matto", "--resume", str(path))
    assert other.exit_code == 2 and "sono-arcana" in other.output
    nothing = invoke("play")
    assert nothing.exit_code == 2 and "--resume" in nothing.output


def test_resume_a_finished_match_shows_its_result(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    _record(path, input="1\n" * 400)
    again = invoke("play", "--resume", str(path), "--lang", "ja")
    assert again.exit_code == 0, again.output
    assert t("resume_over", "ja") in again.stdout and t("final_scores", "ja") in again.stdout


def test_hint_rules_and_typos_in_process() -> None:
    result = invoke(
        "play", "sono-arcana", "--seed", "5", "--fast", "--lang", "ja",
        input="?\nrules\nlot 3\npley  10s\nhelp\n\nq\nn\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "ヒント (heuristic)" in out and "理由: " in out
    assert "護符" in out  # the Japanese rules summary
    assert t("unknown_move", "ja", text="lot 3") in out
    assert "もしかして: play 10s" in out
    assert t("prompt_more", "ja") in out


def test_multi_hand_match_shows_hand_summaries() -> None:
    candidates = [i for i in INFOS if any(o.name == "hands" for o in i.options)]
    if not candidates:
        pytest.skip("no registered game with a 'hands' option")
    info = candidates[0]
    result = invoke(
        "play", info.id, "--seed", "3", "--fast", "--lang", "en", "--option", "hands=2",
        "--bots", "random",
        input="1\n" * 3000,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert t("hand_over", "en", n=1) in out and t("hand_begins", "en", n=2) in out
    assert t("col_this_hand", "en") in out and t("col_total", "en") in out


def test_between_hands_the_terminal_waits_for_enter() -> None:
    """Without --fast (here --delay 0): the hand summary stays until Enter is pressed."""
    pexpect = pytest.importorskip("pexpect")
    candidates = [i for i in INFOS if any(o.name == "hands" for o in i.options)]
    if not candidates:
        pytest.skip("no registered game with a 'hands' option")
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", candidates[0].id, "--seed", "3", "--lang", "ja",
            "--delay", "0", "--option", "hands=2", "--bots", "random"]  # fmt: skip
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(60, 140)
    )
    child.delaybeforesend = None
    waits = [re.escape(t("prompt", "ja")), re.escape(t("next_hand_enter", "ja"))]
    waits += [re.escape(t("end_save", "ja")), pexpect.EOF]
    seen_break = False
    try:
        while True:
            found = child.expect(waits)
            if found == 0:
                child.sendline("1")
            elif found == 1:
                assert t("hand_over", "ja", n=1) in child.before
                assert t("col_this_hand", "ja") in child.before
                seen_break = True
                child.sendline("")
            elif found == 2:
                child.sendline("n")
            else:
                break
    finally:
        child.close()
    assert seen_break and child.exitstatus == 0


# -- screens ---------------------------------------------------------------------------
def _render(renderable: object, width: int = 120) -> str:
    from rich.console import Console

    console = Console(width=width, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.id)
def test_every_screen_renders_every_position(info: xtarot.GameInfo) -> None:
    """A random match, seen by seat 0: the table, every announcement, hand ends and the
    result render in both languages, and no announcement names a card seat 0 never
    saw."""
    import copy

    from xtarot.cli.render import ui_for, visible_codes

    ui = ui_for(info.id)
    players = 4 if 4 in info.players else info.min_players
    game = xtarot.load(info.id, players=players, **dict(info.bulk_options))
    state = game.new_state(seed=21)
    rng = random.Random(21)
    before = copy.deepcopy(state.view(0))
    steps = 0
    while not state.is_terminal:
        actor = state.current_player
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        seen = state.action_seen_by(action, 0)
        hands = len(state.deals)
        state.apply(action)
        after = copy.deepcopy(state.view(0))
        for lang in ("en", "ja"):
            lines = ui.announce(before, after, actor, lang, seen=seen)
            if actor != 0:  # every card named was visible to seat 0
                shown = visible_codes(before) | visible_codes(after)
                for line in lines:
                    plain = re.sub(r"\bbid \d+(c|d|s|w|nt)\b", "", line.plain)  # contracts
                    named = visible_codes(plain.replace(",", " ").replace("(", " "))
                    assert named <= shown, (line.plain, named - shown)
            if len(state.deals) > hands:
                for item in ui.hand_end(before, after, lang):
                    _render(item)
            if steps % 15 == 0 or state.is_terminal:
                text = _render(ui.view(after, lang, "title"))
                assert "title" in text
        before = after
        steps += 1
    scores = state.scores().to_dict()
    for lang in ("en", "ja"):
        final = "".join(_render(item) for item in ui.final(state.view(0), scores, lang))
        assert t("final_scores", lang) in final


def test_bots_are_checked_before_the_match() -> None:
    from xtarot.agents.heuristic import STRATEGIES

    missing = [i.id for i in INFOS if i.id not in STRATEGIES]
    if missing:
        result = invoke("play", missing[0], "--bots", "heuristic", "--fast")
        assert result.exit_code == 2 and "no heuristic bot" in result.output
        assert "Traceback" not in result.output
    unknown = invoke("play", "sono-arcana", "--bots", "deep-blue")
    assert unknown.exit_code == 2 and "unknown bot" in unknown.output
    # By default a person plays the game's heuristic bot when there is one, else ISMCTS.
    meta = invoke("play", "sono-arcana", "--seed", "1", "--fast", input="q\nn\n")
    assert "--bots heuristic" in meta.stdout
    if missing:
        other = invoke("play", missing[0], "--seed", "1", "--fast", input="q\nn\n")
        assert "--bots ismcts:200" in other.stdout
    budget = invoke("play", "sono-arcana", "--bots", "ismcts:0")
    assert budget.exit_code == 2 and "ismcts:N" in budget.output


def test_play_without_a_game_asks_which() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", "--lang", "ja", "--fast", "--seed", "1"]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(60, 140)
    )
    child.delaybeforesend = None
    try:
        child.expect(re.escape(t("which_game", "ja")))
        menu = child.before
        assert all(info.id in menu for info in INFOS)
        child.sendline("chess")  # not a game: asked again
        child.expect(re.escape(t("which_game", "ja")))
        number = [i.id for i in INFOS].index("sono-arcana") + 1
        child.sendline(str(number))
        child.expect(re.escape(t("prompt", "ja")))
        assert "そのアルカナは欲しくない" in child.before
        child.sendline("q")
        child.expect(re.escape(t("quit_save", "ja")))
        child.sendline("n")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_whole_attack_typed_at_once_is_played_as_its_steps() -> None:
    """Arcana Duel takes ``attack Kc 5s at T3`` as one input (any case)."""
    if "arcana-duel" not in {i.id for i in INFOS}:
        pytest.skip("arcana-duel is not registered")
    from rich.console import Console

    from xtarot.cli.play import PlaySession

    game = xtarot.load("arcana-duel")
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while not any(a.text.startswith("attack ") for a in state.legal_actions()):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    seat = state.current_player
    assert seat is not None
    first = next(a.text for a in state.legal_actions() if a.text.startswith("attack "))
    trial = state.clone()
    trial.apply(first)
    target = next(a.text for a in trial.legal_actions() if a.text.startswith("at "))
    typed = f"{first} {target}".upper()
    console = Console(width=100, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
    session = PlaySession(console, game, seat, {1 - seat: "random"}, 5, "en", fast=True)
    legal = state.legal_actions()
    chosen = session.parse(state, legal, typed)
    assert chosen == f"{first} {target}"
    before = len(state.history)
    state.apply(chosen)
    assert len(state.history) == before + 2
    assert session.parse(state, state.legal_actions(), "attack zz at down") is None
