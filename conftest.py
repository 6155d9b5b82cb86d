"""Doctest collection for the whole tree.

Leave out the adapter modules whose framework is not installed.  And an install that
compiled the adapters (``setup.py``) has ``direct.cpython-*.so`` next to ``direct.py``:
collecting the doctests of ``direct.py`` imports the compiled module, which pytest would
refuse as "not the same file".  The compiled module is built from that very source
(docstrings included), so its doctests are the ones to run.
"""

import os
from importlib.util import find_spec

os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")

collect_ignore: list[str] = []
if find_spec("pyspiel") is None:
    collect_ignore.append("src/xtarot/adapters/openspiel.py")
if find_spec("pettingzoo") is None or find_spec("gymnasium") is None:
    collect_ignore.append("src/xtarot/adapters/pettingzoo.py")
