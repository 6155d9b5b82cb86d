// エクステンドリ (Extendori): a plain trick-taking game for 3-8 players.  The felt shows
// the match progress (hand k of m, target score), the deal (batch k of m, cards left in
// the stock, #1 and the batch's dealer), the points taken this hand (per seat and team),
// the trick around the table with who is winning it (computed here from the rules,
// wrap-arounds included), and, on the viewer's turn, what the following rule allows.
"use strict";

(() => {
  const EX = "extendori";
  XI18n.addGame(EX, {
    en: {
      phase: { play: "playing", over: "over" },
      play: "play {card}",
      hand_of: "Hand {n} of {of}",
      hand_open: "Hand {n}",
      target: "first to {t} points",
      batch: "Batch {n} of {of}",
      stock: "{n} in the stock",
      stock_empty: "stock empty",
      dealt_by: "dealt by {who}",
      first: "#1: {who}",
      order: "Play order: {list}",
      left: "{n} of {total} points still to take",
      trick_n: "Trick {n} of {of}",
      led: "led: {suit}",
      majors: "majors",
      pts: "{n} pts",
      tricks_won: "{n} tricks",
      why: "how",
      prev_last: "last trick of hand {n}",
      tricks_won_1: "1 trick",
      team: "Team {t}",
      no_suit: "no {suit}",
      winning: "{who} is winning with {card}",
      won: "{who} won with {card} (+{pts})",
      wrap: "wrap-around: {card} beats {beaten}",
      wrap_major: "the top major loses to T1 and T0 when they meet",
      wrap_minor: "the led suit's F loses to its N and M when they meet",
      threat_major: "not played yet: {cards} — either would beat {top}",
      threat_minor: "not played yet: {cards} — either would beat {f}",
      dead: "cannot win",
      you_lead: "You lead: play any card.",
      follow: "Follow suit: play {suit}.",
      follow_majors: "Majors were led: play a major.",
      forced_major: "You have no {suit}: you must play a major.",
      free: "You have neither {suit} nor a major: play any card — it cannot win.",
      free_majors: "You have no major: play any card — it cannot win.",
      hand_pts: "this hand",
      total: "match total",
      hand_col: "H{n}",
      rank: "rank",
      team_line: "Team {t} ({who}): {sum}",
      scoring: "Picture cards (M N A R E B L W J C Q K F) score 15 each, T0 and T1 30 each: {total} points in every hand.",
      final: "Final result",
      hand_result: "Hand {n}",
      h_tricks: "This hand's tricks",
      h_hands: "Points per hand",
      batch_sep: "batch {n}",
      winners: "Winner: {who}",
      target_reached: "{who} reached {t} points",
    },
    ja: {
      phase: { play: "プレイ", over: "終了" },
      play: "{card} を出す",
      hand_of: "第{n}ハンド / 全{of}",
      hand_open: "第{n}ハンド",
      target: "{t}点先取",
      batch: "配札 {n}/{of}回目",
      stock: "山札 {n}枚",
      stock_empty: "山札なし",
      dealt_by: "配り手 {who}",
      first: "1番: {who}",
      order: "手番の順: {list}",
      left: "残り {n}/{total}点",
      trick_n: "第{n}トリック / {of}",
      led: "台札: {suit}",
      majors: "大アルカナ",
      pts: "{n}点",
      tricks_won: "{n}トリック",
      tricks_won_1: "1トリック",
      why: "内訳",
      prev_last: "第{n}ハンドの最後のトリック",
      team: "チーム{t}",
      no_suit: "{suit}なし",
      winning: "{who}が {card} で優勢",
      won: "{who}が {card} で獲得（+{pts}）",
      wrap: "逆転: {card} が {beaten} に勝ちます",
      wrap_major: "最強の大アルカナと T1・T0 が同じトリックに出ると T1・T0 が上",
      wrap_minor: "台札のマークの F と N・M が同じトリックに出ると N・M が上",
      threat_major: "未出: {cards} — 出れば {top} に勝ちます",
      threat_minor: "未出: {cards} — 出れば {f} に勝ちます",
      dead: "勝てない",
      you_lead: "あなたの打ち出しです。どのカードでも出せます。",
      follow: "マークに従って{suit}を出してください。",
      follow_majors: "大アルカナが打ち出されました。大アルカナを出してください。",
      forced_major: "{suit}がないので、大アルカナを出さなければなりません。",
      free: "{suit}も大アルカナもないので、何を出しても構いません（このカードは勝てません）。",
      free_majors: "大アルカナがないので、何を出しても構いません（このカードは勝てません）。",
      hand_pts: "このハンド",
      total: "累計",
      hand_col: "第{n}ハンド",
      rank: "順位",
      team_line: "チーム{t}（{who}）: {sum}",
      scoring: "絵札（M N A R E B L W J C Q K F）は1枚15点、T0・T1 は30点。1ハンドで計{total}点。",
      final: "最終結果",
      hand_result: "第{n}ハンド",
      h_tricks: "このハンドのトリック",
      h_hands: "ハンドごとの得点",
      batch_sep: "配札 {n}回目",
      winners: "勝者: {who}",
      target_reached: "{who}が{t}点に到達",
    },
  });
  const w = (key, vars) => XI18n.g(EX, key, vars);
  const { make, cardRow } = XLayouts;

  // -- the rules: strength, points, who wins a trick (rules.py's trick_winner) -----------
  const MINOR = ["M", "N", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "R", "E", "B", "L", "W", "J", "C", "Q", "K", "A", "F"];
  const RANK = Object.fromEntries(MINOR.map((r, i) => [r, i]));
  const NO_POINTS = new Set(["2", "3", "4", "5", "6", "7", "8", "9", "10"]);
  const SUIT_ORDER = { c: 1, s: 2, d: 3, w: 4 }; // red and black alternate in the hand
  const TEAM_NAMES = ["A", "B", "C", "D"];

  const topMajor = (deck) => ({ 111: 22, 110: 21 }[deck] || 23);
  const totalPoints = (deck) => (deck === 108 ? 780 : 840);

  function points(code) {
    const c = XCards.parse(code);
    if (!c) return 0;
    if (c.major) return c.number <= 1 ? 30 : 0;
    return NO_POINTS.has(c.rank) ? 0 : 15;
  }

  const keyOf = (code) => {
    const c = XCards.parse(code);
    return c ? (c.major ? "T" : c.suit) : null;
  };

  function suitName(key) {
    if (key === "T") return w("majors");
    const s = XCards.SUITS[key];
    return s ? s[XI18n.get()] : String(key);
  }

  // Who wins (so far) the cards played: {seat, card, wrap: "major"|"minor"|null,
  // beaten: the card the wrap-around beats, dead: the cards that cannot win}.
  function judge(plays, deck) {
    if (!plays || !plays.length) return null;
    const cards = plays.map(([s, code]) => ({ s, code, c: XCards.parse(code) }));
    const majors = cards.filter((x) => x.c && x.c.major);
    let pool;
    let key;
    let wrap = null;
    let beaten = null;
    if (majors.length) {
      const top = topMajor(deck);
      const nums = new Set(majors.map((x) => x.c.number));
      pool = majors;
      if (nums.has(top) && (nums.has(0) || nums.has(1))) {
        key = (x) => (x.c.number <= 1 ? 100 - x.c.number : x.c.number);
        wrap = "major";
        beaten = `T${top}`;
      } else {
        key = (x) => x.c.number;
      }
    } else {
      const led = cards[0].c.suit;
      pool = cards.filter((x) => x.c.suit === led);
      const ranks = new Set(pool.map((x) => RANK[x.c.rank]));
      if (ranks.has(RANK.F) && (ranks.has(RANK.N) || ranks.has(RANK.M))) {
        key = (x) => (RANK[x.c.rank] <= RANK.N ? 100 - RANK[x.c.rank] : RANK[x.c.rank]);
        wrap = "minor";
        beaten = `F${led}`;
      } else {
        key = (x) => RANK[x.c.rank];
      }
    }
    let best = pool[0];
    for (const x of pool) if (key(x) > key(best)) best = x;
    const inPool = new Set(pool.map((x) => x.code));
    const dead = new Set(cards.filter((x) => !inPool.has(x.code) && !(majors.length && x.c.major)).map((x) => x.code));
    return { seat: best.s, card: best.code, wrap, beaten, dead, led: keyOf(cards[0].code) };
  }

  // The cards that would still turn the current winner over by a wrap-around, and
  // have not been played in this hand yet.
  function threats(view, j) {
    if (!j || j.wrap) return null;
    const played = new Set();
    for (const t of view.tricks || []) for (const [, c] of t.cards) played.add(c);
    for (const [, c] of (view.trick && view.trick.cards) || []) played.add(c);
    const win = XCards.parse(j.card);
    const top = topMajor(view.deck);
    if (win.major && win.number === top) {
      const out = ["T1", "T0"].filter((c) => !played.has(c));
      return out.length ? { kind: "major", cards: out, beaten: j.card } : null;
    }
    if (!win.major && win.rank === "F" && j.led === win.suit) {
      const anyMajor = (view.trick.cards || []).some(([, c]) => XCards.parse(c).major);
      if (anyMajor) return null;
      const ranks = view.deck === 108 ? ["M"] : ["N", "M"]; // the 108-card deck has no N
      const out = ranks.map((r) => `${r}${win.suit}`).filter((c) => !played.has(c));
      return out.length ? { kind: "minor", cards: out, beaten: j.card } : null;
    }
    return null;
  }

  // The cards of a 112/111/110/108-card deck.
  function deckCards(size) {
    const out = [];
    for (let i = 0; i <= 23; i += 1) {
      if ((size === 111 && i === 23) || (size === 110 && i >= 22)) continue;
      out.push(`T${i}`);
    }
    const ranks = ["M", "N", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
      "R", "E", "B", "L", "W", "J", "C", "Q", "K", "F"];
    for (const suit of "cdsw") {
      for (const r of ranks) if (!(size === 108 && r === "N")) out.push(`${r}${suit}`);
    }
    return out;
  }

  // The page only sees the current hand's tricks: when a hand ends the next one starts
  // at once.  So every render remembers the hand so far (in ctx.ui), and when the hand
  // number moves on, the finished hand is rebuilt: every card of the deck is played in
  // a hand, so the one card missing from the last trick is known.  The rebuilt hand is
  // kept only if it agrees with the points the hand scored.
  function remember(view, ui) {
    const ex = ui.extendori || (ui.extendori = { done: {} });
    const prev = ex.cur;
    const h = view.hand_number;
    if (prev && prev.hand !== h && !ex.done[prev.hand]) {
      const hands = (view.scores && view.scores.detail && view.scores.detail.hands) || [];
      const res = hands[prev.hand - 1];
      const perHand = (view.batch_sizes || []).reduce((a, b) => a + b, 0);
      const cards = prev.trick.cards || [];
      if (res && prev.tricks.length === perHand - 1 && cards.length === view.players - 1) {
        const seen = new Set(cards.map(([, c]) => c));
        for (const t of prev.tricks) for (const [, c] of t.cards) seen.add(c);
        const missing = deckCards(view.deck).filter((c) => !seen.has(c));
        const played = new Set(cards.map(([st]) => st));
        const seat = [...Array(view.players).keys()].find((st) => !played.has(st));
        if (missing.length === 1 && seat !== undefined) {
          const plays = cards.concat([[seat, missing[0]]]);
          const winner = judge(plays, view.deck).seat;
          const final = { leader: prev.trick.leader, cards: plays, winner };
          const tricks = prev.tricks.concat([final]);
          const pts = new Array(view.players).fill(0);
          for (const t of tricks) pts[t.winner] += trickPoints(t);
          if (pts.every((x, i) => x === res[i])) ex.done[prev.hand] = { tricks };
        }
      }
    }
    if (view.phase !== "over" || !prev || prev.hand !== h) {
      ex.cur = { hand: h, tricks: view.tricks || [], trick: view.trick || { cards: [] } };
    }
    if (view.phase === "over" && !ex.done[h]) ex.done[h] = { tricks: view.tricks || [] };
    return ex;
  }

  // A seat's points in a finished hand, explained: "7 tricks: 9×15 + T0" (T0 and T1 are worth 30).
  function why(tricks, seat) {
    let n15 = 0;
    const big = [];
    let k = 0;
    for (const t of tricks) {
      if (t.winner !== seat) continue;
      k += 1;
      for (const [, c] of t.cards) {
        const p = points(c);
        if (p === 15) n15 += 1;
        else if (p === 30) big.push(c);
      }
    }
    const parts = [];
    if (n15) parts.push(`${n15}×15`);
    for (const c of big.sort()) parts.push(c);
    return `${trickCount(k)}${parts.length ? `: ${parts.join(" + ")}` : ""}`;
  }

  // -- small helpers ---------------------------------------------------------------------
  const trickCount = (k) => (k === 1 ? w("tricks_won_1") : w("tricks_won", { n: k }));
  function teamOf(view) {
    const map = {};
    (view.teams || []).forEach((members, i) => { for (const s of members) map[s] = i; });
    return map;
  }

  function tricksWon(view) {
    const won = new Array(view.players).fill(0);
    for (const t of view.tricks || []) won[t.winner] += 1;
    return won;
  }

  function trickPoints(t) {
    return t.cards.reduce((sum, [, c]) => sum + points(c), 0);
  }

  // The rich text line "who ... card ...": card codes are drawn as small cards.
  function rich(text, cls) {
    const el = XLayouts.richLabel(text, "xs");
    if (cls) el.classList.add(cls);
    return el;
  }

  function progress(view) {
    const n = view.hand_number || 1;
    const head = view.hands_limit ? w("hand_of", { n, of: view.hands_limit }) : w("hand_open", { n });
    return view.target_score ? `${head} · ${w("target", { t: view.target_score })}` : head;
  }

  function clockwise(view) {
    const o = view.order || [];
    return o.every((s, i) => s === (view.first + i) % view.players);
  }

  // What the following rule lets the viewer play now.
  function mustLine(view, ctx) {
    if (!ctx.myTurn) return null;
    const cards = (view.trick && view.trick.cards) || [];
    if (!cards.length) return { text: w("you_lead"), cls: "" };
    const led = keyOf(cards[0][1]);
    const hand = view.hand || [];
    if (hand.some((c) => keyOf(c) === led)) {
      return led === "T" ? { text: w("follow_majors"), cls: "" } : { text: w("follow", { suit: suitName(led) }), cls: "" };
    }
    if (hand.some((c) => keyOf(c) === "T")) return { text: w("forced_major", { suit: suitName(led) }), cls: "forced" };
    return { text: led === "T" ? w("free_majors") : w("free", { suit: suitName(led) }), cls: "free" };
  }

  XLayouts.register(EX, {
    board(view, ctx, el) {
      const n = view.players;
      const total = totalPoints(view.deck);
      const taken = (view.hand_points || []).reduce((a, b) => a + b, 0);
      const teamIdx = teamOf(view);

      // the match, the deal and the points still out
      const info = make("div", "ex-info");
      info.appendChild(make("span", "ex-progress", progress(view)));
      const deal = make("span", "ex-deal");
      const sizes = view.batch_sizes || [];
      deal.appendChild(make("span", "", w("batch", { n: view.batch, of: sizes.length })));
      const stock = make("span", "ex-stock");
      if (view.stock_count > 0) {
        stock.appendChild(XCards.svg(null, { size: "xs", title: w("stock", { n: view.stock_count }) }));
        stock.appendChild(make("span", "", w("stock", { n: view.stock_count })));
      } else {
        stock.appendChild(make("span", "muted-felt", w("stock_empty")));
      }
      deal.appendChild(stock);
      info.appendChild(deal);
      const who = make("span", "ex-who");
      who.appendChild(make("span", "", w("first", { who: ctx.seatLabel(view.first, true) })));
      if (view.dealer !== view.first || view.batch > 1) {
        who.appendChild(make("span", "", w("dealt_by", { who: ctx.seatLabel(view.dealer, true) })));
      }
      info.appendChild(who);
      info.appendChild(make("span", "ex-left", w("left", { n: total - taken, total })));
      el.appendChild(info);

      if (!clockwise(view)) {
        const list = (view.order || []).map((s) => ctx.seatLabel(s, true)).join(" → ");
        el.appendChild(make("div", "ex-order", w("order", { list })));
      }

      // teams: this hand's points per team
      if (view.teams) {
        const row = make("div", `ex-teams${view.teams.length > 2 ? " ex-teams-many" : ""}`);
        view.teams.forEach((members, i) => {
          const sum = members.reduce((a, s) => a + ((view.hand_points || [])[s] || 0), 0);
          const chip = make("span", `ex-team-chip ex-team-${i}`);
          const name = make("strong", "");
          name.appendChild(make("span", "ex-team-word", w("team", { t: "" }).trim()));
          name.appendChild(make("span", "", `${XI18n.get() === "ja" ? "" : " "}${TEAM_NAMES[i] || i + 1}`));
          chip.appendChild(name);
          chip.appendChild(make("span", "ex-team-members", ` ${members.map((s) => s + 1).join("+")}`));
          chip.appendChild(make("span", "", ` · ${w("pts", { n: sum })}`));
          row.appendChild(chip);
        });
        el.appendChild(row);
      }

      // the viewer's following rule
      const must = mustLine(view, ctx);
      if (must) el.appendChild(make("div", `ex-must ${must.cls}`, must.text));

      // the trick around the table
      const ex = remember(view, ctx.ui);
      const trick = view.trick || { cards: [] };
      let tricks = view.tricks || [];
      // a new hand before its first card: the previous hand's last trick stays shown
      const before = ex.done[view.hand_number - 1];
      const fromPrev = !tricks.length && !(trick.cards || []).length && before && view.phase !== "over";
      if (fromPrev) tricks = before.tricks.slice(-1);
      const last = tricks.length ? tricks[tricks.length - 1] : null;
      const current = trick.cards || [];
      const showingLast = Boolean(last) && ((ctx.ui.showLast && current.length) || !current.length);
      const shown = showingLast ? last.cards : current;
      const j = judge(shown, view.deck);

      const center = make("div", "ex-center");
      const perBatch = sizes.reduce((a, b) => a + b, 0);
      if (showingLast) {
        if (fromPrev) center.appendChild(make("div", "ex-trick-n", w("prev_last", { n: view.hand_number - 1 })));
        center.appendChild(make("div", "ex-pts", `+${w("pts", { n: trickPoints(last) })}`));
      } else if (view.phase !== "over") {
        center.appendChild(make("div", "ex-trick-n", w("trick_n", { n: tricks.length + 1, of: perBatch })));
        if (current.length) center.appendChild(make("div", "ex-led", w("led", { suit: suitName(keyOf(current[0][1])) })));
      }
      const opts = { size: "m", cls: "ex-felt", center };
      if (!showingLast && j) opts.winning = j.seat;
      const ring = XLayouts.trickRing(view, ctx, trick, tricks, opts);

      // seats placed in the real play order (it differs from seat numbers when reseated)
      const pos = {};
      (view.order || []).forEach((s, i) => { pos[s] = i; });
      const reseated = !clockwise(view);
      const won = tricksWon(view);
      ring.querySelectorAll(".spot").forEach((spot) => {
        const s = Number(spot.dataset.seat);
        if (reseated && pos[s] !== undefined) {
          const mine = ctx.seat === null || ctx.seat === undefined ? 0 : pos[ctx.seat];
          const p = XLayouts.place(pos[s], n, mine);
          spot.style.left = `${p.x}%`;
          spot.style.top = `${p.y}%`;
          // the name goes on the outer side of the card
          const name = spot.querySelector(".who");
          const slot = spot.querySelector(".slot");
          if (name && slot) {
            if (p.y < 50) spot.insertBefore(name, slot);
            else slot.after(name);
          }
        }
        if (teamIdx[s] !== undefined) spot.classList.add(`ex-team-${teamIdx[s]}`);
        const card = shown.find(([seat]) => seat === s);
        if (j && card && j.dead.has(card[1])) {
          spot.classList.add("ex-dead");
          spot.title = w("dead");
        }
        const pts = make("div", "ex-spot-pts", `${w("pts", { n: (view.hand_points || [])[s] || 0 })}`);
        if (won[s]) pts.appendChild(make("span", "ex-spot-tricks", ` · ${won[s]}`));
        spot.appendChild(pts);
      });
      el.appendChild(ring);

      // who wins and why, in one line under the ring
      const whyBox = make("div", "ex-why");
      if (j) {
        if (showingLast) whyBox.appendChild(rich(w("won", { who: ctx.seatLabel(last.winner, true), card: j.card, pts: trickPoints(last) })));
        else whyBox.appendChild(rich(w("winning", { who: ctx.seatLabel(j.seat, true), card: j.card })));
        if (j.wrap) {
          const line = rich(w("wrap", { card: j.card, beaten: j.beaten }), "ex-wrap");
          line.appendChild(make("span", "ex-wrap-why", `(${w(j.wrap === "major" ? "wrap_major" : "wrap_minor")})`));
          whyBox.appendChild(line);
        }
        if (!showingLast) {
          const th = threats(view, j);
          if (th) {
            const key = th.kind === "major" ? "threat_major" : "threat_minor";
            whyBox.appendChild(rich(w(key, { cards: th.cards.join(" "), top: th.beaten, f: th.beaten }), "ex-threat"));
          }
        }
      }
      if (whyBox.childNodes.length) el.appendChild(whyBox);
    },

    seatExtra(view, seat, el) {
      const teamIdx = teamOf(view);
      if (teamIdx[seat] !== undefined) {
        const name = w("team", { t: TEAM_NAMES[teamIdx[seat]] || teamIdx[seat] + 1 });
        // many seats: the team's letter only (its name in the tooltip)
        const chip = make("span", `chip ex-team-chip ex-team-${teamIdx[seat]}`, view.players > 5 ? TEAM_NAMES[teamIdx[seat]] : name);
        chip.title = name;
        el.appendChild(chip);
      }
      const won = tricksWon(view)[seat];
      let text = w("pts", { n: (view.hand_points || [])[seat] || 0 });
      if (won) text += ` · ${trickCount(won)}`;
      if (view.players <= 5) text = `${w("hand_pts")}: ${text}`;
      const pts = make("span", "chip ex-pts-chip", text);
      pts.title = w("hand_pts");
      el.appendChild(pts);
      if (seat === view.first) el.appendChild(make("span", "chip ex-first", "#1"));
      // voids last one batch; once the match is over they say nothing
      for (const v of view.phase === "over" ? [] : (view.voids || [])[seat] || []) {
        el.appendChild(make("span", `chip ex-void${v === "T" ? " ex-void-t" : ""}`, w("no_suit", { suit: suitName(v) })));
      }
    },

    history(view, ctx, el) {
      const tricks = view.tricks || [];
      const hands = (view.scores && view.scores.detail && view.scores.detail.hands) || [];
      if (tricks.length) {
        el.appendChild(make("h3", "ex-h", w("h_tricks")));
        const list = make("ol", "rounds ex-tricks");
        const sizes = view.batch_sizes || [];
        const starts = [];
        let acc = 0;
        for (const k of sizes) { starts.push(acc); acc += k; }
        const batchOf = (i) => starts.filter((st) => st <= i).length;
        let shownBatch = null;
        for (let i = tricks.length - 1; i >= 0; i -= 1) {
          const t = tricks[i];
          if (sizes.length > 1 && batchOf(i) !== shownBatch) {
            shownBatch = batchOf(i);
            list.appendChild(make("li", "sep ex-sep", `— ${w("batch_sep", { n: shownBatch })} —`));
          }
          const j = judge(t.cards, view.deck);
          const li = make("li", "round");
          li.appendChild(make("span", "n", `${i + 1}.`));
          for (const [s, c] of t.cards) {
            const p = make("span", "played");
            p.appendChild(make("small", "", String(s + 1)));
            const svg = XCards.svg(c, { size: "xs", title: XCards.name(c, XI18n.get()) });
            if (j && c === j.card) svg.classList.add("ex-win-card");
            if (j && j.dead.has(c)) svg.classList.add("void");
            p.appendChild(svg);
            li.appendChild(p);
          }
          li.appendChild(make("span", "chip win", `→ ${ctx.seatLabel(t.winner, true)} +${trickPoints(t)}`));
          if (j && j.wrap) li.appendChild(make("span", "chip ex-wrap-chip", "↺"));
          list.appendChild(li);
        }
        el.appendChild(list);
      }
      if (hands.length) {
        el.appendChild(make("h3", "ex-h", w("h_hands")));
        el.appendChild(handsGrid(view, ctx, hands));
      }
    },

    summary(view, ctx) {
      const sc = view.scores;
      const hands = (sc && sc.detail && sc.detail.hands) || [];
      if (!hands.length) return null;
      const total = totalPoints(view.deck);
      const box = make("div", `summary-body ex-summary${view.players > 5 ? " ex-many" : ""}`);
      const teamIdx = teamOf(view);
      const ind = sc.detail.individual || [];
      if (sc.final) {
        box.appendChild(make("h3", "", w("final")));
        box.appendChild(handsGrid(view, ctx, hands, true));
        let names = (sc.winners || []).map((s) => ctx.seatLabel(s, true)).join(", ");
        if (view.teams) {
          const won = [...new Set((sc.winners || []).map((s) => teamIdx[s]))];
          names = `${won.map((i) => w("team", { t: TEAM_NAMES[i] || i + 1 })).join(", ")} (${names})`;
        }
        box.appendChild(make("p", "ex-winners", w("winners", { who: names })));
        // how the last hand's points were taken (its tricks are still in the view)
        const rec = remember(view, ctx.ui).done[hands.length];
        if (rec && rec.tricks.length) {
          const how = make("div", "ex-how ex-final-how");
          how.appendChild(make("div", "ex-how-head", `${w("hand_result", { n: hands.length })} — ${w("why")}`));
          const list = make("ul", "");
          for (let s = 0; s < view.players; s += 1) {
            const li = make("li", "");
            li.appendChild(make("span", "", `${ctx.seatLabel(s, true)}: +${hands[hands.length - 1][s]} = `));
            li.appendChild(XLayouts.richLabel(why(rec.tricks, s), "xs"));
            list.appendChild(li);
          }
          how.appendChild(list);
          box.appendChild(how);
        }
        if (view.target_score) {
          const best = Math.max(...sc.totals);
          if (best >= view.target_score) box.appendChild(make("p", "muted", w("target_reached", { who: names, t: view.target_score })));
        }
      } else {
        const k = hands.length;
        const res = hands[k - 1];
        const rec = remember(view, ctx.ui).done[k];
        box.appendChild(make("h3", "", w("hand_result", { n: k })));
        const rows = [];
        for (let s = 0; s < view.players; s += 1) {
          const before = ind[s] - res[s] - ((view.hand_points || [])[s] || 0);
          const row = [ctx.seatLabel(s, true)];
          if (view.teams) row.push(TEAM_NAMES[teamIdx[s]] || "");
          row.push(`+${res[s]}`);
          if (rec) row.push(XLayouts.richLabel(why(rec.tricks, s), "xs"));
          row.push(`${before} → ${before + res[s]}`);
          rows.push(row);
        }
        const head = [XI18n.t("seat")];
        if (view.teams) head.push(w("team", { t: "" }).trim());
        head.push(w("hand_pts"));
        if (rec) head.push(w("why"));
        head.push(w("total"));
        const grid = XLayouts.grid(head, rows, "summary ex-last");
        grid.querySelectorAll("tr").forEach((tr) => {
          if (view.teams) tr.children[1].classList.add("ex-tcol");
          if (rec) tr.children[view.teams ? 3 : 2].classList.add("ex-how");
        });
        box.appendChild(grid);
        if (view.teams) {
          const list = make("ul", "ex-team-lines");
          view.teams.forEach((members, i) => {
            const parts = members.map((s) => res[s]);
            const sum = parts.reduce((a, b) => a + b, 0);
            list.appendChild(make("li", "", w("team_line", {
              t: TEAM_NAMES[i] || i + 1,
              who: members.map((s) => ctx.seatLabel(s, true)).join(", "),
              sum: `${parts.join(" + ")} = ${sum}`,
            })));
          });
          box.appendChild(list);
        }
      }
      box.appendChild(make("p", "muted ex-scoring", w("scoring", { total })));
      return box;
    },

    handKey(view) { return view.hand_number; },
    pauseKey(view) { return `${view.hand_number}:${(view.tricks || []).length}`; },
    finalView(view, entry) { return XPace.trickFinal(view, entry); }, // pace.js (table page)
    label(text) {
      const parts = text.split(" ");
      if (parts[0] === "play" && parts.length === 2) return w("play", { card: parts[1] });
      return text;
    },
    phase(view) { return (w("phase") || {})[view.phase] || XI18n.phase(view.phase); },
    cardsOf(text) { return XCards.codesIn(text); },
    sortHand(view, codes) {
      const k = (code) => {
        const c = XCards.parse(code);
        if (!c) return 9999;
        return c.major ? c.number : SUIT_ORDER[c.suit] * 100 + RANK[c.rank];
      };
      return codes.slice().sort((a, b) => k(a) - k(b));
    },
  });

  // Every finished hand's points per seat, the match totals (team totals with teams)
  // and, at the end, the ranks.
  function handsGrid(view, ctx, hands, final) {
    const sc = view.scores;
    const head = [XI18n.t("seat")];
    hands.forEach((_, i) => head.push(w("hand_col", { n: i + 1 })));
    head.push(w("total"));
    if (view.teams) head.push(w("team", { t: "" }).trim());
    if (final) head.push(w("rank"));
    const teamIdx = teamOf(view);
    const rows = [];
    for (let s = 0; s < view.players; s += 1) {
      const row = [ctx.seatLabel(s, true)];
      let sum = 0;
      for (const h of hands) { row.push(h[s]); sum += h[s]; }
      row.push(sum);
      if (view.teams) row.push(`${TEAM_NAMES[teamIdx[s]] || ""} ${sc.totals[s]}`);
      if (final) row.push(sc.ranks[s]);
      rows.push(row);
    }
    const grid = XLayouts.grid(head, rows, "summary ex-hands");
    grid.querySelectorAll("tr").forEach((tr) => {
      for (let i = 1; i <= hands.length; i += 1) if (tr.children[i]) tr.children[i].classList.add("ex-hcol");
    });
    if (final) {
      const trs = grid.querySelectorAll("tr");
      for (let s = 0; s < view.players; s += 1) {
        if ((sc.winners || []).includes(s)) trs[s + 1].classList.add("ex-winner");
      }
    }
    return grid;
  }
})();
