"""The files of the learned models (:mod:`xtarot.adapters.belief`,
:mod:`xtarot.adapters.value`): an ``.npz`` of the weights and the metadata as JSON
(the command, version and data that made them), read back without pickle."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["read_model", "write_model"]


def write_model(path: str | Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> int:
    """Write ``arrays`` and ``meta`` to ``path`` (compressed); return the file's size
    in bytes."""
    buf = io.BytesIO()
    blob = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
    np.savez_compressed(buf, **arrays, meta=blob)
    data = buf.getvalue()
    Path(path).write_bytes(data)
    return len(data)


def read_model(
    path: str | Path | Any, what: str, fmt: str, version: int
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and metadata of a file :func:`write_model` wrote, of format ``fmt``
    and ``version``; ``ValueError`` naming ``what`` ("belief model") when it is not
    one."""
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        meta = json.loads(arrays.pop("meta").tobytes().decode())
    except (OSError, KeyError, ValueError, EOFError) as err:
        raise ValueError(f"{path}: not an xtarot {what} ({err})") from err
    if meta.get("format") != fmt or meta.get("format_version") != version:
        raise ValueError(f"{path}: not an xtarot {what} of format {version}")
    return arrays, meta
