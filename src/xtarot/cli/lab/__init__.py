"""``xtarot lab``: seat advantage, rule variants, luck, distributions, the skill trace,
feel, tuning, restricted players, reports.

Every study plays bots-only matches on every CPU by default (``--workers``), or on
Ray (``--ray local`` or ``--ray ADDRESS``); ``--out DIR`` keeps one Parquet row per
match and a manifest, so an interrupted run resumes with the same command and runs of
one design merge.  ``--json`` prints exactly one JSON object (seats counted from 0, as
in the API); tables for people count seats from 1 and speak English or Japanese
(``--lang``).  Needs the lab extra: ``pip install "xtarot[lab]"``.

The commands live in one module per group (``rulebook``: seats, stats, compare;
``skill_luck``: luck, skill; ``match_feel``; ``tuning``; ``files``: restrictions, report,
merge, findings); ``common`` holds the options every study shares and ``text`` the
English and Japanese texts.
"""

from __future__ import annotations

import typer

from xtarot.cli.lab.files import findings, merge, report, restrictions
from xtarot.cli.lab.match_feel import feel, print_feel
from xtarot.cli.lab.rulebook import (
    compare,
    print_compare,
    print_events,
    print_seats,
    print_stats,
    seats,
    stats,
)
from xtarot.cli.lab.skill_luck import luck, print_luck, print_skill, skill
from xtarot.cli.lab.text import TEXT, tr
from xtarot.cli.lab.tuning import print_tune, tune

__all__ = [
    "TEXT",
    "app",
    "print_compare",
    "print_events",
    "print_feel",
    "print_luck",
    "print_seats",
    "print_skill",
    "print_stats",
    "print_tune",
    "tr",
]

app = typer.Typer(
    name="lab",
    help="Study the games at scale: seat advantage, rule variants, luck, distributions, "
    "the skill trace, how a match feels, tuning the rules, restricted players, HTML reports "
    "(needs the lab extra: pip install 'xtarot\\[lab]').",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

for _command in (
    seats,
    stats,
    compare,
    luck,
    skill,
    feel,
    tune,
    restrictions,
    report,
    merge,
    findings,
):
    app.command()(_command)
