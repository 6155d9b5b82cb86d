"""Adapters to other game-AI frameworks: OpenSpiel, PettingZoo and Gymnasium.

Import the submodules explicitly (they need the optional extras):
``xtarot.adapters.openspiel`` (``pip install "xtarot[openspiel]"``; also ``XtarotBot``,
any xtarot agent as an OpenSpiel bot), ``xtarot.adapters.pettingzoo``
(``pip install "xtarot[pettingzoo]"``) and ``xtarot.adapters.gymnasium`` (one seat
against xtarot agents, ``pip install "xtarot[gymnasium]"``).  This package
itself imports neither framework, so ``import xtarot`` never needs them.
``xtarot.adapters.tensors`` holds the observation-tensor encoders and the tensor-spec
registry for plugin games (pure Python).

The modules run at every step (``COMPILED``) are compiled by Cython where the install
could (``setup.py``, from the one list in :mod:`xtarot._compiled`); :func:`compiled` says
which are, ``XTAROT_PURE_PYTHON=1`` turns them off.
"""

from __future__ import annotations

from xtarot._compiled import MODULES
from xtarot._compiled import compiled as _compiled

__all__ = ["COMPILED", "compiled"]

_PREFIX = "xtarot.adapters."
#: the adapter modules ``setup.py`` compiles (their short names, as in
#: :data:`xtarot._compiled.MODULES`)
COMPILED = tuple(m.removeprefix(_PREFIX) for m in MODULES if m.startswith(_PREFIX))


def compiled() -> list[str]:
    """Those of :data:`COMPILED` that this process loads compiled: none on a
    pure-Python install (no compiler) or with ``XTAROT_PURE_PYTHON=1``.

    >>> set(compiled()) <= set(COMPILED)
    True
    """
    return [m.removeprefix(_PREFIX) for m in _compiled(_PREFIX)]
