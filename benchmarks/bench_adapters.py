"""Cost per step through the OpenSpiel and PettingZoo adapters, next to the native API.

For every game (default: each at its smallest player count, with its ``bulk_options``,
i.e. one hand of a multi-hand match) seeded random games are played in the same run
through three loops, each with a time box:

- **native**: ``legal = state.legal_actions(); state.apply(legal[k])``;
- **openspiel**: ``state.legal_actions(); state.apply_action(a)`` on the registered
  ``xtarot_<id>`` game (the seed's chance nodes count in the time, not as steps);
  with ``--observe`` also ``information_state_tensor(player)`` every step;
- **pettingzoo**: ``obs = env.last()[0]`` (tensor + mask of the agent to act) and
  ``env.step(a)`` with ``a`` drawn from the mask.

Reported: µs per step (a step is one player decision) and the ratio to native.  A
loop whose package is missing is skipped with the install hint.

    PYTHONPATH=src python benchmarks/bench_adapters.py [--seconds 1.0] [--games matto ...]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import xtarot


def _native(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
    game = xtarot.load(game_id, players=players, **options)
    rng = random.Random(0)
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return (time.perf_counter() - start) / max(steps, 1) * 1e6


def _openspiel(observe: bool) -> Callable[[str, int, dict[str, Any], float], float]:
    import pyspiel

    from xtarot.adapters.openspiel import short_name

    def run(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
        game = pyspiel.load_game(short_name(game_id), {"players": players, **options})
        rng = random.Random(0)
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.randrange(256))
                    continue
                if observe:
                    state.information_state_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return (time.perf_counter() - start) / max(steps, 1) * 1e6

    return run


def _pettingzoo(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
    from xtarot.adapters.pettingzoo import env

    e = env(game_id, players=players, **options)
    rng = random.Random(0)
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return (time.perf_counter() - start) / max(steps, 1) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time box per loop")
    parser.add_argument("--games", nargs="*", help="game ids (default: all)")
    parser.add_argument("--observe", action="store_true", help="OpenSpiel: also build tensors")
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    args = parser.parse_args(argv)

    loops: dict[str, Callable[[str, int, dict[str, Any], float], float] | str] = {"native": _native}
    try:
        loops["openspiel"] = _openspiel(args.observe)
    except ImportError:
        loops["openspiel"] = 'skipped: pip install "xtarot[openspiel]"'
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401

        loops["pettingzoo"] = _pettingzoo
    except ImportError:
        loops["pettingzoo"] = 'skipped: pip install "xtarot[pettingzoo]"'

    rows = []
    for info in xtarot.games():
        if args.games and info.id not in args.games:
            continue
        options = dict(info.bulk_options)
        row: dict[str, Any] = {"game": info.id, "players": info.min_players, "options": options}
        for name, loop in loops.items():
            row[name] = (
                loop
                if isinstance(loop, str)
                else round(loop(info.id, info.min_players, options, args.seconds), 1)
            )
        rows.append(row)

    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(
        f"{'game':<15} {'n':>2} {'native µs':>10} {'openspiel µs':>13} {'×':>5}"
        f" {'pettingzoo µs':>14} {'×':>5}"
    )
    for row in rows:
        nat = row["native"]
        cells = []
        for name in ("openspiel", "pettingzoo"):
            v = row[name]
            cells.append((f"{v:.1f}", f"{v / nat:.1f}") if isinstance(v, float) else ("-", "-"))
        print(
            f"{row['game']:<15} {row['players']:>2} {nat:>10.1f} {cells[0][0]:>13} "
            f"{cells[0][1]:>5} {cells[1][0]:>14} {cells[1][1]:>5}"
        )
    for name, loop in loops.items():
        if isinstance(loop, str):
            print(f"{name}: {loop}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
