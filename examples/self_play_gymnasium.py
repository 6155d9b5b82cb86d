"""Self-play training through the Gymnasium adapter, numpy only.

A small policy learns an xtarot game by playing against frozen copies of itself, seeing
nothing but its own seat's observation (``xtarot.adapters.gymnasium.XtarotGymEnv``: the
view tensor and the legal-action mask).  It prints a learning curve: at regular
checkpoints, the greedy policy's share of wins against `random` and against `normal`
(the heuristic) bots on held-out deals, next to what a uniform random player and the
heuristic itself score in the same seats of the same deals.

    python examples/self_play_gymnasium.py                       # arcana-duel, 2 players
    python examples/self_play_gymnasium.py --episodes 6000 --eval-every 1000 --matches 200
    python examples/self_play_gymnasium.py --quick               # a smoke run, seconds

The method, chosen to be small enough to read and to run on one core:

* **Policy**: one hidden layer (ReLU) over the observation tensor, a softmax over the
  action ids with the illegal ones masked out (``observation["action_mask"]``), and a
  value head on the same hidden layer.
* **Learning**: REINFORCE with a learned baseline (the episode's final return - the
  environment's rank return, +1 a win, -1 a loss - minus the value head's estimate of
  it; no discounting, as the reward comes only at the end), a small entropy bonus, Adam,
  a batch of episodes per update, gradients clipped by their global norm.
* **Self-play**: the learner takes every seat in turn (one environment per seat); the
  other seats are played by :class:`SnapshotAgent` instances handed to the environment
  as its opponents.  They hold *frozen snapshots* of the learner's weights: a copy is
  added to a small pool every ``--snapshot-every`` episodes (the oldest dropped), and
  each episode's opponents are drawn from the pool.  They act on their own seat's
  ``Decision`` (its view, encoded by the same encoder the environment uses) and sample
  from their softmax.  The learner's trajectories are the only training data.
* **Evaluation**: the same held-out deals at every checkpoint (training deals are drawn
  from even seeds, held-out ones from odd seeds), the learner at a rotating seat,
  playing its most probable legal move.

Everything is seeded: the same arguments give the same numbers on the same machine.
Needs ``pip install "xtarot[gymnasium]"`` (gymnasium, pettingzoo, numpy); no
deep-learning framework.  The measured curve is in docs/agents.md.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import xtarot
from xtarot.adapters.gymnasium import XtarotGymEnv
from xtarot.adapters.tensors import encoder_for
from xtarot.agents import Decision, decision_for, make_agent
from xtarot.engine import Action

Params = dict[str, np.ndarray]


class Policy:
    """One hidden layer over the observation tensor: action logits and a value."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.params: Params = {
            "w1": rng.normal(0.0, np.sqrt(2.0 / inputs), (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0.0, 0.01, (hidden, actions)).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
            "wv": np.zeros(hidden, np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0

    def snapshot(self) -> Params:
        """A frozen copy of the weights (what the opponents play with)."""
        return {k: v.copy() for k, v in self.params.items()}

    def update(
        self,
        x: np.ndarray,
        mask: np.ndarray,
        actions: np.ndarray,
        returns: np.ndarray,
        *,
        lr: float,
        entropy: float,
        value_weight: float = 0.5,
        clip: float = 1.0,
    ) -> dict[str, float]:
        """One Adam step of REINFORCE with the value head as baseline, on a batch of
        decisions (``returns`` is each decision's episode return)."""
        p = self.params
        n = len(actions)
        h, z = hidden_and_logits(p, x, mask)
        prob = softmax(z, mask)
        value = h @ p["wv"] + p["bv"][0]
        advantage = returns - value  # the baseline: no gradient flows through it here
        rows = np.arange(n)
        logp = np.log(np.where(mask & (prob > 0), prob, 1.0))  # an underflowed 0 adds 0
        ent = -(prob * logp).sum(axis=1)
        # d(-advantage * log p[a] - entropy * H) / dz, averaged over the batch
        gz = prob.copy()
        gz[rows, actions] -= 1.0
        gz *= advantage[:, None]
        gz += entropy * prob * (logp + ent[:, None])
        gz *= mask
        gz /= n
        gv = value_weight * 2.0 * (value - returns) / n
        grads = {"w2": h.T @ gz, "b2": gz.sum(axis=0), "wv": h.T @ gv, "bv": gv.sum(keepdims=True)}
        gh = (gz @ p["w2"].T + np.outer(gv, p["wv"])) * (h > 0)
        grads["w1"] = x.T @ gh
        grads["b1"] = gh.sum(axis=0)
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, clip / (norm + 1e-12))
        self.steps += 1
        for k, grad in grads.items():
            m, v = self.moments[k]
            g = grad.astype(np.float32) * scale
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mh = m / (1 - 0.9**self.steps)
            vh = v / (1 - 0.999**self.steps)
            p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return {
            "value_loss": float(((value - returns) ** 2).mean()),
            "entropy": float(ent.mean()),
            "grad_norm": norm,
        }


def hidden_and_logits(p: Params, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
    z = h @ p["w2"] + p["b2"]
    return h, np.where(mask, z, -1e9)


def softmax(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True)) * mask
    return e / e.sum(axis=-1, keepdims=True)


def choose(p: Params, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> int:
    """An action id for one observation: sampled from the policy (``rng``) or its most
    probable legal action (``rng=None``)."""
    _, z = hidden_and_logits(p, x[None, :], mask[None, :])
    if rng is None:
        return int(z[0].argmax())
    prob = softmax(z, mask[None, :])[0].astype(np.float64)
    return int(rng.choice(len(prob), p=prob / prob.sum()))


class SnapshotAgent:
    """An opponent for the environment: a frozen snapshot of the learner.

    It is an xtarot agent, so the environment hands it its own seat's ``Decision``
    only; it encodes the view exactly as the environment encodes the learner's
    observation and samples from the snapshot's softmax over the legal moves.
    ``params`` is swapped between episodes.
    """

    name = "snapshot"
    reads_view_only = True

    def __init__(self, game: xtarot.Game, params: Params, seed: int) -> None:
        self.encoder = encoder_for(game)
        self.actions = game.num_actions
        self.params = params
        self.rng = np.random.default_rng(seed)
        self._x = np.zeros(self.encoder.size, np.float32)

    def act(self, decision: Decision) -> Action:
        self.encoder.encode_into(decision.view, self._x)
        mask = np.zeros(self.actions, bool)
        by_id = {a.id: a for a in decision.legal}
        mask[list(by_id)] = True
        return by_id[choose(self.params, self._x, mask, self.rng)]

    def explain(self) -> None:
        return None


def win_share(info: dict[str, Any], seat: int) -> float:
    winners = info["scores"]["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def evaluate(
    game_id: str,
    players: int,
    options: dict[str, Any],
    pick: Callable[[XtarotGymEnv, dict[str, np.ndarray]], int],
    opponent: str,
    seeds: Sequence[int],
) -> float:
    """The share of wins (ties split) of ``pick`` at a rotating seat against
    ``opponent`` bots, on the deals of ``seeds`` (the same deals for every caller)."""
    envs = [
        XtarotGymEnv(game_id, players, seat=s, opponents=opponent, on_illegal="raise", **options)
        for s in range(players)
    ]
    won = 0.0
    for i, seed in enumerate(seeds):
        env = envs[i % players]
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, info = env.step(pick(env, obs))
        won += win_share(info, env.seat)
    return won / len(seeds)


def interval(share: float, matches: int) -> float:
    """Half the width of a normal-approximation 95% interval of a share."""
    return 1.96 * math.sqrt(max(share * (1 - share), 0.0) / max(matches, 1))


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        epilog="The method and what the numbers mean: the script's docstring and docs/agents.md.",
    )
    parser.add_argument("--game", default="arcana-duel", help="the game id")
    parser.add_argument("-p", "--players", type=int, default=2, help="player count")
    parser.add_argument("--episodes", type=int, default=4000, help="training episodes")
    parser.add_argument("--eval-every", type=int, default=1000, help="episodes between checkpoints")
    parser.add_argument("--matches", type=int, default=200, help="held-out matches per opponent")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units")
    parser.add_argument("--batch", type=int, default=16, help="episodes per update")
    parser.add_argument("--lr", type=float, default=1e-2, help="Adam's learning rate")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus weight")
    parser.add_argument(
        "--snapshot-every", type=int, default=200, help="episodes between snapshots"
    )
    parser.add_argument("--pool", type=int, default=5, help="frozen snapshots kept")
    parser.add_argument("--seed", type=int, default=0, help="seeds everything")
    parser.add_argument("--no-references", action="store_true", help="skip the reference rows")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run (about 20 s): 32 episodes, 16 hidden units, 4 matches per checkpoint",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.episodes, args.eval_every, args.matches = 32, 16, 4
        args.hidden, args.batch, args.snapshot_every = 16, 8, 16
    options: dict[str, Any] = {}
    game = xtarot.load(args.game, players=args.players, **options)
    n = game.players
    rng = np.random.default_rng(args.seed)
    eval_seeds = [
        2 * int(s) + 1
        for s in np.random.default_rng([args.seed, 1]).integers(0, 2**40, args.matches)
    ]
    size = encoder_for(game).size
    policy = Policy(size, game.num_actions, args.hidden, rng)
    initial = policy.snapshot()
    pool = [policy.snapshot()]
    opponents = {
        s: [SnapshotAgent(game, pool[0], int(rng.integers(2**31))) for _ in range(n - 1)]
        for s in range(n)
    }
    envs = [
        XtarotGymEnv(args.game, n, seat=s, opponents=opponents[s], on_illegal="raise", **options)
        for s in range(n)
    ]
    print(
        f"{args.game}, {n} players: observation {size} floats, {game.num_actions} action ids; "
        f"policy {args.hidden} hidden units; {args.episodes} self-play episodes, a checkpoint "
        f"every {args.eval_every} ({args.matches} held-out matches per opponent, fair share "
        f"{1 / n:.3f})",
        flush=True,
    )

    def greedy(env: XtarotGymEnv, obs: dict[str, np.ndarray]) -> int:
        return choose(policy.params, obs["observation"], obs["action_mask"].astype(bool), None)

    references: dict[str, dict[str, float]] = {}
    if not args.no_references:
        ref_rng = np.random.default_rng([args.seed, 2])

        def uniform(env: XtarotGymEnv, obs: dict[str, np.ndarray]) -> int:
            return int(ref_rng.choice(np.flatnonzero(obs["action_mask"])))

        heuristic = make_agent("heuristic", args.seed)

        def heuristic_move(env: XtarotGymEnv, obs: dict[str, np.ndarray]) -> int:
            # a reference row only: the heuristic reads its seat's Decision (its view)
            assert env.state is not None
            return heuristic.act(decision_for(env.state)).id

        for label, pick in (("uniform random", uniform), ("heuristic", heuristic_move)):
            references[label] = {
                opp: evaluate(args.game, n, options, pick, opp, eval_seeds)
                for opp in ("random", "normal")
            }
            r = references[label]
            print(
                f"reference, {label} in the same seats and deals: against random "
                f"{r['random']:.3f}, against normal {r['normal']:.3f}",
                flush=True,
            )

    started = time.perf_counter()
    curve: list[dict[str, float]] = []
    batch: dict[str, list[Any]] = {"x": [], "mask": [], "action": [], "return": []}
    recent: list[float] = []
    stats: dict[str, float] = {}

    evaluating = 0.0  # seconds spent in checkpoints, left out of the training time

    def checkpoint(episodes: int) -> None:
        nonlocal evaluating
        t0 = time.perf_counter()
        train_minutes = (t0 - started - evaluating) / 60
        row = {
            "episodes": float(episodes),
            "minutes": train_minutes,
            **{
                opp: evaluate(args.game, n, options, greedy, opp, eval_seeds)
                for opp in ("random", "normal")
            },
            "self_play_return": float(np.mean(recent)) if recent else float("nan"),
            "entropy": stats.get("entropy", float("nan")),
        }
        curve.append(row)
        evaluating += time.perf_counter() - t0
        if len(curve) == 1:
            print(" episodes  training min  vs random        vs normal        entropy", flush=True)
        shares = "     ".join(
            f"{row[opp]:.3f} ±{interval(row[opp], args.matches):.3f}"
            for opp in ("random", "normal")
        )
        print(
            f"{episodes:9d}  {train_minutes:12.1f}  {shares}     {row['entropy']:.3f}", flush=True
        )

    checkpoint(0)
    for episode in range(1, args.episodes + 1):
        seat = (episode - 1) % n
        for agent in opponents[seat]:
            agent.params = pool[int(rng.integers(len(pool)))]
        env = envs[seat]
        obs, _ = env.reset(seed=2 * int(rng.integers(0, 2**40)))
        steps = 0
        done = False
        reward: float = 0.0
        while not done:
            x = obs["observation"].astype(np.float32)
            mask = obs["action_mask"].astype(bool)
            action = choose(policy.params, x, mask, rng)
            batch["x"].append(x)
            batch["mask"].append(mask)
            batch["action"].append(action)
            steps += 1
            obs, reward, done, _, _ = env.step(action)
        batch["return"].extend([float(reward)] * steps)
        recent.append(float(reward))
        if episode % args.batch == 0 and batch["action"]:
            stats = policy.update(
                np.stack(batch["x"]),
                np.stack(batch["mask"]),
                np.asarray(batch["action"]),
                np.asarray(batch["return"], np.float32),
                lr=args.lr,
                entropy=args.entropy,
            )
            batch = {k: [] for k in batch}
        if episode % args.snapshot_every == 0:
            pool.append(policy.snapshot())
            del pool[: -args.pool]
        if episode % args.eval_every == 0 or episode == args.episodes:
            checkpoint(episode)
            recent = []
    minutes = (time.perf_counter() - started) / 60
    print(
        f"done in {minutes:.1f} min: training {minutes - evaluating / 60:.1f}, "
        f"checkpoints {evaluating / 60:.1f}",
        flush=True,
    )
    changed = any(not np.array_equal(initial[k], v) for k, v in policy.params.items())
    finite = all(bool(np.isfinite(v).all()) for v in policy.params.values())
    return {
        "curve": curve,
        "references": references,
        "params": policy.params,
        "changed": changed,
        "finite": finite,
        "minutes": minutes,
    }


if __name__ == "__main__":
    main(sys.argv[1:])
