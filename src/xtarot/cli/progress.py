"""Progress of long runs (simulate, tournament, lab) on stderr.

In a terminal: a rich bar with the time remaining.  Elsewhere (a pipe, a log file): one
line at every tenth of the run and at least every 30 seconds, so a piped run is never
silent.  Nothing at all with ``quiet`` (``--json``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from xtarot.cli.i18n import t

__all__ = ["progress"]


@contextmanager
def progress(
    label: str,
    lang: str,
    *,
    total: int | None = None,
    quiet: bool = False,
    line: str = "progress_line",
) -> Iterator[Callable[..., None]]:
    """Yield ``update(done, total=None)``; ``total`` may be given up front or with each
    update (a run whose size is known only once it starts).  ``line``: the message key
    of the piped form (its unit: matches by default)."""
    err = Console(stderr=True)
    if err.is_terminal and not quiet:
        bar = Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        )
        with bar:
            task = bar.add_task("run", total=total)

            def update_bar(done: int, new_total: int | None = None) -> None:
                bar.update(task, completed=done, total=new_total or total)

            yield update_bar
        return
    start = last = time.perf_counter()
    shown = -1

    def update(done: int, new_total: int | None = None) -> None:
        nonlocal last, shown
        size = new_total or total or 0
        now = time.perf_counter()
        tenth = done * 10 // size if size else 10
        if quiet or (tenth <= shown and now - last < 30 and done < size):
            return
        shown, last = tenth, now
        text = t(line, lang, label=label, done=done, total=size, seconds=now - start)
        print(text, file=sys.stderr, flush=True)

    yield update
