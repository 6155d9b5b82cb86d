// 聖杯麻雀 (Grail Mahjong): the opponents across the top, the viewer at the bottom, each
// seat with its numbered melds (and their scores), its Lc area and its discard river; in
// the middle the stock, the hand, the dealer and the claim window (the discard being
// answered, who has answered, the last winning claim).  The turn's melds (pon, chi, add)
// and the claims are buttons drawing the meld they make, the wild cup's meanings offered
// side by side ("Oc as 5"); discards are the hand cards, `luck` is the Lc card.
"use strict";

(() => {
  const GM = "grail-mahjong";
  XI18n.addGame(GM, {
    en: {
      phase: { turn: "meld & discard", claim: "claim round", over: "over" },
      hand_of: "Hand {n}/{of}",
      dealer: "dealer",
      stock: "stock",
      ccw: "↺ counter-clockwise",
      next: "· next: {seat}",
      melds: "melds",
      no_melds: "no melds",
      river: "discards",
      area: "area",
      cards: "{n} cards", card: "1 card",
      pts: "{n} pt",
      claim_title: "Claim round",
      claim_on: "{seat} discarded",
      claim_blind: "each other seat answers in turn, blind; pon beats chi, then the nearest",
      answered: "answered",
      asking: "deciding",
      waiting: "waits",
      your_answer: "your answer: {a}",
      last_claim: "Last claim",
      claimed_from: "{seat} took {card} from {from}",
      no_claim_yet: "no claim yet this hand",
      from: "claimed from {seat}",
      // actions
      discard: "Discard {card}",
      pon: "Pon", chi: "Chi", add: "Add to meld {n}", add_row: "Add to a meld",
      add_label: "Add {card} to meld {n}",
      claim_pon: "Claim pon", claim_chi: "Claim chi",
      pass: "Pass",
      luck: "Luck: Lc to the area (×2)",
      luck_btn: "Play Lc to your area (score ×2)",
      answer_hidden: "answered (hidden)",
      oc_as: "Oc as {m}",
      wild_pick: "stands for",
      claim_row: "Claim {card}",
      turn_hint: "Click a hand card to discard it.",
      // results
      end_agari: "Agari: {seat} emptied the hand",
      end_rest: "{seat} discarded Rc: showdown",
      end_stock: "The stock ran out: showdown",
      showdown_note: "Showdown: the highest score wins, ties share. A meld scores (cards−2)², ×2 with Lc; only ★ winners gain (right).",
      agari_note: "Agari wins whatever the scores. A meld scores (cards−2)², ×2 with Lc; only the ★ winner gains (right).",
      seat: "seat", score: "meld score", gained: "gained",
      hand_won: "Hand {n} won by {who}",
      final: "Final totals", total: "total", rank: "rank",
      last_hand: "Last hand", back: "Back to the table", hand_over: "Hand over", summary_title: "Last hand",
      hand_n: "Hand {n}",
      dealer_next: "next dealer: {seat}",
    },
    ja: {
      phase: { turn: "面子と捨て札", claim: "鳴きの確認", over: "終了" },
      hand_of: "第{n}局 / 全{of}局",
      dealer: "親",
      stock: "山札",
      ccw: "反時計回り ↺",
      next: "· 次: {seat}",
      melds: "面子",
      no_melds: "面子なし",
      river: "捨て札",
      area: "エリア",
      cards: "手札{n}枚", card: "手札1枚",
      pts: "{n}点",
      claim_title: "鳴きの確認",
      claim_on: "{seat}の捨て札",
      claim_blind: "ほかの席が順に非公開で答えます。ポンがチーより優先、次に近い席",
      answered: "返答済",
      asking: "検討中",
      waiting: "待ち",
      your_answer: "あなたの返答: {a}",
      last_claim: "直前の鳴き",
      claimed_from: "{seat}が{from}の {card} を鳴きました",
      no_claim_yet: "この局の鳴きはまだありません",
      from: "{seat}から鳴いた札",
      discard: "{card} を捨てる",
      pon: "ポン", chi: "チー", add: "面子{n}に加える", add_row: "面子に加える",
      add_label: "{card} を面子{n}に加える",
      claim_pon: "ポン (鳴き)", claim_chi: "チー (鳴き)",
      pass: "パス",
      luck: "幸運: Lc をエリアへ (×2)",
      luck_btn: "Lc を自分のエリアへ (得点2倍)",
      answer_hidden: "返答（非公開）",
      oc_as: "Oc を {m} として",
      wild_pick: "の意味",
      claim_row: "{card} を鳴く",
      turn_hint: "捨てる札は手札をクリック。",
      end_agari: "あがり: {seat}の手札がなくなりました",
      end_rest: "{seat}が Rc (聖杯の休息) を捨てました: 勝者判定",
      end_stock: "山札が尽きました: 勝者判定",
      showdown_note: "勝者判定: 得点の最も高い席が勝ち (同点は全員)。面子は (枚数−2)² 点、Lc で2倍。獲得 (右) は★勝者だけ。",
      agari_note: "あがりは得点に関係なく勝ち。面子は (枚数−2)² 点、Lc で2倍。獲得 (右) は★勝者だけ。",
      seat: "席", score: "面子の得点", gained: "獲得",
      hand_won: "第{n}局の勝者: {who}",
      final: "最終結果", total: "合計", rank: "順位",
      last_hand: "前の局", back: "卓に戻る", hand_over: "局終了", summary_title: "前の局",
      hand_n: "第{n}局",
      dealer_next: "次の親: {seat}",
    },
  });
  const w = (key, vars) => XI18n.g(GM, key, vars);
  const { make } = XLayouts;
  const SUIT_ORDER = { T: 0, c: 1, d: 2, s: 3, w: 4 };

  // -- cards and melds ----------------------------------------------------------------
  // "Oc=5c" -> {base: "Oc", mean: "5c"}
  function split(code) {
    const i = String(code).indexOf("=");
    return i < 0 ? { base: code, mean: null } : { base: code.slice(0, i), mean: code.slice(i + 1) };
  }
  // the number a card (or a wild's meaning) stands for: T3 -> 3, Ac -> 1, 10d -> 10, "5" -> 5
  function rankOf(code) {
    const { base, mean } = split(code);
    const c = mean || base;
    let m = /^T(\d+)$/.exec(c);
    if (m) return Number(m[1]);
    m = /^(10|[2-9]|A)([cdsw])?$/.exec(c);
    if (m) return m[1] === "A" ? 1 : Number(m[1]);
    return 99;
  }
  function suitOf(code) {
    const { base, mean } = split(code);
    const c = mean || base;
    if (/^T\d+$/.test(c)) return "T";
    const m = /([cdsw])$/.exec(c);
    return m ? m[1] : "?";
  }
  function cardName(code) {
    const { base, mean } = split(code);
    const name = XCards.name(base, XI18n.get());
    return mean ? `${name} = ${mean}` : name;
  }
  // one card of a meld: the wild with its meaning written under it
  function cardEl(code, size, cls) {
    const { base, mean } = split(code);
    const box = make("span", `gm-card${cls ? ` ${cls}` : ""}`);
    box.appendChild(XCards.svg(base, { size: size || "xs", title: cardName(code) }));
    if (mean) {
      box.classList.add("wild");
      box.appendChild(make("span", "gm-mean", `=${mean}`));
    }
    return box;
  }
  function runOrder(cards) {
    return cards.slice().sort((a, b) => rankOf(a) - rankOf(b));
  }
  function meldScore(n) { return n >= 3 ? (n - 2) * (n - 2) : 0; }

  // A meld: [number] cards [score]; opts: {num, score, claimed, from, size, fresh, dim}
  function meldEl(cards, opts, ctx) {
    const o = opts || {};
    const box = make("span", `gm-meld${o.cls ? ` ${o.cls}` : ""}`);
    if (o.num !== undefined && o.num !== null) box.appendChild(make("span", "gm-num", String(o.num)));
    const row = make("span", "gm-cards");
    let claimedLeft = o.claimed || null;
    for (const c of cards) {
      let cls = "";
      if (claimedLeft && c === claimedLeft) { cls = "claimed"; claimedLeft = null; }
      if (o.fresh && c === o.fresh) cls = `${cls} fresh`;
      else if (o.dim) cls = `${cls} dim`;
      const el = cardEl(c, o.size, cls.trim());
      if (cls.includes("claimed") && o.from !== undefined && o.from !== null && ctx) {
        el.title = w("from", { seat: ctx.seatLabel(o.from) });
      }
      row.appendChild(el);
    }
    box.appendChild(row);
    if (o.score !== undefined && o.score !== null) box.appendChild(make("span", "gm-score", w("pts", { n: o.score })));
    return box;
  }

  // -- actions ------------------------------------------------------------------------
  // pon/chi/add/claim texts split into their parts, plus a key shared by the actions
  // that differ only in what the wild stands for
  function parseAction(a) {
    const p = a.split(" ");
    let claim = false;
    let kind;
    let cards;
    let meld = null;
    if (p[0] === "claim") { claim = true; kind = p[1]; cards = p.slice(2); }
    else if (p[0] === "pon" || p[0] === "chi") { kind = p[0]; cards = p.slice(1); }
    else if (p[0] === "add") { kind = "add"; cards = [p[1]]; meld = Number(p[2]); }
    else return null;
    const wild = cards.find((c) => c.startsWith("Oc=")) || null;
    const naturals = cards.filter((c) => !c.startsWith("Oc="));
    const key = [claim ? "claim" : "", kind, naturals.slice().sort().join(","), wild ? "O" : "", meld].join("|");
    return { text: a, claim, kind, cards, meld, wild, naturals, key };
  }

  // the meld an action makes, as card codes, and the card to mark as new/claimed
  function meldOf(view, ctx, act) {
    if (act.kind === "add") {
      const mine = ((view.melds || [])[ctx.seat] || [])[act.meld];
      const old = mine ? mine.cards : [];
      const card = act.cards[0];
      let cards;
      if (mine && mine.kind === "chi") {
        cards = old.length && rankOf(card) < rankOf(old[0]) ? [card, ...old] : [...old, card];
      } else {
        cards = [...old, card];
      }
      return { cards, fresh: card };
    }
    if (act.claim) {
      const disc = view.claim ? view.claim.card : null;
      let cards = act.cards.slice();
      let claimed = disc;
      if (disc === "Oc") claimed = act.wild; // the discarded wild, its meaning named
      else if (disc) cards.push(disc);
      if (act.kind === "chi") cards = runOrder(cards);
      return { cards, claimed };
    }
    const cards = act.kind === "chi" ? runOrder(act.cards) : act.cards.slice();
    return { cards };
  }

  function groupActions(legal) {
    const groups = new Map();
    for (const a of legal) {
      const act = parseAction(a);
      if (!act) continue;
      if (!groups.has(act.key)) groups.set(act.key, []);
      groups.get(act.key).push(act);
    }
    return [...groups.values()];
  }

  // a button for one meld/claim: its cards drawn as the meld they make
  function previewEl(m, act, ctx) {
    const num = act.kind === "add" ? act.meld + 1 : null;
    return meldEl(m.cards, { num, claimed: m.claimed, fresh: m.fresh, dim: !!m.fresh, size: "xs" }, ctx);
  }

  function meldButton(view, ctx, act) {
    const m = meldOf(view, ctx, act);
    const content = make("span", "gm-btn");
    content.appendChild(previewEl(m, act, ctx));
    const b = XLayouts.actionButton(ctx, act.text, content, "gm-meld-btn");
    b.title = label(act.text);
    return b;
  }

  // a group of actions that differ only in the wild's meaning: the choices side by side
  function wildGroup(view, ctx, group) {
    const box = make("span", "gm-wild-group");
    const q = make("span", "gm-wild-q");
    q.appendChild(cardEl("Oc", "xs"));
    q.appendChild(make("span", "", w("wild_pick")));
    box.appendChild(q);
    for (const act of group) {
      const m = meldOf(view, ctx, act);
      const content = make("span", "gm-btn");
      content.appendChild(make("span", "gm-oc-as", w("oc_as", { m: split(act.wild).mean })));
      content.appendChild(previewEl(m, act, ctx));
      const b = XLayouts.actionButton(ctx, act.text, content, "gm-meld-btn gm-wild-btn");
      b.title = label(act.text);
      box.appendChild(b);
    }
    return box;
  }

  // -- the board ----------------------------------------------------------------------
  function bottomSeat(ctx) { return ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat; }

  function seatPanel(view, ctx, s, opts) {
    const o = opts || {};
    const panel = make("div", "gm-seat");
    panel.dataset.seat = String(s);
    if (s === ctx.seat) panel.classList.add("me");
    if (s === view.current_player && view.phase !== "over") panel.classList.add("acting");
    if (o.winner) panel.classList.add("won");
    const head = make("div", "gm-head");
    head.appendChild(make("span", "gm-who", ctx.seatLabel(s, true)));
    if (s === view.dealer) head.appendChild(make("span", "gm-chip dealer", w("dealer")));
    const sizes = view.hand_sizes || [];
    if (typeof sizes[s] === "number") head.appendChild(make("span", "gm-chip", w(sizes[s] === 1 ? "card" : "cards", { n: sizes[s] })));
    const melds = o.melds;
    const total = melds.reduce((t, m) => t + m.score, 0);
    const luck = o.luck;
    if (luck) {
      const area = make("span", "gm-area");
      area.dataset.land = `area:${s}`; // Lc played into the area (motion.js)
      area.title = w("area");
      area.appendChild(cardEl("Lc", "xs"));
      area.appendChild(make("span", "gm-x2", "×2"));
      head.appendChild(area);
    }
    head.appendChild(make("span", "gm-chip score", w("pts", { n: luck ? total * 2 : total })));
    panel.appendChild(head);

    const meldRow = make("div", "gm-melds");
    if (!melds.length) meldRow.appendChild(make("span", "gm-none", w("no_melds")));
    melds.forEach((m, i) => {
      const meld = meldEl(m.cards, { num: i + 1, score: m.score, claimed: m.claimed, from: m.from, size: "xs" }, ctx);
      meld.dataset.land = `meld:${s}:${i}`; // melds and claims land here (motion.js)
      meldRow.appendChild(meld);
    });
    panel.appendChild(meldRow);

    if (o.river) {
      const river = make("div", "gm-river");
      river.appendChild(make("span", "gm-label", w("river")));
      const row = make("span", "gm-river-cards");
      row.dataset.land = `river:${s}`; // a discard is laid down here (motion.js)
      for (const d of o.river) {
        const c = cardEl(d.card, "xs", d.latest ? "latest" : "");
        row.appendChild(c);
      }
      if (!o.river.length) row.appendChild(make("span", "gm-none", "—"));
      river.appendChild(row);
      panel.appendChild(river);
    }
    return panel;
  }

  function claimWindow(view, ctx) {
    const box = make("div", "gm-claim live");
    const c = view.claim;
    const n = view.players;
    box.appendChild(make("div", "gm-label", w("claim_title")));
    const line = make("div", "gm-claim-line");
    line.appendChild(make("span", "", w("claim_on", { seat: ctx.seatLabel(c.seat, true) })));
    line.appendChild(cardEl(c.card, "s", "latest"));
    box.appendChild(line);
    // who has answered: the other seats in turn order after the discarder
    const order = [];
    for (let k = 1; k < n; k += 1) order.push((c.seat - k + n * 2) % n);
    const at = order.indexOf(view.current_player);
    const prog = make("div", "gm-progress");
    order.forEach((s, i) => {
      const state = at < 0 || i < at ? "answered" : i === at ? "asking" : "waiting";
      const chip = make("span", `gm-chip ${state}`, `${XI18n.seatName(s)}: ${w(state)}`);
      prog.appendChild(chip);
    });
    box.appendChild(prog);
    if (view.my_answer && view.current_player !== ctx.seat) {
      const mine = make("div", "gm-mine");
      mine.appendChild(XLayouts.richLabel(w("your_answer", { a: label(view.my_answer) })));
      box.appendChild(mine);
    }
    box.appendChild(make("div", "gm-note", w("claim_blind")));
    return box;
  }

  function lastClaim(view, ctx) {
    const box = make("div", "gm-claim");
    box.appendChild(make("div", "gm-label", w("last_claim")));
    const lc = view.last_claim;
    if (!lc) {
      box.appendChild(make("div", "gm-none", w("no_claim_yet")));
      return box;
    }
    const line = make("div", "gm-claim-line");
    line.appendChild(XLayouts.richLabel(w("claimed_from", {
      seat: ctx.seatLabel(lc.seat, true), from: ctx.seatLabel(lc.from, true), card: lc.card,
    })));
    box.appendChild(line);
    // the meld it made: the claimer's meld holding the claimed card from that seat
    const melds = (view.melds || [])[lc.seat] || [];
    let found = null;
    melds.forEach((m, i) => { if (m.claimed === lc.card && m.from === lc.from) found = [m, i]; });
    if (found) {
      line.appendChild(meldEl(found[0].cards, {
        num: found[1] + 1, claimed: found[0].claimed, from: found[0].from, size: "xs",
      }, ctx));
    } else {
      line.appendChild(XLayouts.richLabel(label(lc.action)));
    }
    return box;
  }

  function center(view, ctx) {
    const mid = make("div", "gm-center");
    const info = make("div", "gm-info");
    const stock = make("div", "gm-stock");
    stock.appendChild(XCards.svg(null, { size: "s", title: w("stock") }));
    stock.appendChild(make("span", "gm-count", String(view.stock_count)));
    stock.appendChild(make("span", "gm-label", w("stock")));
    info.appendChild(stock);
    const txt = make("div", "gm-handinfo");
    txt.appendChild(make("div", "gm-hand-no", w("hand_of", { n: view.hand_number, of: view.hands_in_match })));
    txt.appendChild(make("div", "gm-dealer-line", `${w("dealer")}: ${ctx.seatLabel(view.dealer, true)}`));
    const nxt = view.current_player === null || view.current_player === undefined ? null
      : (view.current_player - 1 + view.players) % view.players;
    const dir = make("div", "gm-dir");
    dir.appendChild(make("span", "gm-ccw", w("ccw")));
    if (nxt !== null && view.phase === "turn") dir.appendChild(make("span", "gm-next", ` ${w("next", { seat: XI18n.seatName(nxt) })}`));
    txt.appendChild(dir);
    info.appendChild(txt);
    mid.appendChild(info);
    if (view.phase === "claim" && view.claim) mid.appendChild(claimWindow(view, ctx));
    else mid.appendChild(lastClaim(view, ctx));
    if ((view.results || []).length && view.phase !== "over") {
      const btn = make("button", "small gm-review", w("last_hand"));
      btn.type = "button";
      btn.addEventListener("click", () => { ctx.ui.gmReview = moment(view); ctx.rerender(); });
      mid.appendChild(btn);
    }
    return mid;
  }

  function moment(view) {
    return [(view.results || []).length, (view.discards || []).length, view.phase, view.current_player,
      view.stock_count].join("/");
  }

  function rivers(view) {
    const out = [];
    for (let s = 0; s < view.players; s += 1) out.push([]);
    const pile = view.discards || [];
    pile.forEach((d, i) => {
      if (out[d.seat]) out[d.seat].push({ card: d.card, latest: i === pile.length - 1 });
    });
    return out;
  }

  function seatOrder(view, ctx) {
    const me = bottomSeat(ctx);
    const n = view.players;
    const top = [];
    for (let k = 1; k < n; k += 1) top.push((me + k) % n);
    return { me, top };
  }

  function board(view, ctx, el) {
    const results = view.results || [];
    // the review of the last hand lasts until the table moves on
    if (ctx.ui.gmReview && ctx.ui.gmReview !== moment(view)) ctx.ui.gmReview = false;
    if (ctx.ui.gmReview && results.length && view.phase !== "over") {
      const r = results[results.length - 1];
      const box = make("div", "gm-review-box");
      const back = make("button", "small gm-review", w("back"));
      back.type = "button";
      back.addEventListener("click", () => { ctx.ui.gmReview = false; ctx.rerender(); });
      box.appendChild(back);
      box.appendChild(resultBody(view, ctx, r, true));
      el.appendChild(box);
      return;
    }
    ctx.ui.gmReview = false;
    const riv = rivers(view);
    const { me, top } = seatOrder(view, ctx);
    const meldsOf = (s) => ((view.melds || [])[s] || []);
    const luckOf = (s) => (((view.areas || [])[s]) || []).includes("Lc");
    const topRow = make("div", `gm-top gm-n${top.length}`);
    for (const s of top) topRow.appendChild(seatPanel(view, ctx, s, { melds: meldsOf(s), luck: luckOf(s), river: riv[s] }));
    el.appendChild(topRow);
    el.appendChild(center(view, ctx));
    const bottom = seatPanel(view, ctx, me, { melds: meldsOf(me), luck: luckOf(me), river: riv[me] });
    bottom.classList.add("bottom");
    el.appendChild(bottom);
  }

  // -- results --------------------------------------------------------------------------
  function endLine(r, ctx) {
    const who = r.seat === null || r.seat === undefined ? "—" : ctx.seatLabel(r.seat, true);
    const key = r.end === "agari" ? "end_agari" : r.end === "rest" ? "end_rest" : "end_stock";
    return w(key, { seat: who });
  }

  function resultBody(view, ctx, r, withTitle) {
    const box = make("div", "gm-result");
    if (withTitle) box.appendChild(make("h3", "", `${w("hand_n", { n: r.hand })} · ${w("dealer")}: ${ctx.seatLabel(r.dealer, true)}`));
    const end = make("div", `gm-end ${r.end}`, endLine(r, ctx));
    box.appendChild(end);
    box.appendChild(make("div", "gm-note", w(r.end === "agari" ? "agari_note" : "showdown_note")));
    const luck = new Set(r.luck || []);
    const list = make("div", "gm-res-list");
    for (let s = 0; s < view.players; s += 1) {
      const melds = (r.melds || [])[s] || [];
      const win = (r.winners || []).includes(s);
      const gain = (r.gained || [])[s] || 0;
      const item = make("div", `gm-res-seat${win ? " win" : ""}`);
      item.dataset.seat = String(s);
      const head = make("div", "gm-res-head");
      head.appendChild(make("span", "gm-res-who", `${win ? "★ " : ""}${ctx.seatLabel(s, true)}`));
      const parts = melds.map((c) => meldScore(c.length));
      let calc = parts.length ? parts.join(" + ") : "0";
      if (parts.length > 1) calc += ` = ${parts.reduce((x, y) => x + y, 0)}`;
      if (luck.has(s) && parts.length) calc += ` ×2 = ${r.meld_scores[s]}`;
      const right = make("span", "gm-res-right");
      const calcEl = make("span", "gm-calc", `= ${calc}`);
      calcEl.title = w("score");
      right.appendChild(calcEl);
      const gainEl = make("span", `gm-gain${win ? " win" : ""}`, win ? `+${gain}` : "0");
      gainEl.title = w("gained");
      right.appendChild(gainEl);
      head.appendChild(right);
      const cell = make("span", "gm-result-melds");
      melds.forEach((cards) => cell.appendChild(meldEl(cards, { score: meldScore(cards.length), size: "xs" }, ctx)));
      if (luck.has(s)) {
        const area = make("span", "gm-area");
        area.appendChild(cardEl("Lc", "xs"));
        area.appendChild(make("span", "gm-x2", "×2"));
        cell.appendChild(area);
      }
      if (!melds.length && !luck.has(s)) cell.appendChild(make("span", "gm-none", w("no_melds")));
      head.insertBefore(cell, head.childNodes[1]);
      item.appendChild(head);
      list.appendChild(item);
    }
    box.appendChild(list);
    const who = (r.winners || []).map((s) => ctx.seatLabel(s, true)).join(", ");
    const foot = make("div", "gm-foot", w("hand_won", { n: r.hand, who }));
    if (r.next_dealer !== null && r.next_dealer !== undefined && view.phase !== "over") {
      foot.textContent += ` · ${w("dealer_next", { seat: ctx.seatLabel(r.next_dealer, true) })}`;
    }
    box.appendChild(foot);
    return box;
  }

  function summary(view, ctx) {
    const results = view.results || [];
    if (!results.length) return null;
    const box = make("div", "summary-body gm-summary");
    box.appendChild(resultBody(view, ctx, results[results.length - 1], true));
    const sc = view.scores;
    if (sc && sc.final) {
      box.appendChild(make("h3", "", w("final")));
      const rows = [];
      for (let s = 0; s < view.players; s += 1) {
        const gains = results.map((r) => (r.gained || [])[s] || 0).filter((g) => g > 0);
        rows.push([
          `${(sc.winners || []).includes(s) ? "★ " : ""}${ctx.seatLabel(s, true)}`,
          gains.length ? gains.map((g) => `+${g}`).join(" ") : "0",
          sc.totals[s], sc.ranks[s],
        ]);
      }
      box.appendChild(XLayouts.grid([w("seat"), w("gained"), w("total"), w("rank")], rows, "summary"));
    }
    return box;
  }

  function history(view, ctx, el) {
    const results = view.results || [];
    if (!results.length) return;
    const list = make("ol", "rounds gm-history");
    results.slice().reverse().forEach((r) => {
      const li = make("li", "gm-hist");
      const head = make("div", "gm-hist-head");
      head.appendChild(make("span", "n", w("hand_n", { n: r.hand })));
      head.appendChild(make("span", "", endLine(r, ctx)));
      li.appendChild(head);
      const luck = new Set(r.luck || []);
      for (let s = 0; s < view.players; s += 1) {
        const line = make("div", "gm-hist-seat");
        const win = (r.winners || []).includes(s);
        line.appendChild(make("span", `gm-hist-who${win ? " gm-winner" : ""}`, `${win ? "★" : ""}${XI18n.seatName(s)}`));
        for (const cards of (r.melds || [])[s] || []) line.appendChild(meldEl(cards, { size: "xs" }, ctx));
        if (luck.has(s)) line.appendChild(make("span", "gm-x2", "Lc×2"));
        line.appendChild(make("span", "gm-hist-pts", `${r.meld_scores[s]}${r.gained[s] ? ` → +${r.gained[s]}` : ""}`));
        li.appendChild(line);
      }
      list.appendChild(li);
    });
    el.appendChild(list);
  }

  // -- controls ---------------------------------------------------------------------------
  function controls(view, ctx, el) {
    const drawn = new Set();
    const legal = ctx.legal || [];
    const groups = groupActions(legal);
    const box = make("div", "gm-controls");
    const claiming = view.phase === "claim" && view.claim;
    if (claiming) {
      const row = make("div", "gm-ctl-row");
      const head = make("span", "gm-ctl-head");
      head.appendChild(XLayouts.richLabel(w("claim_row", { card: view.claim.card })));
      row.appendChild(head);
      if (legal.includes("pass")) {
        row.appendChild(XLayouts.actionButton(ctx, "pass", w("pass"), "gm-pass"));
        drawn.add("pass");
      }
      box.appendChild(row);
    }
    // one row per kind (pon, chi, add), each meld drawn as the cards it makes
    for (const kind of ["pon", "chi", "add"]) {
      const mine = groups.filter((g) => g[0].kind === kind && g[0].claim === !!claiming);
      if (!mine.length) continue;
      const row = make("div", `gm-ctl-row gm-${kind}-row`);
      let head = w(kind === "add" ? "add_row" : kind);
      if (claiming) head = w(kind === "pon" ? "claim_pon" : "claim_chi");
      row.appendChild(make("span", "gm-ctl-head", head));
      for (const g of mine) {
        if (g.length > 1) row.appendChild(wildGroup(view, ctx, g));
        else row.appendChild(meldButton(view, ctx, g[0]));
        for (const a of g) drawn.add(a.text);
      }
      box.appendChild(row);
    }
    if (legal.includes("luck")) {
      const row = make("div", "gm-ctl-row");
      const content = make("span", "gm-btn");
      content.appendChild(cardEl("Lc", "xs"));
      content.appendChild(make("span", "", w("luck_btn")));
      row.appendChild(XLayouts.actionButton(ctx, "luck", content, "gm-luck-btn"));
      drawn.add("luck");
      box.appendChild(row);
    }
    if (!claiming && legal.some((a) => a.startsWith("discard "))) box.appendChild(make("div", "gm-note", w("turn_hint")));
    if (box.childNodes.length) el.appendChild(box);
    return drawn;
  }

  // -- words ------------------------------------------------------------------------------
  function label(text) {
    const p = String(text).split(" ");
    if (text === "pass") return w("pass");
    if (text === "luck") return w("luck");
    if (text === "answer ?") return w("answer_hidden");
    if (p[0] === "discard") return w("discard", { card: p[1] });
    if (p[0] === "pon" || p[0] === "chi") return `${w(p[0])} ${p.slice(1).join(" ")}`;
    if (p[0] === "add") return w("add_label", { card: p[1], n: Number(p[2]) + 1 });
    if (p[0] === "claim") return `${w(p[1] === "pon" ? "claim_pon" : "claim_chi")} ${p.slice(2).join(" ")}`;
    return text;
  }

  function sortKey(code) {
    if (code === "Oc" || code === "Rc" || code === "Lc") return 1000 + ["Oc", "Lc", "Rc"].indexOf(code);
    return (SUIT_ORDER[suitOf(code)] || 0) * 100 + rankOf(code);
  }

  XLayouts.register(GM, {
    board,
    seatExtra(view, s, el) {
      if (s === view.dealer) el.appendChild(make("span", "chip gm-dealer-chip", w("dealer")));
      const sizes = view.hand_sizes || [];
      if (typeof sizes[s] === "number") el.appendChild(make("span", "chip", w(sizes[s] === 1 ? "card" : "cards", { n: sizes[s] })));
      const melds = (view.melds || [])[s] || [];
      const luck = (((view.areas || [])[s]) || []).includes("Lc");
      if (melds.length) {
        const t = melds.reduce((a, m) => a + m.score, 0);
        el.appendChild(make("span", "chip", `${w("melds")} ${melds.length} · ${w("pts", { n: luck ? t * 2 : t })}`));
      }
      if (luck) el.appendChild(make("span", "chip gm-luck-chip", "Lc ×2"));
    },
    controls,
    label,
    phase(view) { return (w("phase") || {})[view.phase] || XI18n.phase(view.phase); },
    cardsOf(text) {
      if (text.startsWith("discard ")) return [text.slice(8)];
      if (text === "luck") return ["Lc"];
      return [];
    },
    sortHand(view, codes) { return codes.slice().sort((a, b) => sortKey(a) - sortKey(b)); },
    summary,
    handKey(view) { return (view.results || []).length; },
    pauseKey(view) { return (view.melds || []).reduce((k, m) => k + (m || []).length, 0); },
    history,
  });
})();
