"""Plugins: games and their companions from other installed packages.

A rulebook written for the Xtarot deck can live in its own package.  It declares
what it provides as Python entry points (``[project.entry-points."<group>"]`` in
its ``pyproject.toml``), one group per kind of thing:

==================== ============ ==================================================
group                name         object
==================== ============ ==================================================
``xtarot.games``     game id      a :class:`~xtarot.engine.Game` subclass
``xtarot.heuristics`` game id     a strategy factory ``factory(seed) -> Agent``
``xtarot.agents``    bot name     an agent factory ``factory(seed, **settings)``
``xtarot.screens``   game id      a terminal screen (``xtarot.cli.render.GameUI``)
``xtarot.layouts``   game id      a package holding ``<id>.js`` (and ``<id>.css``)
``xtarot.rules``     game id      a package holding ``<id>.en.md`` and ``<id>.ja.md``
``xtarot.tensors``   game id      ``fields(game)`` for the adapters' tensors
==================== ============ ==================================================

Each layer reads its own group when it first needs it (:func:`group`), so
importing ``xtarot`` stays cheap and a plugin may import any part of ``xtarot``.
A plugin that fails to load (an import error, a wrong object, a name already
taken) is skipped and recorded in :func:`problems` with its name and error; the
other plugins still load.  ``xtarot plugins`` lists what was found.

>>> from xtarot.engine.plugins import GROUPS
>>> GROUPS[0]
'xtarot.games'
"""

from __future__ import annotations

import importlib.metadata as metadata
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "GROUPS",
    "LazyRegistry",
    "Plugin",
    "PluginProblem",
    "found",
    "group",
    "problems",
    "reject",
    "report_problem",
    "reset",
]

log = logging.getLogger("xtarot.plugins")

#: Every entry-point group xtarot reads, in the order a game's parts are used.
GROUPS: tuple[str, ...] = (
    "xtarot.games",
    "xtarot.heuristics",
    "xtarot.agents",
    "xtarot.screens",
    "xtarot.layouts",
    "xtarot.rules",
    "xtarot.tensors",
)


@dataclass(frozen=True)
class Plugin:
    """One entry point that loaded: where it came from and what it names."""

    group: str
    name: str
    value: str
    distribution: str


@dataclass(frozen=True)
class PluginProblem:
    """One entry point that did not load, and why (shown to people as one line)."""

    group: str
    name: str
    value: str
    distribution: str
    error: str

    def __str__(self) -> str:
        where = f" (package {self.distribution})" if self.distribution else ""
        return f"plugin {self.name!r} in {self.group}{where} = {self.value}: {self.error}"


_lock = threading.RLock()
_generation = 0  # bumped by reset(), so registries merge their group again
_loaded: dict[str, dict[str, Any]] = {}
_found: list[Plugin] = []
_problems: list[PluginProblem] = []


def _distribution(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.name if dist is not None else ""


def group(name: str) -> dict[str, Any]:
    """The loaded objects of one entry-point group, by entry-point name (cached).

    Entry points that raise while loading are left out and recorded in
    :func:`problems`; the same name declared twice keeps the first.
    """
    with _lock:
        cached = _loaded.get(name)
        if cached is not None:
            return cached
        out: dict[str, Any] = {}
        _loaded[name] = out  # a plugin importing xtarot while loading sees a partial group
        for ep in sorted(metadata.entry_points(group=name), key=lambda e: (e.name, e.value)):
            dist = _distribution(ep)
            if ep.name in out:
                report_problem(name, ep.name, ep.value, dist, "the name is declared twice")
                continue
            try:
                out[ep.name] = ep.load()
            except Exception as exc:  # a broken plugin must not stop the others
                report_problem(name, ep.name, ep.value, dist, f"{type(exc).__name__}: {exc}")
                continue
            _found.append(Plugin(name, ep.name, ep.value, dist))
        return out


def report_problem(group_name: str, name: str, value: str, distribution: str, error: str) -> None:
    """Record a plugin that cannot be used (e.g. its object is of the wrong kind)."""
    with _lock:
        problem = PluginProblem(group_name, name, value, distribution, error)
        # the loaded object is dropped from its group so nothing uses it by accident
        _loaded.get(group_name, {}).pop(name, None)
        for i, p in enumerate(_found):
            if (p.group, p.name, p.value) == (group_name, name, value):
                del _found[i]
                break
        if problem not in _problems:
            _problems.append(problem)
            log.warning("%s", problem)


def reject(group_name: str, name: str, error: str) -> None:
    """Report a loaded entry point as unusable (a wrong kind of object, a name taken)."""
    report_problem(group_name, name, _value_of(group_name, name), _dist_of(group_name, name), error)


def _dist_of(group_name: str, name: str) -> str:
    return next((p.distribution for p in _found if (p.group, p.name) == (group_name, name)), "")


def _value_of(group_name: str, name: str) -> str:
    return next((p.value for p in _found if (p.group, p.name) == (group_name, name)), name)


def found() -> list[Plugin]:
    """Every entry point loaded so far, in load order."""
    with _lock:
        return list(_found)


def problems() -> list[PluginProblem]:
    """Every entry point that could not be used so far, with its error."""
    with _lock:
        return list(_problems)


def load_all() -> None:
    """Read every group now (``xtarot plugins`` and ``xtarot check`` want the full list)."""
    for name in GROUPS:
        group(name)
    for hook in list(_hooks):
        hook()


#: Functions that turn a group's objects into registrations (the engine's game
#: registry adds one; other layers register theirs when imported).
_hooks: list[Callable[[], None]] = []


def on_load_all(hook: Callable[[], None]) -> Callable[[], None]:
    """Run ``hook`` from :func:`load_all` (used by layers that install a group)."""
    _hooks.append(hook)
    return hook


def reset() -> None:
    """Forget every loaded group (tests that install plugins on the fly)."""
    global _generation
    with _lock:
        _loaded.clear()
        _found.clear()
        _problems.clear()
        _generation += 1


V = TypeVar("V")


class LazyRegistry(dict[str, V]):
    """A ``dict`` of built-in entries that merges a plugin group on first use.

    ``install(name, obj)`` turns one entry point's object into a value (raising
    ``TypeError``/``ValueError`` for a wrong one, which is reported and skipped);
    built-in names win over plugins.  Every reading method loads the group first,
    so code that does ``name in AGENTS`` or ``", ".join(AGENTS)`` sees plugins.
    """

    def __init__(
        self,
        group_name: str,
        builtins: dict[str, V],
        install: Callable[[str, Any], V] | None = None,
    ) -> None:
        super().__init__(builtins)
        self._group = group_name
        self._install = install
        self._merged = -1  # the plugin generation merged last
        self._from_plugins: set[str] = set()
        on_load_all(self._merge)

    def _merge(self) -> None:
        if self._merged == _generation:
            return
        with _lock:
            if self._merged == _generation:
                return
            self._merged = _generation
            for name in self._from_plugins:  # plugins forgotten by reset()
                dict.pop(self, name, None)
            self._from_plugins.clear()
            self._merge_group(group(self._group))

    def _merge_group(self, objects: dict[str, Any]) -> None:
        for name, obj in list(objects.items()):
            if dict.__contains__(self, name):
                if dict.__getitem__(self, name) is not obj:
                    self._problem(name, "the name is already taken by a built-in or a plugin")
                continue
            try:
                value = self._install(name, obj) if self._install else obj
            except (TypeError, ValueError) as exc:
                self._problem(name, str(exc))
                continue
            dict.__setitem__(self, name, value)
            self._from_plugins.add(name)

    def _problem(self, name: str, error: str) -> None:
        reject(self._group, name, error)

    def __getitem__(self, key: str) -> V:
        self._merge()
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._merge()
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._merge()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._merge()
        return dict.__len__(self)

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self._merge()
        return dict.get(self, key, default)

    def keys(self) -> Any:
        self._merge()
        return dict.keys(self)

    def values(self) -> Any:
        self._merge()
        return dict.values(self)

    def items(self) -> Any:
        self._merge()
        return dict.items(self)

    def __repr__(self) -> str:
        self._merge()
        return dict.__repr__(self)
