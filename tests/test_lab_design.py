"""The lab's second step: restricted players, the feel measures, the skill trace and the
tuning study — known values on hand-built matches, determinism (1 and 2 workers),
resume with ``--out``, ``--json`` and bad input.  Every study here is tiny: the whole
module's budget is a few seconds of CPU (Ray is checked in test_lab.py, beside the
lab's other Ray test, which starts Ray once)."""

from __future__ import annotations

import io
import json
import math
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pandas")
pytest.importorskip("optuna")

from rich.console import Console
from typer.testing import CliRunner

import xtarot
from xtarot.agents import Decision, RandomAgent, decision_for
from xtarot.agents.restrict import (
    RestrictedAgent,
    parse_restriction,
    parse_seat_restrictions,
    restrictions_for,
)
from xtarot.cli.lab import TEXT, print_skill
from xtarot.cli.main import app
from xtarot.engine import Action
from xtarot.lab import read_rows
from xtarot.lab.feel import PACE, FeelTracker, feel_of_trajectory
from xtarot.lab.runner import Design, execute
from xtarot.lab.studies import run_feel, run_seats, run_skill
from xtarot.lab.tune import parse_space, parse_target, run_tune


def _plain(df: Any) -> Any:
    return df.drop(columns=["seconds"]).reset_index(drop=True)


def _timeless(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "played", "out")}


# -- restricted players ------------------------------------------------------------------------
def _decision(texts: list[str], view: dict[str, Any] | None = None) -> Decision:
    legal = [Action(i, t) for i, t in enumerate(texts)]

    def no_worlds(rng: random.Random) -> Any:
        raise AssertionError("not sampled")

    return Decision(0, view or {"legal_actions": texts}, legal, no_worlds)


def test_restrictions_filter_moves_and_never_leave_none() -> None:
    no_chi = RestrictedAgent(RandomAgent(1), parse_restriction("grail-mahjong", "no-chi"))
    choice = _decision(["pass", "claim chi 2c Oc=3c", "claim pon 3c 3s"])
    assert no_chi.allowed(choice) == [choice.legal[0], choice.legal[2]]
    assert all(no_chi.act(choice).text != "claim chi 2c Oc=3c" for _ in range(30))
    assert (no_chi.removed, no_chi.lifted) == (31, 0)
    # a restriction that would take every move is lifted for that decision
    only_chi = _decision(["claim chi 2c Oc=3c", "claim chi 4c 6c"])
    assert no_chi.act(only_chi) in only_chi.legal
    assert no_chi.lifted == 1 and no_chi.allowed(only_chi) == list(only_chi.legal)
    # fairy500: never bids above 7 (misères stay), never leads an F
    state = xtarot.load("fairy500", players=4).new_state(seed=3)
    bids = RestrictedAgent(RandomAgent(2), parse_restriction("fairy500", "max-bid=7"))
    kept = [a.text for a in bids.allowed(decision_for(state))]
    assert "bid 7nt" in kept and "bid misere crazy" in kept and "pass" in kept
    assert not any(t.startswith(("bid 8", "bid 9", "bid 10")) for t in kept)
    lead = parse_restriction("fairy500", "no-lead-f")
    leading = _decision(["play Fc", "play 5s"], {"trick": {"leader": 0, "cards": []}})
    following = _decision(["play Fc", "play 5s"], {"trick": {"leader": 1, "cards": [[1, "4c"]]}})
    assert [a.text for a in RestrictedAgent(RandomAgent(3), lead).allowed(leading)] == ["play 5s"]
    assert len(RestrictedAgent(RandomAgent(3), lead).allowed(following)) == 2
    never = RestrictedAgent(RandomAgent(4), parse_restriction("matto", "never=draw discard"))
    assert [a.text for a in never.allowed(_decision(["draw stock", "draw discard"]))] == [
        "draw stock"
    ]
    assert [r.name for r in restrictions_for("arcana-duel")] == ["never", "no-down-attack"]


def test_restricted_seats_in_play_order_change_what_is_played() -> None:
    """Every seat of grail-mahjong told never to claim: no claim is made in any match,
    where the same deals unrestricted have claims (so the test can fail)."""
    free = Design.build("grail-mahjong", 3, agents=["random"], options={"hands": 1})
    rules = ["1:no-claims", "2:no-claims", "3:no-claims"]
    tied = Design.build("grail-mahjong", 3, agents=["random"], options={"hands": 1}, restrict=rules)
    free_rows = execute(free, 2, range(8), workers=1)
    tied_rows = execute(tied, 2, range(8), workers=1)
    claims = [json.loads(r["events"]) for r in free_rows]
    assert sum(e["melds.claim.pon"] + e["melds.claim.chi"] for e in claims) > 0
    for row in tied_rows:
        events = json.loads(row["events"])
        assert events["melds.claim.pon"] == events["melds.claim.chi"] == 0
    assert sum(json.loads(r["events"])["restrict.removed"] for r in tied_rows) > 0
    assert tied.to_dict()["restrictions"] == ["1:no-claims", "2:no-claims", "3:no-claims"]
    assert "restrictions" not in free.to_dict()  # earlier directories keep their design
    # seat 1 is the seat that acts first, whichever table seat that is
    CHOSEN.clear()
    MADE[0] = 0
    first_only = Design.build(
        "matto", 3, agents=["test_lab_design:recorder"], restrict=["1:no-discard-draw"]
    )
    rows = execute(first_only, 5, range(6), workers=1)
    assert len(CHOSEN) == 6 and sorted({r["first"] for r in rows}) == [0, 1, 2]
    for row, moves in zip(rows, CHOSEN, strict=True):
        first = [text for seat, text in moves if seat == row["first"]]
        assert "draw discard" not in first and "draw stock" in first
    others = [
        text
        for row, moves in zip(rows, CHOSEN, strict=True)
        for seat, text in moves
        if seat != row["first"]
    ]
    assert "draw discard" in others  # the other seats do take it


#: per match played by :func:`recorder` bots: (table seat, move) in order
CHOSEN: list[list[tuple[int, str]]] = []


class Recorder(RandomAgent):
    """Random play that notes every move it makes (in this process)."""

    def act(self, decision: Decision) -> Action:
        action = super().act(decision)
        CHOSEN[-1].append((decision.seat, action.text))
        return action


def recorder(seed: int) -> Recorder:
    """A bot for a 3-player match: the first of every three starts a new match."""
    MADE[0] += 1
    if MADE[0] % 3 == 1:
        CHOSEN.append([])
    return Recorder(seed)


MADE = [0]


def test_restriction_specs_and_bad_input() -> None:
    rules = parse_seat_restrictions("fairy500", 4, ["2:max-bid=7+no-nt", "4:no-misere;1:no-nt"])
    assert [r.text for r in rules] == ["1:no-nt", "2:max-bid=7+no-nt", "4:no-misere"]
    assert [r.seat for r in rules] == [0, 1, 3]
    for bad, said in [
        (["2:no-such"], "unknown restriction 'no-such' for fairy500; restrictions: never=TEXT"),
        (["5:no-nt"], "restricted seat 5: seats are 1 to 4"),
        (["no-nt"], "a restriction is SEAT:NAME[=VALUE] with the seat from 1"),
        (["1:max-bid"], "restriction 'max-bid' needs a value: max-bid=INT"),
        (["1:max-bid=high"], "takes a whole number, not 'high'"),
        (["1:no-nt=3"], "takes no value"),
        (["1:no-chi"], "unknown restriction 'no-chi' for fairy500"),  # grail-mahjong's
    ]:
        with pytest.raises(ValueError, match=None) as err:
            parse_seat_restrictions("fairy500", 4, bad)
        assert said in str(err.value)


# -- feel measures -------------------------------------------------------------------------------
def test_feel_measures_of_hand_built_matches() -> None:
    # 3 players, 10 decisions; seat 2 wins after trailing: lead 0 -> 1 -> 2
    legal = [1, 3, 2, 4, 1, 2, 2, 3, 2, 2]
    seats = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    totals = [
        [0, 0, 0],
        [2, 0, 0],
        [2, 3, 0],
        [2, 3, 0],
        [2, 3, -1],
        [2, 5, -1],
        [2, 5, -1],
        [2, 5, -1],
        [2, 5, 4],
        [2, 5, 7],
        [2, 5, 9],
    ]
    ranks = [
        [1, 1, 1],
        [1, 2, 2],
        [2, 1, 3],
        [2, 1, 3],
        [2, 1, 3],
        [2, 1, 3],
        [2, 1, 3],
        [2, 1, 3],
        [3, 1, 2],
        [3, 2, 1],
        [3, 2, 1],
    ]
    feel = feel_of_trajectory(legal, seats, totals, ranks, hands=2)
    assert feel["decisions"] == 10 and feel["forced"] == 2 and feel["choices"] == 8
    assert feel["legal"] == 22 and feel["legal_at_choices"] == 20
    assert feel["bits"] == pytest.approx(2 * math.log2(3) + 2 + 5)
    assert feel["lead_changes"] == 2  # seat 0, then 1, then 2
    assert feel["drama_points"] == 6  # seat 2 at -1 while the leader had 5
    assert feel["drama"] == pytest.approx(6 / 9)
    assert feel["settled_at"] == pytest.approx(9 / 10)  # first for good from decision 9
    assert feel["comeback"] == 1.0  # alone in last place at decision 5 (of 10), then won
    # decision 8 (seat 2, last, 2 moves): leaders 5 and 2 are 3 apart, last is 6 behind 2nd
    assert feel["kingmaker_positions"] == 0.0  # gap of the leaders 3 > (2 - (-1)) / 2
    expected = PACE.minutes(8, feel["bits"], 2, 2)
    assert feel["minutes"] == pytest.approx(expected)
    assert expected == pytest.approx((2.0 * 8 + 1.0 * feel["bits"] + 0.5 * 2 + 30 * 2) / 60)
    # a kingmaker: late, last seat with a choice, leaders close, and the lead changes after
    legal = [2] * 10
    seats = [s % 3 for s in range(10)]
    totals = [[0, 0, 0]] + [[5, 1, 0]] * 7 + [[5, 4, 0]] * 2 + [[5, 6, 0]]
    ranks = [[1, 1, 1]] + [[1, 2, 3]] * 9 + [[2, 1, 3]]
    feel = feel_of_trajectory(legal, seats, totals, ranks, hands=1)
    # decision 8 (seat 2, the last fifth): leaders 5 and 4, the last seat 4 behind them
    assert feel["kingmaker_positions"] == 1.0
    assert feel["kingmaking"] == 1.0 and feel["lead_changes"] == 1.0
    assert feel["comeback"] == 0.0 and feel["drama_points"] == 4.0
    two = feel_of_trajectory(
        [2, 2], [0, 1], [[0, 0], [1, 0], [1, 2]], [[1, 1], [1, 2], [2, 1]], hands=1
    )
    assert two["kingmaker_positions"] == 0.0  # no kingmakers with two players
    with pytest.raises(ValueError, match="one standing more"):
        feel_of_trajectory([2], [0], [[0, 0]], [[1, 1]], hands=1)


def test_feel_tracker_counts_what_a_replay_counts() -> None:
    """The tracker's figures of a seeded match against counts taken independently by
    replaying its record move by move."""
    game = xtarot.load("sono-arcana", players=4)
    state = game.new_state(seed=11)
    agents = [RandomAgent(s) for s in range(4)]
    tracker = FeelTracker(state)
    while not state.is_terminal:
        decision = decision_for(state)
        tracker.before(len(decision.legal))
        state.apply(agents[state.current_player].act(decision))
        tracker.after(state)
    feel = tracker.result(state)
    replay = game.new_state(seed=11)
    legal, leaders, changes = [], [], 0
    for action in state.history:
        legal.append(len(replay.legal_actions()))
        replay.apply(action.text)
        top = [s for s, r in enumerate(replay.scores().ranks) if r == 1]
        if len(top) < 4:
            if leaders and leaders[-1] != top:
                changes += 1
            leaders.append(top)
    assert feel["decisions"] == len(state.history) == len(legal)
    assert feel["legal"] == sum(legal) and feel["forced"] == sum(1 for n in legal if n == 1)
    assert feel["lead_changes"] == changes > 0
    assert 0 < feel["settled_at"] <= 1 and feel["hands"] == 1


def test_feel_study_resumes_on_two_workers_with_the_same_figures(tmp_path: Path) -> None:
    kwargs: dict[str, Any] = {"games": 12, "seed": 3, "variants": ["default", "teams=true"]}
    one = run_feel("sono-arcana", 4, workers=1, **kwargs)
    data = one.to_dict()
    assert [v["variant"] for v in data["variants"]] == ["default", "teams=true"]
    default, teams = data["variants"]
    assert default["measured"] == default["matches"] == 12
    assert default["metrics"]["kingmaking"] is not None and teams["metrics"]["kingmaking"] is None
    assert default["metrics"]["decisions"]["mean"] == pytest.approx(
        one.rows[one.rows["variant"] == "default"]["length"].mean()
    )
    lo, hi = default["metrics"]["minutes"]["ci95"]
    assert 0 < lo <= default["metrics"]["minutes"]["mean"] <= hi

    def stop(done: int, total: int) -> None:
        if done >= 8:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_feel("sono-arcana", 4, workers=1, out=tmp_path / "f", on_progress=stop, **kwargs)
    assert 8 <= len(read_rows(tmp_path / "f")) < 24
    # resumed on two workers: the same matches and figures as one worker in one go
    resumed = run_feel("sono-arcana", 4, workers=2, out=tmp_path / "f", **kwargs)
    assert _plain(resumed.rows).equals(_plain(one.rows))
    assert _timeless(resumed.to_dict())["variants"] == data["variants"]


# -- the skill trace ---------------------------------------------------------------------------
class Coin(RandomAgent):
    """Random play under another name: a "level" no better than random."""

    name = "coin"


def coin(seed: int) -> Coin:
    return Coin(seed)


def test_skill_trace_resumes_on_two_workers_with_the_same_figures(tmp_path: Path) -> None:
    kwargs: dict[str, Any] = {
        "ladder": ["random", "easy", "normal"],
        "games": 4,
        "seed": 2,
        "boot": 20,
    }
    one = run_skill("sono-arcana", 3, workers=1, **kwargs)
    data = one.to_dict()
    steps = data["steps"]
    assert [(s["strong"], s["weak"], s["kind"]) for s in steps] == [
        ("easy", "random", "step"),
        ("normal", "easy", "step"),
        ("normal", "random", "bottom"),
    ]
    assert all(s["deals"] == 4 and s["hands_measured"] == 24 for s in steps)  # 6 seatings
    bottom = steps[2]
    assert bottom["win_share"] > 1 / 3 and bottom["edge"] > 0
    assert bottom["hands_to_recognise"] is not None and bottom["match_hands"] == 1
    assert bottom["matches_to_recognise"] == bottom["hands_to_recognise"]  # a match is a hand

    def stop(done: int, total: int) -> None:
        if done >= 30:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_skill("sono-arcana", 3, workers=1, out=tmp_path / "s", on_progress=stop, **kwargs)
    # resumed on two workers: the same matches and figures as one worker in one go
    resumed = run_skill("sono-arcana", 3, workers=2, out=tmp_path / "s", **kwargs)
    assert _plain(resumed.rows).equals(_plain(one.rows))
    assert 0 < resumed.to_dict()["played"] < 72
    assert _timeless(resumed.to_dict())["steps"] == steps


def test_a_step_that_barely_shows_is_called_luck_heavy() -> None:
    luck = run_skill("arcana-duel", 2, ladder=["random", coin], games=6, seed=1, workers=1, boot=20)
    data = luck.to_dict()
    assert data["luck_heavy"] is True and data["barely"] == ["coin>random"]
    said = _printed(print_skill, data, "en")
    assert "coin over random barely shows" in said and "(luck-heavy)" in said
    assert "運の要素が大きいゲーム" in _printed(print_skill, data, "ja")
    skill = run_skill(
        "arcana-duel", 2, ladder=["random", "heuristic"], games=4, seed=1, workers=1, boot=20
    ).to_dict()
    assert skill["luck_heavy"] is False and skill["steps"][0]["shows"] == "clearly"
    assert "Every step of the ladder shows" in _printed(print_skill, skill, "en")


def _printed(printer: Any, data: dict[str, Any], lang: str) -> str:
    buffer = io.StringIO()
    printer(Console(file=buffer, width=200, highlight=False, markup=False), data, lang)
    return " ".join(buffer.getvalue().split())


# -- tuning ------------------------------------------------------------------------------------
def test_tune_resumes_on_two_workers_with_the_same_trials(tmp_path: Path) -> None:
    kwargs: dict[str, Any] = {
        "targets": ["seats"],
        "space": ["hands=1..3", "chi_extension_draws", "komi=0..2:0.5"],
        "trials": 6,
        "batch": 3,
        "games": 6,
        "seed": 4,
    }
    one = run_tune("grail-mahjong", 2, workers=1, **kwargs).to_dict()
    assert [t["number"] for t in one["trials"]] == list(range(6))
    assert {t["state"] for t in one["trials"]} <= {"complete", "pruned"}
    assert one["best"]["state"] == "complete" and one["pareto"] == []
    best = one["best"]
    assert best["values"][0] == best["summary"]["seats"]["gap"]
    assert all(len(ci) == 2 for ci in best["summary"]["seats"]["win_shares_ci95"])
    command = one["confirm"][0]["commands"][0]
    assert command.startswith(
        "xtarot lab seats grail-mahjong -p 2 --agents heuristic --games 200 --seed 5"
    )
    assert f"-o hands={best['options']['hands']}" in command

    def stop(done: int, total: int) -> None:
        if done >= 20:  # within the second batch
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tune("grail-mahjong", 2, workers=1, out=tmp_path / "t", on_progress=stop, **kwargs)
    # resumed on two workers: the same trials as one worker in one go
    resumed = run_tune("grail-mahjong", 2, workers=2, out=tmp_path / "t", **kwargs).to_dict()
    assert _timeless(resumed)["trials"] == one["trials"]
    assert json.loads((tmp_path / "t" / "tune.json").read_text())["best"] == one["best"]
    again = run_tune("grail-mahjong", 2, workers=1, out=tmp_path / "t", **kwargs).to_dict()
    assert again["played"] == 0 and again["trials"] == one["trials"]
    with pytest.raises(ValueError, match="another tuning study"):
        run_tune("grail-mahjong", 2, workers=1, out=tmp_path / "t", **{**kwargs, "games": 8})


def test_tune_two_targets_give_a_pareto_front() -> None:
    data = run_tune(
        "matto",
        3,
        targets=["seats", "minutes=6"],
        space=["deals=1..3", "komi=0..2:1"],
        trials=5,
        batch=5,
        games=6,
        seed=1,
        workers=1,
    ).to_dict()
    assert data["best"] is None and data["pareto"]
    values = [t["values"] for t in data["trials"] if t["state"] == "complete"]
    settings = [json.dumps([t["options"], t["levers"]], sort_keys=True) for t in data["pareto"]]
    assert len(settings) == len(set(settings))  # a setting proposed again is one point
    for t in data["pareto"]:  # no trial is better on both
        assert not any(v[0] < t["values"][0] and v[1] < t["values"][1] for v in values)
    # deals multiply the minutes of a match; komi changes no match
    for t in data["trials"]:
        minutes = t["summary"]["minutes"]
        assert minutes["deals"] == t["levers"]["deals"]
    commands = data["confirm"][0]["commands"]
    assert any(c.startswith("xtarot lab seats matto") for c in commands)
    assert any(c.startswith("xtarot lab feel matto") for c in commands)


def test_tune_and_restriction_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown target 'fun'; targets: seats, minutes=N"):
        parse_target("fun")
    with pytest.raises(ValueError, match="positive number"):
        parse_target("minutes=-3")
    assert parse_target("skill=12").value == 12
    for space, said in [
        (["colour=red|blue"], "'colour' is not an option of fairy500"),
        (["hands=5..2"], "LO must be below HI"),
        (["hands=1..x"], "bad range for hands"),
        (["hands=1.5..3"], "hands takes whole numbers"),
        (["all_pass=sometimes"], "all_pass='sometimes' is not allowed"),
        (["deals=0..2"], "deals starts at 1"),
        (["hands"], "give hands a range or choices"),
        ([], "give at least one --space"),
    ]:
        with pytest.raises(ValueError) as err:
            parse_space("fairy500", 4, space)
        assert said in str(err.value)
    with pytest.raises(ValueError, match=r"komi .* games without teams"):
        parse_space("sono-arcana", 4, ["komi=0..1"], {"teams": True})
    dims = parse_space("fairy500", 4, ["pairs", "all_pass=ramsch|redeal", "komi=-1..1:0.5"])
    assert [d.text for d in dims] == [
        "pairs=false|true",
        "all_pass=ramsch|redeal",
        "komi=-1..1:0.5",
    ]
    with pytest.raises(ValueError, match="deals and komi count seats in play order"):
        run_seats("matto", 3, games=2, workers=1, deals=2, by="table")


# -- the command line ------------------------------------------------------------------------
def _cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_cli_skill_feel_tune_restrict_json_and_errors(tmp_path: Path) -> None:
    feel = _cli(
        "lab",
        "feel",
        "matto",
        "-p",
        "3",
        "--games",
        "6",
        "--workers",
        "1",
        "--restrict",
        "2:no-discard-draw",
        "--json",
        "--out",
        str(tmp_path / "f"),
    )
    assert feel.exit_code == 0, feel.output
    data = json.loads(feel.stdout)
    assert data["restrictions"] == ["2:no-discard-draw"] and data["variants"][0]["measured"] == 6
    text = _cli(
        "lab",
        "feel",
        "matto",
        "-p",
        "3",
        "--games",
        "6",
        "--workers",
        "1",
        "--out",
        str(tmp_path / "f"),
        "--restrict",
        "2:no-discard-draw",
        "--lang",
        "en",
    )
    assert text.exit_code == 0 and "kingmaking signs" in text.stdout
    assert "Restricted: 2:no-discard-draw" in text.stdout
    skill = _cli(
        "lab",
        "skill",
        "arcana-duel",
        "--ladder",
        "random,normal",
        "--games",
        "3",
        "--workers",
        "1",
        "--json",
        "--out",
        str(tmp_path / "s"),
    )
    assert skill.exit_code == 0, skill.output
    assert json.loads(skill.stdout)["ladder"] == ["random", "normal"]
    tune = _cli(
        "lab",
        "tune",
        "matto",
        "-p",
        "3",
        "--target",
        "seats",
        "--space",
        "komi=0..2:1",
        "--trials",
        "3",
        "--batch",
        "3",
        "--games",
        "6",
        "--workers",
        "1",
        "--lang",
        "ja",
    )
    assert tune.exit_code == 0, tune.output
    assert "最良" in tune.stdout and "xtarot lab seats matto -p 3" in tune.stdout
    for args, said in [
        (
            ("lab", "seats", "matto", "--restrict", "2:no-chi"),
            "unknown restriction 'no-chi' for matto; restrictions: never=TEXT",
        ),
        (
            ("lab", "tune", "matto", "--target", "fun", "--space", "komi=0..1"),
            "unknown target 'fun'",
        ),
        (
            ("lab", "tune", "matto", "--target", "seats", "--space", "hands=1..3"),
            "'hands' is not an option of matto",
        ),
        (("lab", "skill", "matto", "--ladder", "random"), "at least two levels"),
    ]:
        proc = _cli(*args, "--games", "2", "--workers", "1", "--lang", "en")
        assert proc.exit_code == 2 and said in " ".join(proc.output.split()), proc.output
    ja = _cli("lab", "seats", "matto", "--restrict", "9:no-discard-draw", "--lang", "ja")
    assert ja.exit_code == 2 and "制限する席 9：席は1〜4です" in ja.output
    listed = _cli("lab", "restrictions", "grail-mahjong", "--lang", "en")
    assert listed.exit_code == 0 and "no-chi" in listed.stdout and "never=TEXT" in listed.stdout


def test_every_lab_text_has_both_languages() -> None:
    for key, (en, ja) in TEXT.items():
        assert bool(en.strip()) == bool(ja.strip()), key  # both, or neither (a blank heading)
        assert set(re.findall(r"{(\w+)", en)) == set(re.findall(r"{(\w+)", ja)), key


def test_findings_keep_their_second_edition(tmp_path: Path) -> None:
    from xtarot.lab.findings import SECOND_EDITION, write_findings

    out = tmp_path / "findings.md"
    out.write_text(f"an old first edition\n{SECOND_EDITION}\n## 5. Kept as written\n", "utf-8")
    write_findings(tmp_path / "none", out, [])
    text = out.read_text("utf-8")
    assert text.startswith("# Findings") and "an old first edition" not in text
    assert text.endswith(f"{SECOND_EDITION}\n## 5. Kept as written\n")
