"""``xtarot lab restrictions``, ``report``, ``merge`` and ``findings``: what a seat can
be restricted to, and what is done with lab directories once played."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from xtarot.cli.lab.common import (
    guarded,
    lab_module,
    lang_of,
    out_console,
    players_of,
)
from xtarot.cli.lab.text import tr
from xtarot.cli.options import (
    GameArg,
    LangOpt,
    RayOpt,
    WorkersOpt,
)


def restrictions(
    game: GameArg,
    lang: LangOpt = None,
) -> None:
    """The restrictions a game's seats can be given (--restrict SEAT:NAME)."""
    from xtarot.agents.restrict import restrictions_for

    lang = lang_of(lang)
    players_of(game, None, lang)
    table = Table(title=tr("restrictions_title", lang, game=game))
    table.add_column(tr("col_restriction", lang))
    table.add_column(tr("col_meaning", lang), overflow="fold")
    for r in restrictions_for(game):
        table.add_row(r.usage(), r.ja if lang == "ja" else r.en)
    out_console().print(table)
    out_console().print(Text(tr("restrictions_usage", lang), style="dim"))


def report(
    directory: Annotated[
        Path, typer.Argument(help="A lab directory, or a folder of lab directories.")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")] = Path(
        "report.html"
    ),
    lang: LangOpt = None,
) -> None:
    """A self-contained HTML page with plots of what DIR holds."""
    lang = lang_of(lang)
    write_report = lab_module("report", lang).write_report
    figures = guarded(lang, None, lambda: write_report(directory, output, lang=lang))
    out_console().print(tr("report_done", lang, path=output, figures=figures))


def merge(
    directories: Annotated[list[Path], typer.Argument(help="Lab directories of one design.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The merged lab directory.")],
    lang: LangOpt = None,
) -> None:
    """Join lab directories of one design (e.g. halves run on two machines)."""
    lang = lang_of(lang)
    merge_dirs = lab_module("store", lang).merge
    df = guarded(lang, output, lambda: merge_dirs(directories, output))
    runs = len(df.attrs["manifest"]["runs"])
    games = int(df[["seed", "index"]].drop_duplicates().shape[0]) if len(df) else 0
    out_console().print(tr("merge_done", lang, out=output, games=games, matches=len(df), runs=runs))


def findings(
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the lab directories (resumable).")
    ] = Path("lab-findings"),
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The Markdown file to write.")
    ] = Path("findings.md"),
    scale: Annotated[
        float, typer.Option("--scale", min=0.001, help="Multiply every game count by this.")
    ] = 1.0,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    lang: LangOpt = None,
) -> None:
    """Run the published study plan (every game and player count, every option, luck,
    events) and write docs/findings.md from it."""
    lang = lang_of(lang)
    run_findings = lab_module("findings", lang).run_findings

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    guarded(
        lang, out, lambda: run_findings(out, output, scale=scale, workers=workers, ray=ray, log=log)
    )
    out_console().print(tr("findings_done", lang, path=output))
