"""The training loop the numpy models share: Adam, minibatches, the best epoch kept.

The belief model (:mod:`xtarot.adapters.belief`) and the hand-value models
(:mod:`xtarot.adapters.value`, :mod:`~xtarot.adapters.value_grail`) differ in their
networks and losses, not in how they are trained: minibatches of the training rows in
an order drawn from the run's generator every epoch, one Adam step a batch (weight
decay on the named weights), the validation loss after every epoch, and the weights
of the epoch of lowest validation loss kept (epoch 0, the weights as they started,
included).  :func:`fit` is that loop; each model hands it a function that returns a
batch's summed loss, its count and its gradients.

The arithmetic is the same, step for step, as the three copies it replaces, so the
same command and seed still write the same bytes.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> params = {"w": np.zeros(1, dtype=np.float32)}
>>> def loss(rows):  # (w - 3)^2 summed over the rows, and its gradient
...     d = params["w"][0] - 3.0
...     return float(d * d) * len(rows), len(rows), {"w": np.array([2 * d], np.float32)}
>>> best, epoch, first, curve = fit(
...     params, loss, lambda: float((params["w"][0] - 3.0) ** 2),
...     np.arange(8), rng, epochs=40, batch=4, lr=0.1, decay=0.0, decayed=())
>>> round(float(best["w"][0]), 1), epoch, round(first, 1), len(curve)
(3.0, 40, 9.0, 40)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

__all__ = [
    "BatchLoss",
    "MeanLoss",
    "TrainResult",
    "derive_seed",
    "fit",
    "fit_mean",
    "he_layers",
    "relu_grads",
    "split_rows",
]

M = TypeVar("M")


@dataclass
class TrainResult(Generic[M]):
    """What training a hand-value model gives: the model (the best epoch's weights),
    its evaluation on the held-out rows, the rows it was trained and validated on, the
    best epoch, the seconds it took and the (training, validation) loss per epoch."""

    model: M
    evaluation: dict[str, Any]
    train_rows: int
    validation_rows: int
    best_epoch: int
    seconds: float
    curve: list[tuple[float, float]]


#: a batch's rows -> (its summed loss, how many terms it sums, the gradient of the
#: *mean* loss for every parameter)
BatchLoss = Callable[[Any], tuple[float, int, dict[str, np.ndarray]]]
#: (rows, whether gradients are wanted) -> (the rows' mean loss, its gradients or {})
MeanLoss = Callable[[np.ndarray, bool], tuple[float, dict[str, np.ndarray]]]


def derive_seed(salt: str, seed: int, *parts: object) -> int:
    """A 48-bit seed for one part of a run (a match, a deal), derived from the run's
    ``seed`` under a model's own ``salt``: the same parts always give the same seed.

    >>> derive_seed("xtarot-value", 1, 0) == derive_seed("xtarot-value", 1, 0)
    True
    """
    rng = random.Random(":".join(str(p) for p in (salt, seed, *parts)))
    return rng.getrandbits(48)


def split_rows(group: np.ndarray, first_held: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows to train on, to validate on and held out, by each row's group (its
    deal or match): groups from ``first_held`` on are held out, and the last tenth of
    the others (at least one when there are two or more) validate."""
    groups = int(first_held)
    n_val = max(1, groups // 10) if groups > 1 else 0
    train = np.flatnonzero(group < groups - n_val)
    val = np.flatnonzero((group >= groups - n_val) & (group < groups))
    held = np.flatnonzero(group >= groups)
    return train, val, held


def he_layers(
    rng: np.random.Generator, inputs: int, hidden: int, outputs: int
) -> dict[str, np.ndarray]:
    """One hidden ReLU layer's weights as float32: He-scaled inputs, small outputs."""
    params = {
        "w1": rng.standard_normal((inputs, hidden)) * np.sqrt(2.0 / inputs),
        "b1": np.zeros(hidden),
        "w2": rng.standard_normal((hidden, outputs)) * 0.01,
        "b2": np.zeros(outputs),
    }
    return {k: v.astype(np.float32) for k, v in params.items()}


def relu_grads(
    x: np.ndarray, h: np.ndarray, d_out: np.ndarray, w2: np.ndarray
) -> dict[str, np.ndarray]:
    """The gradients of one hidden ReLU layer's weights (``h = relu(x @ w1 + b1)``,
    output ``h @ w2 + b2``) from ``d_out``, the loss's gradient at the output."""
    g = {"w2": h.T @ d_out, "b2": d_out.sum(axis=0)}
    dh = (d_out @ w2.T) * (h > 0)
    g["w1"] = x.T @ dh
    g["b1"] = dh.sum(axis=0)
    return g


def fit(
    params: dict[str, np.ndarray],
    batch_loss: BatchLoss,
    val_loss: Callable[[], float],
    rows: Sequence[Any] | np.ndarray,
    rng: np.random.Generator,
    *,
    epochs: int,
    batch: int,
    lr: float,
    decay: float,
    decayed: Collection[str] = ("w1", "w2"),
    on_epoch: Callable[[int], None] | None = None,
) -> tuple[dict[str, np.ndarray], int, float, list[tuple[float, float]]]:
    """Train ``params`` in place with Adam on minibatches of ``rows`` (a new order
    drawn from ``rng`` every epoch) and return (the weights of the epoch of lowest
    ``val_loss()``, that epoch, the validation loss before training, the curve of
    (training, validation) loss per epoch).  ``decay``: weight decay on the parameters
    named in ``decayed``.  A NaN validation loss (nothing to validate on) keeps the
    last epoch."""
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    first = val_loss()
    validating = not np.isnan(first)
    best = (first, {k: v.copy() for k, v in params.items()}, 0)
    curve: list[tuple[float, float]] = []
    step = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(rows))
        total, count = 0.0, 0
        for at in range(0, len(order), batch):
            picked = order[at : at + batch]
            chosen = rows[picked] if isinstance(rows, np.ndarray) else [rows[i] for i in picked]
            loss, n, grads = batch_loss(chosen)
            total += loss
            count += n
            step += 1
            for k, p in params.items():
                g = grads[k] + (decay * p if k in decayed else 0.0)
                m[k] = b1_ * m[k] + (1 - b1_) * g
                v2[k] = b2_ * v2[k] + (1 - b2_) * g * g
                mh = m[k] / (1 - b1_**step)
                vh = v2[k] / (1 - b2_**step)
                p -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        vl = val_loss()
        curve.append((total / max(count, 1), vl))
        if not validating or vl < best[0]:
            best = (vl, {k: v.copy() for k, v in params.items()}, epoch)
        if on_epoch is not None:
            on_epoch(epoch)
    return best[1], best[2], first, curve


def fit_mean(
    params: dict[str, np.ndarray],
    loss: MeanLoss,
    rows: np.ndarray,
    val_rows: np.ndarray,
    rng: np.random.Generator,
    **options: Any,
) -> tuple[dict[str, np.ndarray], int, float, list[tuple[float, float]]]:
    """:func:`fit` for a model whose ``loss(rows, grads)`` is a mean over the rows,
    validated on ``val_rows`` (NaN when there are none)."""

    def batch_loss(chosen: np.ndarray) -> tuple[float, int, dict[str, np.ndarray]]:
        value, grads = loss(chosen, True)
        return value * len(chosen), len(chosen), grads

    def val_loss() -> float:
        return loss(val_rows, False)[0] if len(val_rows) else float("nan")

    return fit(params, batch_loss, val_loss, rows, rng, **options)
