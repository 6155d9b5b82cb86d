// フェアリーファイブハンドレッド (Fairy Five Hundred): the auction (each seat's last call at
// its place, the standing bid, and on the viewer's turn a bidding grid with every bid's
// value), the contract banner (declarer, bid, value, trump and its bowers), the partner
// call (a grid of small cards), the kitty exchange, the trick around the table with who is
// winning it, tricks per seat and per side, the open misère hand at the declarer's place,
// and the hand's score breakdown.
"use strict";

(() => {
  const F5 = "fairy500";
  XI18n.addGame(F5, {
    en: {
      phase: {
        auction: "bidding", call: "partner call", discard: "kitty exchange",
        play: "playing", over: "over",
      },
      suit: { s: "swords", w: "trees", d: "coins", c: "cups", nt: "no trump" },
      nt_short: "NT",
      seat_short: "S{n}",
      misere: {
        misere: "Misère", "hand-misere": "Hand misère", "open-misere": "Open misère",
        "open-hand-misere": "Open hand misère",
      },
      decl: { "": "", double: "double", crazy: "crazy" },
      decl_head: { "": "plain", double: "double ×2", crazy: "crazy ×10" },
      misere_note: {
        misere: "take no trick", "hand-misere": "no kitty", "open-misere": "hand shown",
        "open-hand-misere": "no kitty, hand shown",
      },
      pass: "Pass",
      call: "Call {card}",
      discard: "Discard {card}",
      discard_hidden: "Discard a card face down",
      play: "Play {card}",
      hand_n: "Hand {n}",
      hand_of: "Hand {n} of {of}",
      target: "to ±{t}",
      dealer: "dealer {who}",
      no_bid: "No bid yet",
      standing: "Standing bid",
      by: "by {who}",
      beat: "a bid must beat {v}",
      auction: "Auction",
      passed: "pass",
      tricks_n: "{n} tricks",
      tricks_1: "1 trick",
      value: "value {v}",
      declarer: "declarer",
      partner: "partner",
      partner_you: "You hold a called card: you are the declarer's secret partner.",
      partner_pair: "partner (opposite)",
      trump: "trump {suit}: F, J of {suit}, J of {mate}",
      no_trump: "no trump: the four F are a suit of their own",
      misere_rule: "the declarer must take no trick; the led suit's F is top",
      ramsch: "Ramsch — everybody passed: take no trick (tricks won with an F are free)",
      ten_per_trick: "Everybody passed — no trump, 10 points per trick for everyone",
      called: "Called",
      partner_unknown: "partner unknown",
      partners_known: "partner: {who}",
      side: "Declarer + known partners: {t} of {need} tricks",
      decl_tricks: "Declarer's tricks: {t} (must stay 0)",
      kitty: "Kitty",
      kitty_down: "{n} face down",
      kitty_taken: "Kitty taken",
      discards: "Discards {k}/4",
      your_discards: "Your discards",
      exchanging: "{who} takes the kitty and discards 4 ({k}/4)",
      calling: "{who} calls a partner card",
      calling_two: "{who} calls two partner cards",
      open_hand: "open hand",
      your_open: "your hand is shown to all",
      pick_call: "Call a partner: click a card (its holder becomes your partner)",
      pick_call_2: "Call the second partner card",
      mine_legend: "dashed: a card in your own hand (no partner, your score ×1.5)",
      pick_discard: "Click 4 hand cards to discard ({k}/4 done)",
      tricks_grid: "Tricks",
      misere_grid: "Misère (take no trick)",
      doom_double: "You hold no F, and a hand misère takes no kitty: this double misère cannot succeed.",
      doom_crazy: "You do not hold the cups F, and a hand misère takes no kitty: this crazy misère cannot succeed.",
      doom_again: "Click the bid again to make it anyway.",
      last_hand: "Last hand: {text}",
      made: "made",
      failed: "failed",
      // summary
      h_contract: "Hand {n}: {who} — {bid} {result}",
      h_side: "(side took {t}, bid {need})",
      h_took: "(took {t} tricks)",
      h_clean: "(no trick, F bonus ×{f})",
      h_noF: "(the declared F was not in the playing hand)",
      h_ramsch: "Hand {n}: Ramsch (everybody passed)",
      h_ten: "Hand {n}: everybody passed — 10 per trick",
      h_redeal: "Hand {n}: everybody passed — redeal, no score",
      small_slam: "small slam +100",
      grand_slam: "grand slam +300",
      floor: "classical: at least 250",
      w_declarer: "declarer: {v}",
      w_factor: " ×{f} (called card with the declarer)",
      w_partner1: "partner: half of {v}",
      w_partner2: "partner (both called cards): {v}",
      w_def: "{t} tricks × 10",
      w_misere_made: "no trick: {v} × F bonus {f}",
      w_misere_failed: "took {t} tricks: −{v}",
      w_misere_noF: "declared F not in the playing hand: −{v}",
      w_misere_def: "10 × declarer's {t} tricks",
      w_ramsch_ok: "no trick: {a} × F factor {f}",
      w_ramsch_bad: "−50 × {k} tricks not won with an F",
      w_ramsch_free: "only F tricks: 0",
      w_ten: "{t} tricks × 10",
      col_seat: "Seat", col_tricks: "Tricks", col_why: "Why", col_pts: "Points", col_total: "Total",
      final: "Final standings",
      rank: "rank",
      winner: "winner",
      h_hands: "Hands played",
      h_tricks: "This hand's tricks",
      h_auction: "This hand's auction",
    },
    ja: {
      phase: {
        auction: "ビッド", call: "副官の指名", discard: "キティ交換", play: "プレイ", over: "終了",
      },
      suit: { s: "魔剣", w: "聖樹", d: "金貨", c: "聖杯", nt: "ノートランプ" },
      nt_short: "NT",
      seat_short: "{n}番",
      misere: {
        misere: "ミゼール", "hand-misere": "ハンドミゼール", "open-misere": "オープンミゼール",
        "open-hand-misere": "オープンハンドミゼール",
      },
      decl: { "": "", double: "ダブル", crazy: "クレージー" },
      decl_head: { "": "宣言なし", double: "ダブル ×2", crazy: "クレージー ×10" },
      misere_note: {
        misere: "トリックを取らない", "hand-misere": "キティなし", "open-misere": "手札公開",
        "open-hand-misere": "キティなし・手札公開",
      },
      pass: "パス",
      call: "{card} を指名",
      discard: "{card} を捨てる",
      discard_hidden: "1枚伏せて捨てる",
      play: "{card} を出す",
      hand_n: "第{n}ハンド",
      hand_of: "第{n}ハンド / 全{of}",
      target: "±{t}点で終了",
      dealer: "ディーラー {who}",
      no_bid: "まだビッドはありません",
      standing: "現在の最高ビッド",
      by: "{who}",
      beat: "{v}点より上のビッドのみ",
      auction: "ビッド",
      passed: "パス",
      tricks_n: "{n}トリック",
      tricks_1: "1トリック",
      value: "基本点 {v}",
      declarer: "デクレアラー",
      partner: "副官",
      partner_you: "あなたは指名されたカードを持っています：デクレアラーの秘密の副官です。",
      partner_pair: "副官（対面）",
      trump: "切札 {suit}：F・{suit}のJ・{mate}のJ を含む",
      no_trump: "ノートランプ：4枚のFは独自のスート",
      misere_rule: "デクレアラーはトリックを取ってはいけない。台札スートのFが最強",
      ramsch: "ラムシュ（全員パス）：トリックを取らない（Fで勝ったトリックは失点なし）",
      ten_per_trick: "全員パス：ノートランプ、全員1トリック10点",
      called: "指名札",
      partner_unknown: "副官は不明",
      partners_known: "副官：{who}",
      side: "デクレアラー＋判明した副官：{t}/{need}トリック",
      decl_tricks: "デクレアラーのトリック：{t}（0のままなら成功）",
      kitty: "キティ",
      kitty_down: "裏向き{n}枚",
      kitty_taken: "受け取ったキティ",
      discards: "捨て札 {k}/4",
      your_discards: "あなたの捨て札",
      exchanging: "{who}がキティを取り4枚捨てています（{k}/4）",
      calling: "{who}が副官のカードを指名します",
      calling_two: "{who}が副官のカードを2枚指名します",
      open_hand: "公開手札",
      your_open: "あなたの手札は全員に公開中",
      pick_call: "副官の指名：カードをクリック（その持ち主が副官になります）",
      pick_call_2: "2枚目の指名札を選んでください",
      mine_legend: "点線：自分の手札のカード（副官なし、自分の得点×1.5）",
      pick_discard: "手札を4枚クリックして捨ててください（{k}/4）",
      tricks_grid: "トリック数",
      misere_grid: "ミゼール（トリックを取らない）",
      doom_double: "手札にFがなく、ハンドミゼールはキティを取れません。このダブルミゼールは成功しません。",
      doom_crazy: "手札に聖杯のFがなく、ハンドミゼールはキティを取れません。このクレージーミゼールは成功しません。",
      doom_again: "それでも宣言するなら、もう一度クリックしてください。",
      last_hand: "前のハンド：{text}",
      made: "成功",
      failed: "失敗",
      h_contract: "第{n}ハンド：{who}の{bid}、{result}",
      h_side: "（{t}トリック／宣言{need}）",
      h_took: "（{t}トリック取った）",
      h_clean: "（トリックなし、Fボーナス ×{f}）",
      h_noF: "（宣言したFがプレイ手札になかった）",
      h_ramsch: "第{n}ハンド：ラムシュ（全員パス）",
      h_ten: "第{n}ハンド：全員パス — 1トリック10点",
      h_redeal: "第{n}ハンド：全員パス — 配り直し、得点なし",
      small_slam: "スモールスラム +100",
      grand_slam: "グランドスラム +300",
      floor: "クラシカル：最低250",
      w_declarer: "デクレアラー：{v}",
      w_factor: " ×{f}（指名札が自分の手元に）",
      w_partner1: "副官：{v} の半分",
      w_partner2: "副官（指名札2枚）：{v}",
      w_def: "{t}トリック × 10",
      w_misere_made: "トリックなし：{v} × Fボーナス {f}",
      w_misere_failed: "{t}トリック取った：−{v}",
      w_misere_noF: "宣言したFがプレイ手札にない：−{v}",
      w_misere_def: "10 × デクレアラーの{t}トリック",
      w_ramsch_ok: "トリックなし：{a} × F倍率 {f}",
      w_ramsch_bad: "−50 × Fで勝っていない{k}トリック",
      w_ramsch_free: "Fで勝ったトリックのみ：0",
      w_ten: "{t}トリック × 10",
      col_seat: "席", col_tricks: "トリック", col_why: "内訳", col_pts: "得点", col_total: "累計",
      final: "最終結果",
      rank: "順位",
      winner: "勝者",
      h_hands: "これまでのハンド",
      h_tricks: "このハンドのトリック",
      h_auction: "このハンドのビッド",
    },
  });
  const w = (key, vars) => XI18n.g(F5, key, vars);
  const sub = (key, k) => ((w(key) || {})[k]);
  const { make, cardRow } = XLayouts;
  const has = (x) => x !== null && x !== undefined;

  // -- bids and their values (docs/rules/fairy500.md, the score table) ------------------
  const BID_SUITS = ["s", "w", "d", "c", "nt"];
  const MISERES = ["misere", "hand-misere", "open-misere", "open-hand-misere"];
  const DECLS = ["", "double", "crazy"];
  const DECL_FACTOR = { "": 1, double: 2, crazy: 10 };

  function misereBase(kind, n) {
    const base = n <= 4 ? 250 : n <= 6 ? 150 : 50;
    return base + 100 * MISERES.indexOf(kind);
  }

  // "bid 7c" -> {tricks: 7, suit: "c"}; "bid open-misere double" -> {misere, decl}
  function parseBid(text) {
    const parts = String(text || "").split(" ");
    if (parts[0] !== "bid" || parts.length < 2) return null;
    const m = /^(10|[6-9])(s|w|d|c|nt)$/.exec(parts[1]);
    if (m) return { tricks: Number(m[1]), suit: m[2] };
    if (MISERES.includes(parts[1])) return { misere: parts[1], decl: parts[2] || "" };
    return null;
  }

  function bidValue(text, n) {
    const b = parseBid(text);
    if (!b) return null;
    if (b.misere) return misereBase(b.misere, n) * (DECL_FACTOR[b.decl] || 1);
    return 40 + 100 * (b.tricks - 6) + 20 * BID_SUITS.indexOf(b.suit);
  }

  const suitWord = (s) => sub("suit", s) || s;

  function bidText(text) {
    const b = parseBid(text);
    if (!b) return text === "pass" ? w("pass") : String(text || "");
    if (b.misere) {
      const d = sub("decl", b.decl);
      const name = sub("misere", b.misere);
      if (!d) return name;
      return XI18n.get() === "ja" ? `${name}・${d}` : `${name}, ${d}`;
    }
    return `${b.tricks} ${suitWord(b.suit)}`;
  }

  // A suit drawn as on the cards (chalice, coin, sword, tree); "nt" as the letters NT.
  function suitIcon(s) {
    if (!XCards.SUITS[s]) return make("span", "f5-nt", w("nt_short"));
    return XCards.suitIcon(s, { cls: `f5-suit f5-suit-${s}`, title: suitWord(s) });
  }

  // A bid as an element: "7" + the suit drawn, or the misère's name.
  function bidChip(text, cls) {
    const b = parseBid(text);
    const out = make("span", `f5-bidtxt${cls ? ` ${cls}` : ""}`);
    if (b && !b.misere) {
      out.appendChild(make("strong", "", String(b.tricks)));
      out.appendChild(suitIcon(b.suit));
      out.title = bidText(text);
    } else {
      out.textContent = bidText(text);
      if (text === "pass") out.classList.add("f5-pass");
    }
    return out;
  }

  // -- cards: the three orders (play.py) -------------------------------------------------
  const MATE = { c: "d", d: "c", s: "w", w: "s" };
  const PLAIN = ["N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "R", "E", "B", "L", "W", "J", "C", "Q", "K"];
  const TRUMP = PLAIN.filter((r) => r !== "J");
  const FAIRY = { s: 1, w: 2, d: 3, c: 4 };

  function effSuit(code, mode) {
    const c = XCards.parse(code);
    if (!c || c.major) return null;
    if (mode === "nt") return c.rank === "F" ? "F" : c.suit;
    if (!MATE[mode]) return c.suit;
    if (c.rank === "F" || (c.rank === "J" && c.suit === MATE[mode])) return mode;
    return c.suit;
  }

  function strength(code, mode, led) {
    const c = XCards.parse(code);
    if (!c || c.major) return -1;
    if (c.rank === "F") return mode === "misere" && c.suit === led ? 2000 : 1000 + FAIRY[c.suit];
    if (MATE[mode]) {
      if (c.rank === "J" && c.suit === mode) return 901;
      if (c.rank === "J" && c.suit === MATE[mode]) return 900;
      if (c.suit === mode) return 500 + TRUMP.indexOf(c.rank);
    }
    return c.suit === led ? 100 + PLAIN.indexOf(c.rank) : -1;
  }

  function trickWinner(cards, mode) {
    if (!cards || !cards.length || !mode) return null;
    const led = effSuit(cards[0][1], mode);
    let best = null;
    let top = -2;
    for (const [seat, code] of cards) {
      const k = strength(code, mode, led);
      if (k > top) { top = k; best = seat; }
    }
    return best;
  }

  // The card set of this player count (for the partner-call grid).
  function deckOf(n) {
    const ranks = {
      3: ["8", "9", "10"], 4: ["5", "6", "7", "8", "9", "10"],
      5: ["3", "4", "5", "6", "7", "8", "9", "10"],
      6: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "R", "E"],
      7: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "R", "E", "B", "L"],
      8: ["N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "R", "E", "B", "L", "W"],
    }[n] || [];
    const red = { 3: ["7"], 5: ["2"], 7: ["W"] }[n] || [];
    const out = {};
    for (const s of ["c", "d", "s", "w"]) {
      const rs = [...((s === "c" || s === "d") ? red : []), ...ranks, "J", "C", "Q", "K", "F"];
      const idx = (r) => (r === "F" ? 99 : PLAIN.indexOf(r));
      out[s] = rs.sort((a, b) => idx(a) - idx(b)).map((r) => r + s);
    }
    return out;
  }

  const modeOf = (view) => (view.contract ? view.contract.order : null);

  // The hand as a player keeps it: the trump suit first (the four F strongest first, the
  // trump J, the colour-mate J, then trump K down), then the other suits alternating in
  // colour, each high to low.  No trump: the F as their own suit first; misère and
  // Ramsch: the F stay on top of their own suits; during the auction the F lead.
  function sortHand(view, codes) {
    const mode = modeOf(view);
    const rankDesc = (code) => {
      const c = XCards.parse(code);
      if (!c || c.major) return 0;
      if (c.rank === "F") return 100 + FAIRY[c.suit];
      return PLAIN.indexOf(c.rank);
    };
    let suits = ["c", "s", "d", "w"];
    if (MATE[mode]) {
      const mate = MATE[mode];
      const others = suits.filter((s) => s !== mode && s !== mate);
      suits = [mode, others[0], mate, others[1]];
    }
    const group = (code) => {
      const c = XCards.parse(code);
      if (!c || c.major) return 99;
      if (c.rank === "F" && mode !== "misere") return -1;
      const s = MATE[mode] ? effSuit(code, mode) : c.suit;
      return suits.indexOf(s);
    };
    const inGroup = (code) => {
      const c = XCards.parse(code);
      if (!c || c.major) return 0;
      if (c.rank === "F") return 1000 + FAIRY[c.suit];
      if (MATE[mode] && c.rank === "J" && c.suit === mode) return 901;
      if (MATE[mode] && c.rank === "J" && c.suit === MATE[mode]) return 900;
      return rankDesc(code);
    };
    return codes.slice().sort((a, b) => group(a) - group(b) || inGroup(b) - inGroup(a));
  }

  // -- pieces of the board ---------------------------------------------------------------
  function seatsOf(ctx, list) {
    return (list || []).map((s) => ctx.seatLabel(s, true)).join(", ");
  }

  function lastCalls(view) {
    const out = {};
    for (const [s, text] of view.auction || []) out[s] = text;
    return out;
  }

  function headLine(view, ctx) {
    const head = make("div", "f5-head");
    const sc = view.scores || {};
    const d = sc.detail || {};
    const hn = view.hand_number || 1;
    const hand = make("span", "f5-hand", d.hands_limit ? w("hand_of", { n: hn, of: d.hands_limit }) : w("hand_n", { n: hn }));
    head.appendChild(hand);
    if (d.target) head.appendChild(make("span", "f5-muted", w("target", { t: d.target })));
    if (has(view.dealer)) head.appendChild(make("span", "f5-muted", w("dealer", { who: ctx.seatLabel(view.dealer, true) })));
    return head;
  }

  function trumpLine(c) {
    if (MATE[c.trump]) {
      const line = make("div", "f5-rule");
      line.appendChild(suitIcon(c.trump));
      line.appendChild(make("span", "", w("trump", { suit: suitWord(c.trump), mate: suitWord(MATE[c.trump]) })));
      return line;
    }
    if (c.kind === "misere") return make("div", "f5-rule f5-rule-extra", w("misere_rule"));
    if (c.order === "nt") return make("div", "f5-rule f5-rule-extra", w("no_trump"));
    return null;
  }

  // The contract banner: declarer, bid, value, trump; called cards, partners, tricks.
  function contractBanner(view, ctx) {
    const c = view.contract;
    const box = make("div", "f5-contract");
    if (c.kind === "ramsch" || c.kind === "ten_per_trick") {
      box.classList.add("f5-allpass");
      box.appendChild(make("div", "f5-title", w(c.kind)));
      return box;
    }
    const top = make("div", "f5-title");
    top.appendChild(bidChip(c.bid, "big"));
    if (!parseBid(c.bid) || parseBid(c.bid).misere) top.firstChild.classList.add("f5-misere");
    else top.appendChild(make("span", "f5-suitword", suitWord(parseBid(c.bid).suit)));
    top.appendChild(make("span", "f5-who", `— ${ctx.seatLabel(c.declarer, true)}`));
    if (has(c.value)) top.appendChild(make("span", "f5-value", w("value", { v: c.value })));
    box.appendChild(top);
    const rule = trumpLine(c);
    if (rule) box.appendChild(rule);

    const info = make("div", "f5-line");
    const called = view.called || [];
    const partners = (view.partners || []).filter((s) => s !== c.declarer);
    if (called.length) {
      const cl = make("span", "f5-called");
      cl.appendChild(make("span", "f5-muted", `${w("called")}:`));
      cl.appendChild(cardRow(called, "xs"));
      info.appendChild(cl);
    }
    if (c.kind === "contract") {
      if (partners.length) info.appendChild(make("span", "chip f5-partner", w("partners_known", { who: seatsOf(ctx, partners) })));
      else if (called.length) info.appendChild(make("span", "f5-muted", w("partner_unknown")));
      if (view.phase === "play" || view.phase === "over") {
        const side = [c.declarer, ...partners];
        const won = view.tricks_won || [];
        const t = side.reduce((a, s) => a + (won[s] || 0), 0);
        const need = parseBid(c.bid) ? parseBid(c.bid).tricks : 0;
        const chip = make("span", `chip f5-side${t >= need ? " ok" : ""}`, w("side", { t, need }));
        info.appendChild(chip);
      }
    } else if (c.kind === "misere" && (view.phase === "play" || view.phase === "over")) {
      const t = (view.tricks_won || [])[c.declarer] || 0;
      info.appendChild(make("span", `chip f5-side${t ? " bad" : " ok"}`, w("decl_tricks", { t })));
    }
    if (info.childNodes.length) box.appendChild(info);
    // the open misère hand is drawn at the declarer's place; on a crowded phone ring
    // (7-8 seats) it moves here (css)
    if (view.open_hand && view.open_hand.length && c.declarer !== ctx.seat) {
      const line = make("div", `f5-openline${view.players >= 7 ? " many" : ""}`);
      line.appendChild(make("span", "f5-muted", `${w("open_hand")} (${ctx.seatLabel(c.declarer, true)}):`));
      line.appendChild(cardRow(sortHand(view, view.open_hand), "xs"));
      box.appendChild(line);
    }
    if (view.is_partner && !(view.seat === c.declarer)) box.appendChild(make("div", "f5-you-partner", w("partner_you")));
    return box;
  }

  // The auction so far in order (cut to the latest few; the whole is in the history).
  function auctionLine(view, ctx) {
    const line = make("div", "f5-auction");
    line.appendChild(make("span", "f5-muted", `${w("auction")}:`));
    const calls = view.auction || [];
    if (!calls.length) line.appendChild(make("span", "f5-muted", w("no_bid")));
    const shown = calls.slice(-8);
    if (calls.length > shown.length) line.appendChild(make("span", "f5-muted", "…"));
    shown.forEach(([s, text], i) => {
      const item = make("span", `f5-call-item${i === shown.length - 1 ? " latest" : ""}`);
      item.appendChild(make("small", "", ctx.seatLabel(s, false).replace(/ \(.*\)$/, "")));
      item.appendChild(bidChip(text));
      line.appendChild(item);
    });
    return line;
  }

  function lastHandLine(view, ctx) {
    const r = view.last_result;
    if (!r) return null;
    return make("div", "f5-lasthand f5-muted", w("last_hand", { text: resultHead(r, ctx) }));
  }

  // The kitty and the exchange: the declarer sees its kitty and discards, the others a
  // count of face-down cards.
  function kittyBlock(view, ctx) {
    const box = make("div", "f5-kitty");
    if (view.kitty_size) box.dataset.place = "kitty"; // it travels to the declarer (motion.js)
    const c = view.contract;
    if (view.kitty && view.kitty.length) {
      const b = make("span", "f5-kb");
      b.appendChild(make("span", "f5-muted", `${w("kitty_taken")}:`));
      b.appendChild(cardRow(view.kitty, "xs"));
      box.appendChild(b);
    }
    if (view.discards && (view.discards.length || view.phase === "discard")) {
      const b = make("span", "f5-kb f5-discards");
      b.appendChild(make("span", "f5-muted", `${view.phase === "discard" ? w("discards", { k: view.discards.length }) : w("your_discards")}:`));
      b.appendChild(cardRow(view.discards, "xs"));
      box.appendChild(b);
    } else if (view.phase === "discard" && c) {
      const b = make("span", "f5-kb");
      b.appendChild(make("span", "f5-muted", `${w("discards", { k: view.discard_count || 0 })}:`));
      if (view.discard_count) b.appendChild(cardRow(Array(view.discard_count).fill(null), "xs"));
      box.appendChild(b);
    } else if (view.kitty_size && view.phase !== "play" && view.phase !== "over") {
      const b = make("span", "f5-kb");
      b.appendChild(make("span", "f5-muted", `${w("kitty")}: ${w("kitty_down", { n: view.kitty_size })}`));
      box.appendChild(b);
    }
    return box.childNodes.length ? box : null;
  }

  function tricksWord(n) { return n === 1 ? w("tricks_1") : w("tricks_n", { n }); }

  // After the ring is drawn: each seat's role and tricks under its name, and the open
  // misère hand face up beside the declarer's card.
  function decorateRing(ring, view, ctx) {
    const c = view.contract;
    const partners = new Set(view.partners || []);
    const playing = view.phase === "play" || view.phase === "over";
    for (const spot of ring.querySelectorAll(".spot")) {
      const s = Number(spot.dataset.seat);
      const tags = make("div", "f5-tags");
      if (c && s === c.declarer) tags.appendChild(make("span", "f5-tag decl", w("declarer")));
      else if (c && partners.has(s)) tags.appendChild(make("span", "f5-tag part", w("partner")));
      if (playing) {
        const n = (view.tricks_won || [])[s] || 0;
        tags.appendChild(make("span", `f5-tag tricks${n ? "" : " zero"}`, tricksWord(n)));
      }
      if (tags.childNodes.length) spot.appendChild(tags);
      if (c && s === c.declarer && view.open_hand && view.open_hand.length && s !== ctx.seat) {
        const slot = spot.querySelector(".slot");
        const row = make("div", "f5-openrow");
        const open = make("div", "f5-open");
        open.title = w("open_hand");
        for (const code of sortHand(view, view.open_hand)) {
          open.appendChild(XCards.svg(code, { size: "xs", title: XCards.name(code, XI18n.get()) }));
        }
        slot.replaceWith(row);
        row.appendChild(slot);
        row.appendChild(open);
        spot.classList.add("f5-has-open");
        const x = parseFloat(spot.style.left);
        if (x < 35) { spot.style.left = "0"; spot.style.transform = "translate(0, -50%)"; spot.style.alignItems = "flex-start"; }
        if (x > 65) { spot.style.left = "100%"; spot.style.transform = "translate(-100%, -50%)"; spot.style.alignItems = "flex-end"; }
      } else if (c && s === c.declarer && view.open_hand && view.open_hand.length) {
        spot.appendChild(make("div", "note", w("your_open")));
      }
    }
  }

  function board(view, ctx, el) {
    // while bidding no hand card is playable: keep the hand readable (not dimmed)
    document.body.dataset.f5phase = view.phase;
    const top = make("div", "f5-top");
    top.appendChild(headLine(view, ctx));
    const c = view.contract;
    if (view.phase === "auction" || !c) {
      top.appendChild(auctionLine(view, ctx));
      const prev = lastHandLine(view, ctx);
      if (prev && !(view.auction || []).length) top.appendChild(prev);
    } else {
      top.appendChild(contractBanner(view, ctx));
    }
    const kitty = kittyBlock(view, ctx);
    if (kitty) top.appendChild(kitty);
    el.appendChild(top);

    let ring;
    if (view.phase === "auction") {
      const calls = lastCalls(view);
      const center = make("div", "f5-center");
      if (view.high_bid) {
        center.appendChild(make("div", "caption", w("standing")));
        const b = bidChip(view.high_bid, "big");
        center.appendChild(b);
        center.appendChild(make("div", "f5-muted", `${w("by", { who: ctx.seatLabel(view.high_bidder, true) })} · ${bidValue(view.high_bid, view.players)}`));
      } else {
        center.appendChild(make("div", "caption", w("no_bid")));
      }
      ring = XLayouts.ring(view, ctx, [], { center, current: view.current_player, cls: "f5-ring f5-short" });
      for (const spot of ring.querySelectorAll(".spot")) {
        const s = spot.dataset.seat;
        if (!calls[s]) continue;
        const slot = spot.querySelector(".slot");
        const chip = bidChip(calls[s], calls[s] === "pass" ? "" : "f5-spotbid");
        slot.replaceChildren(chip);
        if ((view.passed || []).includes(Number(s))) spot.classList.add("f5-passed");
      }
    } else if (view.phase === "call" || view.phase === "discard") {
      const center = make("div", "f5-center");
      const n = view.players >= 7 ? 2 : 1;
      const text = view.phase === "call"
        ? w(n === 2 ? "calling_two" : "calling", { who: ctx.seatLabel(c.declarer, true) })
        : w("exchanging", { who: ctx.seatLabel(c.declarer, true), k: view.discard_count || (view.discards || []).length });
      center.appendChild(make("div", "caption", text));
      ring = XLayouts.ring(view, ctx, [], { center, current: view.current_player, cls: "f5-ring f5-short" });
    } else {
      const trick = view.trick || null;
      const mode = modeOf(view);
      const winning = trick ? trickWinner(trick.cards, mode) : null;
      ring = XLayouts.trickRing(view, ctx, trick, view.tricks || [], { size: "m", winning, cls: "f5-ring" });
    }
    decorateRing(ring, view, ctx);
    el.appendChild(ring);
  }

  // -- the viewer's pickers --------------------------------------------------------------
  function biddingGrid(view, ctx, drawn) {
    const legal = new Set(ctx.legal);
    const n = view.players;
    const wrap = make("div", "f5-grids");
    const tricks = make("table", "f5-bidgrid");
    const cap = make("caption", "", w("tricks_grid"));
    tricks.appendChild(cap);
    const head = make("tr");
    head.appendChild(make("th"));
    for (const s of BID_SUITS) {
      const th = make("th");
      th.appendChild(suitIcon(s));
      th.appendChild(make("span", "f5-colname", suitWord(s)));
      head.appendChild(th);
    }
    tricks.appendChild(head);
    for (let t = 6; t <= 10; t += 1) {
      const tr = make("tr");
      tr.appendChild(make("th", "", String(t)));
      for (const s of BID_SUITS) {
        const action = `bid ${t}${s}`;
        const td = make("td");
        const inner = make("span", "f5-cell");
        inner.appendChild(make("strong", "", String(t)));
        inner.appendChild(suitIcon(s));
        inner.appendChild(make("small", "", String(bidValue(action, n))));
        td.appendChild(cellButton(ctx, action, inner, legal, view, drawn));
        tr.appendChild(td);
      }
      tricks.appendChild(tr);
    }
    wrap.appendChild(tricks);

    const mis = make("table", "f5-bidgrid f5-misgrid");
    mis.appendChild(make("caption", "", w("misere_grid")));
    const mh = make("tr");
    mh.appendChild(make("th"));
    for (const d of DECLS) mh.appendChild(make("th", "", sub("decl_head", d)));
    mis.appendChild(mh);
    for (const kind of MISERES) {
      const tr = make("tr");
      const th = make("th", "f5-miskind");
      th.appendChild(make("span", "", sub("misere", kind)));
      th.appendChild(make("small", "", sub("misere_note", kind)));
      tr.appendChild(th);
      for (const d of DECLS) {
        const action = `bid ${kind}${d ? ` ${d}` : ""}`;
        const td = make("td");
        const inner = make("span", "f5-cell");
        inner.appendChild(make("strong", "", String(bidValue(action, n))));
        td.appendChild(cellButton(ctx, action, inner, legal, view, drawn));
        tr.appendChild(td);
      }
      mis.appendChild(tr);
    }
    wrap.appendChild(mis);
    // a warning holds for this turn of the auction only
    const warned = ctx.ui.f5Warned && ctx.ui.f5Warned.at === (view.auction || []).length
      ? ctx.ui.f5Warned.action : null;
    if (warned && legal.has(warned) && doomed(warned, view.hand || [])) {
      const note = make("p", "f5-doom-note", `⚠ ${w(doomed(warned, view.hand || []))} `);
      note.appendChild(make("strong", "", w("doom_again")));
      wrap.appendChild(note);
    }
    return wrap;
  }

  // A hand misère keeps the hand as dealt (no kitty): a double one needs an F in it, a
  // crazy one the cups F.  The words' key when the bid cannot succeed, else null.
  function doomed(action, hand) {
    const b = parseBid(action);
    if (!b || !b.misere || !b.misere.endsWith("hand-misere")) return null;
    if (b.decl === "double" && !hand.some((c) => /^F[cdsw]$/.test(c))) return "doom_double";
    if (b.decl === "crazy" && !hand.includes("Fc")) return "doom_crazy";
    return null;
  }

  function cellButton(ctx, action, inner, legal, view, drawn) {
    let b;
    const doom = legal.has(action) ? doomed(action, view.hand || []) : null;
    if (doom) {
      // warned first: the second click makes the bid
      b = make("button", "action f5-bid doomed");
      b.type = "button";
      b.dataset.action = action;
      b.appendChild(inner);
      inner.appendChild(make("span", "f5-doom", "⚠"));
      b.title = `${bidText(action)} (${bidValue(action, view.players)}) — ${w(doom)}`;
      b.addEventListener("click", () => {
        const at = (view.auction || []).length;
        if (ctx.ui.f5Warned && ctx.ui.f5Warned.action === action && ctx.ui.f5Warned.at === at) {
          ctx.act(action);
          return;
        }
        ctx.ui.f5Warned = { action, at };
        ctx.rerender();
      });
      drawn.add(action);
    } else if (legal.has(action)) {
      b = XLayouts.actionButton(ctx, action, inner, "f5-bid");
      b.title = `${bidText(action)} (${bidValue(action, view.players)})`;
      drawn.add(action);
    } else {
      b = make("button", "f5-bid off");
      b.type = "button";
      b.disabled = true;
      b.appendChild(inner);
    }
    if (view.high_bid === action) b.classList.add("standing");
    return b;
  }

  function callGrid(view, ctx, drawn) {
    const legal = new Set(ctx.legal);
    const box = make("div", "f5-callpick");
    const mine = new Set(view.hand || []);
    const first = (view.called || []).length > 0;
    const head = make("div", "f5-pickhead", w(first ? "pick_call_2" : "pick_call"));
    head.appendChild(make("span", "f5-legend", w("mine_legend")));
    box.appendChild(head);
    if (first) {
      const cl = make("div", "f5-called");
      cl.appendChild(make("span", "f5-muted", `${w("called")}:`));
      cl.appendChild(cardRow(view.called, "xs"));
      box.appendChild(cl);
    }
    const deck = deckOf(view.players);
    for (const s of ["c", "d", "s", "w"]) {
      const row = make("div", "f5-callrow");
      row.appendChild(suitIcon(s));
      for (const code of deck[s].slice().reverse()) {
        const action = `call ${code}`;
        const svg = XCards.svg(code, { size: "s", title: XCards.name(code, XI18n.get()) });
        let b;
        if (legal.has(action)) {
          b = XLayouts.actionButton(ctx, action, svg, "f5-callcard");
          b.title = XCards.name(code, XI18n.get());
          drawn.add(action);
        } else {
          b = make("button", "f5-callcard off");
          b.type = "button";
          b.disabled = true;
          b.appendChild(svg);
        }
        if (mine.has(code)) b.classList.add("mine");
        row.appendChild(b);
      }
      box.appendChild(row);
    }
    // any call the grid missed (a card outside the table above) still gets a button
    for (const a of ctx.legal) {
      if (a.startsWith("call ") && !drawn.has(a)) {
        box.appendChild(XLayouts.actionButton(ctx, a, a.slice(5), "f5-callcard"));
        drawn.add(a);
      }
    }
    return box;
  }

  function controls(view, ctx, el) {
    const drawn = new Set();
    if (view.phase === "auction") el.appendChild(biddingGrid(view, ctx, drawn));
    else if (view.phase === "call") el.appendChild(callGrid(view, ctx, drawn));
    else if (view.phase === "discard") {
      el.appendChild(make("div", "f5-pickhead f5-discardhead", w("pick_discard", { k: (view.discards || []).length })));
    }
    return drawn;
  }

  // -- results ---------------------------------------------------------------------------
  function pts(x) { return XLayouts.fmt(x); }

  function resultHead(r, ctx) {
    if (r.kind === "ramsch") return w("h_ramsch", { n: r.hand });
    if (r.kind === "ten_per_trick") return w("h_ten", { n: r.hand });
    if (r.kind === "redeal") return w("h_redeal", { n: r.hand });
    const d = r.detail || {};
    const made = d.made;
    let extra = "";
    if (r.kind === "contract") {
      const need = parseBid(r.bid) ? parseBid(r.bid).tricks : 0;
      extra = w("h_side", { t: d.side_tricks, need });
      if (d.bonus === 100) extra += ` ${w("small_slam")}`;
      if (d.bonus === 300) extra += ` ${w("grand_slam")}`;
    } else if (made) {
      extra = w("h_clean", { f: d.f_bonus });
    } else if (!d.declarer_tricks && !d.declared_f_held) {
      extra = w("h_noF");
    } else {
      extra = w("h_took", { t: d.declarer_tricks || 0 });
    }
    return w("h_contract", {
      n: r.hand, who: ctx.seatLabel(r.declarer, true), bid: bidText(r.bid),
      result: `${w(made ? "made" : "failed")} ${extra}`,
    });
  }

  function why(r, s) {
    const d = r.detail || {};
    const p = (r.points || [])[s];
    const t = (r.tricks || [])[s] || 0;
    if (r.kind === "redeal") return "";
    if (r.kind === "ten_per_trick") return w("w_ten", { t });
    if (r.kind === "ramsch") {
      if ((d.successful || []).includes(s)) return w("w_ramsch_ok", { a: d.amount, f: (d.f_factors || [])[s] });
      const k = Math.round(-p / 50);
      return k ? w("w_ramsch_bad", { k }) : w("w_ramsch_free");
    }
    if (r.kind === "misere") {
      if (s === r.declarer) {
        if (d.made) return w("w_misere_made", { v: d.value, f: d.f_bonus });
        if (!d.declarer_tricks && !d.declared_f_held) return w("w_misere_noF", { v: d.value });
        return w("w_misere_failed", { t: d.declarer_tricks, v: d.value });
      }
      return w("w_misere_def", { t: d.declarer_tricks || 0 });
    }
    const sign = d.made ? "+" : "−";
    if (s === r.declarer) {
      let text = w("w_declarer", { v: `${sign}${d.value}` });
      if (d.declarer_factor && d.declarer_factor !== 1) text += w("w_factor", { f: d.declarer_factor });
      return text;
    }
    const held = (d.partners || {})[String(s)];
    if (held) return w(held >= 2 ? "w_partner2" : "w_partner1", { v: `${sign}${d.value}` });
    return w("w_def", { t });
  }

  // One row per seat: the seat and why it scored what it did, tricks, points, total.
  function resultTable(r, ctx, n) {
    const rows = [];
    for (let s = 0; s < n; s += 1) {
      const name = make("div", "f5-rseat");
      const nm = make("span", "f5-rname", ctx.seatLabel(s, true));
      if (s === r.declarer) nm.appendChild(make("span", "f5-tag decl", w("declarer")));
      else if ((r.detail && r.detail.partners && r.detail.partners[String(s)])) nm.appendChild(make("span", "f5-tag part", w("partner")));
      name.appendChild(nm);
      const text = why(r, s);
      if (text) name.appendChild(make("div", "f5-why", text));
      rows.push([name, (r.tricks || [])[s], pts((r.points || [])[s]), (r.totals || [])[s]]);
    }
    const table = XLayouts.grid([w("col_seat"), w("col_tricks"), w("col_pts"), w("col_total")], rows, "summary f5-result");
    for (const tr of table.querySelectorAll("tr")) {
      tr.children[1].classList.add("num");
      tr.children[2].classList.add("num", "f5-pts");
    }
    return table;
  }

  function summary(view, ctx) {
    const r = view.last_result;
    const sc = view.scores || {};
    if (!r && !sc.final) return null;
    const box = make("div", "summary-body f5-summary");
    if (r) {
      const h = make("h3", `f5-rhead${r.detail && r.detail.made === false ? " failed" : ""}`);
      h.appendChild(make("span", "", resultHead(r, ctx)));
      box.appendChild(h);
      if ((r.called || []).length) {
        const cl = make("div", "f5-called");
        cl.appendChild(make("span", "f5-muted", `${w("called")}:`));
        cl.appendChild(cardRow(r.called, "xs"));
        box.appendChild(cl);
      }
      box.appendChild(resultTable(r, ctx, view.players));
    }
    if (sc.final) {
      box.appendChild(make("h3", "f5-final", w("final")));
      const rows = [];
      const order = [...Array(view.players).keys()].sort((a, b) => sc.ranks[a] - sc.ranks[b]);
      for (const s of order) {
        rows.push([ctx.seatLabel(s, true), sc.totals[s], sc.ranks[s], (sc.winners || []).includes(s) ? `★ ${w("winner")}` : ""]);
      }
      box.appendChild(XLayouts.grid([w("col_seat"), w("col_total"), w("rank"), ""], rows, "summary f5-final"));
    }
    return box;
  }

  // -- the history box: this hand's auction and tricks, then every finished hand --------
  function history(view, ctx, el) {
    const tricks = view.tricks || [];
    if (tricks.length) {
      el.appendChild(make("h4", "f5-hh", w("h_tricks")));
      const list = make("ol", "rounds f5-tricks");
      tricks.slice().reverse().forEach((t, i) => {
        const li = make("li");
        li.appendChild(make("span", "n", `${tricks.length - i}.`));
        for (const [seat, code] of t.cards) {
          const c = make("span", `played${seat === t.winner ? " win" : ""}`);
          c.appendChild(make("small", "", w("seat_short", { n: seat + 1 })));
          c.appendChild(XCards.svg(code, { size: "xs", title: `${ctx.seatLabel(seat, true)}: ${XCards.name(code, XI18n.get())}` }));
          li.appendChild(c);
        }
        li.appendChild(make("span", "chip win", `→ ${ctx.seatLabel(t.winner, true)}`));
        list.appendChild(li);
      });
      el.appendChild(list);
    }
    const calls = view.auction || [];
    if (calls.length && view.phase !== "auction") {
      el.appendChild(make("h4", "f5-hh", w("h_auction")));
      const line = make("div", "f5-auction f5-hist-auction");
      for (const [s, text] of calls) {
        const item = make("span", "f5-call-item");
        item.appendChild(make("small", "", w("seat_short", { n: s + 1 })));
        item.appendChild(bidChip(text));
        line.appendChild(item);
      }
      el.appendChild(line);
    }
    const hands = ((view.scores || {}).detail || {}).hands || [];
    if (hands.length) {
      el.appendChild(make("h4", "f5-hh", w("h_hands")));
      const list = make("ol", "rounds f5-hands");
      hands.slice().reverse().forEach((r) => {
        const li = make("li");
        li.appendChild(make("span", `f5-hres${r.detail && r.detail.made === false ? " failed" : ""}`, resultHead(r, ctx)));
        const pl = make("span", "f5-hpts");
        (r.points || []).forEach((p, s) => {
          pl.appendChild(make("span", `f5-pt${p > 0 ? " pos" : p < 0 ? " neg" : ""}`, `${w("seat_short", { n: s + 1 })} ${pts(p)}`));
        });
        li.appendChild(pl);
        list.appendChild(li);
      });
      el.appendChild(list);
    }
  }

  // -- seat boxes ------------------------------------------------------------------------
  function seatExtra(view, s, el) {
    const c = view.contract;
    if (view.dealer === s) el.appendChild(make("span", "chip", XI18n.t("dealer")));
    if (c && c.declarer === s) el.appendChild(make("span", "chip f5-chip-decl", w("declarer")));
    else if (c && (view.partners || []).includes(s)) el.appendChild(make("span", "chip f5-partner", w("partner")));
    if (view.phase === "auction") {
      const calls = lastCalls(view);
      if (calls[s]) el.appendChild(make("span", `chip${calls[s] === "pass" ? " f5-chip-pass" : ""}`, bidText(calls[s])));
    }
    if (view.phase === "play" || view.phase === "over") {
      el.appendChild(make("span", "chip win", tricksWord((view.tricks_won || [])[s] || 0)));
    }
    // hand sizes only say something during the kitty exchange (the declarer's 14)
    const sizes = view.hand_sizes || [];
    if (view.phase === "discard" && typeof sizes[s] === "number") {
      el.appendChild(make("span", "chip", XI18n.cards(sizes[s])));
    }
  }

  function label(text) {
    const parts = String(text).split(" ");
    if (text === "pass") return w("pass");
    if (parts[0] === "bid") return bidText(text);
    if (parts[0] === "call") return w("call", { card: parts[1] });
    if (parts[0] === "discard") return parts[1] === "?" ? w("discard_hidden") : w("discard", { card: parts[1] });
    if (parts[0] === "play") return w("play", { card: parts[1] });
    return text;
  }

  XLayouts.register(F5, {
    // the kitty goes to the declarer (motion.js): into this seat's hand, or as card
    // backs to the declarer's place
    travels(prev, view) {
      const c = view.contract;
      if (!prev || !(prev.kitty_size > 0) || view.kitty_size || !c || typeof c.declarer !== "number") return [];
      return [{ from: "kitty", to: c.declarer, count: prev.kitty_size, cards: view.kitty || null }];
    },
    board,
    seatExtra,
    controls,
    label,
    phase(view) { return sub("phase", view.phase) || XI18n.phase(view.phase); },
    cardsOf(text) {
      return text.startsWith("discard ") || text.startsWith("play ") ? XCards.codesIn(text) : [];
    },
    sortHand,
    summary,
    handKey(view) { return view.hand_number === undefined ? null : view.hand_number; },
    pauseKey(view) { return `${view.hand_number}:${(view.tricks || []).length}`; },
    finalView(view, entry) { return XPace.trickFinal(view, entry); }, // pace.js (table page)
    history,
  });
})();
