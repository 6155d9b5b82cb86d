"""``XTAROT_PURE_PYTHON=1``: load xtarot's modules from their ``.py`` sources even where
an install compiled some of them (``setup.py``), to rule the compiled code out when
chasing a bug, or to compare the two (``tests/test_accelerator.py``).

The switch is read once, by ``import xtarot``; it has to be in the environment before
that.  Packages (``__init__.py``) are never compiled and load as usual.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

ENV = "XTAROT_PURE_PYTHON"


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``xtarot.*`` modules as ``.py`` files only, before the default finders
    (which prefer an extension module of the same name)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("xtarot.") or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None  # a package, or not found: the default finders decide


def install() -> None:
    """Put the source-only finder first (once)."""
    if not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


def wanted() -> bool:
    """Whether the environment asks for the sources (any value but empty or ``0``)."""
    return os.environ.get(ENV, "") not in ("", "0")
