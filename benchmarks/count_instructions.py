"""Instructions a random decision or an ISMCTS iteration costs, counted by callgrind.

On a machine shared with other jobs, timings of the same code move by 10-30% from run
to run, CPU time included; an instruction count does not move at all, so it tells
whether a change made the play-outs or the search leaner (not how fast they run:
that depends on how the instructions use the processor).  Run under valgrind, which
counts only inside ``functools.reduce``, so Python's start-up and imports are left out::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \\
        --toggle-collect=functools_reduce \\
        python benchmarks/count_instructions.py playouts fairy500 3 30
    valgrind ... python benchmarks/count_instructions.py ismcts 300

``playouts GAME PLAYERS GAMES`` plays seeded random matches through the public API (the
loop of ``bench_playouts.py``) and prints the decisions played; ``heuristic GAME PLAYERS
GAMES`` plays seeded heuristic play-outs instead (the loop of ``bench_speed.py``: single
hands where the game has them, every seat the heuristic, views peeked); ``lab GAME PLAYERS
GAMES`` runs the lab's ``seats`` study with heuristic players on one worker (the study
of ``bench_speed.py``: single hands where the game has them), everything the lab does
per match and per study included, and prints the matches; ``ismcts ITERATIONS``
searches the fairy500 4-player opening of ``bench_bots.py`` and prints its move.
Divide callgrind's "Collected" count by the decisions, the matches or the iterations
(the same seeds give the same games and searches, so two versions of the code are
compared on the same work).  Without valgrind the script just runs.
"""

from __future__ import annotations

import functools
import random
import sys

import xtarot
from xtarot.agents import Decision, ISMCTSAgent, decision_for
from xtarot.agents.heuristic import HeuristicAgent


def playouts(game_id: str, players: int, games: int) -> int:
    game = xtarot.load(game_id, players=players)
    rng = random.Random(7)

    def play(done: int, seed: int) -> int:
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            done += 1
        return done

    play(0, 10**6)  # a first match outside the count (caches, tables)
    return functools.reduce(play, range(games), 0)


def heuristic(game_id: str, players: int, games: int) -> int:
    info = next(i for i in xtarot.games() if i.id == game_id)
    game = xtarot.load(game_id, players=players, **dict(info.bulk_options))

    def play(done: int, seed: int) -> int:
        state = game.new_state(seed=seed)
        bots = [HeuristicAgent(seed * 10 + s) for s in range(players)]
        while not state.is_terminal:
            seat = state.current_player
            view = state.peek_view(seat)
            state.apply(bots[seat].act(Decision(seat, view, state.legal_actions(), _no_world)))
            done += 1
        return done

    play(0, 10**6)  # a first match outside the count (caches, tables)
    return functools.reduce(play, range(games), 0)


def lab(game_id: str, players: int, games: int) -> int:
    from xtarot.lab import run_seats

    info = next(i for i in xtarot.games() if i.id == game_id)
    options = dict(info.bulk_options)

    def study(done: int, seed: int) -> int:
        run_seats(game=game_id, players=players, games=games, seed=seed, workers=1,
                  options=options)  # fmt: skip
        return done + games

    study(0, 2)  # a first study outside the count (imports, caches, tables)
    return functools.reduce(study, [1], 0)


def _no_world(rng: random.Random) -> xtarot.State:
    raise RuntimeError("heuristics never sample worlds")


def ismcts(iterations: int) -> str:
    info = next(i for i in xtarot.games() if i.id == "fairy500")
    game = xtarot.load("fairy500", players=4, **dict(info.bulk_options))
    state = game.new_state(seed=1)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    ISMCTSAgent(seed=2, iterations=50).act(decision_for(state))  # outside the count
    bot = ISMCTSAgent(seed=1, iterations=iterations)
    move = functools.reduce(lambda _, __: bot.act(decision_for(state)), range(1), None)
    assert move is not None
    return move.text


def main(argv: list[str]) -> int:
    if argv[:1] == ["playouts"] and len(argv) == 4:
        print(f"decisions {playouts(argv[1], int(argv[2]), int(argv[3]))}")
        return 0
    if argv[:1] == ["heuristic"] and len(argv) == 4:
        print(f"decisions {heuristic(argv[1], int(argv[2]), int(argv[3]))}")
        return 0
    if argv[:1] == ["lab"] and len(argv) == 4:
        print(f"matches {lab(argv[1], int(argv[2]), int(argv[3]))}")
        return 0
    if argv[:1] == ["ismcts"] and len(argv) == 2:
        print(f"iterations {int(argv[1])} move {ismcts(int(argv[1]))}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
