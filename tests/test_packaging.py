"""What people install is what we test: the built sdist and wheel carry every file the
program reads at run time.

The source tree's package (``src/xtarot``) is listed file by file: the modules, and
everything the server and the CLI open at run time (the pages, scripts, stylesheets and
game layouts under ``server/static``, the rules texts, ``py.typed``), whatever gets
added later.  Each must be in the wheel and in the sdist, and the wheel built from the
sdist, as an index would install it.  The artifacts are built here (as pure Python, which
is quick) from a clean copy of the project (see :func:`clean_tree`), or taken from
``XTAROT_DIST`` when CI has built them already.

The wheel's metadata must make the browser part of the default install: the web
server's libraries are plain requirements, not an extra.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import xtarot

#: CI runs this module again against the built wheel (conftest.py, `.ci/run`).
pytestmark = pytest.mark.installed

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "xtarot"
#: What a build or a run leaves in the source tree and no artifact carries.
GENERATED = re.compile(r"(^|/)__pycache__/|\.(pyc|pyo|so|pyd|c)$")


def runtime_files() -> list[str]:
    """Every file of the package in the source tree, as ``xtarot/...`` paths."""
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if path.is_file() and not GENERATED.search(rel):
            out.append(rel)
    return out


def clean_tree(dest: Path) -> Path:
    """A copy of the project as a fresh clone has it (the files git tracks, and new
    ones not ignored), without what an install leaves in the source tree: an editable
    install's ``src/xtarot.egg-info`` lists every file, and a build beside it would ship
    files that a build from a clean checkout leaves out."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot tell the project's files from build output")
    for name in sorted(set(listed.stdout.decode("utf-8").split("\0")) - {""}):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the work tree is left out
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the sdist and the wheel built from it (``python -m build``)."""
    given = os.environ.get("XTAROT_DIST")
    if given:
        return Path(given)
    if not PACKAGE.is_dir():
        pytest.skip("no source tree to build from")
    out = tmp_path_factory.mktemp("dist")
    tree = clean_tree(tmp_path_factory.mktemp("tree"))
    env = {**os.environ, "XTAROT_PURE_PYTHON": "1"}  # no Cython compile: same files
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(tree)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def only(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"{pattern} in {folder}: {[f.name for f in found]}"
    return found[0]


def test_the_source_tree_lists_what_the_program_reads() -> None:
    files = runtime_files()
    # the list is not empty by accident: the kinds of runtime file that were once lost
    for needed in (
        "xtarot/py.typed",
        "xtarot/server/static/table.html",
        "xtarot/server/static/replay.html",
        "xtarot/server/static/replay.js",
        "xtarot/server/static/games/fairy500.js",
        "xtarot/server/static/games/fairy500.css",
        "xtarot/rules/matto.ja.md",
        "xtarot/adapters/models/value-sono-arcana-4p.npz",  # a shipped model (issue 38)
    ):
        assert needed in files
    assert not any(GENERATED.search(f) for f in files)


def test_the_wheel_carries_every_runtime_file(dist: Path) -> None:
    wheel = only(dist, "xtarot-*.whl")
    assert wheel.name.startswith(f"xtarot-{xtarot.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [f for f in runtime_files() if f not in names]
    assert not missing, f"{wheel.name} lacks {len(missing)} files: {missing[:12]}"


def test_the_sdist_carries_every_runtime_file(dist: Path) -> None:
    sdist = only(dist, "xtarot-*.tar.gz")
    top = f"xtarot-{xtarot.__version__}/"
    with tarfile.open(sdist) as tar:
        names = {n.removeprefix(top) for n in tar.getnames()}
    missing = [f for f in runtime_files() if f"src/{f}" not in names]
    assert not missing, f"{sdist.name} lacks {len(missing)} files: {missing[:12]}"
    for needed in ("pyproject.toml", "setup.py", "README.md", "CHANGELOG.md"):
        assert needed in names


def test_the_browser_is_in_the_default_install(dist: Path) -> None:
    wheel = only(dist, "xtarot-*.whl")
    with zipfile.ZipFile(wheel) as z:
        meta_name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(z.read(meta_name).decode("utf-8"))
    assert meta["Version"] == xtarot.__version__
    plain = {
        re.split(r"[\s<>=!~\[;]", r, maxsplit=1)[0].lower()
        for r in meta.get_all("Requires-Dist") or []
        if "extra ==" not in r
    }
    for lib in ("fastapi", "uvicorn", "websockets", "sqlalchemy", "platformdirs"):
        assert lib in plain, f"{lib} is not a default requirement: {sorted(plain)}"
    assert "markdown-it-py" in plain
    # a database other than the embedded SQLite stays an extra
    assert "psycopg" not in plain
    assert "postgres" in (meta.get_all("Provides-Extra") or [])
