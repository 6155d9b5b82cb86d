"""Golden fingerprints: seeded random matches of all six games must not change.

For every game, player count and option that changes play, a few dozen seeded
matches are played by a seeded ``random.Random`` choosing among
``legal_actions()``.  Everything a caller can observe is folded into one SHA-256
digest per case: at every step the seat to act, the legal action ids (in order)
and how the chosen action appears to every seat (``action_seen_by``); at a few
checkpoints every seat's ``view``, the ``public_view``, the ``legal_action_mask``,
the running ``scores``, the error text of a few illegal actions, a clone played
out with ``random_playout`` and, for some seeds, worlds from ``sample_world``
(their deals, history and the sampling seat's view); at the end the history,
``scores`` and ``record``.

A speed-up must keep every digest.  When behaviour changes on purpose (a rules fix,
a new view field), regenerate the table with ``python tests/test_golden.py`` and
say in the commit which cases changed and why.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import pytest

import xtarot

#: steps (decision indices) at which the full checkpoint is recorded.
CHECKPOINTS = frozenset({0, 3, 17, 60, 150, 400})
#: of these, the steps where worlds are sampled and a clone is played out.
DEEP = frozenset({17, 150})
#: worlds are sampled for seeds divisible by this.
WORLD_EVERY = 5
ILLEGAL_PROBES = 3

CHI_DRAWS: dict[str, Any] = {"chi_extension_draws": True, "hands": 3}

#: (case id, game id, players, options, number of seeds)
CASES: list[tuple[str, str, int, dict[str, Any], int]] = [
    ("arcana-duel/2", "arcana-duel", 2, {}, 50),
    *((f"extendori/{n}", "extendori", n, {}, 20) for n in range(3, 9)),
    ("extendori/3/deck=111", "extendori", 3, {"deck": 111}, 8),
    ("extendori/4/teams=pairs", "extendori", 4, {"teams": "pairs"}, 8),
    ("extendori/6/teams=halves", "extendori", 6, {"teams": "halves"}, 6),
    ("extendori/7/single_deal", "extendori", 7, {"single_deal": True}, 6),
    ("extendori/3/between_hands=keep", "extendori", 3, {"between_hands": "keep"}, 8),
    (
        "extendori/4/reseat,target=30",
        "extendori",
        4,
        {"reseat_each_hand": True, "target_score": 30},
        6,
    ),
    *((f"fairy500/{n}", "fairy500", n, {}, 30) for n in range(3, 9)),
    ("fairy500/4/pairs", "fairy500", 4, {"pairs": True}, 20),
    ("fairy500/5/classical", "fairy500", 5, {"classical": True}, 20),
    ("fairy500/3/all_pass=redeal", "fairy500", 3, {"all_pass": "redeal"}, 20),
    ("fairy500/6/all_pass=ten_per_trick", "fairy500", 6, {"all_pass": "ten_per_trick"}, 20),
    ("fairy500/4/hands=3", "fairy500", 4, {"hands": 3}, 20),
    *((f"grail-mahjong/{n}", "grail-mahjong", n, {}, 30) for n in range(2, 5)),
    *(
        (f"grail-mahjong/{n}/chi_extension_draws", "grail-mahjong", n, CHI_DRAWS, 20)
        for n in range(2, 5)
    ),
    ("grail-mahjong/3/hands=1", "grail-mahjong", 3, {"hands": 1}, 30),
    *((f"matto/{n}", "matto", n, {}, 50) for n in range(3, 6)),
    *((f"sono-arcana/{n}", "sono-arcana", n, {}, 50) for n in range(3, 6)),
    ("sono-arcana/4/teams", "sono-arcana", 4, {"teams": True}, 30),
]

#: The expected digests (first 16 hex digits of SHA-256), one per case.
GOLDEN: dict[str, str] = {
    "arcana-duel/2": "d9341d5fa3d55c6e",
    "extendori/3": "78549a7fb6512a09",
    "extendori/4": "3f40b20348a00183",
    "extendori/5": "1f9f8701998061c2",
    "extendori/6": "ab1c473ad44a3732",
    "extendori/7": "fbf57df5726a27b7",
    "extendori/8": "8a3689fdb9c5479d",
    "extendori/3/deck=111": "03d6cc61dbe89380",
    "extendori/4/teams=pairs": "1b994bd5b295eaa4",
    "extendori/6/teams=halves": "d084a2e82957487c",
    "extendori/7/single_deal": "ccc8577fa8f4dee2",
    "extendori/3/between_hands=keep": "6eb07271cba886bf",
    "extendori/4/reseat,target=30": "b4a21c4e2102fc2d",
    "fairy500/3": "074ff18973b7c84c",
    "fairy500/4": "f98ce7194fe4405a",
    "fairy500/5": "6bd0bfd890eaeb70",
    "fairy500/6": "cf240d9568e5fdd6",
    "fairy500/7": "058d68e65ea367b6",
    "fairy500/8": "657be6bd9a621ee2",
    "fairy500/4/pairs": "8c87024731f3e5be",
    "fairy500/5/classical": "fc2468aee28033cd",
    "fairy500/3/all_pass=redeal": "3320c066142b0f75",
    "fairy500/6/all_pass=ten_per_trick": "c05bfe9bfef5ec88",
    "fairy500/4/hands=3": "10790267a8197bb4",
    "grail-mahjong/2": "837ee0738033cae4",
    "grail-mahjong/3": "5f8076fa902e87b4",
    "grail-mahjong/4": "056809b331491d50",
    "grail-mahjong/2/chi_extension_draws": "b0c575186506b5dc",
    "grail-mahjong/3/chi_extension_draws": "11143f3177943c0b",
    "grail-mahjong/4/chi_extension_draws": "db7c3047e2eed132",
    "grail-mahjong/3/hands=1": "8c2f65859dee513b",
    "matto/3": "9acd5472b118f011",
    "matto/4": "16064d721feb27c8",
    "matto/5": "efd4b61c1afb7e2a",
    "sono-arcana/3": "cd94466a457f480b",
    "sono-arcana/4": "f0bad188de61ca9b",
    "sono-arcana/5": "77192697b4aad216",
    "sono-arcana/4/teams": "1f1203a1e64b3e1c",
}


def _checkpoint(
    state: xtarot.State, seed: int, step: int, deep: bool, with_worlds: bool
) -> dict[str, Any]:
    """Everything observable about ``state`` now (it is left unchanged)."""
    n = state.players
    legal = state.legal_actions()
    mask = state.legal_action_mask()
    point: dict[str, Any] = {
        "step": step,
        "views": [state.view(s) for s in range(n)],
        "public": state.public_view(),
        "mask": [len(mask), [i for i, m in enumerate(mask) if m]],
        "scores": state.scores().to_dict(),
    }
    legal_ids = {a.id for a in legal}
    probe = random.Random(seed * 1_000 + step)
    illegal = [i for i in range(state.game.num_actions) if i not in legal_ids]
    errors = []
    for aid in probe.sample(illegal, min(ILLEGAL_PROBES, len(illegal))):
        try:
            state.apply(aid)
        except xtarot.IllegalAction as err:
            errors.append([aid, str(err), err.legal])
        else:  # pragma: no cover - a failure shows up as a changed digest
            errors.append([aid, "accepted"])
    point["illegal"] = errors
    if deep:
        twin = state.clone()
        done = twin.random_playout(random.Random(seed + step))
        point["playout"] = [done, [a.text for a in twin.history], twin.scores().to_dict()]
    if with_worlds:
        worlds = []
        seats = sorted({state.current_player or 0, ((state.current_player or 0) + 1) % n})
        for s in seats:
            world = state.sample_world(s, random.Random(seed * 31 + s))
            worlds.append(
                [s, world.deals, [a.text for a in world.history], world.view(s),
                 [a.id for a in world.legal_actions()]]
            )  # fmt: skip
        point["worlds"] = worlds
    return point


def play_one(game: xtarot.Game, seed: int) -> list[Any]:
    """The observations of one seeded random match, as JSON data."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed * 7_919 + 1)
    seats: tuple[int | None, ...] = (*range(game.players), None)
    out: list[Any] = []
    step = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        if step in CHECKPOINTS:
            deep = step in DEEP
            out.append(_checkpoint(state, seed, step, deep, deep and seed % WORLD_EVERY == 0))
        action = legal[rng.randrange(len(legal))]
        out.append(
            [state.current_player, [a.id for a in legal],
             [state.action_seen_by(action, s) for s in seats]]
        )  # fmt: skip
        state.apply(action)
        step += 1
    out.append([[a.text for a in state.history], state.scores().to_dict(), state.record()])
    out.append(_checkpoint(state, seed, step, False, False))
    return out


def fingerprint(game_id: str, players: int, options: dict[str, Any], seeds: int) -> str:
    """The digest of ``seeds`` seeded random matches of one configuration."""
    game = xtarot.load(game_id, players=players, **options)
    digest = hashlib.sha256()
    for seed in range(seeds):
        data = json.dumps(play_one(game, seed), sort_keys=True, ensure_ascii=False)
        digest.update(data.encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(
    ("case", "game_id", "players", "options", "seeds"), CASES, ids=[c[0] for c in CASES]
)
def test_seeded_matches_are_unchanged(
    case: str, game_id: str, players: int, options: dict[str, Any], seeds: int
) -> None:
    got = fingerprint(game_id, players, options, seeds)
    assert got == GOLDEN.get(case), (
        f"{case}: seeded play changed (digest {got}, expected {GOLDEN.get(case)}); if that is "
        "intended, regenerate the table with `python tests/test_golden.py`"
    )


def test_every_game_has_a_case() -> None:
    assert {c[1] for c in CASES} == {info.id for info in xtarot.games()}
    assert set(GOLDEN) == {c[0] for c in CASES}


if __name__ == "__main__":  # print the table of digests, to paste into GOLDEN
    for case, game_id, players, options, seeds in CASES:
        print(f'    "{case}": "{fingerprint(game_id, players, options, seeds)}",')
        sys.stdout.flush()
