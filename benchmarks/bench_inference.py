"""Inference by policy against the uniform sampler: log-loss per hidden card
(docs/agents.md, *Inference by policy*).

The held-out positions and the uniform baseline are those of ``xtarot train belief``
(``xtarot.adapters.belief.generate`` with the same seed, ``--games``,
``--eval-games`` and ``--eval-positions``): every third decision of the held-out
matches, ``--eval-positions`` of them evenly spread, the 128 uniform worlds of each
drawn from the same random stream, the same smoothing and the same bias correction
(twice the 128-world loss minus the 64-world loss).  Inference by policy weighs the
same 128 worlds by the likelihood of the other seats' moves under the heuristic
(:mod:`xtarot.agents.inference`); a card's probability at a place is its weighted
share, as pseudo-counts of the weights' effective sample size, plus the same half
count (so equal weights give exactly the uniform sampler's figure).  Its figure is
*not* bias-corrected: it is what 128 weighed worlds give.

``--auction T1,T2,...`` (fairy500) weighs the same worlds, too, by the soft auction
evidence of each temperature (:class:`xtarot.agents.auction_evidence.AuctionEvidence`:
the other seats' bids and passes of the current hand under the heuristic's bidding
rule, blurred); with ``--no-is`` alone that is all the run weighs (a minute or two).

``--others`` plays the held-out matches with another bot in every seat (``easy``,
``normal``, ``expert:N`` for N play-outs a move): the heuristic is then no longer a
perfect model of the other seats.  The uniform worlds' random stream is then the
benchmark's own (no training matches to count).

    python benchmarks/bench_inference.py extendori -p 4 --games 120 --eval-games 10
    python benchmarks/bench_inference.py fairy500 -p 4 --games 10 --eval-games 3 \\
        --eval-positions 60 --others expert:50

``--duel DEALS`` plays instead one ``expert`` on weighed worlds
(:class:`xtarot.agents.inference.InferringAgent`) against ``players - 1`` plain
``expert`` seats at the same play-outs a move (``--iterations``), duplicate deals
(every deal once per arrangement), single hands; it reports its win share as a
multiple of the fair share with a 95% interval over the deals, and each side's
seconds a move:

    python benchmarks/bench_inference.py grail-mahjong -p 3 --duel 20 --iterations 100
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

import numpy as np

import xtarot
from xtarot.adapters.belief import (
    _SMOOTH,
    UNIFORM_DRAWS,
    BeliefData,
    _match_seeds,
    events_for,
    true_locations,
)
from xtarot.agents import decision_for, make_agent
from xtarot.agents.auction_evidence import AuctionEvidence
from xtarot.agents.inference import Check, PolicyInference, log_likelihood_of
from xtarot.engine import Game, State

EPSILONS = (0.1, 0.2, 0.3, 0.5)
CAPS = (8, 16, 48, 10_000)
#: pseudo-worlds of the uniform estimate (of the same worlds) added to the weighted one
SHRINK = (0, 16, 64)


def _bot(name: str, seed: int) -> Any:
    bot, _, budget = name.partition(":")
    if budget:
        return make_agent(bot, seed, iterations=int(budget))
    return make_agent(bot, seed)


def training_rows(game: Game, seeds: list[int], every: int = 3) -> int:
    """How many positions ``generate`` keeps from these (training) matches."""
    rows = 0
    for s in seeds:
        state = game.new_state(seed=s)
        agents = [make_agent("heuristic", s + k) for k in range(game.players)]
        step = 0
        while not state.is_terminal:
            if step % every == 0:
                rows += 1
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(decision_for(state, peek=True)))
            step += 1
    return rows


def held_positions(
    game: Game, seeds: list[int], first_row: int, others: str, count: int, every: int = 3
) -> list[tuple[int, State, int]]:
    """(row, state, seat) of the held-out positions, picked as ``generate`` picks them."""
    held: list[tuple[int, State, int]] = []
    row = first_row
    for s in seeds:
        state = game.new_state(seed=s)
        agents = [_bot(others, s + k) for k in range(game.players)]
        step = 0
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            if step % every == 0:
                held.append((row, state.clone(), seat))
                row += 1
            state.apply(agents[seat].act(decision_for(state, peek=True)))
            step += 1
    pick = np.linspace(0, len(held) - 1, min(count, len(held))).round()
    return [held[k] for k in sorted({int(x) for x in pick})]


def _loss(counts: np.ndarray, truth: np.ndarray, open_: np.ndarray) -> tuple[float, int]:
    """Summed log-loss of the true places under ``counts + half a count`` over the open
    places, and how many cards counted."""
    counted = truth >= 0
    p = (counts[counted] + _SMOOTH) * open_[None, :]
    p /= p.sum(axis=1, keepdims=True)
    picked = p[np.arange(int(counted.sum())), truth[counted]]
    return float(-np.log(picked).sum()), int(counted.sum())


def run(
    game: Game,
    *,
    seed: int,
    games: int,
    eval_games: int,
    eval_positions: int,
    others: str,
    draws: int = UNIFORM_DRAWS,
    mcmc: tuple[float, ...] = (),
    chains: int = 4,
    steps: int = 40,
    burn: int = 8,
    tries: int = 4,
    no_is: bool = False,
    auction: tuple[float, ...] = (),
) -> dict[str, Any]:
    seeds = _match_seeds(seed, games + eval_games)
    first_row = training_rows(game, seeds[:games]) if others == "heuristic" else 0
    started = time.perf_counter()
    positions = held_positions(game, seeds[games:], first_row, others, eval_positions)
    play_seconds = time.perf_counter() - started
    data = BeliefData(events=events_for(game), prior_draws=draws)
    index = data.events.index
    inference = PolicyInference(max_checks=10_000)
    rows: list[dict[str, Any]] = []
    sample_s = check_s = 0.0
    n_worlds = 0
    chains_of = {eps: PolicyInference(epsilon=eps) for eps in mcmc}
    mcmc_s = {eps: 0.0 for eps in mcmc}
    evidence = {t: AuctionEvidence(temperature=t) for t in auction}

    def places_of(worlds: list[State], seat: int) -> np.ndarray:
        out = np.full((len(worlds), len(data.cards)), -1, dtype=np.int64)
        for k, w in enumerate(worlds):
            for code, where in true_locations(w, seat).items():
                i = index.get(code)
                if i is not None:
                    out[k, i] = data.loc(where)
        return out

    for row, state, seat in positions:
        rng = random.Random(f"xtarot-belief-uniform:{seed}:{row}")
        t0 = time.perf_counter()
        worlds = [state.sample_world(seat, rng) for _ in range(draws)]
        t1 = time.perf_counter()
        checks = [[] if no_is else inference.checks(w, seat) for w in worlds]
        t2 = time.perf_counter()
        chained = {}
        for eps, chainer in chains_of.items():
            crng = random.Random(f"xtarot-inference-mcmc:{seed}:{row}:{eps}")
            t3 = time.perf_counter()
            got = chainer.posterior_worlds(
                lambda r, st=state, se=seat: st.sample_world(se, r), seat, crng,
                chains=chains, steps=steps, burn=burn, tries=tries,
            )  # fmt: skip
            mcmc_s[eps] += time.perf_counter() - t3
            chained[eps] = places_of(got, seat)
        sample_s += t1 - t0
        check_s += t2 - t1
        n_worlds += draws
        data.counts([state, *worlds], seat, index)  # notes the hidden places
        truth = np.full(len(data.cards), -1, dtype=np.int64)
        for code, where in true_locations(state, seat).items():
            i = index.get(code)
            if i is not None:
                truth[i] = data.loc(where)
        bids = {t: [e.log_likelihood(w, seat) for w in worlds] for t, e in evidence.items()}
        rows.append(
            {
                "truth": truth,
                "places": places_of(worlds, seat),
                "checks": checks,
                "mcmc": chained,
                "auction": bids,
            }
        )
    hidden = sorted(data.loc(x) for x in data.hidden)
    remap = np.full(64, -1, dtype=np.int64)
    remap[hidden] = np.arange(len(hidden))

    def weighted_counts(places: np.ndarray, w: np.ndarray) -> np.ndarray:
        out = np.zeros((places.shape[1], len(hidden)))
        loc = remap[places]  # [worlds, cards]
        cards = np.arange(places.shape[1])
        for k in range(places.shape[0]):
            ok = loc[k] >= 0
            out[cards[ok], loc[k][ok]] += w[k]
        return out

    def score(
        weigh: Any,
        upto: int,
        key: float | None = None,
        shrink: float = 0.0,
        size: float = 0.0,
        bids: float | None = None,
    ) -> tuple[float, float]:
        total = 0.0
        cards = 0
        ess_sum = 0.0
        for r in rows:
            prior = weighted_counts(r["places"][:upto], np.ones(len(r["places"][:upto])))
            prior *= shrink / max(prior.sum(axis=1, keepdims=True).max(), 1.0)
            if key is not None:
                r = {**r, "places": r["mcmc"][key], "checks": [[]] * len(r["mcmc"][key])}
            truth = remap[np.maximum(r["truth"], 0)]
            truth[r["truth"] < 0] = -1
            open_ = np.zeros(len(hidden), dtype=bool)
            open_[np.unique(truth[truth >= 0])] = True
            if bids is not None:  # the auction evidence's log-weights of the same worlds
                logs = np.array(r["auction"][bids][:upto])
            else:
                logs = np.array([weigh(c) for c in r["checks"][:upto]])
            w = np.exp(logs - logs.max())
            ess = w.sum() ** 2 / (w**2).sum()
            ess_sum += ess
            w = w * (ess / w.sum())  # pseudo-counts summing to the effective sample size
            if size:
                w = w * (size / w.sum())
            counts = weighted_counts(r["places"][:upto], w) + prior
            loss, n = _loss(counts, truth, open_)
            total += loss
            cards += n
        return total / max(cards, 1), ess_sum / max(len(rows), 1)

    uniform, _ = score(lambda c: 0.0, draws)
    half, _ = score(lambda c: 0.0, draws // 2)
    corrected = 2 * uniform - half
    table: list[dict[str, Any]] = []
    chain_rows = []
    for eps in mcmc:
        for size, shrink in ((0, 0), (32, 0), (32, 32), (16, 64)):
            loss, _ = score(lambda c: 0.0, 10**9, eps, shrink=shrink, size=size)
            chain_rows.append(
                {
                    "epsilon": eps,
                    "counted_as": size or chains * (steps - burn),
                    "shrink": shrink,
                    "loss": round(loss, 5),
                    "ratio": round(loss / corrected, 4),
                    "worlds": chains * (steps - burn),
                    "ms_a_step": round(1000 * mcmc_s[eps] / max(len(rows) * chains * steps, 1), 2),
                }
            )

    def scored(
        setting: dict[str, Any], weigh: Any, shrink: float, bids: float | None = None
    ) -> dict[str, Any]:
        """One setting's row: its loss on the worlds, the ratio to the corrected uniform
        sampler's, its own bias-corrected loss (twice the loss minus half the worlds')."""
        loss, ess = score(weigh, draws, shrink=shrink, bids=bids)
        loss64, _ = score(weigh, draws // 2, shrink=shrink / 2, bids=bids)
        return setting | {
            "loss": round(loss, 5),
            "ratio": round(loss / corrected, 4),
            "loss_corrected": round(2 * loss - loss64, 5),
            "ess": round(ess, 1),
        }

    for eps in EPSILONS if not no_is else ():
        for cap in CAPS:
            for newest in (False, True) if cap < 10_000 else (False,):

                def weigh(
                    c: list[Check], eps: float = eps, cap: int = cap, nw: bool = newest
                ) -> float:
                    chosen = c[-cap:] if nw else c[:cap]
                    return log_likelihood_of(chosen, eps)

                for shrink in SHRINK:
                    setting = {"epsilon": eps, "cap": cap if cap < 10_000 else None}
                    setting |= {"newest": newest, "shrink": shrink}
                    table.append(scored(setting, weigh, shrink))
    auction_rows = []
    for t in auction:
        for shrink in SHRINK:
            auction_rows.append(scored({"temperature": t, "shrink": shrink}, None, shrink, t))
    n_checks = [len(c) for r in rows for c in r["checks"]]
    matched = [sum(x.matched for x in c) / len(c) for r in rows for c in r["checks"] if c]
    return {
        "game": game.id,
        "players": game.players,
        "seed": seed,
        "games": games,
        "eval_games": eval_games,
        "others": others,
        "positions": len(rows),
        "draws": draws,
        "hidden_places": [data.locations[i] for i in hidden],
        "uniform": round(uniform, 5),
        "uniform_half": round(half, 5),
        "uniform_corrected": round(corrected, 5),
        "checks_per_world": round(float(np.mean(n_checks)), 1) if n_checks else 0.0,
        "matched_share_in_uniform_worlds": round(float(np.mean(matched)), 3) if matched else None,
        "ms_sample_world": round(1000 * sample_s / max(n_worlds, 1), 2),
        "ms_checks_per_world_all": round(1000 * check_s / max(n_worlds, 1), 2),
        "play_seconds": round(play_seconds, 1),
        "mcmc": chain_rows,
        "mcmc_setting": {"chains": chains, "steps": steps, "burn": burn, "tries": tries},
        "table": table,
        "auction": auction_rows,
    }


def cost(game_id: str, players: int, positions: int, worlds: int, seed: int) -> dict[str, Any]:
    """Milliseconds a world at play time, at the default settings: ``sample_world``
    alone, and with its weight (:meth:`PolicyInference.log_likelihood`), over
    ``positions`` positions of heuristic self-play (every seventh decision)."""
    game = xtarot.load(game_id, players=players)
    pos: list[tuple[State, int]] = []
    rng = random.Random(seed)
    while len(pos) < positions:
        state = game.new_state(seed=rng.getrandbits(32))
        agents = [make_agent("heuristic", k) for k in range(players)]
        step = 0
        while not state.is_terminal and len(pos) < positions:
            seat = state.current_player
            assert seat is not None
            if step % 7 == 3:
                pos.append((state.clone(), seat))
            state.apply(agents[seat].act(decision_for(state, peek=True)))
            step += 1
    inference = PolicyInference()
    plain = weighed = 0.0
    for state, seat in pos:
        wrng = random.Random(1)
        start = time.perf_counter()
        drawn = [state.sample_world(seat, wrng) for _ in range(worlds)]
        mid = time.perf_counter()
        for w in drawn:
            inference.log_likelihood(w, seat)
        plain += mid - start
        weighed += time.perf_counter() - start
    n = len(pos) * worlds
    return {
        "game": game_id,
        "players": players,
        "positions": len(pos),
        "worlds": worlds,
        "ms_sample_world": round(1000 * plain / n, 3),
        "ms_weighed_world": round(1000 * weighed / n, 3),
        "settings": {"epsilon": inference.epsilon, "max_checks": inference.max_checks},
    }


class _Timed:
    """An agent whose thinking time is added up (seconds a move, per side)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0
        self.moves = 0

    def act(self, decision: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.inner.act(decision)
        finally:
            self.seconds += time.perf_counter() - start
            self.moves += 1

    def explain(self) -> Any:
        return self.inner.explain()


_TIMED: dict[str, list[_Timed]] = {"expert+inference": [], "expert": []}


def duel(
    game_id: str, players: int, deals: int, iterations: int, seed: int, epsilon: float,
    max_checks: int, pool: int,
) -> dict[str, Any]:  # fmt: skip
    from xtarot.agents.inference import InferringAgent
    from xtarot.lab import run_tournament

    def inferring(s: int | None) -> Any:
        bot = _Timed(
            InferringAgent(
                s, epsilon=epsilon, max_checks=max_checks, pool=pool, iterations=iterations
            )
        )
        _TIMED["expert+inference"].append(bot)
        return bot

    def plain(s: int | None) -> Any:
        bot = _Timed(make_agent("expert", s, iterations=iterations))
        _TIMED["expert"].append(bot)
        return bot

    inferring.name = "expert+inference"  # type: ignore[attr-defined]
    plain.name = "expert"  # type: ignore[attr-defined]
    info = next(i for i in xtarot.games() if i.id == game_id)
    start = time.perf_counter()
    result = run_tournament(
        game_id, players, [inferring] + [plain] * (players - 1), deals, seed=seed,
        options=dict(info.bulk_options), duplicate=True,
    )  # fmt: skip
    by_deal: dict[Any, list[float]] = {}
    for row in result.rows:
        names, ranks = list(row["agents"]), [int(r) for r in row["ranks"]]
        me = names.index("expert+inference")
        winners = [k for k, r in enumerate(ranks) if r == 1]
        win = 1 / len(winners) if me in winners else 0.0
        by_deal.setdefault((row.get("seed"), row.get("index")), []).append(win)
    shares = [sum(v) / len(v) for v in by_deal.values()]
    mean = sum(shares) / len(shares)
    var = sum((x - mean) ** 2 for x in shares) / max(len(shares) - 1, 1)
    half = 1.96 * math.sqrt(var / len(shares))
    mine = result.agents["expert+inference"]
    per_move = {
        name: sum(b.seconds for b in bots) / max(sum(b.moves for b in bots), 1)
        for name, bots in _TIMED.items()
    }
    return {
        "game": game_id,
        "players": players,
        "deals": result.deals,
        "matches": result.games,
        "iterations": iterations,
        "epsilon": epsilon,
        "max_checks": max_checks,
        "pool": pool,
        "x_fair": round(mine.win_share * players, 3),
        "x_fair_match_ci95": [round(x * players, 3) for x in mine.win_interval],
        "x_fair_deal_ci95": [round((mean - half) * players, 3), round((mean + half) * players, 3)],
        "mean_score": mine.mean_score,
        "others_mean_score": {k: a.mean_score for k, a in result.agents.items()},
        "seconds_a_move": {k: round(v, 4) for k, v in per_move.items()},
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("-p", "--players", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--eval-positions", type=int, default=200)
    parser.add_argument("--others", default="heuristic")
    parser.add_argument("--draws", type=int, default=UNIFORM_DRAWS)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--mcmc", default="", help="comma list of epsilons for the chains")
    parser.add_argument("--chains", type=int, default=4)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--burn", type=int, default=8)
    parser.add_argument("--tries", type=int, default=4)
    parser.add_argument("--no-is", action="store_true", help="skip importance weighting")
    parser.add_argument(
        "--auction",
        default="",
        help="fairy500: comma list of temperatures of the soft auction evidence to weigh the "
        "same worlds by (xtarot.agents.auction_evidence)",
    )
    parser.add_argument("--cost", type=int, default=0, help="positions of the cost a world")
    parser.add_argument("--duel", type=int, default=0, help="deals of the expert duel")
    parser.add_argument("--iterations", type=int, default=100, help="duel: play-outs a move")
    parser.add_argument("--epsilon", type=float, default=0.3, help="duel: the inference's")
    parser.add_argument("--max-checks", type=int, default=48, help="duel: the inference's")
    parser.add_argument("--pool", type=int, default=32, help="duel: weighed worlds a move")
    args = parser.parse_args()
    if args.cost:
        print(json.dumps(cost(args.game, args.players, args.cost, 16, args.seed)))
        return
    if args.duel:
        print(json.dumps(duel(
            args.game, args.players, args.duel, args.iterations, args.seed, args.epsilon,
            args.max_checks, args.pool,
        )))  # fmt: skip
        return
    game = xtarot.load(args.game, players=args.players)
    start = time.perf_counter()
    out = run(
        game,
        seed=args.seed,
        games=args.games,
        eval_games=args.eval_games,
        eval_positions=args.eval_positions,
        others=args.others,
        draws=args.draws,
        mcmc=tuple(float(x) for x in args.mcmc.split(",") if x),
        chains=args.chains,
        steps=args.steps,
        burn=args.burn,
        tries=args.tries,
        no_is=args.no_is,
        auction=tuple(float(x) for x in args.auction.split(",") if x),
    )
    out["seconds"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(out))
        return
    head = {k: v for k, v in out.items() if k not in ("table", "mcmc", "auction")}
    print(json.dumps(head))
    for r in out["auction"]:
        print("auction", json.dumps(r))
    for r in out["mcmc"]:
        print("mcmc", json.dumps(r))
    if not out["table"]:
        return
    best = min(out["table"], key=lambda r: r["loss"])
    for r in out["table"]:
        mark = " <- best" if r is best else ""
        print(
            f"eps {r['epsilon']:<5} cap {r['cap']!s:>5} "
            f"{'newest' if r['newest'] else 'first ':6} shrink {r['shrink']:<3}"
            f" loss {r['loss']:.4f} ratio {r['ratio']:.4f} (corrected {r['loss_corrected']:.4f})"
            f" ess {r['ess']:6.1f}{mark}"
        )


if __name__ == "__main__":
    main()
