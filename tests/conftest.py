"""Fixtures shared by test modules: the browser (``test_web_e2e.py``,
``test_web_tables.py``) and the benchmark scripts loaded as modules."""

from __future__ import annotations

import importlib.util
import os
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright, one per test module."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    if not have_chromium():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def bench_script() -> Callable[[str], Any]:
    """``bench_script("bench_expert")``: ``benchmarks/<name>.py`` as a module (the
    benchmarks are scripts, not part of the package)."""

    def load(name: str) -> Any:
        path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(f"{name}_under_test", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
