"""End-to-end terminal play: the real console program in a pseudo-terminal (pexpect).

For every registered game and both languages, at 80 columns, a scripted human seat
plays a whole match against random bots: bad input first (an unknown word, a move
number that does not exist, a card held but not playable), a hint (``?``), the rules
summary (the board is drawn again after it), an ``undo``, then moves chosen by number
and by text, to the end; the transcript must number seats from 1, tell every trick's
winner, never show a face-up card as ``?``, keep Japanese lines free of a leading
``。``/``、``, and the saved record must replay to the finished match.  A second
session per game and language quits at once: the seed never shows and the exit
code says the match was abandoned.  In-process tests (CliRunner) check ``undo``
(the bots choose afresh) and ``--resume`` (exactly the interrupted match).
"""

from __future__ import annotations

import os
import random
import re
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.cli.i18n import rules_text, seat_label, t
from xtarot.cli.main import app
from xtarot.cli.play import EXIT_ABANDONED

runner = CliRunner()
SRC = str(Path(xtarot.__file__).resolve().parents[1])
WIDTH = 80
ENV = {
    "LANG": "C.UTF-8",
    "LC_ALL": "",
    "COLUMNS": str(WIDTH),
    "LINES": "24",
    "TERM": "dumb",
    "NO_COLOR": "1",
    "XTAROT_HINT_SECONDS": "0.05",
}
INFOS = xtarot.games()
TRICK_GAMES = {"extendori", "fairy500"}


def short_options(info: xtarot.GameInfo) -> list[str]:
    """``--option`` arguments that keep a match short (the game's bulk options)."""
    out: list[str] = []
    for k, v in info.bulk_options:
        out += ["--option", f"{k}={v}"]
    return out


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env=ENV)


def prompt_re(lang: str) -> str:
    """The move prompt, whatever its number of moves (``Your move (1-12 ...``; group 1
    is the number of moves, ``None`` for the prompt of a single move)."""
    head, _, tail = t("prompt", lang, last="\0").partition("\0")
    return re.escape(head) + r"(\d+)" + re.escape(tail) + "|" + re.escape(t("prompt_one", lang))


def squeeze(text: str) -> str:
    """``text`` without any whitespace: lines wrapped at 80 columns join again."""
    return re.sub(r"\s+", "", text)


def undo_mark(lang: str) -> str:
    """The words of the undo message after the move taken back."""
    return t("undo_done", lang, action="\0").split("\0")[1]


def width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


_MENU_ROW = re.compile(r"^\s+(?:\S+\s+)?((?:\d+ [A-Za-z0-9]+ *)+)\s*$")
_MENU_ITEM = re.compile(r"(\d+)\. ([a-z][A-Za-z0-9=\-]*(?: [A-Za-z0-9=\-]+)*)")
_MENU_VERB = re.compile(r"^([a-z][a-z ]*?)(?:（[^）]*）)?\s*$")


def menu_moves(screen: str, lang: str) -> dict[str, str]:
    """The moves of the last menu on ``screen``: number -> text.  Reads verb groups
    (``play`` then ``Cups  1 2c  2 Kc``) and items (``3. pass``); not bid grids."""
    part = screen.replace("\r", "").rsplit(t("legal_moves", lang), 1)[-1]
    moves: dict[str, str] = {}
    verb = None
    for line in part.splitlines()[1:]:
        if _MENU_VERB.match(line):
            verb = _MENU_VERB.match(line).group(1)  # type: ignore[union-attr]
            continue
        row = _MENU_ROW.match(line)
        if row and verb:
            for n, code in re.findall(r"(\d+) ([A-Za-z0-9]+)", row.group(1)):
                moves[n] = f"{verb} {code}"
            continue
        for n, text in _MENU_ITEM.findall(line):
            moves[n] = text
    return moves


def check_transcript(out: str, info: xtarot.GameInfo, lang: str, you: int = 0) -> None:
    """What every transcript must show: seats from 1, no face-up card as ``?``, lines
    within 80 columns, no Japanese line opening with ``。``/``、``."""
    assert seat_label(you, lang, you) in out  # "Seat 1 (you)" / "1番席（あなた）"
    assert t("seat", lang, seat=0) not in out  # nobody is "Seat 0"
    if info.id in TRICK_GAMES:
        assert "play ?" not in out
    for line in out.replace("\r", "").splitlines():
        # Commands are printed unwrapped; a typed file name is the test's own input.
        if not line.startswith("  xtarot ") and "pytest-of-" not in line:
            assert width(line) <= WIDTH, line
        if lang == "ja":
            assert not line.lstrip().startswith(("。", "、", "）", "」")), line


def drive(info: xtarot.GameInfo, lang: str, path: Path, seed: int) -> tuple[str, int]:
    """Play a whole match of ``info`` as seat 1 in a pseudo-terminal; the transcript."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", info.id, "--seed", str(seed), "--lang", lang,
            "--save", str(path), "--fast", "--bots", "random", *short_options(info)]  # fmt: skip
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(24, WIDTH)
    )
    child.delaybeforesend = None
    prompt = prompt_re(lang)
    hint_head = t("hint", lang, bot="", n="", move="").split("（")[0].split("(")[0]
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
            last = int(child.match.group(1) or 1)
            if turns == 1:
                out = answer("fold")  # not a move: one line, not the whole list
                assert "'fold'" in out and t("legal_moves", lang) not in out
                out = answer(str(last + 7))  # no such number
                key = "bad_number" if last > 1 else "bad_number_one"
                assert t(key, lang, n=last + 7, last=last) in out
                out = answer("?")
                assert hint_head in out
                hinted = re.search(
                    r"(?:move \d+, |\d+番 )([a-z][A-Za-z0-9=\-]*(?: [A-Za-z0-9=\-]+)*)", out
                )
                assert hinted, out
                move = hinted.group(1).strip()
                typo = move[:-1] + ("x" if move[-1] != "x" else "y")
                out = answer(typo)  # a typo of a real move
                assert repr(typo) in out
                out = answer("rules")
                if rules_text(info.id, lang) is None:
                    assert t("no_rules", lang) in out
                else:  # the rules, then the board and the moves again
                    assert len(out.splitlines()) > 20 and t("legal_moves", lang) in out
                out = answer("undo")
                assert t("undo_none", lang) in " ".join(out.split())
                child.sendline("  " + move.upper() + " ")  # the hinted move, by its text
            elif turns == 2 and not undone:
                # Take the first move back: the same position is offered again.
                undone = True
                turns = 1
                child.sendline("undo")
            else:
                child.sendline(str(rng.randrange(1, last + 1)))
    finally:
        child.close()
    out = "".join(transcript)
    assert child.exitstatus == 0, out[-3000:]
    assert undone and squeeze(undo_mark(lang)) in squeeze(out)
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


@pytest.mark.installed
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
    assert squeeze(t("saved", lang, path=path)) in squeeze(out)
    check_transcript(out, info, lang)
    rec = xtarot.load_record(path)
    assert rec["meta"]["human_seat"] == 0 and rec["meta"]["lang"] == lang
    state = xtarot.replay(rec)
    assert state.is_terminal
    # The match is over: its seed may be told now, in a command on one line.
    lines = out.replace("\r", "").splitlines()
    assert any(
        line.startswith("  xtarot play ") and f"--seed {rec['seed']}" in line and "--bots" in line
        for line in lines
    )
    assert t("since_last", lang) in out  # every board says what happened meanwhile
    if info.id in ("matto", "grail-mahjong"):  # the player's draws are announced
        assert t("you_draw", lang, cards="\0").split("\0")[0].strip() in out
    if info.id == "extendori":  # so are later batches
        assert squeeze(t("ex_batch_dealt", lang, seat="", n=2, of=2, k="").split("：")[0][-6:]) in (
            squeeze(out)
        )
    if info.id == "arcana-duel":  # and why the duel ended
        ends = [t("ad_end_stock", lang), t("ad_end_draw", lang)]
        ends.append(t("ad_end_annihilation", lang, seat="\0", loser="\0").split("\0")[1])
        assert any(squeeze(e)[:6] in squeeze(out) for e in ends)
    if info.id in TRICK_GAMES:  # every trick's winner is told, the hand's last included
        tricks = state.public_view()["tricks"]
        after_undo = squeeze(out).split(squeeze(undo_mark(lang)))[-1]
        told = after_undo.count(squeeze(t("trick_won", lang, seat="")))
        assert told == len(tricks) > 0
    assert time.perf_counter() - start < 40


@pytest.mark.parametrize(
    ("info", "lang"),
    # one language per game by default, the languages taking turns; both under -m slow
    [
        pytest.param(info, lang, marks=[] if (i + (lang == "ja")) % 2 == 0 else [pytest.mark.slow])
        for i, info in enumerate(INFOS)
        for lang in ("en", "ja")
    ],
    ids=lambda v: v.id if isinstance(v, xtarot.GameInfo) else str(v),
)
def test_quitting_keeps_the_seed_secret(info: xtarot.GameInfo, lang: str, tmp_path: Path) -> None:
    """A random seed is never shown before the match ends: not after ``q``, not by the
    replay of the unfinished save (which shows only what the saving seat saw)."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "quit.json"
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", info.id, "--lang", lang, "--fast", "--seat", "2",
            "--bots", "random", *short_options(info)]  # fmt: skip
    # The seed is drawn at random by the CLI (that is the point), so a short match can end
    # before our first or second move (a grail-mahjong hand ends when someone discards Rc):
    # then the match is simply started again, up to five times.
    for _attempt in range(5):
        child = pexpect.spawn(
            sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(24, WIDTH)
        )
        child.delaybeforesend = None
        try:
            if child.expect([prompt_re(lang), re.escape(t("end_save", lang))]) == 1:
                continue  # the bots ended the match before our first move: another seed
            out = child.before
            child.sendline("1")
            if child.expect([prompt_re(lang), re.escape(t("end_save", lang))]) == 1:
                continue  # the match is already over: try another seed
            out += child.before
            child.sendline("q")
            child.expect(re.escape(t("quit_save", lang)))
            out += child.before
            child.sendline("y")
            child.expect(re.escape(t("save_where", lang)))
            child.sendline(str(path))
            child.expect(pexpect.EOF)
            out += child.before
            break
        finally:
            child.close()
    else:
        pytest.fail("five random matches in a row ended before our second move")
    assert child.exitstatus == EXIT_ABANDONED
    check_transcript(out, info, lang, you=1)
    rec = xtarot.load_record(path)
    assert rec["result"] is None and rec["meta"]["human_seat"] == 1
    seed = str(rec["seed"])
    assert seed not in out and "--seed" not in out
    assert "--resume" in out  # how to continue instead
    replay = invoke("replay", str(path), "--lang", lang)
    assert replay.exit_code == 0, replay.output
    assert seed not in replay.stdout
    assert squeeze(t("replay_as_seat", lang, seat=seat_label(1, lang))) in squeeze(replay.stdout)
    revealed = invoke("replay", str(path), "--lang", lang, "--reveal")
    assert seed in revealed.stdout


def test_face_down_moves_stay_hidden_in_the_replay_of_an_unfinished_match(
    tmp_path: Path,
) -> None:
    """Fairy 500: the declarer's discards are face down; the replay of a defender's
    unfinished save never names them (``--reveal`` does)."""
    game = xtarot.load("fairy500", players=4)
    state = game.new_state(seed=8)
    rng = random.Random(8)
    while not any(a.text.startswith("play ") for a in state.legal_actions()):
        legal = state.legal_actions()
        bids = [a for a in legal if a.text in ("pass", "bid 6s")]
        state.apply(rng.choice(bids or legal))
    record = state.record()
    decl = state.public_view()["contract"]["declarer"]
    defender = (decl + 1) % 4
    discards = [a.split()[1] for a in record["actions"] if a.startswith("discard ")]
    assert len(discards) == 4
    record["meta"] = {"human_seat": defender}
    path = tmp_path / "f5.json"
    xtarot.save_record(xtarot.replay(record), path, meta=record["meta"])
    shown = invoke("replay", str(path), "--lang", "en").stdout
    assert "discard ?" in shown
    hand = set(xtarot.replay(record).view(defender)["hand"])
    for code in discards:
        if code not in hand:
            assert f"discard {code}" not in shown
    full = invoke("replay", str(path), "--lang", "en", "--reveal").stdout
    assert all(f"discard {code}" in full for code in discards)


# -- in process: undo and resume -------------------------------------------------------
def _record(path: Path, *extra: str, input: str, game: str = "sono-arcana") -> dict:
    result = invoke("play", game, "--seed", "9", "--fast", "--lang", "en", "--save", str(path),
                    *extra, input=input)  # fmt: skip
    assert result.exit_code in (0, EXIT_ABANDONED), result.output
    return xtarot.load_record(path)


RESUMABLE = [
    ("sono-arcana", ["--bots", "heuristic"]),  # a real bot: its choices must come back
    # the second hand is shuffled from the seed
    ("grail-mahjong", ["--option", "hands=2", "--bots", "random"]),
]


@pytest.mark.parametrize(("game", "opts"), RESUMABLE, ids=[g for g, _ in RESUMABLE])
def test_resume_gives_the_uninterrupted_match(game: str, opts: list[str], tmp_path: Path) -> None:
    if game not in {i.id for i in INFOS}:
        pytest.skip(f"{game} is not registered")
    whole = _record(tmp_path / "whole.json", *opts, input="1\n" * 3000, game=game)
    assert whole["result"] is not None
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


def test_undo_redraws_the_bots_replies(tmp_path: Path) -> None:
    """After an undo the bots choose afresh (no peeking at their replies by trying a
    move and taking it back); a resumed match continues with the same draws."""
    opts = ["--players", "4", "--bots", "random"]
    plain = _record(tmp_path / "a.json", *opts, input="1\n" * 6 + "q\n", game="extendori")
    undone = _record(
        tmp_path / "b.json", *opts, input="1\nundo\n" + "1\n" * 6 + "q\n", game="extendori"
    )
    assert undone["meta"]["undos"] == 1 and plain["meta"].get("undos", 0) == 0
    assert plain["actions"][0] == undone["actions"][0]  # the same deal and first moves
    assert plain["actions"] != undone["actions"]  # the bots' replies were drawn again
    # Resuming the undone match: the bots keep the draws of the session's undo count.
    resumed = invoke("play", "--resume", str(tmp_path / "b.json"), input="1\n" * 4000)
    assert resumed.exit_code == 0, resumed.output
    final = xtarot.load_record(tmp_path / "b.json")
    assert final["actions"][: len(undone["actions"])] == undone["actions"]


def test_resume_errors(tmp_path: Path) -> None:
    missing = invoke("play", "--resume", str(tmp_path / "nope.json"))
    assert missing.exit_code == 1 and "cannot read record" in missing.output
    ja = runner.invoke(
        app, ["play", "--resume", str(tmp_path / "nope.json")], env={**ENV, "LANG": "ja_JP.UTF-8"}
    )
    assert ja.exit_code == 1 and "記録" in ja.output and "を読めません" in ja.output
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
    assert result.exit_code == EXIT_ABANDONED, result.output
    out = result.stdout
    assert "ヒント（heuristic）" in out and "理由：" in out
    assert "見込み：" in out and "%" in out  # how sure the hint is
    assert "護符" in out and "**" not in out  # the Japanese rules summary, rendered
    assert out.count(t("legal_moves", "ja")) >= 3  # rules and help show the moves again
    assert "'lot 3'" in out
    assert "もしかして：play 10s、play Rs" in out
    assert squeeze(t("prompt_more", "ja")) in squeeze(out)


def test_a_held_card_that_may_not_be_played_says_why() -> None:
    """Extendori: typing a card of the hand that does not follow suit gives the rule,
    in the player's language."""
    game = xtarot.load("extendori", players=3)
    state = game.new_state(seed=6)
    rng = random.Random(6)
    while True:
        view = state.view(state.current_player)  # type: ignore[arg-type]
        held = set(view["hand"]) - {a.text.split()[1] for a in state.legal_actions()}
        if held:
            break
        state.apply(rng.choice(state.legal_actions()))
    code = sorted(held)[0]
    for lang, words in (("en", "must follow the led suit"), ("ja", "台札のスート")):
        said = _parse_says(state, code, lang)
        assert f"play {code}" in said and words in said
        assert t("unknown_move", lang, text=code, last=1, example="x")[:6] not in said


def _parse_says(state: xtarot.engine.State, text: str, lang: str) -> str:
    from rich.console import Console

    from xtarot.cli.play import PlaySession

    seat = state.current_player
    assert seat is not None
    console = Console(width=WIDTH, color_system=None, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    bots = {s: "random" for s in range(state.players) if s != seat}
    session = PlaySession(console, state.game, seat, bots, 1, lang, fast=True)
    assert session.parse(state, state.legal_actions(), text) is None
    return console.export_text()


def test_several_cards_at_once() -> None:
    """``place`` / ``discard`` / ``pay`` take several cards in one input, all or none."""
    from rich.console import Console

    from xtarot.cli.play import PlaySession

    game = xtarot.load("arcana-duel")
    state = game.new_state(seed=2)
    seat = state.current_player
    assert seat is not None
    hand = state.view(seat)["hand"]
    console = Console(width=WIDTH, color_system=None, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    session = PlaySession(console, game, seat, {1 - seat: "random"}, 2, "en", fast=True)
    chosen = session.parse(state, state.legal_actions(), " ".join(hand[:3]).lower())
    assert isinstance(chosen, list) and [a.text for a in chosen] == [f"place {c}" for c in hand[:3]]
    chosen = session.parse(state, state.legal_actions(), f"place {hand[0]} {hand[1]}")
    assert isinstance(chosen, list) and len(chosen) == 2
    # A card not held: nothing is played, and the message names it.
    other = next(c for c in ("Kc", "Qd", "T21", "2s") if c not in hand)
    assert session.parse(state, state.legal_actions(), f"place {hand[0]} {other}") is None
    assert other in console.export_text()


def test_auto_plays_forced_moves(tmp_path: Path) -> None:
    """``--auto``: a forced move is played without a prompt (and said so)."""
    path = tmp_path / "auto.json"
    result = invoke(
        "play", "extendori", "--players", "3", "--seed", "6", "--fast", "--auto",
        "--bots", "random", "-o", "hands=1", "--save", str(path), input="1\n" * 200,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = xtarot.load_record(path)
    walk = xtarot.replay(record, upto=0)
    mine = 0
    for text in record["actions"]:
        mine += walk.current_player == 0
        walk.apply(text)
    prompts = result.stdout.count("Your move (1-")
    echoes = [line for line in result.stdout.splitlines() if line.startswith("You: ")]
    forced = sum(t("auto_move", "en") in line for line in echoes)
    assert forced > 0 and prompts + forced == mine


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
        sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(24, WIDTH)
    )
    child.delaybeforesend = None
    waits = [prompt_re("ja"), re.escape(t("next_hand_enter", "ja"))]
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


def test_sono_arcana_full_game_by_card_codes_in_japanese(tmp_path: Path) -> None:
    """Seat 2 of 4 types moves as card codes (any case), whole texts with mangled case
    and spacing, and an ambiguous code (bid up or down?) that is asked again."""
    pexpect = pytest.importorskip("pexpect")
    lang = "ja"
    path = tmp_path / "match-ja.json"
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", "sono-arcana", "--players", "4", "--seat", "2",
            "--seed", "2024", "--lang", lang, "--save", str(path), "--fast"]  # fmt: skip
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=20, dimensions=(24, WIDTH)
    )
    child.delaybeforesend = None
    transcript: list[str] = []
    turns = 0
    coded = ambiguous = False
    try:
        while True:
            found = child.expect([prompt_re(lang), pexpect.EOF])
            transcript.append(child.before)
            if found == 1:
                break
            turns += 1
            moves = menu_moves(child.before, lang)
            assert moves, child.before
            if turns == 2:
                text = moves[max(moves, key=int)]
                child.sendline("  " + text.upper().replace(" ", "   ") + " ")
            elif not coded and any(m.startswith("play ") for m in moves.values()):
                code = next(m for m in moves.values() if m.startswith("play ")).split()[1]
                child.sendline(code.lower())
                coded = True
            elif not ambiguous and any(m.startswith("bid up ") for m in moves.values()):
                code = next(m for m in moves.values() if m.startswith("bid up ")).split()[2]
                child.sendline(code)  # bid up or bid down? asks again
                child.expect(prompt_re(lang))
                transcript.append(child.before)
                assert f"bid up {code}, bid down {code}" in " ".join(child.before.split())
                ambiguous = True
                child.sendline("1")
            else:
                child.sendline(str(1 + turns % len(moves)))
    finally:
        child.close()
    out = "".join(transcript)
    assert child.exitstatus == 0, out[-3000:]
    assert turns >= 16  # at least one decision per round
    assert coded and ambiguous
    assert t("game_over", lang) in out and t("final_scores", lang) in out
    assert "あなた：" in out and "第1ラウンド" in out
    check_transcript(out, INFOS[[i.id for i in INFOS].index("sono-arcana")], lang, you=1)
    rec = xtarot.load_record(path)
    assert rec["meta"]["human_seat"] == 1
    state = xtarot.replay(rec)
    assert state.is_terminal
    replay = invoke("replay", str(path), "--lang", lang)
    assert replay.exit_code == 0, replay.output
    assert t("final_scores", lang) in replay.stdout
    assert t("sa_round", lang, n=len(state.public_view()["rounds"])) in replay.stdout


# -- screens ---------------------------------------------------------------------------
def _render(renderable: object, width: int = WIDTH) -> str:
    from rich.console import Console

    console = Console(width=width, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.id)
def test_every_screen_renders_every_position(info: xtarot.GameInfo) -> None:
    """A random match, seen by seat 0: the board, the menu, every announcement, hand
    ends and the result render in both languages at 80 columns, and no announcement
    names a card seat 0 never saw."""
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
                    assert named <= shown | visible_codes(seen), (line.plain, named - shown)
            if len(state.deals) > hands:
                for item in ui.hand_end(before, after, lang):
                    _render(item)
            if steps % 15 == 0 or state.is_terminal:
                text = _render(ui.view(after, lang, "title", lines))
                assert "title" in text
                if after.get("legal_actions"):
                    _render(ui.menu(after, after["legal_actions"], lang))
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
    # By default a person plays the game's heuristic bot when there is one, else ISMCTS:
    # the command that replays the match (shown when it ends) names it.
    meta = invoke("play", "sono-arcana", "--players", "3", "--seed", "1", "--fast",
                  input="1\n" * 400)  # fmt: skip
    assert "--bots heuristic" in meta.stdout
    budget = invoke("play", "sono-arcana", "--bots", "ismcts:0")
    assert budget.exit_code == 2 and "ismcts:N" in budget.output


def test_ctrl_c_offers_to_save_and_exits_130() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", "matto", "--players", "3", "--fast", "--lang", "en"]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(24, WIDTH)
    )
    child.delaybeforesend = None
    try:
        child.expect(prompt_re("en"))
        child.sendintr()
        # The prompt is printed just before input() waits: a SIGINT that lands between
        # the two (a busy machine) is noted but does not wake readline's select(), so it
        # takes effect with the next key, as a person pressing Ctrl-C again would see.
        if child.expect([re.escape(t("quit_save", "en")), pexpect.TIMEOUT], timeout=5):
            child.sendintr()
            child.expect(re.escape(t("quit_save", "en")))
        assert "Match abandoned." in child.before and "--seed" not in child.before
        child.sendline("n")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130


def test_play_without_a_game_asks_which() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, **ENV, "PYTHONPATH": SRC}
    args = ["-m", "xtarot.cli.main", "play", "--lang", "ja", "--fast", "--seed", "1"]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(24, WIDTH)
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
        child.expect(prompt_re("ja"))
        assert "そのアルカナは欲しくない" in child.before
        child.sendline("q")
        child.expect(re.escape(t("quit_save", "ja")))
        child.sendline("n")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == EXIT_ABANDONED


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


def test_boards_show_the_trick_leader_and_compact_menus() -> None:
    """Who is winning the trick (by the game's rules), Fairy 500's bids as a grid, calls
    and discards as cards by suit, at 80 columns in both languages."""
    from xtarot.cli.render import ui_for

    game = xtarot.load("fairy500", players=4)
    state = game.new_state(seed=3)
    ui = ui_for("fairy500")
    seat = state.current_player
    assert seat is not None
    bids = state.view(seat)
    for lang in ("en", "ja"):
        menu = _render(ui.menu(bids, bids["legal_actions"], lang))
        assert t("f5_bid_grid", lang) in menu and "open-hand-misere" in menu
        assert max(width(line) for line in menu.splitlines()) <= WIDTH
        assert "bid 7c" not in menu  # a grid of numbers, not a list of 38 texts
    rng = random.Random(3)
    seen_grouped = seen_winning = False
    while not state.is_terminal and not (seen_grouped and seen_winning):
        view = state.view(state.current_player)  # type: ignore[arg-type]
        if view["phase"] in ("call", "discard"):
            menu = _render(ui.menu(view, view["legal_actions"], "en"))
            verb = view["phase"]
            assert menu.splitlines()[0].startswith(verb) and f"{verb} " not in menu
            seen_grouped = True
        trick = (view.get("trick") or {}).get("cards") or []
        if len(trick) >= 2:
            board = _render(ui.view(view, "en", "Fairy 500"))
            winner = ui.winner_of(view, trick)  # type: ignore[attr-defined]
            assert f"winning: {seat_label(winner, 'en', view['seat'])} with" in board
            seen_winning = True
        legal = state.legal_actions()
        bids_only = [a for a in legal if a.text in ("pass", "bid 6nt")]
        state.apply(rng.choice(bids_only or legal))
    assert seen_grouped and seen_winning


# -- grail-mahjong: the rulebook's card names, readable melds (issue #37) ---------------------
def test_grail_mahjong_names_its_cup_specials_as_the_rules_do() -> None:
    from xtarot.cli.render import action_text, card_text

    gm = "grail-mahjong"
    assert "Rest of the Grail" in action_text("discard Rc", "en", game=gm).plain
    assert "聖杯の休息" in action_text("discard Rc", "ja", game=gm).plain
    assert "Luck of the Grail" in card_text("Lc", "en", game=gm).plain
    assert "聖杯の幸運" in card_text("Lc", "ja", game=gm).plain
    assert "ダーザの杯" in card_text("Oc", "ja", game=gm).plain
    # Other games keep the plain card names: Rc is the R of cups in Extendori.
    assert "R(11) of cups" in action_text("play Rc", "en", game="extendori").plain
    # Played through: never "R(11) of cups" / "L(14) of cups", the rules' names instead.
    seen = ""
    for lang in ("en", "ja"):
        for seed in (1, 2, 3):  # single hands: 2 and 3 show Rc (a whole match took 10 s)
            result = invoke("play", gm, "--seed", str(seed), "-p", "4", "--fast", "--lang",
                            lang, "--bots", "random", "-o", "hands=1",
                            input="1\n" * 300 + "n\n")  # fmt: skip
            assert result.exit_code in (0, EXIT_ABANDONED), result.output
            seen += result.stdout
    assert "R(11)" not in seen and "L(14)" not in seen
    assert "Rest of the Grail" in seen and "聖杯の休息" in seen


def test_grail_mahjong_bot_melds_read_as_words_with_melds_counted_from_1() -> None:
    """A bot's ``add Oc=6d 1`` was shown as that raw text, its meld numbered from 0."""
    from xtarot.agents import decision_for, make_agent
    from xtarot.cli.screens.grail_mahjong import GrailMahjongUI

    ui = GrailMahjongUI()
    found: set[str] = set()
    for seed in range(40):
        state = xtarot.load("grail-mahjong", players=3).new_state(seed=seed)
        bot = make_agent("heuristic", seed)
        while not state.is_terminal and len(found) < 3:
            action = bot.act(decision_for(state, peek=True))
            actor = state.current_player
            before = state.view(0)
            seen = state.action_seen_by(action, 0)
            state.apply(action)
            words = action.text.split()
            if actor == 0 or words[0] not in ("pon", "chi", "add"):
                continue
            for lang in ("en", "ja"):
                line = ui.announce(before, state.view(0), actor, lang, seen=seen)[0].plain
                assert action.text not in line, line  # not the raw action text
                if words[0] == "add":
                    n = int(words[-1]) + 1  # counted from 1
                    assert (f"to meld {n}:" if lang == "en" else f"面子{n}に") in line, line
                    found.add("add")
                else:
                    kind = {"pon": ("pon", "ポン"), "chi": ("chi", "チー")}[words[0]]
                    assert kind[lang == "ja"] in line, line
                    found.add(words[0])
                assert all(w.split("=")[0] in line for w in words[1:] if not w.isdigit())
        if len(found) == 3:
            break
    assert found == {"add", "pon", "chi"}


# -- header lines and tables within 80 columns (issue #37) ------------------------------------
@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.id)
def test_every_header_line_fits_80_columns_in_both_languages(info: xtarot.GameInfo) -> None:
    """Measured as a terminal shows it (double-width characters count twice): a header
    that does not fit is broken between its fields, never wrapped inside one."""
    from rich.cells import cell_len
    from rich.console import Console

    from xtarot.cli.render import ui_for

    ui = ui_for(info.id)
    checked = 0
    for players in info.players:
        game = xtarot.load(info.id, players=players)
        for seed in range(2):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            while True:
                view = state.view(state.current_player or 0)
                for lang in ("en", "ja"):
                    title = info.name(lang)
                    shown = ui.header_lines(view, lang, title)
                    lines = shown.plain.split("\n")
                    assert all(cell_len(line) <= WIDTH for line in lines), lines
                    raw = ui.header(view, lang, title).plain
                    assert squeeze(shown.plain) == squeeze(raw)  # every field kept
                    checked += 1
                if state.is_terminal:
                    break
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    assert checked > 100
    # The board shows the fitted header (a wide console does not wrap it either).
    console = Console(width=200, color_system=None)
    view = xtarot.load(info.id).new_state(seed=1).view(0)
    with console.capture() as cap:
        console.print(ui.view(view, "ja", info.name("ja")))
    board = cap.get().splitlines()
    assert board[1].rstrip() == ui.header_lines(view, "ja", info.name("ja")).plain.split("\n")[0]


def test_tournament_table_fits_80_columns_without_cutting_numbers() -> None:
    from rich.cells import cell_len

    for lang in ("en", "ja"):
        result = runner.invoke(
            app,
            ["tournament", "fairy500", "-p", "4", "--agents", "heuristic,random", "-n", "8",
             "--seed", "1", "-w", "1", "-o", "hands=1", "--lang", lang],
            env={**ENV, "COLUMNS": "80"},
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        table = result.stdout.split("\n")
        assert all(cell_len(line) <= WIDTH for line in table), table
        assert "…" not in result.stdout  # no interval cut short
        assert re.search(r"\(-?\d+(\.\d)?–-?\d+(\.\d)?\)", result.stdout)  # whole intervals


def test_undo_takes_back_a_whole_attack_typed_on_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``attack T20 at down`` typed at once is one decision: ``undo`` takes back both of
    its steps, not just ``at down`` (issue #37)."""
    from xtarot.cli import play as play_module

    script: dict[str, object] = {"typed": None, "start": None, "after_undo": None}

    def ask(self: play_module.PlaySession, prompt: str) -> str:
        state = self.state
        assert state is not None
        if script["after_undo"] is None and script["typed"] is not None:
            if script["start"] == "undone":  # the prompt after the undo
                script["after_undo"] = len(state.history)
                return "q"
            script["start"] = "undone"
            return "undo"
        if script["typed"] is None:
            attacks = [a.text for a in state.legal_actions() if a.text.startswith("attack ")]
            if attacks:
                trial = state.clone()
                trial.apply(attacks[0])
                target = next(a.text for a in trial.legal_actions() if a.text.startswith("at "))
                script["typed"] = f"{attacks[0]} {target}"
                script["length"] = len(state.history)
                return str(script["typed"])
        if "[y/N]" in prompt:
            return "n"
        return "1"

    monkeypatch.setattr(play_module.PlaySession, "ask", ask)
    result = invoke("play", "arcana-duel", "--seed", "5", "--fast", "--bots", "random")
    assert result.exit_code == EXIT_ABANDONED, result.output
    assert script["typed"] is not None
    # Back to just before the line was typed: both steps taken back, and said so.
    assert script["after_undo"] == script["length"], script
    said = t("undo_done", "en", action=script["typed"])
    assert squeeze(said) in squeeze(result.stdout), result.stdout[-2000:]
