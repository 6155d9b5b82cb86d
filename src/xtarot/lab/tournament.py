"""Tournaments between bots: rotated seats, win shares with confidence intervals, ratings.

Game ``g`` seats agent ``lineup[(s + g) % len(lineup)]`` at seat ``s``, so over a
multiple of ``len(lineup)`` games every agent sits in every seat equally often.
With fewer agents than seats an agent fills several seats of one table; each seat
counts as one result for that agent.

Per agent: the number of seat-results, the win share (a win shared by ``k`` seats
counts ``1/k``) with a 95% confidence interval (normal approximation, Wilson for
the share), the fair share (``1 / players``), the mean score with its interval, and
an openskill (Plackett-Luce) rating from every game's ranking.

>>> result = run_tournament("sono-arcana", 3, ["random", "random"], games=4, seed=1)
>>> sorted(result.agents), result.games
(['random#1', 'random#2'], 4)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from xtarot.agents import Agent, make_agent, play_match
from xtarot.engine import load

__all__ = ["AgentResult", "TournamentResult", "run_tournament", "wilson_interval"]

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
            "mu": self.mu,
            "sigma": self.sigma,
        }


@dataclass
class TournamentResult:
    game: str
    players: int
    options: dict[str, Any]
    games: int
    seconds: float
    agents: dict[str, AgentResult]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "games": self.games,
            "seconds": self.seconds,
            "agents": [a.to_dict(self.players) for a in self.agents.values()],
        }


def _labels(names: Sequence[str]) -> list[str]:
    """Distinct labels: a name given twice becomes ``name#1``, ``name#2``."""
    counts = {n: names.count(n) for n in names}
    seen: dict[str, int] = {}
    out = []
    for n in names:
        if counts[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            out.append(f"{n}#{seen[n]}")
        else:
            out.append(n)
    return out


def run_tournament(
    game_id: str,
    players: int,
    agents: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    settings: dict[str, dict[str, Any]] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` matches of a rotating lineup of bots (by name).

    ``settings`` maps a bot name to constructor settings (e.g. ``{"ismcts":
    {"seconds": 1.0}}``); ``on_game(i)`` is called after each game (progress bars).
    """
    if not agents:
        raise ValueError("a tournament needs at least one agent")
    if games < 1:
        raise ValueError("a tournament needs at least one game")
    options = dict(options or {})
    game = load(game_id, players=players, **options)
    labels = _labels(list(agents))
    results = {label: AgentResult(label) for label in labels}
    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    rng = random.Random(seed)
    settings = settings or {}
    start = time.perf_counter()
    for g in range(games):
        lineup = [(s + g) % len(labels) for s in range(players)]
        bots: list[Agent] = [
            make_agent(agents[i], rng.getrandbits(32), **settings.get(agents[i], {}))
            for i in lineup
        ]
        final = play_match(game, bots, seed=rng.getrandbits(48)).scores()
        winners = final.winners
        for s, i in enumerate(lineup):
            r = results[labels[i]]
            r.seats += 1
            r.scores.append(final.totals[s])
            if s in winners:
                r.wins += 1 / len(winners)
        rated = model.rate([[ratings[labels[i]]] for i in lineup], ranks=list(final.ranks))
        updates: dict[str, list[Any]] = {}
        for team, i in zip(rated, lineup, strict=True):
            updates.setdefault(labels[i], []).append(team[0])
        for label, new in updates.items():
            mu = sum(x.mu for x in new) / len(new)
            sigma = sum(x.sigma for x in new) / len(new)
            ratings[label] = model.rating(mu=mu, sigma=sigma, name=label)
        if on_game is not None:
            on_game(g)
    for label, r in results.items():
        r.mu, r.sigma = ratings[label].mu, ratings[label].sigma
    return TournamentResult(
        game=game_id,
        players=players,
        options=game.options,
        games=games,
        seconds=time.perf_counter() - start,
        agents=results,
    )
