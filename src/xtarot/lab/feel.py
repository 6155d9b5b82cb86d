"""How a match feels: the measures of one match, taken while it is played.

:class:`FeelTracker` watches a match decision by decision: how many legal moves each
decision had, and the running standing (``state.scores()``: totals and ranks, as the
game's scoreboard shows them) after every move.  :meth:`FeelTracker.result` turns that
into one JSON-able record per match (the ``feel`` column of a lab row); the lab's
``feel`` study (:func:`xtarot.lab.analysis.feel_summary`) averages them over matches.
docs/lab.md defines every measure and names its source (Ludii's metrics, after
Browne's thesis; the kingmaking sign is the lab's own).

>>> import xtarot
>>> from xtarot.agents import RandomAgent, decision_for
>>> state = xtarot.load("matto", players=3).new_state(seed=2)
>>> agents = [RandomAgent(s) for s in range(3)]
>>> tracker = FeelTracker(state)
>>> while not state.is_terminal:
...     decision = decision_for(state)
...     tracker.before(len(decision.legal))
...     _ = state.apply(agents[state.current_player].act(decision))
...     tracker.after(state)
>>> record = tracker.result(state)
>>> record["decisions"] == len(state.history), 0 <= record["forced"] <= record["decisions"]
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xtarot.engine import State

__all__ = ["KINGMAKER_LATE", "PACE", "FeelTracker", "Pace", "feel_of_trajectory"]

#: the share of a match, at its end, in which a last-place seat's choices count as
#: kingmaking positions
KINGMAKER_LATE = 0.2


@dataclass(frozen=True)
class Pace:
    """How long people take, for the real-time estimate: ``choice`` seconds for a
    decision with a choice plus ``per_bit`` seconds per bit of choice (log2 of the
    legal moves: Hick-Hyman's law, a reaction time growing with the log of the
    options), ``forced`` seconds for a move without choice (the app plays it, the
    table watches) and ``hand`` seconds per hand (shuffle, deal, count the score).
    Assumptions, not measurements of people: docs/lab.md says so."""

    choice: float = 2.0
    per_bit: float = 1.0
    forced: float = 0.5
    hand: float = 30.0

    def minutes(self, choices: float, bits: float, forced: float, hands: float) -> float:
        seconds = (
            self.choice * choices + self.per_bit * bits + self.forced * forced + self.hand * hands
        )
        return seconds / 60.0


PACE = Pace()


def _leader(ranks: Sequence[int]) -> frozenset[int] | None:
    """The seats in first place, or ``None`` when everyone is level."""
    top = frozenset(s for s, r in enumerate(ranks) if r == 1)
    return None if len(top) == len(ranks) else top


def feel_of_trajectory(
    legal: Sequence[int],
    seats: Sequence[int],
    totals: Sequence[Sequence[float]],
    ranks: Sequence[Sequence[int]],
    *,
    hands: int,
    teams: bool = False,
) -> dict[str, float]:
    """The measures of one match from its trajectory.

    ``legal[k]``: legal moves at decision ``k`` (taken by ``seats[k]``); ``totals[k]``
    and ``ranks[k]``: the standing *before* decision ``k``, with one more entry at the
    end (the final standing).  Pure, so tests can give hand-built matches.

    >>> feel = feel_of_trajectory(
    ...     [2, 1, 3, 2], [0, 1, 0, 1],
    ...     [[0, 0], [0, 2], [1, 2], [3, 2], [3, 5]],
    ...     [[1, 1], [2, 1], [2, 1], [1, 2], [2, 1]], hands=1)
    >>> feel["lead_changes"], feel["drama_points"], feel["comeback"], feel["settled_at"]
    (2.0, 1.0, 1.0, 1.0)
    """
    decisions = len(legal)
    if len(totals) != decisions + 1 or len(ranks) != decisions + 1:
        raise ValueError("a trajectory has one standing more than decisions")
    choices = sum(1 for n in legal if n > 1)
    bits = sum(math.log2(n) for n in legal if n > 1)
    final_ranks = ranks[-1]
    winners = [s for s, r in enumerate(final_ranks) if r == 1]
    final = totals[-1]
    scale = max(1.0, max(abs(float(x)) for x in final)) if final else 1.0
    # lead changes: the seats in first place (a team in a team game) change
    changes = 0
    previous: frozenset[int] | None = None
    for r in ranks:
        lead = _leader(r)
        if lead is None:
            continue
        if previous is not None and lead != previous:
            changes += 1
        previous = lead
    # drama: how far behind the leader the eventual winner fell
    deficit = 0.0
    for t in totals:
        best = max(float(x) for x in t)
        mine = max(float(t[w]) for w in winners)
        deficit = max(deficit, best - mine)
    # settled: after which share of the decisions the winner stayed in first place
    last_not_first = -1
    for k, r in enumerate(ranks):
        if any(r[w] != 1 for w in winners):
            last_not_first = k
    settled = (last_not_first + 1) / decisions if decisions else 0.0
    settled = min(1.0, settled)
    # comeback: the eventual winner alone in last place in the second half
    comeback = 0.0
    for k in range(math.ceil(decisions / 2), decisions + 1):
        r = ranks[k]
        worst = max(r)
        if worst > 1 and any(r[w] == worst for w in winners):
            comeback = 1.0
            break
    positions, flips = _kingmaking(legal, seats, totals, winners, teams)
    return {
        "decisions": float(decisions),
        "choices": float(choices),
        "forced": float(decisions - choices),
        "legal": float(sum(legal)),
        "legal_at_choices": float(sum(n for n in legal if n > 1)),
        "bits": bits,
        "hands": float(hands),
        "minutes": PACE.minutes(choices, bits, decisions - choices, hands),
        "lead_changes": float(changes),
        "drama": deficit / scale,
        "drama_points": deficit,
        "settled_at": settled,
        "comeback": comeback,
        "kingmaker_positions": float(positions),
        "kingmaking": float(flips),
    }


def _kingmaking(
    legal: Sequence[int],
    seats: Sequence[int],
    totals: Sequence[Sequence[float]],
    winners: list[int],
    teams: bool,
) -> tuple[int, int]:
    """Kingmaking positions (late decisions with a choice by a seat alone in last
    place, far behind two close leaders) and whether the winner was still behind at
    the first of them (1: the lead changed after a kingmaker's choices)."""
    n = len(totals[0]) if totals else 0
    if teams or n < 3:
        return 0, 0
    decisions = len(legal)
    start = math.floor(decisions * (1 - KINGMAKER_LATE))
    positions = 0
    flipped = 0
    for k in range(start, decisions):
        if legal[k] < 2:
            continue
        t = [float(x) for x in totals[k]]
        seat = seats[k]
        others = sorted((x for s, x in enumerate(t) if s != seat), reverse=True)
        if t[seat] >= others[-1]:
            continue  # not alone in last place
        gap_top, gap_last = others[0] - others[1], others[1] - t[seat]
        if gap_last > 0 and gap_top <= gap_last / 2:
            if positions == 0:  # the first such position: was the winner behind then?
                flipped = int(max(t[w] for w in winners) < max(t))
            positions += 1
    return positions, flipped


class FeelTracker:
    """Collects a match's trajectory: call :meth:`before` with the legal moves of each
    decision, :meth:`after` once the move is applied, :meth:`result` at the end."""

    def __init__(self, state: State) -> None:
        scores = state.scores()
        self.teams = scores.teams is not None
        self.legal: list[int] = []
        self.seats: list[int] = []
        self.totals: list[tuple[float, ...]] = [tuple(float(x) for x in scores.totals)]
        self.ranks: list[tuple[int, ...]] = [tuple(int(r) for r in scores.ranks)]
        self._seat = state.current_player

    def before(self, legal: int) -> None:
        self.legal.append(legal)
        self.seats.append(self._seat if self._seat is not None else 0)

    def after(self, state: State) -> None:
        scores = state.scores()
        self.totals.append(tuple(float(x) for x in scores.totals))
        self.ranks.append(tuple(int(r) for r in scores.ranks))
        self._seat = state.current_player

    def result(self, state: State) -> dict[str, Any]:
        return feel_of_trajectory(
            self.legal,
            self.seats,
            self.totals,
            self.ranks,
            hands=len(state.deals),
            teams=self.teams,
        )
