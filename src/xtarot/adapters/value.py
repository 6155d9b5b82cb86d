"""Hand-value models for fairy500's auction: what is each contract worth from this hand?

From a declarer-candidate's view before the auction — its hand and its place in the
bidding order, read from ``state.view(seat)`` and nothing else (:func:`features`) — a
:class:`ValueModel` predicts, for each trump (``s w d c nt``), the distribution of the
tricks its side would take as declarer (0–10), and the chance that its plain misère
is made; from them the expected declarer score of every trick contract and of plain
misère (:meth:`ValueModel.contract_values`).  ``xtarot train value fairy500 -p N``
(``xtarot.cli.train``) makes one; the documentation is in ``docs/agents.md`` (*The
hand-value model*).

The training targets are
:func:`~xtarot.agents.heuristic.fairy500.contract_playouts`: for a seat of a dealt hand, that
seat is made declarer of each trump in turn (``bid 6<d>``, the others passing) and of
plain misère, and the hand is played out by the heuristic in every seat, each reading
its own view; the declarer takes the real kitty, calls and discards as the heuristic
does, so the kitty's effect is inside the target.  The truth (other hands, kitty) is
only ever used by those play-outs, never as an input.  ``benchmarks/bench_bidding.py``
uses the same play-outs for the hand's value in hindsight.

One hidden ReLU layer, a softmax of 11 tricks per trump and a logistic misère output,
Adam on the cross-entropy, numpy only (the belief model's reasons, docs/agents.md).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
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
from xtarot.agents.heuristic.fairy500 import DENOMINATIONS, contract_playouts
from xtarot.engine import Game

__all__ = [
    "DENOMINATIONS",
    "FORMAT",
    "ValueData",
    "ValueModel",
    "contract_playouts",
    "evaluate",
    "features",
    "generate",
    "load_value_model",
    "metadata",
    "shipped_value_model",
    "train_value",
]

FORMAT = "xtarot-value"
FORMAT_VERSION = 1
_TRICKS = 11  # 0..10
_POSITIONS = 8  # places in the bidding order, up to 8 players


def _derive(seed: int, *parts: object) -> int:
    return derive_seed("xtarot-value", seed, *parts)


def _cards(players: int) -> list[str]:
    from xtarot.games.fairy500.setup import card_set

    return [c.code for c in card_set(players)]


def features(view: dict[str, Any]) -> np.ndarray:
    """The model's input from a fairy500 seat's view: its hand (one-hot over this
    player count's cards) and its place in the bidding order (one-hot; 0 = the first
    bidder, left of the dealer).  Nothing else is read."""
    players = int(view["players"])
    cards = _cards(players)
    x = np.zeros(len(cards) + _POSITIONS, dtype=np.float32)
    index = {c: i for i, c in enumerate(cards)}
    for c in view["hand"]:
        x[index[c]] = 1.0
    x[len(cards) + (int(view["seat"]) - int(view["dealer"]) - 1) % players] = 1.0
    return x


@dataclass
class ValueData:
    """Per (deal, seat): the features, the tricks of each trump and the misère result."""

    x: np.ndarray  # (rows, features)
    tricks: np.ndarray  # (rows, 5) ints 0..10
    misere: np.ndarray  # (rows,) 0/1
    deal: np.ndarray  # (rows,) the deal's number
    heuristic: np.ndarray  # (rows, 5): the heuristic's own trick estimate (for comparison)
    first_held: int  # deals from this number on are held out


def _heuristic_estimate(view: dict[str, Any]) -> list[float]:
    """The heuristic's auction estimate of its side's tricks per trump: its hand's
    tricks plus what the partner and kitty usually bring (as it bids)."""
    from xtarot.agents.heuristic import fairy500 as f5
    from xtarot.cards import card

    n = int(view["players"])
    hand = [card(c) for c in view["hand"]]
    extra = f5._PARTNER_TRICKS[n] + f5._KITTY_TRICKS
    return [f5.trick_estimate(hand, d, n) + extra for d in DENOMINATIONS]


def generate(
    game: Game,
    deals: int,
    seed: int,
    *,
    eval_deals: int = 0,
    on_deal: Callable[[int], None] | None = None,
) -> ValueData:
    """``deals + eval_deals`` random deals, every seat of each a row (the last
    ``eval_deals`` held out); deterministic in ``seed``."""
    if game.id != "fairy500":
        raise ValueError(f"hand-value models are for fairy500, not {game.id}")
    if game.options.get("hands") != 1:
        raise ValueError("contract play-outs need single hands (option hands=1)")
    xs, tricks, miseres, deal_no, heur = [], [], [], [], []
    for k in range(deals + eval_deals):
        state = game.new_state(seed=_derive(seed, "deal", k))
        deal = state.deals[0]
        for seat in range(game.players):
            view = state.view(seat)
            got = contract_playouts(game, deal, seat)
            xs.append(features(view))
            tricks.append([got[d] for d in DENOMINATIONS])
            miseres.append(got["misere"])
            deal_no.append(k)
            heur.append(_heuristic_estimate(view))
        if on_deal is not None:
            on_deal(k + 1)
    return ValueData(
        x=np.stack(xs),
        tricks=np.asarray(tricks, dtype=np.int64),
        misere=np.asarray(miseres, dtype=np.float32),
        deal=np.asarray(deal_no, dtype=np.int64),
        heuristic=np.asarray(heur, dtype=np.float32),
        first_held=deals,
    )


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


class ValueModel:
    """A trained hand-value model (numpy weights and what made them)."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.meta = meta
        self.w1 = arrays["w1"].astype(np.float32)
        self.b1 = arrays["b1"].astype(np.float32)
        self.w2 = arrays["w2"].astype(np.float32)
        self.b2 = arrays["b2"].astype(np.float32)

    @property
    def players(self) -> int:
        return int(self.meta["players"])

    @property
    def game(self) -> str:
        return str(self.meta.get("game", "fairy500"))

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Trick distributions ``(rows, 5, 11)`` and misère chances ``(rows,)``."""
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        out = h @ self.w2 + self.b2
        probs = _softmax(out[:, :-1].reshape(len(x), len(DENOMINATIONS), _TRICKS))
        misere = 1.0 / (1.0 + np.exp(-out[:, -1]))
        return probs, misere

    def predict(self, view: dict[str, Any]) -> tuple[np.ndarray, float]:
        if int(view["players"]) != self.players:
            raise ValueError(
                f"this model is for {self.players} players, the view has {view['players']}"
            )
        probs, misere = self.forward(features(view)[None, :])
        return probs[0], float(misere[0])

    def contract_values(self, view: dict[str, Any]) -> dict[str, float]:
        """Expected declarer score of every trick contract (``bid 7c`` ...) and of
        plain misère: the base value times (chance made − chance failed).  Slam
        bonuses, the ×1.5 of a called card in the declarer's hand and misère's F
        bonus are left out."""
        from xtarot.games.fairy500.setup import bid_value, misere_value

        probs, misere = self.predict(view)
        out: dict[str, float] = {}
        for i, d in enumerate(DENOMINATIONS):
            at_least = np.cumsum(probs[i][::-1])[::-1]  # P(T >= k)
            for k in range(6, 11):
                p = float(at_least[k])
                out[f"bid {k}{d}"] = bid_value(k, d) * (2 * p - 1)
        out["bid misere"] = misere_value("misere", "", self.players) * (2 * misere - 1)
        return out

    def save(self, path: str | Path) -> int:
        """Write the model (``.npz``: float16 weights, the metadata as JSON); return
        the file's size in bytes."""
        arrays = {
            "w1": self.w1.astype(np.float16),
            "b1": self.b1.astype(np.float16),
            "w2": self.w2.astype(np.float16),
            "b2": self.b2.astype(np.float16),
        }
        return write_model(path, arrays, self.meta)

    @classmethod
    def load(cls, path: str | Path | Any) -> ValueModel:
        """Read a model written by :meth:`save`; ``ValueError`` when it is not one."""
        return cls(*read_model(path, "hand-value model", FORMAT, FORMAT_VERSION))


def load_value_model(path: str | Path | Any) -> Any:
    """A hand-value model of any game from its file: fairy500's :class:`ValueModel`,
    grail-mahjong's :class:`~xtarot.adapters.value_grail.ClaimModel` or sono-arcana's
    :class:`~xtarot.adapters.value_sono.LotModel` (each has ``game`` and ``players``);
    ``ValueError`` when the file is none of them."""
    from xtarot.adapters.value_grail import ClaimModel
    from xtarot.adapters.value_sono import LotModel

    try:
        return ValueModel.load(path)
    except ValueError as first:
        for cls in (ClaimModel, LotModel):
            if hasattr(path, "seek"):
                path.seek(0)
            try:
                return cls.load(path)
            except ValueError:
                pass
        raise first from None


def shipped_value_name(game: Game) -> str:
    return f"value-{game.id}-{game.players}p.npz"


def shipped_value_model(game: Game) -> Any:
    """The hand-value model shipped in the package for this game and player count (its
    options too, but for ``hands``: the play-outs are single hands), or ``None`` — no
    model for it: every bot plays as it does without one.  Hand it to a bot with
    ``make_agent("normal", seed, value_model=...)``; no level loads one by itself."""
    res = resources.files("xtarot.adapters").joinpath("models", shipped_value_name(game))
    if not res.is_file():
        return None
    with res.open("rb") as f:
        model = load_value_model(io.BytesIO(f.read()))
    options = {k: v for k, v in model.meta.get("options", {}).items() if k != "hands"}
    mine = {k: v for k, v in game.options.items() if k in options}
    if model.game != game.id or model.players != game.players or mine != options:
        return None
    return model


def _corr(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 2 or a.std() == 0 or b.std() == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])


def evaluate(model: ValueModel, data: ValueData, rows: np.ndarray) -> dict[str, Any]:
    """Held-out figures: the model's expected tricks and the heuristic's own estimate
    against the play-outs' tricks (mean absolute error, correlation, pooled over the
    trumps), the tricks' log-loss against the training marginal's, and misère's."""
    probs, misere = model.forward(data.x[rows])
    truth = data.tricks[rows]
    expected = (probs * np.arange(_TRICKS)).sum(axis=2)
    logloss = -np.log(np.take_along_axis(probs, truth[:, :, None], axis=2)[:, :, 0] + 1e-9).mean()
    train = data.deal < data.first_held
    marginal = np.stack(
        [
            (np.bincount(data.tricks[train, i], minlength=_TRICKS) + 0.5)
            / (train.sum() + 0.5 * _TRICKS)
            for i in range(len(DENOMINATIONS))
        ]
    )
    base = -np.log(marginal[np.arange(len(DENOMINATIONS)), truth]).mean()
    heur = data.heuristic[rows]
    m = data.misere[rows]
    rate = float(data.misere[train].mean()) if train.any() else 0.5
    rate = min(max(rate, 1e-3), 1 - 1e-3)
    mis_loss = -np.mean(m * np.log(misere + 1e-9) + (1 - m) * np.log(1 - misere + 1e-9))
    mis_base = -np.mean(m * np.log(rate) + (1 - m) * np.log(1 - rate))
    return {
        "rows": len(rows),
        "tricks_mae": float(np.abs(expected - truth).mean()),
        "tricks_corr": _corr(expected.ravel(), truth.ravel().astype(float)),
        "heuristic_mae": float(np.abs(heur - truth).mean()),
        "heuristic_corr": _corr(heur.ravel(), truth.ravel().astype(float)),
        "heuristic_bias": float((heur - truth).mean()),
        "tricks_logloss": float(logloss),
        "marginal_logloss": float(base),
        "misere_rate": float(m.mean()),
        "misere_logloss": float(mis_loss),
        "misere_base_logloss": float(mis_base),
    }


def train_value(
    data: ValueData,
    meta: dict[str, Any],
    *,
    epochs: int = 30,
    hidden_units: int = 64,
    batch: int = 128,
    lr: float = 1e-3,
    decay: float = 1e-4,
    seed: int = 0,
    on_epoch: Callable[[int], None] | None = None,
) -> TrainResult[ValueModel]:
    """Train on the rows not held out (the last tenth of those deals validates; the
    epoch of lowest validation loss is kept), evaluate on the held-out rows.  Adam,
    one hidden ReLU layer; deterministic in ``seed``."""
    start = time.perf_counter()
    rows_train, rows_val, rows_held = split_rows(data.deal, data.first_held)
    rng = np.random.default_rng(seed)
    d_in, n_out = data.x.shape[1], len(DENOMINATIONS) * _TRICKS + 1
    params = he_layers(rng, d_in, hidden_units, n_out)

    def loss_and_grads(rows: np.ndarray, grads: bool) -> tuple[float, dict[str, np.ndarray]]:
        x = data.x[rows]
        n = len(rows)
        h = np.maximum(x @ params["w1"] + params["b1"], 0.0)
        out = h @ params["w2"] + params["b2"]
        logits = out[:, :-1].reshape(n, len(DENOMINATIONS), _TRICKS)
        probs = _softmax(logits)
        truth = data.tricks[rows]
        p_true = np.take_along_axis(probs, truth[:, :, None], axis=2)[:, :, 0]
        mis = 1.0 / (1.0 + np.exp(-out[:, -1]))
        y = data.misere[rows]
        loss = float(
            -np.log(p_true + 1e-9).sum(axis=1).mean()
            - np.mean(y * np.log(mis + 1e-9) + (1 - y) * np.log(1 - mis + 1e-9))
        )
        if not grads:
            return loss, {}
        d_logits = probs.copy()
        np.put_along_axis(
            d_logits, truth[:, :, None], np.take_along_axis(d_logits, truth[:, :, None], 2) - 1, 2
        )
        d_out = np.concatenate([d_logits.reshape(n, -1), (mis - y)[:, None]], axis=1) / n
        d_out = d_out.astype(np.float32)
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
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "xtarot": __version__,
        "hidden_units": hidden_units,
        "denominations": list(DENOMINATIONS),
        "best_epoch": best_epoch,
        "train_rows": len(rows_train),
        "validation_rows": len(rows_val),
    }
    model = ValueModel(weights, meta)
    evaluation = evaluate(model, data, rows_held) if len(rows_held) else {}
    model.meta["evaluation"] = {
        k: (round(v, 5) if isinstance(v, float) else v) for k, v in evaluation.items()
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
    game: Game, *, seed: int, deals: int, eval_deals: int, epochs: int, rows: int, command: str = ""
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
        "rows": rows,
        "agents": "heuristic",
        "epochs": epochs,
    }
