"""A lab run on disk: one Parquet row per match plus a manifest; resume and merge.

Layout of ``DIR``::

    DIR/manifest.json          format, the design, and every run (command, seed, games,
                               backend, versions, start and end times)
    DIR/rows/part-*.parquet    the rows: one per match (see ``SCHEMA``)

A run writes each finished chunk of games at once (an interrupted run loses only the
chunks in flight) and compacts its parts when it ends.  Running the same design into
the same ``DIR`` again plays only the games it lacks (resume; more games; another
seed); :func:`merge` joins directories of one design, e.g. halves played on two machines
with ``start``.  Rows are unique by (seed, index, variant, lineup, arrangement).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from xtarot.lab.runner import LAB_EXTRA, ROW_KEY, Design

try:
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as _err:  # pragma: no cover - exercised without the extra
    raise ImportError(LAB_EXTRA) from _err

__all__ = ["SCHEMA", "LabError", "Store", "merge", "read_rows", "versions"]

FORMAT = "xtarot-lab"
VERSION = 1

SCHEMA = pa.schema(
    [
        ("seed", pa.int64()),
        ("index", pa.int64()),
        ("variant", pa.string()),
        ("lineup", pa.string()),
        ("arrangement", pa.int32()),
        ("game_seed", pa.int64()),
        ("deal", pa.string()),
        ("agents", pa.list_(pa.string())),
        ("first", pa.int16()),
        ("scores", pa.list_(pa.float64())),
        ("ranks", pa.list_(pa.int16())),
        ("length", pa.int32()),
        ("hands", pa.int32()),
        ("events", pa.string()),
        ("seconds", pa.float64()),
        # JSON of xtarot.lab.feel's measures; "" (or null in rows stored before it)
        # when the design does not measure them
        ("feel", pa.string()),
    ]
)


class LabError(ValueError):
    """A lab directory that cannot be used as asked (another design, not a lab run…)."""


def versions() -> dict[str, str]:
    """The versions a manifest records."""
    import xtarot

    out = {
        "xtarot": xtarot.__version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    for name in ("pandas", "pyarrow", "numpy", "ray"):
        module = sys.modules.get(name)
        if module is not None:
            out[name] = str(getattr(module, "__version__", "?"))
    return out


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def rows_table(rows: Sequence[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(list(rows), schema=SCHEMA)


def frame(rows: Sequence[dict[str, Any]] | pa.Table) -> pd.DataFrame:
    """Rows as a DataFrame sorted by their key (list columns hold Python lists)."""
    table = rows if isinstance(rows, pa.Table) else rows_table(rows)
    df = table.to_pandas(types_mapper=None)
    for col in ("agents", "scores", "ranks"):
        df[col] = df[col].map(list)
    df["feel"] = df["feel"].fillna("")
    df = df.drop_duplicates(subset=list(ROW_KEY), keep="first")
    return df.sort_values(list(ROW_KEY), kind="stable").reset_index(drop=True)


class Store:
    """A lab directory opened for one design."""

    def __init__(self, path: str | os.PathLike[str], design: Design) -> None:
        self.path = Path(path)
        self.design = design
        self.rows_dir = self.path / "rows"
        manifest = self.path / "manifest.json"
        if manifest.exists():
            data = read_manifest(self.path)
            if data["design"] != design.to_dict():
                raise LabError(_design_difference(self.path, data["design"], design.to_dict()))
            self.manifest = data
        else:
            if self.path.exists() and any(self.path.iterdir()):
                raise LabError(f"{self.path} is not empty and holds no lab manifest")
            self.manifest = {
                "format": FORMAT,
                "version": VERSION,
                "design": design.to_dict(),
                "runs": [],
            }
        self._parts: list[Path] = []
        self._stored: set[int] = set()  # the game indices this run stored

    # -- what is there -------------------------------------------------------------------
    def frame(self) -> pd.DataFrame:
        return read_rows(self.path)

    def done(self, seed: int) -> set[int]:
        """Game indices of ``seed`` whose matches are all stored."""
        if not self.rows_dir.exists():
            return set()
        df = self.frame()
        if df.empty:
            return set()
        df = df[df["seed"] == seed]
        counts = df.groupby("index").size()
        return {int(i) for i, c in counts.items() if c >= self.design.per_index}

    # -- writing -------------------------------------------------------------------------
    def begin(self, run: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        self.rows_dir.mkdir(exist_ok=True)
        self.run = {**run, "started": _now(), "finished": None, "versions": versions()}
        self.manifest["runs"].append(self.run)
        self._write_manifest()

    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        """Store a finished chunk at once (atomically: a part is whole or absent)."""
        if not rows:
            return
        name = f"part-{time.strftime('%Y%m%d%H%M%S')}-{uuid.uuid4().hex[:8]}.parquet"
        _write_table(rows_table(rows), self.rows_dir / name)
        self._parts.append(self.rows_dir / name)
        self._stored.update(int(r["index"]) for r in rows)

    def finish(self, *, stopped: bool = False) -> None:
        """Compact this run's parts into one file and close the run in the manifest:
        its end time, the games it stored and whether it was ``stopped`` (Ctrl-C,
        SIGTERM, an error) before playing all it was asked to."""
        if len(self._parts) > 1:
            table = pa.concat_tables([pq.read_table(p) for p in self._parts])
            name = f"part-{time.strftime('%Y%m%d%H%M%S')}-{uuid.uuid4().hex[:8]}.parquet"
            _write_table(table, self.rows_dir / name)
            for p in self._parts:
                p.unlink(missing_ok=True)
            self._parts = [self.rows_dir / name]
        self.run["finished"] = _now()
        self.run["games_stored"] = len(self._stored)
        self.run["stopped"] = stopped
        self._write_manifest()

    def _write_manifest(self) -> None:
        tmp = self.path / f".manifest-{uuid.uuid4().hex[:8]}.json"
        tmp.write_text(json.dumps(self.manifest, indent=1, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, self.path / "manifest.json")


def _write_table(table: pa.Table, path: Path) -> None:
    tmp = path.with_name("." + path.name + ".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def _design_difference(path: Path, old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = [k for k in new if old.get(k) != new.get(k)]
    what = "; ".join(f"{k}: {old.get(k)!r} there, {new.get(k)!r} now" for k in keys)
    return (
        f"{path} holds another design ({what}); choose another --out directory "
        "(runs merge only when they play the same design)"
    )


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any]:
    file = Path(path) / "manifest.json"
    try:
        data = json.loads(file.read_text("utf-8"))
    except FileNotFoundError:
        raise LabError(f"{path} is not a lab directory (no manifest.json)") from None
    except (OSError, ValueError) as err:
        raise LabError(f"{file} cannot be read: {err}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LabError(f"{file} is not an xtarot lab manifest")
    if data.get("version") != VERSION:
        raise LabError(f"{file} has version {data.get('version')}; this xtarot reads {VERSION}")
    return data


def read_rows(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Every stored row of a lab directory as a DataFrame (``attrs["manifest"]`` holds
    the manifest), one row per match, sorted and without duplicates."""
    manifest = read_manifest(path)
    parts = sorted((Path(path) / "rows").glob("part-*.parquet"))
    if parts:
        table = pa.concat_tables([pq.read_table(p, schema=SCHEMA) for p in parts])
    else:
        table = SCHEMA.empty_table()
    df = frame(table)
    df.attrs["manifest"] = manifest
    return df


def merge(sources: Iterable[str | os.PathLike[str]], out: str | os.PathLike[str]) -> pd.DataFrame:
    """Join lab directories of one design into ``out`` (new or of the same design)."""
    paths = [Path(p) for p in sources]
    if not paths:
        raise LabError("merge needs at least one lab directory")
    manifests = [read_manifest(p) for p in paths]
    design = manifests[0]["design"]
    for p, m in zip(paths, manifests, strict=True):
        if m["design"] != design:
            raise LabError(_design_difference(p, design, m["design"]))
    target = Path(out)
    if (target / "manifest.json").exists():
        existing = read_manifest(target)
        if existing["design"] != design:
            raise LabError(_design_difference(target, existing["design"], design))
        runs = list(existing["runs"])
        frames = [read_rows(target)]
    else:
        if target.exists() and any(target.iterdir()):
            raise LabError(f"{target} is not empty and holds no lab manifest")
        runs, frames = [], []
    for p, m in zip(paths, manifests, strict=True):
        if p.resolve() == target.resolve():
            continue
        runs += [{**r, "merged_from": str(p)} for r in m["runs"]]
        frames.append(read_rows(p))
    df = pd.concat(frames, ignore_index=True) if frames else frame([])
    df = df.drop_duplicates(subset=list(ROW_KEY), keep="first")
    df = df.sort_values(list(ROW_KEY), kind="stable").reset_index(drop=True)
    (target / "rows").mkdir(parents=True, exist_ok=True)
    name = f"part-{time.strftime('%Y%m%d%H%M%S')}-{uuid.uuid4().hex[:8]}.parquet"
    old = list((target / "rows").glob("part-*.parquet"))
    table = pa.Table.from_pandas(df[list(SCHEMA.names)], schema=SCHEMA, preserve_index=False)
    _write_table(table, target / "rows" / name)
    for p in old:
        p.unlink(missing_ok=True)
    manifest = {"format": FORMAT, "version": VERSION, "design": design, "runs": runs}
    tmp = target / ".manifest.tmp"
    tmp.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", "utf-8")
    os.replace(tmp, target / "manifest.json")
    return read_rows(target)
