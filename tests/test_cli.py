"""The command-line interface: games, rules, play, simulate, replay and errors.

Most tests drive the typer app in-process (CliRunner); the end-to-end tests run the
real program (``python -m xtarot.cli.main play ...``) in a pseudo-terminal through
pexpect, with a scripted human seat that plays a whole match.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import xtarot
from xtarot.agents import RandomAgent, play_match
from xtarot.cli.i18n import MESSAGES, pick_lang, t
from xtarot.cli.main import app, default_players
from xtarot.cli.play import EXIT_ABANDONED
from xtarot.cli.render import GameUI, action_text, compact, ui_for
from xtarot.cli.screens import SonoArcanaUI

runner = CliRunner()
SRC = str(Path(xtarot.__file__).resolve().parents[1])
ENV = {"LANG": "C.UTF-8", "LC_ALL": "", "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"}


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), input=input, env={**ENV, **(env or {})})


def record_of(seed: int = 3, players: int = 4) -> dict[str, object]:
    game = xtarot.load("sono-arcana", players=players)
    state = play_match(game, [RandomAgent(s) for s in range(players)], seed=seed)
    return state.record()


# -- languages -------------------------------------------------------------------------
def test_every_message_has_both_languages() -> None:
    for key, (en, ja) in MESSAGES.items():
        assert en.strip() and ja.strip(), key
        assert set(re.findall(r"{(\w+)", en)) == set(re.findall(r"{(\w+)", ja)), key


def test_language_comes_from_the_locale() -> None:
    assert pick_lang(None, {"LANG": "ja_JP.UTF-8"}) == "ja"
    assert pick_lang(None, {"LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}) == "ja"
    assert pick_lang(None, {"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"}) == "en"
    assert pick_lang(None, {}) == "en"
    assert pick_lang("JA", {}) == "ja"
    with pytest.raises(ValueError, match="use en or ja"):
        pick_lang("fr", {})


# -- games -----------------------------------------------------------------------------
def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"xtarot {xtarot.__version__}"


def _cells(line: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_games_list_fits_80_columns(lang: str) -> None:
    result = invoke("games", "--lang", lang, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert t("games_title", lang) in out
    assert all(_cells(line) <= 80 for line in out.splitlines())
    for info in xtarot.games():
        assert info.id in out and info.name_ja in out and info.name_en in out
        for o in info.options:
            assert o.name in out
    # People read player counts and defaults, not Python values.
    assert "None" not in out and "2-2" not in out
    if lang == "en":
        assert "2 players" in out and "3–8 players" in out
        assert "teams = true | false   default: false" in out
        assert "seats 1+3 against 2+4" in out  # seats counted from 1
    else:
        assert "2人" in out and "3〜8人" in out and "既定値：指定なし" in out


def test_games_json() -> None:
    result = invoke("games", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [d["id"] for d in data] == [i.id for i in xtarot.games()]
    sono = next(d for d in data if d["id"] == "sono-arcana")
    assert sono["players"] == [3, 5]
    assert sono["options"]["teams"]["default"] is False


def test_default_players_prefers_four() -> None:
    info = next(i for i in xtarot.games() if i.id == "sono-arcana")
    assert default_players(info) == 4
    for info in xtarot.games():
        assert default_players(info) in info.players


# -- rules -----------------------------------------------------------------------------
def test_rules_in_english_and_japanese() -> None:
    en = invoke("rules", "sono-arcana", "--lang", "en")
    assert en.exit_code == 0, en.output
    assert "I Don't Want That Arcana" in en.stdout
    assert "talisman" in en.stdout and "bid up Kc" in en.stdout
    ja = invoke("rules", "sono-arcana", "--lang", "ja")
    assert ja.exit_code == 0
    assert "護符" in ja.stdout and "親" in ja.stdout and "台札" in ja.stdout
    by_locale = invoke("rules", "sono-arcana", env={"LANG": "ja_JP.UTF-8"})
    assert "護符" in by_locale.stdout


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_japanese_rules_render_markdown_and_wrap_by_kinsoku(info: xtarot.GameInfo) -> None:
    """No literal ``**``; at 80 columns no line starts with 。、）」 (Japanese line
    breaking), and no line is wider than the terminal."""
    result = invoke("rules", info.id, "--lang", "ja", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "**" not in result.stdout
    for line in result.stdout.splitlines():
        assert not line.lstrip().startswith(("。", "、", "）", "」", "ー")), line
        assert _cells(line) <= 80, line


def test_rules_files_are_package_data_for_every_registered_game_that_has_them() -> None:
    from importlib import resources

    folder = resources.files("xtarot").joinpath("rules")
    for lang in ("en", "ja"):
        text = folder.joinpath(f"sono-arcana.{lang}.md").read_text(encoding="utf-8")
        assert 30 <= len(text.splitlines()) <= 80


def test_rules_unknown_game() -> None:
    result = invoke("rules", "poker")
    assert result.exit_code == 2
    assert "unknown game 'poker'" in result.output
    assert "sono-arcana" in result.output
    assert "Traceback" not in result.output


# -- errors ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "nope"], "unknown game 'nope'"),
        (["play", "sono-arcana", "--players", "9"], "for 3 to 5 players, not 9"),
        (["play", "sono-arcana", "--option", "teams=maybe"], "takes true or false"),
        (["play", "sono-arcana", "--option", "colour=red"], "unknown option colour"),
        (["play", "sono-arcana", "--option", "teams"], "KEY=VALUE"),
        (["play", "sono-arcana", "--players", "3", "-o", "teams=true"], "needs 4 players"),
        (["play", "sono-arcana", "--bots", "genius"], "unknown bot 'genius'"),
        (["play", "sono-arcana", "--bots", "random,random"], "one bot for every seat"),
        (["play", "sono-arcana", "--seat", "5"], "seat 5 does not exist"),
        (["play", "sono-arcana", "--seat", "0"], "seats are numbered 1 to 4"),
        (["play", "sono-arcana", "--lang", "fr"], "use en or ja"),
        (["simulate", "sono-arcana", "--games", "0"], "at least 1"),
        (["simulate", "nope", "--games", "2"], "unknown game"),
    ],
)
def test_errors_exit_2_without_traceback(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_errors_in_japanese_are_labelled_in_japanese() -> None:
    result = invoke("play", "nope", "--lang", "ja")
    assert result.exit_code == 2
    assert "エラー" in result.output and "nope" in result.output
    # The engine's own messages are said in the user's language too.
    players = invoke("play", "sono-arcana", "--players", "9", env={"LANG": "ja_JP.UTF-8"})
    assert players.exit_code == 2 and "3〜5人用" in players.output
    option = invoke("play", "sono-arcana", "-p", "3", "-o", "teams=true", "--lang", "ja")
    assert option.exit_code == 2 and "4人のときだけ" in option.output


def test_a_record_error_follows_the_users_language_not_the_records(tmp_path: Path) -> None:
    rec = record_of()
    rec["meta"] = {"lang": "en"}
    rec["actions"][1] = "play Kw" if rec["actions"][1] != "play Kw" else "play Qw"  # type: ignore[index]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), "utf-8")
    ja = invoke("play", "--resume", str(path), env={"LANG": "ja_JP.UTF-8"})
    assert ja.exit_code == 1 and "2手目" in ja.output and "再現できません" in ja.output
    replay = invoke("replay", str(path), "--lang", "ja")
    assert replay.exit_code == 1 and "エラー：" in replay.output


def _corrupt(rec: dict, how: str) -> str:
    """A record spoilt in one way, as the text of its file."""
    r = json.loads(json.dumps(rec))
    hand = r["deals"][0]["hands"][0]
    if how == "truncated":
        return json.dumps(r)[:200]
    if how == "unknown action":
        r["actions"][1] = "play Zz"
    elif how == "action after the end":
        r["actions"].append("play Kc")
    elif how == "card twice":
        hand[0] = r["deals"][0]["hands"][1][0]
    elif how == "not a card":
        hand[0] = "Zz"
    elif how == "hands missing":
        r["deals"][0]["hands"] = r["deals"][0]["hands"][:3]
    elif how == "pile missing":
        del r["deals"][0]["talismans"]
    elif how == "wrong type":
        r["seed"] = "seven"
    elif how == "parent":
        r["deals"][0]["parent"] = 9
    return json.dumps(r)


_SPOILT = ["missing file", "truncated", "unknown action", "action after the end", "card twice",
           "not a card", "hands missing", "pile missing", "wrong type", "parent"]  # fmt: skip


@pytest.mark.parametrize("how", _SPOILT)
def test_a_corrupt_record_is_reported_all_in_japanese(tmp_path: Path, how: str) -> None:
    """With --lang ja nothing of the message is English: the engine's reasons, the
    system's (no such file), JSON's (line and column) and the deal's are translated;
    only what the record itself holds (its texts, card codes, the game id) is quoted."""
    path = tmp_path / "spoilt.json"
    if how != "missing file":
        path.write_text(_corrupt(record_of(), how), "utf-8")
    for args in (["replay", str(path)], ["play", "--resume", str(path)]):
        result = invoke(*args, "--lang", "ja")
        assert result.exit_code == 1, result.output
        text = " ".join(result.output.split()).replace(str(path), "FILE")
        text = re.sub(r"'[^']*'", "", text)  # the record's own texts, quoted
        words = set(re.findall(r"[A-Za-z]{3,}", text)) - {
            "FILE",
            "JSON",
            "xtarot",
            "sono",
            "arcana",
        }
        assert not words, (how, result.output)
        assert "エラー：" in result.output


# -- simulate --------------------------------------------------------------------------
def test_simulate_json(tmp_path: Path) -> None:
    result = invoke(
        "simulate", "sono-arcana", "--players", "4", "--games", "20", "--seed", "5", "--json",
        "--records", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # exactly one JSON object on stdout
    assert data["games"] == 20 and data["players"] == 4 and data["seed"] == 5
    assert len(data["mean_score"]) == 4 and len(data["win_share"]) == 4
    assert sum(data["win_share"]) == pytest.approx(1.0)
    assert all(0 <= w <= 1 for w in data["win_share"])
    assert data["games_per_second"] > 0 and data["seconds"] > 0
    # The means and shares agree with the saved records, replayed independently.
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 20
    totals = [0.0] * 4
    wins = [0.0] * 4
    for f in files:
        state = xtarot.replay(xtarot.load_record(f))
        scores = state.scores()
        for s in range(4):
            totals[s] += scores.totals[s]
        for s in scores.winners:
            wins[s] += 1 / len(scores.winners)
    assert data["mean_score"] == pytest.approx([x / 20 for x in totals])
    assert data["win_share"] == pytest.approx([x / 20 for x in wins])
    # Same seed, same figures.
    again = json.loads(
        invoke("simulate", "sono-arcana", "--players", "4", "--games", "20", "--seed", "5",
               "--json").stdout
    )  # fmt: skip
    assert again["mean_score"] == data["mean_score"]


def test_simulate_table_and_team_option() -> None:
    result = invoke(
        "simulate", "sono-arcana", "-p", "4", "-n", "6", "--seed", "1", "-o", "teams=true"
    )
    assert result.exit_code == 0, result.output
    assert "mean score" in result.stdout and "win share" in result.stdout
    assert "games/s" in result.stdout
    ja = invoke("simulate", "sono-arcana", "-p", "3", "-n", "3", "--seed", "1", "--lang", "ja")
    assert "平均得点" in ja.stdout and "勝率" in ja.stdout


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_simulate_every_registered_game(info: xtarot.GameInfo) -> None:
    options = [f"{k}={v}" for k, v in info.bulk_options]
    args = ["simulate", info.id, "--games", "2", "--seed", "3", "--json"]
    for item in options:
        args += ["--option", item]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert sum(json.loads(result.stdout)["win_share"]) == pytest.approx(1.0)


# -- replay ----------------------------------------------------------------------------
def test_replay_good_record(tmp_path: Path) -> None:
    rec = record_of()
    path = tmp_path / "good.json"
    path.write_text(json.dumps(rec), "utf-8")
    result = invoke("replay", str(path), "--lang", "en")
    assert result.exit_code == 0, result.output
    out = result.stdout
    rounds = xtarot.replay(rec).public_view()["rounds"]
    for i in range(1, len(rounds) + 1):
        assert f"Round {i}:" in out
    assert "Final scores" in out
    assert f"(seed {rec['seed']})" in out  # a finished match: everything may be told
    assert "Hand 1 dealt:" in out
    winners = rec["result"]["winners"]  # type: ignore[index]
    assert ("Winner: " if len(winners) == 1 else "Shared win: ") in out
    ja = invoke("replay", str(path), "--lang", "ja", "--step", input="\n" * 400)
    assert ja.exit_code == 0
    assert "第1ラウンド" in ja.stdout and "最終得点" in ja.stdout
    stopped = invoke("replay", str(path), "--step", input="\n\nq\n")  # q stops the replay
    assert stopped.exit_code == 0 and "Final scores" not in stopped.stdout
    assert stopped.stdout.count(t("press_enter", "en")) == 3


def test_replay_tampered_record_names_the_bad_action(tmp_path: Path) -> None:
    rec = record_of()
    actions = rec["actions"]
    assert isinstance(actions, list)
    actions[1] = "play Kw" if actions[1] != "play Kw" else "play Qw"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), "utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 1
    assert "action 2" in result.output and actions[1] in result.output
    assert "Traceback" not in result.output
    (tmp_path / "junk.json").write_text("{not json", "utf-8")
    junk = invoke("replay", str(tmp_path / "junk.json"))
    assert junk.exit_code == 1 and "not valid JSON" in junk.output
    missing = invoke("replay", str(tmp_path / "missing.json"))
    assert missing.exit_code == 1 and "cannot read record" in missing.output


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_replay_tells_what_happened_in_every_game(info: xtarot.GameInfo, tmp_path: Path) -> None:
    """Not only the actions: trick winners, fights, draws and hand results."""
    players = 4 if 4 in info.players else info.min_players
    game = xtarot.load(info.id, players=players, **dict(info.bulk_options))
    state = play_match(game, [RandomAgent(s) for s in range(players)], seed=5)
    path = tmp_path / "r.json"
    xtarot.save_record(state, path)
    result = invoke("replay", str(path), "--lang", "en", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = " ".join(result.stdout.split())
    public = state.public_view()
    assert "Final scores" in out and "Seat 0" not in out
    if info.id in ("extendori", "fairy500"):
        assert out.count("wins the trick") == len(public["tricks"])
    if info.id == "arcana-duel":
        assert out.count(" attacks with ") >= len(public["combats"])
    if info.id == "grail-mahjong":
        assert "Hand won by" in out
    if info.id == "matto":
        assert " buys " in out
    if info.id == "sono-arcana":
        assert f"Round {len(public['rounds'])}:" in out


# -- rendering -------------------------------------------------------------------------
def _render(renderable: object, width: int = 120) -> str:
    console = Console(width=width, color_system=None)
    with console.capture() as cap:
        console.print(renderable)
    return cap.get()


def test_generic_renderer_shows_any_view_compactly() -> None:
    view = {
        "game": "made-up",
        "players": 3,
        "seat": 1,
        "phase": "play",
        "current_player": 1,
        "hand": ["Kc", "10s", "T13"],
        "legal_actions": ["play Kc"],
        "trick": {"leader": 0, "cards": [[0, "Qd"]]},
        "history": [[0, "pass"], [1, "bid 7c"], [2, "pass"], [0, "pass"], [1, "pass"]],
        "scores": {"totals": [1, 2, 3]},
        "flag": True,
        "nothing": None,
    }
    text = _render(GameUI().view(view, "en", "Made-up game"))
    # The hand: sorted by suit and order, one line per suit, majors with their names.
    assert "Majors T13 Death" in " ".join(text.split())
    assert "Cups Kc" in " ".join(text.split()) and "Swords 10s" in " ".join(text.split())
    assert text.index("T13") < text.index("Kc") < text.index("10s")
    assert "leader=0" in text and "Qd" in text
    assert "(5) …" in text  # long lists of records are shortened
    assert "legal_actions" not in text
    ja = _render(GameUI().view(view, "ja", "Made-up game"))
    assert "聖杯" in ja and "死神" in ja and "大アルカナ" in ja
    before = dict(view, trick={"leader": 0, "cards": []})
    line = GameUI().announce(before, view, 0, "en")[0].plain
    assert line.startswith("Seat 1: trick=") and "Qd" in line  # seats shown from 1


def test_suit_colours() -> None:
    red = action_text("play Kd", "en")
    black = action_text("play Ks", "en")
    assert any("red" in str(span.style) for span in red.spans)
    assert not any("red" in str(span.style) for span in black.spans)
    assert compact(["Kc", "3w"], "en").plain == "Kc 3w"


def test_sono_view_hides_face_down_cards_of_other_seats() -> None:
    game = xtarot.load("sono-arcana", players=4)
    ranks = ["K", "Q", "J", "R", "E", "B", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"]
    hands = [[r + suit for r in ranks] for suit in "cdsw"]  # seat 0 all cups, seat 1 coins...
    state = game.new_state(
        deal={"hands": hands, "talismans": [f"T{n}" for n in range(24)], "parent": 1}
    )
    ui = ui_for("sono-arcana")
    assert isinstance(ui, SonoArcanaUI)
    before = state.view(0)
    state.apply("lot 2")
    after = state.view(0)
    assert "Seat 2 reveals a second talisman: T1" in ui.announce(before, after, 1, "en")[0].plain
    state.apply("bid down Kd")
    secret = state.view(0)
    line = ui.announce(after, secret, 1, "en")[0].plain
    assert line == "Seat 2 bids face down"
    assert "Kd" not in _render(ui.view(secret, "en", "x"))
    assert "[face down]" in _render(ui.view(secret, "en", "x"))
    state.apply("play Ks")
    state.apply("play Kw")
    before = state.view(0)
    state.apply("play 2c")
    resolved = state.view(0)
    lines = [x.plain for x in ui.announce(before, resolved, 0, "en")]
    # The three Kings void each other; seat 0's 2c is the only valid card.
    assert lines[0].startswith("Round 1: parent Seat 2, face down, lot T0 T1 — Seat 2 Kd")
    assert "Kd (void)" in lines[0] and "→ Seat 1 (you) wins T0 T1" in lines[0]
    assert lines[1].startswith("Round 2: Seat 1 (you) is the parent; lot T2")


# -- play (in-process) ---------------------------------------------------------------------
def test_play_quit_and_save_on_request(tmp_path: Path) -> None:
    path = tmp_path / "quit.json"
    result = invoke(
        "play", "sono-arcana", "--seed", "12", "--fast", "--lang", "en",
        input=f"1\nq\ny\n{path}\n",
    )  # fmt: skip
    assert result.exit_code == EXIT_ABANDONED, result.output  # abandoned: not a success
    before, _, after = result.stdout.partition("Match abandoned.")
    assert "Seed 12" in before  # the seed the player chose is no secret to them
    assert "--seed" not in after and "Record saved" in after
    assert f"xtarot play --resume {path}" in after.replace("\n", "")
    rec = xtarot.load_record(path)
    assert rec["result"] is None and rec["meta"]["human_seat"] == 0
    replayed = invoke("replay", str(path))
    assert replayed.exit_code == 0 and "not finished" in replayed.stdout
    assert "seed 12" not in replayed.stdout  # only what Seat 1 saw


@pytest.mark.parametrize("where", ["no-such-folder/game.json", "."])
def test_an_unwritable_save_path_is_refused_before_anything_is_played(
    tmp_path: Path, where: str
) -> None:
    path = tmp_path / where
    result = invoke("play", "sono-arcana", "--seed", "2", "--fast", "--save", str(path),
                    input="1\n" * 400)  # fmt: skip
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and "Traceback" not in result.output  # nothing played
    why = "the folder does not exist" if where != "." else "it is a folder"
    assert "cannot write the record to" in result.output and why in result.output
    ja = invoke("play", "sono-arcana", "--save", str(path), "--lang", "ja", input="1\n")
    assert ja.exit_code == 2 and ja.stdout == ""
    assert "記録を" in ja.output and "書き込めません" in ja.output
    assert not any(c.isascii() and c.isalpha() for c in ja.output.split("：", 2)[-1])
    assert not (tmp_path / "no-such-folder").exists()
    # A writable path is checked without leaving a file behind or changing one.
    from xtarot.cli.play import unwritable

    kept = tmp_path / "kept.json"
    kept.write_text("old", "utf-8")
    assert unwritable(kept) is None and kept.read_text("utf-8") == "old"
    assert unwritable(tmp_path / "new.json") is None and not (tmp_path / "new.json").exists()


def test_a_save_that_fails_asks_for_another_file(tmp_path: Path) -> None:
    bad, good = tmp_path / "gone" / "quit.json", tmp_path / "quit.json"
    result = invoke("play", "sono-arcana", "--seed", "12", "--fast", "--lang", "en",
                    input=f"1\nq\ny\n{bad}\n{good}\n")  # fmt: skip
    assert result.exit_code == EXIT_ABANDONED, result.output
    out = " ".join(result.stdout.split())  # long paths wrap
    assert "Could not save the record" in out and "the folder does not exist" in out
    assert "Save it to another file instead" in out
    assert xtarot.load_record(good)["meta"]["human_seat"] == 0
    assert f"xtarot play --resume {good}" in result.stdout
    # q (or the input closed) gives up, saying so.
    dropped = invoke("play", "sono-arcana", "--seed", "12", "--fast", "--lang", "ja",
                     input=f"q\ny\n{bad}\nq\n")  # fmt: skip
    assert dropped.exit_code == EXIT_ABANDONED and "記録は保存しませんでした" in dropped.stdout


def test_a_save_failing_at_the_end_of_the_match_asks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--save was writable at the start, but not at the end (a full disk, a folder
    removed): the finished match is saved elsewhere, not lost."""
    import xtarot.cli.play as play_module

    path = tmp_path / "end.json"
    monkeypatch.chdir(tmp_path)  # the first input after the match names the other file
    real = play_module.save_record

    def flaky(state, where, meta=None):
        if Path(where) == path:
            raise OSError(28, "No space left on device")
        return real(state, where, meta=meta)

    monkeypatch.setattr(play_module, "save_record", flaky)
    result = invoke("play", "sono-arcana", "-p", "3", "--seed", "5", "--fast", "--save",
                    str(path), input="1\n" * 400)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "no space left on the device" in " ".join(result.stdout.split())
    assert "Save it to another file instead" in result.stdout
    assert xtarot.load_record(tmp_path / "1")["result"] is not None


def test_check_skips_a_part_whose_optional_extra_is_missing() -> None:
    """Without numpy (the adapters' extra) and the web extra, `xtarot check` says the
    tensors and the web layout were skipped and what to install, and passes (exit 0)."""
    import subprocess
    import sys

    # (a finder that says "no such module", as a real missing package does; a None in
    # sys.modules would not stop a compiled module's import)
    code = (
        "import sys\n"
        "class Missing:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.split('.')[0] in ('numpy', 'fastapi'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, Missing())\n"
        "sys.argv = ['xtarot', 'check', 'sono-arcana', '-p', '3', '--games', '4', "
        "'--lang', 'en']\n"
        "from xtarot.cli.main import main; main()"
    )
    env = {**ENV, "PYTHONPATH": SRC, "COLUMNS": "200"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert "– adapter tensors: skipped: numpy is not installed (pip install numpy)" in out
    assert (
        "web layout: skipped: fastapi is not installed (pip install --force-reinstall xtarot)"
        in out
    )
    assert "2 part(s) skipped" in out and "fail" not in out
    assert "2 件は省略" in t("check_passed_skipped", "ja", warnings=0, skipped=2)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_single_legal_move_is_prompted_as_such_not_as_1_to_1(lang: str) -> None:
    result = invoke("play", "extendori", "-p", "3", "-o", "hands=1", "--seed", "1", "--fast",
                    "--bots", "random", "--lang", lang, input="99\n1\n" * 200 + "n\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert t("prompt_one", lang) in out and t("bad_number_one", lang, n=99) in out
    assert not re.search(r"1(?:-|〜| to )1(?!\d)", out)


@pytest.mark.parametrize("spelling", ["yes", "1", "TRUE", "true"])
def test_a_yes_no_option_is_shown_by_its_canonical_value(spelling: str) -> None:
    result = invoke("play", "sono-arcana", "-o", f"teams={spelling}", "--fast", input="1\n" * 300)
    assert result.exit_code == 0, result.output
    assert "Options: teams=true" in result.stdout and "True" not in result.stdout
    assert "--option teams=true" in result.stdout  # the command that plays it again
    assert f"teams={spelling}" not in result.stdout or spelling == "true"


@pytest.mark.parametrize(
    ("options", "shown", "hidden"),
    [([], "Hand 1 (to ±500)", "/"), (["-o", "hands=1"], "Hand 1/1", "±500"),
     (["-o", "hands=3"], "Hand 1/3 (or ±500 first)", "(to ±")],
)  # fmt: skip
def test_the_fairy500_header_says_what_ends_the_match(
    options: list[str], shown: str, hidden: str
) -> None:
    result = invoke("play", "fairy500", "--seed", "3", "--fast", *options, input="q\nn\n")
    header = next(line for line in result.stdout.splitlines() if "Hand 1" in line)
    assert shown in header and hidden not in header, header
    ja = invoke("play", "fairy500", "--seed", "3", "--fast", "--lang", "ja", *options,
                input="q\nn\n")  # fmt: skip
    line = next(x for x in ja.stdout.splitlines() if "第1ハンド" in x)
    assert ("±500" in line) == ("±500" in shown), line


def test_grail_mahjongs_japanese_header_counts_hands_as_the_others_do() -> None:
    """Its header says ハンド, as the replay bar and the other games' headers do (it used
    to say 局)."""
    ja = invoke("play", "grail-mahjong", "--seed", "3", "--fast", "--lang", "ja", input="q\nn\n")
    assert "第1ハンド/" in ja.stdout and "局/" not in ja.stdout, ja.stdout[:800]


def test_an_unfinished_replay_shows_the_saving_seats_own_starting_hand(tmp_path: Path) -> None:
    path = tmp_path / "unfinished.json"
    played = invoke("play", "sono-arcana", "--seed", "12", "--seat", "2", "--fast",
                    "--save", str(path), input="1\n1\nq\n")  # fmt: skip
    assert played.exit_code == EXIT_ABANDONED, played.output
    rec = xtarot.load_record(path)
    mine = rec["deals"][0]["hands"][1]  # seat 2 (the API's seat 1) saved it
    for lang, head in (("en", "Hand 1: Seat 2 was dealt"), ("ja", "第1ハンドで2番席に配られた札")):
        result = invoke("replay", str(path), "--lang", lang)
        assert result.exit_code == 0, result.output
        opening = result.stdout.split(head, 1)[1].split("\n   1 ")[0]
        assert all(code in opening.split() for code in mine), (mine, opening)
        others = {c for s, hand in enumerate(rec["deals"][0]["hands"]) if s != 1 for c in hand}
        assert not others & set(opening.split())  # only the seat's own cards


def test_play_end_of_input_abandons_quietly() -> None:
    result = invoke("play", "sono-arcana", "--seed", "2", "--fast", input="")
    assert result.exit_code == EXIT_ABANDONED
    assert "Match abandoned." in result.stdout


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
def test_play_every_registered_game_with_the_generic_loop(info: xtarot.GameInfo) -> None:
    args = ["play", info.id, "--seed", "4", "--fast", "--lang", "en", "--bots", "random"]
    for k, v in info.bulk_options:
        args += ["--option", f"{k}={v}"]
    result = invoke(*args, input="1\n" * 400 + "q\nn\n")
    assert result.exit_code in (0, EXIT_ABANDONED), result.output
    assert result.exception is None
    assert "Legal moves" in result.stdout and "Seat 1 (you)" in result.stdout


def test_random_seed_is_shown_only_when_the_match_ends() -> None:
    quit_early = invoke("play", "sono-arcana", "--players", "3", "--fast", input="q\nn\n")
    assert quit_early.exit_code == EXIT_ABANDONED, quit_early.output
    assert "shown when the match ends" in quit_early.stdout
    assert "--seed" not in quit_early.stdout and "Seed " not in quit_early.stdout
    whole = invoke("play", "sono-arcana", "--players", "3", "--fast", input="1\n" * 400 + "n\n")
    assert whole.exit_code == 0, whole.output
    during, _, end = whole.stdout.partition("Game over")
    assert "--seed" not in during
    seed = re.search(r"--seed (\d+)", end)
    assert seed is not None and "Play this match again with:" in end
    again = invoke("play", "sono-arcana", "--players", "3", "--fast", "--seed", seed.group(1),
                   input="q\nn\n")  # fmt: skip
    assert f"Seed {seed.group(1)}" in again.stdout
    # Same seed, same deal: the first board the human sees is identical.
    first = during.split("Legal moves")[0].splitlines()[-12:]
    assert first == again.stdout.split("Legal moves")[0].splitlines()[-12:]


@pytest.mark.parametrize("info", xtarot.games(), ids=lambda i: i.id)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_of_every_registered_game(info: xtarot.GameInfo, lang: str) -> None:
    from xtarot.engine.registry import rules_markdown

    has_any = rules_markdown(info.id, lang) is not None  # built-in or a plugin's
    result = invoke("rules", info.id, "--lang", lang)
    if has_any:
        assert result.exit_code == 0, result.output
        assert result.stdout.strip()
    else:  # a game still being written: a clear message, no traceback
        assert result.exit_code == 1
        assert "no rules summary" in result.output or "ルール概要" in result.output


def test_tournament_json_and_table() -> None:
    result = runner.invoke(
        app,
        ["tournament", "sono-arcana", "-p", "3", "--agents", "heuristic,random", "-n", "6",
         "--seed", "2", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 6 and data["seed"] == 2
    rows = {r["agent"]: r for r in data["agents"]}
    assert set(rows) == {"heuristic", "random"}
    assert rows["heuristic"]["seats"] + rows["random"]["seats"] == 18
    assert sum(r["win_share"] * r["seats"] for r in rows.values()) == pytest.approx(6)
    table = runner.invoke(
        app, ["tournament", "sono-arcana", "-p", "3", "-n", "3", "--seed", "1", "--lang", "ja"]
    )
    assert table.exit_code == 0 and "公平な取り分" in table.stdout
    bad = runner.invoke(app, ["tournament", "sono-arcana", "--agents", "deep-blue"])
    assert bad.exit_code == 2 and "unknown bot 'deep-blue'" in bad.output


def test_progress_lines_when_not_on_a_terminal() -> None:
    """Piped or logged, a long run still says how far it is (on stderr)."""
    result = runner.invoke(
        app, ["tournament", "sono-arcana", "-p", "3", "-n", "10", "--seed", "1", "--lang", "en"]
    )
    assert result.exit_code == 0, result.output
    done = re.findall(r"Tournament: (\d+)/10 matches, \d+ s", result.stderr)
    assert len(done) >= 2 and done[-1] == "10"  # lines as it goes, and at the end
    assert "matches" not in result.stdout.split("seed")[-1]
    quiet = runner.invoke(
        app, ["simulate", "sono-arcana", "-p", "3", "-n", "4", "--seed", "1", "--json"]
    )
    assert quiet.exit_code == 0 and quiet.stderr == ""
    sim = runner.invoke(app, ["simulate", "sono-arcana", "-p", "3", "-n", "4", "--lang", "ja"])
    assert "シミュレーション中：4/4試合" in sim.stderr


def test_play_against_difficulty_levels_one_per_seat() -> None:
    result = invoke(
        "play", "sono-arcana", "--players", "3", "--seed", "3", "--fast", "--lang", "en",
        "--bots", "easy,hard:6", input="1\n" * 400 + "n\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout
    assert "--bots easy,hard:6" in result.stdout


def test_level_names_and_budgets_are_checked() -> None:
    from xtarot.cli.play import make_bot

    assert make_bot("normal", 1).name == "normal"
    assert make_bot("expert:30", 1).iterations == 30
    assert make_bot("hard:30", 1).iterations == 30
    with pytest.raises(ValueError, match="expert:N or hard:N"):
        make_bot("easy:3", 1)
    result = invoke("play", "sono-arcana", "--bots", "medium")
    assert result.exit_code == 2 and "unknown bot 'medium'" in result.output
    assert "easy" in result.output and "hard" in result.output
    help_text = " ".join(invoke("play", "--help").stdout.replace("│", " ").split())
    assert "a level, easy | normal | hard" in help_text
