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
could (``setup.py``); :func:`compiled` says which are, ``XTAROT_PURE_PYTHON=1`` turns
them off.
"""

from __future__ import annotations

import importlib.util
from importlib.machinery import EXTENSION_SUFFIXES

__all__ = ["COMPILED", "compiled"]

#: the modules ``setup.py`` compiles (it reads this tuple from here)
COMPILED = ("direct", "direct_grail", "incremental", "pettingzoo", "tensors")


def compiled() -> list[str]:
    """Those of :data:`COMPILED` that this process loads compiled: none on a
    pure-Python install (no compiler) or with ``XTAROT_PURE_PYTHON=1``.

    >>> set(compiled()) <= set(COMPILED)
    True
    """
    found = []
    for name in COMPILED:
        spec = importlib.util.find_spec(f"xtarot.adapters.{name}")
        if spec is not None and (spec.origin or "").endswith(tuple(EXTENSION_SUFFIXES)):
            found.append(name)
    return found
