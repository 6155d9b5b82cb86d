"""The lab's people-facing texts, in English and Japanese."""

from __future__ import annotations

from typing import Any

__all__ = ["TEXT", "tr"]

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
