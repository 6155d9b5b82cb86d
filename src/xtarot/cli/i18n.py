"""Every label and message of the command-line interface, in English and Japanese.

>>> seat_label(0, "en", you=0), seat_label(1, "ja")  # seats are shown from 1
('Seat 1 (you)', '2番席')
>>> pick_lang(None, {"LANG": "ja_JP.UTF-8"}), pick_lang(None, {"LANG": "C.UTF-8"})
('ja', 'en')
>>> pick_lang("en", {"LC_ALL": "ja_JP.UTF-8"})
'en'
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Mapping

from xtarot.engine.registry import rules_markdown

__all__ = [
    "LANGS",
    "MESSAGES",
    "VIEW_LABELS_JA",
    "colon",
    "comma",
    "gloss",
    "os_reason",
    "paren",
    "phase_label",
    "pick_lang",
    "rules_text",
    "say_error",
    "seat_label",
    "t",
    "tag",
    "view_label",
]

LANGS = ("en", "ja")

#: key -> (English, Japanese); ``str.format`` fields are filled by :func:`t`.
#: Japanese uses full-width punctuation (：（）！？、。) around Japanese words; what a
#: person types (``?``, ``q``, card codes, commands) stays ASCII.
MESSAGES: dict[str, tuple[str, str]] = {
    # general
    "error": ("Error", "エラー"),
    "seat": ("Seat {seat}", "{seat}番席"),
    "you": ("you", "あなた"),
    "team": ("team", "チーム"),
    "none": ("none", "なし"),
    "yes_no": ("[y/N]", "[y/N]"),
    "lang_bad": (
        "unknown language {lang!r}; use en or ja",
        "言語 {lang!r} は使えません（en か ja）",
    ),
    # games
    "games_title": ("Registered games", "登録されているゲーム"),
    "plugins_none": (
        "No plugins are installed. A plugin is a package that declares xtarot.games "
        "entry points (see docs/plugins.md).",
        "プラグインはインストールされていません。プラグインは xtarot.games エントリポイントを"
        "宣言するパッケージです（docs/plugins.md を参照）。",
    ),
    "plugins_title": ("Plugins (entry points)", "プラグイン（エントリポイント）"),
    "plugins_col_group": ("group", "グループ"),
    "plugins_col_name": ("name", "名前"),
    "plugins_col_package": ("package", "パッケージ"),
    "plugins_col_status": ("status", "状態"),
    "plugins_ok": ("loaded", "読み込み済み"),
    "plugins_broken": (
        "plugin {name} could not be used: {error}",
        "プラグイン {name} は使えません：{error}",
    ),
    "check_title": (
        "Checking {game} ({name}): {n} configurations",
        "{game}（{name}）を検査します：{n} 通りの設定",
    ),
    "check_progress": ("Checking", "検査中"),
    "check_row": (
        "{games:,} games · {moves:,} moves · {leaks:,} leak tests ({worlds:,} worlds) · "
        "{clones:,} clones · {illegal:,} illegal moves refused",
        "{games:,} ゲーム・{moves:,} 手・情報漏れ検査 {leaks:,} 回（{worlds:,} 世界）・"
        "複製 {clones:,} 回・不正手の拒否 {illegal:,} 回",
    ),
    "check_bots": (
        "bots asked every move: {bots} ({n} decisions)",
        "全手番でボットに質問：{bots}（{n} 手）",
    ),
    "check_failed": (
        "the conformance kit failed: {error}",
        "適合検査に失敗しました：{error}",
    ),
    "check_companion_failed": ("{n} part(s) of the game failed", "{n} 件の部品が失敗しました"),
    "check_passed": (
        "Passed ({warnings} warning(s)).",
        "合格（警告 {warnings} 件）。",
    ),
    "check_passed_skipped": (
        "Passed ({warnings} warning(s); {skipped} part(s) skipped: an optional extra is "
        "not installed).",
        "合格（警告 {warnings} 件。オプションの追加パッケージがないため {skipped} 件は省略）。",
    ),
    "col_id": ("id", "ID"),
    "col_name_ja": ("Japanese name", "日本語名"),
    "col_name_en": ("English name", "英語名"),
    "col_players": ("players", "人数"),
    "col_options": ("options (default)", "オプション（既定値）"),
    "col_deck": ("deck", "デッキ"),
    "players_n": ("{n} players", "{n}人"),
    "deck_xtarot": ("Xtarot deck (112 cards)", "エクスタロット（112枚）"),
    "deck_classic": ("classic tarot deck (78 cards)", "クラシックタロット（78枚）"),
    "opt_default": ("default: {value}", "既定値：{value}"),
    "opt_auto": ("unset", "指定なし"),
    "opt_number": ("a number", "数値"),
    "opt_text": ("text", "文字列"),
    "opt_only": ("{counts} players only", "{counts}人のときのみ"),
    "games_usage": (
        "Choose options with: xtarot play GAME -o NAME=VALUE",
        "オプションの指定方法：xtarot play GAME -o NAME=VALUE",
    ),
    # rules
    "rules_missing": (
        "no rules summary for {game} in {lang}",
        "{game} のルール概要（{lang}）はまだありません",
    ),
    "rules_fallback": (
        "(no English summary yet; showing the Japanese one)",
        "（日本語の概要がまだないため英語版を表示します）",
    ),
    "unknown_game": (
        "unknown game {game!r}; games: {games}",
        "ゲーム {game!r} はありません。ゲーム：{games}",
    ),
    # options
    "option_form": (
        "--option takes KEY=VALUE, not {text!r}",
        "--option は KEY=VALUE の形で指定してください（{text!r} は不可）",
    ),
    "bad_seat": (
        "seat {seat} does not exist: seats are numbered 1 to {last}",
        "{seat}番席はありません：席の番号は1〜{last}です",
    ),
    "bots_count": (
        "--bots lists one bot for every seat but yours ({need}), got {got}",
        "--bots には自分以外の席の数（{need}）だけボットを指定してください（{got}個でした）",
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
    "reproduce": ("Play this match again with:", "同じ対局をもう一度遊ぶには："),
    "resume_with": ("Continue it later with:", "続きを遊ぶには："),
    "options_line": ("Options: {options}", "オプション：{options}"),
    "help_line": (
        "Type a move's number, its text or just its card (e.g. {example}); "
        "? = hint, rules = rules, undo = take back, q = quit.",
        "手の番号、手のテキスト、またはカードだけ（例：{example}）を入力してください。"
        "? = ヒント、rules = ルール、undo = 取り消し、q = 中断。",
    ),
    "your_turn": ("Your move", "あなたの番です"),
    "legal_moves": ("Legal moves", "出せる手"),
    "prompt": (
        "Your move (1-{last} or its text, ? = hint)",
        "手を入力（1〜{last}か手のテキスト、? でヒント）",
    ),
    "prompt_one": (
        "Your move (the only one: Enter or 1, ? = hint)",
        "手を入力（出せる手は1つだけ：Enter か 1、? でヒント）",
    ),
    "bad_number_one": (
        "There is no move {n}: the only move is 1 (Enter plays it).",
        "{n}番の手はありません：出せる手は1番だけです（Enter で出します）。",
    ),
    "unknown_move_one": (
        "{text!r} is not a move here: the only move is {example} (Enter or 1 plays it).",
        "{text!r} という手はありません：出せる手は {example} だけです（Enter か 1 で出します）。",
    ),
    "empty_input": (
        "Please type a move (1 to {last}), ? for a hint, or help.",
        "手を入力してください（1〜{last}）。? でヒント、help で一覧。",
    ),
    "bad_number": (
        "There is no move {n}: choose 1 to {last} (help shows the list).",
        "{n}番の手はありません：1〜{last}から選んでください（help で一覧）。",
    ),
    "illegal": ("{move} is not allowed: {why}", "{move} は出せません：{why}"),
    "ambiguous": (
        "{text!r} fits several moves: {options}; type the whole move or its number.",
        "{text!r} に当てはまる手が複数あります（{options}）。手全体か番号を入力してください。",
    ),
    "thinking": ("{seat} is thinking…", "{seat}が考えています…"),
    "you_did": ("You: {action}", "あなた：{action}"),
    "auto_move": ("(the only legal move)", "（出せる手はこれだけ）"),
    "seat_acted": ("{seat} acted", "{seat}が行動しました"),
    "quit_save": (
        "Save the record of this unfinished match?",
        "途中までの記録を保存しますか？",
    ),
    "end_save": ("Save the record of this match?", "この対局の記録を保存しますか？"),
    "save_where": ("File name", "ファイル名"),
    "saved": ("Record saved to {path}", "記録を {path} に保存しました"),
    "save_failed": ("Could not save the record: {err}", "記録を保存できませんでした：{err}"),
    "save_again": (
        "Save it to another file instead (q: do not save)",
        "別のファイルに保存します（q：保存しない）",
    ),
    "save_dropped": ("The record was not saved.", "記録は保存しませんでした。"),
    "save_unwritable": (
        "cannot write the record to {path}: {why}; nothing was played",
        "記録を {path} に書き込めません：{why}。対局は始めていません",
    ),
    "os_no_dir": ("the folder does not exist", "フォルダがありません"),
    "os_is_dir": ("it is a folder", "フォルダです"),
    "os_denied": ("permission denied", "書き込みの権限がありません"),
    "os_read_only": ("the file system is read-only", "読み取り専用のファイルシステムです"),
    "os_no_space": ("no space left on the device", "ディスクの空きがありません"),
    "os_not_found": ("no such file", "ファイルがありません"),
    "os_other": ("{err}", "{err}"),
    "quit_done": ("Match abandoned.", "対局を中断しました。"),
    "game_over": ("Game over", "ゲーム終了"),
    "final_scores": ("Final scores", "最終得点"),
    "running_scores": ("Scores so far", "現在の得点"),
    "col_seat": ("seat", "席"),
    "col_score": ("score", "得点"),
    "col_rank": ("rank", "順位"),
    "winner_is": ("Winner: {who}", "勝者：{who}"),
    "winners_are": ("Shared win: {who}", "同点で勝利：{who}"),
    "team_wins": ("Winning team: {who}", "勝利チーム：{who}"),
    "you_team": ("Your team wins!", "あなたのチームの勝ちです！"),
    "you_won": ("You win!", "あなたの勝ちです！"),
    "you_shared": ("You share the win!", "あなたは同点で勝ちました！"),
    "you_placed": ("You finish in place {rank}.", "あなたは{rank}位です。"),
    "view_phase": ("phase {phase}", "局面：{phase}"),
    "to_act": ("to act: {seat}", "手番：{seat}"),
    "hand": ("Your hand", "あなたの手札"),
    "empty": ("(empty)", "（なし）"),
    "only_move": ("(Enter plays it)", "（Enter でこの手を出します）"),
    "prompt_more": (
        "? = hint, rules = rules summary, undo = take back your last move, "
        "help = the moves again, q = quit",
        "? = ヒント、rules = ルール概要、undo = 自分の直前の手を取り消す、"
        "help = 手の一覧、q = 中断",
    ),
    "unknown_move": (
        "{text!r} is not a move here: type 1 to {last}, a move like {example}, or help.",
        "{text!r} という手はありません：1〜{last}の番号か {example} のような手を入力して"
        "ください（help で一覧）。",
    ),
    "did_you_mean": ("Did you mean: {options}?", "もしかして：{options}"),
    "hint_thinking": ("Thinking about a hint…", "ヒントを考えています…"),
    "hint": ("Hint ({bot}): move {n}, {move}", "ヒント（{bot}）：{n}番 {move}"),
    "hint_why": ("Why: {why}", "理由：{why}"),
    "hint_win": (
        "Win estimate: {pct}% (bots played on {n} deals that fit what you saw)",
        "勝つ見込み：{pct}%（見えている情報と矛盾しない{n}通りの配札で試算）",
    ),
    "hint_ahead": (
        "Chance to lead after this hand: {pct}% (bots played on {n} deals that fit what you saw)",
        "このハンド後に首位の見込み：{pct}%（見えている情報と矛盾しない{n}通りの配札で試算）",
    ),
    "undo_done": (
        "Took back your move {action} (and the bots' moves after it); the bots will choose afresh.",
        "あなたの手 {action} を取り消しました（その後のボットの手も戻します）。"
        "ボットは改めて手を選びます。",
    ),
    "undo_none": (
        "Nothing to undo: you have not made a move yet (bots' moves cannot be taken back).",
        "取り消せる手はありません：まだ手を出していません（ボットの手は取り消せません）。",
    ),
    "no_rules": ("No rules summary for this game.", "このゲームのルール概要はありません。"),
    "hand_over": ("Hand {n} is over.", "第{n}ハンド終了。"),
    "hand_begins": ("Hand {n} begins.", "第{n}ハンド開始。"),
    "hand_title": ("Hand {n}", "第{n}ハンド"),
    "col_this_hand": ("this hand", "このハンド"),
    "col_total": ("total", "合計"),
    "next_hand_enter": ("(Enter for the next hand)", "（Enter で次のハンドへ）"),
    "resumed": (
        "Resuming from {path}: {moves} moves already played.",
        "{path} から再開します：{moves}手まで進んでいます。",
    ),
    "resume_over": (
        "That match is already over; showing its result.",
        "その対局は終わっています。結果を表示します。",
    ),
    "resume_conflict": (
        "--resume continues a saved match: do not give {what} with it",
        "--resume は保存した対局の続きです：{what} は一緒に指定できません",
    ),
    "no_heuristic": (
        "there is no heuristic bot for {game} yet (heuristics: {known}); "
        "use random, ismcts or pimc",
        "{game} のヒューリスティックボットはまだありません（あるのは：{known}）。"
        "random、ismcts、pimc のいずれかを使ってください",
    ),
    "unknown_bot": (
        "unknown bot {name!r}; bots: {bots}",
        "ボット {name!r} はありません。ボット：{bots}",
    ),
    "which_game": ("Which game? (number)", "どのゲームで遊びますか？（番号）"),
    "need_game": (
        "name the game to play (see `xtarot games`) or give --resume FILE",
        "遊ぶゲームの ID（`xtarot games` を参照）か --resume FILE を指定してください",
    ),
    "resume_other_game": (
        "{game} was given but the record holds a match of {saved}",
        "{game} が指定されましたが、記録は {saved} の対局です",
    ),
    "scores_now": ("Scores", "得点"),
    "majors": ("Majors", "大アルカナ"),
    "cards_count": ("{n} cards", "{n}枚"),
    "suit_cups": ("Cups", "聖杯"),
    "suit_coins": ("Coins", "金貨"),
    "suit_swords": ("Swords", "魔剣"),
    "suit_trees": ("Trees", "聖樹"),
    "wild": ("Wild", "ワイルド"),
    "turn_of": ("{seat} to act", "{seat}の番"),
    "your_turn_now": ("Your turn", "あなたの番"),
    "trick_won": ("{seat} wins the trick", "{seat}がトリックを取りました"),
    "trick_won_cards": ("{seat} wins the trick: {cards}", "{seat}がトリックを取りました：{cards}"),
    "trick_points": (" (+{points})", "（+{points}点）"),
    "winning_now": ("winning: {seat} with {card}", "現在の勝ち：{seat}の{card}"),
    "hidden_card": ("[hidden]", "[伏せ札]"),
    "since_last": ("Since your last move", "前の手番から"),
    "since_first": ("So far", "ここまで"),
    "since_more": ("… {n} earlier", "…ほか{n}件"),
    "you_receive": ("You receive {cards}", "あなたの手札に {cards} が加わりました"),
    "you_draw": ("You draw {cards}", "あなたが引いた札：{cards}"),
    "draws_hidden": ("{seat} draws a card", "{seat}が1枚引きました"),
    # shared by the game screens
    "turn_n": ("Turn {n}", "第{n}ターン"),
    "dealer": ("dealer", "親"),
    "last_turn": ("last turn!", "最後のターン！"),
    "col_cards": ("cards", "手札"),
    "stock_left": ("stock: {n}", "山札：{n}枚"),
    "points": ("points", "点"),
    "last_move": ("Last", "直前"),
    # matto
    "mt_field": ("Field", "場の大アルカナ"),
    "mt_majors_left": ("face-down majors: {n}", "伏せた大アルカナ：{n}枚"),
    "mt_discard": ("Discard pile", "捨て札"),
    "mt_top": ("top", "一番上"),
    "mt_buying": (
        "Buying {major}: {owed} still to pay, paid so far: {paid}",
        "{major} を購入中：残り{owed}、支払い済み：{paid}",
    ),
    "mt_col_known": ("known cards", "見えている手札"),
    "mt_col_majors": ("majors", "大アルカナ"),
    "mt_col_sets": ("sets", "セット"),
    "mt_draw_discard": (
        "{seat} takes {card} from the discard pile",
        "{seat}が捨て札から {card} を取りました",
    ),
    "mt_draw_stock": ("{seat} draws from the stock", "{seat}が山札から引きました"),
    "mt_buy": ("{seat} buys {card}", "{seat}が {card} を購入"),
    "mt_pay": ("{seat} pays {card}", "{seat}が {card} で支払い"),
    "mt_end": ("{seat} ends the turn", "{seat}がターンを終えました"),
    "mt_fool": (
        "The Fool (T0) turns up: {seat} must take it (-5)!",
        "愚者（T0）が出ました：{seat}が引き取ります（-5）！",
    ),
    "mt_new_field": ("Turned up: {cards}", "新たに表になった大アルカナ：{cards}"),
    "mt_fool_col": ("Fool", "愚者"),
    # grail-mahjong
    "gm_hand": ("Hand {n}/{of}", "第{n}ハンド/{of}"),
    "gm_discards": ("Discards", "捨て牌"),
    "gm_claim": (
        "Claim round: {card} discarded by {seat}",
        "鳴きの確認：{seat}が捨てた {card}",
    ),
    "gm_my_answer": ("your answer: {answer}", "あなたの返答：{answer}"),
    "gm_col_melds": ("melds (score)", "面子（点）"),
    "gm_col_area": ("area", "エリア"),
    "gm_col_total": ("total", "合計"),
    "gm_discard": ("{seat} discards {card}", "{seat}が {card} を捨てました"),
    "gm_answer": ("{seat} answers (hidden)", "{seat}が返答しました（非公開）"),
    "gm_meld_new": ("{seat} melds a {kind}: {meld}", "{seat}が{kind}の面子を作りました：{meld}"),
    "gm_meld_add": (
        "{seat} adds {card} to meld {n}: {meld}",
        "{seat}が面子{n}に {card} を加えました：{meld}",
    ),
    "gm_claimed_meld": (
        "{seat} claims {card} from {from_} for a {kind}: {meld}",
        "{seat}が{from_}の {card} を{kind}で鳴きました：{meld}",
    ),
    "gm_kind_pon": ("pon", "ポン"),
    "gm_kind_chi": ("chi", "チー"),
    "gm_wild_as": ("Oc, Daza's Cup, stands for {value}", "Oc（ダーザの杯）は{value}の代わり"),
    "gm_add_gloss": ("add to meld {n}", "面子{n}に追加"),
    "gm_luck": (
        "{seat} puts Lc (Luck of the Grail) in the area",
        "{seat}が Lc（聖杯の幸運）をエリアに置きました",
    ),
    "gm_end_agari": ("{seat} empties the hand: agari!", "{seat}の手札がなくなりました：和了！"),
    "gm_end_rest": (
        "{seat} discards Rc (Rest of the Grail): showdown",
        "{seat}が Rc（聖杯の休息）を捨てました：勝負",
    ),
    "gm_end_stock": ("The stock is empty: showdown", "山札が尽きました：勝負"),
    "gm_col_luck": ("luck", "幸運"),
    "gm_col_gained": ("gained", "獲得"),
    "gm_winners": ("Hand won by {who}", "このハンドの勝者：{who}"),
    "gm_draw": ("{seat} draws (stock: {n})", "{seat}がツモ（山札：{n}枚）"),
    # arcana-duel
    "ad_attacker": ("attacker", "攻撃側"),
    "ad_field": ("field", "フィールド"),
    "ad_points": ("points pile", "得点札"),
    "ad_backs": ("{n} face down", "裏向き{n}枚"),
    "ad_yours_down": ("your face-down cards: {cards}", "あなたの裏向きのカード：{cards}"),
    "ad_attack_now": (
        "Attack being formed: {cards} (power {power}){target}",
        "攻撃中：{cards}（パワー {power}）{target}",
    ),
    "ad_target": (" at {target}", " → 目標 {target}"),
    "ad_face_down": ("a face-down card", "裏向きのカード"),
    "ad_combat": (
        "{seat} attacks with {cards} ({power}) at {target}: {result}",
        "{seat}が {cards}（{power}）で {target} を攻撃：{result}",
    ),
    "ad_defence": ("{card} ({power})", "{card}（{power}）"),
    "ad_res_attacker": ("the attacker wins", "攻撃側の勝ち"),
    "ad_res_defender": ("the defender wins", "防御側の勝ち"),
    "ad_res_tie": ("a tie, nothing happens", "引き分け（何も起きません）"),
    "ad_res_fool": (
        "the Fool! both fields go to their points piles",
        "愚者！両者のフィールドが得点札になります",
    ),
    "ad_place": ("{seat} lays a card face down", "{seat}がカードを裏向きに置きました"),
    "ad_attacked": ("attacked", "攻撃済み"),
    "ad_setup": ("Set-up: lay 5 cards face down", "準備：5枚を裏向きに置いてください"),
    "ad_end_annihilation": (
        "{seat} wiped out {loser}'s field: {seat} wins at once, whatever the points piles.",
        "{seat}が{loser}のフィールドを全滅させました：得点札の枚数に関係なく{seat}の勝ちです。",
    ),
    "ad_end_stock": (
        "The stock ran out: the bigger points pile wins.",
        "山札が尽きました：得点札の多い方の勝ちです。",
    ),
    "ad_end_draw": (
        "The stock ran out with equal points piles: a draw.",
        "山札が尽き、得点札が同じ枚数：引き分けです。",
    ),
    # trick games (extendori, fairy500)
    "tr_dealer": ("dealer", "ディーラー"),
    "tr_trick": ("Trick", "トリック"),
    "tr_led": ("led {suit}", "台札 {suit}"),
    "tr_last": ("Last trick", "前のトリック"),
    "tr_col_played": ("in the trick", "場のカード"),
    "tr_col_tricks": ("tricks", "トリック数"),
    "tr_col_points": ("this hand", "このハンド"),
    "tr_col_voids": ("void in", "ないスート"),
    "tr_nothing_yet": ("(no card yet)", "（まだ出ていません）"),
    "ex_hand": ("Hand {n}/{of}", "第{n}ハンド/{of}"),
    "ex_hand_open": ("Hand {n}", "第{n}ハンド"),
    "f5_to_target": (" (to ±{target})", "（±{target}点まで）"),
    "f5_or_target": (" (or ±{target} first)", "（先に±{target}点でも終了）"),
    "ex_target": ("to {target} points", "{target}点先取"),
    "ex_batch": ("batch {n}/{of}", "配札 {n}/{of}回目"),
    "ex_team": ("team {team}", "チーム{team}"),
    "ex_batch_dealt": (
        "{seat} deals batch {n}/{of}: {k} cards each",
        "{seat}が{n}/{of}回目の配札をしました：各{k}枚",
    ),
    "bid_tricks": ("{n} tricks, trump {suit}", "{n}トリック、切り札は{suit}"),
    "bid_tricks_nt": ("{n} tricks, no trump", "{n}トリック、切り札なし"),
    "f5_contract": (
        "Contract: {bid} by {seat} (value {value})",
        "契約：{seat}の {bid}（基本点 {value}）",
    ),
    "f5_trump": ("trump {suit}", "切り札 {suit}"),
    "f5_no_trump": ("no trump", "切り札なし"),
    "f5_high": ("Highest bid so far: {bid} by {seat}", "現在の最高ビッド：{seat}の {bid}"),
    "f5_no_bid": ("No bid yet", "まだビッドはありません"),
    "f5_auction": ("Auction", "ビッド"),
    "f5_called": ("Called card(s): {cards}", "指名された札：{cards}"),
    "f5_partners": ("known partner(s): {who}", "判明した副官：{who}"),
    "f5_kitty_cards": ("kitty you took: {cards}", "受け取ったキティ：{cards}"),
    "f5_ten_per_trick": (
        "Everybody passed: no trump, 10 points per trick",
        "全員パス：切り札なし、1トリック10点",
    ),
    "f5_you_partner": (
        "You hold a called card: you are the declarer's secret partner!",
        "あなたは指名された札を持っています：デクレアラーの秘密の副官です！",
    ),
    "f5_kitty": ("kitty: {n} face down", "キティ：裏向き{n}枚"),
    "f5_your_discards": ("your discards: {cards}", "あなたが捨てた札：{cards}"),
    "f5_open_hand": ("Open hand of {seat}: ", "{seat}の公開された手札："),
    "f5_made": ("contract made", "契約成功"),
    "f5_failed": ("contract failed", "契約失敗"),
    "f5_result": (
        "Hand {n}: {kind}{bid} by {seat}: {outcome}",
        "第{n}ハンド：{seat}の {kind}{bid}：{outcome}",
    ),
    "f5_col_points": ("points", "得点"),
    "f5_ramsch": ("Ramsch: everybody passed", "ラムシュ：全員パス"),
    "f5_bid_grid": ("Bids (type the number or e.g. 7c)", "ビッド（番号か 7c のように入力）"),
    "f5_tricks_col": ("tricks", "トリック"),
    "f5_misere": ("Misère", "ミゼール"),
    "f5_other": ("Other", "その他"),
    # simulate
    "sim_title": (
        "{games} games of {game}, {players} players, bots: {bots}",
        "{game} を{games}回（{players}人、ボット：{bots}）",
    ),
    "col_mean": ("mean score", "平均得点"),
    "col_wins": ("win share", "勝率"),
    "sim_time": (
        "{seconds:.2f} s in total, {rate:.1f} games/s (seed {seed})",
        "合計 {seconds:.2f} 秒、毎秒 {rate:.1f} 局（シード {seed}）",
    ),
    "sim_progress": ("Simulating", "シミュレーション中"),
    "progress_line": (
        "{label}: {done}/{total} matches, {seconds:.0f} s",
        "{label}：{done}/{total}試合、{seconds:.0f}秒",
    ),
    "progress_line_configs": (
        "{label}: {done}/{total} configurations, {seconds:.0f} s",
        "{label}：{done}/{total} 設定、{seconds:.0f}秒",
    ),
    # tournament
    "tour_title": (
        "{games} matches of {game}, {players} players, seats rotated",
        "{game} {players}人戦 {games}試合（席は順番に入れ替え）",
    ),
    "tour_progress": ("Tournament", "トーナメント中"),
    "tour_ratings_same": (
        "the ratings' 95% intervals overlap: they do not separate these bots",
        "レーティングの95%区間が重なっています：これらのボットの強さは区別できません",
    ),
    "col_agent": ("bot", "ボット"),
    "col_seats": ("seat-\ngames", "着席数"),
    "col_win_ci": ("win share\n(95% CI)", "勝率\n（95%区間）"),
    "col_vs_fair": ("× fair\nshare", "公平な\n取り分比"),
    "col_mean_ci": ("mean score\n(95% CI)", "平均得点\n（95%区間）"),
    "col_rating": ("rating\n(95% CI)", "レーティング\n（95%区間）"),
    "tour_time": (
        "{seconds:.1f} s; fair share = 1/{players}; rating = openskill mu (95% interval "
        "mu ± 1.96 sigma); seed {seed}",
        "{seconds:.1f}秒、公平な取り分 = 1/{players}、"
        "レーティング = openskill の mu（95%区間 mu ± 1.96σ）、シード {seed}",
    ),
    "tour_agents": (
        "give at least one bot with --agents (bots: {bots})",
        "--agents でボットを1つ以上指定してください（ボット：{bots}）",
    ),
    "games_count": ("--games must be at least 1", "--games は1以上にしてください"),
    # data export
    "data_progress": ("Exporting", "書き出し中"),
    "data_unwritable": (
        "cannot write {path}: {why}; nothing was played",
        "{path} に書き込めません：{why}。対局は始めていません",
    ),
    "data_exists": (
        "{path} exists; give --force to replace it, or another --out",
        "{path} はすでにあります。"
        "置き換えるには --force を、別のファイルなら --out を指定してください",
    ),
    "data_suffix": (
        "--out names a Parquet file ending in .parquet, not {path}",
        "--out には .parquet で終わる Parquet ファイルを指定してください（{path} は不可）",
    ),
    "data_no_pyarrow": (
        'writing Parquet needs pyarrow: pip install "xtarot[data]"',
        'Parquet の書き出しには pyarrow が必要です：pip install "xtarot[data]"',
    ),
    "data_clock": (
        "note: with --seconds the search bots play to the clock, so the same seed may give "
        "another file on another run; --iterations keeps it reproducible",
        "注意：--seconds では探索ボットが時間で打つため、同じシードでも実行ごとに"
        "ファイルが変わることがあります。再現性が必要なら --iterations を使ってください",
    ),
    "data_done": (
        "{rows} decisions of {games} matches written to {path} "
        "({size}, {seconds:.1f} s, {rate:.0f} decisions/s, seed {seed})",
        "{games}試合の{rows}手を {path} に書き出しました"
        "（{size}、{seconds:.1f}秒、毎秒{rate:.0f}手、シード {seed}）",
    ),
    "data_schema": (
        "schema: docs/adapters/data.md; columns truth_* and match_seed are for training only",
        "スキーマ：docs/adapters/data.md。truth_* と match_seed の列は学習専用です",
    ),
    # xtarot train (belief models)
    "train_progress": ("Self-play", "自己対局"),
    "train_epochs": ("Training", "学習"),
    "progress_line_epochs": (
        "{label}: {done}/{total} epochs, {seconds:.0f} s",
        "{label}：{done}/{total}エポック、{seconds:.0f}秒",
    ),
    "train_counts": (
        "--games, --eval-games, --eval-positions, --epochs and --hidden must be at least 1",
        "--games、--eval-games、--eval-positions、--epochs、--hidden は1以上にしてください",
    ),
    "train_relations": (
        "--relations must be 1 to 7 (the relations are read in order)",
        "--relations は1から7にしてください（関係は順に使われます）",
    ),
    "train_suffix": (
        "the model file must end in .npz, not {path}",
        "モデルのファイル名は .npz で終わる必要があります（{path}）",
    ),
    "train_no_numpy": (
        'training needs numpy: pip install "xtarot[train]"',
        '学習には numpy が必要です：pip install "xtarot[train]"',
    ),
    "train_done": (
        "model written to {path} ({size} bytes; {positions} positions, self-play "
        "{gen:.1f} s, training {train:.1f} s, seed {seed})",
        "モデルを {path} に書き出しました（{size}バイト、{positions}局面、"
        "自己対局{gen:.1f}秒、学習{train:.1f}秒、シード {seed}）",
    ),
    "train_eval": (
        "held out: {n} positions, {cards} hidden cards; log-loss {model:.4f} against the "
        "uniform sampler's {uniform:.4f} (ratio {ratio:.3f}; lower is better)",
        "評価用：{n}局面、見えない札{cards}枚。対数損失 {model:.4f}、一様サンプラーは "
        "{uniform:.4f}（比 {ratio:.3f}、小さいほど良い）",
    ),
    # xtarot train value (hand-value models)
    "train_value_progress": ("Contract play-outs", "契約のプレイアウト"),
    "progress_line_deals": (
        "{label}: {done}/{total} deals, {seconds:.0f} s",
        "{label}：{done}/{total}ディール、{seconds:.0f}秒",
    ),
    "train_value_game": (
        "hand-value models are for fairy500 (its auction), grail-mahjong (its claims) and "
        "sono-arcana (its lots) only, not {game}",
        "手札評価モデルは fairy500（のビッド）、grail-mahjong（の鳴き）、sono-arcana"
        "（の競売品）専用です。{game} には使えません",
    ),
    "train_lot_progress": ("Lot play-outs", "競売品のプレイアウト"),
    "train_lot_done": (
        "model written to {path} ({size} bytes; {rows} answers of {rounds} parent's "
        "choices from {deals} matches, play-outs {gen:.1f} s, training {train:.1f} s, "
        "seed {seed})",
        "モデルを {path} に書き出しました（{size}バイト、{deals}対局の親の選択{rounds}回の"
        "応答{rows}通り、プレイアウト{gen:.1f}秒、学習{train:.1f}秒、シード {seed}）",
    ),
    "train_lot_eval": (
        "held out: {rounds} parent's choices, {n} answers; log-loss {loss:.3f} against the "
        "base rate's {base:.3f}; hindsight win share: the heuristic's answers {heur:.3f}, "
        "the model's {model:.3f}, the bot's (margin {margin:g}, {changed} changed) "
        "{bot:.3f}, always ducking {pas:.3f}, the best {best:.3f}",
        "評価用：親の選択{rounds}回、応答{n}通り。対数損失 {loss:.3f}（基準率 {base:.3f}）。"
        "結果から見た勝率：ヒューリスティックの応答 {heur:.3f}、モデルの最善 {model:.3f}、"
        "ボット（幅 {margin:g}、変更{changed}回）{bot:.3f}、常に見送り {pas:.3f}、"
        "最善 {best:.3f}",
    ),
    "train_claim_progress": ("Claim play-outs", "鳴きのプレイアウト"),
    "train_claim_none": (
        "the training deals had no claim round: give more --deals",
        "学習用のディールに鳴きの機会がありませんでした：--deals を増やしてください",
    ),
    "train_claim_done": (
        "model written to {path} ({size} bytes; {rows} answers of {rounds} claim rounds "
        "from {deals} deals, play-outs {gen:.1f} s, training {train:.1f} s, seed {seed})",
        "モデルを {path} に書き出しました（{size}バイト、{deals}ディールの鳴き{rounds}回の"
        "応答{rows}通り、プレイアウト{gen:.1f}秒、学習{train:.1f}秒、シード {seed}）",
    ),
    "train_claim_eval": (
        "held out: {rounds} claim rounds, {n} answers; log-loss {loss:.3f} against the "
        "base rate's {base:.3f}; hindsight win share: the heuristic's answers {heur:.3f}, "
        "the model's {model:.3f}, the bot's (margin {margin:g}, {changed} changed) "
        "{bot:.3f}, pass {pas:.3f}, the best {best:.3f}",
        "評価用：鳴き{rounds}回、応答{n}通り。対数損失 {loss:.3f}（基準率 {base:.3f}）。"
        "結果から見た勝率：ヒューリスティックの応答 {heur:.3f}、モデルの最善 {model:.3f}、"
        "ボット（幅 {margin:g}、変更{changed}回）{bot:.3f}、パス {pas:.3f}、最善 {best:.3f}",
    ),
    "train_value_counts": (
        "--deals, --eval-deals, --epochs and --hidden must be at least 1",
        "--deals、--eval-deals、--epochs、--hidden は1以上にしてください",
    ),
    "train_value_done": (
        "model written to {path} ({size} bytes; {rows} hands from {deals} deals, "
        "play-outs {gen:.1f} s, training {train:.1f} s, seed {seed})",
        "モデルを {path} に書き出しました（{size}バイト、{deals}ディールの{rows}手札、"
        "プレイアウト{gen:.1f}秒、学習{train:.1f}秒、シード {seed}）",
    ),
    "train_value_eval": (
        "held out: {n} hands; tricks per trump: mean absolute error {mae:.2f} "
        "(the heuristic's estimate {hmae:.2f}), correlation {corr:.2f} (heuristic "
        "{hcorr:.2f}); log-loss {loss:.3f} against the marginal's {base:.3f}",
        "評価用：{n}手札。切札ごとのトリック数の平均絶対誤差 {mae:.2f}"
        "（ヒューリスティックの見積もり {hmae:.2f}）、相関 {corr:.2f}（同 {hcorr:.2f}）、"
        "対数損失 {loss:.3f}（周辺分布 {base:.3f}）",
    ),
    # replay
    "replay_title": (
        "Record of {game}, {players} players (seed {seed})",
        "{game} の記録（{players}人、シード {seed}）",
    ),
    "replay_title_secret": (
        "Record of {game}, {players} players",
        "{game} の記録（{players}人）",
    ),
    "replay_own_hand": ("Hand {n}: {seat} was dealt", "第{n}ハンドで{seat}に配られた札"),
    "replay_as_seat": (
        "The match is not finished: shown as {seat} saw it (--reveal shows every card "
        "and the seed).",
        "対局は終わっていません：{seat}に見えていた内容だけを表示します（--reveal で"
        "すべての札とシードを表示）。",
    ),
    "replay_deal": ("Hand {n} dealt:", "第{n}ハンドの配札："),
    "replay_moves": ("Moves", "手順"),
    "replay_unfinished": ("The match was not finished.", "この対局は終わっていません。"),
    "press_enter": ("(Enter: next, q: stop)", "（Enter で次へ、q で終了）"),
    # the full-screen app (xtarot.tui)
    "key_help": ("Help", "ヘルプ"),
    "key_rules": ("Rules", "ルール"),
    "key_hint": ("Hint", "ヒント"),
    "key_undo": ("Undo", "取り消し"),
    "key_save": ("Save", "保存"),
    "key_quit": ("Quit", "終了"),
    "key_close": ("Close", "閉じる"),
    "key_moves": ("Moves", "手の一覧"),
    "key_type": ("Type", "入力"),
    "key_next": ("Next", "次へ"),
    "key_back": ("Back", "前へ"),
    "key_first": ("Start", "最初"),
    "key_last": ("End", "最後"),
    "tui_log": ("Moves at the table", "卓の進行"),
    "tui_wait": ("Not your turn yet: {what}", "まだあなたの番ではありません：{what}"),
    "tui_playing": ("the others are playing…", "ほかの席が打っています…"),
    "tui_quit_soon": (
        "You quit as soon as it is your turn.",
        "あなたの番になったら終了します。",
    ),
    "tui_over": (
        "The match is over: Enter or ctrl+q leaves.",
        "対戦は終わりました：Enter か ctrl+q で閉じます。",
    ),
    "tui_pager_keys": (
        "↑↓ PgUp PgDn scroll · q or Esc closes",
        "↑↓ PgUp PgDn でスクロール・q か Esc で閉じる",
    ),
    "tui_yes": ("Yes", "はい"),
    "tui_no": ("No", "いいえ"),
    "tui_hand": ("Your hand ({n})", "あなたの手札（{n}）"),
    "tui_help_title": ("Help: keys and moves", "ヘルプ：キーと手の入力"),
    "tui_help_keys": (
        "Choose a move in the list (↑↓, Enter or a click; a card of your hand can be "
        "clicked too), or type it below: its number, its text (`play Kc`), just the card "
        "(`Kc`), several cards for place / discard / pay. ↑↓ in the input bring back "
        "what you typed. Tab moves between the list and the input.",
        "一覧から手を選ぶ（↑↓ と Enter、またはクリック。手札のカードもクリックできます）か、下の"
        "入力欄に入力します：番号、手のテキスト（`play Kc`）、カードだけ（`Kc`）、place・discard・"
        "pay ならカードを複数。入力欄で ↑↓ を押すと前に入力した行が戻ります。Tab で一覧と入力欄を"
        "行き来します。",
    ),
    "tui_help_commands": (
        "F1 help · F2 rules · F3 hint (or `?`) · F4 undo (or `undo`) · ctrl+s save the "
        "record so far (or `save`) · ctrl+q quit (or `q`), offering to save",
        "F1 ヘルプ・F2 ルール・F3 ヒント（`?`）・F4 取り消し（`undo`）・ctrl+s ここまでの記録を"
        "保存（`save`）・ctrl+q 終了（`q`、保存するか聞かれます）",
    ),
    "key_hand": ("Next hand", "次のハンド"),
    "key_play": ("Play", "再生"),
    "key_pause": ("Pause", "停止"),
    "tui_replay_pos": ("Step {n}/{of}", "手順 {n}/{of}"),
    "tui_replay_hand": ("Hand {n}/{of}", "ハンド {n}/{of}"),
    "tui_replay_pace": ("{pace} s a step", "1手 {pace} 秒"),
    "tui_replay_playing": ("▶ {pace} s", "▶ {pace}秒"),
    "tui_replay_title": ("Replay: keys", "リプレイ：キー"),
    "tui_replay_keys": (
        "→ l space   the next step\n"
        "← h         the step before\n"
        "Home End    the start, the end\n"
        "PgDn n      the start of the next hand\n"
        "PgUp b      the start of this hand (again: of the hand before)\n"
        "p Enter     play (a step at once, then one a second) or pause\n"
        "+ -         faster, slower\n"
        "↑↓ Tab      scroll the moves; Tab moves to the hands and back\n"
        "F2          the rules\n"
        "q           leave\n"
        "The buttons in the bar at the bottom can be clicked too.",
        "→ l space   次の手順\n"
        "← h         前の手順\n"
        "Home End    最初、最後\n"
        "PgDn n      次のハンドの最初\n"
        "PgUp b      このハンドの最初（もう一度で前のハンドの最初）\n"
        "p Enter     再生（すぐに1手進み、以後1秒ごと）・停止\n"
        "+ -         速く、遅く\n"
        "↑↓ Tab      進行をスクロール。Tab で手札の欄へ移り、もう一度で戻る\n"
        "F2          ルール\n"
        "q           終了\n"
        "下の欄のボタンもクリックできます。",
    ),
    "tui_replay_whole": (
        "The match is shown whole: every seat's cards from the start and face-down moves "
        "too; after the end of the match, every hand as it was dealt.",
        "対局をすべて表示しています：最初から全員の札と伏せた手も。対局が終わった後は、各ハンドの"
        "配札を表示します。",
    ),
    "tui_all_hands": ("Every seat's cards", "全員の手札"),
    # sono-arcana
    "sa_round": ("Round {n}", "第{n}ラウンド"),
    "sa_final_round": ("final round", "最終ラウンド"),
    "sa_parent": ("parent", "親"),
    "sa_lot": ("Lot", "競売品"),
    "sa_stack": ("talismans left: {n}", "残り護符：{n}枚"),
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
        "{round}：親 {parent}、{mode}、競売品 {lot}",
    ),
    "sa_up": ("face up", "表向き"),
    "sa_down": ("face down", "裏向き"),
    "sa_void": ("void", "無効"),
    "sa_wins": ("{seat} wins {lot}", "{seat}が {lot} を落札"),
    "sa_leading": ("leading: {seat} with {card}", "現在の勝ち：{seat}の{card}"),
    "sa_new_round": (
        "{round}: {parent} is the parent; lot {lot}",
        "{round}：親は{parent}、競売品 {lot}",
    ),
    "sa_new_final": (
        "{round} (final): {parent} is the parent; every remaining talisman is in the lot: {lot}",
        "{round}（最終）：親は{parent}、残りの護符すべてが競売品：{lot}",
    ),
    "sa_lot_two": (
        "{seat} reveals a second talisman: {card}",
        "{seat}が護符をもう1枚めくりました：{card}",
    ),
    "sa_lot_one": ("{seat} keeps the lot at one talisman", "{seat}は競売品を1枚にしました"),
    "sa_bid_up": ("{seat} bids face up: {card}", "{seat}が表向きに入札：{card}"),
    "sa_bid_down": ("{seat} bids face down", "{seat}が裏向きに入札しました"),
    "sa_play_up": ("{seat} plays {card}", "{seat}が {card} を出しました"),
    "sa_play_down": ("{seat} plays a card face down", "{seat}がカードを裏向きに出しました"),
    "sa_col_up": ("face up (+2)", "表（+2）"),
    "sa_col_down": ("face down (-1)", "裏（-1）"),
    "sa_team_total": ("team {team}: {total}", "チーム{team}：{total}"),
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
    "draw": ("", "引く"),
    "end": ("", "終了"),
    "buy": ("", "購入"),
    "pay": ("", "支払う"),
    "draw stock": ("draw from the stock", "山札から引く"),
    "draw discard": ("take the top discard", "捨て札の一番上を取る"),
    "place": ("lay face down", "裏向きに置く"),
    "attack": ("attack with it", "攻撃に使う"),
    "at down": ("target a face-down card", "裏向きのカードを狙う"),
    "at": ("target", "目標"),
    "defend": ("", "防御"),
    "pon": ("", "ポン"),
    "chi": ("", "チー"),
    "add": ("add to a meld", "面子に追加"),
    "luck": ("put Lc in your area", "Lc を自分のエリアに置く"),
    "claim pon": ("", "ポンを宣言"),
    "claim chi": ("", "チーを宣言"),
    "bid": ("", "入札"),
    "call": ("call the partner's card", "副官のカードを指名"),
}

#: Fairy 500's misère bids: (English, Japanese) of the kind and of the modifiers.
_MISERE = {
    "misere": ("misère: take no trick", "ミゼール：トリックを取らない"),
    "hand-misere": ("misère without the kitty", "ハンドミゼール：キティなし"),
    "open-misere": ("misère with your hand shown", "オープンミゼール：手札を公開"),
    "open-hand-misere": (
        "misère, no kitty, hand shown",
        "オープンハンドミゼール：キティなし・手札公開",
    ),
}
_MODIFIERS = {
    "": ("", ""),
    " double": (", x2: you hold an F", "、2倍：F を持っている"),
    " crazy": (", x10: you hold the cups F", "、10倍：聖杯の F を持っている"),
}
for _kind, (_en, _ja) in _MISERE.items():
    for _mod, (_men, _mja) in _MODIFIERS.items():
        _GLOSS[f"bid {_kind}{_mod}"] = (_en + _men, _ja + _mja)


#: Japanese labels of view keys, for the generic table screen (English shows the key).
VIEW_LABELS_JA: dict[str, str] = {
    "areas": "エリア",
    "attack": "攻撃",
    "attacker": "攻撃側",
    "auction": "競り",
    "batch": "配札の回",
    "called": "指名されたカード",
    "claim": "鳴き",
    "combats": "戦闘",
    "contract": "契約",
    "dealer": "ディーラー",
    "deck": "デッキ",
    "discard": "捨て札",
    "discard_count": "捨て札の枚数",
    "discard_top": "捨て札の一番上",
    "discards": "捨て札",
    "field": "場",
    "fields": "フィールド",
    "first": "最初の手番",
    "hand_number": "ハンド番号",
    "hand_points": "このハンドの得点",
    "hand_sizes": "手札枚数",
    "hands_in_match": "ハンド数",
    "hands_limit": "ハンド数",
    "high_bid": "最高入札",
    "high_bidder": "最高入札者",
    "is_partner": "あなたは副官",
    "kitty": "キティ",
    "kitty_size": "キティの枚数",
    "known_in_hands": "見えている手札",
    "last_claim": "直前の鳴き",
    "last_result": "前のハンドの結果",
    "last_turn": "最後のターン",
    "led_suit": "台札のスート",
    "lot": "競売品",
    "melds": "面子",
    "open_hand": "公開された手札",
    "order": "手番の順",
    "parent": "親",
    "partners": "副官",
    "passed": "パスした席",
    "points": "得点札",
    "purchases": "購入",
    "results": "結果",
    "round": "ラウンド",
    "rounds": "ラウンド",
    "stock_count": "山札",
    "stock_left": "山札",
    "table": "場",
    "target_score": "目標点",
    "teams": "チーム",
    "trick": "トリック",
    "tricks": "トリック",
    "tricks_won": "取ったトリック",
    "turn": "ターン",
    "voids": "欠けているスート",
    "won": "獲得した札",
}


#: Japanese names of the phases games report in their views.
PHASES_JA: dict[str, str] = {
    "attack": "攻撃",
    "auction": "ビッド",
    "bid": "入札",
    "buy": "購入",
    "call": "副官の指名",
    "claim": "鳴き",
    "defend": "防御",
    "discard": "キティ交換",
    "draw": "ドロー",
    "lot": "競売品",
    "over": "終了",
    "pay": "支払い",
    "play": "プレイ",
    "refill": "補充",
    "reset": "再配置",
    "setup": "準備",
    "turn": "手番",
}


def phase_label(phase: object, lang: str) -> str:
    """A phase name for the screen (``play`` / ``プレイ``).

    >>> phase_label("auction", "ja"), phase_label("auction", "en")
    ('ビッド', 'auction')
    """
    text = str(phase)
    return PHASES_JA.get(text, text) if lang == "ja" else text


def view_label(key: str, lang: str) -> str:
    """The label of a view key: the key itself in English (``_`` as spaces), a
    Japanese word when there is one.

    >>> view_label("hand_sizes", "en"), view_label("hand_sizes", "ja")
    ('hand sizes', '手札枚数')
    """
    if lang == "ja" and key in VIEW_LABELS_JA:
        return VIEW_LABELS_JA[key]
    return key.replace("_", " ")


def colon(text: str, lang: str) -> str:
    """``text: `` / ``text：`` (full-width in Japanese).

    >>> colon("Trick", "en"), colon("トリック", "ja")
    ('Trick: ', 'トリック：')
    """
    return f"{text}：" if lang == "ja" else f"{text}: "


def tag(text: str, lang: str) -> str:
    """`` [text]`` / ``［text］``: a mark after a seat's name.

    >>> tag("dealer", "en"), tag("親", "ja")
    (' [dealer]', '［親］')
    """
    return f"［{text}］" if lang == "ja" else f" [{text}]"


def comma(lang: str) -> str:
    """The separator of a list: ``, `` / ``、``."""
    return "、" if lang == "ja" else ", "


def paren(text: object, lang: str) -> str:
    """`` (text)`` / ``（text）`` (full-width in Japanese).

    >>> paren(16, "en"), paren(16, "ja")
    (' (16)', '（16）')
    """
    return f"（{text}）" if lang == "ja" else f" ({text})"


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
    """A seat as people count them, from 1: seat index 1 is ``Seat 2`` / ``2番席``,
    with ``(you)`` / ``（あなた）`` for the human's seat.  (The API's seats are 0-based.)

    >>> seat_label(2, "en", 2), seat_label(2, "ja", 2)
    ('Seat 3 (you)', '3番席（あなた）')
    """
    text = t("seat", lang, seat=seat + 1)
    if seat != you:
        return text
    return f"{text}（{t('you', lang)}）" if lang == "ja" else f"{text} ({t('you', lang)})"


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


def rules_text(game_id: str, lang: str) -> tuple[str, str] | None:
    """The player-facing rules summary of a game: (text, language it is in), falling
    back to the other language; ``None`` when the game has none (plugins included)."""
    found = rules_markdown(game_id, lang if lang in ("en", "ja") else "en")
    return (found[1], found[0]) if found is not None else None


_SUITS_JA = {
    "c": "聖杯", "cups": "聖杯", "d": "金貨", "coins": "金貨", "s": "魔剣", "swords": "魔剣",
    "w": "聖樹", "trees": "聖樹", "T": "大アルカナ", "majors": "大アルカナ",
}  # fmt: skip

#: The engine's messages (illegal moves, bad options, bad records) and their Japanese
#: forms: a full-match pattern and a template over its groups; ``{k!t}`` marks a
#: group that is itself a message to translate, ``{k!s}`` a suit.
_ERRORS_JA: list[tuple[str, str]] = [
    # moves, every game
    (r"you do not hold (\S+)", "{0} を持っていません"),
    (r"you must follow the led suit \((\w+)\) while you hold it",
     "台札のスート（{0!s}）を持っている間はそれを出さなければなりません"),
    (r"you must follow the led suit while you can",
     "台札のスートを出せる間はそれを出さなければなりません"),
    (r"you cannot follow, so you must play a major while you hold one",
     "台札のスートがないので、大アルカナを持っている間はそれを出さなければなりません"),
    (r"the match is over: no action is legal", "対局は終わっています"),
    (r"not allowed now", "今はできません"),
    # sono-arcana
    (r"the parent first chooses the lot: lot 1 or lot 2",
     "まず親が競売品を決めます：lot 1 か lot 2"),
    (r"the lot is already set", "競売品はもう決まっています"),
    (r"the parent bids: bid up <card> or bid down <card>",
     "親が入札します：bid up <カード> か bid down <カード>"),
    (r"only the parent bids; the others play <card>",
     "入札するのは親だけです。ほかの人は play <カード>"),
    # fairy500
    (r"the auction is on: pass or bid", "ビッド中です：pass か bid"),
    (r"a bid must be higher in value than the standing bid",
     "ビッドは今の最高ビッドより基本点が高くなければなりません"),
    (r"the declarer now calls a partner card: call <card>",
     "デクレアラーが副官の札を指名するところです：call <カード>"),
    (r"(\S+) is not in this player count's card set", "{0} はこの人数では使わないカードです"),
    (r"(\S+) is already called", "{0} はもう指名されています"),
    (r"classical: you may not call a card you have seen",
     "クラシカル：見た札は指名できません"),
    (r"the declarer now discards four cards: discard <card>",
     "デクレアラーが4枚捨てるところです：discard <カード>"),
    (r"the hand is being played: play <card>", "プレイ中です：play <カード>"),
    # matto
    (r"the discard pile is empty: draw stock", "捨て札がありません：draw stock で山札から引きます"),
    (r"first take a card: draw stock or draw discard",
     "先にカードを取ってください：draw stock か draw discard"),
    (r"you have already drawn this turn", "このターンはもう引きました"),
    (r"finish paying for (\S+) first \((\d+) still owed\)",
     "先に {0} の支払いを済ませてください（残り{1}）"),
    (r"after (\S+) the remaining (-?\d+) could not be paid exactly",
     "{0} で払うと残りの{1}をちょうど払えません"),
    (r"name the major first: buy <major>", "先に買う大アルカナを選んでください：buy <大アルカナ>"),
    (r"(\S+) is not on the field", "{0} は場にありません"),
    (r"your hand cannot pay exactly (\d+) for (\S+)",
     "手札では {1} の代金{0}をちょうど払えません"),
    # arcana-duel
    (r"place cards from your hand face down until your field holds 5",
     "フィールドが5枚になるまで手札から裏向きに置いてください"),
    (r"(\S+) is not a face-down card of your field",
     "{0} はあなたのフィールドの裏向きのカードではありません"),
    (r"pick the face-down card that defends: defend <card>",
     "防御する裏向きのカードを選んでください：defend <カード>"),
    (r"name the target of the attack first: at <card> or at down",
     "先に攻撃の目標を決めてください：at <カード> か at down"),
    (r"make at least one attack first", "先に1回は攻撃してください"),
    (r"(\S+) is not on your field", "{0} はあなたのフィールドにありません"),
    (r"(\S+) has already attacked this turn", "{0} はこのターンにもう攻撃しました"),
    (r"choose the attacking cards first: attack <card>",
     "先に攻撃するカードを選んでください：attack <カード>"),
    (r"the opponent has no face-down card", "相手に裏向きのカードはありません"),
    (r"(\S+) is not a face-up card of the opponent's field",
     "{0} は相手のフィールドの表向きのカードではありません"),
    # grail-mahjong
    (r"that claim does not fit the discard (\S+) with the cards in your hand \(a claim names "
     r"two of your cards that make a pon or a chi with it\)",
     "その鳴きは捨て牌 {0} と手札では成立しません（鳴きでは、捨て牌とポンかチーになる"
     "手札2枚を指定します）"),
    (r"answer the discard (\S+): pass or claim", "捨て牌 {0} に返答してください：pass か claim"),
    (r"it is your turn: meld from your hand, then discard or play luck",
     "あなたの番です：手札から面子を作り、捨てるか luck を出してください"),
    (r"(\S+) is not in this game's card set", "{0} はこのゲームのカードにありません"),
    (r"you have no meld (\d+) \(yours are numbered 0\.\.(-?\d+)\)",
     "面子{0}はありません（あなたの面子は0〜{1}）"),
    (r"meld (\d+) already holds (\d+) cards", "面子{0}にはもう{1}枚あります"),
    (r"that card does not fit meld (\d+)", "その札は面子{0}に合いません"),
    (r"you do not hold those cards \(or they are not in this game's card set\)",
     "それらの札を持っていません（またはこのゲームのカードにありません）"),
    # configuration
    (r"(\S+) is for (\d+) to (\d+) players, not (\d+)", "{0} は{1}〜{2}人用です（{3}人は不可）"),
    (r"(\S+): players must be a whole number, not (.+)", "{0}：人数は整数です（{1} は不可）"),
    (r"(\S+): unknown option (.+); options: (.+)",
     "{0}：オプション {1} はありません。オプション：{2}"),
    (r"(\S+): option (\w+) takes true or false, not (.+)",
     "{0}：オプション {1} は true か false です（{2} は不可）"),
    (r"(\S+): option (\w+) takes a whole number, not (.+)",
     "{0}：オプション {1} は整数です（{2} は不可）"),
    (r"(\S+): option (\w+)=(.+) is not allowed; choose one of (.+)",
     "{0}：オプション {1}={2} は使えません。次から選んでください：{3}"),
    (r"(\S+): option (\w+)=(.+) needs ([\d, ]+) players, not (\d+)",
     "{0}：オプション {1}={2} は{3}人のときだけ使えます（{4}人は不可）"),
    (r"(\S+): option (\w+) must be at least 1, not (.+)",
     "{0}：オプション {1} は1以上です（{2} は不可）"),
    (r"(\S+): option hands must be 1 or more, not (.+)",
     "{0}：オプション hands は1以上です（{1} は不可）"),
    (r"unknown game (.+); games: (.+)", "ゲーム {0} はありません。ゲーム：{1}"),
    (r"bad bot (.+): a budget is ismcts:N or pimc:N, N >= 1",
     "ボット {0} は使えません：予算は ismcts:N か pimc:N（N は1以上）です"),
    (r"unknown bot (.+?); bots: (.+)", "ボット {0} はありません。ボット：{1}"),
    # records
    (r"cannot read record (.+): (.+)", "記録 {0} を読めません：{1!e}"),
    (r"(.+) is not valid JSON: .*line (\d+) column (\d+) \(char \d+\)",
     "{0} は正しい JSON ではありません（{1}行{2}文字目）"),
    (r"(.+) is not valid JSON: (.+)", "{0} は正しい JSON ではありません"),
    (r"(.+) does not hold a record object", "{0} は記録ではありません"),
    (r"record is not valid JSON: .*line (\d+) column (\d+) \(char \d+\)",
     "記録が正しい JSON ではありません（{0}行{1}文字目）"),
    (r"record is not valid JSON: (.+)", "記録が正しい JSON ではありません"),
    (r"a record is a JSON object", "記録は JSON オブジェクトです"),
    (r"not an xtarot record \(format (.+)\)", "xtarot の記録ではありません（形式 {0}）"),
    (r"record version (.+) is not supported \(this xtarot reads version (\d+)\)",
     "記録のバージョン {0} には対応していません（読めるのはバージョン {1}）"),
    (r"record has no deal", "記録に配札がありません"),
    (r"record has no (.+)", "記録に {0} がありません"),
    (r"record field (.+) has the wrong type \((.+)\)", "記録の項目 {0} の型が違います（{1!y}）"),
    (r"record names a game that cannot be loaded: (.+)",
     "記録のゲームを読み込めません：{0!t}"),
    (r"record holds an invalid deal: (.+)", "記録の配札が正しくありません：{0!t}"),
    (r"action (\d+) is not text: (.+)", "{0}手目がテキストではありません：{1}"),
    (r"action (\d+) \((.+?)\) does not replay: '(.+?)' is not legal for seat (\d+): (.+?); "
     r"legal now: (.+)",
     "{0}手目（{1}）が再現できません：{4!t}"),
    (r"action (\d+) \((.+?)\) does not replay: (.+?); legal now: (.+)",
     "{0}手目（{1}）が再現できません：{2!t}"),
    (r"action (\d+) \((.+?)\) does not replay: (.+)", "{0}手目（{1}）が再現できません：{2!t}"),
    (r"after action (\d+): invalid deal: (.+)", "{0}手目の後の配札が正しくありません：{1!t}"),
    (r"'(.+?)' is not an action of (\S+)", "'{0}' は {1} の手ではありません"),
    (r"action id (\d+) is out of range 0\.\.(\d+)", "手の番号 {0} は範囲外です（0〜{1}）"),
    # deals (a record's or a hand-built one)
    (r"(.+?): '(.+)' is not a card of the (?:Xtarot|classic tarot) deck",
     "{0!w}：{1} はこのデッキのカードではありません"),
    (r"(.+?): (\S+) is not in this game's card set", "{0!w}：{1} はこのゲームのカードにありません"),
    (r"(.+?): (\S+) is not in the (\d+)-player card set",
     "{0!w}：{1} は{2}人用のカードにありません"),
    (r"(.+?): (\S+) is not in the (\d+)-card deck", "{0!w}：{1} は{2}枚のデッキにありません"),
    (r"(\S+) appears twice \(again in (.+)\)", "{0} が2回出てきます（2回目：{1!w}）"),
    (r"(.+) must be a list of card codes", "{0!w} はカードコードのリストです"),
    (r"(.+) must have (\d+) cards, not (\d+)", "{0!w} は{1}枚です（{2}枚は不可）"),
    (r"(\S+) must list (\d+) hands, one per seat", "{0!w} には1席に1つ、{1}人分の手札が要ります"),
    (r"hand of seat (\d+) must have (\d+) cards.*", "{0!n}の手札は{1}枚です"),
    (r"(\S+) must be a seat 0\.\.(\d+), not (.+)", "{0!w} は席番号0〜{1}です（{2} は不可）"),
    (r"an? (\S+) deal has the piles (.+?)(?:; missing (.+?))?(?:; unknown (.+))?",
     "{0} の配札の山は {1!l} です（足りない山：{2!l}、知らない山：{3!l}）"),
    (r"seed must be a whole number, not (.+)", "シードは整数です（{0} は不可）"),
    (r"a deal is a mapping of named piles, not (.+)",
     "配札は名前つきの山の対応表です（{0} は不可）"),
    (r"talismans must list all 24 majors T0\.\.T23, top first",
     "護符には大アルカナ T0〜T23 の24枚すべてを上から並べます"),
    (r"(\S+) must list the other (\d+) cards, top first",
     "{0!w} には残りの{1}枚を上から並べます"),
    (r"the recorded result differs from the replayed one", "記録の結果が再現した結果と違います"),
    # the lab: restricted players, tuning
    (r"unknown restriction (.+) for (\S+); restrictions: (.+)",
     "{1} に制限 {0} はありません。制限：{2}"),
    (r"a restriction is SEAT:NAME\[=VALUE\] with the seat from 1 \(e\.g\. 2:no-chi\), not (.+?); "
     r"restrictions for (\S+): (.+)",
     "制限は 席:名前[=値] の形で、席は1から数えます（例 2:no-chi）。{0} は不可。{1} の制限：{2}"),
    (r"restricted seat (\d+): seats are 1 to (\d+)", "制限する席 {0}：席は1〜{1}です"),
    (r"restriction (.+) takes no value \(write (.+)\)",
     "制限 {0} は値をとりません（{1} と書きます）"),
    (r"restriction (.+) needs a value: (.+)", "制限 {0} には値が必要です：{1}"),
    (r"restriction (.+) takes a whole number, not (.+) \((.+)\)",
     "制限 {0} は整数をとります（{1} は不可、{2}）"),
    (r"unknown target (.+); targets: (.+)", "目標 {0} はありません。目標：{1}"),
    (r"target (.+) needs a positive number \((.+)\), not (.+)",
     "目標 {0} には正の数が必要です（{1}。{2} は不可）"),
    (r"target (.+) takes no value", "目標 {0} は値をとりません"),
    (r"give one target, or two for a Pareto front", "目標は1つ、パレートフロントなら2つです"),
    (r"(.+) is not an option of (\S+); the space of (\S+): (.+)",
     "{0} は {1} のオプションではありません。{2} の探索範囲：{3}"),
    (r"give at least one --space KEY=LO\.\.HI or KEY=A\|B; the space of (\S+): (.+)",
     "--space KEY=LO..HI か KEY=A|B を1つ以上指定してください。{0} の探索範囲：{1}"),
    (r"bad range for (\S+): (.+)", "{0} の範囲が正しくありません：{1}"),
    (r"a ladder needs at least two levels, weakest first",
     "ラダーには弱い順に2段階以上が必要です"),
]  # fmt: skip
_ERRORS_RE = [(re.compile(pattern), template) for pattern, template in _ERRORS_JA]
_FIELD = re.compile(r"{(\d+)(?:!([tswenly]))?}")
#: JSON value kinds by their Python type names (``{k!y}``).
_TYPES_JA = {"str": "文字列", "int": "整数", "float": "小数", "bool": "真偽値", "list": "リスト",
             "dict": "オブジェクト", "NoneType": "null"}  # fmt: skip

#: The piles of the games' deals, as an error names them (``{k!w}``).
_PILES_JA = {
    "hands": "手札", "talismans": "護符", "parent": "親", "stock": "山札", "kitty": "キティ",
    "discard": "捨て札", "majors": "大アルカナの山", "deck": "山札", "dealer": "ディーラー",
    "order": "手番の順", "first_attacker": "先攻", "field": "フィールド",
}  # fmt: skip
#: The C library's reasons (``strerror``) a record could not be read for (``{k!e}``).
_STRERROR_JA = {
    "No such file or directory": "ファイルがありません",
    "Permission denied": "読み取りの権限がありません",
    "Is a directory": "フォルダです",
    "Not a directory": "フォルダがありません",
}
_HAND_OF = re.compile(r"hand of seat (\d+)")


def _where_ja(where: str) -> str:
    """Where in a deal: ``hand of seat 1`` -> ``2番席の手札`` (seats counted from 1)."""
    m = _HAND_OF.fullmatch(where)
    if m is not None:
        return f"{int(m.group(1)) + 1}番席の手札"
    return _PILES_JA.get(where, where)


_OS_REASONS = {
    errno.ENOTDIR: "os_no_dir",
    errno.EISDIR: "os_is_dir",
    errno.EACCES: "os_denied",
    errno.EPERM: "os_denied",
    errno.EROFS: "os_read_only",
    errno.ENOSPC: "os_no_space",
}


def os_reason(err: OSError, lang: str, *, reading: bool = False) -> str:
    """Why a file could not be read or written, in ``lang`` (not the C library's
    English ``strerror``); a missing file is a missing folder when writing.

    >>> os_reason(FileNotFoundError(2, "No such file or directory"), "ja")
    'フォルダがありません'
    >>> os_reason(FileNotFoundError(2, "No such file or directory"), "en", reading=True)
    'no such file'
    """
    if err.errno == errno.ENOENT:
        return t("os_not_found" if reading else "os_no_dir", lang)
    key = _OS_REASONS.get(err.errno or 0)
    if key is not None:
        return t(key, lang)
    return t("os_other", lang, err=err.strerror or err)


def say_error(message: str, lang: str) -> str:
    """An engine message (illegal move, bad option, bad record) in ``lang``; a message
    without a Japanese form stays in English.

    >>> say_error("you must follow the led suit (cups) while you hold it", "ja")
    '台札のスート（聖杯）を持っている間はそれを出さなければなりません'
    >>> say_error("sono-arcana is for 3 to 5 players, not 9", "ja")
    'sono-arcana は3〜5人用です（9人は不可）'
    >>> say_error("you do not hold Kc", "en")
    'you do not hold Kc'
    """
    if lang != "ja":
        return message
    for pattern, template in _ERRORS_RE:
        m = pattern.fullmatch(message)
        if m is None:
            continue
        groups = m.groups()

        def field(f: re.Match[str], groups: tuple[str, ...] = groups) -> str:
            value = groups[int(f.group(1))]
            if value is None:  # an optional group that did not match
                return "なし"
            if f.group(2) == "t":
                return say_error(value, lang)
            if f.group(2) == "s":
                return _SUITS_JA.get(value, value)
            if f.group(2) == "w":
                return _where_ja(value)
            if f.group(2) == "e":
                return _STRERROR_JA.get(value, value)
            if f.group(2) == "n":
                return f"{int(value) + 1}番席"
            if f.group(2) == "l":
                names = value.replace(" and ", ", ").split(", ")  # the record's keys
                return "、".join(f"'{name}'" for name in names)
            if f.group(2) == "y":
                return _TYPES_JA.get(value, value)
            return value

        return _FIELD.sub(field, template)
    return message
