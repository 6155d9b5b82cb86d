// UI texts in English and Japanese; the choice is kept in localStorage.
"use strict";

const XI18n = (() => {
  const T = {
    en: {
      title: "xtarot — play in the browser",
      lobby: "New table",
      game: "Game",
      players: "Players",
      options: "Options",
      seats: "Seats",
      seat: "Seat",
      human: "Human (join link)",
      seed: "Seed (optional)",
      create: "Create table",
      links: "Join links — send each friend their own link; keep yours.",
      play_here: "Play here",
      copy: "Copy",
      copied: "Copied",
      spectate: "Spectator link (public view only)",
      you: "you",
      bot: "bot",
      online: "online",
      offline: "offline",
      to_act: "to act",
      your_turn: "Your turn",
      waiting: "Waiting for {who}",
      finished: "The match is over",
      hint: "Hint",
      hint_busy: "Thinking…",
      hand: "Your hand",
      table: "Table",
      scores: "Score",
      rank: "Rank",
      history: "Rounds",
      download: "Download the game record",
      connecting: "Connecting…",
      reconnecting: "Connection lost — reconnecting…",
      spectator: "Spectating",
      no_table: "No table here. Create one from the lobby.",
      phase: "Phase",
      choose: "Choose:",
      winner: "winner",
      winners: "Winner",
      hand_sizes: "cards",
      lobby_link: "Lobby",
      error: "Error",
      none: "none",
    },
    ja: {
      title: "xtarot — ブラウザで遊ぶ",
      lobby: "新しい卓",
      game: "ゲーム",
      players: "人数",
      options: "オプション",
      seats: "席",
      seat: "席",
      human: "人間（参加リンク）",
      seed: "シード（任意）",
      create: "卓を作る",
      links: "参加リンク — 友だちにはそれぞれの席のリンクを送ってください。自分の分は手元に。",
      play_here: "ここで遊ぶ",
      copy: "コピー",
      copied: "コピーしました",
      spectate: "観戦リンク（公開情報のみ）",
      you: "あなた",
      bot: "ボット",
      online: "接続中",
      offline: "未接続",
      to_act: "手番",
      your_turn: "あなたの番です",
      waiting: "{who}の番です",
      finished: "対戦終了",
      hint: "ヒント",
      hint_busy: "考え中…",
      hand: "手札",
      table: "場",
      scores: "得点",
      rank: "順位",
      history: "これまでのラウンド",
      download: "棋譜をダウンロード",
      connecting: "接続中…",
      reconnecting: "接続が切れました — 再接続中…",
      spectator: "観戦中",
      no_table: "卓がありません。ロビーで作ってください。",
      phase: "局面",
      choose: "選んでください：",
      winner: "勝者",
      winners: "勝者",
      hand_sizes: "枚",
      lobby_link: "ロビー",
      error: "エラー",
      none: "なし",
    },
  };

  // Per-game words (phases, action verbs); games without an entry show the raw text.
  const GAME = {
    "sono-arcana": {
      en: {
        phase: { lot: "the lot", bid: "the parent's bid", play: "playing", over: "over" },
        lot_1: "Stop here", lot_2: "Turn up one more",
        bid_up: "Bid face up", bid_down: "Bid face down", play: "Play",
        parent: "parent", lot: "The lot", stack: "talismans left in the stack",
        mode_up: "face up: follow the lead suit", mode_down: "face down: any card",
        final_round: "final round", round: "Round", won: "talismans",
        led: "lead suit", void: "void",
      },
      ja: {
        phase: { lot: "競り札めくり", bid: "親の入札", play: "入札中", over: "終了" },
        lot_1: "ここで止める", lot_2: "もう1枚めくる",
        bid_up: "表向きで入札", bid_down: "裏向きで入札", play: "出す",
        parent: "親", lot: "競りにかかる護符", stack: "山に残る護符",
        mode_up: "表向き：リードのスートに従う", mode_down: "裏向き：何でも可",
        final_round: "最終ラウンド", round: "ラウンド", won: "護符",
        led: "リードのスート", void: "無効",
      },
    },
  };

  let lang = localStorage.getItem("xtarot.lang") ||
    ((navigator.language || "en").startsWith("ja") ? "ja" : "en");

  function t(key, vars) {
    let s = (T[lang] && T[lang][key]) || T.en[key] || key;
    for (const [k, v] of Object.entries(vars || {})) s = s.replace(`{${k}}`, v);
    return s;
  }
  function g(game, key) {
    const words = GAME[game] && (GAME[game][lang] || GAME[game].en);
    return words ? words[key] : undefined;
  }
  function seatName(seat) {
    return lang === "ja" ? `${seat + 1}番席` : `Seat ${seat + 1}`;
  }
  function get() { return lang; }
  function set(value) {
    lang = value === "ja" ? "ja" : "en";
    localStorage.setItem("xtarot.lang", lang);
    document.documentElement.lang = lang;
  }
  document.documentElement.lang = lang;
  return { t, g, get, set, seatName };
})();
