"""``xtarot lab report``: one self-contained HTML page with plots of lab directories.

Every figure is drawn with matplotlib and embedded as a PNG (``data:`` URL), so the
page is a single file to mail or publish.  For each lab directory under the given
path: what was run (the manifest's commands, seeds and versions), then by kind —
seat advantage with 95% intervals and score distributions (plain matches), the
variant comparison, the luck curve and the variance split, a tournament's win shares.
The figures speak English; the page's headings follow ``lang``.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import time
from pathlib import Path
from typing import Any

from xtarot.lab.runner import LAB_EXTRA

try:
    import numpy as np
    from matplotlib.figure import Figure
except ImportError as _err:  # pragma: no cover
    raise ImportError(LAB_EXTRA) from _err

from xtarot.lab.store import LabError, read_manifest
from xtarot.lab.studies import LabResult, analyse

__all__ = ["find_runs", "write_report"]

_WORDS = {
    "title": ("xtarot lab report", "xtarot ラボ レポート"),
    "generated": ("Generated {when} from {path}.", "{when} に {path} から作成。"),
    "seats": ("Seat advantage", "席順の有利不利"),
    "stats": ("Distributions and events", "分布と出来事"),
    "compare": ("Rule variants", "ルールの比較"),
    "luck": ("Skill against luck", "実力と運"),
    "tournament": ("Tournament", "トーナメント"),
    "skill": ("Skill trace", "スキルの段差"),
    "feel": ("How a match feels", "試合の手ざわり"),
    "tune": ("Tuning study", "ルール探索"),
    "luck_heavy": (
        "Luck-heavy: a step of skill barely shows ({steps}).",
        "運の要素が大きい：ほとんど表れない段差があります（{steps}）。",
    ),
    "skill_shows": ("Every step of skill shows.", "どの段差も実力差が表れます。"),
    "tune_best": ("Best: trial {n} ({settings}).", "最良：試行 {n}（{settings}）。"),
    "tune_pareto": ("Pareto front: {trials}.", "パレートフロント：{trials}。"),
    "confirm": ("Confirm with:", "確認用コマンド："),
    "runs": ("Runs", "実行記録"),
    "events": ("Events (mean per match)", "出来事（1試合あたりの平均）"),
    "favoured": ("Seats differ (p = {p:.3g}).", "席による差があります（p = {p:.3g}）。"),
    "fair": (
        "No seat is shown to be favoured (p = {p:.3g}).",
        "席による差は確認できません（p = {p:.3g}）。",
    ),
    "hands_needed": (
        "75% of matches from {h75} hands, 90% from {h90} hands.",
        "試合の75%に勝つには{h75}ハンド、90%には{h90}ハンド。",
    ),
}


def _w(key: str, lang: str, **fields: Any) -> str:
    en, ja = _WORDS[key]
    return (ja if lang == "ja" else en).format(**fields)


def _is_run(path: Path) -> bool:
    return (path / "manifest.json").exists() or (path / "tune.json").exists()


def find_runs(path: str | os.PathLike[str]) -> list[Path]:
    """The lab directories at ``path`` (a tuning study's directory counts as one):
    itself and what it holds, or its sub-folders (two levels deep)."""
    root = Path(path)
    if not root.is_dir():
        raise LabError(f"{root} is not a lab directory or a folder of them")
    found = [root] if _is_run(root) else []
    if (root / "manifest.json").exists():
        return found
    for pattern in ("*/", "*/*/"):
        found += sorted(
            p for p in root.glob(pattern) if _is_run(p) and p not in found and p.name != "rows"
        )
    if not found:
        raise LabError(f"{root} holds no lab directory (no manifest.json)")
    return found


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="figure" src="data:image/png;base64,{data}">'


def _err(values: list[float], cis: list[list[float | None]]) -> np.ndarray:
    lo = [v - (c[0] if c[0] is not None else v) for v, c in zip(values, cis, strict=True)]
    hi = [(c[1] if c[1] is not None else v) - v for v, c in zip(values, cis, strict=True)]
    return np.array([lo, hi])


def _seat_figures(data: dict[str, Any], rows: Any) -> list[str]:
    seats = data["seats"]
    x = [f"Seat {s['seat'] + 1}" for s in seats]
    fig = Figure(figsize=(9, 3.4))
    ax, bx = fig.subplots(1, 2)
    shares = [s["win_share"] or 0.0 for s in seats]
    ax.errorbar(x, shares, yerr=_err(shares, [s["win_share_ci95"] for s in seats]), fmt="o",
                capsize=5)  # fmt: skip
    ax.axhline(1 / data["players"], color="grey", linestyle="--", label="fair share")
    ax.set_ylabel("win share (95% CI)")
    ax.set_title("Win share by seat (Seat 1 acts first)")
    ax.legend(loc="best", fontsize="small")
    means = [s["mean_score"] or 0.0 for s in seats]
    bx.errorbar(x, means, yerr=_err(means, [s["mean_score_ci95"] for s in seats]), fmt="s",
                color="C1", capsize=5)  # fmt: skip
    bx.set_ylabel("mean score (95% CI)")
    bx.set_title("Mean score by seat")
    figures = [_png(fig)]
    scores = np.array(rows["scores"].tolist(), dtype=float)
    if scores.size:
        first = rows["first"].to_numpy(dtype=int)
        n = scores.shape[1]
        cols = (np.arange(n)[None, :] + first[:, None]) % n
        by_seat = np.take_along_axis(scores, cols, axis=1)
        fig = Figure(figsize=(9, 3.2))
        ax, bx = fig.subplots(1, 2)
        ax.hist(scores.ravel(), bins=40, color="C2")
        ax.set_xlabel("final score (every seat)")
        ax.set_ylabel("seat-matches")
        ax.set_title("Score distribution")
        bx.boxplot([by_seat[:, p] for p in range(n)], showfliers=False)
        bx.set_xticks(range(1, n + 1), [f"Seat {p + 1}" for p in range(n)])
        bx.set_title("Scores by seat")
        figures.append(_png(fig))
    return figures


def _stats_figures(data: dict[str, Any], rows: Any) -> list[str]:
    figures = []
    fig = Figure(figsize=(9, 3.2))
    ax, bx = fig.subplots(1, 2)
    ax.hist(rows["length"], bins=40, color="C0")
    ax.set_xlabel("actions per match")
    ax.set_title("Match length")
    if rows["hands"].nunique() > 1:
        bx.hist(rows["hands"], bins=range(int(rows["hands"].max()) + 2), color="C4")
        bx.set_xlabel("hands per match")
        bx.set_title("Hands per match")
    else:
        margins = data.get("margin") or {}
        bx.bar(["q05", "q25", "median", "q75", "q95"],
               [margins.get(k) or 0 for k in ("q05", "q25", "median", "q75", "q95")])  # fmt: skip
        bx.set_title("Winning margin (quantiles)")
    figures.append(_png(fig))
    events = data.get("events") or []
    if events:
        fig = Figure(figsize=(9, max(2.0, 0.32 * len(events) + 0.8)))
        ax = fig.subplots()
        names = [e["event"] for e in events]
        means = [e["mean"] or 0.0 for e in events]
        ax.barh(names, means, xerr=_err(means, [e["mean_ci95"] for e in events]), color="C5")
        ax.invert_yaxis()
        ax.set_xlabel("mean per match (95% CI)")
        ax.set_title("Events")
        figures.append(_png(fig))
    return figures


def _compare_figures(data: dict[str, Any]) -> list[str]:
    variants = data["variants"]
    names = [v["variant"] for v in variants]
    panels = [("length", "actions per match"), ("spread", "score spread (sd of totals)")]
    if data.get("strong"):
        panels.append(("strong_win_share", f"{data['strong']} win share"))
    fig = Figure(figsize=(4 * len(panels), 0.35 * len(names) + 2.2))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (key, label) in zip(axes, panels, strict=True):
        vals = [v.get(key) or 0.0 for v in variants]
        cis = [v.get(f"{key}_ci95") or [None, None] for v in variants]
        ax.barh(names, vals, xerr=_err(vals, cis), color="C0", capsize=3)
        ax.invert_yaxis()
        ax.set_xlabel(label)
        if key == "strong_win_share":
            ax.axvline(1 / data["players"], color="grey", linestyle="--")
    for ax in axes[1:]:
        ax.set_yticks(range(len(names)), [""] * len(names))
    fig.suptitle("Variants (95% CI); baseline: " + data["baseline"])
    figures = [_png(fig)]
    with_seats = [v for v in variants if v.get("seats")]
    if with_seats:
        n = data["players"]
        fig = Figure(figsize=(9, 3.4))
        ax = fig.subplots()
        width = 0.8 / len(with_seats)
        for i, v in enumerate(with_seats):
            shares = [s["win_share"] or 0.0 for s in v["seats"]]
            pos = np.arange(n) + i * width
            err = _err(shares, [s["win_share_ci95"] for s in v["seats"]])
            ax.bar(pos, shares, width, yerr=err, label=v["variant"], capsize=2)
        ax.axhline(1 / n, color="grey", linestyle="--")
        ax.set_xticks(np.arange(n) + 0.4 - width / 2, [f"Seat {p + 1}" for p in range(n)])
        ax.set_ylabel("win share (95% CI)")
        ax.set_title("Seat advantage by variant")
        ax.legend(fontsize="small")
        figures.append(_png(fig))
    return figures


def _luck_figures(data: dict[str, Any]) -> list[str]:
    curve = data["curve"]
    hands = [p["hands"] for p in curve]
    win = [p["win_share"] for p in curve]
    fig = Figure(figsize=(9, 3.6))
    ax, bx = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 1]})
    ax.fill_between(hands, [p["ci95"][0] for p in curve], [p["ci95"][1] for p in curve],
                    alpha=0.25, label="95% CI")  # fmt: skip
    ax.plot(hands, win, "o-", label=f"{data['strong']} against {data['weak']}")
    for target in (0.75, 0.9):
        ax.axhline(target, color="grey", linestyle=":")
    ax.axhline(data["fair_share"], color="grey", linestyle="--", label="fair share")
    if data.get("match_hands"):
        ax.axvline(data["match_hands"], color="C3", linestyle="--", label="rulebook match")
    ax.set_xscale("log")
    ax.set_xlabel("hands per match")
    ax.set_ylabel("match-win share")
    ax.set_title("Luck curve")
    ax.legend(fontsize="small")
    var = data["variance"]
    if var.get("deal_share") is not None:
        deal = var["deal_share"]
        bx.bar(["deal", "play"], [deal, 1 - deal], color=["C1", "C0"])
        lo, hi = var.get("deal_share_ci95") or [None, None]
        if lo is not None and hi is not None:
            bx.errorbar([0], [deal], yerr=[[deal - lo], [hi - deal]], fmt="none", color="k")
        bx.set_ylim(0, 1)
        bx.set_title("Score variance")
    figures = [_png(fig)]
    return figures


def _tournament_figures(data: dict[str, Any]) -> list[str]:
    agents = data["agents"]
    names = [a["agent"] for a in agents]
    shares = [a["win_share"] for a in agents]
    fig = Figure(figsize=(6, 0.4 * len(names) + 1.8))
    ax = fig.subplots()
    ax.errorbar(shares, names, xerr=_err(shares, [a["win_share_ci95"] for a in agents]),
                fmt="o", capsize=4)  # fmt: skip
    ax.axvline(1 / data["players"], color="grey", linestyle="--", label="fair share")
    ax.invert_yaxis()
    ax.set_xlabel("win share (95% CI)")
    ax.set_title("Tournament")
    ax.legend(fontsize="small")
    return [_png(fig)]


def _skill_figures(data: dict[str, Any]) -> list[str]:
    steps = data.get("steps") or []
    if not steps:
        return []
    fig = Figure(figsize=(10, 3.8))
    ax, bx = fig.subplots(1, 2)
    names = [f"{s['strong']} > {s['weak']}" for s in steps]
    ratio = [s["win_share_vs_fair"] or 0.0 for s in steps]
    fair = data["fair_share"]
    cis = [[c / fair if c is not None else None for c in s["win_share_ci95"]] for s in steps]
    colours = ["C0" if s["kind"] == "step" else "C7" for s in steps]
    ax.barh(names, ratio, xerr=_err(ratio, cis), color=colours, capsize=3)
    ax.axvline(1.0, color="grey", linestyle="--", label="fair share")
    ax.invert_yaxis()
    ax.set_xlabel("hands won, × fair share (95% CI)")
    ax.set_title("Skill ladder (grey: against the bottom)")
    ax.legend(fontsize="small")
    for s in steps:
        hands = [p["hands"] for p in s["curve"]]
        bx.plot(hands, [p["win_share"] for p in s["curve"]], marker="o", markersize=3,
                label=f"{s['strong']} > {s['weak']}",
                linestyle="-" if s["kind"] == "step" else ":")  # fmt: skip
    bx.axhline(0.75, color="grey", linestyle=":")
    bx.axhline(fair, color="grey", linestyle="--")
    if data.get("match_hands"):
        bx.axvline(data["match_hands"], color="C3", linestyle="--", label="rulebook match")
    bx.set_xscale("log")
    bx.set_xlabel("hands per match")
    bx.set_ylabel("match-win share")
    bx.set_title("Luck curve of each step")
    bx.legend(fontsize="x-small")
    return [_png(fig)]


#: the feel measures drawn, with their axis labels
_FEEL_PANELS = (
    ("minutes", "minutes (estimate)"),
    ("branching", "branching factor"),
    ("forced_share", "forced moves (share)"),
    ("lead_changes", "lead changes"),
    ("drama", "drama"),
    ("settled_at", "winner settled at (share)"),
    ("comeback", "comebacks (share)"),
    ("kingmaking", "kingmaking signs (share)"),
)


def _feel_figures(data: dict[str, Any]) -> list[str]:
    variants = data.get("variants") or []
    if not variants:
        return []
    fig = Figure(figsize=(11, 5.2))
    axes = fig.subplots(2, 4).ravel()
    names = [v["variant"] for v in variants]
    for ax, (key, label) in zip(axes, _FEEL_PANELS, strict=True):
        cells = [v["metrics"].get(key) for v in variants]
        if all(c is None for c in cells):
            ax.set_title(f"{label}: n/a", fontsize="small")
            ax.set_axis_off()
            continue
        vals = [c["mean"] if c else 0.0 for c in cells]
        cis = [c["ci95"] if c else [None, None] for c in cells]
        ax.bar(range(len(names)), vals, yerr=_err(vals, cis), color="C2", capsize=3)
        ax.set_xticks(range(len(names)), names, rotation=20, fontsize="x-small")
        ax.set_title(label, fontsize="small")
    fig.suptitle("How a match feels (95% CI)")
    fig.tight_layout()
    return [_png(fig)]


def _tune_figures(data: dict[str, Any]) -> list[str]:
    trials = [t for t in data.get("trials") or [] if t["values"]]
    if not trials:
        return []
    figures = []
    targets = data["targets"]
    fig = Figure(figsize=(10, 3.6))
    axes = fig.subplots(1, len(targets), squeeze=False)[0]
    for i, (ax, target) in enumerate(zip(axes, targets, strict=True)):
        done = [t for t in trials if t["state"] == "complete"]
        cut = [t for t in trials if t["state"] == "pruned"]
        ax.plot([t["number"] for t in done], [t["values"][i] for t in done], "o", label="complete")
        if cut and i == 0:
            ax.plot([t["number"] for t in cut], [t["values"][0] for t in cut], "x",
                    color="C3", label="pruned (half its games)")  # fmt: skip
        if done:
            pick = min if data["directions"][i] == "minimize" else max
            best, run = [], None
            for t in sorted(done, key=lambda t: t["number"]):
                v = t["values"][i]
                run = v if run is None else pick(run, v)
                best.append((t["number"], run))
            ax.step([b[0] for b in best], [b[1] for b in best], where="post", color="C1",
                    label="best so far")  # fmt: skip
        ax.set_xlabel("trial")
        ax.set_ylabel(target)
        ax.set_title(f"{target} ({data['directions'][i]})")
        ax.legend(fontsize="x-small")
    figures.append(_png(fig))
    if len(targets) == 2:
        fig = Figure(figsize=(5.5, 4.2))
        ax = fig.subplots()
        done = [t for t in trials if t["state"] == "complete"]
        front = {t["number"] for t in data.get("pareto") or []}
        ax.plot([t["values"][0] for t in done], [t["values"][1] for t in done], "o",
                color="C7", label="trials")  # fmt: skip
        pts = sorted((t["values"][0], t["values"][1]) for t in done if t["number"] in front)
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color="C3",
                    label="Pareto front")  # fmt: skip
        ax.set_xlabel(targets[0])
        ax.set_ylabel(targets[1])
        ax.set_title("Trade-off between the targets")
        ax.legend(fontsize="small")
        figures.append(_png(fig))
    dims = [d.split("=", 1)[0] for d in data.get("space") or []]
    if dims:
        shown = dims[:4]
        fig = Figure(figsize=(3.2 * len(shown), 3.0))
        axes = fig.subplots(1, len(shown), squeeze=False)[0]
        for ax, dim in zip(axes, shown, strict=True):
            xs = [str({**t["options"], **t["levers"]}.get(dim)) for t in trials]
            order = sorted(set(xs), key=lambda x: (_as_number(x) is None, _as_number(x) or 0, x))
            ax.plot([order.index(x) for x in xs], [t["values"][0] for t in trials], "o", alpha=0.7)
            ax.set_xticks(range(len(order)), order, fontsize="x-small", rotation=30)
            ax.set_xlabel(dim)
            ax.set_ylabel(targets[0])
        fig.suptitle("Each setting against the first target")
        fig.tight_layout()
        figures.append(_png(fig))
    return figures


def _as_number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(ci: list[float | None], pct: bool = True) -> str:
    lo, hi = ci
    if lo is None or hi is None:
        return "–"
    return f"{_pct(lo)}–{_pct(hi)}" if pct else f"{lo:.2f}–{hi:.2f}"


def _section(result: LabResult, lang: str) -> tuple[str, int]:
    data = result.data
    kind = result.kind
    parts = [f"<h3>{html.escape(_w(kind, lang))}</h3>"]
    figures: list[str] = []
    if kind == "seats":
        parts.append(
            _table(
                ["seat", "win share", "95% CI", "mean score", "95% CI", "p"],
                [
                    [s["seat"] + 1, _pct(s["win_share"]), _ci(s["win_share_ci95"]),
                     f"{s['mean_score']:.2f}", _ci(s["mean_score_ci95"], pct=False),
                     f"{s['p_value']:.3g}" if s["p_value"] is not None else "–"]
                    for s in data["seats"]
                ],
            )
        )  # fmt: skip
        p = data["win_test"]["p_value"]
        if p is not None:
            parts.append(
                f"<p>{html.escape(_w('favoured' if data['favoured'] else 'fair', lang, p=p))}</p>"
            )
        figures = _seat_figures(data, result.rows)
    elif kind == "stats":
        figures = _stats_figures(data, result.rows)
    elif kind == "compare":
        rows = []
        for v in data["variants"]:
            vs = v.get("vs_baseline") or {}
            rows.append(
                [v["variant"], v.get("games"), f"{v.get('length') or 0:.1f}",
                 f"{v.get('spread') or 0:.2f}", _pct(v.get("strong_win_share")),
                 _pct(vs.get("same_deals")) if vs else "baseline"]
            )  # fmt: skip
        parts.append(
            _table(["variant", "deals", "length", "spread", "strong wins", "same deals"], rows)
        )
        figures = _compare_figures(data)
    elif kind == "luck":
        h75 = data["hands_for_75"]
        h90 = data["hands_for_90"]
        text = _w(
            "hands_needed",
            lang,
            h75="–" if h75 is None else f"{h75:.1f}",
            h90="–" if h90 is None else f"{h90:.1f}",
        )
        parts.append(f"<p>{html.escape(text)}</p>")
        figures = _luck_figures(data)
    elif kind == "skill":
        parts.append(
            _table(
                ["step", "hands won", "95% CI", "× fair", "edge/hand", "75% from", "shows"],
                [
                    [f"{st['strong']} > {st['weak']}", _pct(st["win_share"]),
                     _ci(st["win_share_ci95"]), f"{st['win_share_vs_fair']:.2f}",
                     "–" if st["edge"] is None else f"{st['edge']:+.2f}",
                     "–" if st["hands_for_75"] is None else f"{st['hands_for_75']:.1f}",
                     st["shows"]]
                    for st in data["steps"]
                ],
            )
        )  # fmt: skip
        verdict = (
            _w("luck_heavy", lang, steps=", ".join(data["barely"]))
            if data.get("luck_heavy")
            else _w("skill_shows", lang)
        )
        parts.append(f"<p>{html.escape(verdict)}</p>")
        figures = _skill_figures(data)
    elif kind == "feel":
        figures = _feel_figures(data)
    elif kind == "tournament":
        parts.append(
            _table(
                ["bot", "seat-games", "win share", "95% CI", "rating mu", "95% CI"],
                [
                    [a["agent"], a["seats"], _pct(a["win_share"]), _ci(a["win_share_ci95"]),
                     f"{a['mu']:.1f}", _ci(a["rating_ci95"], pct=False)]
                    for a in data["agents"]
                ],
            )
        )  # fmt: skip
        figures = _tournament_figures(data)
    parts += [f"<figure>{f}</figure>" for f in figures]
    return "\n".join(parts), len(figures)


def _tune_section(run: Path, lang: str) -> tuple[str, int]:
    data = json.loads((run / "tune.json").read_text("utf-8"))
    title = f"{data['game']} · {data['players']} players · tune"
    parts = [f"<h2>{html.escape(title)}</h2>", f"<h3>{html.escape(_w('tune', lang))}</h3>"]
    shown = ", ".join(data["targets"]) + " · " + ", ".join(data["space"])
    parts.append(f"<p><code>{html.escape(str(run))}</code> · {html.escape(shown)}</p>")

    def settings(t: dict[str, Any]) -> str:
        return ", ".join(f"{k}={v}" for k, v in {**t["options"], **t["levers"]}.items())

    rows = [
        [t["number"], t["state"], settings(t) or "default",
         ", ".join(f"{v:.4g}" for v in t["values"]) if t["values"] else "–"]
        for t in data["trials"]
    ]  # fmt: skip
    parts.append(_table(["trial", "state", "settings", "values"], rows))
    if data.get("best"):
        best = data["best"]
        text = _w("tune_best", lang, n=best["number"], settings=settings(best) or "default")
        parts.append(f"<p>{html.escape(text)}</p>")
    elif data.get("pareto"):
        front = ", ".join(f"{t['number']} ({settings(t)})" for t in data["pareto"])
        parts.append(f"<p>{html.escape(_w('tune_pareto', lang, trials=front))}</p>")
    commands = [c for item in data.get("confirm") or [] for c in item["commands"]]
    if commands:
        parts.append(f"<p>{html.escape(_w('confirm', lang))}</p>")
        parts.append("<pre>" + html.escape("\n".join(commands)) + "</pre>")
    figures = _tune_figures(data)
    parts += [f"<figure>{f}</figure>" for f in figures]
    return "\n".join(parts), len(figures)


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1000px; margin: 2em auto; color: #222; }
h1 { border-bottom: 2px solid #333; } h2 { margin-top: 2em; border-bottom: 1px solid #aaa; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
code, pre { background: #f4f4f4; } pre { padding: 0.5em; overflow-x: auto; font-size: 0.85em; }
figure { margin: 0.5em 0; } img { max-width: 100%; }
"""


def write_report(path: str | os.PathLike[str], output: str | os.PathLike[str], *,
                 lang: str = "en") -> int:  # fmt: skip
    """Write the HTML report of the lab directories at ``path``; return the number of
    figures it holds."""
    runs = find_runs(path)
    body = []
    count = 0
    for run in runs:
        if (run / "tune.json").exists():
            section, n = _tune_section(run, lang)
            body.append(section)
            count += n
            continue
        manifest = read_manifest(run)
        design = manifest["design"]
        if design["kind"] == "tune":
            continue  # a tuning study's option sets: drawn by its tune.json
        options = design["variants"][0]["options"]
        title = f"{design['game']} · {design['players']} players · {design['kind']}"
        body.append(f"<h2>{html.escape(title)}</h2>")
        shown = html.escape(json.dumps(options, ensure_ascii=False))
        body.append(f"<p><code>{html.escape(str(run))}</code> · options <code>{shown}</code></p>")
        commands = [r.get("command") or "(Python API)" for r in manifest["runs"]]
        lines = [
            f"{c}  # seed {r.get('seed')}, games {r.get('start')}…"
            f"{(r.get('start') or 0) + (r.get('games') or 0) - 1}, xtarot "
            f"{(r.get('versions') or {}).get('xtarot', '?')}"
            for c, r in zip(commands, manifest["runs"], strict=True)
        ]
        body.append(f"<details><summary>{html.escape(_w('runs', lang))}</summary><pre>"
                    + html.escape("\n".join(lines)) + "</pre></details>")  # fmt: skip
        for result in analyse(run):
            section, n = _section(result, lang)
            body.append(section)
            count += n
    when = time.strftime("%Y-%m-%d %H:%M")
    page = (
        '<!doctype html>\n<html lang="' + ("ja" if lang == "ja" else "en") + '"><head>'
        '<meta charset="utf-8">'
        f"<title>{html.escape(_w('title', lang))}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{html.escape(_w('title', lang))}</h1>"
        f"<p>{html.escape(_w('generated', lang, when=when, path=str(path)))}</p>"
        + "\n".join(body)
        + "</body></html>\n"
    )
    Path(output).write_text(page, "utf-8")
    return count
