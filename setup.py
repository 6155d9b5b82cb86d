"""Build step: the adapters' per-step modules compiled by Cython, when it can be done.

Everything else about the package is in ``pyproject.toml``.  The modules below are
compiled from their ``.py`` sources as they are (Cython's pure-Python mode, type
annotations ignored), so they behave exactly as the sources do, only with less
interpreter overhead; ``tests/test_accelerator.py`` holds the two to identical
tensors, masks and rewards.  Each extension is optional: without Cython or without a C
compiler (or with ``XTAROT_PURE_PYTHON=1`` set while installing) the package installs
as pure Python.  At run time ``XTAROT_PURE_PYTHON=1`` makes ``import xtarot`` load the
sources even where compiled modules are installed.
"""

from __future__ import annotations

import os

from setuptools import Extension, setup

#: ``xtarot.adapters`` modules run at every PettingZoo / Gymnasium / OpenSpiel step
COMPILED = ("direct", "direct_grail", "incremental", "pettingzoo", "tensors")


def extensions() -> list[Extension]:
    if os.environ.get("XTAROT_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    modules = [
        Extension(f"xtarot.adapters.{name}", [f"src/xtarot/adapters/{name}.py"])
        for name in COMPILED
    ]
    built: list[Extension] = cythonize(
        modules,
        build_dir="build/cython",  # the generated C stays out of the source tree
        compiler_directives={"language_level": 3, "annotation_typing": False, "binding": True},
        quiet=True,
    )
    for ext in built:
        ext.optional = True  # no compiler, or it fails: that module stays pure Python
    return built


setup(ext_modules=extensions())
