"""``xtarot lab luck`` and ``skill``: how far skill shows through the cards, one bot
against weaker ones (luck) and along a ladder of levels (the skill trace)."""

from __future__ import annotations

import math
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from xtarot.cli.lab.common import (
    GamesOpt,
    Run,
    WeakOpt,
    comma_list,
    hands_text,
    num,
    pct,
    play,
    print_footer,
    print_restricted,
    share_ci,
    study_command,
)
from xtarot.cli.lab.text import tr
from xtarot.cli.options import (
    GameArg,
    PlayersOpt,
)


@study_command()
def luck(
    game: GameArg,
    players: PlayersOpt = None,
    strong: Annotated[str, typer.Option("--strong", help="The stronger bot.")] = "heuristic",
    weak: WeakOpt = "random",
    n_games: GamesOpt = 500,
    *,
    run: Run,
) -> None:
    """Skill against luck: the stronger bot's match-win rate by match length, the hands
    it needs for 75% / 90%, and the deal / play split of a hand's score (duplicate)."""
    play(run, game, players, "run_luck", print_luck, strong=strong, weak=weak, games=n_games)


def print_luck(console: Console, data: dict[str, Any], lang: str) -> None:
    strong, weak = data["strong"], data["weak"]
    title = tr(
        "luck_title",
        lang,
        game=data["game"],
        players=data["players"],
        strong=strong,
        weak=weak,
        deals=data["deals"],
        arr=data["arrangements_per_deal"],
    )
    table = Table(title=title)
    table.add_column(tr("col_match", lang), justify="right")
    table.add_column(tr("col_match_win", lang, strong=strong), justify="right")
    for point in data["curve"]:
        lo, hi = point["ci95"]
        table.add_row(str(point["hands"]), share_ci(point["win_share"], [lo, hi]))
    console.print(table)
    longest = data["curve"][-1]["hands"] if data["curve"] else 0
    console.print(
        tr(
            "luck_need",
            lang,
            strong=strong,
            h75=hands_text(data["hands_for_75"], lang, longest),
            h90=hands_text(data["hands_for_90"], lang, longest),
            one=data["single_hand_win_share"] or 0.0,
            fair=data["fair_share"],
        )
    )
    rule = data.get("match_hands")
    if rule:
        points = {p["hands"]: p["win_share"] for p in data["curve"]}
        if rule in points:
            console.print(tr("luck_rulebook", lang, n=rule, strong=strong, p=points[rule]))
    var = data["variance"]
    if var.get("deal_share") is not None:
        lo, hi = var["deal_share_ci95"]
        console.print(
            tr(
                "luck_variance",
                lang,
                deal=var["deal_share"],
                play=1 - var["deal_share"],
                lo=lo or 0.0,
                hi=hi or 0.0,
            )
        )
    edge = data["duplicate_edge"]
    if edge.get("per_hand") is not None:
        lo, hi = edge["ci95"]
        console.print(
            tr("luck_edge", lang, strong=strong, weak=weak, edge=edge["per_hand"], lo=lo, hi=hi)
        )
    print_restricted(console, data, lang)
    print_footer(console, data, lang)


@study_command()
def skill(
    game: GameArg,
    players: PlayersOpt = None,
    ladder: Annotated[
        str,
        typer.Option(
            "--ladder",
            help="The levels, weakest first, comma-separated (any bots; "
            "a bare 'hard' plays --hard play-outs a move).",
        ),
    ] = "random,easy,normal,hard",
    hard: Annotated[
        int, typer.Option("--hard", min=1, help="Play-outs a move of a bare 'hard' level.")
    ] = 30,
    expert: Annotated[
        int,
        typer.Option(
            "--expert",
            min=0,
            help="Add 'expert' with this many play-outs a move on "
            "top of the ladder (0: none; it is slow).",
        ),
    ] = 0,
    no_bottom: Annotated[
        bool, typer.Option("--no-bottom", help="Skip each level against the lowest one.")
    ] = False,
    n_games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Deals (each played in every seating).")
    ] = 100,
    *,
    run: Run,
) -> None:
    """The skill trace: each level against the one below (and the lowest) in duplicate
    hands; win share and score edge per step, the hands and matches it takes to tell
    the levels apart, and whether a step barely shows (a luck-heavy game)."""
    play(
        run,
        game,
        players,
        "run_skill",
        print_skill,
        ladder=comma_list(ladder),
        hard=hard,
        expert=expert,
        bottom=not no_bottom,
        games=n_games,
    )


def _count(x: float | None) -> str:
    return "–" if x is None else f"{math.ceil(x - 1e-9):,}"


def print_skill(console: Console, data: dict[str, Any], lang: str) -> None:
    steps = data.get("steps") or []
    arr = (steps[0]["hands_measured"] // max(1, steps[0]["deals"])) if steps else 0
    deals = steps[0]["deals"] if steps else 0
    title = tr(
        "skill_title", lang, game=data["game"], players=data["players"], deals=deals, arr=arr
    )
    table = Table(title=title)
    table.add_column(tr("col_step", lang), overflow="fold")
    for key in (
        "col_hand_win",
        "col_vs_fair",
        "col_edge",
        "col_75",
        "col_match_win_short",
        "col_recognise",
        "col_shows",
    ):
        table.add_column(tr(key, lang), justify="right")
    longest = steps[0]["curve"][-1]["hands"] if steps and steps[0]["curve"] else 100
    for st in steps:
        name = f"{st['strong']} > {st['weak']}"
        if st["kind"] == "bottom":
            name += " " + tr("step_bottom", lang)
        elo, ehi = st["edge_ci95"]
        edge = "–" if st["edge"] is None else f"{st['edge']:+.2f} ({elo:+.2f}…{ehi:+.2f})"
        table.add_row(
            name,
            share_ci(st["win_share"], st["win_share_ci95"]),
            num(st["win_share_vs_fair"]),
            edge,
            hands_text(st["hands_for_75"], lang, longest),
            pct(st["match_win_share"]),
            f"{_count(st['hands_to_recognise'])} / {_count(st['matches_to_recognise'])}",
            tr(f"shows_{st['shows']}", lang),
        )
    console.print(table)
    print_restricted(console, data, lang)
    adjacent = [st for st in steps if st["kind"] == "step"]
    for st in adjacent:
        if st["shows"] == "barely":
            console.print(
                tr(
                    "skill_barely",
                    lang,
                    strong=st["strong"],
                    weak=st["weak"],
                    share=st["win_share"],
                    fair=st["fair_share"],
                    game=data["game"],
                    hands=hands_text(st["hands_for_75"], lang, longest),
                )
            )
    if adjacent and not data.get("luck_heavy"):
        slow = [f"{st['strong']} > {st['weak']}" for st in adjacent if st["shows"] == "slowly"]
        if slow:
            console.print(tr("skill_slow", lang, steps=", ".join(slow), n=10))
        else:
            console.print(tr("skill_clear", lang, n=10, game=data["game"]))
    if adjacent:
        dup = adjacent[-1]["deals_to_recognise_duplicate"]
        console.print(Text(tr("skill_note", lang, dup=_count(dup)), style="dim"))
    print_footer(console, data, lang)
