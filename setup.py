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

import ast
import os
import sys
from pathlib import Path

from setuptools import Extension, setup


def compiled_modules() -> tuple[str, ...]:
    """``xtarot.adapters.COMPILED``, read from its source (the package is not importable
    while it is being built): the modules run at every PettingZoo / OpenSpiel step."""
    source = Path(__file__).parent / "src" / "xtarot" / "adapters" / "__init__.py"
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets
        ):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError(f"{source}: no COMPILED tuple")


#: The setuptools commands that compile; the others (``egg_info``, ``dist_info`` and
#: ``sdist``, which pip and ``build`` run first to learn the requirements and metadata)
#: need no C, so Cython is not run for them.
COMPILING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def extensions() -> list[Extension]:
    if os.environ.get("XTAROT_PURE_PYTHON", "") not in ("", "0"):
        return []
    if not COMPILING & set(sys.argv[1:]):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    modules = [
        Extension(f"xtarot.adapters.{name}", [f"src/xtarot/adapters/{name}.py"])
        for name in compiled_modules()
    ]
    built: list[Extension] = cythonize(
        modules,
        build_dir="build/cython",  # the generated C stays out of the source tree
        compiler_directives={"language_level": 3, "annotation_typing": False, "binding": True},
        quiet=True,
        nthreads=os.cpu_count() or 1,  # the five translations side by side
    )
    for ext in built:
        ext.optional = True  # no compiler, or it fails: that module stays pure Python
        if os.name == "posix":
            # -O2 without debug information: a third less compile time than Python's own
            # -O3 -g and a sixth of the size (incremental: 15 s instead of 23, 0.6 MB
            # instead of 4.2 MB); bench_adapters finds the two builds' steps equal within
            # its noise (2026-11-26: PettingZoo 5.5-6.1x native vs 5.6-5.8x, matto and
            # fairy500, four paired runs on a busy machine)
            ext.extra_compile_args = [*ext.extra_compile_args, "-O2", "-g0"]
    return built


# The five C compiles are independent: one per core (about 25 s instead of 45 on two;
# incremental.py and tensors.py take about 15 s each, the three others 3-5 s).
setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
