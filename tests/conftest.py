"""Fixtures shared by the browser tests (``test_web_e2e.py``, ``test_web_tables.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import ARGS, CHROMIUM, have_chromium


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
