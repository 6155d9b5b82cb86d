"""``xtarot lab findings``: the published study plan and the Markdown it writes.

The plan (:func:`plan`) is every game at every player count (seat advantage and events,
heuristic self-play, the rulebook's full match), one luck study per game (the heuristic
against random bots, duplicate single hands) and every option of every game against its
default (self-play and a heuristic-against-random panel on the same deals).  Each study
is an ordinary lab directory under ``out`` (so the run resumes) whose manifest holds the
``xtarot lab`` command that reproduces it; :func:`write_findings` turns them into
``docs/findings.md``.
"""

from __future__ import annotations

import math
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import xtarot
from xtarot.lab.analysis import adjust_pvalues
from xtarot.lab.runner import available_cpus
from xtarot.lab.store import read_manifest
from xtarot.lab.studies import LabResult, analyse, run_compare, run_luck, run_seats

__all__ = ["Study", "plan", "run_findings", "write_findings"]

SEED = 1

#: Where the findings' second edition begins: ``write_findings`` rewrites the first
#: edition above it and keeps everything from this line on.
SECOND_EDITION = "<!-- second edition: kept when `xtarot lab findings` rewrites the above -->"


@dataclass(frozen=True)
class Study:
    """One lab run of the plan."""

    name: str
    kind: str  # seats | luck | compare
    game: str
    players: int
    games: int
    variants: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    def command(self, out: Path) -> str:
        where = out / self.name
        head = f"xtarot lab {self.kind} {self.game} -p {self.players} --games {self.games}"
        opts = "".join(f" -o {k}={v}" for k, v in self.options.items())
        variants = "".join(f" --variant {v}" for v in self.variants)
        return f"{head}{variants}{opts} --seed {SEED} --out {where}"


#: Matches per player count for the seat studies (full matches, heuristic self-play).
SEAT_GAMES: dict[str, dict[int, int]] = {
    "sono-arcana": {3: 2000, 4: 2000, 5: 2000},
    "fairy500": {3: 600, 4: 600, 5: 400, 6: 400, 7: 300, 8: 300},
    "grail-mahjong": {2: 1000, 3: 800, 4: 600},
    "extendori": {3: 400, 4: 400, 5: 300, 6: 300, 7: 250, 8: 250},
    "matto": {3: 1000, 4: 2000, 5: 2000},
    "arcana-duel": {2: 1000},
}

#: (players, deals) of each game's luck study.
LUCK: dict[str, tuple[int, int]] = {
    "sono-arcana": (4, 400),
    "fairy500": (4, 400),
    "grail-mahjong": (4, 400),
    "extendori": (4, 400),
    "matto": (4, 400),
    "arcana-duel": (2, 400),
}

#: Option comparisons: (name, game, players, deals per variant, variants after the default).
COMPARE: list[tuple[str, str, int, int, tuple[str, ...]]] = [
    ("sono-arcana-4", "sono-arcana", 4, 1500, ("teams=true",)),
    (
        "fairy500-4",
        "fairy500",
        4,
        300,
        ("all_pass=redeal", "all_pass=ten_per_trick", "pairs=true", "classical=true", "hands=1"),
    ),
    ("grail-mahjong-3", "grail-mahjong", 3, 400, ("hands=1", "chi_extension_draws=true")),
    ("extendori-3-deck", "extendori", 3, 300, ("deck=111",)),
    (
        "extendori-4",
        "extendori",
        4,
        150,
        ("hands=1", "target_score=1000", "reseat_each_hand=true", "teams=pairs"),
    ),
    ("extendori-6-teams", "extendori", 6, 150, ("teams=pairs", "teams=halves")),
    ("extendori-8-single-deal", "extendori", 8, 150, ("single_deal=true",)),
]


def _scaled(games: int, scale: float) -> int:
    return max(10, math.ceil(games * scale))


def plan(scale: float = 1.0) -> list[Study]:
    """Every study of the findings, with game counts multiplied by ``scale``."""
    studies = []
    for game, counts in SEAT_GAMES.items():
        for players, games in counts.items():
            studies.append(Study(f"seats-{game}-{players}", "seats", game, players,
                                 _scaled(games, scale)))  # fmt: skip
    for game, (players, deals) in LUCK.items():
        studies.append(
            Study(f"luck-{game}-{players}", "luck", game, players, _scaled(deals, scale))
        )
    for name, game, players, deals, variants in COMPARE:
        studies.append(Study(f"compare-{name}", "compare", game, players, _scaled(deals, scale),
                             ("default", *variants)))  # fmt: skip
    return studies


def run_findings(
    out: str | os.PathLike[str],
    output: str | os.PathLike[str],
    *,
    scale: float = 1.0,
    workers: int | None = None,
    ray: str | None = None,
    log: Callable[[str], None] = print,
    only: Callable[[Study], bool] | None = None,
) -> list[Study]:
    """Run (or resume) the plan into ``out`` and write the Markdown to ``output``."""
    root = Path(out)
    studies = [s for s in plan(scale) if only is None or only(s)]
    started = time.perf_counter()
    for i, study in enumerate(studies, 1):
        t0 = time.perf_counter()
        where = root / study.name
        common = {"games": study.games, "seed": SEED, "workers": workers, "ray": ray,
                  "out": where, "command": study.command(root)}  # fmt: skip
        if study.kind == "seats":
            run_seats(study.game, study.players, **common)
        elif study.kind == "luck":
            run_luck(study.game, study.players, **common)
        else:
            run_compare(study.game, study.players, list(study.variants), **common)
        log(
            f"[{i}/{len(studies)}] {study.name}: {study.games} games in "
            f"{time.perf_counter() - t0:.0f} s (total {time.perf_counter() - started:.0f} s)"
        )
    write_findings(root, output, studies, scale=scale, workers=workers)
    return studies


# -- the Markdown -------------------------------------------------------------------------
def _pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def _ci(ci: list[float | None] | None) -> str:
    if not ci or ci[0] is None or ci[1] is None:
        return ""
    return f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _p(x: float | None) -> str:
    if x is None:
        return "–"
    return "<0.001" if x < 0.001 else f"{x:.3f}"


def _num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _signed(d: dict[str, Any] | None, digits: int = 2, scale: float = 1.0) -> str:
    if not d or d.get("difference") is None:
        return "–"
    if d["difference"] == 0 and d["difference_ci95"] == [0.0, 0.0]:
        return "identical"
    mean, (lo, hi) = scale * d["difference"], d["difference_ci95"]
    text = f"{mean:+.{digits}f} [{scale * lo:+.{digits}f}, {scale * hi:+.{digits}f}]"
    q = d.get("q_value")
    return f"**{text}**" if q is not None and q < 0.05 else text


def _play_seconds(root: Path, studies: list[Study]) -> float:
    """Wall time of every run of the studies, from their manifests."""
    total = 0.0
    for study in studies:
        for run in read_manifest(root / study.name)["runs"]:
            if run.get("started") and run.get("finished"):
                fmt = "%Y-%m-%dT%H:%M:%S%z"
                start = datetime.strptime(run["started"], fmt)
                total += (datetime.strptime(run["finished"], fmt) - start).total_seconds()
    return total


def _extremes(data: dict[str, Any]) -> str:
    """``Seat 1 wins 43.5%, Seat 3 21.9% (fair 33.3%)``: the best and the worst seat."""
    best = max(data["seats"], key=lambda s: s["win_share"] or 0)
    worst = min(data["seats"], key=lambda s: s["win_share"] or 0)
    return (
        f"Seat {best['seat'] + 1} wins {_pct(best['win_share'])}, Seat {worst['seat'] + 1} "
        f"{_pct(worst['win_share'])}, fair {_pct(1 / data['players'])}"
    )


def _results(root: Path, study: Study) -> list[LabResult]:
    return analyse(root / study.name)


def write_findings(
    root: Path,
    output: str | os.PathLike[str],
    studies: list[Study],
    *,
    scale: float = 1.0,
    workers: int | None = None,
) -> None:
    lines: list[str] = []
    add = lines.append
    seats = [s for s in studies if s.kind == "seats"]
    lucks = [s for s in studies if s.kind == "luck"]
    compares = [s for s in studies if s.kind == "compare"]
    add("# Findings: seat advantage, luck, rule options and events")
    add("")
    add(
        "The first published balance figures for these rulebooks, measured by the lab "
        "(`xtarot lab`, see [lab.md](lab.md)); the [second edition](#second-edition) "
        "(sections 5–9) follows them. Sections 1–4 are generated by"
    )
    add("")
    add("```sh")
    scale_text = f" --scale {scale:g}" if scale != 1 else ""
    add(f"xtarot lab findings --out {root}{scale_text} -o docs/findings.md")
    add("```")
    add("")
    cpus = workers or available_cpus()
    add(
        f"on {time.strftime('%Y-%m-%d')} with xtarot {xtarot.__version__}, Python "
        f"{platform.python_version()}, {cpus} worker processes; playing the matches took "
        f"{_play_seconds(root, studies) / 60:.0f} minutes (on a 2-core machine shared with other "
        f"work). Every study below names the command that reproduces its "
        f"matches exactly (seed {SEED}); `xtarot lab report {root} -o report.html` draws them."
    )
    add("")
    add("## How to read these figures")
    add("")
    add(
        "- **Players are bots.** Seat and option effects are measured with the `heuristic` bot "
        "at every seat (a table of equal, casual-good players); skill panels put one `heuristic` "
        "against `random` bots. Human tables may differ, above all where judgement matters "
        "(bidding, claiming); these are figures about the rules as these bots play them."
    )
    add(
        "- **Seat 1 acts first** in the match (sono-arcana's first parent, the player left of "
        "the dealer, extendori's player #1, …), then clockwise. The first dealer is drawn at "
        "random, so table seats are equal by construction; only the play order can favour "
        "anyone. In matches of several hands the deal rotates, so a first-hand edge is diluted."
    )
    add(
        "- **Win share**: a first place shared by k seats counts 1/k; the fair share is "
        "1/players. Intervals are 95% (Wilson for shares, t for means)."
    )
    add(
        '- **Significance.** p-values test "no difference"; with this many tests some small '
        "p-values are expected by chance, so each table also gives q-values (Benjamini-Hochberg "
        "false-discovery adjustment over that table's tests) and only q < 0.05 is called "
        'significant (**bold**). "Not significant" means the effect, if any, is smaller than '
        "these game counts can see — not that it is zero."
    )
    add("")

    # -- seats ---------------------------------------------------------------------------
    marker = len(lines)
    summary: list[str] = []
    add("## 1. Seat advantage (every game and player count)")
    add("")
    add(
        "Heuristic self-play, the rulebook's full match with default options. Win share of each "
        "seat in play order [95% interval]; p: Wald test that every seat has the fair share; "
        "q: adjusted over all rows of this table."
    )
    add("")
    seat_rows = []
    tests = []
    stats_by_game: dict[str, dict[int, dict[str, Any]]] = {}
    for study in seats:
        found = _results(root, study)
        seat_data = next(r.data for r in found if r.kind == "seats")
        stats_data = next(r.data for r in found if r.kind == "stats")
        stats_by_game.setdefault(study.game, {})[study.players] = stats_data
        test = dict(seat_data["win_test"])
        tests.append((test, "p_value"))
        seat_rows.append((study, seat_data, test))
    adjust_pvalues(tests)
    add("| game | players | matches | fair | win share by seat (Seat 1, 2, …) | p | q |")
    add("|---|---|---|---|---|---|---|")
    significant = []
    for study, data, test in seat_rows:
        shares = "; ".join(
            f"{_pct(s['win_share'])}{_ci(s['win_share_ci95'])}" for s in data["seats"]
        )
        q = test.get("q_value")
        mark = q is not None and q < 0.05
        if mark:
            significant.append((study, data))
        qtext = f"**{_p(q)}**" if mark else _p(q)
        add(
            f"| {study.game} | {study.players} | {data['games']} | {_pct(1 / study.players)} | "
            f"{shares} | {_p(test['p_value'])} | {qtext} |"
        )
    add("")
    add("Commands:")
    add("")
    add("```sh")
    for study in seats:
        add(study.command(root))
    add("```")
    add("")
    if significant:
        summary.append(
            "- **Seat advantage** is significant (q < 0.05) in "
            + "; ".join(
                f"{st.game} at {st.players} players ({_extremes(d)})" for st, d in significant
            )
            + f". Not in the other {len(seat_rows) - len(significant)} game / player counts "
            "(section 1)."
        )
    else:
        summary.append(
            f"- **Seat advantage**: none of the {len(seat_rows)} game / player counts shows a "
            "significant one (section 1)."
        )
    if significant:
        add("Significant seat effects (q < 0.05):")
        add("")
        for study, data in significant:
            add(f"- **{study.game}, {study.players} players**: {_extremes(data)}.")
        add("")
    else:
        add("No seat effect is significant at q < 0.05.")
        add("")
    rest = [
        s for s, _, t in seat_rows if not (t.get("q_value") is not None and t["q_value"] < 0.05)
    ]
    if rest:
        add(
            "Not significant: "
            + ", ".join(f"{s.game} {s.players}p" for s in rest)
            + ". At these counts a seat would have to win about "
            "±3–6 percentage points off its fair share to show."
        )
        add("")

    # -- luck ----------------------------------------------------------------------------
    add("## 2. Skill against luck")
    add("")
    add(
        "One `heuristic` against `random` bots, single hands played duplicate (each deal once "
        "per seat arrangement of a Williams design, so the heuristic holds every seat's cards "
        "once). The curve is the heuristic's chance to win a match of N hands (hands drawn from "
        "the measured ones and summed; 95% intervals from resampling the deals). *Deal share*: "
        "the part of a hand's score variance explained by the cards a seat is dealt (the rest "
        "is play: who held them and how they played). *Edge*: the heuristic's score minus the "
        "random bots' with the same cards."
    )
    add("")
    add(
        "| game | players | deals | 1 hand | 3 hands | 10 hands | 75% from | 90% from | "
        "rulebook match | deal share | edge per hand |"
    )
    add("|---|---|---|---|---|---|---|---|---|---|---|")
    nineties = []
    top: tuple[str, float] | None = None
    for study in lucks:
        data = next(r.data for r in _results(root, study) if r.kind == "luck")
        curve = {p["hands"]: p for p in data["curve"]}
        h90 = data["hands_for_90"]
        share = data["variance"].get("deal_share")
        if share is not None and (top is None or share > top[1]):
            top = (study.game, share)
        nineties.append(f"{study.game} {'> 100' if h90 is None else math.ceil(h90 - 1e-9)}")

        def at(m: int, curve: dict[int, dict[str, Any]] = curve) -> str:
            p = curve.get(m)
            return _pct(p["win_share"]) if p else "–"

        def need(x: float | None) -> str:
            return "> 100" if x is None else str(math.ceil(x - 1e-9))

        rule = data.get("match_hands")
        rulebook = (
            "to ±500" if rule is None else f"{rule}: {at(rule)}" if rule in curve else str(rule)
        )
        var = data["variance"]
        edge = data["duplicate_edge"]
        add(
            f"| {study.game} | {study.players} | {data['deals']} | {at(1)} | {at(3)} | {at(10)} | "
            f"{need(data['hands_for_75'])} | {need(data['hands_for_90'])} | {rulebook} | "
            f"{_pct(var.get('deal_share'), 0)}{_ci(var.get('deal_share_ci95'))} | "
            f"{_num(edge.get('per_hand'))} [{_num(edge['ci95'][0])}, {_num(edge['ci95'][1])}] |"
        )
    summary.append(
        "- **Luck**: one heuristic among random bots wins 90% of matches after "
        + ", ".join(nineties)
        + " hands (section 2) — an upper bound on how fast skill shows, since random bots are "
        "far weaker than people."
    )
    add("")
    add(
        "Against random play the heuristic's edge is large in every game, so these curves are "
        "a ceiling on skill: between two sound players luck weighs far more and more hands are "
        "needed. For the same reason the deal shares are small: here *play* includes the whole "
        "gap between a heuristic and a random bot holding the same cards, which dwarfs what the "
        "cards themselves do (largest here: "
        + (f"{top[0]}, {_pct(top[1], 0)}" if top else "none")
        + "). They are not a measure of luck between equal players; the lab has no bot "
        "pair of close, known strength yet to measure that. fairy500's edge is in points of "
        "its scoring, where a failed open hand misère crazy by a random bidder costs hundreds."
    )
    add("")
    add("```sh")
    for study in lucks:
        add(study.command(root))
    add("```")
    add("")

    # -- options -------------------------------------------------------------------------
    add("## 3. Every option against its default")
    add("")
    add(
        "Each variant plays the same deal seeds as the default (common random numbers; "
        "*same deals* is the share whose first deal is identical — an option that changes the "
        "deck deals other cards). Differences are paired per deal with 95% intervals; **bold**: "
        "q < 0.05 over all tests of that comparison. Length in actions; spread: standard "
        "deviation of the final scores within a match; heuristic wins: its win share against "
        "random bots (percentage points). *identical*: equal in every paired match — a "
        "length the rules fix, or an option that never came into play for these bots "
        "(fairy500's random bidders push nearly every auction to the top bid, open hand misère "
        "crazy, so against them partner, call and all-pass rules never apply; see "
        "docs/agents.md). With teams a win is shared by the partners and the heuristic's "
        "partner is a random bot, so its win share falls by construction. `hands=1` (a single "
        "hand) is shorter by construction; it is listed because it is an option."
    )
    add("")
    changed: list[str] = []
    unchanged: list[str] = []
    for study in compares:
        data = next(r.data for r in _results(root, study) if r.kind == "compare")
        add(f"### {study.game}, {study.players} players ({data['games']} deals per variant)")
        add("")
        add(
            "| variant | same deals | length | Δ length | Δ spread | heuristic wins | "
            "Δ heuristic wins (pp) | seat p (q) |"
        )
        add("|---|---|---|---|---|---|---|---|")
        notes = []
        for v in data["variants"]:
            vs = v.get("vs_baseline") or {}
            if vs:
                found = [
                    label
                    for key, label in (
                        ("length", "match length"),
                        ("spread", "score spread"),
                        ("strong_win_share", "the heuristic's wins"),
                        ("seats", "seat shares"),
                    )
                    if (vs.get(key) or {}).get("q_value") is not None and vs[key]["q_value"] < 0.05
                ]
                where = f"{study.game} {study.players}p `{v['variant']}`"
                (changed if found else unchanged).append(
                    f"{where} ({', '.join(found)})" if found else where
                )
            seat = vs.get("seats") or {}
            seat_text = "–"
            if seat.get("p_value") is not None:
                q = seat.get("q_value")
                seat_text = f"{_p(seat['p_value'])} ({_p(q)})"
                if q is not None and q < 0.05:
                    seat_text = f"**{seat_text}**"
            add(
                f"| {v['variant']} | {_pct(vs.get('same_deals'), 0) if vs else 'baseline'} | "
                f"{_num(v.get('length'), 1)} | {_signed(vs.get('length'), 1) if vs else ''} | "
                f"{_signed(vs.get('spread')) if vs else ''} | {_pct(v.get('strong_win_share'))} | "
                f"{_signed(vs.get('strong_win_share'), 1, 100) if vs else ''} | {seat_text} |"
            )
            for name, e in (vs.get("events") or {}).items():
                if e.get("q_value") is not None and e["q_value"] < 0.05:
                    notes.append(f"{v['variant']}: `{name}` {_signed(e, 3)} per match")
        add("")
        if notes:
            add("Significant event changes: " + "; ".join(notes) + ".")
            add("")
        add("```sh")
        add(study.command(root))
        add("```")
        add("")

    summary.append(
        "- **Options** with a significant change against the default (section 3): "
        + ("; ".join(changed) if changed else "none")
        + ". No significant change: "
        + (", ".join(unchanged) if unchanged else "none")
        + "."
    )

    # -- events --------------------------------------------------------------------------
    add("## 4. Event frequencies")
    add("")
    add(
        "Mean per match in the seat studies above (heuristic self-play, full matches, default "
        "options); `hand.*` / `end.*` / `contract.*` / `misere.*` events count hands, so their "
        "rate per hand is the mean divided by the hands per match. Event names are explained in "
        "[lab.md](lab.md#events)."
    )
    add("")
    for game, per_count in stats_by_game.items():
        counts = sorted(per_count)
        add(f"### {game}")
        add("")
        add("| event | " + " | ".join(f"{n} players" for n in counts) + " |")
        add("|---|" + "---|" * len(counts))
        names = sorted({e["event"] for d in per_count.values() for e in d["events"]})
        rows = [
            ("hands per match", [_num(per_count[n]["hands"].get("mean")) for n in counts]),
            ("actions per match", [_num(per_count[n]["length"].get("mean"), 1) for n in counts]),
            ("shared first place", [_pct(per_count[n]["ties"]["shared_first"]) for n in counts]),
        ]
        for name in names:
            cells = []
            for n in counts:
                e = next((e for e in per_count[n]["events"] if e["event"] == name), None)
                cells.append("–" if e is None else _num(e["mean"], 3))
            rows.append((f"`{name}`", cells))
        for label, cells in rows:
            add(f"| {label} | " + " | ".join(cells) + " |")
        add("")
    lines[marker:marker] = ["## In short", "", *summary, ""]
    text = "\n".join(lines) + "\n"
    path = Path(output)
    if path.exists():  # the second edition (written from its own commands) stays
        old = path.read_text("utf-8")
        if SECOND_EDITION in old:
            text += "\n" + old[old.index(SECOND_EDITION) :]
    path.write_text(text, "utf-8")
