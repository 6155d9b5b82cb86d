"""The lab's studies as Python functions: seats, compare, luck, stats.

Each plays a :class:`~xtarot.lab.runner.Design` (optionally into a lab directory, see
``xtarot.lab.store``) and returns a :class:`LabResult`: the matches as a pandas
DataFrame (``rows``), the main table as a DataFrame (``table``) and the JSON summary
(``to_dict()``, what ``xtarot lab … --json`` prints).  With ``out`` the figures cover
every match stored in that directory (earlier runs, other seeds, merged runs).

>>> r = run_seats("sono-arcana", 3, agents=["random"], games=6, seed=1, workers=1)
>>> r.table["seat"].tolist(), r.to_dict()["games"]
([0, 1, 2], 6)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, Unpack

from xtarot.agents import Agent
from xtarot.engine import load
from xtarot.lab.analysis import (
    compare_summary,
    feel_summary,
    luck_summary,
    match_format,
    seat_summary,
    skill_summary,
    stats_summary,
)
from xtarot.lab.feel import PACE, Pace
from xtarot.lab.runner import (
    LAB_EXTRA,
    Bot,
    Design,
    Lineup,
    Variant,
    distinct_labels,
    execute,
    restrictions,
    run_entry,
)
from xtarot.lab.store import Store, frame, read_manifest, read_rows
from xtarot.lab.tournament import summarise

try:
    import pandas as pd
except ImportError as _err:  # pragma: no cover
    raise ImportError(LAB_EXTRA) from _err

__all__ = [
    "HARD_BUDGET",
    "LADDER",
    "LabResult",
    "Running",
    "analyse",
    "has_teams",
    "ladder_bots",
    "match_hands",
    "run_compare",
    "run_feel",
    "run_luck",
    "run_seats",
    "run_skill",
    "run_stats",
]

AgentSpec = str | Bot | Callable[..., Agent]
Progress = Callable[[int, int], None]
Restrict = Sequence[str]


@dataclass
class LabResult:
    """What a study found: ``data`` (JSON), ``table`` and ``rows`` (DataFrames)."""

    kind: str
    design: Design | dict[str, Any]
    rows: pd.DataFrame
    data: dict[str, Any]
    seconds: float = 0.0
    out: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        return self.data

    @property
    def table(self) -> pd.DataFrame:
        """The study's main table: seats, variants, the luck curve or the events."""
        key = {
            "seats": "seats",
            "compare": "variants",
            "luck": "curve",
            "stats": "events",
            "tournament": "agents",
            "skill": "steps",
            "feel": "variants",
        }
        return pd.DataFrame(self.data.get(key.get(self.kind, "seats"), []))


def _check(games: int, start: int) -> None:
    if games < 1:
        raise ValueError("give at least one game")
    if start < 0:
        raise ValueError(f"start must be 0 or more, not {start}")


class Running(TypedDict, total=False):
    """How any study is played (the keyword arguments every ``run_*`` takes besides its
    own): ``seed`` of the run (0; every match's seed derives from it), ``start`` (the
    first game index, 0), ``workers`` (processes; every CPU), ``ray`` (``"local"`` or a
    cluster's address; processes here), ``out`` (a lab directory: the rows are kept
    there, the run resumes and the figures cover every match stored), ``command`` (the
    command line the directory's manifest records) and ``on_progress`` (called with
    the matches done and due)."""

    seed: int
    start: int
    workers: int | None
    ray: str | None
    out: str | os.PathLike[str] | None
    command: str | None
    on_progress: Progress | None


def _play(design: Design, games: int, run: Running) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Play (or resume) ``games`` games of the design: the rows to analyse and the
    summary's common part (what was played, how long it took, where it is kept)."""
    seed, start, out = run.get("seed", 0), run.get("start", 0), run.get("out")
    workers, ray = run.get("workers"), run.get("ray")
    _check(games, start)
    started = time.perf_counter()
    indices = list(range(start, start + games))
    store = None
    if out is not None:
        store = Store(out, design)
        done = store.done(seed)
        indices = [i for i in indices if i not in done]
        store.begin(
            run_entry(
                command=run.get("command"),
                seed=seed,
                start=start,
                games=games,
                workers=workers,
                ray=ray,
            )
        )
    rows = execute(
        design,
        seed,
        indices,
        workers=workers,
        ray=ray,
        on_progress=run.get("on_progress"),
        store=store,
    )
    df = store.frame() if store is not None else frame(rows)
    path = Path(out) if out is not None else None
    header = _header(design, df, time.perf_counter() - started, path, len(rows))
    return df, {**header, "seed": seed}


def _result(kind: str, design: Design, df: pd.DataFrame, data: dict[str, Any]) -> LabResult:
    out = Path(data["out"]) if data["out"] is not None else None
    return LabResult(kind, design, df, data, data["seconds"], out)


def _header(
    design: Design, df: pd.DataFrame, seconds: float, out: Path | None, played: int
) -> dict[str, Any]:
    return {
        "played": played,
        "game": design.game,
        "players": design.players,
        "options": dict(design.variants[0].options),
        "games": int(df[["seed", "index"]].drop_duplicates().shape[0]) if len(df) else 0,
        "matches": len(df),
        "seeds": sorted(int(s) for s in df["seed"].unique()) if len(df) else [],
        "agents": [b.spec for b in design.lineups[0].bots],
        "restrictions": [r.text for r in design.restrictions],
        "seconds": seconds,
        "out": str(out) if out is not None else None,
    }


def _bots(agents: Sequence[AgentSpec]) -> tuple[Bot, ...]:
    bots = tuple(Bot.parse(a) for a in agents)
    if not bots:
        raise ValueError("give at least one bot")
    return bots


def run_seats(
    game: str,
    players: int,
    *,
    agents: Sequence[AgentSpec] = ("heuristic",),
    games: int = 1000,
    options: dict[str, Any] | None = None,
    by: str = "order",
    restrict: Restrict = (),
    deals: int = 1,
    komi: float = 0.0,
    **run: Unpack[Running],
) -> LabResult:
    """Seat advantage: per seat (play order by default), win share and mean score with
    95% intervals, and whether any seat is favoured.  Several ``agents`` rotate over the
    seats (game ``i`` seats ``agents[(s + i) % k]`` at seat ``s``).  ``restrict``: seat
    restrictions (``"2:no-chi"``).  ``deals`` and ``komi`` score the same matches as
    another match format would (:func:`~xtarot.lab.analysis.match_format`): a match of
    ``deals`` deals with the lead passing, compensation points for later seats."""
    design = Design.build(
        game, players, agents=_bots(agents), options=options, kind="games", restrict=restrict
    )
    _check_format(design, deals, komi, by)
    df, data = _play(design, games, run)
    if deals != 1 or komi:
        scored = match_format(df, players, game=game, deals=deals, komi=komi)
        data["format"] = {"deals": deals, "komi": komi, "matches": len(scored)}
        data.update(seat_summary(scored, players, by="order"))
    else:
        data.update(seat_summary(df, players, by=by))
    return _result("seats", design, df, data)


def has_teams(game: str, players: int, options: dict[str, Any]) -> bool:
    """Whether partners share results with these options."""
    state = load(game, players=players, **options).new_state(seed=0)
    return state.scores().teams is not None


def _check_format(design: Design, deals: int, komi: float, by: str) -> None:
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals is a whole number from 1, not {deals!r}")
    if not math.isfinite(komi):
        raise ValueError(f"komi is a number of points, not {komi!r}")
    if (deals != 1 or komi) and by != "order":
        raise ValueError("deals and komi count seats in play order (--by order)")
    options = dict(design.variants[0].options)
    if komi and has_teams(design.game, design.players, options):
        raise ValueError(
            "komi adds points by seat, so partners would score differently; "
            "it is for games without teams"
        )


def run_stats(
    game: str,
    players: int,
    *,
    agents: Sequence[AgentSpec] = ("heuristic",),
    games: int = 1000,
    options: dict[str, Any] | None = None,
    restrict: Restrict = (),
    **run: Unpack[Running],
) -> LabResult:
    """Distributions: match length, hands, scores, margins, ties and the game's events.
    (The same matches as :func:`run_seats`: one directory serves both.)"""
    design = Design.build(
        game, players, agents=_bots(agents), options=options, kind="games", restrict=restrict
    )
    df, data = _play(design, games, run)
    data.update(stats_summary(df, players))
    return _result("stats", design, df, data)


def _variants(
    game: str, players: int, variants: Sequence[str | dict[str, Any]], common: dict[str, Any]
) -> tuple[Variant, ...]:
    parsed: list[tuple[str, dict[str, Any]]] = []
    for v in variants:
        if isinstance(v, dict):
            label = ",".join(f"{k}={val}" for k, val in v.items()) or "default"
            parsed.append((label, dict(v)))
        else:
            parsed.append((v.strip() or "default", Variant.parse_options(v)))
    if len(parsed) == 1:
        parsed.insert(0, ("default", {}))
    if len({label for label, _ in parsed}) != len(parsed):
        raise ValueError("each variant must be given once")
    return tuple(Variant.make(game, players, {**common, **opts}, label) for label, opts in parsed)


def run_compare(
    game: str,
    players: int,
    variants: Sequence[str | dict[str, Any]],
    *,
    agents: Sequence[AgentSpec] = ("heuristic",),
    strong: AgentSpec | None = "heuristic",
    weak: AgentSpec = "random",
    games: int = 500,
    options: dict[str, Any] | None = None,
    restrict: Restrict = (),
    **run: Unpack[Running],
) -> LabResult:
    """Rule variants on the same deals (common random numbers: game ``i`` of every
    variant starts from the same seed, so the deals agree wherever the variant does not
    change the deal's shape).  The first variant is the baseline (one variant alone is
    compared with the defaults).  Per variant: seat advantage, match length, score
    spread, ties and events in self-play (``agents``), and — unless ``strong`` is
    ``None`` — how often ``strong`` wins against ``players - 1`` copies of ``weak``
    (its seat rotating); differences against the baseline are paired by game."""
    common = dict(options or {})
    lineups = [Lineup("self", _bots(agents))]
    if strong is not None:
        lineups.append(Lineup("skill", _bots([strong] + [weak] * (players - 1))))
    design = Design(
        "compare",
        game,
        players,
        _variants(game, players, variants, common),
        tuple(lineups),
        restrictions=restrictions(game, players, restrict),
    )
    df, data = _play(design, games, run)
    label = lineups[1].labels()[0] if strong is not None else None
    data.update(compare_summary(df, design.to_dict(), strong=label))
    return _result("compare", design, df, data)


def match_hands(game: str, players: int, options: dict[str, Any]) -> int | None:
    """Hands in the rulebook's match with these options (``None``: it has no fixed
    number, e.g. fairy500 plays to ±500)."""
    loaded = load(game, players=players, **options)
    if "hands" not in loaded.options:
        return 1
    hands = loaded.options["hands"]
    if isinstance(hands, int):
        return hands
    if game == "extendori" and loaded.options.get("target_score") is None:
        return players
    return None


def run_luck(
    game: str,
    players: int,
    *,
    strong: AgentSpec = "heuristic",
    weak: AgentSpec = "random",
    games: int = 500,
    options: dict[str, Any] | None = None,
    restrict: Restrict = (),
    **run: Unpack[Running],
) -> LabResult:
    """Skill against luck: ``games`` deals of single hands, each played once per
    arrangement of ``strong`` and ``players - 1`` copies of ``weak`` (duplicate), then
    the strong bot's chance to win matches of 1 … 100 hands, the hands it needs for
    75% / 90%, and the deal / play split of a hand's score variance."""
    opts = dict(options or {})
    rulebook = match_hands(game, players, opts)
    if "hands" in load(game, players=players).options:
        opts["hands"] = 1
    variant = Variant.make(game, players, opts, "hand")
    lineup = Lineup("skill", _bots([strong] + [weak] * (players - 1)), "duplicate")
    design = Design(
        "luck",
        game,
        players,
        (variant,),
        (lineup,),
        restrictions=restrictions(game, players, restrict),
    )
    df, data = _play(design, games, run)
    data["weak"] = Bot.parse(weak).spec
    data["match_hands"] = rulebook
    data.update(luck_summary(df, design.to_dict(), seed=data["seed"], strong=lineup.labels()[0]))
    return _result("luck", design, df, data)


#: The skill ladder, weakest first (``hard`` at :data:`HARD_BUDGET` play-outs a move).
LADDER: tuple[str, ...] = ("random", "easy", "normal", "hard")

#: Play-outs a move of a bare ``hard`` (and ``expert``) in a ladder: a budget in
#: play-outs, not seconds, so a study gives the same matches on any machine.
HARD_BUDGET = 30


def ladder_bots(
    ladder: Sequence[AgentSpec] = LADDER, *, hard: int = HARD_BUDGET, expert: int = 0
) -> tuple[Bot, ...]:
    """The ladder's bots, weakest first: a bare ``hard`` becomes ``hard:HARD`` (play-outs
    a move) and ``expert > 0`` adds ``expert:EXPERT`` on top.

    >>> [b.spec for b in ladder_bots(expert=200)]
    ['random', 'easy', 'normal', 'hard:30', 'expert:200']
    """
    if hard < 1:
        raise ValueError(f"hard plays at least 1 play-out a move, not {hard}")
    if expert < 0:
        raise ValueError(f"expert's budget is 0 (no expert) or more play-outs, not {expert}")
    specs: list[AgentSpec] = list(ladder)
    if expert:
        specs.append(f"expert:{expert}")
    bots = []
    for spec in specs:
        if spec == "hard":
            spec = f"hard:{hard}"
        elif spec == "expert":
            spec = f"expert:{expert or 10 * hard}"
        bot = Bot.parse(spec)
        if bot.name in ("hard", "expert") and "iterations" not in dict(bot.settings):
            raise ValueError(
                f"{bot.spec}: give {bot.name} a budget in play-outs ({bot.name}:N), "
                "so the study is the same on every machine"
            )
        bots.append(bot)
    if len(bots) < 2:
        raise ValueError("a ladder needs at least two levels, weakest first")
    if len({b.spec for b in bots}) != len(bots):
        raise ValueError("each level of the ladder must be given once")
    return tuple(bots)


def _single_hand(game: str, players: int, opts: dict[str, Any]) -> dict[str, Any]:
    """The options with ``hands=1`` where the game has that option."""
    if "hands" in load(game, players=players).options:
        return {**opts, "hands": 1}
    return dict(opts)


def _skill_steps(design: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of a skill design (its line-ups: the adjacent steps, then the levels
    against the bottom)."""
    levels: list[str] = []
    for lineup in design["lineups"]:
        for spec in (lineup["bots"][1], lineup["bots"][0]):
            if spec not in levels:
                levels.append(spec)
    steps = []
    for lineup in design["lineups"]:
        strong, weak = lineup["bots"][0], lineup["bots"][1]
        kind = "step" if levels.index(weak) == levels.index(strong) - 1 else "bottom"
        steps.append({"lineup": lineup["label"], "strong": strong, "weak": weak, "kind": kind})
    return steps


def run_skill(
    game: str,
    players: int,
    *,
    ladder: Sequence[AgentSpec] = LADDER,
    hard: int = HARD_BUDGET,
    expert: int = 0,
    bottom: bool = True,
    games: int = 100,
    options: dict[str, Any] | None = None,
    restrict: Restrict = (),
    boot: int = 100,
    **run: Unpack[Running],
) -> LabResult:
    """The skill trace: each level of ``ladder`` (weakest first) against
    ``players - 1`` copies of the level below it and (``bottom``) of the lowest level,
    in duplicate single hands (``games`` deals, each once per seat arrangement, as
    :func:`run_luck` plays them).  Per step: win share and score edge with intervals,
    the luck curve, the hands and matches it takes to tell the levels apart, and
    whether the step shows clearly, slowly or barely
    (:func:`~xtarot.lab.analysis.skill_summary`)."""
    opts = dict(options or {})
    rulebook = match_hands(game, players, opts)
    variant = Variant.make(game, players, _single_hand(game, players, opts), "hand")
    bots = ladder_bots(ladder, hard=hard, expert=expert)
    lineups = [
        Lineup(
            f"{bots[i].spec}>{bots[i - 1].spec}",
            (bots[i],) + (bots[i - 1],) * (players - 1),
            "duplicate",
        )
        for i in range(1, len(bots))
    ]
    if bottom:
        lineups += [
            Lineup(
                f"{bots[i].spec}>{bots[0].spec}",
                (bots[i],) + (bots[0],) * (players - 1),
                "duplicate",
            )
            for i in range(2, len(bots))
        ]
    design = Design(
        "skill",
        game,
        players,
        (variant,),
        tuple(lineups),
        restrictions=restrictions(game, players, restrict),
    )
    df, data = _play(design, games, run)
    data["agents"] = [b.spec for b in bots]
    data["ladder"] = [b.spec for b in bots]
    data["match_hands"] = rulebook
    data.update(
        skill_summary(
            df,
            design.to_dict(),
            seed=data["seed"],
            steps=_skill_steps(design.to_dict()),
            match_hands=rulebook,
            boot=boot,
        )
    )
    return _result("skill", design, df, data)


def _feel_variants(
    game: str, players: int, variants: Sequence[str | dict[str, Any]], common: dict[str, Any]
) -> tuple[Variant, ...]:
    """The option sets a feel study measures (each as given; none: the defaults)."""
    parsed: list[tuple[str, dict[str, Any]]] = []
    for v in variants or ["default"]:
        if isinstance(v, dict):
            parsed.append((",".join(f"{k}={val}" for k, val in v.items()) or "default", dict(v)))
        else:
            parsed.append((v.strip() or "default", Variant.parse_options(v)))
    if len({label for label, _ in parsed}) != len(parsed):
        raise ValueError("each variant must be given once")
    return tuple(Variant.make(game, players, {**common, **opts}, label) for label, opts in parsed)


def run_feel(
    game: str,
    players: int,
    *,
    agents: Sequence[AgentSpec] = ("heuristic",),
    variants: Sequence[str | dict[str, Any]] = (),
    games: int = 200,
    options: dict[str, Any] | None = None,
    restrict: Restrict = (),
    pace: Pace = PACE,
    **run: Unpack[Running],
) -> LabResult:
    """How a match feels, per option set (``variants``, on the same deals; none: the
    game with ``options``): length in decisions, hands and minutes, branching, forced
    moves, lead changes, drama, when the winner was settled, comebacks, ties and
    kingmaking signs (:func:`~xtarot.lab.analysis.feel_summary`)."""
    common = dict(options or {})
    design = Design(
        "feel",
        game,
        players,
        _feel_variants(game, players, variants, common),
        (Lineup("main", _bots(agents)),),
        restrictions=restrictions(game, players, restrict),
        feel=True,
    )
    df, data = _play(design, games, run)
    data["variants"] = _feel_by_variant(df, design.to_dict(), pace)
    return _result("feel", design, df, data)


def _feel_by_variant(df: pd.DataFrame, design: dict[str, Any], pace: Pace) -> list[dict[str, Any]]:
    players = int(design["players"])
    out = []
    for v in design["variants"]:
        rows = df[df["variant"] == v["label"]] if len(df) else df
        teams = has_teams(design["game"], players, v["options"])
        out.append(
            {
                "variant": v["label"],
                "options": v["options"],
                **feel_summary(rows, players, teams=teams, pace=pace),
            }
        )
    return out


def analyse(path: str | os.PathLike[str], *, by: str = "order") -> list[LabResult]:
    """The studies a lab directory supports, recomputed from its rows (a ``games``
    directory gives both seats and stats)."""
    manifest = read_manifest(path)
    design = manifest["design"]
    df = read_rows(path)
    players = int(design["players"])
    seeds = sorted(int(s) for s in df["seed"].unique()) if len(df) else [0]
    base = {
        "game": design["game"],
        "players": players,
        "options": design["variants"][0]["options"],
        "games": int(df[["seed", "index"]].drop_duplicates().shape[0]) if len(df) else 0,
        "matches": len(df),
        "seeds": seeds,
        "agents": design["lineups"][0]["bots"],
        "out": str(path),
    }
    kind = design["kind"]
    out: list[LabResult] = []
    if kind == "games":
        seats = {**base, **seat_summary(df, players, by=by)}
        out.append(LabResult("seats", design, df, seats, out=Path(path)))
        out.append(LabResult("stats", design, df, {**base, **stats_summary(df, players)}))
    elif kind == "compare":
        strong = None
        if len(design["lineups"]) > 1:
            strong = distinct_labels(design["lineups"][1]["bots"])[0]
        data = {**base, **compare_summary(df, design, strong=strong)}
        out.append(LabResult("compare", design, df, data, out=Path(path)))
    elif kind == "luck":
        lineup = design["lineups"][0]
        strong = distinct_labels(lineup["bots"])[0]
        options = {k: v for k, v in base["options"].items() if k != "hands"}
        data = {**base, "weak": lineup["bots"][-1]}
        data["match_hands"] = match_hands(design["game"], players, options)
        data.update(luck_summary(df, design, seed=seeds[0], strong=strong))
        out.append(LabResult("luck", design, df, data, out=Path(path)))
    elif kind == "skill":
        options = {k: v for k, v in base["options"].items() if k != "hands"}
        rulebook = match_hands(design["game"], players, options)
        steps = _skill_steps(design)
        ladder = [s["weak"] for s in steps[:1]]
        ladder += [s["strong"] for s in steps if s["kind"] == "step"]
        data = {**base, "ladder": ladder}
        data["agents"] = data["ladder"]
        data["match_hands"] = rulebook
        data.update(skill_summary(df, design, seed=seeds[0], steps=steps, match_hands=rulebook))
        out.append(LabResult("skill", design, df, data, out=Path(path)))
    elif kind == "feel":
        data = {**base, "variants": _feel_by_variant(df, design, PACE)}
        out.append(LabResult("feel", design, df, data, out=Path(path)))
    elif kind == "tournament":
        lineup = design["lineups"][0]
        result = summarise(df.to_dict("records"), distinct_labels(lineup["bots"]), players)
        data = {**base, "duplicate": lineup["scheme"] == "duplicate", **result}
        out.append(LabResult("tournament", design, df, data, out=Path(path)))
    return out
