"""What the browser tests share: where Chromium is and how it is started."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

#: Debian's Chromium (never ``playwright install``); ``XTAROT_CHROMIUM`` overrides it.
CHROMIUM = os.environ.get("XTAROT_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def have_chromium() -> bool:
    return Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is not None
