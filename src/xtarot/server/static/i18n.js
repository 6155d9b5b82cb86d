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
      bot_levels: "Bot level",
      bot_by_name: "Bots by name (research)",
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
      history: "History",
      download: "Download the game record",
      layout_missing_title: "This game's table could not be loaded",
      layout_missing_text: "The page could not load the drawing of this game's table, so it cannot show the cards on the table. Your hand and your moves below still work.",
      layout_missing_fix: "Reload the page. If this keeps happening, the server's installation is missing files: reinstall xtarot (pip install --force-reinstall xtarot) or tell whoever runs this server.",
      layout_none: "This game (a plugin) has no table layout: everything you can see is listed as plain text.",
      your_name: "Your name",
      name_help: "Shown to the others at your tables: 1 to 24 characters.",
      name_saved: "Saved.",
      name_bad: "A name is 1 to 24 characters, without control characters.",
      set_name: "Your name…",
      save: "Save",
      cancel: "Cancel",
      chat: "Chat",
      chat_placeholder: "Say something…",
      send: "Send",
      chat_readonly: "Only the players at the table write here.",
      chat_empty: "Say hello to the table.",
      phrase_hello: "Hi, good luck!",
      phrase_nice: "Nice!",
      phrase_thanks: "Thanks!",
      phrase_gg: "Good game!",
      phrase_sorry: "Sorry!",
      phrase_wait: "One moment…",
      phrase_again: "One more?",
      rematch: "Play again",
      rematch_help: "Same players, same options, a new deal.",
      rematch_wait: "Waiting for {who} ({n} of {m} agreed)",
      rematch_ready: "Everyone agreed: the new match starts…",
      rematch_watch: "Watch the rematch",
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
      last_trick: "Last trick",
      back_to_trick: "Back to the trick",
      winning: "winning",
      log: "Moves",
      since_last: "since your last move",
      rules: "Rules",
      close: "Close",
      last_hand: "Last hand",
      hand_over: "Hand over",
      match_over: "Match over",
      dismiss: "OK",
      sound: "Sound",
      clock: "Move clock",
      clock_none: "none",
      clock_left: "{s} s left",
      autopilot: "a bot plays for this seat",
      hand_no: "Hand {n}",
      your_turn_title: "● Your turn — {game}",
      new_hand: "— hand {n} —",
      dealer: "dealer",
      open_tables: "Open tables",
      my_tables: "My tables",
      no_open_tables: "No open tables right now.",
      no_my_tables: "Tables you create or join appear here.",
      join_seat: "Join as {seat}",
      watch: "Watch",
      free_seats: "{n} free",
      open_seat: "Open (anyone from the lobby)",
      listed: "List in the lobby",
      forget: "Forget",
      refresh: "Refresh",
      over: "over",
      playing: "playing",
      seat_taken: "That seat was just taken; pick another.",
      stale_title: "This link does not open a seat",
      stale_gone: "There is no table {id} on this server: the link is wrong or the table was removed.",
      stale_token: "This link's seat key is not valid for that table (the seat was taken over or the link was mistyped).",
      stale_watch: "Watch the table",
      stale_lobby: "Go to the lobby",
      taken_over: "This seat was opened in another window; this one is closed.",
      reopen: "Take the seat back here",
      turn_sound: "Sound on your turn",
      game_rules: "Rules of {game}",
      clock_help: "After this long a bot makes the move for a player who does not; while the player is away it goes on playing for them.",
      seconds: "{n} s",
      minutes: "{n} min",
      option_names: {},
      choice_names: { ten_per_trick: "ten per trick" },
      bot_names: { easy: "Easy", normal: "Normal", hard: "Hard (expert)" },
      yes: "yes",
      no: "no",
      claiming: "Taking the seat…",
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
      bot_levels: "ボットの強さ",
      bot_by_name: "ボット（名前で選ぶ・研究用）",
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
      history: "これまでの経過",
      download: "記録をダウンロード",
      layout_missing_title: "このゲームの卓を読み込めませんでした",
      layout_missing_text: "このゲームの卓を描く部分を読み込めなかったため、場のカードを表示できません。下の手札と操作は使えます。",
      layout_missing_fix: "ページを再読み込みしてください。繰り返す場合はサーバーのインストールにファイルが欠けています。xtarot を入れ直す（pip install --force-reinstall xtarot）か、サーバーの管理者に伝えてください。",
      layout_none: "このゲーム（プラグイン）には卓のレイアウトがありません。見えている情報をそのまま文字で表示しています。",
      your_name: "あなたの名前",
      name_help: "同じ卓の人に表示されます（1〜24文字）。",
      name_saved: "保存しました。",
      name_bad: "名前は1〜24文字で、制御文字は使えません。",
      set_name: "名前…",
      save: "保存",
      cancel: "キャンセル",
      chat: "チャット",
      chat_placeholder: "メッセージ…",
      send: "送信",
      chat_readonly: "チャットに書けるのは卓のプレイヤーだけです。",
      chat_empty: "卓のみんなにあいさつしましょう。",
      phrase_hello: "よろしくお願いします",
      phrase_nice: "ナイス!",
      phrase_thanks: "ありがとう",
      phrase_gg: "お疲れさまでした",
      phrase_sorry: "ごめんなさい",
      phrase_wait: "ちょっと待ってください",
      phrase_again: "もう一局どう?",
      rematch: "もう一度遊ぶ",
      rematch_help: "同じメンバー、同じオプションで、新しい配り。",
      rematch_wait: "{who} の同意待ち（{m}人中{n}人が同意）",
      rematch_ready: "全員が同意しました。新しい対局を始めます…",
      rematch_watch: "再戦を観戦する",
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
      last_trick: "直前のトリック",
      back_to_trick: "現在のトリックへ",
      winning: "優勢",
      log: "手の記録",
      since_last: "あなたの前の手番から",
      rules: "ルール",
      close: "閉じる",
      last_hand: "前のハンド",
      hand_over: "ハンド終了",
      match_over: "対戦終了",
      dismiss: "OK",
      sound: "音",
      clock: "持ち時間",
      clock_none: "なし",
      clock_left: "残り {s} 秒",
      autopilot: "ボットが代わりに打っています",
      hand_no: "第{n}ハンド",
      your_turn_title: "● あなたの番 — {game}",
      new_hand: "— 第{n}ハンド —",
      dealer: "ディーラー",
      open_tables: "参加できる卓",
      my_tables: "自分の卓",
      no_open_tables: "いま参加できる卓はありません。",
      no_my_tables: "作った卓・参加した卓がここに出ます。",
      join_seat: "{seat}に座る",
      watch: "観戦",
      free_seats: "空き {n}",
      open_seat: "公開（ロビーから誰でも）",
      listed: "ロビーに公開する",
      forget: "消す",
      refresh: "更新",
      over: "終了",
      playing: "対戦中",
      seat_taken: "その席はいま埋まりました。別の席を選んでください。",
      stale_title: "このリンクでは席に着けません",
      stale_gone: "このサーバーに卓 {id} はありません。リンクの誤りか、卓が削除されました。",
      stale_token: "このリンクの席の鍵はこの卓で無効です（席が引き継がれたか、リンクの写し間違いです）。",
      stale_watch: "観戦する",
      stale_lobby: "ロビーへ",
      taken_over: "この席は別のウィンドウで開かれました。こちらは閉じました。",
      reopen: "ここで席に戻る",
      turn_sound: "手番の音",
      game_rules: "{game}のルール",
      clock_help: "この時間内に手を選ばないと、ボットが代わりに1手打ちます。席を離れている間はボットが打ち続けます。",
      seconds: "{n}秒",
      minutes: "{n}分",
      yes: "はい",
      no: "いいえ",
      claiming: "席を確保しています…",
      option_names: {
        teams: "チーム戦", pairs: "ペア戦", hands: "ハンド数", target: "目標点",
        all_pass: "全員パスのとき", classical: "クラシカルオプション", deck: "デッキ",
        reseat_each_hand: "ハンドごとに席替え", misere: "ミゼール", ramsch: "ラムシュ",
        variant: "バリアント", rounds: "ラウンド数", target_score: "目標点",
        single_deal: "一度に全部配る", chi_extension_draws: "チー拡張でツモ",
        between_hands: "次のゲームの1番",
      },
      bot_names: {
        easy: "やさしい（初級）", normal: "ふつう（中級）", hard: "むずかしい（上級）",
        random: "ランダム", heuristic: "ヒューリスティック", ismcts: "ISMCTS", pimc: "PIMC",
        expert: "エキスパート",
      },
      choice_names: {
        ramsch: "ラムシュ", redeal: "配り直し", ten_per_trick: "1トリック10点",
        pairs: "ペア", halves: "半分ずつ",
        rotate: "左隣へ交代", keep: "同じ人のまま", reseat: "順番を決め直す",
      },
    },
  };

  // Per-game words (phases, action verbs, board labels): each game's script adds its
  // own with addGame(id, {en: {...}, ja: {...}}).
  const GAME = {};

  // Phase names every game shares (a game's own words win).
  const PHASES = {
    en: {},
    ja: {
      attack: "攻撃", auction: "ビッド", bid: "入札", buy: "購入", call: "パートナー指名",
      claim: "鳴き", defend: "防御", discard: "キティ交換", draw: "ドロー", lot: "競売品",
      over: "終了", pay: "支払い", play: "プレイ", refill: "補充", reset: "再配置",
      setup: "準備", turn: "手番", kitty: "キティ", place: "配置",
    },
  };

  let lang = localStorage.getItem("xtarot.lang") ||
    ((navigator.language || "en").startsWith("ja") ? "ja" : "en");

  function t(key, vars) {
    let s = (T[lang] && T[lang][key]) || T.en[key] || key;
    // split/join, not replace(): a player's name may hold "$&" and must stay as written
    for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(String(v));
    return s;
  }
  // A game's word in the current language (English when the Japanese one is missing);
  // vars fill {name} placeholders as t() does.
  function g(game, key, vars) {
    const words = GAME[game];
    if (!words) return undefined;
    let s = (words[lang] && words[lang][key] !== undefined) ? words[lang][key] : (words.en || {})[key];
    if (typeof s === "string") {
      for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(v);
    }
    return s;
  }
  function addGame(game, words) { GAME[game] = words; }
  function phase(name) {
    const words = PHASES[lang] || {};
    return words[name] || String(name === undefined || name === null ? "" : name).replace(/_/g, " ");
  }
  function botName(name) {
    const names = (T[lang] && T[lang].bot_names) || {};
    return names[name] || name;
  }
  // The names the players at this table gave (null for a seat without one): people
  // read a named seat by its name everywhere, an unnamed one as "Seat N".
  let names = [];
  function setNames(list) { names = Array.isArray(list) ? list.slice() : []; }
  function seatNumber(seat) {
    return lang === "ja" ? `${seat + 1}番席` : `Seat ${seat + 1}`;
  }
  function seatName(seat) {
    const name = names[seat];
    return typeof name === "string" && name ? name : seatNumber(seat);
  }
  function get() { return lang; }
  function set(value) {
    lang = value === "ja" ? "ja" : "en";
    localStorage.setItem("xtarot.lang", lang);
    document.documentElement.lang = lang;
  }
  document.documentElement.lang = lang;
  return { t, g, get, set, seatName, seatNumber, setNames, addGame, phase, botName };
})();
