"""The lab: tournaments between bots and rule-balance studies at scale.

``run_tournament`` and the engine (``xtarot.lab.runner``) need nothing beyond xtarot;
the studies, Parquet storage and reports need the lab extra (``pip install
"xtarot[lab]"``: pandas, pyarrow, scipy, matplotlib, Ray, Optuna) and are imported on first use,
so ``import xtarot.lab`` works without it.

- ``run_seats``, ``run_compare``, ``run_luck``, ``run_stats``, ``run_skill``,
  ``run_feel`` — the studies (``xtarot.lab.studies``), each returning a ``LabResult``
  with pandas DataFrames; ``run_tune`` — a search of the rules toward targets with
  Optuna (``xtarot.lab.tune``);
- ``run_tournament`` — bots against bots, rotated or duplicate;
- ``read_rows(DIR)`` — a lab directory's matches as a DataFrame; ``merge`` joins
  directories; ``analyse(DIR)`` recomputes a directory's studies; ``write_report``
  draws them into one HTML page.

See ``docs/lab.md``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from xtarot.lab.tournament import AgentResult, TournamentResult, run_tournament, wilson_interval

__all__ = [
    "AgentResult",
    "LabResult",
    "TournamentResult",
    "analyse",
    "merge",
    "read_rows",
    "run_compare",
    "run_feel",
    "run_luck",
    "run_seats",
    "run_skill",
    "run_stats",
    "run_tournament",
    "run_tune",
    "wilson_interval",
    "write_report",
]

_LAZY = {
    "LabResult": "xtarot.lab.studies",
    "analyse": "xtarot.lab.studies",
    "run_compare": "xtarot.lab.studies",
    "run_feel": "xtarot.lab.studies",
    "run_skill": "xtarot.lab.studies",
    "run_tune": "xtarot.lab.tune",
    "run_luck": "xtarot.lab.studies",
    "run_seats": "xtarot.lab.studies",
    "run_stats": "xtarot.lab.studies",
    "merge": "xtarot.lab.store",
    "read_rows": "xtarot.lab.store",
    "write_report": "xtarot.lab.report",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'xtarot.lab' has no attribute {name!r}")
    return getattr(import_module(module), name)
