"""Behaviour cloning of an xtarot bot from a file of `xtarot data export`, numpy only.

A small policy (one hidden layer, ReLU, a softmax over the legal moves) learns to pick
the move the bot picked, from the acting seat's view tensor alone.  It prints a learning
curve (training loss, held-out accuracy per epoch, against two baselines: a uniform
choice among the legal moves and the game's heuristic on the same decisions), then
plays the policy against `random` and `normal` bots and prints its win share next to
the heuristic's in the same seats of the same deals.

    xtarot data export fairy500 -p 4 -o hands=1 --games 150 --agents expert:30 \\
        --seed 1 --out fairy500-expert.parquet
    python examples/behaviour_cloning.py fairy500-expert.parquet --epochs 12 --matches 48

Needs `pip install "xtarot[data]"` (pyarrow, numpy); no deep-learning framework.  Held-out
decisions are whole matches (one in five).  The same file and seed give the same numbers.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

import xtarot
from xtarot.adapters.dataset import load_decisions, read_metadata
from xtarot.adapters.tensors import encoder_for
from xtarot.agents import Decision, decision_for, make_agent, play_match
from xtarot.engine import Action


class Policy:
    """A one-hidden-layer network: view tensor -> a score per action id."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "w1": rng.normal(0.0, np.sqrt(2.0 / inputs), (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0.0, np.sqrt(1.0 / hidden), (hidden, actions)).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0

    def logits(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        z = h @ p["w2"] + p["b2"]
        return np.where(mask, z, -1e9), h

    def train_step(
        self, x: np.ndarray, mask: np.ndarray, y: np.ndarray, lr: float, decay: float
    ) -> float:
        """One Adam step of masked softmax cross-entropy; the batch's mean loss."""
        z, h = self.logits(x, mask)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z) * mask
        prob = e / e.sum(axis=1, keepdims=True)
        rows = np.arange(len(y))
        loss = float(-np.log(prob[rows, y] + 1e-12).mean())
        g = prob
        g[rows, y] -= 1.0
        g /= len(y)
        p = self.params
        grads = {"w2": h.T @ g, "b2": g.sum(axis=0)}
        gh = (g @ p["w2"].T) * (h > 0)
        grads["w1"] = x.T @ gh
        grads["b1"] = gh.sum(axis=0)
        self.steps += 1
        for k, grad in grads.items():
            m, v = self.moments[k]
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            mh = m / (1 - 0.9**self.steps)
            vh = v / (1 - 0.999**self.steps)
            p[k] -= lr * (mh / (np.sqrt(vh) + 1e-8) + decay * p[k])
        return loss

    def accuracy(self, x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> float:
        if len(y) == 0:
            return float("nan")
        z, _ = self.logits(x, mask)
        return float((z.argmax(axis=1) == y).mean())


class ClonedAgent:
    """The trained policy as an xtarot agent: it reads the seat's view only."""

    name = "cloned"
    reads_view_only = True

    def __init__(self, policy: Policy, game: xtarot.Game) -> None:
        self.policy = policy
        self.encoder = encoder_for(game)
        self.actions = game.num_actions

    def act(self, decision: Decision) -> Action:
        x = np.asarray(self.encoder.encode(decision.view), np.float32)[None, :]
        mask = np.zeros((1, self.actions), bool)
        by_id = {a.id: a for a in decision.legal}
        mask[0, list(by_id)] = True
        z, _ = self.policy.logits(x, mask)
        return by_id[int(z[0].argmax())]

    def explain(self) -> None:
        return None


def heuristic_agreement(path: str, game: xtarot.Game, matches: set[int], agent: str) -> float:
    """How often the game's heuristic picks the bot's move, on the held-out decisions
    (replayed from their match seeds: the view is rebuilt, the heuristic sees only it)."""
    import pyarrow.parquet as pq

    rows = pq.read_table(path, columns=["match", "match_seed", "seat", "agent", "action"])
    by_match: dict[int, list[dict[str, Any]]] = {}
    for r in rows.to_pylist():
        if r["match"] in matches:
            by_match.setdefault(r["match"], []).append(r)
    same = total = 0
    for m, mine in by_match.items():
        state = game.new_state(seed=mine[0]["match_seed"])
        bot = make_agent("heuristic", m)
        for r in mine:
            if r["agent"] == agent:
                same += bot.act(decision_for(state)).id == r["action"]
                total += 1
            state.apply(r["action"])
    return same / total if total else float("nan")


def win_share(
    game: xtarot.Game, make: Any, opponent: str, matches: int, seed: int
) -> tuple[float, float]:
    """The share of wins (ties split) of ``make(seed)`` at a rotating seat against
    ``opponent`` bots, and the fair share."""
    n = game.players
    rng = random.Random(seed)
    won = 0.0
    for m in range(matches):
        match_seed = rng.getrandbits(48)
        seat = m % n
        agents = [make_agent(opponent, match_seed + s) for s in range(n)]
        agents[seat] = make(match_seed)
        scores = play_match(game, agents, seed=match_seed).scores()
        if seat in scores.winners:
            won += 1 / len(scores.winners)
    return won / matches, 1 / n


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="a Parquet file written by `xtarot data export`")
    parser.add_argument("--agent", help="clone this bot's rows (default: the file's first)")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--decay", type=float, default=1e-4)
    parser.add_argument("--matches", type=int, default=48, help="evaluation matches per opponent")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    meta = read_metadata(args.data)
    agent = args.agent or meta["agents"][0]
    game = xtarot.load(meta["game"], players=meta["players"], **meta["options"])
    data = load_decisions(args.data, training=False, filters=[("agent", "=", agent)])
    held = data["match"] % 5 == 0
    x, mask, y = data["view"], data["legal_mask"], data["action"].astype(np.int64)
    print(
        f"{meta['game']}, {meta['players']} players: {len(y)} decisions of {agent} "
        f"({int((~held).sum())} training, {int(held.sum())} held out, whole matches); "
        f"tensor {x.shape[1]}, actions {mask.shape[1]}"
    )
    chance = float((1.0 / mask[held].sum(axis=1)).mean()) if held.any() else float("nan")
    forced = float((mask[held].sum(axis=1) == 1).mean()) if held.any() else float("nan")
    started = time.perf_counter()
    heur = heuristic_agreement(args.data, game, set(np.unique(data["match"][held])), agent)
    print(
        f"baselines on the held-out decisions: uniform legal move {chance:.3f}, "
        f"the heuristic {heur:.3f} (forced moves {forced:.3f})"
    )
    rng = np.random.default_rng(args.seed)
    policy = Policy(x.shape[1], mask.shape[1], args.hidden, rng)
    train = np.flatnonzero(~held)
    curve = []
    print("epoch  train loss  train acc  held-out acc")
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(train)
        losses = [
            policy.train_step(x[b], mask[b], y[b], args.lr, args.decay)
            for b in np.array_split(order, max(1, len(order) // args.batch))
        ]
        tr = policy.accuracy(x[train], mask[train], y[train])
        te = policy.accuracy(x[held], mask[held], y[held])
        curve.append((epoch, float(np.mean(losses)), tr, te))
        print(f"{epoch:5d}  {np.mean(losses):10.3f}  {tr:9.3f}  {te:12.3f}")
    print(f"trained in {time.perf_counter() - started:.1f} s")
    results = {}
    for opponent in ("random", "normal"):
        mine, fair = win_share(
            game, lambda s: ClonedAgent(policy, game), opponent, args.matches, args.seed
        )
        heuristic, _ = win_share(
            game, lambda s: make_agent("heuristic", s), opponent, args.matches, args.seed
        )
        results[opponent] = (mine, heuristic, fair)
        print(
            f"against {opponent}: win share {mine:.3f} (fair {fair:.3f}; the heuristic in the "
            f"same seats and deals: {heuristic:.3f}), {args.matches} matches"
        )
    return {"curve": curve, "chance": chance, "heuristic": heur, "results": results}


if __name__ == "__main__":
    main()
