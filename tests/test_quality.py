"""Code quality gates that run with the test suite: ruff and the layer contract."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_ruff_lint_is_clean() -> None:
    result = run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "setup.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = run(
        sys.executable, "-m", "ruff", "format", "--check", "src", "tests", "benchmarks", "setup.py"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_layers_point_one_way() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
        "lint-imports"
    )
    if exe is None:
        pytest.fail("lint-imports (import-linter) is not installed: pip install '.[test]'")
    result = run(exe)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout
