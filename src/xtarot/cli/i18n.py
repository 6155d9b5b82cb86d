"""Every label and message of the command-line interface, in English and Japanese.

>>> t("seat", "en", seat=2), t("seat", "ja", seat=2)
('Seat 2', '席2')
>>> pick_lang(None, {"LANG": "ja_JP.UTF-8"}), pick_lang(None, {"LANG": "C.UTF-8"})
('ja', 'en')
>>> pick_lang("en", {"LC_ALL": "ja_JP.UTF-8"})
'en'
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["LANGS", "MESSAGES", "gloss", "pick_lang", "seat_label", "t"]

LANGS = ("en", "ja")

#: key -> (English, Japanese); ``str.format`` fields are filled by :func:`t`.
MESSAGES: dict[str, tuple[str, str]] = {
    # general
    "error": ("Error", "エラー"),
    "seat": ("Seat {seat}", "席{seat}"),
    "you": ("you", "あなた"),
    "team": ("team", "チーム"),
    "none": ("none", "なし"),
    "yes_no": ("[y/N]", "[y/N]"),
    "lang_bad": (
        "unknown language {lang!r}; use en or ja",
        "言語 {lang!r} は使えません (en か ja)",
    ),
    # games
    "games_title": ("Registered games", "登録されているゲーム"),
    "col_id": ("id", "ID"),
    "col_name_ja": ("Japanese name", "日本語名"),
    "col_name_en": ("English name", "英語名"),
    "col_players": ("players", "人数"),
    "col_options": ("options (default)", "オプション (既定値)"),
    "col_deck": ("deck", "デッキ"),
    # rules
    "rules_missing": (
        "no rules summary for {game} in {lang}",
        "{game} のルール概要 ({lang}) はまだありません",
    ),
    "rules_fallback": (
        "(no English summary yet; showing the Japanese one)",
        "(日本語の概要がまだないため英語版を表示します)",
    ),
    "unknown_game": (
        "unknown game {game!r}; games: {games}",
        "ゲーム {game!r} はありません。ゲーム: {games}",
    ),
    # options
    "option_form": (
        "--option takes KEY=VALUE, not {text!r}",
        "--option は KEY=VALUE の形で指定してください ({text!r} は不可)",
    ),
    "bad_seat": (
        "seat {seat} does not exist: seats are 0..{last}",
        "席{seat} はありません (0..{last})",
    ),
    "bots_count": (
        "--bots lists one bot for every seat but yours ({need}), got {got}",
        "--bots には自分以外の席の数 ({need}) だけボットを指定してください ({got} 個でした)",
    ),
    # play
    "match_start": (
        "{game} — {players} players, you are {seat}",
        "{game} — {players}人、あなたは{seat}",
    ),
    "seed_line": ("Seed {seed}", "シード {seed}"),
    "seed_hidden": (
        "A random seed was drawn; it is shown when the match ends (it would reveal the deal).",
        "シードはランダムに決めました。配札が分かってしまうため、対局の終了時に表示します。",
    ),
    "reproduce": (
        "Reproduce this match: {command}",
        "同じ対局を再現するには: {command}",
    ),
    "options_line": ("Options: {options}", "オプション: {options}"),
    "help_line": (
        "Type a move's number, its text or just its card (e.g. {example}); q to quit.",
        "手の番号、手のテキスト、またはカードだけ (例: {example}) を入力してください。"
        "q で中断します。",
    ),
    "your_turn": ("Your move", "あなたの番です"),
    "legal_moves": ("Legal moves", "指せる手"),
    "prompt": ("Your move (number or text, q to quit)", "手を入力 (番号かテキスト、q で中断)"),
    "empty_input": ("Please type a move.", "手を入力してください。"),
    "bad_number": (
        "There is no move number {n}; choose 1 to {last}.",
        "{n} 番の手はありません。1 から {last} の番号を選んでください。",
    ),
    "illegal": ("That move is not possible: {why}", "その手は指せません: {why}"),
    "ambiguous": (
        "{text!r} fits several moves: {options}; type the whole move or its number.",
        "{text!r} に当てはまる手が複数あります ({options})。手全体か番号を入力してください。",
    ),
    "thinking": ("{seat} is thinking…", "{seat} が考えています…"),
    "you_did": ("You: {action}", "あなた: {action}"),
    "seat_acted": ("{seat} acted", "{seat} が行動しました"),
    "quit_save": ("Save the record of this unfinished match?", "途中までの棋譜を保存しますか?"),
    "end_save": ("Save the record of this match?", "この対局の棋譜を保存しますか?"),
    "save_where": ("File name", "ファイル名"),
    "saved": ("Record saved to {path}", "棋譜を {path} に保存しました"),
    "save_failed": ("Could not save the record: {err}", "棋譜を保存できませんでした: {err}"),
    "quit_done": ("Match abandoned.", "対局を中断しました。"),
    "game_over": ("Game over", "ゲーム終了"),
    "final_scores": ("Final scores", "最終得点"),
    "running_scores": ("Scores so far", "現在の得点"),
    "col_seat": ("seat", "席"),
    "col_score": ("score", "得点"),
    "col_rank": ("rank", "順位"),
    "winner_is": ("Winner: {who}", "勝者: {who}"),
    "winners_are": ("Shared win: {who}", "同点で勝利: {who}"),
    "team_wins": ("Winning team: {who}", "勝利チーム: {who}"),
    "you_team": ("Your team wins!", "あなたのチームの勝ちです!"),
    "you_won": ("You win!", "あなたの勝ちです!"),
    "you_shared": ("You share the win!", "あなたは同点で勝ちました!"),
    "you_placed": ("You finish in place {rank}.", "あなたは{rank}位です。"),
    "view_phase": ("phase {phase}", "局面 {phase}"),
    "to_act": ("to act: {seat}", "手番: {seat}"),
    "hand": ("Your hand", "あなたの手札"),
    "empty": ("(empty)", "(なし)"),
    # simulate
    "sim_title": (
        "{games} games of {game}, {players} players, bots: {bots}",
        "{game} を {games} 回 ({players}人、ボット: {bots})",
    ),
    "col_mean": ("mean score", "平均得点"),
    "col_wins": ("win share", "勝率"),
    "sim_time": (
        "{seconds:.2f} s in total, {rate:.1f} games/s (seed {seed})",
        "合計 {seconds:.2f} 秒、毎秒 {rate:.1f} 局 (シード {seed})",
    ),
    "sim_progress": ("Simulating", "シミュレーション中"),
    # tournament
    "tour_title": (
        "{games} matches of {game}, {players} players, seats rotated",
        "{game} {players}人戦 {games}試合（席は順番に入れ替え）",
    ),
    "tour_progress": ("Tournament", "トーナメント中"),
    "col_agent": ("bot", "ボット"),
    "col_seats": ("seat-games", "着席数"),
    "col_win_ci": ("win share (95% CI)", "勝率 (95%信頼区間)"),
    "col_vs_fair": ("× fair share", "公平な取り分比"),
    "col_mean_ci": ("mean score (95% CI)", "平均得点 (95%信頼区間)"),
    "col_rating": ("rating", "レーティング"),
    "tour_time": (
        "{seconds:.1f} s; fair share = 1/{players}; rating = openskill mu - 3 sigma; seed {seed}",
        "{seconds:.1f}秒、公平な取り分 = 1/{players}、"
        "レーティング = openskill の mu - 3σ、シード {seed}",
    ),
    "tour_agents": (
        "give at least one bot with --agents (bots: {bots})",
        "--agents でボットを1つ以上指定してください (ボット: {bots})",
    ),
    "games_count": ("--games must be at least 1", "--games は1以上にしてください"),
    # replay
    "replay_title": (
        "Record of {game}, {players} players (seed {seed})",
        "{game} の棋譜 ({players}人、シード {seed})",
    ),
    "replay_moves": ("Moves", "手順"),
    "replay_unfinished": ("The match was not finished.", "この対局は終わっていません。"),
    "press_enter": ("(Enter for the next step)", "(Enter で次へ)"),
    # sono-arcana
    "sa_round": ("Round {n}", "第{n}ラウンド"),
    "sa_final_round": ("final round", "最終ラウンド"),
    "sa_parent": ("parent", "親"),
    "sa_lot": ("Lot", "競売品"),
    "sa_stack": ("talismans left in the stack: {n}", "山札の残り護符: {n}枚"),
    "sa_mode_up": ("face up, led suit {suit}", "表向き、台札のスート {suit}"),
    "sa_mode_down": ("face down", "裏向き"),
    "sa_mode_none": ("the parent has not bid yet", "親はまだ入札していません"),
    "sa_bid": ("Bid", "入札"),
    "sa_col_table": ("on the table", "場のカード"),
    "sa_col_hand": ("cards", "手札"),
    "sa_col_won": ("talismans won", "獲得した護符"),
    "sa_hidden": ("[face down]", "[裏向き]"),
    "sa_last": ("Last round", "前のラウンド"),
    "sa_round_line": (
        "{round}: parent {parent}, {mode}, lot {lot}",
        "{round}: 親 {parent}、{mode}、競売品 {lot}",
    ),
    "sa_up": ("face up", "表向き"),
    "sa_down": ("face down", "裏向き"),
    "sa_void": ("void", "無効"),
    "sa_wins": ("{seat} wins {lot}", "{seat} が {lot} を落札"),
    "sa_new_round": (
        "{round}: {parent} is the parent; lot {lot}",
        "{round}: 親は{parent}、競売品 {lot}",
    ),
    "sa_new_final": (
        "{round} (final): {parent} is the parent; every remaining talisman is in the lot: {lot}",
        "{round} (最終): 親は{parent}、残りの護符すべてが競売品: {lot}",
    ),
    "sa_lot_two": (
        "{seat} reveals a second talisman: {card}",
        "{seat} が護符をもう1枚めくりました: {card}",
    ),
    "sa_lot_one": ("{seat} keeps the lot at one talisman", "{seat} は競売品を1枚にしました"),
    "sa_bid_up": ("{seat} bids face up: {card}", "{seat} が表向きに入札: {card}"),
    "sa_bid_down": ("{seat} bids face down", "{seat} が裏向きに入札しました"),
    "sa_play_up": ("{seat} plays {card}", "{seat} が {card} を出しました"),
    "sa_play_down": ("{seat} plays a card face down", "{seat} がカードを裏向きに出しました"),
    "sa_col_up": ("face up (+2)", "表 (+2)"),
    "sa_col_down": ("face down (-1)", "裏 (-1)"),
    "sa_team_total": ("team {team}: {total}", "チーム{team}: {total}"),
}


#: Japanese glosses of action verbs (the action text itself stays canonical).
_GLOSS: dict[str, tuple[str, str]] = {
    "lot 1": ("auction one talisman", "護符1枚で競売"),
    "lot 2": ("reveal a second talisman", "護符をもう1枚追加"),
    "bid up": ("bid face up", "表向きで入札"),
    "bid down": ("bid face down", "裏向きで入札"),
    "play": ("", "出す"),
    "pass": ("", "パス"),
    "discard": ("", "捨てる"),
    "call": ("", "指名"),
    "draw": ("", "引く"),
    "end": ("", "終了"),
}


def t(key: str, lang: str, /, **fields: object) -> str:
    """The message ``key`` in ``lang`` with its fields filled in."""
    en, ja = MESSAGES[key]
    text = ja if lang == "ja" else en
    return text.format(**fields) if fields else text


def gloss(action_text: str, lang: str) -> str | None:
    """A short description of an action's verb (longest known prefix), or ``None``
    (also when the English verb says it already).

    >>> gloss("bid down Kc", "ja"), gloss("lot 2", "en"), gloss("play Kc", "en")
    ('裏向きで入札', 'reveal a second talisman', None)
    """
    words = action_text.split()
    for n in range(len(words), 0, -1):
        found = _GLOSS.get(" ".join(words[:n]))
        if found is not None:
            return (found[1] if lang == "ja" else found[0]) or None
    return None


def seat_label(seat: int, lang: str, you: int | None = None) -> str:
    """``Seat 2`` / ``席2``, with ``(you)`` / ``(あなた)`` for the human's seat."""
    text = t("seat", lang, seat=seat)
    return f"{text} ({t('you', lang)})" if seat == you else text


def pick_lang(chosen: str | None, env: Mapping[str, str] | None = None) -> str:
    """The language to use: ``chosen`` if given, else ja when LC_ALL/LANG start with ja."""
    if chosen:
        lang = chosen.lower()
        if lang not in LANGS:
            raise ValueError(t("lang_bad", "en", lang=chosen))
        return lang
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    return "en"
