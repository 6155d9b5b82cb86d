"""Cost per step through the OpenSpiel and PettingZoo adapters, next to the native API.

For every game (default: each at its smallest player count, with its ``bulk_options``,
i.e. one hand of a multi-hand match) seeded random games are played in the same run
through three loops, each with a time box:

- **native**: ``legal = state.legal_actions(); state.apply(legal[k])``;
- **openspiel**: ``state.legal_actions(); state.apply_action(a)`` on the registered
  ``xtarot_<id>`` game (the seed's chance nodes count in the time, not as steps);
- **os_tensor**: the same plus ``information_state_tensor(player)`` every step (called
  from Python, which ``XtarotState`` answers itself, building the list directly);
- **os_tensor_own**: the same through OpenSpiel's own path,
  ``pyspiel.State.information_state_tensor(state, player)`` (what C++ code gets: the
  observer fills its buffer, plus OpenSpiel's fixed costs per call); ``--own-path``;
- **pettingzoo**: ``obs = env.last()[0]`` (tensor + mask of the agent to act) and
  ``env.step(a)`` with ``a`` drawn from the mask;
- **pz_no_tensor** (``--split``): the same with every tensor a copy of one constant
  array, so what is left is the AEC calls, the mask and drawing from it: the part of a
  PettingZoo step that no tensor work can take away.

Once per run, as the yardstick for the tensor loop, OpenSpiel's own C++ ``hearts``
runs the **os_tensor** loop (``information_state_tensor(player)`` + ``apply_action``
per player step, its chance nodes not counted as steps); ``os_tensor`` is reported
both as a ratio to native and to that C++ step (issue #18: target at most 2x).

Reported: µs per step (a step is one player decision) and the ratios.  A loop whose
package is missing is skipped with the install hint.  Each loop's time box is split
into ``--rounds`` slices run in turn (native, openspiel, ..., then native again), so a
machine that speeds up or slows down during the run (a shared or throttled one) weighs
on every loop alike; a loop's figure is the median of its slices and a ratio the median
of the slices' ratios (native and the loop timed in the same round).

    PYTHONPATH=src python benchmarks/bench_adapters.py [--seconds 1.0] [--rounds 5]
        [--games matto ...] [--json] [--own-path] [--split]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
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


def _hearts(seconds: float) -> float:
    """µs per player step of C++ hearts: ``information_state_tensor`` + ``apply_action``."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return (time.perf_counter() - start) / max(steps, 1) * 1e6


def _openspiel(
    observe: bool, own_path: bool = False
) -> Callable[[str, int, dict[str, Any], float], float]:
    import pyspiel

    from xtarot.adapters.openspiel import short_name

    tensor = pyspiel.State.information_state_tensor if own_path else None

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
                if tensor is not None:
                    tensor(state, state.current_player())
                elif observe:
                    state.information_state_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return (time.perf_counter() - start) / max(steps, 1) * 1e6

    return run


def _pettingzoo(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
    return _pz_loop(game_id, players, options, seconds, tensor=True)


def _pz_no_tensor(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
    return _pz_loop(game_id, players, options, seconds, tensor=False)


def _pz_loop(
    game_id: str, players: int, options: dict[str, Any], seconds: float, *, tensor: bool
) -> float:
    import numpy as np

    from xtarot.adapters.pettingzoo import env

    e = env(game_id, players=players, **options)
    if not tensor:  # every observation a fresh copy of one constant tensor
        constant = np.zeros(e.encoder.size, np.float32)
        e._tensors.observe = lambda state, seat: constant.copy()  # type: ignore[method-assign]
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
            # the mask's 0/1 bytes read as booleans: numpy's nonzero over int8 takes
            # several µs on grail-mahjong's 2,909 actions, over bool well under one
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return (time.perf_counter() - start) / max(steps, 1) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time box per loop")
    parser.add_argument(
        "--rounds", type=int, default=5, help="slices of each time box, run in turn (default 5)"
    )
    parser.add_argument("--games", nargs="*", help="game ids (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON rows")
    parser.add_argument(
        "--own-path",
        action="store_true",
        help="also time the tensor step through OpenSpiel's own path (os_tensor_own)",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="also time the PettingZoo step with a constant tensor (pz_no_tensor)",
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    rounds = args.rounds
    piece = args.seconds / rounds

    Loop = Callable[[str, int, dict[str, Any], float], float]
    loops: dict[str, Loop | str] = {"native": _native}
    hearts: float | str
    try:
        loops["openspiel"] = _openspiel(False)
        loops["os_tensor"] = _openspiel(True)
        if args.own_path:
            loops["os_tensor_own"] = _openspiel(True, own_path=True)
        hearts = round(statistics.median(_hearts(piece) for _ in range(rounds)), 1)
    except ImportError:
        loops["openspiel"] = loops["os_tensor"] = 'skipped: pip install "xtarot[openspiel]"'
        if args.own_path:
            loops["os_tensor_own"] = loops["openspiel"]
        hearts = loops["openspiel"]
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401

        loops["pettingzoo"] = _pettingzoo
        if args.split:
            loops["pz_no_tensor"] = _pz_no_tensor
    except ImportError:
        loops["pettingzoo"] = 'skipped: pip install "xtarot[pettingzoo]"'
        if args.split:
            loops["pz_no_tensor"] = loops["pettingzoo"]

    from xtarot.adapters import compiled

    built = compiled()  # the adapter modules running compiled (setup.py), if any
    rows = []
    for info in xtarot.games():
        if args.games and info.id not in args.games:
            continue
        options = dict(info.bulk_options)
        row: dict[str, Any] = {"game": info.id, "players": info.min_players, "options": options}
        row["compiled"] = built
        timed = {name: loop for name, loop in loops.items() if not isinstance(loop, str)}
        slices: dict[str, list[float]] = {name: [] for name in timed}
        for _ in range(rounds):
            for name, loop in timed.items():
                slices[name].append(loop(info.id, info.min_players, options, piece))
        for name, loop in loops.items():
            row[name] = loop if isinstance(loop, str) else round(statistics.median(slices[name]), 1)
        row["hearts_cpp_tensor"] = hearts
        # per loop, the median over the rounds of (its time / native's in the same round)
        row["x_native"] = {
            name: round(
                statistics.median(a / b for a, b in zip(v, slices["native"], strict=True)), 2
            )
            for name, v in slices.items()
            if name != "native"
        }
        rows.append(row)

    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(
        f"{'game':<15} {'n':>2} {'native µs':>10} {'openspiel µs':>13} {'×':>5}"
        f" {'os+tensor µs':>13} {'×':>5} {'×hearts':>7} {'pettingzoo µs':>14} {'×':>5}"
    )

    def cell(v: Any, base: Any) -> tuple[str, str]:
        if isinstance(v, float) and isinstance(base, float):
            return f"{v:.1f}", f"{v / base:.1f}"
        return "-", "-"

    def paired(row: dict[str, Any], name: str) -> tuple[str, str]:
        x = row["x_native"].get(name)
        return (f"{row[name]:.1f}", f"{x:.1f}") if x is not None else ("-", "-")

    for row in rows:
        nat = row["native"]
        os_, os_x = paired(row, "openspiel")
        ten, ten_x = paired(row, "os_tensor")
        _, ten_h = cell(row["os_tensor"], row["hearts_cpp_tensor"])
        pz, pz_x = paired(row, "pettingzoo")
        print(
            f"{row['game']:<15} {row['players']:>2} {nat:>10.1f} {os_:>13} {os_x:>5}"
            f" {ten:>13} {ten_x:>5} {ten_h:>7} {pz:>14} {pz_x:>5}"
        )
    if args.own_path:
        for row in rows:
            own, own_h = cell(row["os_tensor_own"], row["hearts_cpp_tensor"])
            print(
                f"{row['game']}: tensor step through OpenSpiel's own path {own} µs, ×hearts {own_h}"
            )
    if args.split:
        for row in rows:
            bare, bare_x = paired(row, "pz_no_tensor")
            _, full_x = paired(row, "pettingzoo")
            print(
                f"{row['game']}: PettingZoo step with a constant tensor {bare} µs, × native"
                f" {bare_x} (with the tensor × {full_x})"
            )
    if isinstance(hearts, float):
        print(f"C++ hearts, information_state_tensor + apply_action: {hearts:.1f} µs per step")
    print(
        f"compiled adapter modules: {', '.join(built)}"
        if built
        else "compiled adapter modules: none (pure Python)"
    )
    for name, loop in loops.items():
        if isinstance(loop, str):
            print(f"{name}: {loop}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
