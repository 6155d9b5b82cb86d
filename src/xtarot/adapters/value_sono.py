"""Hand-value models for sono-arcana: what is this lot worth to me as parent?

At the parent's two choices of a round — keep the lot to one talisman or turn up a
second (``lot 1`` / ``lot 2``), and bid for the lot or duck it (the heuristic's two
bids, :func:`~xtarot.agents.heuristic.sono_arcana.lot_moves`) — a :class:`LotModel`
predicts, from the parent's view (``state.view(seat)`` and nothing else:
:func:`view_features`) and one of the two answers, the parent's share of the match's
win after it.  ``xtarot train value sono-arcana -p N`` makes one (docs/agents.md, *The
hand-value model*).

The data are heuristic self-play matches: at each such choice both answers are applied
to a copy of the true position and the match finished by the heuristic in every seat
(the same seeds for both), the parent's win share there being the target.  Training,
evaluation and the file are those of the grail-mahjong claim model
(:mod:`xtarot.adapters.value_grail`), with these features.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

import numpy as np

from xtarot.adapters.training import derive_seed
from xtarot.adapters.value_grail import ClaimData, ClaimModel
from xtarot.engine import Game, State

__all__ = ["LotModel", "answer_features", "generate", "view_features"]

FORMAT = "xtarot-value-sono"
GAME = "sono-arcana"
#: the default of :attr:`LotModel.margin` (chosen on the held-out matches of the first
#: 4-player model among 0, 0.02, 0.05 and 0.1 of a win; docs/agents.md)
MARGIN = 0.02
ANSWERS = ("lot 1", "lot 2", "bid up", "bid down")
_SCALARS = 12
_TALISMANS = 24


def _derive(seed: int, *parts: object) -> int:
    return derive_seed("xtarot-value-sono", seed, *parts)


@cache
def _index(players: int) -> dict[str, int]:
    """This player count's card codes -> their place (the listing order)."""
    from xtarot.games.sono_arcana import bidding_set

    return {c.code: i for i, c in enumerate(bidding_set(players))}


def _score(talismans: list[str]) -> int:
    return _scored(tuple(talismans))


@lru_cache(maxsize=1 << 14)
def _scored(talismans: tuple[str, ...]) -> int:
    digits = [0] * 10
    for t in talismans:
        digits[int(t[1:]) % 10] += 1
    return sum(2 if k == 1 else -k for k in digits if k)


def view_features(view: dict[str, Any]) -> np.ndarray:
    """The parent's part of the input, from a sono-arcana view: the talismans I won,
    those the others won, those of the lot (each one-hot over the 24), my bidding cards
    (one-hot over this player count's), and a few numbers — the talismans left in the
    stack, my score and the best other's, what the lot adds to mine, the round, my
    cards left, the final round.  Nothing else is read."""
    players = int(view["players"])
    index = _index(players)
    t = _TALISMANS
    x = np.zeros(3 * t + len(index) + _SCALARS, dtype=np.float32)
    seat = int(view["seat"])
    on = [(0 if s == seat else t) + int(c[1:]) for s, won in enumerate(view["won"]) for c in won]
    on += [2 * t + int(c[1:]) for c in view["lot"]]
    on += [3 * t + index[c] for c in view["hand"]]
    x[on] = 1.0
    mine = _score(view["won"][seat])
    others = [_score(w) for s, w in enumerate(view["won"]) if s != seat]
    gain = _score([*view["won"][seat], *view["lot"]]) - mine
    at = 3 * t + len(index)
    x[at : at + _SCALARS] = (
        view["talismans_left"] / 24.0,
        mine / 10.0,
        max(others) / 10.0,
        (mine - max(others)) / 10.0,
        gain / 4.0,
        float(gain > 0),
        len(view["lot"]) / 2.0,
        view["round"] / 24.0,
        len(view["hand"]) / 16.0,
        float(bool(view["final_round"])),
        float(mine > max(others)),
        1.0,
    )
    return x


def answer_features(view: dict[str, Any], answer: str) -> np.ndarray:
    """One answer's part: which of ``lot 1``, ``lot 2``, a bid up, a bid down."""
    x = np.zeros(len(ANSWERS), dtype=np.float32)
    x[next(i for i, a in enumerate(ANSWERS) if answer.startswith(a))] = 1.0
    return x


class LotModel(ClaimModel):
    """A trained lot model: :class:`~xtarot.adapters.value_grail.ClaimModel` with
    sono-arcana's features."""

    game = GAME
    format = FORMAT
    what = "lot model"
    default_margin = MARGIN
    view_features = staticmethod(view_features)
    answer_features = staticmethod(answer_features)


def _answers(state: State) -> list[str] | None:
    """The parent's two answers at a choice the model decides, else ``None``."""
    from xtarot.agents.heuristic.sono_arcana import lot_moves

    legal = {a.text for a in state.legal_actions()}
    if "lot 1" in legal and "lot 2" in legal:
        return ["lot 1", "lot 2"]
    view = state.peek_view(state.current_player)  # type: ignore[arg-type]
    if view["phase"] == "bid":
        return list(lot_moves(view["hand"]))
    return None


def _win_share(state: State, seat: int) -> float:
    winners = state.scores().winners
    return 1 / len(winners) if seat in winners else 0.0


def answer_playouts(state: State, answers: list[str], seed: int) -> dict[str, float]:
    """Each of ``answers`` applied to a copy of the true position and the match
    finished by heuristics in every seat (the same seeds for each); the acting seat's
    win share after each."""
    from xtarot.agents import decision_for, make_agent

    seat = state.current_player
    assert seat is not None
    out = {}
    for text in answers:
        after = state.clone()
        after.apply(state.game.action(text))
        agents = [
            make_agent("heuristic", _derive(seed, "seat", s)) for s in range(after.game.players)
        ]
        while not after.is_terminal:
            who = after.current_player
            assert who is not None
            after.apply(agents[who].act(decision_for(after, peek=True)))
        out[text] = _win_share(after, seat)
    return out


def generate(
    game: Game,
    deals: int,
    seed: int,
    *,
    eval_deals: int = 0,
    on_deal: Callable[[int], None] | None = None,
) -> ClaimData:
    """``deals + eval_deals`` heuristic self-play matches; each parent's choice gives
    two rows (the last ``eval_deals`` matches held out); deterministic in ``seed``.
    ``claim`` marks the answers that reach for the lot (``lot 2``, a bid up)."""
    from xtarot.agents import decision_for, make_agent

    if game.id != GAME:
        raise ValueError(f"lot models are for {GAME}, not {game.id}")
    xs: list[np.ndarray] = []
    wins: list[float] = []
    dec: list[int] = []
    deal_no: list[int] = []
    chosen: list[bool] = []
    reach: list[bool] = []
    rounds = 0
    for k in range(deals + eval_deals):
        state = game.new_state(seed=_derive(seed, "deal", k))
        agents = [
            make_agent("heuristic", _derive(seed, "agent", k, s)) for s in range(game.players)
        ]
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            action = agents[seat].act(decision_for(state, peek=True))
            answers = _answers(state)
            if answers is not None and action.text in answers:
                view = state.view(seat)
                got = answer_playouts(state, answers, _derive(seed, "round", k, rounds))
                base = view_features(view)
                for text, win in got.items():
                    xs.append(np.concatenate([base, answer_features(view, text)]))
                    wins.append(win)
                    dec.append(rounds)
                    deal_no.append(k)
                    chosen.append(text == action.text)
                    reach.append(text in ("lot 2",) or text.startswith("bid up"))
                rounds += 1
            state.apply(action)
        if on_deal is not None:
            on_deal(k + 1)
    width = 3 * _TALISMANS + len(_index(game.players)) + _SCALARS + len(ANSWERS)
    return ClaimData(
        x=np.stack(xs) if xs else np.zeros((0, width), dtype=np.float32),
        win=np.asarray(wins, dtype=np.float32),
        decision=np.asarray(dec, dtype=np.int64),
        deal=np.asarray(deal_no, dtype=np.int64),
        chosen=np.asarray(chosen, dtype=bool),
        claim=np.asarray(reach, dtype=bool),
        first_held=deals,
    )
