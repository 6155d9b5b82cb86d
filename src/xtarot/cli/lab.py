"""``xtarot lab``: seat advantage, rule variants, luck, distributions, the skill trace,
feel, tuning, restricted players, reports.

Every study plays bots-only matches on every CPU by default (``--workers``), or on
Ray (``--ray local`` or ``--ray ADDRESS``); ``--out DIR`` keeps one Parquet row per
match and a manifest, so an interrupted run resumes with the same command and runs of
one design merge.  ``--json`` prints exactly one JSON object (seats counted from 0, as
in the API); tables for people count seats from 1 and speak English or Japanese
(``--lang``).  Needs the lab extra: ``pip install "xtarot[lab]"``.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import xtarot
from xtarot.cli.i18n import pick_lang, say_error
from xtarot.cli.progress import progress
from xtarot.engine import ConfigError

__all__ = ["app"]

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

#: People-facing texts: key -> (English, Japanese).
TEXT: dict[str, tuple[str, str]] = {
    "error": ("Error", "エラー"),
    "seat": ("Seat {n}", "{n}番席"),
    "table_seat": ("Table seat {n}", "卓の{n}番席"),
    "progress": ("Playing", "対局中"),
    "interrupted": (
        "Interrupted. {saved}Run the same command again to resume.",
        "中断しました。{saved}同じコマンドをもう一度実行すると続きから再開します。",
    ),
    "interrupted_saved": (
        "Finished chunks are saved in {out}. ",
        "完了した分は {out} に保存済みです。",
    ),
    "interrupted_lost": ("Without --out nothing was kept. ", "--out がないため結果は残りません。"),
    "seats_title": (
        "Seat advantage — {game}, {players} players, {games} matches, bots: {agents}",
        "席順の有利不利 — {game} {players}人戦 {games}試合、ボット：{agents}",
    ),
    "col_seat": ("seat", "席"),
    "col_win": ("win share (95% CI)", "勝率（95%信頼区間）"),
    "col_vs_fair": ("× fair", "公平比"),
    "col_mean": ("mean score (95% CI)", "平均得点（95%信頼区間）"),
    "col_vs_table": ("vs table mean", "卓平均との差"),
    "col_p": ("p", "p値"),
    "favoured": (
        "Seats differ: p = {p:.3g} (win shares, Wald test); fair share {fair:.1%}.",
        "席による差があります：p = {p:.3g}（勝率のWald検定）、公平な勝率 {fair:.1%}。",
    ),
    "not_favoured": (
        "No seat is shown to be favoured: p = {p:.3g} (win shares, Wald test); "
        "differences this small cannot be told from chance at {games} matches.",
        "席による差は確認できません：p = {p:.3g}（勝率のWald検定）。"
        "{games}試合ではこの程度の差は偶然と区別できません。",
    ),
    "basis_order": (
        "Seats in play order: Seat 1 acts first in the match (parent / left of the dealer / "
        "player #1), then clockwise.",
        "席は手番順：1番席が最初に行動する席（親・ディーラーの左隣・1番手）、以降時計回り。",
    ),
    "basis_table": ("Seats are the engine's table seats.", "席はエンジンの卓の席番号です。"),
    "footer": (
        "seed {seed} · {seconds:.1f} s · {rate:.1f} matches/s{out}",
        "シード {seed} · {seconds:.1f}秒 · 毎秒{rate:.1f}試合{out}",
    ),
    "saved_in": (" · saved in {out}", " · 保存先 {out}"),
    "compare_title": (
        "Rule variants — {game}, {players} players, {games} deals per variant",
        "ルールの比較 — {game} {players}人戦、各{games}配り",
    ),
    "col_variant": ("variant", "ルール"),
    "col_seat_p": ("seat p", "席差p値"),
    "col_length": ("length (actions)", "長さ（手数）"),
    "col_hands": ("hands", "ハンド数"),
    "col_spread": ("score spread", "得点のばらつき"),
    "col_strong": ("{strong} wins", "{strong}の勝率"),
    "col_same": ("same deals", "同じ配り"),
    "baseline": ("(baseline)", "（基準）"),
    "diff_title": (
        "Differences against {base} (paired by deal)",
        "{base} との差（同じ配りで比較）",
    ),
    "col_measure": ("measure", "指標"),
    "col_diff": ("difference", "差"),
    "col_ci": ("95% CI", "95%信頼区間"),
    "col_q": ("q (FDR)", "q値（FDR）"),
    "star": (
        "* significant: q < 0.05 after adjusting every p-value of this comparison for their "
        "number (Benjamini-Hochberg). Unchanged events are not listed.",
        "* 有意：この比較の全p値を検定数で補正（Benjamini-Hochberg法）した q < 0.05。"
        "変化のない出来事は省略。",
    ),
    "m_length": ("length", "長さ"),
    "m_spread": ("score spread", "得点のばらつき"),
    "m_seats": ("seat shares", "席ごとの勝率"),
    "m_strong": ("stronger bot's wins", "強いボットの勝率"),
    "luck_title": (
        "Skill against luck — {game}, {players} players: {strong} against {weak}, "
        "{deals} deals × {arr} seatings",
        "実力と運 — {game} {players}人戦：{strong} 対 {weak}、{deals}配り × {arr}通りの着席",
    ),
    "col_match": ("match of N hands", "N ハンドの試合"),
    "col_match_win": ("{strong} wins the match (95% CI)", "{strong}の試合勝率（95%信頼区間）"),
    "luck_need": (
        "{strong} wins 75% of matches from {h75} hands and 90% from {h90} hands "
        "(one hand: {one:.1%}; fair share {fair:.1%}).",
        "{strong}が試合の75%に勝つには{h75}ハンド、90%には{h90}ハンド必要です"
        "（1ハンドでは{one:.1%}、公平な勝率{fair:.1%}）。",
    ),
    "luck_never": ("more than {n}", "{n}より多い"),
    "luck_rulebook": (
        "The rulebook's match is {n} hand(s): {strong} wins it {p:.1%} of the time.",
        "ルールブックの試合は{n}ハンド：{strong}の勝率は{p:.1%}です。",
    ),
    "luck_variance": (
        "A hand's score: {deal:.0%} deal (95% CI {lo:.0%}–{hi:.0%}), {play:.0%} play "
        "(duplicate: the same cards played by different bots).",
        "1ハンドの得点のばらつき：配り {deal:.0%}（95%信頼区間 {lo:.0%}–{hi:.0%}）、"
        "プレイ {play:.0%}（同じ手札を別のボットが打つデュプリケート方式）。",
    ),
    "luck_edge": (
        "With the same cards {strong} scores {edge:+.2f} per hand more than {weak} "
        "(95% CI {lo:+.2f} to {hi:+.2f}).",
        "同じ手札で{strong}は{weak}より1ハンドあたり{edge:+.2f}点多く取ります"
        "（95%信頼区間 {lo:+.2f}〜{hi:+.2f}）。",
    ),
    "stats_title": (
        "Distributions — {game}, {players} players, {games} matches, bots: {agents}",
        "分布 — {game} {players}人戦 {games}試合、ボット：{agents}",
    ),
    "col_what": ("", ""),
    "col_mean_sd": ("mean (sd)", "平均（標準偏差）"),
    "col_median": ("median", "中央値"),
    "col_iqr": ("25–75%", "25–75%"),
    "col_90": ("5–95%", "5–95%"),
    "col_range": ("min–max", "最小–最大"),
    "s_length": ("length (actions)", "長さ（手数）"),
    "s_hands": ("hands", "ハンド数"),
    "s_scores": ("score (every seat)", "得点（全席）"),
    "s_winner": ("winner's score", "勝者の得点"),
    "s_margin": ("winning margin", "勝ちの差"),
    "ties": (
        "Shared first place in {shared:.1%} of matches; everyone level in {level:.1%}.",
        "1位の同点：{shared:.1%}の試合、全員同点：{level:.1%}。",
    ),
    "events_title": ("Events", "出来事"),
    "col_event": ("event", "出来事"),
    "col_per_match": ("per match (95% CI)", "1試合あたり（95%信頼区間）"),
    "col_share": ("matches with it", "起きた試合の割合"),
    "col_per_hand": ("per hand", "1ハンドあたり"),
    "report_done": (
        "Report written to {path} ({figures} figures).",
        "レポートを {path} に書き出しました（図 {figures} 点）。",
    ),
    "merge_done": (
        "{out} now holds {games} games ({matches} matches) from {runs} runs.",
        "{out} には {runs} 回の実行による {games} 局（{matches} 試合）があります。",
    ),
    "findings_done": ("Findings written to {path}.", "調査結果を {path} に書き出しました。"),
    "restricted": (
        "Restricted: {rules} (Seat 1 acts first).",
        "制限：{rules}（1番席が最初に行動）。",
    ),
    "format": (
        "Scored as matches of {deals} deal(s), the lead passing, komi {komi:+g} per later "
        "seat: {matches} matches.",
        "{deals}ディール（親番が回る）の試合・後の席ごとに{komi:+g}点のコミとして集計：{matches}試合。",
    ),
    "skill_title": (
        "Skill trace — {game}, {players} players, {deals} deals × {arr} seatings (single hands)",
        "スキルの段差 — {game} {players}人戦、{deals}配り × {arr}通りの着席（1ハンド）",
    ),
    "col_step": ("step", "段差"),
    "col_hand_win": ("hands won (95% CI)", "ハンド勝率（95%信頼区間）"),
    "col_edge": ("score edge (95% CI)", "得点差（95%信頼区間）"),
    "col_75": ("75% from", "75%に必要"),
    "col_match_win_short": ("match won", "試合勝率"),
    "col_recognise": ("hands / matches to tell", "見分けるのに必要なハンド／試合"),
    "col_shows": ("shows", "表れ方"),
    "shows_clearly": ("clearly", "はっきり"),
    "shows_slowly": ("slowly", "ゆっくり"),
    "shows_barely": ("barely", "ほとんど表れない"),
    "step_bottom": ("(against the bottom)", "（最下位に対して）"),
    "skill_barely": (
        "{strong} over {weak} barely shows: {strong} wins {share:.1%} of hands against a fair "
        "{fair:.1%}, and needs {hands} hands to win 75% of matches — at this step {game} is "
        "a game of luck (luck-heavy).",
        "{strong} と {weak} の差はほとんど表れません：{strong} のハンド勝率は {share:.1%}"
        "（公平な勝率 {fair:.1%}）、試合の75%に勝つには{hands}ハンドかかります。"
        "この段差では {game} は運の要素が大きいゲームです。",
    ),
    "skill_clear": (
        "Every step of the ladder shows within {n} hands: skill is recognised in {game}.",
        "ラダーのどの段差も{n}ハンド以内に表れます：{game} では実力が見分けられます。",
    ),
    "skill_slow": (
        "No step is luck-heavy, but these take more than {n} hands to show: {steps}.",
        "運が支配的な段差はありませんが、次の段差は表れるまで{n}ハンドより多くかかります：{steps}。",
    ),
    "skill_note": (
        "Hands / matches to tell: ordinary play until a test (5%, power 80%) tells the "
        "stronger level from a fair share; duplicate needs {dup} deals for the top step.",
        "見分けるのに必要な数：通常の対局で、強い側の勝率を公平な勝率と区別できる（有意水準5%、"
        "検出力80%）までのハンド数／試合数。デュプリケートなら最上段は{dup}配りで足ります。",
    ),
    "feel_title": (
        "How a match feels — {game}, {players} players, {games} matches, bots: {agents}",
        "試合の手ざわり — {game} {players}人戦 {games}試合、ボット：{agents}",
    ),
    "col_metric": ("measure", "指標"),
    "f_decisions": ("decisions (moves)", "意思決定（手数）"),
    "f_choices": ("decisions with a choice", "選択のある手"),
    "f_hands": ("hands", "ハンド数"),
    "f_minutes": ("minutes (estimate)", "所要時間（推定、分）"),
    "f_branching": ("branching factor", "分岐数"),
    "f_branching_at_choices": ("branching at choices", "選択時の分岐数"),
    "f_forced_share": ("forced moves", "強制手の割合"),
    "f_lead_changes": ("lead changes", "首位交代"),
    "f_lead_changes_per_hand": ("lead changes per hand", "1ハンドあたり首位交代"),
    "f_drama": ("drama (share of top score)", "ドラマ（最高点に対する割合）"),
    "f_drama_points": ("drama (points behind)", "ドラマ（点差）"),
    "f_settled_at": ("winner settled at", "勝者が決まった時点"),
    "f_comeback": ("comebacks", "逆転勝ち"),
    "f_kingmaker_positions": ("kingmaker positions", "キングメーカー局面"),
    "f_kingmaking": ("kingmaking signs", "キングメイキングの兆候"),
    "f_shared_first": ("shared first place", "1位の同点"),
    "f_all_level": ("everyone level", "全員同点"),
    "feel_note": (
        "Minutes are an estimate ({choice:g} s a choice + {per_bit:g} s per bit of choice, "
        "{forced:g} s a forced move, {hand:g} s a hand), not a measurement of people. "
        "Definitions and sources: docs/lab.md.",
        "所要時間は推定値です（選択1回 {choice:g}秒＋選択肢の情報量1ビットあたり {per_bit:g}秒、"
        "強制手 {forced:g}秒、1ハンド {hand:g}秒）。人の計測ではありません。"
        "定義と出典：docs/lab.md。",
    ),
    "tune_title": (
        "Tuning — {game}, {players} players: {targets}; {trials} trials of {games} matches",
        "ルール探索 — {game} {players}人戦：{targets}、{trials}試行 × {games}試合",
    ),
    "col_trial": ("trial", "試行"),
    "col_state": ("state", "状態"),
    "col_settings": ("settings", "設定"),
    "col_values": ("values", "値"),
    "tune_best": ("Best: trial {n}, {settings}.", "最良：試行 {n}、{settings}。"),
    "tune_best_seats": (
        "Win shares by seat (play order): {shares}; largest gap to fair {gap:.1%}.",
        "席ごとの勝率（手番順）：{shares}。公平な勝率との最大の差 {gap:.1%}。",
    ),
    "tune_best_minutes": (
        "Minutes: {mean:.1f} (95% CI {lo:.1f}–{hi:.1f}).",
        "所要時間：{mean:.1f}分（95%信頼区間 {lo:.1f}–{hi:.1f}）。",
    ),
    "tune_best_drama": (
        "Drama: {mean:.3f} (95% CI {lo:.3f}–{hi:.3f}).",
        "ドラマ：{mean:.3f}（95%信頼区間 {lo:.3f}–{hi:.3f}）。",
    ),
    "tune_best_skill": (
        "{strong} wins {share:.1%} of {hands}-hand matches against {weak} "
        "(95% CI {lo:.1%}–{hi:.1%}).",
        "{hands}ハンドの試合で {strong} が {weak} に勝つ割合：{share:.1%}"
        "（95%信頼区間 {lo:.1%}–{hi:.1%}）。",
    ),
    "tune_pareto": (
        "Pareto front (no trial does better on both): {trials}.",
        "パレートフロント（両方で上回る試行がない）：{trials}。",
    ),
    "tune_none": ("No trial completed.", "完了した試行はありません。"),
    "tune_confirm": (
        "Confirm with more matches on fresh deals (a search's best looks better than it is):",
        "新しい配りで試合数を増やして確認してください（探索の最良値は実際より良く見えます）：",
    ),
    "restrictions_title": ("Restrictions for {game}", "{game} の制限"),
    "col_restriction": ("restriction", "制限"),
    "col_meaning": ("meaning", "意味"),
    "restrictions_usage": (
        "Give them with --restrict SEAT:NAME (seats from 1 in play order; "
        "several: 2:no-chi+no-pon).",
        "--restrict 席:名前 で指定します（席は手番順で1から。複数：2:no-chi+no-pon）。",
    ),
}


def tr(key: str, lang: str, /, **fields: Any) -> str:
    en, ja = TEXT[key]
    return (ja if lang == "ja" else en).format(**fields)


# -- shared plumbing -------------------------------------------------------------------------
def _err() -> Console:
    return Console(stderr=True, highlight=False, markup=False, soft_wrap=True)


def _out() -> Console:
    return Console(highlight=False, markup=False)


def fail(message: str, lang: str = "en", code: int = 2) -> NoReturn:
    sep = "：" if lang == "ja" else ": "
    _err().print(Text(f"{tr('error', lang)}{sep}{say_error(message, lang)}", style="red"))
    raise typer.Exit(code)


def _lang(chosen: str | None) -> str:
    try:
        return pick_lang(chosen)
    except ValueError as err:
        fail(str(err))


def _studies(lang: str) -> Any:
    """The studies module (fails clearly without the lab extra)."""
    try:
        from xtarot.lab import studies
    except ImportError as err:
        fail(str(err), lang, code=1)
    return studies


def _players(game: str, players: int | None, lang: str) -> int:
    for info in xtarot.games():
        if info.id == game:
            if players is not None:
                return players
            return 4 if 4 in info.players else info.min_players
    known = ", ".join(i.id for i in xtarot.games())
    fail(f"unknown game {game!r}; games: {known}", lang)


def _options(items: list[str] | None, lang: str) -> dict[str, Any]:
    from xtarot.lab.runner import Variant

    try:
        return Variant.parse_options(",".join(items or []))
    except ValueError as err:
        fail(str(err), lang)


def _agents(spec: str) -> list[str]:
    return [a.strip() for a in spec.split(",") if a.strip()]


def _command() -> str:
    return shlex.join(["xtarot", *sys.argv[1:]])


def _run(lang: str, out: Path | None, call: Callable[[], Any]) -> Any:
    """Run a study; turn the lab's errors into messages and Ctrl-C into advice."""
    from xtarot.lab.store import LabError

    try:
        return call()
    except KeyboardInterrupt:
        saved = (
            tr("interrupted_saved", lang, out=out)
            if out is not None
            else tr("interrupted_lost", lang)
        )
        _err().print(Text(tr("interrupted", lang, saved=saved), style="yellow"))
        raise typer.Exit(130) from None
    except (ConfigError, LabError, ValueError) as err:
        fail(str(err), lang)
    except ImportError as err:
        fail(str(err), lang, code=1)


def _study(
    lang: str,
    out: Path | None,
    as_json: bool,
    call: Callable[[Callable[..., None]], Any],
    printer: Callable[[Console, dict[str, Any], str], None],
) -> None:
    """Run a study with progress on stderr, then print it: one JSON object with
    ``--json``, else the study's tables."""
    with progress(tr("progress", lang), lang, quiet=as_json) as update:
        result = _run(lang, out, lambda: call(update))
    data = result.to_dict()
    if as_json:
        _emit(data)
    else:
        printer(_out(), data, lang)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _p(x: float | None) -> str:
    return "–" if x is None else f"{x:.3g}"


def _seat_name(n: int, by: str, lang: str) -> str:
    return tr("table_seat" if by == "table" else "seat", lang, n=n + 1)


def _share_ci(x: float | None, ci: list[float | None]) -> str:
    lo, hi = ci
    if x is None or lo is None or hi is None:
        return "–"
    return f"{100 * x:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def _footer(console: Console, data: dict[str, Any], lang: str) -> None:
    seconds = data.get("seconds") or 0.0
    rate = data.get("played", data["matches"]) / seconds if seconds > 0 else 0.0
    out = tr("saved_in", lang, out=data["out"]) if data.get("out") else ""
    seeds = ",".join(map(str, data.get("seeds") or [data.get("seed")]))
    console.print(
        Text(tr("footer", lang, seed=seeds, seconds=seconds, rate=rate, out=out), style="dim")
    )


# -- common options ------------------------------------------------------------------------
GameArg = Annotated[str, typer.Argument(help="Game id (see `xtarot games`).")]
PlayersOpt = Annotated[
    int | None,
    typer.Option("--players", "-p", help="Players (default: 4 when allowed, else the minimum)."),
]
GamesOpt = Annotated[int, typer.Option("--games", "-n", help="Matches (deals) to play.", min=1)]
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Seed of the run: every match's seed derives from it.")
]
StartOpt = Annotated[
    int,
    typer.Option(
        "--start", min=0, help="First game index (split one design across machines: 0, 5000, …)."
    ),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", "-w", min=1, help="Processes (default: every CPU; 1: no pool)."),
]
RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="local|ADDRESS",
        help="Run on Ray: 'local' starts one here (with --workers CPUs), an address joins "
        "a cluster (every node needs xtarot installed).",
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Lab directory: one Parquet row per match + manifest; resumes and merges.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", help="Language of the output: ja or en (default: from LC_ALL/LANG)."),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as KEY=VALUE (repeatable)."),
]
AgentsOpt = Annotated[
    str,
    typer.Option(
        "--agents",
        "-a",
        help="Bots, comma-separated, rotated over the seats (random, heuristic, ismcts, pimc; "
        "ismcts:N / pimc:N set a budget; package.module:factory for your own).",
    ),
]


RestrictOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--restrict",
        metavar="SEAT:RULE",
        help="Restrict a seat (in play order, from 1): '2:no-chi', '1:max-bid=7', "
        "'3:never=draw discard' (repeatable; `xtarot lab restrictions GAME` lists them).",
    ),
]


def _emit(data: dict[str, Any]) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False))


# -- seats ---------------------------------------------------------------------------------
@app.command()
def seats(
    game: GameArg,
    players: PlayersOpt = None,
    agents: AgentsOpt = "heuristic",
    n_games: GamesOpt = 1000,
    seed: SeedOpt = 1,
    start: StartOpt = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: OutOpt = None,
    option: OptionOpt = None,
    by: Annotated[
        str,
        typer.Option(
            "--by", help="Count seats in play 'order' (Seat 1 acts first) or by 'table' seat."
        ),
    ] = "order",
    restrict: RestrictOpt = None,
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
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Seat advantage: per seat, win share and mean score with 95% intervals."""
    lang = _lang(lang)
    studies = _studies(lang)
    n = _players(game, players, lang)
    opts = _options(option, lang)
    if by not in ("order", "table"):
        fail(f"--by is 'order' or 'table', not {by!r}", lang)
    _study(
        lang,
        out,
        as_json,
        lambda update: studies.run_seats(
            game,
            n,
            agents=_agents(agents),
            games=n_games,
            seed=seed,
            options=opts,
            by=by,
            restrict=restrict or [],
            deals=deals,
            komi=komi,
            start=start,
            workers=workers,
            ray=ray,
            out=out,
            command=_command(),
            on_progress=update,
        ),
        print_seats,
    )


def print_seats(console: Console, data: dict[str, Any], lang: str) -> None:
    title = tr(
        "seats_title",
        lang,
        game=data["game"],
        players=data["players"],
        games=data["games"],
        agents=",".join(data["agents"]),
    )
    table = Table(title=title)
    table.add_column(tr("col_seat", lang))
    for key in ("col_win", "col_vs_fair", "col_mean", "col_vs_table", "col_p"):
        table.add_column(tr(key, lang), justify="right")
    by = data.get("seat_basis", "order")
    for s in data["seats"]:
        lo, hi = s["win_share_ci95"]
        mlo, mhi = s["mean_score_ci95"]
        table.add_row(
            _seat_name(s["seat"], by, lang),
            _share_ci(s["win_share"], [lo, hi]),
            _num(s["win_share_vs_fair"]),
            f"{_num(s['mean_score'])} ({_num(mlo)}–{_num(mhi)})",
            f"{s['score_vs_table']:+.2f}" if s["score_vs_table"] is not None else "–",
            _p(s["p_value"]),
        )
    console.print(table)
    console.print(Text(tr("basis_table" if by == "table" else "basis_order", lang), style="dim"))
    _print_restricted(console, data, lang)
    fmt = data.get("format")
    if fmt:
        console.print(tr("format", lang, **fmt))
    p = data["win_test"]["p_value"]
    if p is not None:
        key = "favoured" if data["favoured"] else "not_favoured"
        fair = 1 / data["players"]
        console.print(tr(key, lang, p=p, fair=fair, games=data["games"]))
    _footer(console, data, lang)


# -- stats ---------------------------------------------------------------------------------
@app.command()
def stats(
    game: GameArg,
    players: PlayersOpt = None,
    agents: AgentsOpt = "heuristic",
    n_games: GamesOpt = 1000,
    seed: SeedOpt = 1,
    start: StartOpt = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: OutOpt = None,
    option: OptionOpt = None,
    restrict: RestrictOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Distributions: match length, hands, scores, margins, ties and the game's events."""
    lang = _lang(lang)
    studies = _studies(lang)
    n = _players(game, players, lang)
    opts = _options(option, lang)
    _study(
        lang,
        out,
        as_json,
        lambda update: studies.run_stats(
            game,
            n,
            agents=_agents(agents),
            games=n_games,
            seed=seed,
            options=opts,
            restrict=restrict or [],
            start=start,
            workers=workers,
            ray=ray,
            out=out,
            command=_command(),
            on_progress=update,
        ),
        print_stats,
    )


def print_stats(console: Console, data: dict[str, Any], lang: str) -> None:
    title = tr(
        "stats_title",
        lang,
        game=data["game"],
        players=data["players"],
        games=data["games"],
        agents=",".join(data["agents"]),
    )
    table = Table(title=title)
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
            f"{_num(d['mean'], 1)} ({_num(d['sd'], 1)})",
            _num(d["median"], 1),
            f"{_num(d['q25'], 1)}–{_num(d['q75'], 1)}",
            f"{_num(d['q05'], 1)}–{_num(d['q95'], 1)}",
            f"{_num(d['min'], 1)}–{_num(d['max'], 1)}",
        )
    console.print(table)
    _print_restricted(console, data, lang)
    ties = data.get("ties") or {}
    if ties.get("shared_first") is not None:
        console.print(tr("ties", lang, shared=ties["shared_first"], level=ties["all_level"]))
    print_events(console, data.get("events") or [], lang)
    _footer(console, data, lang)


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
            f"{_num(e['mean'], 3)} ({_num(lo, 3)}–{_num(hi, 3)})",
            _pct(e["share_of_matches"]),
            _num(e["per_hand"], 3),
        )
    console.print(table)


# -- compare -------------------------------------------------------------------------------
@app.command()
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
    weak: Annotated[str, typer.Option("--weak", help="The weaker bots' name.")] = "random",
    no_skill: Annotated[
        bool, typer.Option("--no-skill", help="Skip the strong-against-weak panel.")
    ] = False,
    n_games: GamesOpt = 500,
    seed: SeedOpt = 1,
    start: StartOpt = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: OutOpt = None,
    option: OptionOpt = None,
    restrict: RestrictOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Rule variants on the same deals: seat advantage, length, score spread, how often
    the stronger bot wins, events; differences against the first variant."""
    lang = _lang(lang)
    studies = _studies(lang)
    n = _players(game, players, lang)
    opts = _options(option, lang)
    _study(
        lang,
        out,
        as_json,
        lambda update: studies.run_compare(
            game,
            n,
            variant,
            agents=_agents(agents),
            strong=None if no_skill else strong,
            weak=weak,
            games=n_games,
            seed=seed,
            options=opts,
            restrict=restrict or [],
            start=start,
            workers=workers,
            ray=ray,
            out=out,
            command=_command(),
            on_progress=update,
        ),
        print_compare,
    )


def _diff(d: dict[str, Any] | None, pct: bool = False) -> list[str]:
    """difference, its interval, p, q (``*``: significant after the FDR adjustment)."""
    if not d or d.get("difference") is None:
        return ["–", "–", "–", "–"]
    lo, hi = d["difference_ci95"]
    k, unit = (100, " pp") if pct else (1, "")
    q = d.get("q_value")
    star = " *" if q is not None and q < 0.05 else ""
    return [
        f"{k * d['difference']:+.2f}{unit}",
        f"{k * lo:+.2f} … {k * hi:+.2f}",
        _p(d.get("p_value")),
        _p(q) + star,
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
            _p((v.get("seat_test") or {}).get("p_value")),
            _num(v.get("length"), 1),
            _num(v.get("hands"), 2),
            _num(v.get("spread"), 2),
        ]
        if strong:
            row.append(_pct(v.get("strong_win_share")))
        same = (v.get("vs_baseline") or {}).get("same_deals")
        row.append("" if same is None else _pct(same))
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
        for name, d, pct in measures:
            diff.add_row(name, *_diff(d, pct))
        seats = vs.get("seats") or {}
        if seats.get("p_value") is not None:
            q = seats.get("q_value")
            star = " *" if q is not None and q < 0.05 else ""
            diff.add_row(tr("m_seats", lang), "", "", _p(seats["p_value"]), _p(q) + star)
        console.print(diff)
    console.print(Text(tr("star", lang), style="dim"))
    _print_restricted(console, data, lang)
    _footer(console, data, lang)


# -- luck ----------------------------------------------------------------------------------
@app.command()
def luck(
    game: GameArg,
    players: PlayersOpt = None,
    strong: Annotated[str, typer.Option("--strong", help="The stronger bot.")] = "heuristic",
    weak: Annotated[str, typer.Option("--weak", help="The weaker bots' name.")] = "random",
    n_games: GamesOpt = 500,
    seed: SeedOpt = 1,
    start: StartOpt = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: OutOpt = None,
    option: OptionOpt = None,
    restrict: RestrictOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Skill against luck: the stronger bot's match-win rate by match length, the hands
    it needs for 75% / 90%, and the deal / play split of a hand's score (duplicate)."""
    lang = _lang(lang)
    studies = _studies(lang)
    n = _players(game, players, lang)
    opts = _options(option, lang)
    _study(
        lang,
        out,
        as_json,
        lambda update: studies.run_luck(
            game,
            n,
            strong=strong,
            weak=weak,
            games=n_games,
            seed=seed,
            options=opts,
            restrict=restrict or [],
            start=start,
            workers=workers,
            ray=ray,
            out=out,
            command=_command(),
            on_progress=update,
        ),
        print_luck,
    )


def _hands_text(x: float | None, lang: str, longest: int) -> str:
    """Whole hands (the first length that reaches the target)."""
    return tr("luck_never", lang, n=longest) if x is None else str(math.ceil(x - 1e-9))


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
        table.add_row(str(point["hands"]), _share_ci(point["win_share"], [lo, hi]))
    console.print(table)
    longest = data["curve"][-1]["hands"] if data["curve"] else 0
    console.print(
        tr(
            "luck_need",
            lang,
            strong=strong,
            h75=_hands_text(data["hands_for_75"], lang, longest),
            h90=_hands_text(data["hands_for_90"], lang, longest),
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
    _print_restricted(console, data, lang)
    _footer(console, data, lang)


def _print_restricted(console: Console, data: dict[str, Any], lang: str) -> None:
    rules = data.get("restrictions") or []
    if rules:
        console.print(Text(tr("restricted", lang, rules=", ".join(rules)), style="dim"))


# -- skill ---------------------------------------------------------------------------------
@app.command()
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
    seed: SeedOpt = 1,
    start: StartOpt = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: OutOpt = None,
    option: OptionOpt = None,
    restrict: RestrictOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """The skill trace: each level against the one below (and the lowest) in duplicate
    hands; win share and score edge per step, the hands and matches it takes to tell
    the levels apart, and whether a step barely shows (a luck-heavy game)."""
    lang = _lang(lang)
    studies = _studies(lang)
    n = _players(game, players, lang)
    opts = _options(option, lang)
    _study(
        lang,
        out,
        as_json,
        lambda update: studies.run_skill(
            game,
            n,
            ladder=_agents(ladder),
            hard=hard,
            expert=expert,
            bottom=not no_bottom,
            games=n_games,
            seed=seed,
            options=opts,
            restrict=restrict or [],
            start=start,
            workers=workers,
            ray=ray,
            out=out,
            command=_command(),
            on_progress=update,
        ),
        print_skill,
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
            _share_ci(st["win_share"], st["win_share_ci95"]),
            _num(st["win_share_vs_fair"]),
            edge,
            _hands_text(st["hands_for_75"], lang, longest),
            _pct(st["match_win_share"]),
            f"{_count(st['hands_to_recognise'])} / {_count(st['matches_to_recognise'])}",
            tr(f"shows_{st['shows']}", lang),
        )
    console.print(table)
    _print_restricted(console, data, lang)
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
                    hands=_hands_text(st["hands_for_75"], lang, longest),
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
    _footer(console, data, lang)


# -- feel ----------------------------------------------------------------------------------
@app.command()
def feel(
    game: GameArg,
    players: PlayersOpt = None,
    agents: AgentsOpt = "heuristic",
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            help="An option set to measure as KEY=VALUE[,KEY=VALUE] "
            "(repeatable, on the same deals; none: the defaults with -o).",
        ),
    ] = None,
    n_games: GamesOpt = 200,
    seed: SeedOpt = 1,
    start: StartOpt = 0,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: OutOpt = None,
    option: OptionOpt = None,
    restrict: RestrictOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """How a match feels: length (decisions, hands, minutes), branching, forced moves,
    lead changes, drama, when the winner was settled, comebacks, ties, kingmaking."""
    lang = _lang(lang)
    studies = _studies(lang)
    n = _players(game, players, lang)
    opts = _options(option, lang)
    _study(
        lang,
        out,
        as_json,
        lambda update: studies.run_feel(
            game,
            n,
            agents=_agents(agents),
            variants=variant or [],
            games=n_games,
            seed=seed,
            options=opts,
            restrict=restrict or [],
            start=start,
            workers=workers,
            ray=ray,
            out=out,
            command=_command(),
            on_progress=update,
        ),
        print_feel,
    )


def _mean_ci(m: dict[str, Any] | None, share: bool = False, digits: int = 2) -> str:
    if not m or m.get("mean") is None:
        return "–"
    lo, hi = m["ci95"]
    if share:
        return _share_ci(m["mean"], [lo, hi])
    if lo is None or hi is None:
        return _num(m["mean"], digits)
    return f"{m['mean']:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def print_feel(console: Console, data: dict[str, Any], lang: str) -> None:
    from xtarot.lab.analysis import FEEL_METRICS

    variants = data.get("variants") or []
    title = tr(
        "feel_title",
        lang,
        game=data["game"],
        players=data["players"],
        games=data["games"],
        agents=",".join(data["agents"]),
    )
    table = Table(title=title)
    table.add_column(tr("col_metric", lang))
    for v in variants:
        table.add_column(v["variant"], justify="right", overflow="fold")
    shares = {"forced_share", "settled_at", "comeback", "kingmaking"}
    for name in FEEL_METRICS:
        digits = 1 if name in ("decisions", "choices", "minutes") else 2
        cells = [_mean_ci(v["metrics"].get(name), name in shares, digits) for v in variants]
        table.add_row(tr(f"f_{name}", lang), *cells)
    for key in ("shared_first", "all_level"):
        table.add_row(
            tr(f"f_{key}", lang),
            *[_share_ci(v["ties"][key], v["ties"][f"{key}_ci95"]) for v in variants],
        )
    console.print(table)
    _print_restricted(console, data, lang)
    if variants:
        console.print(Text(tr("feel_note", lang, **variants[0]["pace"]), style="dim"))
    _footer(console, data, lang)


# -- tune ----------------------------------------------------------------------------------
@app.command()
def tune(
    game: GameArg,
    target: Annotated[
        list[str],
        typer.Option(
            "--target",
            "-t",
            help="What to aim at: seats (no seat advantage), "
            "minutes=M, drama, skill=H (skill shows within H hands); one, or two "
            "for a Pareto front.",
        ),
    ],
    space: Annotated[
        list[str] | None,
        typer.Option(
            "--space",
            "-s",
            help="What may change: KEY=LO..HI[:STEP], KEY=A|B|C, a "
            "bare bool option; the game's options and deals=1..N, komi=LO..HI.",
        ),
    ] = None,
    players: PlayersOpt = None,
    trials: Annotated[int, typer.Option("--trials", min=1, help="Trials in all.")] = 20,
    batch: Annotated[
        int, typer.Option("--batch", min=1, help="Trials proposed and played together.")
    ] = 4,
    n_games: Annotated[
        int, typer.Option("--games", "-n", min=2, help="Matches per trial (the same deals).")
    ] = 100,
    seed: SeedOpt = 1,
    agents: AgentsOpt = "heuristic",
    strong: Annotated[
        str, typer.Option("--strong", help="The stronger bot of the skill target.")
    ] = "normal",
    weak: Annotated[str, typer.Option("--weak", help="The weaker bot of the skill target.")] = (
        "easy"
    ),
    no_prune: Annotated[
        bool, typer.Option("--no-prune", help="Play every trial in full (no pruning).")
    ] = False,
    confirm_games: Annotated[
        int | None,
        typer.Option(
            "--confirm-games",
            min=1,
            help="Matches in the confirming commands (default: 4 × --games, at least 200).",
        ),
    ] = None,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Study directory: Optuna's SQLite storage and each option "
            "set's matches; the same command resumes.",
        ),
    ] = None,
    option: OptionOpt = None,
    restrict: RestrictOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Search the rule options (and deals, komi) toward targets with Optuna: the trials,
    the best with intervals or the Pareto front, and the commands that confirm them."""
    lang = _lang(lang)
    n = _players(game, players, lang)
    opts = _options(option, lang)
    try:
        from xtarot.lab import tune as tuning
    except ImportError as err:
        fail(str(err), lang, code=1)
    _study(
        lang,
        out,
        as_json,
        lambda update: tuning.run_tune(
            game,
            n,
            targets=target,
            space=space or [],
            trials=trials,
            batch=batch,
            games=n_games,
            seed=seed,
            options=opts,
            agents=_agents(agents),
            strong=strong,
            weak=weak,
            restrict=restrict or [],
            prune=not no_prune,
            confirm_games=confirm_games,
            workers=workers,
            ray=ray,
            out=out,
            command=_command(),
            on_progress=update,
        ),
        print_tune,
    )


def _settings(trial: dict[str, Any]) -> str:
    items = {**trial.get("options", {}), **trial.get("levers", {})}
    return ", ".join(f"{k}={v}" for k, v in items.items()) or "default"


def print_tune(console: Console, data: dict[str, Any], lang: str) -> None:
    title = tr(
        "tune_title",
        lang,
        game=data["game"],
        players=data["players"],
        targets=", ".join(data["targets"]),
        trials=len(data["trials"]),
        games=data["games"],
    )
    table = Table(title=title)
    table.add_column(tr("col_trial", lang), justify="right")
    table.add_column(tr("col_state", lang))
    table.add_column(tr("col_settings", lang), overflow="fold")
    table.add_column(tr("col_values", lang), justify="right")
    for t in data["trials"]:
        values = ", ".join(f"{v:.4g}" for v in t["values"]) if t["values"] else "–"
        table.add_row(str(t["number"]), t["state"], _settings(t), values)
    console.print(table)
    _print_restricted(console, data, lang)
    chosen = [data["best"]] if data.get("best") else data.get("pareto") or []
    if not chosen:
        console.print(tr("tune_none", lang))
    if data.get("best"):
        console.print(
            tr("tune_best", lang, n=data["best"]["number"], settings=_settings(data["best"]))
        )
    elif chosen:
        console.print(
            tr(
                "tune_pareto",
                lang,
                trials=", ".join(f"{t['number']} ({_settings(t)})" for t in chosen),
            )
        )
    for t in chosen:
        _print_figures(console, data, t, lang)
    if data.get("confirm"):
        console.print(tr("tune_confirm", lang))
        for item in data["confirm"]:
            for command in item["commands"]:
                console.print(Text("  " + command, style="bold"))
    console.print(
        Text(
            tr(
                "footer",
                lang,
                seed=data["seed"],
                seconds=data["seconds"],
                rate=data["played"] / data["seconds"] if data["seconds"] else 0.0,
                out=tr("saved_in", lang, out=data["out"]) if data.get("out") else "",
            ),
            style="dim",
        )
    )


def _print_figures(console: Console, data: dict[str, Any], t: dict[str, Any], lang: str) -> None:
    summary = t.get("summary") or {}
    if "seats" in summary:
        s = summary["seats"]
        shares = "; ".join(
            f"{_seat_name(i, 'order', lang)} {_share_ci(w, ci)}"
            for i, (w, ci) in enumerate(zip(s["win_shares"], s["win_shares_ci95"], strict=True))
        )
        console.print(tr("tune_best_seats", lang, shares=shares, gap=s["gap"]))
    if summary.get("minutes") and summary["minutes"]["ci95"][0] is not None:
        m = summary["minutes"]
        console.print(
            tr("tune_best_minutes", lang, mean=m["mean"], lo=m["ci95"][0], hi=m["ci95"][1])
        )
    if summary.get("drama") and summary["drama"]["ci95"][0] is not None:
        d = summary["drama"]
        console.print(tr("tune_best_drama", lang, mean=d["mean"], lo=d["ci95"][0], hi=d["ci95"][1]))
    if summary.get("skill"):
        k = summary["skill"]
        console.print(
            tr(
                "tune_best_skill",
                lang,
                strong=data["strong"],
                weak=data["weak"],
                share=k["win_share"],
                hands=k["hands"],
                lo=k["ci95"][0],
                hi=k["ci95"][1],
            )
        )


# -- restrictions ----------------------------------------------------------------------------
@app.command()
def restrictions(
    game: GameArg,
    lang: LangOpt = None,
) -> None:
    """The restrictions a game's seats can be given (--restrict SEAT:NAME)."""
    from xtarot.agents.restrict import restrictions_for

    lang = _lang(lang)
    _players(game, None, lang)
    table = Table(title=tr("restrictions_title", lang, game=game))
    table.add_column(tr("col_restriction", lang))
    table.add_column(tr("col_meaning", lang), overflow="fold")
    for r in restrictions_for(game):
        table.add_row(r.usage(), r.ja if lang == "ja" else r.en)
    _out().print(table)
    _out().print(Text(tr("restrictions_usage", lang), style="dim"))


# -- report, merge, findings ----------------------------------------------------------------
@app.command()
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
    lang = _lang(lang)
    try:
        from xtarot.lab.report import write_report
    except ImportError as err:
        fail(str(err), lang, code=1)
    figures = _run(lang, None, lambda: write_report(directory, output, lang=lang))
    _out().print(tr("report_done", lang, path=output, figures=figures))


@app.command()
def merge(
    directories: Annotated[list[Path], typer.Argument(help="Lab directories of one design.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The merged lab directory.")],
    lang: LangOpt = None,
) -> None:
    """Join lab directories of one design (e.g. halves run on two machines)."""
    lang = _lang(lang)
    try:
        from xtarot.lab.store import merge as merge_dirs
    except ImportError as err:
        fail(str(err), lang, code=1)
    df = _run(lang, output, lambda: merge_dirs(directories, output))
    runs = len(df.attrs["manifest"]["runs"])
    games = int(df[["seed", "index"]].drop_duplicates().shape[0]) if len(df) else 0
    _out().print(tr("merge_done", lang, out=output, games=games, matches=len(df), runs=runs))


@app.command()
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
    lang = _lang(lang)
    try:
        from xtarot.lab.findings import run_findings
    except ImportError as err:
        fail(str(err), lang, code=1)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    _run(
        lang, out, lambda: run_findings(out, output, scale=scale, workers=workers, ray=ray, log=log)
    )
    _out().print(tr("findings_done", lang, path=output))
