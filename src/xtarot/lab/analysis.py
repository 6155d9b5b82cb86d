"""The lab's statistics: seat advantage, variant comparisons, luck and distributions.

Every function takes the rows of a run (a DataFrame, one row per match, as
``xtarot.lab.read_rows`` returns) and returns JSON data; intervals are 95%.

- A win shared by ``k`` seats counts ``1/k`` to each, so win shares sum to 1 per match
  and the fair share is ``1/players``.  Win-share intervals are Wilson intervals.
- Seats are counted in **play order** by default: seat 0 is the first seat to act in the
  match (the parent, the player left of the dealer, player #1, … as the rulebook says),
  seat 1 the next clockwise.  With ``by="table"`` they are the engine's table seats.
- "Is any seat favoured?" is a Wald test of the per-match vector of (win share − fair
  share) against zero (chi-square with as many degrees of freedom as the vector has
  independent parts: team games lose some), so partners sharing every result are
  handled.  The same test on (score − the match's mean score) tests the mean scores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from xtarot.lab.events import totals_decide
from xtarot.lab.feel import PACE, Pace
from xtarot.lab.runner import LAB_EXTRA, derive_seed
from xtarot.lab.tournament import wilson_interval

try:
    import numpy as np
    import pandas as pd
    from scipy import stats
except ImportError as _err:  # pragma: no cover - exercised without the extra
    raise ImportError(LAB_EXTRA) from _err

__all__ = [
    "FEEL_METRICS",
    "LUCK_HANDS",
    "adjust_pvalues",
    "compare_summary",
    "feel_summary",
    "luck_summary",
    "match_format",
    "mean_ci",
    "recognise",
    "seat_summary",
    "skill_summary",
    "stats_summary",
    "wald_test",
]

Z95 = 1.959964

#: Match lengths (in hands) at which the luck curve is evaluated.
LUCK_HANDS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100)


# -- small helpers ----------------------------------------------------------------------------
def _f(x: Any) -> float | None:
    """A JSON-safe float (``None`` for NaN)."""
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def mean_ci(values: Any) -> tuple[float | None, list[float | None]]:
    """Mean and 95% t interval.

    >>> mean_ci([1.0, 2.0, 3.0])
    (2.0, [-0.484..., 4.484...])
    """
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return None, [None, None]
    m = float(x.mean())
    if x.size < 2:
        return m, [m, m]
    half = float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    return m, [m - half, m + half]


def wald_test(deviations: Any) -> dict[str, Any]:
    """Test that the mean of per-match deviation vectors is zero (rows: matches).

    Returns ``{"statistic", "df", "p_value"}``; ``df`` is the rank of the covariance
    (e.g. ``players - 1``, fewer when partners share results); ``p_value`` is 1 when the
    deviations never vary.
    """
    d = np.asarray(deviations, dtype=float)
    if d.ndim == 1:
        d = d[:, None]
    g = d.shape[0]
    if g < 2:
        return {"statistic": None, "df": 0, "p_value": None}
    mean = d.mean(axis=0)
    cov = np.atleast_2d(np.cov(d, rowvar=False))
    rank = int(np.linalg.matrix_rank(cov, tol=1e-10 * max(1.0, float(np.abs(cov).max()))))
    if rank == 0:
        return {"statistic": 0.0, "df": 0, "p_value": 1.0}
    statistic = float(g * mean @ np.linalg.pinv(cov, hermitian=True, rtol=1e-10) @ mean)
    return {"statistic": statistic, "df": rank, "p_value": float(stats.chi2.sf(statistic, rank))}


def _matrix(column: pd.Series) -> np.ndarray:
    return np.array(column.tolist(), dtype=float)


def win_shares(df: pd.DataFrame) -> np.ndarray:
    """Per match and table seat: 1/k when the seat shares first place with k seats."""
    top = _matrix(df["ranks"]) == 1
    return top / top.sum(axis=1, keepdims=True)


def _by_position(matrix: np.ndarray, first: np.ndarray, by: str) -> np.ndarray:
    """Reorder per-seat columns so column p is seat p in play order (or table order)."""
    if by == "table":
        return matrix
    n = matrix.shape[1]
    cols = (np.arange(n)[None, :] + first[:, None]) % n
    return np.take_along_axis(matrix, cols, axis=1)


def _events(df: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame([json.loads(e) for e in df["events"]], index=df.index).fillna(0.0)


def _pvalue(x: Any) -> float | None:
    """Two-sided p of a one-sample t test against zero (``None`` when undefined)."""
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return None
    if np.allclose(x, x[0]):
        return 1.0 if abs(x[0]) < 1e-12 else 0.0
    return _f(stats.ttest_1samp(x, 0.0).pvalue)


# -- seat advantage --------------------------------------------------------------------------
def seat_summary(df: pd.DataFrame, players: int, *, by: str = "order") -> dict[str, Any]:
    """Per seat: win share with Wilson interval, mean score with t interval, the mean
    score above the match's average, and tests that no seat is favoured."""
    if by not in ("order", "table"):
        raise ValueError(f"seats are counted by 'order' or 'table', not {by!r}")
    games = len(df)
    first = df["first"].to_numpy(dtype=int)
    wins = _by_position(win_shares(df), first, by) if games else np.zeros((0, players))
    scores = _by_position(_matrix(df["scores"]), first, by) if games else np.zeros((0, players))
    fair = 1 / players
    edge = scores - scores.mean(axis=1, keepdims=True) if games else scores
    seats = []
    for p in range(players):
        w = wins[:, p]
        lo, hi = wilson_interval(float(w.sum()), games)
        mean, ci = mean_ci(scores[:, p])
        adv, adv_ci = mean_ci(edge[:, p])
        share = float(w.mean()) if games else None
        seats.append(
            {
                "seat": p,
                "win_share": share,
                "win_share_ci95": [lo, hi],
                "fair_share": fair,
                "win_share_vs_fair": share * players if share is not None else None,
                "p_value": _pvalue(w - fair),
                "mean_score": mean,
                "mean_score_ci95": ci,
                "score_vs_table": adv,
                "score_vs_table_ci95": adv_ci,
            }
        )
    win_test = wald_test(wins - fair)
    score_test = wald_test(edge)
    return {
        "seat_basis": by,
        "games": games,
        "seats": seats,
        "win_test": win_test,
        "score_test": score_test,
        "favoured": bool(win_test["p_value"] is not None and win_test["p_value"] < 0.05),
    }


# -- distributions and events ----------------------------------------------------------------
def _describe(values: Any) -> dict[str, float | None]:
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return {}
    q = np.quantile(x, [0.05, 0.25, 0.5, 0.75, 0.95])
    return {
        "mean": _f(x.mean()),
        "sd": _f(x.std(ddof=1)) if x.size > 1 else 0.0,
        "min": _f(x.min()),
        "q05": _f(q[0]),
        "q25": _f(q[1]),
        "median": _f(q[2]),
        "q75": _f(q[3]),
        "q95": _f(q[4]),
        "max": _f(x.max()),
    }


def _margins(df: pd.DataFrame) -> np.ndarray:
    """Winner's total minus the best total of the rest (0 for a shared first place)."""
    scores = _matrix(df["scores"])
    ranks = _matrix(df["ranks"])
    out = np.zeros(len(df))
    for i in range(len(df)):
        best = scores[i][ranks[i] == 1].max()
        rest = scores[i][ranks[i] > 1]
        out[i] = best - rest.max() if rest.size and (ranks[i] == 1).sum() == 1 else 0.0
    return out


def event_summary(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Each event: mean per match (with interval), share of matches with it, per hand."""
    if df.empty:
        return []
    ev = _events(df)
    hands = float(df["hands"].sum())
    out = []
    for name in sorted(ev.columns):
        x = ev[name].to_numpy(dtype=float)
        mean, ci = mean_ci(x)
        out.append(
            {
                "event": name,
                "mean": mean,
                "mean_ci95": ci,
                "share_of_matches": float((x > 0).mean()),
                "per_hand": float(x.sum() / hands) if hands else None,
            }
        )
    return out


def stats_summary(df: pd.DataFrame, players: int) -> dict[str, Any]:
    """Lengths, scores, margins, ties and events of a set of matches."""
    scores = _matrix(df["scores"]) if len(df) else np.zeros((0, players))
    ranks = _matrix(df["ranks"]) if len(df) else np.zeros((0, players))
    winners = (ranks == 1).sum(axis=1)
    return {
        "games": len(df),
        "length": _describe(df["length"]),
        "hands": _describe(df["hands"]),
        "seconds_per_match": _f(df["seconds"].mean()) if len(df) else None,
        "scores": _describe(scores.ravel()),
        "winner_score": _describe([s[r == 1].max() for s, r in zip(scores, ranks, strict=True)]),
        "margin": _describe(_margins(df)) if len(df) else {},
        "spread": _describe(scores.std(axis=1)) if len(df) else {},
        "ties": {
            "shared_first": float((winners > 1).mean()) if len(df) else None,
            "all_level": float((winners == players).mean()) if len(df) else None,
        },
        "seats": seat_summary(df, players)["seats"] if len(df) else [],
        "events": event_summary(df),
    }


# -- variants ------------------------------------------------------------------------------------
def _paired(values: Any, base_values: Any) -> dict[str, Any]:
    diff = np.asarray(values, dtype=float) - np.asarray(base_values, dtype=float)
    mean, ci = mean_ci(diff)
    return {"difference": mean, "difference_ci95": ci, "p_value": _pvalue(diff)}


def _strong_shares(df: pd.DataFrame, strong: str) -> np.ndarray:
    wins = win_shares(df)
    out = np.zeros(len(df))
    for i, agents in enumerate(df["agents"]):
        out[i] = sum(wins[i][s] for s, a in enumerate(agents) if a == strong)
    return out


def compare_summary(
    df: pd.DataFrame, design: dict[str, Any], *, strong: str | None = None
) -> dict[str, Any]:
    """Each variant against the first (the baseline), paired on the same game indices.

    Self-play rows (line-up ``self``) give seat advantage, length, score spread, ties and
    events; skill rows (line-up ``skill``: one ``strong`` bot against weaker ones) give
    how often the stronger bot wins.  Differences are paired by game index (common
    random numbers); ``q_value`` adjusts every p-value of the comparison for their number
    (Benjamini-Hochberg).
    """
    players = int(design["players"])
    labels = [v["label"] for v in design["variants"]]
    key = ["seed", "index"]
    self_rows = df[df["lineup"] == "self"]
    skill_rows = df[df["lineup"] == "skill"]
    base_self = self_rows[self_rows["variant"] == labels[0]].set_index(key).sort_index()
    base_skill = skill_rows[skill_rows["variant"] == labels[0]].set_index(key).sort_index()
    out = []
    tests: list[tuple[dict[str, Any], str]] = []
    for v in design["variants"]:
        label = v["label"]
        s = self_rows[self_rows["variant"] == label].set_index(key).sort_index()
        k = skill_rows[skill_rows["variant"] == label].set_index(key).sort_index()
        item: dict[str, Any] = {"variant": label, "options": v["options"], "games": len(s)}
        if len(s):
            flat = s.reset_index()
            seats = seat_summary(flat, players)
            scores = _matrix(s["scores"])
            item.update(
                {
                    "seats": seats["seats"],
                    "seat_test": seats["win_test"],
                    "length": mean_ci(s["length"])[0],
                    "length_ci95": mean_ci(s["length"])[1],
                    "hands": mean_ci(s["hands"])[0],
                    "spread": mean_ci(scores.std(axis=1))[0],
                    "spread_ci95": mean_ci(scores.std(axis=1))[1],
                    "shared_first": float(((_matrix(s["ranks"]) == 1).sum(axis=1) > 1).mean()),
                    "events": {e["event"]: e["mean"] for e in event_summary(flat)},
                }
            )
        if len(k) and strong is not None:
            shares = _strong_shares(k.reset_index(), strong)
            lo, hi = wilson_interval(float(shares.sum()), len(shares))
            item["strong_win_share"] = float(shares.mean())
            item["strong_win_share_ci95"] = [lo, hi]
            item["strong_vs_fair"] = float(shares.mean() * players)
        if label != labels[0]:
            diffs: dict[str, Any] = {}
            common = s.index.intersection(base_self.index)
            if len(common):
                a, b = s.loc[common], base_self.loc[common]
                diffs["same_deals"] = float((a["deal"] == b["deal"]).mean())
                diffs["length"] = _paired(a["length"], b["length"])
                diffs["spread"] = _paired(
                    _matrix(a["scores"]).std(axis=1), _matrix(b["scores"]).std(axis=1)
                )
                wa = _by_position(win_shares(a), a["first"].to_numpy(dtype=int), "order")
                wb = _by_position(win_shares(b), b["first"].to_numpy(dtype=int), "order")
                diffs["seats"] = wald_test(wa - wb)
                ea, eb = _events(a), _events(b)
                events = {}
                for name in sorted(set(ea.columns) | set(eb.columns)):
                    xa = ea[name] if name in ea else np.zeros(len(a))
                    xb = eb[name] if name in eb else np.zeros(len(b))
                    events[name] = _paired(xa, xb)
                diffs["events"] = events
                tests += [(diffs["length"], "p_value"), (diffs["spread"], "p_value")]
                tests += [(diffs["seats"], "p_value")]
                tests += [(e, "p_value") for e in events.values()]
            common = k.index.intersection(base_skill.index)
            if len(common) and strong is not None:
                a, b = k.loc[common].reset_index(), base_skill.loc[common].reset_index()
                diffs["strong_win_share"] = _paired(
                    _strong_shares(a, strong), _strong_shares(b, strong)
                )
                tests.append((diffs["strong_win_share"], "p_value"))
            item["vs_baseline"] = diffs
        out.append(item)
    adjust_pvalues(tests)
    return {"baseline": labels[0], "variants": out, "strong": strong}


def adjust_pvalues(tests: Sequence[tuple[dict[str, Any], str]]) -> None:
    """Add Benjamini-Hochberg ``q_value`` beside each ``p_value`` (in place)."""
    found = [(d, k) for d, k in tests if d.get(k) is not None]
    if not found:
        return
    q = stats.false_discovery_control([d[k] for d, k in found])
    for (d, _), value in zip(found, q, strict=True):
        d["q_value"] = float(value)


# -- luck --------------------------------------------------------------------------------------
def _relative(df: pd.DataFrame, strong: str, *, deals_won: bool = False) -> np.ndarray:
    """Per hand, the totals seen from the strong bot: [strong, next seat, …] (with
    ``deals_won``: each seat's share of the hand's win instead of its score)."""
    scores = win_shares(df) if deals_won else _matrix(df["scores"])
    n = scores.shape[1]
    seat = np.array([agents.index(strong) for agents in df["agents"]])
    cols = (np.arange(n)[None, :] + seat[:, None]) % n
    return np.take_along_axis(scores, cols, axis=1)


def _match_wins(rel: np.ndarray, hands: int, matches: int, rng: np.random.Generator) -> float:
    """Share of ``matches`` simulated ``hands``-hand matches the strong bot wins: hands
    drawn at random from ``rel``, summed per seat (seen from the strong bot)."""
    pick = rng.integers(0, rel.shape[0], size=(matches, hands))
    totals = rel[pick].sum(axis=1)
    best = totals.max(axis=1, keepdims=True)
    top = np.isclose(totals, best)
    return float((top[:, 0] / top.sum(axis=1)).mean())


def _match_curve(
    rel: np.ndarray, hands: Sequence[int], matches: int, rng: np.random.Generator
) -> list[float]:
    """:func:`_match_wins` at every length at once: each simulated match is one run of
    ``max(hands)`` hands drawn at random, its running totals read at each length (the
    same matches, longer and longer: cheaper, and the curve a smoother function of
    the length)."""
    longest = max(hands)
    pick = rng.integers(0, rel.shape[0], size=(matches, longest))
    running = np.cumsum(rel[pick], axis=1)
    out = []
    for m in hands:
        totals = running[:, m - 1, :]
        best = totals.max(axis=1, keepdims=True)
        top = np.isclose(totals, best)
        out.append(float((top[:, 0] / top.sum(axis=1)).mean()))
    return out


def _threshold(hands: Sequence[int], curve: Sequence[float], target: float) -> float | None:
    """Hands needed for ``target`` (linear between evaluated lengths; None: not reached)."""
    for i, (m, p) in enumerate(zip(hands, curve, strict=True)):
        if p >= target:
            if i == 0:
                return float(m)
            m0, p0 = hands[i - 1], curve[i - 1]
            return float(m0 + (target - p0) * (m - m0) / (p - p0)) if p > p0 else float(m)
    return None


def luck_summary(
    df: pd.DataFrame,
    design: dict[str, Any],
    *,
    seed: int,
    strong: str,
    matches: int = 4000,
    boot: int = 100,
    hands: Sequence[int] = LUCK_HANDS,
    lineup: str = "skill",
    paths: bool = False,
    deals_won: bool = False,
) -> dict[str, Any]:
    """Skill against luck from duplicate hands of one strong bot against weaker ones.

    - ``curve``: the strong bot's chance to win a match of m hands (hands drawn from the
      measured ones, scores summed), with a 95% interval from resampling the deals.
    - ``hands_for_75`` / ``hands_for_90``: the match length where the curve crosses 75%
      / 90% (``None``: not within the longest length evaluated).
    - ``variance``: the score of one seat's cards in one deal, played by different bots
      in different arrangements, splits into *deal* (between the cards' average
      results) and *play* (within a deal and seat: who played the cards and how);
      one-way random-effects estimates, with intervals from resampling the deals.
    - ``duplicate_edge``: the strong bot's score minus the weaker bots' mean score with
      the same cards in the same deal.

    ``paths``: simulate every length from the same matches (:func:`_match_curve`, what
    the skill trace uses: several steps, each with its curve and bootstrap), instead of
    drawing each length afresh (the luck study's published figures).  ``deals_won``: a
    match of N hands is won by the most hands won (a shared win counts 1/k), not by the
    summed scores: the skill trace's reading of a game whose match is a single hand.
    """
    players = int(design["players"])
    rows = df[df["lineup"] == lineup].sort_values(["seed", "index", "arrangement"])
    rel = _relative(rows, strong, deals_won=deals_won)
    rng = np.random.default_rng(
        derive_seed(seed, "luck") if lineup == "skill" else derive_seed(seed, "luck", lineup)
    )
    if paths:
        curve = _match_curve(rel, hands, matches, rng)
    else:
        curve = [_match_wins(rel, m, matches, rng) for m in hands]
    deal_ids = (rows["seed"].astype(str) + ":" + rows["index"].astype(str)).to_numpy()
    uniq, inverse = np.unique(deal_ids, return_inverse=True)
    members = [np.flatnonzero(inverse == d) for d in range(len(uniq))]
    boot_curves = []
    boot_var = []
    y = _matrix(rows["scores"])
    per_deal = len(rows) // max(1, len(uniq))
    for _ in range(boot):
        pick = rng.integers(0, len(uniq), size=len(uniq))
        idx = np.concatenate([members[d] for d in pick])
        size = max(500, matches // 4)
        if paths:
            boot_curves.append(_match_curve(rel[idx], hands, size, rng))
        else:
            boot_curves.append([_match_wins(rel[idx], m, size, rng) for m in hands])
        boot_var.append(_variance(y[idx], per_deal))
    bc = np.array(boot_curves)
    lo = np.quantile(bc, 0.025, axis=0) if boot else curve
    hi = np.quantile(bc, 0.975, axis=0) if boot else curve
    thresholds = {}
    for target in (0.75, 0.9):
        point = _threshold(hands, curve, target)
        reps = [_threshold(hands, c, target) for c in bc]
        finite = [r for r in reps if r is not None]
        interval: list[float | None] = [None, None]
        if finite and len(finite) == len(reps):
            interval = [float(np.quantile(finite, 0.025)), float(np.quantile(finite, 0.975))]
        elif finite:
            interval = [float(np.quantile(finite, 0.025)), None]
        thresholds[target] = (point, interval)
    var = _variance(y, per_deal)
    bv = np.array([b["deal_share"] for b in boot_var if b["deal_share"] is not None])
    var["deal_share_ci95"] = (
        [float(np.quantile(bv, 0.025)), float(np.quantile(bv, 0.975))] if bv.size else [None, None]
    )
    edge = _duplicate_edge(rows, strong, players)
    single = float(curve[0]) if curve else None
    return {
        "strong": strong,
        "hands_measured": len(rows),
        "deals": len(uniq),
        "arrangements_per_deal": per_deal,
        "fair_share": 1 / players,
        "single_hand_win_share": single,
        "curve": [
            {"hands": m, "win_share": float(c), "ci95": [float(a), float(b)]}
            for m, c, a, b in zip(hands, curve, lo, hi, strict=True)
        ],
        "hands_for_75": thresholds[0.75][0],
        "hands_for_75_ci95": thresholds[0.75][1],
        "hands_for_90": thresholds[0.9][0],
        "hands_for_90_ci95": thresholds[0.9][1],
        "variance": var,
        "duplicate_edge": edge,
    }


def _variance(y: np.ndarray, per_deal: int) -> dict[str, Any]:
    """Deal/play split of per-seat scores; ``y`` holds ``per_deal`` rows per deal, in order."""
    deals = y.shape[0] // per_deal if per_deal else 0
    if deals < 2 or per_deal < 2:
        return {"deal": None, "play": None, "deal_share": None}
    # groups: (deal, seat), each with per_deal plays of the same cards
    groups = y[: deals * per_deal].reshape(deals, per_deal, -1).transpose(0, 2, 1)
    groups = groups.reshape(-1, per_deal)
    within = float(groups.var(axis=1, ddof=1).mean())
    between = float(per_deal * groups.mean(axis=1).var(ddof=1))
    deal = max(0.0, (between - within) / per_deal)
    total = deal + within
    return {"deal": deal, "play": within, "deal_share": deal / total if total > 0 else None}


def _duplicate_edge(rows: pd.DataFrame, strong: str, players: int) -> dict[str, Any]:
    """Per deal: the strong bot's mean score minus the weak bots' mean with the same cards."""
    y = _matrix(rows["scores"])
    seat = np.array([agents.index(strong) for agents in rows["agents"]])
    keys = list(zip(rows["seed"], rows["index"], strict=True))
    per: dict[tuple[int, int], list[float]] = {}
    for i, k in enumerate(keys):
        # the strong bot's cards (its seat) were played by weak bots in other arrangements
        per.setdefault(k, [])
        per[k].append(i)
    edges = []
    for idx in per.values():
        diffs = []
        for i in idx:
            s = seat[i]
            others = [j for j in idx if seat[j] != s]
            if others:
                diffs.append(y[i, s] - float(np.mean([y[j, s] for j in others])))
        if diffs:
            edges.append(float(np.mean(diffs)))
    mean, ci = mean_ci(edges)
    return {"per_hand": mean, "ci95": ci, "deals": len(edges)}


# -- match formats: compensation points, matches of several deals ------------------------------
def _rank(values: Sequence[float], tiebreak: Sequence[float]) -> list[int]:
    """Competition ranks: higher ``values`` first, then lower ``tiebreak``; seats equal
    in both share the place.

    >>> _rank([3.0, 5.0, 3.0], [2, 1, 2]), _rank([3.0, 3.0], [1, 2])
    ([2, 1, 2], [1, 2])
    """
    n = len(values)
    return [
        1
        + sum(
            1
            for t in range(n)
            if values[t] > values[s] or (values[t] == values[s] and tiebreak[t] < tiebreak[s])
        )
        for s in range(n)
    ]


def match_format(
    df: pd.DataFrame, players: int, *, game: str, deals: int = 1, komi: float = 0.0
) -> pd.DataFrame:
    """The matches as another match format would score them, without playing again.

    ``komi``: compensation points for later seats: Seat k in play order (from 1) gets
    ``(k - 1) * komi`` added to its total (negative: the earlier seats gain), and the
    ranks follow the new totals wherever the totals decided the match (equal new
    totals keep the game's order: its tie-breaks); an arcana-duel annihilation keeps
    its winner.  ``deals``: a match of that many deals (consecutive game indices of
    one seed; a shorter tail is dropped), the first seat passing one place clockwise
    each deal; won by the most deals won (a shared deal win counts 1/k), ties broken
    by the summed totals.  The bots never learn of either: they play each deal as
    they would alone, which is what they do anyway (these bots do not read the match
    standing across deals).  The rows come back in play order (``first`` = 0).
    """
    if deals < 1:
        raise ValueError(f"deals is a whole number from 1, not {deals}")
    out = df.copy()
    if komi:
        scores, ranks = [], []
        for row in out.itertuples():
            pos = [(s - int(row.first)) % players for s in range(players)]
            adjusted = [float(x) + komi * pos[s] for s, x in enumerate(row.scores)]
            scores.append(adjusted)
            if totals_decide(game, json.loads(row.events) if row.events else {}):
                ranks.append(_rank(adjusted, list(row.ranks)))
            else:
                ranks.append(list(row.ranks))
        out["scores"], out["ranks"] = scores, ranks
    if deals == 1 or out.empty:
        return out
    out = out.sort_values(["seed", "index"], kind="stable").reset_index(drop=True)
    shares = win_shares(out)
    built = []
    for seed, group in out.groupby("seed", sort=True):
        idx = group.index.to_numpy()
        for g in range(len(idx) // deals):
            part = idx[g * deals : (g + 1) * deals]
            points = np.zeros(players)
            sums = np.zeros(players)
            for j, i in enumerate(part):
                first = int(out.at[i, "first"])
                row_scores = out.at[i, "scores"]
                for p in range(players):
                    seat = (first + p - j) % players
                    points[p] += shares[i, seat]
                    sums[p] += float(row_scores[seat])
            built.append(
                {
                    "seed": int(seed),
                    "index": g,
                    "first": 0,
                    "scores": [float(x) for x in sums],
                    "ranks": _rank(list(points), [-x for x in sums]),
                    "deals_won": [float(x) for x in points],
                    "length": int(out.loc[part, "length"].sum()),
                    "hands": int(out.loc[part, "hands"].sum()),
                    "seconds": float(out.loc[part, "seconds"].sum()),
                    "events": "{}",
                    "feel": "",
                }
            )
    return pd.DataFrame(built)


# -- feel ---------------------------------------------------------------------------------------
#: The feel measures a study reports, in order: (name, how each match gives it).
FEEL_METRICS: tuple[str, ...] = (
    "decisions",
    "choices",
    "hands",
    "minutes",
    "branching",
    "branching_at_choices",
    "forced_share",
    "lead_changes",
    "lead_changes_per_hand",
    "drama",
    "drama_points",
    "settled_at",
    "comeback",
    "kingmaker_positions",
    "kingmaking",
)

#: measures that are a yes or no per match (their interval is a Wilson interval)
_SHARES = {"comeback", "kingmaking"}


def _feel_frame(df: pd.DataFrame, pace: Pace) -> pd.DataFrame:
    records = [json.loads(f) for f in df["feel"] if f]
    if not records:
        return pd.DataFrame(columns=list(FEEL_METRICS))
    f = pd.DataFrame(records)
    decisions = f["decisions"].where(f["decisions"] > 0, 1.0)
    f["branching"] = f["legal"] / decisions
    f["branching_at_choices"] = f["legal_at_choices"] / f["choices"].where(f["choices"] > 0)
    f["forced_share"] = f["forced"] / decisions
    f["minutes"] = [
        pace.minutes(c, b, x, h)
        for c, b, x, h in zip(f["choices"], f["bits"], f["forced"], f["hands"], strict=True)
    ]
    f["lead_changes_per_hand"] = f["lead_changes"] / f["hands"].where(f["hands"] > 0, 1.0)
    return f


def feel_summary(
    df: pd.DataFrame, players: int, *, teams: bool = False, pace: Pace = PACE
) -> dict[str, Any]:
    """How the matches felt: every measure of :data:`FEEL_METRICS` as a mean with a 95%
    interval (shares: Wilson) and its median, and the ties (from the ranks).
    Kingmaking is ``None`` below three sides (two players, or teams)."""
    f = _feel_frame(df, pace)
    measured = len(f)
    metrics: dict[str, Any] = {}
    for name in FEEL_METRICS:
        if name.startswith("kingmak") and (players < 3 or teams):
            metrics[name] = None
            continue
        x = f[name].dropna().to_numpy(dtype=float) if name in f else np.zeros(0)
        if x.size == 0:
            metrics[name] = None
            continue
        if name in _SHARES:
            lo, hi = wilson_interval(float(x.sum()), int(x.size))
            metrics[name] = {"mean": float(x.mean()), "ci95": [lo, hi], "median": None}
        else:
            mean, ci = mean_ci(x)
            metrics[name] = {"mean": mean, "ci95": ci, "median": _f(np.median(x))}
    ranks = _matrix(df["ranks"]) if len(df) else np.zeros((0, players))
    winners = (ranks == 1).sum(axis=1)
    shared = float((winners > 1).sum())
    level = float((winners == players).sum())
    return {
        "matches": len(df),
        "measured": measured,
        "metrics": metrics,
        "ties": {
            "shared_first": shared / len(df) if len(df) else None,
            "shared_first_ci95": list(wilson_interval(shared, len(df))),
            "all_level": level / len(df) if len(df) else None,
            "all_level_ci95": list(wilson_interval(level, len(df))),
        },
        "pace": {
            "choice": pace.choice,
            "per_bit": pace.per_bit,
            "forced": pace.forced,
            "hand": pace.hand,
        },
    }


# -- the skill trace ------------------------------------------------------------------------------
Z80 = 0.841621


def recognise(p: float | None, fair: float) -> float | None:
    """Trials (hands or matches) before a player who wins a share ``p`` of them is told
    apart from one who wins ``fair``: a two-sided 5% test with 80% power (normal
    approximation of the binomial).  ``None`` when ``p`` is not above ``fair``.

    >>> round(recognise(0.6, 0.5))
    194
    """
    if p is None or p <= fair:
        return None
    top = Z95 * math.sqrt(fair * (1 - fair)) + Z80 * math.sqrt(p * (1 - p))
    return (top / (p - fair)) ** 2


#: how a step of the ladder shows (hands for the stronger level to win 75% of matches)
SHOWS_CLEARLY = 10
SHOWS_SLOWLY = 30


def skill_summary(
    df: pd.DataFrame,
    design: dict[str, Any],
    *,
    seed: int,
    steps: Sequence[dict[str, Any]],
    match_hands: int | None,
    boot: int = 100,
) -> dict[str, Any]:
    """The skill trace: for each step (``{"lineup", "strong", "weak", "kind"}``, the
    stronger level against ``players - 1`` of the weaker in duplicate single hands) the
    stronger level's share of hands won (Wilson interval) against the fair share, its
    score edge with the same cards, the luck curve (:func:`luck_summary`; where the
    rulebook's match is one hand, a match of N hands is won by the most hands won, as
    :func:`match_format` scores ``deals``; elsewhere by the summed scores), the hands and
    matches before ordinary play tells it apart (:func:`recognise`), the deals a
    duplicate comparison needs, and how the step shows: ``clearly`` (75% of matches
    within :data:`SHOWS_CLEARLY` hands), ``slowly`` (within :data:`SHOWS_SLOWLY`) or
    ``barely``.  A ladder with a ``barely`` step between adjacent levels is
    ``luck_heavy``."""
    players = int(design["players"])
    fair = 1 / players
    out = []
    for step in steps:
        rows = df[df["lineup"] == step["lineup"]]
        if rows.empty:
            continue
        luck = luck_summary(
            df, design, seed=seed, strong=step["strong"], lineup=step["lineup"], boot=boot,
            paths=True, deals_won=match_hands == 1,
        )  # fmt: skip
        shares = _strong_shares(rows.reset_index(drop=True), step["strong"])
        won = float(shares.sum())
        lo, hi = wilson_interval(won, len(shares))
        share = won / len(shares)
        curve = {p["hands"]: p["win_share"] for p in luck["curve"]}
        if match_hands == 1:
            match_share: float | None = share  # a match is a hand: the share measured
        else:
            match_share = curve.get(match_hands) if match_hands else None
        edge = luck["duplicate_edge"]
        deals_dup = None
        per_deal = _per_deal_edges(rows, step["strong"])
        if per_deal.size > 1 and per_deal.mean() > 0:
            sd = float(per_deal.std(ddof=1))
            deals_dup = ((Z95 + Z80) * sd / float(per_deal.mean())) ** 2
        h75 = luck["hands_for_75"]
        if h75 is not None and h75 <= SHOWS_CLEARLY:
            shows = "clearly"
        elif h75 is not None and h75 <= SHOWS_SLOWLY:
            shows = "slowly"
        else:
            shows = "barely"
        out.append(
            {
                **step,
                "deals": luck["deals"],
                "hands_measured": luck["hands_measured"],
                "fair_share": fair,
                "win_share": share,
                "win_share_ci95": [lo, hi],
                "win_share_vs_fair": share * players,
                "edge": edge["per_hand"],
                "edge_ci95": edge["ci95"],
                "curve": luck["curve"],
                "hands_for_75": h75,
                "hands_for_75_ci95": luck["hands_for_75_ci95"],
                "hands_for_90": luck["hands_for_90"],
                "hands_for_90_ci95": luck["hands_for_90_ci95"],
                "match_hands": match_hands,
                "match_win_share": match_share,
                "hands_to_recognise": recognise(share, fair),
                "matches_to_recognise": (
                    recognise(match_share, fair) if match_share is not None else None
                ),
                "deals_to_recognise_duplicate": deals_dup,
                "shows": shows,
            }
        )
    barely = [s["lineup"] for s in out if s["kind"] == "step" and s["shows"] == "barely"]
    return {"fair_share": fair, "steps": out, "barely": barely, "luck_heavy": bool(barely)}


def _per_deal_edges(rows: pd.DataFrame, strong: str) -> np.ndarray:
    """Per deal: the strong level's mean score minus the weaker levels' with the same
    cards (as :func:`_duplicate_edge`, one value a deal)."""
    y = _matrix(rows["scores"])
    seat = np.array([list(a).index(strong) for a in rows["agents"]])
    keys = list(zip(rows["seed"], rows["index"], strict=True))
    groups: dict[tuple[int, int], list[int]] = {}
    for i, k in enumerate(keys):
        groups.setdefault(k, []).append(i)
    edges = []
    for idx in groups.values():
        diffs = []
        for i in idx:
            others = [j for j in idx if seat[j] != seat[i]]
            if others:
                diffs.append(y[i, seat[i]] - float(np.mean([y[j, seat[i]] for j in others])))
        if diffs:
            edges.append(float(np.mean(diffs)))
    return np.array(edges)
