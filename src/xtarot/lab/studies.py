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

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xtarot.agents import Agent
from xtarot.engine import load
from xtarot.lab.analysis import compare_summary, luck_summary, seat_summary, stats_summary
from xtarot.lab.runner import (
    LAB_EXTRA,
    Bot,
    Design,
    Lineup,
    Variant,
    available_cpus,
    distinct_labels,
    execute,
)
from xtarot.lab.store import Store, frame, read_manifest, read_rows
from xtarot.lab.tournament import summarise

try:
    import pandas as pd
except ImportError as _err:  # pragma: no cover
    raise ImportError(LAB_EXTRA) from _err

__all__ = [
    "LabResult",
    "analyse",
    "match_hands",
    "run_compare",
    "run_luck",
    "run_seats",
    "run_stats",
]

AgentSpec = str | Bot | Callable[..., Agent]
Progress = Callable[[int, int], None]


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
        }
        return pd.DataFrame(self.data.get(key.get(self.kind, "seats"), []))


def _check(games: int, start: int) -> None:
    if games < 1:
        raise ValueError("give at least one game")
    if start < 0:
        raise ValueError(f"start must be 0 or more, not {start}")


def _play(
    design: Design,
    *,
    games: int,
    seed: int,
    start: int,
    workers: int | None,
    ray: str | None,
    out: str | os.PathLike[str] | None,
    command: str | None,
    on_progress: Progress | None,
) -> tuple[pd.DataFrame, float, Path | None, int]:
    """Play (or resume) the design: the rows to analyse, the time it took, the
    matches played now."""
    _check(games, start)
    started = time.perf_counter()
    indices = list(range(start, start + games))
    store = None
    if out is not None:
        store = Store(out, design)
        done = store.done(seed)
        indices = [i for i in indices if i not in done]
        store.begin(
            {
                "command": command,
                "seed": seed,
                "start": start,
                "games": games,
                "workers": workers or available_cpus(),
                "backend": f"ray {ray}" if ray else "multiprocessing",
            }
        )
    rows = execute(
        design, seed, indices, workers=workers, ray=ray, on_progress=on_progress, store=store
    )
    df = store.frame() if store is not None else frame(rows)
    path = Path(out) if out is not None else None
    return df, time.perf_counter() - started, path, len(rows)


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
    seed: int = 0,
    options: dict[str, Any] | None = None,
    by: str = "order",
    start: int = 0,
    workers: int | None = None,
    ray: str | None = None,
    out: str | os.PathLike[str] | None = None,
    command: str | None = None,
    on_progress: Progress | None = None,
) -> LabResult:
    """Seat advantage: per seat (play order by default), win share and mean score with
    95% intervals, and whether any seat is favoured.  Several ``agents`` rotate over the
    seats (game ``i`` seats ``agents[(s + i) % k]`` at seat ``s``)."""
    design = Design.build(game, players, agents=_bots(agents), options=options, kind="games")
    df, seconds, path, played = _play(
        design, games=games, seed=seed, start=start, workers=workers, ray=ray, out=out,
        command=command, on_progress=on_progress,
    )  # fmt: skip
    data = {**_header(design, df, seconds, path, played), "seed": seed}
    data.update(seat_summary(df, players, by=by))
    return LabResult("seats", design, df, data, seconds, path)


def run_stats(
    game: str,
    players: int,
    *,
    agents: Sequence[AgentSpec] = ("heuristic",),
    games: int = 1000,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    start: int = 0,
    workers: int | None = None,
    ray: str | None = None,
    out: str | os.PathLike[str] | None = None,
    command: str | None = None,
    on_progress: Progress | None = None,
) -> LabResult:
    """Distributions: match length, hands, scores, margins, ties and the game's events.
    (The same matches as :func:`run_seats`: one directory serves both.)"""
    design = Design.build(game, players, agents=_bots(agents), options=options, kind="games")
    df, seconds, path, played = _play(
        design, games=games, seed=seed, start=start, workers=workers, ray=ray, out=out,
        command=command, on_progress=on_progress,
    )  # fmt: skip
    data = {**_header(design, df, seconds, path, played), "seed": seed}
    data.update(stats_summary(df, players))
    return LabResult("stats", design, df, data, seconds, path)


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
    seed: int = 0,
    options: dict[str, Any] | None = None,
    start: int = 0,
    workers: int | None = None,
    ray: str | None = None,
    out: str | os.PathLike[str] | None = None,
    command: str | None = None,
    on_progress: Progress | None = None,
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
        "compare", game, players, _variants(game, players, variants, common), tuple(lineups)
    )
    df, seconds, path, played = _play(
        design, games=games, seed=seed, start=start, workers=workers, ray=ray, out=out,
        command=command, on_progress=on_progress,
    )  # fmt: skip
    data = {**_header(design, df, seconds, path, played), "seed": seed}
    label = lineups[1].labels()[0] if strong is not None else None
    data.update(compare_summary(df, design.to_dict(), strong=label))
    return LabResult("compare", design, df, data, seconds, path)


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
    seed: int = 0,
    options: dict[str, Any] | None = None,
    start: int = 0,
    workers: int | None = None,
    ray: str | None = None,
    out: str | os.PathLike[str] | None = None,
    command: str | None = None,
    on_progress: Progress | None = None,
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
    design = Design("luck", game, players, (variant,), (lineup,))
    df, seconds, path, played = _play(
        design, games=games, seed=seed, start=start, workers=workers, ray=ray, out=out,
        command=command, on_progress=on_progress,
    )  # fmt: skip
    data = {
        **_header(design, df, seconds, path, played),
        "seed": seed,
        "weak": Bot.parse(weak).spec,
    }
    data["match_hands"] = rulebook
    data.update(luck_summary(df, design.to_dict(), seed=seed, strong=lineup.labels()[0]))
    return LabResult("luck", design, df, data, seconds, path)


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
    elif kind == "tournament":
        lineup = design["lineups"][0]
        result = summarise(df.to_dict("records"), distinct_labels(lineup["bots"]), players)
        data = {**base, "duplicate": lineup["scheme"] == "duplicate", **result}
        out.append(LabResult("tournament", design, df, data, out=Path(path)))
    return out
