"""How well the bots bid (issue #38): fairy500 contracts and grail-mahjong claims.

For each bot level (``normal`` = the heuristic, ``hard``, ``expert``; see
:mod:`xtarot.agents.levels`) one seat of that level plays ``players - 1`` heuristic
seats, duplicate: each deal is played once with the level in every seat, so it holds
every seat's cards once, and every level meets the same deals (the lab's derived
seeds, :func:`xtarot.lab.runner.derive_seed`, so a lab run of the same seed deals the
same cards).  Single hands (each game's ``bulk_options``).  Everything is about the
level's seat; hands and contracts are read through the lab's own extractor
(:func:`xtarot.lab.events.fairy500_hands`).

**fairy500**, per level: how often it declares; its trick contracts made (share with
a 95% Wilson interval); its mean score as declarer; its partner calls (did the call
find a partner, how many tricks the partner took, contracts made with and without
one); and its bids against **the hand's value in hindsight**:

    For a seat of an actual deal, force that seat to declare each trump (``bid 6s``
    ... ``bid 6nt``, the others passing) and plain misère, and play the hand out with
    the heuristic in every seat (each reading its own view; the declarer takes the
    real kitty and calls as the heuristic does; ``contract_playouts`` of
    :mod:`xtarot.agents.heuristic.fairy500`, which also makes the training targets
    of ``xtarot train value``).  ``T[d]`` = the tricks the
    declarer's side takes with trump ``d``.  The **hindsight value** ``H`` is the
    highest base value among the contracts so made (``d`` at ``min(T[d], 10)``
    tricks when ``T[d] >= 6``; plain misère's value when its play-out took no trick;
    slam bonuses left out); 0 when none is.  It is the heuristic's play, not a
    double-dummy solver: it is what the bots at this table could make of the cards.

Of the level's trick contracts (bid ``k`` tricks in ``d``, base value ``V``):
*over-bid* = failed and ``T[d] < k`` (the play-out could not make it either);
*failed in play* = failed although ``T[d] >= k``; *under-bid* = made and ``H > V``
(a more valuable contract was there, mean gap ``H - V`` over made contracts);
*beat the play-out* = made although ``T[d] < k``; ``k - T[d]`` on average.
Of its passes: *passed a makeable overcall* = ``H`` above the standing bid when it
passed.  Beside these: the level seat's mean score over all its matches, and, when
``normal`` is measured too, its paired edge over ``normal`` on the same deal and seat
(with a 95% interval over deals) and its trick contracts against ``normal``'s on the
same hands (:func:`compare_declarers`): where both declared, where only one did.
``--value-model FILE`` adds the level ``normal+value``: the heuristic bidding by a
hand-value model (``xtarot train value``; docs/agents.md) — fairy500's auction model,
grail-mahjong's claim model or sono-arcana's lot model (``--claim-margin`` sets the last
two's margin), each measured on its own game and player count.

**grail-mahjong**, per level: every claim round where the level's seat could claim
(a claim among its legal answers).  *Claims* it made, those that won the round
(*executed*) and of those the hands it then lost; *hindsight*: from the true
position just before its answer, the hand is finished by heuristics in every seat
after its answer and after the alternative (``pass`` for a claim; each legal claim
for a pass, the best of them counted, so the declined figure is an upper bound):
a claim *regretted* is one whose pass would have won the hand when the claim did
not; a pass regretted one where some claim would have won and the pass did not;
the mean hindsight edge (wins, shared wins split) of the answer given.

**sono-arcana** (only with ``--games sono-arcana``; 4 players): the win share and score
of the level's seat, and against ``normal`` the paired edges, for the lot model.

    PYTHONPATH=src python benchmarks/bench_bidding.py --games fairy500 --players 4 \\
        --deals 50 --levels normal,expert --expert-iterations 100
    PYTHONPATH=src python benchmarks/bench_bidding.py --quick --json

Seeded: with ``--expert-iterations`` (play-outs a move) every figure is
reproducible on any machine; ``hard`` thinks ``--hard-seconds`` a move (a deadline,
so its moves depend on the machine's speed).  ``--expert-setting KEY=VALUE``
(repeatable) hands the expert any other setting, e.g. ``min_make=0.9``, to compare
variants on the same deals.  One process; a progress bar (or lines when piped) on
stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import xtarot
from xtarot.agents import Agent, decision_for, make_agent
from xtarot.agents.heuristic.fairy500 import DENOMINATIONS, contract_playouts
from xtarot.engine import Game, State
from xtarot.games.fairy500.setup import bid_value
from xtarot.lab.events import fairy500_hands
from xtarot.lab.runner import Bot, derive_seed
from xtarot.lab.tournament import wilson_interval

LEVELS = ("normal", "hard", "expert")
#: the heuristic bidding (fairy500) or claiming (grail-mahjong) by a hand-value model
#: (``--value-model``)
VALUE_LEVEL = "normal+value"
USUAL: dict[str, tuple[int, ...]] = {
    "fairy500": (4, 6),
    "grail-mahjong": (3, 4),
    "sono-arcana": (4,),  # (only with --games: the lot model's win share and score)
}


# -- small statistics --------------------------------------------------------------------
def share(k: float, n: int) -> dict[str, Any]:
    """``k`` of ``n`` with its 95% Wilson interval (``None`` when ``n`` is 0)."""
    if n == 0:
        return {"k": k, "n": 0, "share": None, "ci95": None}
    lo, hi = wilson_interval(k, n)
    return {"k": k, "n": n, "share": k / n, "ci95": [lo, hi]}


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """The mean with a 95% interval (normal approximation; none below two values)."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "ci95": None}
    mean = sum(values) / n
    if n < 2:
        return {"n": n, "mean": mean, "ci95": None}
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return {"n": n, "mean": mean, "ci95": [mean - half, mean + half]}


# -- the bots ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Budgets:
    """How long the searching levels think."""

    hard_seconds: float = 0.8
    expert_iterations: int | None = 100
    expert_seconds: float | None = None
    value_model: Any = None  # for the level normal+value
    value_margin: float = 30.0  # fairy500's; a claim model carries its own margin
    expert_settings: tuple[tuple[str, Any], ...] = ()  # more ExpertAgent settings

    def agent(self, level: str, seed: int) -> Agent:
        if level == VALUE_LEVEL:
            return make_agent(
                "normal", seed, value_model=self.value_model, value_margin=self.value_margin
            )
        if level == "hard":
            return make_agent("hard", seed, seconds=self.hard_seconds)
        if level == "expert":
            more = dict(self.expert_settings)
            if self.expert_seconds is not None:
                return make_agent("expert", seed, seconds=self.expert_seconds, **more)
            return make_agent("expert", seed, iterations=self.expert_iterations, **more)
        return make_agent(level, seed)

    def describe(self, level: str) -> str:
        if level == VALUE_LEVEL:
            game = getattr(self.value_model, "game", "fairy500")
            if game != "fairy500":
                what = "claims by the claim" if game == "grail-mahjong" else "lots by the lot"
                return f"the heuristic's {what} model, margin {self.value_model.margin:g}"
            return f"the heuristic bidding by the hand-value model, margin {self.value_margin:g}"
        if level == "hard":
            return f"{self.hard_seconds:g} s a move"
        if level == "expert":
            more = "".join(f", {k}={v}" for k, v in self.expert_settings)
            if self.expert_seconds is not None:
                return f"{self.expert_seconds:g} s a move{more}"
            return f"{self.expert_iterations} play-outs a move{more}"
        return "the heuristic"


@dataclass
class ClaimChoice:
    """One grail-mahjong claim round where the watched seat could claim."""

    before: State  # the true position before its answer (for the hindsight only)
    chosen: str
    alternatives: list[str]
    executed: bool = False


@dataclass
class Played:
    state: State
    claims: list[ClaimChoice] = field(default_factory=list)


def play(game: Game, agents: Sequence[Agent], seed: int, watch: int | None = None) -> Played:
    """Play a match as :func:`xtarot.agents.play_match` does (the same moves), keeping
    the grail-mahjong claim rounds of seat ``watch`` where it could claim."""
    state = game.new_state(seed=seed)
    peek = [bool(getattr(a, "reads_view_only", False)) for a in agents]
    out = Played(state)
    pending: ClaimChoice | None = None
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        decision = decision_for(state, peek=peek[seat])
        before = None
        if (
            seat == watch
            and decision.view.get("phase") == "claim"
            and any(a.text.startswith("claim") for a in decision.legal)
        ):
            before = state.clone()
        action = agents[seat].act(decision)
        if before is not None:
            texts = [a.text for a in decision.legal if a.text != action.text]
            pending = ClaimChoice(before, action.text, texts)
            out.claims.append(pending)
        last = state.public_view().get("last_claim") if pending is not None else None
        state.apply(action)
        if pending is not None:
            now = state.public_view().get("last_claim")
            if now != last and now is not None:
                pending.executed = now.get("seat") == watch and now.get("action") == pending.chosen
                pending = None
            elif state.public_view().get("phase") != "claim":
                pending = None  # the round ended without a claim
    return out


def heuristics(players: int, seed: int) -> list[Agent]:
    return [make_agent("heuristic", derive_seed(seed, "hindsight", s)) for s in range(players)]


def finish(state: State, seed: int) -> State:
    """Finish the hand with the heuristic in every seat (each reading its own view)."""
    agents = heuristics(state.game.players, seed)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(decision_for(state, peek=True)))
    return state


# -- fairy500 ---------------------------------------------------------------------------
def hindsight_value(values: dict[str, int], players: int) -> int:
    """The highest base value among the contracts ``contract_playouts`` made (0: none).

    >>> hindsight_value({"s": 7, "w": 5, "d": 5, "c": 6, "nt": 3, "misere": 0}, 4)
    140
    >>> hindsight_value({"s": 2, "w": 2, "d": 1, "c": 1, "nt": 0, "misere": 1}, 4)
    250
    >>> hindsight_value({"s": 5, "w": 4, "d": 5, "c": 4, "nt": 3, "misere": 0}, 6)
    0
    """
    from xtarot.games.fairy500.setup import misere_value

    best = 0
    for d in DENOMINATIONS:
        if values.get(d, 0) >= 6:
            best = max(best, bid_value(min(10, values[d]), d))
    if values.get("misere"):
        best = max(best, misere_value("misere", "", players))
    return best


def fairy500_record(game: Game, state: State, seat: int, values: dict[str, int]) -> dict[str, Any]:
    """What one match says about the bidding of ``seat`` (a single-hand match)."""
    players = game.players
    view = state.public_view()
    hand = fairy500_hands(state.scores().detail)[0]
    worth = dict(game.bid_values)
    standing = 0
    passed_at: int | None = None
    for who, text in view.get("auction") or []:
        if text == "pass":
            if who == seat and passed_at is None:
                passed_at = standing
            continue
        standing = max(standing, worth[game.action(text).id])
    rec: dict[str, Any] = {
        "seat": seat,
        "score": float(state.scores().totals[seat]),
        "kind": hand["kind"],
        "declarer": hand["declarer"] == seat,
        "bid": hand["bid"] if hand["declarer"] == seat else "",
        "made": hand["made"],
        "passed_at": passed_at,
        "hindsight": hindsight_value(values, players),
        "values": values,
    }
    if rec["declarer"]:
        rec["value"] = worth[game.action(hand["bid"]).id]
        if hand["kind"] == "contract":
            words = hand["bid"].split()[1]
            rec["tricks_bid"] = int(words.rstrip("swdcnt"))
            rec["trump"] = words[len(str(rec["tricks_bid"])) :]
            rec["side_tricks"] = hand["side_tricks"]
            rec["called"] = hand["called"]
            rec["partners"] = {str(s): k for s, k in hand["partners"].items()}
            rec["partner_tricks"] = sum(hand["tricks"][s] for s in hand["partners"])
            rec["held_by_declarer"] = hand["held_by_declarer"]
    return rec


def summarise_fairy500(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one level from its match records (:func:`fairy500_record`)."""
    declared = [r for r in records if r["declarer"]]
    contracts = [r for r in declared if r["kind"] == "contract"]
    miseres = [r for r in declared if r["kind"] == "misere"]
    made = [r for r in contracts if r["made"]]
    failed = [r for r in contracts if not r["made"]]

    def makeable(r: dict[str, Any]) -> bool:
        return r["values"][r["trump"]] >= r["tricks_bid"]

    passes = [r for r in records if r["passed_at"] is not None]
    missed = [r for r in passes if r["hindsight"] > r["passed_at"]]
    calls = [r for r in contracts if r.get("called")]
    with_partner = [r for r in calls if r["partners"]]
    alone = [r for r in calls if not r["partners"]]
    return {
        "matches": len(records),
        "declared": share(len(declared), len(records)),
        "contracts": len(contracts),
        "contracts_made": share(len(made), len(contracts)),
        "misere": len(miseres),
        "misere_made": share(sum(r["made"] for r in miseres), len(miseres)),
        "declarer_score": mean_ci([r["score"] for r in declared]),
        "contract_score": mean_ci([r["score"] for r in contracts]),
        "bid_value": mean_ci([float(r["value"]) for r in contracts]),
        "hindsight_value": mean_ci([float(r["hindsight"]) for r in contracts]),
        "over_bid": share(sum(not makeable(r) for r in failed), len(contracts)),
        "failed_in_play": share(sum(makeable(r) for r in failed), len(contracts)),
        "under_bid": share(sum(r["hindsight"] > r["value"] for r in made), len(contracts)),
        "under_gap": mean_ci([float(max(0, r["hindsight"] - r["value"])) for r in made]),
        "beat_playout": share(sum(not makeable(r) for r in made), len(contracts)),
        "tricks_over": mean_ci(
            [float(r["tricks_bid"] - r["values"][r["trump"]]) for r in contracts]
        ),
        "passes": len(passes),
        "passed_makeable": share(len(missed), len(passes)),
        "calls": len(calls),
        "call_found_partner": share(len(with_partner), len(calls)),
        "partner_tricks": mean_ci([float(r["partner_tricks"]) for r in with_partner]),
        "made_with_partner": share(sum(r["made"] for r in with_partner), len(with_partner)),
        "made_alone": share(sum(r["made"] for r in alone), len(alone)),
        "mean_score": mean_ci([r["score"] for r in records]),
    }


def paired_edge(
    mine: dict[tuple[int, int], dict[str, Any]],
    base: dict[tuple[int, int], dict[str, Any]],
    key: str,
) -> dict[str, Any]:
    """A level's ``key`` (``score``, ``win``) minus ``normal``'s on the same deal and
    seat, averaged over a deal's seats, with a 95% interval over deals."""
    by_deal: dict[int, list[float]] = {}
    for (index, seat), rec in mine.items():
        by_deal.setdefault(index, []).append(rec[key] - base[(index, seat)][key])
    return mean_ci([sum(v) / len(v) for v in by_deal.values()])


def compare_declarers(
    mine: dict[tuple[int, int], dict[str, Any]], base: dict[tuple[int, int], dict[str, Any]]
) -> dict[str, Any]:
    """A level's trick contracts against ``normal``'s on the same deal and seat: where
    both declared one (made shares, mean scores and the paired score difference), and
    where only one of them did (what the extra contracts bring, what the missed ones
    would have)."""

    def contract(r: dict[str, Any] | None) -> bool:
        return r is not None and r["declarer"] and r["kind"] == "contract"

    both = [k for k in mine if contract(mine[k]) and contract(base.get(k))]
    only_mine = [k for k in mine if contract(mine[k]) and not contract(base.get(k))]
    only_base = [k for k in base if contract(base[k]) and not contract(mine.get(k))]
    return {
        "both": len(both),
        "both_made": share(sum(mine[k]["made"] for k in both), len(both)),
        "both_made_normal": share(sum(base[k]["made"] for k in both), len(both)),
        "both_score": mean_ci([mine[k]["score"] for k in both]),
        "both_score_normal": mean_ci([base[k]["score"] for k in both]),
        "both_score_edge": mean_ci([mine[k]["score"] - base[k]["score"] for k in both]),
        "both_value_edge": mean_ci([float(mine[k]["value"] - base[k]["value"]) for k in both]),
        "only_this": len(only_mine),
        "only_this_made": share(sum(mine[k]["made"] for k in only_mine), len(only_mine)),
        "only_this_score": mean_ci([mine[k]["score"] for k in only_mine]),
        "only_this_score_normal": mean_ci([base[k]["score"] for k in only_mine if k in base]),
        "only_normal": len(only_base),
        "only_normal_made": share(sum(base[k]["made"] for k in only_base), len(only_base)),
        "only_normal_score": mean_ci([base[k]["score"] for k in only_base]),
    }


# -- grail-mahjong ----------------------------------------------------------------------
def win_share(state: State, seat: int) -> float:
    """The seat's share of the first hand's win (shared wins split)."""
    results = state.public_view().get("results") or []
    winners = list(results[0].get("winners") or []) if results else []
    return 1 / len(winners) if seat in winners else 0.0


def claim_hindsight(choice: ClaimChoice, seat: int, seed: int) -> tuple[float, float]:
    """The seat's win share finishing the hand after its answer and after the best
    alternative (pass for a claim, the best claim for a pass), heuristics everywhere."""
    game = choice.before.game

    def after(text: str) -> float:
        state = choice.before.clone()
        state.apply(game.action(text))
        return win_share(finish(state, seed), seat)

    mine = after(choice.chosen)
    others = [
        after(t)
        for t in choice.alternatives
        if t.startswith("claim") != choice.chosen.startswith("claim")
    ]
    return mine, max(others, default=0.0)


def grail_record(played: Played, seat: int, seed: int) -> dict[str, Any]:
    state = played.state
    rows = []
    for i, choice in enumerate(played.claims):
        mine, other = claim_hindsight(choice, seat, derive_seed(seed, "claim", i))
        rows.append(
            {
                "claimed": choice.chosen.startswith("claim"),
                "executed": choice.executed,
                "hindsight": mine,
                "alternative": other,
            }
        )
    return {
        "seat": seat,
        "score": float(state.scores().totals[seat]),
        "win": win_share(state, seat),
        "choices": rows,
    }


def sono_record(state: State, seat: int) -> dict[str, Any]:
    """A sono-arcana match: the seat's score and win share (shared wins split)."""
    winners = state.scores().winners
    return {
        "seat": seat,
        "score": float(state.scores().totals[seat]),
        "win": 1 / len(winners) if seat in winners else 0.0,
    }


def summarise_sono(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {
        "matches": len(records),
        "win_share": mean_ci([r["win"] for r in records]),
        "mean_score": mean_ci([r["score"] for r in records]),
    }


def summarise_grail(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    choices = [(r, c) for r in records for c in r["choices"]]
    claims = [(r, c) for r, c in choices if c["claimed"]]
    executed = [(r, c) for r, c in claims if c["executed"]]
    declines = [(r, c) for r, c in choices if not c["claimed"]]
    return {
        "matches": len(records),
        "win_share": mean_ci([r["win"] for r in records]),
        "mean_score": mean_ci([r["score"] for r in records]),
        "could_claim": len(choices),
        "claims": share(len(claims), len(choices)),
        "executed": share(len(executed), len(claims)),
        "executed_lost": share(sum(r["win"] == 0 for r, _ in executed), len(executed)),
        "claims_regretted": share(
            sum(c["alternative"] > 0 and c["hindsight"] == 0 for _, c in claims), len(claims)
        ),
        "claims_vindicated": share(
            sum(c["hindsight"] > 0 and c["alternative"] == 0 for _, c in claims), len(claims)
        ),
        "claim_edge": mean_ci([c["hindsight"] - c["alternative"] for _, c in claims]),
        "declines_regretted": share(
            sum(c["alternative"] > 0 and c["hindsight"] == 0 for _, c in declines), len(declines)
        ),
        "decline_edge": mean_ci([c["hindsight"] - c["alternative"] for _, c in declines]),
    }


# -- running ----------------------------------------------------------------------------
def measure(
    game_id: str,
    players: int,
    levels: Sequence[str],
    *,
    deals: int,
    seed: int,
    budgets: Budgets,
    update: Callable[[int], None] = lambda done: None,
) -> dict[str, Any]:
    """Every level on the same ``deals`` deals, the level in each seat in turn."""
    info = next(i for i in xtarot.games() if i.id == game_id)
    game = xtarot.load(game_id, players=players, **dict(info.bulk_options))
    values: dict[tuple[int, int], dict[str, int]] = {}  # hindsight, shared by the levels
    out: dict[str, Any] = {}
    done = 0
    scores: dict[str, dict[tuple[int, int], float]] = {}
    kept: dict[str, dict[tuple[int, int], dict[str, Any]]] = {}
    for level in levels:
        started = time.perf_counter()
        records = []
        for index in range(deals):
            game_seed = derive_seed(seed, "game", index)
            for seat in range(players):
                agents = [
                    budgets.agent(
                        level if s == seat else "heuristic",
                        derive_seed(seed, "agent", index, seat, s),
                    )
                    for s in range(players)
                ]
                watch = seat if game_id == "grail-mahjong" else None
                played = play(game, agents, game_seed, watch)
                if game_id == "fairy500":
                    key = (index, seat)
                    if key not in values:
                        values[key] = contract_playouts(game, played.state.deals[0], seat)
                    rec = fairy500_record(game, played.state, seat, values[key])
                elif game_id == "grail-mahjong":
                    rec = grail_record(played, seat, derive_seed(seed, "hindsight", index, seat))
                else:
                    rec = sono_record(played.state, seat)
                rec["deal"] = index
                records.append(rec)
                scores.setdefault(level, {})[(index, seat)] = rec["score"]
                kept.setdefault(level, {})[(index, seat)] = rec
                done += 1
                update(done)
        summary = {
            "fairy500": summarise_fairy500,
            "grail-mahjong": summarise_grail,
            "sono-arcana": summarise_sono,
        }[game_id](records)
        summary["budget"] = budgets.describe(level)
        summary["seconds"] = time.perf_counter() - started
        if level != "normal" and "normal" in scores:
            summary["edge_over_normal"] = paired_edge(kept[level], kept["normal"], "score")
            if game_id == "fairy500":
                summary["against_normal"] = compare_declarers(kept[level], kept["normal"])
            else:
                summary["win_edge_over_normal"] = paired_edge(kept[level], kept["normal"], "win")
        out[level] = summary
    return {
        "game": game_id,
        "players": players,
        "options": dict(info.bulk_options),
        "deals": deals,
        "matches_per_level": deals * players,
        "levels": out,
    }


def _pct(s: dict[str, Any]) -> str:
    if not s.get("n"):
        return "-"
    lo, hi = s["ci95"]
    return f"{100 * s['share']:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}] of {s['n']}"


def _mean(m: dict[str, Any], digits: int = 1) -> str:
    if m.get("mean") is None:
        return "-"
    if m.get("ci95") is None:
        return f"{m['mean']:.{digits}f}"
    lo, hi = m["ci95"]
    return f"{m['mean']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def print_row(row: dict[str, Any]) -> None:
    print(f"\n{row['game']} {row['players']}p: {row['deals']} deals, "
          f"{row['matches_per_level']} matches a level")  # fmt: skip
    for level, s in row["levels"].items():
        print(f"  {level} ({s['budget']}, {s['seconds']:.0f} s)")
        if row["game"] == "fairy500":
            lines = [
                ("declares", _pct(s["declared"])),
                ("trick contracts made", _pct(s["contracts_made"])),
                ("misère made", _pct(s["misere_made"])),
                ("mean declarer score", _mean(s["declarer_score"])),
                ("mean score, trick contracts", _mean(s["contract_score"])),
                (
                    "mean bid / hindsight value",
                    f"{_mean(s['bid_value'], 0)} / {_mean(s['hindsight_value'], 0)}",
                ),
                ("over-bid (play-out fails too)", _pct(s["over_bid"])),
                ("failed in play (play-out makes it)", _pct(s["failed_in_play"])),
                ("under-bid (H above the bid, made)", _pct(s["under_bid"])),
                ("made beyond the play-out", _pct(s["beat_playout"])),
                ("tricks bid minus play-out's", _mean(s["tricks_over"], 2)),
                ("passed a makeable overcall", _pct(s["passed_makeable"])),
                ("call found a partner", _pct(s["call_found_partner"])),
                ("partner's tricks", _mean(s["partner_tricks"], 2)),
                (
                    "made with a partner / alone",
                    f"{_pct(s['made_with_partner'])} / {_pct(s['made_alone'])}",
                ),
            ]
        elif row["game"] == "sono-arcana":
            lines = [("win share", _mean(s["win_share"], 3))]
        else:
            lines = [
                ("win share", _mean(s["win_share"], 3)),
                ("claim rounds it could claim", str(s["could_claim"])),
                ("claimed", _pct(s["claims"])),
                ("claims executed", _pct(s["executed"])),
                ("executed claims, hand lost", _pct(s["executed_lost"])),
                ("claims a pass would have beaten", _pct(s["claims_regretted"])),
                ("claims that beat the pass", _pct(s["claims_vindicated"])),
                ("claim's edge over passing (wins)", _mean(s["claim_edge"], 3)),
                ("passes a claim would have beaten", _pct(s["declines_regretted"])),
                ("pass's edge over the best claim", _mean(s["decline_edge"], 3)),
            ]
        lines.append(("mean score", _mean(s["mean_score"])))
        if "edge_over_normal" in s:
            lines.append(("paired edge over normal", _mean(s["edge_over_normal"])))
        if "win_edge_over_normal" in s:
            lines.append(("paired win-share edge over normal", _mean(s["win_edge_over_normal"], 3)))
        if "against_normal" in s:
            c = s["against_normal"]
            lines += [
                (f"same hands as normal's contracts ({c['both']})",
                 f"made {_pct(c['both_made'])} vs {_pct(c['both_made_normal'])}"),
                ("  score there (this − normal)", f"{_mean(c['both_score'])} vs "
                 f"{_mean(c['both_score_normal'])}, edge {_mean(c['both_score_edge'])}"),
                ("  bid value there (this − normal)", _mean(c["both_value_edge"], 0)),
                (f"contracts normal did not declare ({c['only_this']})",
                 f"made {_pct(c['only_this_made'])}, score {_mean(c['only_this_score'])} "
                 f"(normal there {_mean(c['only_this_score_normal'])})"),
                (f"normal's contracts it did not declare ({c['only_normal']})",
                 f"made {_pct(c['only_normal_made'])}, score {_mean(c['only_normal_score'])}"),
            ]  # fmt: skip
        for label, text in lines:
            print(f"    {label:36} {text}")


def expert_settings(items: Sequence[str]) -> list[tuple[str, Any]]:
    """``--expert-setting`` texts as ``(key, value)`` pairs, each value read as the lab
    reads a bot's settings (a number where it is one, ``true``/``false``, else text).

    >>> expert_settings(["min_make=0.9", "min_declared=8", "endgame=false"])
    [('min_make', 0.9), ('min_declared', 8), ('endgame', False)]
    """
    for item in items:
        key, eq, _ = item.partition("=")
        if not eq or not key.strip() or ":" in item:
            raise ValueError(f"--expert-setting takes KEY=VALUE, e.g. min_make=0.9, not {item!r}")
    if not items:
        return []
    return list(Bot.parse("expert:" + ":".join(items)).settings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="fairy500,grail-mahjong", help="comma list")
    parser.add_argument("--players", default="", help="comma list (default: 4,6 / 3,4)")
    parser.add_argument("--levels", default="normal,hard,expert", help="comma list of levels")
    parser.add_argument("--deals", type=int, default=50, help="deals per row (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard-seconds", type=float, default=0.8, help="hard's time a move")
    parser.add_argument(
        "--expert-iterations", type=int, default=100, help="expert's play-outs a move (100)"
    )
    parser.add_argument(
        "--expert-seconds", type=float, default=None, help="expert's time a move instead"
    )
    parser.add_argument(
        "--expert-setting",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another ExpertAgent setting for the expert level, e.g. min_make=0.9 "
        "(repeatable; numbers are read as numbers)",
    )
    parser.add_argument(
        "--value-model",
        metavar="FILE",
        help="a hand-value model (xtarot train value; fairy500 or grail-mahjong): adds the "
        "level normal+value, the heuristic bidding or claiming by it",
    )
    parser.add_argument(
        "--value-margin",
        type=float,
        default=30.0,
        help="points a bid of normal+value must be expected to gain (default 30: about what "
        "defending brings at 4 players; chosen on --seed 2)",
    )
    parser.add_argument(
        "--claim-margin",
        type=float,
        default=None,
        help="the win share a grail-mahjong claim model's (or sono-arcana lot model's) "
        "answer must gain over the heuristic's (default: the model's own, 0.05)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke run: 1 deal, tiny budgets, one player count a game",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals = min(args.deals, 1)
        args.hard_seconds = min(args.hard_seconds, 0.02)
        args.expert_iterations = min(args.expert_iterations, 8)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    for g in games:
        if g not in USUAL:
            parser.error(f"unknown game {g!r}: fairy500, grail-mahjong or sono-arcana")
    model = None
    if args.value_model:
        from xtarot.adapters.value import load_value_model

        try:
            model = load_value_model(args.value_model)
        except ValueError as exc:
            parser.error(str(exc))
        if args.claim_margin is not None and model.game != "fairy500":
            model.margin = args.claim_margin
        if VALUE_LEVEL not in levels:
            levels.append(VALUE_LEVEL)
    for lv in levels:
        if lv not in LEVELS and not (lv == VALUE_LEVEL and model is not None):
            parser.error(f"unknown level {lv!r}: {', '.join(LEVELS)} (or --value-model)")
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    counts = {int(p) for p in args.players.split(",") if p.strip()}
    try:
        settings = expert_settings(args.expert_setting)
    except ValueError as exc:
        parser.error(str(exc))
    budgets = Budgets(
        args.hard_seconds,
        args.expert_iterations,
        args.expert_seconds,
        model,
        args.value_margin,
        tuple(settings),
    )
    from xtarot.cli.progress import progress

    rows = []
    for g in games:
        for n in USUAL[g][:1] if args.quick and not counts else USUAL[g]:
            if counts and n not in counts:
                continue
            fits = model is not None and model.game == g and model.players == n
            if model is not None and model.game == g and not fits:
                print(
                    f"(skipping {g} {n}p: the value model is for {model.players} players)",
                    file=sys.stderr,
                )
                continue
            here = [lv for lv in levels if fits or lv != VALUE_LEVEL]
            total = args.deals * n * len(here)
            with progress(f"{g} {n}p", "en", total=total, quiet=args.quiet) as update:
                row = measure(g, n, here, deals=args.deals, seed=args.seed, budgets=budgets,
                              update=update)  # fmt: skip
            rows.append(row)
            if not args.json:
                print_row(row)
    if args.json:
        out = {
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "command": " ".join(
                ["bench_bidding.py", *(argv if argv is not None else sys.argv[1:])]
            ),
            "seed": args.seed,
            "rows": rows,
        }
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
