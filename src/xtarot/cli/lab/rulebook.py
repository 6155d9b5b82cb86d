"""``xtarot lab seats``, ``stats`` and ``compare``: the rulebook's matches in self-play
(seat advantage, distributions and events) and rule variants on the same deals."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from xtarot.cli.lab.common import (
    AgentsOpt,
    GamesOpt,
    Run,
    WeakOpt,
    comma_list,
    fail,
    num,
    p_text,
    pct,
    play,
    print_footer,
    print_restricted,
    seat_name,
    share_ci,
    study_command,
    study_title,
)
from xtarot.cli.lab.text import tr
from xtarot.cli.options import (
    GameArg,
    PlayersOpt,
)


@study_command()
def seats(
    game: GameArg,
    players: PlayersOpt = None,
    agents: AgentsOpt = "heuristic",
    n_games: GamesOpt = 1000,
    by: Annotated[
        str,
        typer.Option(
            "--by", help="Count seats in play 'order' (Seat 1 acts first) or by 'table' seat."
        ),
    ] = "order",
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            min=1,
            help="Score matches of N deals, the lead passing "
            "(the same matches, combined; won by the most deals won).",
        ),
    ] = 1,
    komi: Annotated[
        float,
        typer.Option(
            "--komi",
            help="Compensation: each later seat in play order gets this "
            "many more points (scored on the same matches).",
        ),
    ] = 0.0,
    *,
    run: Run,
) -> None:
    """Seat advantage: per seat, win share and mean score with 95% intervals."""
    if by not in ("order", "table"):
        fail(f"--by is 'order' or 'table', not {by!r}", run.lang)
    play(
        run,
        game,
        players,
        "run_seats",
        print_seats,
        agents=comma_list(agents),
        games=n_games,
        by=by,
        deals=deals,
        komi=komi,
    )


def print_seats(console: Console, data: dict[str, Any], lang: str) -> None:
    table = Table(title=study_title("seats_title", data, lang))
    table.add_column(tr("col_seat", lang))
    for key in ("col_win", "col_vs_fair", "col_mean", "col_vs_table", "col_p"):
        table.add_column(tr(key, lang), justify="right")
    by = data.get("seat_basis", "order")
    for s in data["seats"]:
        lo, hi = s["win_share_ci95"]
        mlo, mhi = s["mean_score_ci95"]
        table.add_row(
            seat_name(s["seat"], by, lang),
            share_ci(s["win_share"], [lo, hi]),
            num(s["win_share_vs_fair"]),
            f"{num(s['mean_score'])} ({num(mlo)}–{num(mhi)})",
            f"{s['score_vs_table']:+.2f}" if s["score_vs_table"] is not None else "–",
            p_text(s["p_value"]),
        )
    console.print(table)
    console.print(Text(tr("basis_table" if by == "table" else "basis_order", lang), style="dim"))
    print_restricted(console, data, lang)
    fmt = data.get("format")
    if fmt:
        console.print(tr("format", lang, **fmt))
    p = data["win_test"]["p_value"]
    if p is not None:
        key = "favoured" if data["favoured"] else "not_favoured"
        fair = 1 / data["players"]
        console.print(tr(key, lang, p=p, fair=fair, games=data["games"]))
    print_footer(console, data, lang)


@study_command()
def stats(
    game: GameArg,
    players: PlayersOpt = None,
    agents: AgentsOpt = "heuristic",
    n_games: GamesOpt = 1000,
    *,
    run: Run,
) -> None:
    """Distributions: match length, hands, scores, margins, ties and the game's events."""
    play(run, game, players, "run_stats", print_stats, agents=comma_list(agents), games=n_games)


def print_stats(console: Console, data: dict[str, Any], lang: str) -> None:
    table = Table(title=study_title("stats_title", data, lang))
    table.add_column(tr("col_what", lang))
    for key in ("col_mean_sd", "col_median", "col_iqr", "col_90", "col_range"):
        table.add_column(tr(key, lang), justify="right")
    for key, label in (
        ("length", "s_length"),
        ("hands", "s_hands"),
        ("scores", "s_scores"),
        ("winner_score", "s_winner"),
        ("margin", "s_margin"),
    ):
        d = data.get(key) or {}
        if not d:
            continue
        table.add_row(
            tr(label, lang),
            f"{num(d['mean'], 1)} ({num(d['sd'], 1)})",
            num(d["median"], 1),
            f"{num(d['q25'], 1)}–{num(d['q75'], 1)}",
            f"{num(d['q05'], 1)}–{num(d['q95'], 1)}",
            f"{num(d['min'], 1)}–{num(d['max'], 1)}",
        )
    console.print(table)
    print_restricted(console, data, lang)
    ties = data.get("ties") or {}
    if ties.get("shared_first") is not None:
        console.print(tr("ties", lang, shared=ties["shared_first"], level=ties["all_level"]))
    print_events(console, data.get("events") or [], lang)
    print_footer(console, data, lang)


def print_events(console: Console, events: list[dict[str, Any]], lang: str) -> None:
    if not events:
        return
    table = Table(title=tr("events_title", lang))
    table.add_column(tr("col_event", lang))
    for key in ("col_per_match", "col_share", "col_per_hand"):
        table.add_column(tr(key, lang), justify="right")
    for e in events:
        lo, hi = e["mean_ci95"]
        table.add_row(
            e["event"],
            f"{num(e['mean'], 3)} ({num(lo, 3)}–{num(hi, 3)})",
            pct(e["share_of_matches"]),
            num(e["per_hand"], 3),
        )
    console.print(table)


@study_command()
def compare(
    game: GameArg,
    variant: Annotated[
        list[str],
        typer.Option(
            "--variant",
            "-v",
            help="A rule variant as KEY=VALUE[,KEY=VALUE] ('default': the defaults); "
            "repeat it; the first is the baseline (one alone is compared with the defaults).",
        ),
    ],
    players: PlayersOpt = None,
    agents: AgentsOpt = "heuristic",
    strong: Annotated[
        str, typer.Option("--strong", help="The stronger bot of the skill panel.")
    ] = "heuristic",
    weak: WeakOpt = "random",
    no_skill: Annotated[
        bool, typer.Option("--no-skill", help="Skip the strong-against-weak panel.")
    ] = False,
    n_games: GamesOpt = 500,
    *,
    run: Run,
) -> None:
    """Rule variants on the same deals: seat advantage, length, score spread, how often
    the stronger bot wins, events; differences against the first variant."""
    play(
        run,
        game,
        players,
        "run_compare",
        print_compare,
        variants=variant,
        agents=comma_list(agents),
        strong=None if no_skill else strong,
        weak=weak,
        games=n_games,
    )


def _diff(d: dict[str, Any] | None, percent: bool = False) -> list[str]:
    """difference, its interval, p, q (``*``: significant after the FDR adjustment)."""
    if not d or d.get("difference") is None:
        return ["–", "–", "–", "–"]
    lo, hi = d["difference_ci95"]
    k, unit = (100, " pp") if percent else (1, "")
    q = d.get("q_value")
    star = " *" if q is not None and q < 0.05 else ""
    return [
        f"{k * d['difference']:+.2f}{unit}",
        f"{k * lo:+.2f} … {k * hi:+.2f}",
        p_text(d.get("p_value")),
        p_text(q) + star,
    ]


def _moved(d: dict[str, Any] | None) -> bool:
    """Whether a difference is not exactly zero in every paired game."""
    if not d or d.get("difference") is None:
        return False
    lo, hi = d["difference_ci95"]
    return not (d["difference"] == 0 and lo == 0 and hi == 0)


def print_compare(console: Console, data: dict[str, Any], lang: str) -> None:
    title = tr(
        "compare_title", lang, game=data["game"], players=data["players"], games=data["games"]
    )
    table = Table(title=title)
    table.add_column(tr("col_variant", lang), overflow="fold", min_width=20)
    strong = data.get("strong")
    for key in ("col_seat_p", "col_length", "col_hands", "col_spread"):
        table.add_column(tr(key, lang), justify="right")
    if strong:
        table.add_column(tr("col_strong", lang, strong=strong), justify="right")
    table.add_column(tr("col_same", lang), justify="right")
    for v in data["variants"]:
        name = v["variant"]
        if name == data["baseline"]:
            name += " " + tr("baseline", lang)
        row = [
            name,
            p_text((v.get("seat_test") or {}).get("p_value")),
            num(v.get("length"), 1),
            num(v.get("hands"), 2),
            num(v.get("spread"), 2),
        ]
        if strong:
            row.append(pct(v.get("strong_win_share")))
        same = (v.get("vs_baseline") or {}).get("same_deals")
        row.append("" if same is None else pct(same))
        table.add_row(*row)
    console.print(table)
    for v in data["variants"]:
        vs = v.get("vs_baseline")
        if not vs:
            continue
        diff = Table(title=f"{v['variant']} — " + tr("diff_title", lang, base=data["baseline"]))
        diff.add_column(tr("col_measure", lang), overflow="fold")
        for key in ("col_diff", "col_ci", "col_p", "col_q"):
            diff.add_column(tr(key, lang), justify="right")
        measures: list[tuple[str, dict[str, Any] | None, bool]] = [
            (tr("m_length", lang), vs.get("length"), False),
            (tr("m_spread", lang), vs.get("spread"), False),
        ]
        if strong:
            measures.append((tr("m_strong", lang), vs.get("strong_win_share"), True))
        events = vs.get("events") or {}
        measures += [(name, e, False) for name, e in events.items() if _moved(e)]
        for name, d, percent in measures:
            diff.add_row(name, *_diff(d, percent))
        seats = vs.get("seats") or {}
        if seats.get("p_value") is not None:
            q = seats.get("q_value")
            star = " *" if q is not None and q < 0.05 else ""
            diff.add_row(tr("m_seats", lang), "", "", p_text(seats["p_value"]), p_text(q) + star)
        console.print(diff)
    console.print(Text(tr("star", lang), style="dim"))
    print_restricted(console, data, lang)
    print_footer(console, data, lang)
