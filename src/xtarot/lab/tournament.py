"""Tournaments between bots: rotated or duplicate seats, win shares with confidence
intervals, ratings with their uncertainty; on one core, many, or Ray.

Rotated (the default): game ``g`` seats agent ``lineup[(s + g) % len(lineup)]`` at seat
``s``, so over a multiple of ``len(lineup)`` games every agent sits in every seat equally
often.  With fewer agents than seats an agent fills several seats of one table; each
seat counts as one result for that agent.  Its seeds are the ones this function has
always drawn (``Design.seeding == "stream"``), so old figures reproduce.

Duplicate (``duplicate=True``): each of ``games`` deals is played once per arrangement
of a Williams design (``xtarot.lab.runner.williams``): the agents' slots are permuted so
that every agent holds every seat's cards once and every agent follows every other in
play order equally often — neighbours change, not only rotate.  Luck of the deal then
cancels out of the comparison.

Per agent: the number of seat-results, the win share (a win shared by ``k`` seats
counts ``1/k``) with a 95% Wilson interval, the fair share (``1 / players``), the mean
score with its interval, and an openskill (Plackett-Luce) rating from every game's
ranking in game order, shown as ``mu`` with a 95% interval ``mu ± 1.96 sigma``
(``rating`` keeps the conservative ``mu − 3 sigma``).  Ratings of agents whose intervals
overlap do not separate them.

>>> result = run_tournament("sono-arcana", 3, ["random", "random"], games=4, seed=1, workers=1)
>>> sorted(result.agents), result.games
(['random#1', 'random#2'], 4)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from xtarot.lab.runner import Bot, Design, Lineup, execute, williams

__all__ = [
    "AgentResult",
    "TournamentResult",
    "planned_matches",
    "run_tournament",
    "summarise",
    "wilson_interval",
]

Z95 = 1.959964


def wilson_interval(wins: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a share (``wins`` may be fractional).

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class AgentResult:
    """One agent's record over a tournament."""

    name: str
    seats: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def win_share(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seats)

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def score_interval(self) -> tuple[float, float]:
        n = len(self.scores)
        if n < 2:
            return (self.mean_score, self.mean_score)
        m = self.mean_score
        sd = math.sqrt(sum((x - m) ** 2 for x in self.scores) / (n - 1))
        half = Z95 * sd / math.sqrt(n)
        return (m - half, m + half)

    @property
    def rating(self) -> float:
        """Conservative openskill rating (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    @property
    def rating_interval(self) -> tuple[float, float]:
        """95% interval of the openskill skill ``mu`` (``mu ± 1.96 sigma``)."""
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    def to_dict(self, players: int) -> dict[str, Any]:
        lo, hi = self.win_interval
        slo, shi = self.score_interval
        return {
            "agent": self.name,
            "seats": self.seats,
            "win_share": self.win_share,
            "win_share_ci95": [lo, hi],
            "fair_share": 1 / players,
            "win_share_vs_fair": self.win_share * players,
            "mean_score": self.mean_score,
            "mean_score_ci95": [slo, shi],
            "rating": self.rating,
            "rating_ci95": list(self.rating_interval),
            "mu": self.mu,
            "sigma": self.sigma,
        }


@dataclass
class TournamentResult:
    """A tournament's figures; ``rows`` holds one dict per match (``frame()``: pandas)."""

    game: str
    players: int
    options: dict[str, Any]
    games: int
    seconds: float
    agents: dict[str, AgentResult]
    seed: int = 0
    duplicate: bool = False
    deals: int = 0
    arrangements: int = 1
    rows: list[dict[str, Any]] = field(default_factory=list, repr=False)
    out: str | None = None

    def separable(self) -> bool:
        """Whether any two agents' rating intervals are disjoint (else the ratings do not
        separate the agents and a table should not rank them by rating)."""
        spans = [a.rating_interval for a in self.agents.values()]
        return any(a[1] < b[0] for a in spans for b in spans)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "deals": self.deals,
            "arrangements": self.arrangements,
            "seconds": self.seconds,
            "ratings_separate": self.separable(),
            "out": self.out,
            "agents": [a.to_dict(self.players) for a in self.agents.values()],
        }

    def frame(self) -> Any:
        """The matches as a pandas DataFrame (needs the lab extra)."""
        from xtarot.lab.store import frame

        return frame(self.rows)


def planned_matches(players: int, agents: int, games: int, *, duplicate: bool = False) -> int:
    """Matches a tournament plays: ``games``, or ``games`` deals × the arrangements of a
    duplicate tournament (for a progress bar's total).

    >>> planned_matches(4, 2, 10), planned_matches(4, 2, 10, duplicate=True)
    (10, 40)
    """
    return games * (len(williams(max(players, agents))) if duplicate else 1)


def run_tournament(
    game_id: str,
    players: int,
    agents: Sequence[str | Bot | Callable[..., Any]],
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    settings: dict[str, dict[str, Any]] | None = None,
    on_game: Callable[[int], None] | None = None,
    workers: int | None = 1,
    ray: str | None = None,
    out: str | os.PathLike[str] | None = None,
    duplicate: bool = False,
    command: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
) -> TournamentResult:
    """Play ``games`` matches of a rotating lineup of bots (by name), or with
    ``duplicate=True`` ``games`` deals, each once per seat arrangement.

    ``settings`` maps a bot name to constructor settings (e.g. ``{"ismcts":
    {"seconds": 1.0}}``; time budgets make a run depend on the machine's speed);
    ``on_game(i)`` is called as matches finish with ``i + 1`` matches done
    (progress bars); ``on_progress(done, total)`` likewise.  ``workers``: processes
    (``None``: every CPU; the default 1 plays in this process); ``ray``: ``"local"`` or
    a cluster address.  ``out``: a lab directory for one Parquet row per match and a
    manifest (needs the lab extra); a run into a directory of the same tournament plays
    only the matches it lacks, and the figures then cover everything stored there.
    ``chunk``: games (deals, with ``duplicate``) handed out, stored and reported at a
    time (default: one when a bot searches, see :data:`xtarot.agents.SEARCHING`, so a
    stop loses little and progress comes often; else about eight chunks a worker, at
    most 50).  It never changes a match.
    """
    if not agents:
        raise ValueError("a tournament needs at least one agent")
    if games < 1:
        raise ValueError("a tournament needs at least one game")
    settings = settings or {}
    bots = []
    for a in agents:
        bot = Bot.parse(a)
        extra = settings.get(bot.name, {})
        if extra:
            merged = {**dict(bot.settings), **extra}
            bot = Bot(bot.spec, bot.name, tuple(sorted(merged.items())), bot.factory)
        bots.append(bot)
    design = Design.build(
        game_id,
        players,
        agents=bots,
        options=options,
        kind="tournament",
        duplicate=duplicate,
        seeding="derived" if duplicate else "stream",
    )
    lineup: Lineup = design.lineups[0]
    start = time.perf_counter()
    store = None
    indices = list(range(games))
    if out is not None:
        from xtarot.lab.store import Store

        store = Store(out, design)
        done = store.done(seed)
        indices = [i for i in indices if i not in done]
        store.begin(
            {"command": command, "seed": seed, "start": 0, "games": games, "workers": workers,
             "backend": "ray" if ray else "processes"}
        )  # fmt: skip

    def progress(done: int, total: int) -> None:
        if on_progress is not None:
            on_progress(done, total)
        if on_game is not None and done:
            on_game(done - 1)

    rows = execute(
        design,
        seed,
        indices,
        workers=workers,
        ray=ray,
        chunk=chunk,
        on_progress=progress,
        store=store,
    )
    if store is not None:
        frame = store.frame()
        rows = frame.to_dict("records")
    results = _aggregate(rows, lineup.labels())
    per_deal = lineup.count(players)
    return TournamentResult(
        game=game_id,
        players=players,
        options=dict(design.variants[0].options),
        games=len(rows),
        seconds=time.perf_counter() - start,
        agents=results,
        seed=seed,
        duplicate=duplicate,
        deals=len({(r["seed"], r["index"]) for r in rows}),
        arrangements=per_deal,
        rows=[dict(r) for r in rows],
        out=str(Path(out)) if out is not None else None,
    )


def _aggregate(rows: Sequence[dict[str, Any]], labels: Sequence[str]) -> dict[str, AgentResult]:
    """Per agent: seat-results, wins, scores and the openskill rating (in row order)."""
    results = {label: AgentResult(label) for label in labels}
    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for row in rows:
        seats = list(row["agents"])
        ranks = [int(r) for r in row["ranks"]]
        winners = [s for s, r in enumerate(ranks) if r == 1]
        for s, label in enumerate(seats):
            r = results[label]
            r.seats += 1
            r.scores.append(float(row["scores"][s]))
            if s in winners:
                r.wins += 1 / len(winners)
        rated = model.rate([[ratings[label]] for label in seats], ranks=ranks)
        updates: dict[str, list[Any]] = {}
        for team, label in zip(rated, seats, strict=True):
            updates.setdefault(label, []).append(team[0])
        for label, new in updates.items():
            mu = sum(x.mu for x in new) / len(new)
            sigma = sum(x.sigma for x in new) / len(new)
            ratings[label] = model.rating(mu=mu, sigma=sigma, name=label)
    for label, r in results.items():
        r.mu, r.sigma = ratings[label].mu, ratings[label].sigma
    return results


def summarise(
    rows: Sequence[dict[str, Any]], labels: Sequence[str], players: int
) -> dict[str, Any]:
    """Per-agent figures of stored tournament rows (sorted by their key)."""
    results = _aggregate(rows, labels)
    spans = [a.rating_interval for a in results.values()]
    return {
        "ratings_separate": any(a[1] < b[0] for a in spans for b in spans),
        "agents": [a.to_dict(players) for a in results.values()],
    }
