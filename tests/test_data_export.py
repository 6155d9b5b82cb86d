"""``xtarot data export``: self-play decisions as Parquet (docs/adapters/data.md).

Every game is exported for two short matches and each file is replayed move by move
from its match seeds: every row's view tensor must be the encoding of
``state.view(seat)`` at that moment, its mask the legal actions, its action legal and
the one played, its hidden hands the true ones, its results the match's.  The command
line is checked for determinism (the same bytes for a seed), its metadata, and clear
errors with a non-zero exit code for bad input.  Kept small: the file runs in seconds.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import xtarot
from xtarot.adapters.tensors import encoder_for
from xtarot.cli.data import DEFAULT_PLAYOUTS, bot_settings
from xtarot.cli.main import app

pa = pytest.importorskip("pyarrow", reason="needs pyarrow (pip install 'xtarot[data]')")
pq = pytest.importorskip("pyarrow.parquet")
np = pytest.importorskip("numpy")

from xtarot.adapters.dataset import (  # noqa: E402  (after the skips)
    FORMAT,
    TRAINING_ONLY,
    cards_held,
    export_matches,
    load_decisions,
    read_metadata,
)

runner = CliRunner()
ENV = {"LANG": "C.UTF-8", "LC_ALL": "", "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"}

#: one short configuration per game (a single hand where a match has several, but
#: fairy500 with two, so that the hand column and the per-hand scores are exercised)
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("sono-arcana", 3, {}),
    ("fairy500", 4, {"hands": 2}),  # heuristic bots: random bids end a match in one hand
    ("grail-mahjong", 2, {"hands": 1}),
    ("extendori", 3, {"hands": 1}),
    ("matto", 3, {}),
    ("arcana-duel", 2, {}),
]

COLUMNS = {
    "match": "int32",
    "match_seed": "int64",
    "hand": "int16",
    "step": "int32",
    "hand_step": "int32",
    "seat": "int8",
    "agent": "string",
    "view": "fixed_size_list<element: float>",
    "legal_mask": "fixed_size_list<element: bool>",
    "action": "int32",
    "action_text": "string",
    "truth_hands": "list<element: list<element: string>>",
    "truth_zones": "map<string, list<element: string> ('truth_zones')>",
    "hand_scores": "list<element: double>",
    "final_scores": "list<element: double>",
    "final_ranks": "list<element: int8>",
    "final_return": "float",
}


def invoke(*args: str) -> Any:
    return runner.invoke(app, ["data", "export", *args], env=ENV)


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_every_row_is_the_match_replayed(
    tmp_path: Path, game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = xtarot.load(game_id, players=players, **options)
    path = tmp_path / "d.parquet"
    bots = ["heuristic"] if game_id == "fairy500" else ["random"]
    games = 1 if game_id in ("sono-arcana", "arcana-duel") else 2  # long matches: one
    summary = export_matches(game, bots, games=games, seed=5, out=path)
    rows = pq.read_table(path).to_pylist()
    assert len(rows) == summary.rows > 0
    enc = encoder_for(game)
    matches = sorted({r["match"] for r in rows})
    assert matches == list(range(games))
    hands_seen = set()
    for m in matches:
        mine = [r for r in rows if r["match"] == m]
        assert [r["step"] for r in mine] == list(range(len(mine))), "one row per decision"
        state = game.new_state(seed=mine[0]["match_seed"])
        totals_at_hand: dict[int, list[float]] = {}
        for r in mine:
            seat = state.current_player
            assert r["seat"] == seat
            hand = len(state.deals) - 1
            assert r["hand"] == hand
            hands_seen.add(hand)
            totals_at_hand.setdefault(hand, list(state.scores().totals))
            # the view tensor is the encoding of what the seat sees, nothing else
            expected = np.asarray(enc.encode(state.view(seat)), np.float32)
            assert np.array_equal(np.asarray(r["view"], np.float32), expected)
            assert r["legal_mask"] == state.legal_action_mask()
            assert r["legal_mask"][r["action"]], "the action played was legal"
            assert r["action_text"] == game.actions[r["action"]].text
            zones = state.zones()
            assert r["truth_hands"] == [zones[f"hand:{s}"] for s in range(players)]
            assert dict(r["truth_zones"]) == zones
            state.apply(r["action"])
        assert state.is_terminal, "the rows hold every decision of the match"
        scores = state.scores()
        assert all(r["final_scores"] == list(scores.totals) for r in mine)
        assert all(r["final_ranks"] == list(scores.ranks) for r in mine)
        n = players
        for r in mine:
            me = scores.ranks[r["seat"]]
            below = sum(1 for x in scores.ranks if x > me)
            above = sum(1 for x in scores.ranks if x < me)
            assert r["final_return"] == pytest.approx((below - above) / (n - 1))
        # per-hand score changes add up to the match's
        first_of_hand = {r["hand"]: r for r in reversed(mine)}
        start = totals_at_hand[0]
        added = [sum(first_of_hand[h]["hand_scores"][s] for h in first_of_hand) for s in range(n)]
        assert added == pytest.approx([f - s0 for f, s0 in zip(scores.totals, start, strict=True)])
    if game_id == "fairy500":
        assert hands_seen == {0, 1}


def test_schema_metadata_and_loader(tmp_path: Path) -> None:
    game = xtarot.load("sono-arcana", players=4, teams=True)
    path = tmp_path / "s.parquet"
    out = export_matches(
        game, ["heuristic", "random"], games=2, seed=9, out=path, command="xtarot data export x"
    )
    schema = pq.read_schema(path)
    assert {f.name: str(f.type).split("[")[0].split(" not null")[0] for f in schema} == COLUMNS
    enc = encoder_for(game)
    assert schema.field("view").type.list_size == enc.size == out.tensor_size
    assert schema.field("legal_mask").type.list_size == game.num_actions
    secret = {f.name for f in schema if (f.metadata or {}).get(b"training_only") == b"true"}
    assert secret == set(TRAINING_ONLY)
    meta = read_metadata(path)
    assert meta["format"] == FORMAT and meta["xtarot"] == xtarot.__version__
    assert meta["command"] == "xtarot data export x" and meta["seed"] == 9
    assert meta["game"] == "sono-arcana" and meta["players"] == 4
    assert meta["options"] == {"teams": True}
    assert meta["agents"] == ["heuristic", "random"] and meta["deterministic"] is True
    layout = [(x["name"], x["start"], x["size"]) for x in meta["tensor"]["layout"]]
    assert layout == [(name, start, size) for name, start, size, _, _ in enc.layout()]
    assert meta["tensor"]["cards"] == list(enc.cards)
    assert meta["actions"] == [a.text for a in game.actions]
    # the seats turn: match 0 seat 0 is the first agent, match 1 seat 0 the second
    table = pq.read_table(path, columns=["match", "seat", "agent"]).to_pylist()
    sat = {(r["match"], r["seat"]): r["agent"] for r in table}
    assert sat[(0, 0)] == sat[(1, 1)] == "heuristic" and sat[(1, 0)] == "random"
    # the numpy loader: shapes, dtypes, and the seat-relative hands
    data = load_decisions(path)
    rows = out.rows
    assert data["view"].shape == (rows, enc.size) and data["view"].dtype == np.float32
    assert data["legal_mask"].shape == (rows, game.num_actions) and data["legal_mask"].dtype == bool
    assert data["held"].shape == (rows, 4, len(enc.cards))
    assert (data["legal_mask"][np.arange(rows), data["action"]]).all()
    full = pq.read_table(path, columns=["seat", "truth_hands", "view"]).to_pylist()
    hand = enc.layout()[2]  # the own-hand slice of the tensor
    assert hand[0] == "hand"
    for i in (0, rows // 2, rows - 1):
        me = full[i]["seat"]
        for rel in range(4):
            held = {enc.cards[c] for c in np.flatnonzero(data["held"][i, rel])}
            assert held == set(full[i]["truth_hands"][(me + rel) % 4])
        # block 0 of the target is the seat's own hand, as the view shows it
        own = data["view"][i, hand[1] : hand[1] + hand[2]]
        assert np.array_equal(own.astype(bool), data["held"][i, 0])
    # without the training columns
    assert "held" not in load_decisions(path, training=False)
    few = load_decisions(path, filters=[("agent", "=", "random")])
    assert 0 < len(few["action"]) < rows
    # a Parquet file of something else is named as such
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), other)
    with pytest.raises(ValueError, match="not an xtarot decision file"):
        load_decisions(other)


def test_an_interrupted_export_leaves_no_file(tmp_path: Path) -> None:
    """Ctrl-C in the middle of a run: no file, no half file, an old file untouched."""
    path = tmp_path / "m.parquet"
    path.write_bytes(b"the last run")

    def stop(done: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        export_matches(
            xtarot.load("matto", players=3), ["random"], games=5, seed=1, out=path, on_game=stop
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.parquet"]
    assert path.read_bytes() == b"the last run"


def test_cards_held_counts_a_wild_by_its_card() -> None:
    held = cards_held([[["Oc=3c", "3s"], ["4c"]]], [1], ["3s", "4c", "Oc"])
    assert held.tolist() == [[[False, True, False], [True, False, True]]]


def test_command_is_deterministic_and_documented(tmp_path: Path) -> None:
    path = tmp_path / "a.parquet"
    args = ["matto", "-p", "3", "--games", "3", "--agents", "heuristic,random", "--seed", "4"]
    first = invoke(*args, "--out", str(path))
    assert first.exit_code == 0, first.output
    assert "decisions of 3 matches" in first.output and "seed 4" in first.output
    once = path.read_bytes()
    again = invoke(*args, "--out", str(path), "--force")
    assert again.exit_code == 0, again.output
    assert path.read_bytes() == once, "the same seed gives the same file"
    assert not list(tmp_path.glob("*.partial"))
    meta = read_metadata(path)
    assert meta["command"] == (
        f"xtarot data export matto -p 3 --games 3 --agents heuristic,random --seed 4 --out {path}"
    )
    # matches played in two processes: the same rows
    two = invoke(*args, "--workers", "2", "--out", str(tmp_path / "w.parquet"))
    assert two.exit_code == 0, two.output
    assert pq.read_table(tmp_path / "w.parquet").equals(pq.read_table(path))
    other = invoke(*args[:-1], "5", "--out", str(tmp_path / "b.parquet"))
    assert other.exit_code == 0
    assert (tmp_path / "b.parquet").read_bytes() != once
    # without --seed a seed is drawn and recorded; --json prints exactly one object
    js = invoke("matto", "-p", "3", "--games", "1", "--out", str(tmp_path / "d.parquet"), "--json")
    summary = json.loads(js.stdout)
    assert summary["rows"] == pq.read_metadata(tmp_path / "d.parquet").num_rows
    assert summary["seed"] == read_metadata(tmp_path / "d.parquet")["seed"]
    assert f"--seed {summary['seed']}" in summary["command"] and summary["rows_per_second"] > 0
    help_text = runner.invoke(app, ["data", "export", "--help"], env=ENV).output
    for word in ("--out", "--agents", "--games", "--seed", "--iterations", "docs/adapters/data.md"):
        assert word in help_text


def test_workers_need_picklable_factories(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="picklable"):
        export_matches(
            xtarot.load("matto", players=3),
            [("mine", lambda seed: xtarot.agents.make_agent("random", seed))],
            games=2,
            seed=1,
            out=tmp_path / "x.parquet",
            workers=2,
        )
    assert not list(tmp_path.iterdir())


def test_search_bots_get_a_playout_budget(tmp_path: Path) -> None:
    """``expert`` and ``hard`` without a budget play a fixed number of play-outs, not
    to a clock, so a seed still fixes the file; ``--seconds`` says it does not."""
    assert bot_settings(None, None)["expert"] == {"iterations": DEFAULT_PLAYOUTS}
    assert bot_settings(None, None)["hard"] == {"iterations": DEFAULT_PLAYOUTS}
    assert bot_settings(7, None)["ismcts"] == {"iterations": 7}
    assert bot_settings(None, 0.5)["expert"] == {"seconds": 0.5}
    path = tmp_path / "e.parquet"
    args = ["fairy500", "-p", "3", "-o", "hands=1", "--agents", "expert:3,random"]
    args += ["--games", "1", "--seed", "2"]
    assert invoke(*args, "--out", str(path)).exit_code == 0
    once = path.read_bytes()
    assert invoke(*args, "--out", str(path), "--force").exit_code == 0
    assert path.read_bytes() == once
    assert read_metadata(path)["agents"] == ["expert:3", "random"]
    clock = invoke("matto", "-p", "3", "--games", "1", "--seconds", "0.01", "--agents", "random",
                   "--out", str(tmp_path / "c.parquet"))  # fmt: skip
    assert clock.exit_code == 0 and "--iterations keeps it reproducible" in clock.output
    assert read_metadata(tmp_path / "c.parquet")["deterministic"] is False


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["whist-x", "--out", "{d}/x.parquet"], "unknown game 'whist-x'; games: "),
        (["matto", "-p", "9", "--out", "{d}/x.parquet"], "3"),
        (["matto", "--agents", "heuristic,wizard", "--out", "{d}/x.parquet"], "unknown bot"),
        (["matto", "--agents", "ismcts:x", "--out", "{d}/x.parquet"], "ismcts:N"),
        (["matto", "--games", "0", "--out", "{d}/x.parquet"], "--games must be at least 1"),
        (["matto", "--out", "{d}/no/such/dir/x.parquet"], "folder"),
        (["matto", "--out", "{d}"], ".parquet"),
        (["matto", "--out", "{d}/dir.parquet"], "folder"),
        (["matto", "--out", "{d}/x.csv"], "ending in .parquet"),
        (["matto", "--out", "{d}/old.parquet"], "--force"),
        (["matto", "-o", "speed=1", "--out", "{d}/x.parquet"], "speed"),
    ],
    ids=[
        "game", "players", "bot", "budget", "games", "missing-folder", "folder",
        "folder-named-parquet", "suffix", "exists", "option",
    ],
)  # fmt: skip
def test_bad_input_is_refused_clearly(tmp_path: Path, args: list[str], says: str) -> None:
    (tmp_path / "dir.parquet").mkdir()
    (tmp_path / "old.parquet").write_bytes(b"keep me")
    result = invoke(*[a.replace("{d}", str(tmp_path)) for a in args])
    assert result.exit_code != 0
    assert "Error" in result.output and says in result.output, result.output
    assert (tmp_path / "old.parquet").read_bytes() == b"keep me"
    assert not (tmp_path / "x.parquet").exists()
    assert "Traceback" not in result.output


def test_wrong_player_count_names_the_allowed_ones(tmp_path: Path) -> None:
    result = invoke("arcana-duel", "-p", "3", "--out", str(tmp_path / "x.parquet"))
    assert result.exit_code == 2 and "2" in result.output
    ja = runner.invoke(
        app, ["data", "export", "nope", "--out", str(tmp_path / "x.parquet"), "--lang", "ja"]
    )
    assert ja.exit_code == 2 and "ゲーム 'nope' はありません" in ja.output


def test_missing_pyarrow_names_the_install_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)  # import now raises ImportError
    result = invoke("matto", "--games", "1", "--out", str(tmp_path / "x.parquet"))
    assert result.exit_code == 1
    assert 'pip install "xtarot[data]"' in result.output
    assert not list(tmp_path.iterdir())
    with pytest.raises(ImportError, match=r"xtarot\[data\]"):
        export_matches(
            xtarot.load("matto", players=3), ["random"], games=1, seed=1, out=tmp_path / "y.parquet"
        )
