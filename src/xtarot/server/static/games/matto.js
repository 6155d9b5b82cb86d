// マット呼んだ? (Did You Call Matto?): the field of three majors for sale with their
// prices, the stock and the discard pile (click to draw), the purchase under way with
// its running sum (or the last one finished), the recent purchases, the Fool's risk and
// the last-turn warning; each seat's majors, sets and publicly known cards.
"use strict";

(() => {
  const MT = "matto";
  const NAMES = [
    ["The Fool", "愚者"], ["The Magician", "魔術師"], ["The High Priestess", "女教皇"],
    ["The Empress", "女帝"], ["The Emperor", "皇帝"], ["The Hierophant", "教皇"],
    ["The Lovers", "恋人"], ["The Chariot", "戦車"], ["Justice", "正義"], ["The Hermit", "隠者"],
    ["Wheel of Fortune", "運命の輪"], ["Strength", "力"], ["The Hanged Man", "吊された男"],
    ["Death", "死神"], ["Temperance", "節制"], ["The Devil", "悪魔"], ["The Tower", "塔"],
    ["The Star", "星"], ["The Moon", "月"], ["The Sun", "太陽"], ["Judgement", "審判"],
    ["The World", "世界"],
  ];
  // the three 役 (sets), +5 each; `en` is the name the scores' detail uses
  const SETS = [
    { en: "Straight to Hell", ja: "地獄へ一直線", need: ["T12", "T13", "T15"] },
    { en: "Radiance of the Heavens", ja: "天空の輝き", need: ["T17", "T18", "T19"] },
    { en: "End of the World", ja: "世界の終わり", need: ["T20", "T21"] },
  ];
  XI18n.addGame(MT, {
    en: {
      phase: { draw: "take a card", buy: "buying majors", pay: "paying", over: "over" },
      turn: "Turn {n}", dealer: "dealer", over: "Game over",
      field: "Field: majors for sale", price: "price", stock: "Stock", discard: "Discard",
      majors_left: "{n} majors face down", top: "top",
      last_turn: "Last turn!",
      last_stock: "the stock is empty: the game ends after this turn",
      last_majors: "the major pile is empty: the game ends after this turn",
      stock_low: "the stock is nearly out",
      near: "The end is near", near_majors: "face-down majors left: {n}", near_stock: "stock left: {n}",
      fool_risk: "Matto (T0) is among the {n} face-down majors: each purchase turns it up 1 time in {n}, and the buyer must take it (−5).",
      fool_risk_short: "T0 risk 1/{n}",
      fool_out: "Matto (T0) went to {seat} (−5).",
      payable: "you can pay", unpayable: "you can't pay",
      completes: "+5 set for {seat}", set_tag: "set",
      buying: "{seat} is buying", paid: "paid", to_pay: "still to pay", target: "price",
      last_purchase: "Last purchase", recent: "Earlier", no_purchase: "No purchases yet.",
      known: "known",
      known_title: "taken from the discard pile: everyone saw these cards", majors: "majors", fool: "Fool", sets: "sets", total: "total",
      why: "why", final: "Final result",
      n_majors: "{n} majors +{n}", fool_pen: "Fool −5", set_bonus: "{name} +5",
      draw_stock: "Draw from the stock", draw_discard: "Take {card} from the discard",
      draw_discard_top: "Take the discard top",
      buy: "Buy {card}", pay: "Pay {card}", end: "End the turn",
      prompt_draw: "Take one card: click the stock or the discard pile.",
      prompt_buy: "Buy a major: click a lit card on the field (its number, paid exactly), or end your turn.",
      prompt_buy_none: "Your hand cannot pay any major exactly: end your turn.",
      prompt_pay: "Paying {major}: click hand cards, {owed} still to pay. The last card paid becomes the discard top.",
      hand_sum: "hand sum {n}",
      purchases: "Purchases", discard_pile: "Discard pile (bottom → top, all seen face up)",
      sum: "= {n}",
    },
    ja: {
      phase: { draw: "手札の補充", buy: "大アルカナの獲得", pay: "支払い", over: "終了" },
      turn: "第{n}ターン", dealer: "親", over: "ゲーム終了",
      field: "場の大アルカナ", price: "値段", stock: "山札", discard: "捨て札",
      majors_left: "伏せた大アルカナ {n}枚", top: "一番上",
      last_turn: "最後のターン!",
      last_stock: "山札がなくなりました: この手番の終わりでゲーム終了",
      last_majors: "大アルカナの山がなくなりました: この手番の終わりでゲーム終了",
      stock_low: "山札が残りわずか",
      near: "終盤", near_majors: "伏せた大アルカナ残り {n}枚", near_stock: "山札残り {n}枚",
      fool_risk: "マット (T0) は伏せた大アルカナ {n}枚の中: 獲得のたびに {n}分の1 でめくれ、獲得した人が引き取ります (−5)。",
      fool_risk_short: "マットの危険 1/{n}",
      fool_out: "マット (T0) は{seat}のもの (−5)。",
      payable: "支払える", unpayable: "支払えない",
      completes: "{seat}の役 +5", set_tag: "役",
      buying: "{seat}が獲得中", paid: "支払い済み", to_pay: "残り", target: "値段",
      last_purchase: "直前の獲得", recent: "それ以前", no_purchase: "まだ獲得はありません。",
      known: "見えている手札",
      known_title: "捨て札から取ったカード: 全員が知っています", majors: "大アルカナ", fool: "愚者", sets: "役", total: "合計",
      why: "内訳", final: "最終結果",
      n_majors: "大アルカナ{n}枚 +{n}", fool_pen: "愚者 −5", set_bonus: "{name} +5",
      draw_stock: "山札から引く", draw_discard: "捨て札の {card} を取る",
      draw_discard_top: "捨て札の一番上を取る",
      buy: "{card} を獲得", pay: "{card} で支払う", end: "手番を終える",
      prompt_draw: "1枚取ってください: 山札か捨て札をクリック。",
      prompt_buy: "獲得する大アルカナを場でクリック (ナンバーぴったりで支払い)、または手番を終える。",
      prompt_buy_none: "ぴったり支払える大アルカナがありません: 手番を終えてください。",
      prompt_pay: "{major} の支払い: 手札をクリック、残り {owed}。最後に出したカードが捨て札の一番上になります。",
      hand_sum: "手札の合計 {n}",
      purchases: "獲得の記録", discard_pile: "捨て札 (下 → 上、すべて公開)",
      sum: "= {n}",
    },
  });
  const w = (key, vars) => XI18n.g(MT, key, vars);
  const ja = () => XI18n.get() === "ja";
  const { make, cardRow } = XLayouts;

  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"];
  const SUIT_ORDER = "cdsw";
  function value(code) {
    const c = XCards.parse(code);
    if (!c || c.major) return 0;
    if (c.rank === "A") return 1;
    const n = Number(c.rank);
    return Number.isNaN(n) ? 10 : n;
  }
  const number = (code) => { const c = XCards.parse(code); return c && c.major ? c.number : 0; };
  const majorName = (code) => { const n = NAMES[number(code)]; return n ? n[ja() ? 1 : 0] : code; };
  const setName = (en) => { const s = SETS.find((x) => x.en === en); return s && ja() ? s.ja : en; };
  const sum = (codes) => codes.reduce((a, c) => a + value(c), 0);
  // whether some cards of the hand sum exactly to the amount
  function canPay(hand, amount) {
    let reach = 1;
    for (const c of hand) reach = (reach | (reach << value(c))) & ((1 << 22) - 1);
    return amount >= 0 && amount < 22 && ((reach >> amount) & 1) === 1;
  }
  const byNumber = (codes) => codes.slice().sort((a, b) => number(a) - number(b));
  const foolHolder = (view) => (view.won || []).findIndex((ws) => ws.includes("T0"));
  const card = (code, size, cls) => {
    const svg = XCards.svg(code, { size, title: code ? `${XCards.name(code, XI18n.get())}${XCards.parse(code).major ? ` ${majorName(code)}` : ""}` : undefined });
    if (cls) svg.classList.add(cls);
    return svg;
  };

  // what the market card of major m means for the sets: "+5 for Seat 2" when it
  // completes a seat's set, else the set's name when it belongs to one
  function setNote(view, ctx, m) {
    const s = SETS.find((x) => x.need.includes(m));
    if (!s) return null;
    const won = view.won || [];
    const holders = [];
    won.forEach((ws, seat) => { if (s.need.some((c) => ws.includes(c))) holders.push(seat); });
    if (holders.length > 1) return null; // two seats hold pieces: nobody can make it
    const rest = s.need.filter((c) => c !== m);
    if (holders.length === 1 && rest.every((c) => won[holders[0]].includes(c))) {
      return { text: w("completes", { seat: ctx.seatLabel(holders[0], true) }), hot: true, set: s };
    }
    return { text: `${w("set_tag")}: ${ja() ? s.ja : s.en}`, hot: false, set: s };
  }

  function infoLine(view) {
    const info = make("div", "mt-info");
    if (view.phase === "over") info.appendChild(make("strong", "", w("over")));
    else info.appendChild(make("strong", "", w("turn", { n: view.turn })));
    return info;
  }

  function market(view, ctx) {
    const box = make("div", "mt-market");
    box.appendChild(make("div", "label", w("field")));
    const row = make("div", "mt-field");
    row.dataset.land = "field"; // a major turned up grows in (motion.js)
    const hand = view.hand || [];
    const buying = view.buying && view.buying.major;
    for (const m of view.field || []) {
      const item = make("div", "mt-major");
      item.dataset.major = m;
      const n = number(m);
      item.appendChild(make("div", "mt-price", String(n)));
      item.appendChild(card(m, "l"));
      item.appendChild(make("div", "mt-name", majorName(m)));
      const note = setNote(view, ctx, m);
      if (note) {
        const tag = make("div", `mt-set${note.hot ? " hot" : ""}`, note.text);
        tag.title = `${ja() ? note.set.ja : note.set.en}: ${note.set.need.join(" + ")} (+5)`;
        item.appendChild(tag);
      }
      if (m === buying) item.classList.add("buying");
      if (ctx.seat !== null && view.phase !== "over" && view.phase !== "pay" && hand.length) {
        const ok = canPay(hand, n);
        item.appendChild(make("div", `mt-pay ${ok ? "yes" : "no"}`, ok ? `✓ ${w("payable")}` : w("unpayable")));
      }
      const action = `buy ${m}`;
      if (ctx.legal.includes(action)) {
        row.appendChild(XLayouts.actionButton(ctx, action, item, "mt-buy"));
      } else {
        row.appendChild(item);
      }
    }
    box.appendChild(row);
    return box;
  }

  function piles(view, ctx) {
    const box = make("div", "mt-piles");
    // the stock
    const stock = make("div", "mt-pile mt-stock");
    stock.appendChild(make("div", "label", w("stock")));
    stock.appendChild(view.stock_left ? card(null, "m") : make("div", "mt-empty"));
    const low = view.stock_left <= view.players && view.phase !== "over";
    const count = make("div", `mt-count${low ? " low" : ""}`, String(view.stock_left));
    if (low) count.title = w("stock_low");
    stock.appendChild(count);
    if (ctx.legal.includes("draw stock")) {
      box.appendChild(XLayouts.actionButton(ctx, "draw stock", stock, "mt-draw"));
    } else {
      box.appendChild(stock);
    }
    // the discard pile: its top, with the few cards below it
    const pile = view.discard || [];
    const disc = make("div", "mt-pile mt-discard");
    disc.appendChild(make("div", "label", w("discard")));
    disc.appendChild(view.discard_top ? card(view.discard_top, "m") : make("div", "mt-empty"));
    disc.appendChild(make("div", "mt-count", String(pile.length)));
    if (ctx.legal.includes("draw discard")) {
      box.appendChild(XLayouts.actionButton(ctx, "draw discard", disc, "mt-draw"));
    } else {
      box.appendChild(disc);
    }
    // the face-down majors
    const majors = make("div", "mt-pile mt-majors");
    majors.appendChild(make("div", "label", w("majors")));
    majors.appendChild(view.majors_left ? card(null, "s") : make("div", "mt-empty small"));
    majors.appendChild(make("div", `mt-count${view.majors_left <= 2 && view.phase !== "over" ? " low" : ""}`, String(view.majors_left)));
    majors.title = w("majors_left", { n: view.majors_left });
    box.appendChild(majors);
    return box;
  }

  // the purchase under way (major, price, paid so far, still to pay), or the last one
  function deal(view, ctx) {
    const box = make("div", "mt-deal");
    const b = view.buying;
    const seatOf = view.current_player;
    if (b) {
      box.classList.add("live");
      const price = number(b.major);
      const head = make("div", "mt-deal-head");
      head.appendChild(make("span", "who", w("buying", { seat: ctx.seatLabel(seatOf, true) })));
      head.appendChild(card(b.major, "s"));
      head.appendChild(make("span", "mt-name", majorName(b.major)));
      box.appendChild(head);
      const line = make("div", "mt-sums");
      line.appendChild(make("span", "k", `${w("target")} `));
      line.appendChild(make("strong", "", String(price)));
      line.appendChild(make("span", "k", ` · ${w("paid")} `));
      if (b.paid.length) {
        const paid = cardRow(b.paid, "xs");
        paid.dataset.land = "paid"; // each card paid is laid down here (motion.js)
        line.appendChild(paid);
      }
      line.appendChild(make("strong", "", ` ${price - b.owed}`));
      line.appendChild(make("span", "k", ` · ${w("to_pay")} `));
      line.appendChild(make("strong", "mt-owed", String(b.owed)));
      box.appendChild(line);
      const bar = make("div", "mt-bar");
      const fill = make("div", "mt-fill");
      fill.style.width = `${Math.round((100 * (price - b.owed)) / Math.max(1, price))}%`;
      bar.appendChild(fill);
      box.appendChild(bar);
      return box;
    }
    const list = view.purchases || [];
    const p = list[list.length - 1];
    box.appendChild(make("div", "label", w("last_purchase")));
    if (!p) {
      box.appendChild(make("div", "muted-felt", w("no_purchase")));
      return box;
    }
    box.appendChild(purchaseLine(p, ctx, "s"));
    return box;
  }

  function purchaseLine(p, ctx, size) {
    const li = make("div", "mt-purchase");
    li.appendChild(make("span", "who", ctx.seatLabel(p.seat, true)));
    li.appendChild(card(p.major, size));
    li.appendChild(make("span", "arrow", "←"));
    li.appendChild(cardRow(p.paid, "xs"));
    li.appendChild(make("span", "sum", w("sum", { n: sum(p.paid) })));
    if (p.fool) {
      const f = make("span", "mt-foolmark");
      f.appendChild(make("span", "", "+"));
      f.appendChild(card("T0", "xs"));
      f.appendChild(make("span", "", "−5"));
      f.title = w("fool_pen");
      li.appendChild(f);
    }
    return li;
  }

  function recent(view, ctx) {
    const list = view.purchases || [];
    const older = list.slice(view.buying ? -3 : -4, view.buying ? undefined : -1).reverse();
    if (!older.length) return null;
    const box = make("div", "mt-recent");
    box.appendChild(make("div", "label", view.buying ? w("last_purchase") : w("recent")));
    for (const p of older) box.appendChild(purchaseLine(p, ctx, "xs"));
    return box;
  }

  function warnings(view, ctx) {
    const box = make("div", "mt-warn");
    if (view.last_turn) {
      const lt = make("div", "mt-last");
      lt.appendChild(make("strong", "", w("last_turn")));
      lt.appendChild(make("span", "", ` ${view.stock_left === 0 ? w("last_stock") : w("last_majors")}`));
      box.appendChild(lt);
    } else if (view.phase !== "over" && (view.majors_left <= 2 || view.stock_left <= view.players)) {
      const which = view.majors_left <= 2 ? w("near_majors", { n: view.majors_left }) : w("near_stock", { n: view.stock_left });
      box.appendChild(make("div", "mt-near", `${w("near")}: ${which}`));
    }
    const holder = foolHolder(view);
    if (holder >= 0) {
      box.appendChild(make("div", "mt-risk gone", w("fool_out", { seat: ctx.seatLabel(holder, true) })));
    } else if (view.majors_left > 0 && view.phase !== "over") {
      const risk = make("div", `mt-risk${view.majors_left <= 5 ? " hot" : ""}`);
      risk.appendChild(card("T0", "xs"));
      risk.appendChild(make("span", "long", w("fool_risk", { n: view.majors_left })));
      risk.appendChild(make("span", "short", w("fool_risk_short", { n: view.majors_left })));
      box.appendChild(risk);
    }
    return box.childNodes.length ? box : null;
  }

  XLayouts.register(MT, {
    historyTitle() { return XI18n.get() === "ja" ? "購入の記録" : "Purchases"; },
    board(view, ctx, el) {
      const head = make("div", "mt-head");
      head.appendChild(infoLine(view));
      const warn = warnings(view, ctx);
      if (warn) head.appendChild(warn);
      el.appendChild(head);
      const top = make("div", "mt-top");
      top.appendChild(market(view, ctx));
      top.appendChild(piles(view, ctx));
      el.appendChild(top);
      const low = make("div", "mt-low");
      low.appendChild(deal(view, ctx));
      const rec = recent(view, ctx);
      if (rec) low.appendChild(rec);
      el.appendChild(low);
    },
    controls(view, ctx, el) {
      const drawn = new Set(ctx.legal.filter((a) => a.startsWith("buy ") || a.startsWith("draw ")));
      let text = null;
      if (view.phase === "draw") text = w("prompt_draw");
      else if (view.phase === "buy") text = ctx.legal.some((a) => a.startsWith("buy ")) ? w("prompt_buy") : w("prompt_buy_none");
      else if (view.phase === "pay" && view.buying) {
        text = w("prompt_pay", { major: `${view.buying.major} ${majorName(view.buying.major)}`, owed: view.buying.owed });
      }
      if (text) {
        const p = make("div", "mt-prompt", text);
        const hand = view.hand || [];
        if (hand.length) p.appendChild(make("span", "mt-handsum", ` (${w("hand_sum", { n: sum(hand) })})`));
        el.appendChild(p);
      }
      return drawn;
    },
    seatExtra(view, s, el, ctx) {
      XLayouts.generic.seatExtra(view, s, el);
      if (s === view.dealer) el.appendChild(make("span", "chip mt-dealer", w("dealer")));
      const won = byNumber(((view.won || [])[s]) || []);
      const sets = (((view.scores || {}).detail || {}).sets || [])[s] || [];
      if (won.includes("T0")) {
        const f = make("span", "chip warn mt-fool");
        f.appendChild(make("span", "", `${w("fool")} −5`));
        el.appendChild(f);
      }
      for (const st of SETS) {
        const have = st.need.filter((c) => won.includes(c));
        if (!have.length) continue;
        const done = sets.includes(st.en);
        // a set another seat holds a piece of is dead: not shown
        if (!done && (view.won || []).some((ws, o) => o !== s && st.need.some((c) => ws.includes(c)))) continue;
        const chip = make("span", `chip mt-setchip${done ? " done" : ""}`,
          `${ja() ? st.ja : st.en} ${have.length}/${st.need.length}${done ? " +5" : ""}`);
        chip.title = st.need.join(" + ");
        el.appendChild(chip);
      }
      if (won.length) {
        const row = make("span", "card-row mt-won");
        row.dataset.land = `won:${s}`; // a major bought lands before its buyer (motion.js)
        for (const c of won) row.appendChild(card(c, "xs"));
        el.appendChild(row);
      }
      const known = ((view.known_in_hands || [])[s]) || [];
      if (known.length) {
        const k = make("span", "mt-known");
        k.appendChild(make("span", "muted", `${w("known")}:`));
        k.title = w("known_title");
        k.appendChild(cardRow(known, "xs"));
        el.appendChild(k);
      }
    },
    history(view, ctx, el) {
      const list = view.purchases || [];
      if (list.length) {
        el.appendChild(make("h3", "mt-h", `${w("purchases")} (${list.length})`));
        const ol = make("ol", "rounds mt-history");
        list.slice().reverse().forEach((p, i) => {
          const li = make("li");
          li.appendChild(make("span", "n", `${list.length - i}.`));
          li.appendChild(purchaseLine(p, ctx, "xs"));
          ol.appendChild(li);
        });
        el.appendChild(ol);
      }
      const pile = view.discard || [];
      if (pile.length > 1) {
        el.appendChild(make("h3", "mt-h", `${w("discard_pile")} (${pile.length})`));
        el.appendChild(cardRow(pile, "xs", "mt-pile-all"));
      }
    },
    summary(view, ctx) {
      const sc = view.scores;
      if (!sc || !sc.final) return null;
      const d = sc.detail || {};
      const box = make("div", "summary-body mt-summary");
      const order = [...Array(view.players).keys()].sort((a, b) => sc.ranks[a] - sc.ranks[b] || a - b);
      const rows = order.map((s) => {
        const won = byNumber(((view.won || [])[s]) || []);
        const sets = (d.sets || [])[s] || [];
        const why = [w("n_majors", { n: won.length })];
        if ((d.fool || [])[s]) why.push(w("fool_pen"));
        for (const x of sets) why.push(w("set_bonus", { name: setName(x) }));
        return [
          String(sc.ranks[s]), ctx.seatLabel(s, true), cardRow(won, "xs"),
          why.join(" · "), sc.totals[s],
        ];
      });
      box.appendChild(XLayouts.grid(
        [XI18n.t("rank"), XI18n.t("seat"), w("majors"), w("why"), w("total")], rows, "summary"));
      return box;
    },
    handKey() { return null; },
    pauseKey(view) { return (view.purchases || []).length; },
    label(text) {
      const [verb, arg] = text.split(" ");
      if (text === "draw stock") return w("draw_stock");
      if (text === "draw discard") return w("draw_discard_top");
      if (text === "end") return w("end");
      if (verb === "buy" && arg) return w("buy", { card: arg, n: number(arg) });
      if (verb === "pay" && arg) return w("pay", { card: arg });
      return text;
    },
    phase(view) {
      const name = (w("phase") || {})[view.phase] || view.phase;
      if (view.phase === "pay" && view.buying) return `${name} ${view.buying.major} (${w("to_pay")} ${view.buying.owed})`;
      return view.last_turn ? `${name} · ${w("last_turn")}` : name;
    },
    cardsOf(text) { return text.startsWith("pay ") ? [text.slice(4)] : []; },
    sortHand(view, codes) {
      const key = (c) => {
        const p = XCards.parse(c);
        if (!p || p.major) return -1;
        return value(c) * 1000 + RANKS.indexOf(p.rank) * 10 + SUIT_ORDER.indexOf(p.suit);
      };
      return codes.slice().sort((a, b) => key(a) - key(b));
    },
  });
})();
