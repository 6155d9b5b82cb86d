"""Process pools that play many matches: stopping one at once.

The lab's runs and ``xtarot data export`` play matches on a
:class:`~concurrent.futures.ProcessPoolExecutor`.  When such a run is interrupted
(Ctrl-C, SIGTERM, an error in one match), cancelling the futures left is not
enough: each worker would finish the match it is playing and the one queued for it
(minutes with searching bots), and a parent that exits would leave them running
unseen.  :func:`stop_workers` ends them now.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

__all__ = ["stop_workers"]


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting, terminate its worker processes and reap them.

    The matches they hold are abandoned; results already collected stay valid.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
