"""Doctest collection: leave out the adapter modules whose framework is not installed."""

from importlib.util import find_spec

collect_ignore: list[str] = []
if find_spec("pyspiel") is None:
    collect_ignore.append("src/xtarot/adapters/openspiel.py")
if find_spec("pettingzoo") is None or find_spec("gymnasium") is None:
    collect_ignore.append("src/xtarot/adapters/pettingzoo.py")
