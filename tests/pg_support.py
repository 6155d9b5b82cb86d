"""A throwaway PostgreSQL server for the tests, from Debian's ``postgresql`` package
(``.ci/run`` installs it): started on a free loopback port in a temporary folder,
restartable, removed at the end.  Tests skip, saying why, where PostgreSQL or
``psycopg`` is missing."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class Postgres:
    """One PostgreSQL server (``url``: an SQLAlchemy URL of its database ``xtarot``)."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: use its own account
            if shutil.which("runuser") is None:
                pytest.skip("running as root without runuser: cannot start PostgreSQL")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.folder = Path(tempfile.mkdtemp(prefix="xtarot-pg-"))
        self.folder.chmod(0o755)
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://xt@127.0.0.1:{self.port}/xtarot"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=120)

    def _ctl(self, *args: str) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), *args)

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=on"
        self._ctl("-o", opts, "-l", str(self.folder / "log"), "-w", "start")

    def create(self) -> None:
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "xt", "--no-sync"
        )
        self.start()
        self._run(
            str(self.bin / "createdb"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "xt",
            "xtarot",
        )

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "-w", "stop")

    def remove(self) -> None:
        subprocess.run(
            [
                *self.as_user,
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A fresh PostgreSQL server for the length of the block (or the test skips)."""
    pytest.importorskip(
        "psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')"
    )
    found = pg_bin()
    if found is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    pg = Postgres(found)
    try:
        pg.create()
        yield pg
    finally:
        pg.remove()
