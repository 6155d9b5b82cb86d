"""Hand-value models for grail-mahjong's claims: claim, and which claim, or pass?

At a claim round (鳴き), from the answering seat's view — read from
``state.view(seat)`` and nothing else (:func:`view_features`) — and one of its legal
answers (:func:`answer_features`), a :class:`ClaimModel` predicts the seat's share of
the hand's win after that answer.  ``xtarot train value grail-mahjong -p N``
(``xtarot.cli.train``) makes one; the documentation is in ``docs/agents.md`` (*The
hand-value model*, grail-mahjong).

The data are heuristic self-play hands (single hands).  At every claim round where the
seat to answer may claim, each of its legal answers (``pass`` and every claim) is
applied to a copy of the true position and the hand finished by the heuristic in every
seat, each reading its own view (the same heuristics, the same seeds, for every answer
of a round: the answers are compared on the same stock).  The seat's win share there
(a shared win split) is that answer's target — the hindsight of
``benchmarks/bench_bidding.py``.  The truth (other hands, the stock) is only ever used
by those play-outs, never as an input.

One hidden ReLU layer and a logistic output, Adam on the cross-entropy against the
win share, numpy only (the belief model's reasons, docs/agents.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from xtarot._version import __version__
from xtarot.adapters.modelfile import read_model, write_model
from xtarot.adapters.training import (
    TrainResult,
    derive_seed,
    fit_mean,
    he_layers,
    relu_grads,
    split_rows,
)
from xtarot.engine import Game, State

__all__ = [
    "FORMAT",
    "ClaimData",
    "ClaimModel",
    "answer_features",
    "evaluate",
    "generate",
    "metadata",
    "train_claims",
    "view_features",
]

FORMAT = "xtarot-value-grail"
FORMAT_VERSION = 1
GAME = "grail-mahjong"
#: the default of :attr:`ClaimModel.margin`: the win share an answer must be expected
#: to gain over the heuristic's before the bot plays it instead
MARGIN = 0.05
WILD = "Oc"
_SCALARS = 14
_ANSWER_SCALARS = 4


def _derive(seed: int, *parts: object) -> int:
    return derive_seed("xtarot-value-grail", seed, *parts)


@cache
def _index(players: int) -> dict[str, int]:
    """This player count's card codes -> their place (the listing order)."""
    from xtarot.games.grail_mahjong.actions import card_set

    return {c.code: i for i, c in enumerate(card_set(players))}


def _card(text: str) -> str:
    """The card of a meld's or an answer's word (the wild's meaning dropped)."""
    return WILD if text.startswith(WILD) else text


def _meld_score(melds: Sequence[dict[str, Any]], doubled: bool) -> int:
    score = sum((len(m["cards"]) - 2) ** 2 for m in melds)
    return 2 * score if doubled else score


def view_features(view: dict[str, Any]) -> np.ndarray:
    """The seat's part of the model's input, from a grail-mahjong claim-round view:
    its hand, the discard put to the claim, the cards face up (the pile, every meld,
    the areas), each one-hot over this player count's cards; and a few numbers — the
    stock left, my meld score and the best other seat's (doubled with ``Lc``), my
    melds, my hand's size and the smallest other one, ``Lc`` in my area or another's,
    how near I am after the discarder.  Nothing else is read."""
    players = int(view["players"])
    index = _index(players)
    n = len(index)
    x = np.zeros(3 * n + _SCALARS, dtype=np.float32)
    on = [index[c] for c in view["hand"]]
    claim = view.get("claim") or {}
    if claim.get("card") in index:
        on.append(n + index[claim["card"]])
    up = 2 * n
    on += [up + index[d["card"]] for d in view["discards"]]
    on += [up + index[_card(t)] for melds in view["melds"] for m in melds for t in m["cards"]]
    on += [up + index[c] for area in view["areas"] for c in area]
    x[on] = 1.0
    seat = int(view["seat"])
    areas = view["areas"]
    mine = _meld_score(view["melds"][seat], bool(areas[seat]))
    others = [_meld_score(view["melds"][s], bool(areas[s])) for s in range(players) if s != seat]
    sizes = [int(h) for s, h in enumerate(view["hand_sizes"]) if s != seat]
    near = (int(claim["seat"]) - seat) % players if claim else 0  # 1: next after it
    s = 3 * n
    x[s : s + _SCALARS] = (
        view["stock_count"] / 20.0,
        mine / 10.0,
        max(others) / 10.0,
        (mine - max(others)) / 10.0,
        float(mine > max(others)),
        len(view["melds"][seat]) / 3.0,
        len(view["hand"]) / 10.0,
        min(sizes) / 10.0,
        float(bool(areas[seat])),
        float(any(areas[o] for o in range(players) if o != seat)),
        float(near == 1),
        near / players,
        float(view["stock_count"] <= 3),
        1.0,
    )
    return x


def answer_features(view: dict[str, Any], answer: str) -> np.ndarray:
    """One answer's part of the input: the cards it takes from my hand (one-hot), and
    whether it passes, claims a pon or a chi, and spends the wild."""
    index = _index(int(view["players"]))
    x = np.zeros(len(index) + _ANSWER_SCALARS, dtype=np.float32)
    words = answer.split()
    if words[0] == "pass":
        x[len(index)] = 1.0
        return x
    own = words[2:]
    discard = (view.get("claim") or {}).get("card")
    wild_taken = discard == WILD
    for w in own:
        c = _card(w)
        if c == WILD and wild_taken:
            wild_taken = False  # the discarded wild, not one of mine
            continue
        x[index[c]] = 1.0
    x[len(index) + (1 if words[1] == "pon" else 2)] = 1.0
    x[len(index) + 3] = float(any(w.startswith(WILD) for w in own))
    return x


def features(view: dict[str, Any], answer: str) -> np.ndarray:
    """The whole input of one answer: :func:`view_features` then :func:`answer_features`."""
    return np.concatenate([view_features(view), answer_features(view, answer)])


def can_claim(view: dict[str, Any]) -> bool:
    return view.get("phase") == "claim" and any(
        t.startswith("claim") for t in view.get("legal_actions") or ()
    )


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


class ClaimModel:
    """A trained claim model (numpy weights and what made them).  Another game's
    answer model (sono-arcana's :class:`~xtarot.adapters.value_sono.LotModel`) is this
    class with its own ``game``, file format and features."""

    game = GAME
    format = FORMAT
    what = "claim model"
    #: the margin a model trained without one carries (see :attr:`margin`)
    default_margin = MARGIN
    view_features = staticmethod(view_features)
    answer_features = staticmethod(answer_features)

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.meta = meta
        self.w1 = arrays["w1"].astype(np.float32)
        self.b1 = arrays["b1"].astype(np.float32)
        self.w2 = arrays["w2"].astype(np.float32)
        self.b2 = arrays["b2"].astype(np.float32)
        #: the win share an answer must be expected to gain over the heuristic's own
        #: before the bot plays it instead
        self.margin = float(meta.get("margin", self.default_margin))
        #: the first layer split into the view's and the answer's rows (made on use)
        self._split: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None

    @property
    def players(self) -> int:
        return int(self.meta["players"])

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The expected win share of each row ``(rows,)``."""
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        return _sigmoid((h @ self.w2 + self.b2)[:, 0])

    def answer_values(self, view: dict[str, Any], answers: Sequence[str]) -> dict[str, float]:
        """The expected win share of the hand after each of ``answers`` (legal answers
        of this claim-round view)."""
        if int(view["players"]) != self.players:
            raise ValueError(
                f"this model is for {self.players} players, the view has {view['players']}"
            )
        base = self.view_features(view)
        cut = len(base)  # the view's part of the first layer once, then each answer's
        if self._split is None or self._split[0] != cut:
            w1 = self.w1
            self._split = (cut, w1[:cut].copy(), w1[cut:].copy(), self.w2[:, 0].copy())
        _, w_view, w_answer, w_out = self._split
        hidden = base @ w_view + self.b1
        extra = np.array([self.answer_features(view, a) for a in answers]) @ w_answer
        h = hidden + extra
        z = (np.maximum(h, 0.0, out=h) @ w_out).tolist()
        b = float(self.b2[0])
        return {
            a: 1.0 / (1.0 + math.exp(-min(max(v + b, -30.0), 30.0)))
            for a, v in zip(answers, z, strict=True)
        }

    def save(self, path: str | Path) -> int:
        """Write the model (``.npz``: float16 weights, the metadata as JSON); return
        the file's size in bytes."""
        arrays = {k: getattr(self, k).astype(np.float16) for k in ("w1", "b1", "w2", "b2")}
        return write_model(path, arrays, self.meta)

    @classmethod
    def load(cls, path: str | Path | Any) -> Any:
        """Read a model written by :meth:`save`; ``ValueError`` when it is not one."""
        return cls(*read_model(path, cls.what, cls.format, FORMAT_VERSION))


# -- data --------------------------------------------------------------------------------


@dataclass
class ClaimData:
    """Per (claim round, answer): the features, the win share after it, which round
    and deal it belongs to, and whether it is the heuristic's own answer."""

    x: np.ndarray  # (rows, features)
    win: np.ndarray  # (rows,) the seat's win share after the answer, 0..1
    decision: np.ndarray  # (rows,) the claim round's number
    deal: np.ndarray  # (rows,) the deal's number
    chosen: np.ndarray  # (rows,) bool: the heuristic's answer
    claim: np.ndarray  # (rows,) bool: a claim (not pass)
    first_held: int  # deals from this number on are held out


def _win_share(state: State, seat: int) -> float:
    results = state.public_view().get("results") or []
    winners = list(results[0].get("winners") or []) if results else []
    return 1 / len(winners) if seat in winners else 0.0


def _finish(state: State, seed: int) -> State:
    from xtarot.agents import decision_for, make_agent

    agents = [make_agent("heuristic", _derive(seed, "seat", s)) for s in range(state.game.players)]
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].act(decision_for(state, peek=True)))
    return state


def answer_playouts(state: State, seed: int) -> dict[str, float]:
    """For the claim round of ``state`` (the true position, the seat to answer): each
    legal answer applied and the hand finished by heuristics in every seat (the same
    seeds for every answer); the answering seat's win share after each."""
    seat = state.current_player
    assert seat is not None
    out = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        out[action.text] = _win_share(_finish(after, seed), seat)
    return out


def generate(
    game: Game,
    deals: int,
    seed: int,
    *,
    eval_deals: int = 0,
    on_deal: Callable[[int], None] | None = None,
) -> ClaimData:
    """``deals + eval_deals`` heuristic self-play hands; every claim round where the
    seat could claim gives a row per legal answer (the last ``eval_deals`` held out);
    deterministic in ``seed``."""
    from xtarot.agents import decision_for, make_agent

    if game.id != GAME:
        raise ValueError(f"claim models are for {GAME}, not {game.id}")
    if game.options.get("hands") != 1:
        raise ValueError("claim play-outs need single hands (option hands=1)")
    xs: list[np.ndarray] = []
    wins: list[float] = []
    dec: list[int] = []
    deal_no: list[int] = []
    chosen: list[bool] = []
    claims: list[bool] = []
    rounds = 0
    for k in range(deals + eval_deals):
        state = game.new_state(seed=_derive(seed, "deal", k))
        agents = [
            make_agent("heuristic", _derive(seed, "agent", k, s)) for s in range(game.players)
        ]
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            decision = decision_for(state, peek=True)
            action = agents[seat].act(decision)
            if decision.view["phase"] == "claim" and any(
                a.text.startswith("claim") for a in decision.legal
            ):
                view = state.view(seat)
                got = answer_playouts(state, _derive(seed, "round", k, rounds))
                base = view_features(view)
                for text, win in got.items():
                    xs.append(np.concatenate([base, answer_features(view, text)]))
                    wins.append(win)
                    dec.append(rounds)
                    deal_no.append(k)
                    chosen.append(text == action.text)
                    claims.append(text.startswith("claim"))
                rounds += 1
            state.apply(action)
        if on_deal is not None:
            on_deal(k + 1)
    width = 4 * len(_index(game.players)) + _SCALARS + _ANSWER_SCALARS
    return ClaimData(
        x=np.stack(xs) if xs else np.zeros((0, width), dtype=np.float32),
        win=np.asarray(wins, dtype=np.float32),
        decision=np.asarray(dec, dtype=np.int64),
        deal=np.asarray(deal_no, dtype=np.int64),
        chosen=np.asarray(chosen, dtype=bool),
        claim=np.asarray(claims, dtype=bool),
        first_held=deals,
    )


# -- evaluation --------------------------------------------------------------------------


def _picks(pred: np.ndarray, data: ClaimData, rows: np.ndarray, margin: float) -> dict[str, Any]:
    """Per claim round of ``rows``: the hindsight win share of the heuristic's answer,
    of the model's best answer, of the model's answer where it beats the heuristic's by
    more than ``margin`` (the bot's rule), of ``pass`` and of the best answer."""
    out: dict[str, list[float]] = {k: [] for k in ("heuristic", "model", "bot", "pass", "best")}
    changed = 0
    to_pass = 0
    order = np.argsort(data.decision[rows], kind="stable")
    rows = rows[order]
    bounds = np.flatnonzero(np.diff(data.decision[rows])) + 1
    for group in np.split(rows, bounds):
        if not len(group):
            continue
        p = pred[group]
        win = data.win[group]
        h = int(np.flatnonzero(data.chosen[group])[0])
        m = int(np.argmax(p))
        bot = m if p[m] - p[h] > margin else h
        changed += bot != h
        to_pass += bot != h and not data.claim[group][bot]
        out["heuristic"].append(float(win[h]))
        out["model"].append(float(win[m]))
        out["bot"].append(float(win[bot]))
        out["pass"].append(float(win[~data.claim[group]][0]))
        out["best"].append(float(win.max()))
    res: dict[str, Any] = {k: float(np.mean(v)) if v else float("nan") for k, v in out.items()}
    res["rounds"] = len(out["heuristic"])
    res["bot_changed"] = int(changed)
    res["bot_passed"] = int(to_pass)
    diff = np.asarray(out["bot"]) - np.asarray(out["heuristic"])
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
    res["bot_edge_ci95"] = [float(diff.mean() - half), float(diff.mean() + half)]
    return res


def evaluate(model: ClaimModel, data: ClaimData, rows: np.ndarray) -> dict[str, Any]:
    """Held-out figures: the log-loss of the model's win share against the training
    base rate's, and per claim round the hindsight win share of the answers chosen
    (the heuristic's, the model's best, the bot's rule at the model's margin, pass,
    the best in hindsight)."""
    pred = model.forward(data.x[rows]).astype(np.float64)
    y = data.win[rows].astype(np.float64)
    train = data.deal < data.first_held
    rate = float(np.clip(data.win[train].mean() if train.any() else 0.5, 1e-3, 1 - 1e-3))

    def bce(p: np.ndarray | float) -> float:
        p = np.clip(p, 1e-6, 1 - 1e-6)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    full = np.zeros(len(data.win))
    full[rows] = pred
    return {
        "rows": len(rows),
        "logloss": bce(pred),
        "base_logloss": bce(rate),
        "win_rate": float(y.mean()),
        "margin": model.margin,
        **_picks(full, data, rows, model.margin),
    }


# -- training ----------------------------------------------------------------------------


def train_claims(
    data: ClaimData,
    meta: dict[str, Any],
    *,
    epochs: int = 30,
    hidden_units: int = 64,
    batch: int = 256,
    lr: float = 1e-3,
    decay: float = 1e-4,
    margin: float | None = None,
    seed: int = 0,
    on_epoch: Callable[[int], None] | None = None,
    model_class: type[ClaimModel] = ClaimModel,
) -> TrainResult[ClaimModel]:
    """Train on the rows not held out (the last tenth of those deals validates; the
    epoch of lowest validation loss is kept), evaluate on the held-out rows.  Adam,
    one hidden ReLU layer; deterministic in ``seed``.  ``margin`` (the model's, see
    :attr:`ClaimModel.margin`): ``model_class.default_margin`` when not given."""
    start = time.perf_counter()
    if margin is None:
        margin = model_class.default_margin
    rows_train, rows_val, rows_held = split_rows(data.deal, data.first_held)
    rng = np.random.default_rng(seed)
    params = he_layers(rng, data.x.shape[1], hidden_units, 1)

    def loss_and_grads(rows: np.ndarray, grads: bool) -> tuple[float, dict[str, np.ndarray]]:
        x = data.x[rows]
        y = data.win[rows]
        h = np.maximum(x @ params["w1"] + params["b1"], 0.0)
        p = _sigmoid((h @ params["w2"] + params["b2"])[:, 0])
        loss = float(-np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))
        if not grads:
            return loss, {}
        d_out = ((p - y) / len(rows)).astype(np.float32)[:, None]
        return loss, relu_grads(x, h, d_out, params["w2"])

    kept, best_epoch, _, curve = fit_mean(
        params,
        loss_and_grads,
        rows_train,
        rows_val,
        rng,
        epochs=epochs,
        batch=batch,
        lr=lr,
        decay=decay,
        on_epoch=on_epoch,
    )
    weights = {k: v.astype(np.float16) for k, v in kept.items()}
    meta = {
        **meta,
        "format": model_class.format,
        "format_version": FORMAT_VERSION,
        "xtarot": __version__,
        "hidden_units": hidden_units,
        "margin": margin,
        "best_epoch": best_epoch,
        "train_rows": len(rows_train),
        "validation_rows": len(rows_val),
    }
    model = model_class(weights, meta)
    evaluation = evaluate(model, data, rows_held) if len(rows_held) else {}
    model.meta["evaluation"] = {
        k: (round(v, 5) if isinstance(v, float) else v)
        for k, v in evaluation.items()
        if not isinstance(v, list)
    }
    return TrainResult(
        model=model,
        evaluation=evaluation,
        train_rows=len(rows_train),
        validation_rows=len(rows_val),
        best_epoch=best_epoch,
        seconds=time.perf_counter() - start,
        curve=curve,
    )


def metadata(
    game: Game,
    *,
    seed: int,
    deals: int,
    eval_deals: int,
    epochs: int,
    rows: int,
    rounds: int,
    command: str = "",
) -> dict[str, Any]:
    """What a model file records of the run that made it (no times: the same command
    and seed write the same bytes)."""
    return {
        "command": command,
        "game": game.id,
        "players": game.players,
        "options": {k: v for k, v in game.options.items() if isinstance(v, int | str | bool)},
        "seed": seed,
        "deals": deals,
        "eval_deals": eval_deals,
        "rows": int(rows),
        "rounds": int(rounds),
        "agents": "heuristic",
        "epochs": epochs,
    }
