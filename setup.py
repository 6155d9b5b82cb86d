"""Build step: the hot modules compiled by Cython, when it can be done.

Everything else about the package is in ``pyproject.toml``.  The modules listed in
``src/xtarot/_compiled.py`` (the adapters' per-step modules, and the engine, game and
heuristic modules a heuristic play-out spends its time in) are compiled from their
``.py`` sources as they are (Cython's pure-Python mode, type annotations ignored,
``@cython.locals`` typing a few hot locals), so they behave exactly as the sources do,
only with less interpreter overhead; ``tests/test_accelerator.py`` holds the two to
identical tensors, masks, rewards and heuristic moves.  Each extension is optional:
without Cython or without a C compiler (or with ``XTAROT_PURE_PYTHON=1`` set while
installing) the package installs as pure Python.  At run time ``XTAROT_PURE_PYTHON=1``
makes ``import xtarot`` load the sources even where compiled modules are installed.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

from setuptools import Extension, setup


def compiled_modules(name: str = "MODULES") -> tuple[str, ...]:
    """``xtarot._compiled.MODULES`` (or its other tuple, ``PLAYOUTS``),
    read from its source (the package is not importable while it is being built): the
    dotted names of the modules to compile."""
    source = Path(__file__).parent / "src" / "xtarot" / "_compiled.py"
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError(f"{source}: no {name} tuple")


#: The setuptools commands that compile; the others (``egg_info``, ``dist_info`` and
#: ``sdist``, which pip and ``build`` run first to learn the requirements and metadata)
#: need no C, so Cython is not run for them.
COMPILING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def compile_playouts(commands: list[str], asked: str) -> bool:
    """Whether to compile ``PLAYOUTS`` too: when ``XTAROT_COMPILE_PLAYOUTS`` says so (``1``
    yes, ``0`` no), else for a wheel to install as it is (``pip install .``, an sdist from
    an index, ``python -m build``) but not for an editable install (``pip install -e``),
    whose sources change and which is made again and again (issue #40: the bots' faster
    play-outs are what people install; a developer's install stays a minute shorter)."""
    if asked.strip() not in ("", "auto"):
        return asked.strip() != "0"
    return "bdist_wheel" in commands and "editable_wheel" not in commands


def extensions() -> list[Extension]:
    if os.environ.get("XTAROT_PURE_PYTHON", "") not in ("", "0"):
        return []
    if not COMPILING & set(sys.argv[1:]):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    names = compiled_modules()
    if compile_playouts(sys.argv[1:], os.environ.get("XTAROT_COMPILE_PLAYOUTS", "")):
        names += compiled_modules("PLAYOUTS")  # the heuristic play-outs' path
    modules = [Extension(name, [f"src/{name.replace('.', '/')}.py"]) for name in names]
    built: list[Extension] = cythonize(
        modules,
        build_dir="build/cython",  # the generated C stays out of the source tree
        compiler_directives={"language_level": 3, "annotation_typing": False, "binding": True},
        quiet=True,
        nthreads=os.cpu_count() or 1,  # the translations side by side
    )
    quick = set(compiled_modules("PLAYOUTS"))  # at -O1, below
    for ext in built:
        ext.optional = True  # no compiler, or it fails: that module stays pure Python
        if os.name == "posix":
            # -O2 without debug information: a third less compile time than Python's own
            # -O3 -g and a sixth of the size (incremental: 15 s instead of 23, 0.6 MB
            # instead of 4.2 MB); bench_adapters finds the two builds' steps equal within
            # its noise (2026-11-26: PettingZoo 5.5-6.1x native vs 5.6-5.8x, matto and
            # fairy500, four paired runs on a busy machine)
            # -ffp-contract=off: no fused multiply-adds where a CPU has them (GCC fuses by
            # default), so a C double sum rounds as Python's floats do, step by step
            # (``PLAYOUTS``: -O1, their time goes into calls to Python's C API, which -O2
            # does not make faster, and their C compiles 40% faster: 45 CPU seconds for
            # the first five instead of 77, docs/engine.md)
            level = "-O1" if ext.name in quick else "-O2"
            ext.extra_compile_args = [*ext.extra_compile_args, level, "-g0", "-ffp-contract=off"]
    return built


# The C compiles are independent: one per core (the adapters' five took about 25 s
# instead of 45 on two; incremental.py and tensors.py about 15 s each, the three others
# 3-5 s; the PLAYOUTS modules add 7-14 CPU seconds each, docs/engine.md).
setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
