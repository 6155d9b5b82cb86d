"""The screen of a running app as plain text (for tests and for looking at it)."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App

__all__ = ["screen_text"]


def screen_text(app: App[object]) -> list[str]:
    """What the terminal shows now: one string per row (double-width characters
    take two columns, as on the terminal)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), color_system=None, record=True
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text().splitlines()[:height]
