"""The one list of modules ``setup.py`` compiles with Cython, and which of them run compiled.

Two kinds of module are compiled, each from its unchanged ``.py`` source (Cython's
pure-Python mode; ``@cython.locals`` gives a few hot locals C types, ``@cython.cfunc``
and ``@cython.cclass`` make a few hot functions C functions and a class an extension
type, and all three mean nothing to Python):

* the adapters' per-step modules (a PettingZoo or OpenSpiel step);
* on request (:data:`PLAYOUTS`), the hot path of a heuristic play-out (issue #40): the
  engine's ``State`` methods every move goes through, and for the games whose
  play-outs were profiled, their state and their heuristic, whose decisions read
  tables of ints built at import.

Only modules that stay hot after the data on the hot path was made lean are here:
every module listed costs C compile time at every install that compiles it, and a
module of dict and string work gains little from compiling (docs/engine.md, "What is
compiled").  ``setup.py`` reads :data:`MODULES` from this file's source (the package
is not importable while it is built); ``XTAROT_PURE_PYTHON=1`` loads every module from
its source (:mod:`xtarot._pure`), and ``tests/test_accelerator.py`` holds both ways to
the same results bit for bit.

>>> set(compiled()) <= set(MODULES) | set(PLAYOUTS)
True
"""

from __future__ import annotations

import importlib.util
from importlib.machinery import EXTENSION_SUFFIXES

__all__ = ["MODULES", "PLAYOUTS", "compiled"]

#: the modules ``setup.py`` compiles at every install, by their dotted names: the
#: adapters' per-step modules
MODULES = (
    "xtarot.adapters.direct",
    "xtarot.adapters.direct_grail",
    "xtarot.adapters.incremental",
    "xtarot.adapters.pettingzoo",
    "xtarot.adapters.tensors",
)

#: the hot path of a heuristic play-out, compiled for a wheel to install (``pip install
#: .``, an sdist, ``python -m build``) but not for an editable install, unless
#: ``XTAROT_COMPILE_PLAYOUTS`` says otherwise (``0`` no, ``1`` yes; ``setup.py``): they
#: made every game's heuristic play-outs 1.15-1.7x as fast as the same lean sources in
#: pure Python, for about 7-10 CPU seconds of C compiling each (docs/engine.md, "What is
#: compiled, and why")
PLAYOUTS = (
    "xtarot.engine.core",
    "xtarot.engine.rand",
    "xtarot.games.fairy500.game",
    "xtarot.agents.heuristic.fairy500",
    "xtarot.games.grail_mahjong.state",
    "xtarot.games.grail_mahjong.tables",
    "xtarot.agents.heuristic.grail_mahjong",
    "xtarot.games.sono_arcana",
    "xtarot.agents.heuristic.sono_arcana",
    "xtarot.games.extendori.play",
    "xtarot.agents.heuristic.extendori",
    "xtarot.games.matto",
    "xtarot.agents.heuristic.matto",
    "xtarot.games.arcana_duel",
    "xtarot.agents.heuristic.arcana_duel",
)


def compiled(prefix: str = "xtarot.") -> list[str]:
    """Those of :data:`MODULES` and :data:`PLAYOUTS` (under ``prefix``) that this
    process loads compiled: none on a pure-Python install (no compiler) or with
    ``XTAROT_PURE_PYTHON=1``.

    Finding a module's spec imports its parent packages, not the module itself."""
    found = []
    for name in (*MODULES, *PLAYOUTS):
        if not name.startswith(prefix):
            continue
        spec = importlib.util.find_spec(name)
        if spec is not None and (spec.origin or "").endswith(tuple(EXTENSION_SUFFIXES)):
            found.append(name)
    return found
