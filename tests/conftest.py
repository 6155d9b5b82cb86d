"""Fixtures shared by test modules: the browser (``test_web_e2e.py``,
``test_web_tables.py``) and the benchmark scripts loaded as modules; the order the
tests run in (the longest first, :data:`FIRST`)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import ARGS, CHROMIUM, have_chromium

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """``XTAROT_TEST_INSTALLED=1`` (CI's run against the built wheel): the package under
    test must be the installed one, never the source tree beside the tests."""
    if os.environ.get("XTAROT_TEST_INSTALLED", "") in ("", "0"):
        return
    import xtarot

    where = Path(xtarot.__file__).resolve()
    if (ROOT / "src") in where.parents:
        raise pytest.UsageError(f"XTAROT_TEST_INSTALLED is set but xtarot comes from {where}")


#: The modules whose tests take longest one by one (browsers, server processes,
#: PostgreSQL, Ray, whole matches clicked through), run first and in this order, each
#: module's tests together; the rest keep pytest's order after them.  With ``-n 2`` and
#: ``--dist worksteal`` (pyproject.toml) each worker starts on its half of this order
#: and an idle one takes half of what the other has not started, from its end: with the
#: long tests first, what is left at the end is short tests that split evenly, instead
#: of a worker waiting out another's 30-second browser test (test_web_*.py came last in
#: pytest's alphabetical order).
FIRST = (
    "test_web_e2e.py",
    "test_web_feel.py",
    "test_replay.py",
    "test_cluster.py",
    "test_web_people.py",
    "test_server_faults.py",
    "test_cluster_browser.py",
    "test_web_tables.py",
    "test_api_schema.py",
    "test_deploy.py",
    "test_lab.py",
    "test_lab_design.py",
    "test_benchmarks.py",
    "test_accelerator.py",
    "test_quality.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules of :data:`FIRST` first, in its order (a stable sort: each module's
    tests keep their order and stay together, for its module-scoped fixtures).  The
    order is the same in every xdist worker, as xdist requires."""
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))
    _leave_installed_to_the_wheel_stage(items)


def _leave_installed_to_the_wheel_stage(items: list[pytest.Item]) -> None:
    """``XTAROT_WHEEL_STAGE_FOLLOWS=1`` (``.ci/run``, before the README's test command):
    the tests marked ``installed`` run in CI's next stage against the built wheel (the
    artifacts, the server as a user starts it, every game's layout, a whole match in a
    terminal), so the run from the source tree leaves them to it."""
    if os.environ.get("XTAROT_WHEEL_STAGE_FOLLOWS", "") in ("", "0"):
        return
    if os.environ.get("XTAROT_TEST_INSTALLED", "") not in ("", "0"):
        return
    later = pytest.mark.skip(reason="run by CI's wheel stage against the built wheel")
    for item in items:
        if item.get_closest_marker("installed"):
            item.add_marker(later)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright, one per test module."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not have_chromium():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield PacedBrowser(b)
        finally:
            b.close()


class PacedBrowser:
    """The browser, whose new contexts draw every state at once (the table's pace
    "off", ``static/pace.js``): tests that click through matches do not wait out the
    pause a finished trick makes for people.  A test that measures the pace sets
    ``xtarot.pace`` in its own init script, which runs after this one."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **kwargs: Any) -> Any:
        ctx = self._browser.new_context(**kwargs)
        ctx.add_init_script(PACE_OFF)
        return ctx

    def new_page(self, **kwargs: Any) -> Any:
        page = self._browser.new_page(**kwargs)
        page.add_init_script(PACE_OFF)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


PACE_OFF = "try { localStorage.setItem('xtarot.pace', 'off') } catch (e) {}"


@pytest.fixture
def bench_script() -> Callable[[str], Any]:
    """``bench_script("bench_expert")``: ``benchmarks/<name>.py`` as a module (the
    benchmarks are scripts, not part of the package)."""

    def load(name: str) -> Any:
        path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(f"{name}_under_test", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        return module

    return load
