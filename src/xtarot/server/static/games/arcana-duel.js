// アルカナデュエル (Arcana Duel): two fields of five slots (the opponent's on top, yours
// at the bottom; your own face-down cards shown marked as face-down), the points piles,
// the stock, and between them the attack being built (cards, power, target) or the last
// fight (power against defence, who won, what moved).  Field cards are the attack
// composer: click your cards to add them (`attack X`), then an enemy face-up card
// (`at X`) or the enemy's face-down cards (`at down`); the defender clicks one of their
// face-down cards (`defend X`).  Every fight is in history().
"use strict";

(() => {
  const AD = "arcana-duel";
  XI18n.addGame(AD, {
    en: {
      phase: {
        setup: "set-up", refill: "refill", refill_again: "refill again", attack: "attack",
        defend: "defence", reset: "after the Fool: lay 5", over: "over",
      },
      place: "lay {c} face down", place_hidden: "lays a card face down",
      attack: "attack with {c}", at: "target {c}", at_down: "target a face-down card",
      defend: "defend with {c}", end: "end attacks",
      full: "attack with {cards} at {target}", a_face_down: "a face-down card",
      turn: "Turn {n}", attacker: "attacker", first: "first attacker", stock: "stock",
      field: "field", points: "points", hand: "hand {n}", field_n: "field {n}",
      down_mark: "face down", down_short: "down", attacked: "attacked this turn",
      forming: "{seat} attacks", power: "power", vs: "vs",
      choose_target: "choose a target", choosing_target: "choosing a target…", target_down: "→ a face-down card: the defender picks",
      target_card: "→ {c}",
      last_fight: "Last fight", back_to_attack: "Current attack",
      fight_head: "Turn {n} · {seat} attacks",
      res_attacker: "{seat} wins: takes {cards} into the points pile",
      res_defender: "{seat} wins: takes {cards} into the points pile",
      res_tie: "Tie: nothing moves",
      res_fool: "Both fields go to their owners' points piles; both draw and lay 5",
      fool_att: "The Fool attacks!", fool_def: "The Fool defends!",
      no_fight: "No fight yet",
      h_takes: "→ {seat} takes {cards}", h_tie: "tie", h_fool: "fields swept",
      lost: "lost this turn: {n}", attacks: "attacks: {n}",
      do_setup: "Lay 5 of your 8 cards face down as your field: click hand cards ({n}/5 laid).",
      do_refill: "Refill your field to 5: click hand cards to lay them face down.",
      do_reset: "After the Fool: lay 5 cards face down again.",
      do_attack: "Click your field cards to attack with them (their power adds up), then an enemy card or the enemy's face-down cards.",
      do_attack_more: "Attack again with cards that have not attacked, or end your attacks.",
      do_target: "Power {p}: add more of your cards, or click the target — an enemy face-up card or the face-down ones.",
      do_defend: "{seat} attacks a face-down card with power {p}: click the face-down card that defends.",
      wait_setup: "{seat} lays the field face down.",
      wait_refill: "{seat} refills the field.",
      end_annihilation: "Annihilation: {seat} wiped out the enemy field and wins",
      end_stock: "Stock out: {a} to {b} cards",
      end_wins: "{seat} wins", end_draw: "a draw",
      by_attack: "attacking", by_defence: "defending", by_fool: "Fool", total: "total",
      legend: "attacking: defending cards taken; defending: attacking cards taken; Fool: own field swept into the pile",
      final: "Final result", pile: "points pile", result: "result",
      win: "win", lose: "loss", draw: "draw",
      why_annihilation: "annihilation wins whatever the piles hold",
      why_stock: "the stock ran out: the larger points pile wins",
      seen_down: "{n} face down",
    },
    ja: {
      phase: {
        setup: "準備", refill: "補充", refill_again: "再補充", attack: "攻撃",
        defend: "防御", reset: "愚者の後の再配置", over: "終了",
      },
      place: "{c} を裏向きに置く", place_hidden: "カードを裏向きに置く",
      attack: "{c} で攻撃", at: "目標: {c}", at_down: "目標: 裏向きのカード",
      defend: "{c} で防御", end: "攻撃終了",
      full: "{cards} で {target} を攻撃", a_face_down: "裏向きのカード",
      turn: "第{n}手番", attacker: "攻撃側", first: "先攻", stock: "山札",
      field: "場", points: "得点", hand: "手札 {n}", field_n: "場 {n}",
      down_mark: "裏向き", down_short: "伏", attacked: "この手番で攻撃済み",
      forming: "{seat}の攻撃", power: "戦闘力", vs: "対",
      choose_target: "目標を選んでください", choosing_target: "目標を選択中…", target_down: "→ 裏向きのカード（防御側が選ぶ）",
      target_card: "→ {c}",
      last_fight: "直前の戦闘", back_to_attack: "現在の攻撃",
      fight_head: "第{n}手番 · {seat}の攻撃",
      res_attacker: "{seat}の勝ち: {cards} を得点に",
      res_defender: "{seat}の勝ち: {cards} を得点に",
      res_tie: "引き分け: 何も動きません",
      res_fool: "両者の場のカードはすべて自分の得点に。両者5枚引いて置き直します",
      fool_att: "愚者（マット）で攻撃!", fool_def: "愚者（マット）で防御!",
      no_fight: "まだ戦闘はありません",
      h_takes: "→ {seat}が {cards} を獲得", h_tie: "引き分け", h_fool: "両者の場→得点",
      lost: "この手番で失った枚数: {n}", attacks: "攻撃回数: {n}",
      do_setup: "8枚のうち5枚を裏向きに場に置きます。手札をクリック（{n}/5枚）。",
      do_refill: "場を5枚に補充します。手札をクリックして裏向きに置いてください。",
      do_reset: "愚者の後: もう一度5枚を裏向きに置きます。",
      do_attack: "攻撃に使う場のカードをクリック（戦闘力は合計されます）。次に相手の表向きのカードか、裏向きのカードを目標に。",
      do_attack_more: "まだ攻撃していないカードで再び攻撃するか、攻撃を終えます。",
      do_target: "戦闘力 {p}: カードを追加するか、目標（相手の表向きのカード、または裏向きのカード）をクリック。",
      do_defend: "{seat}が戦闘力 {p} で裏向きのカードを攻撃: 防御する裏向きのカードをクリック。",
      wait_setup: "{seat}が場にカードを伏せています。",
      wait_refill: "{seat}が場を補充しています。",
      end_annihilation: "全滅: {seat}が相手の場を全滅させて勝利",
      end_stock: "山札切れ: 得点 {a} 対 {b}",
      end_wins: "{seat}の勝ち", end_draw: "引き分け",
      by_attack: "攻撃", by_defence: "防御", by_fool: "愚者", total: "合計",
      legend: "攻撃: 倒した防御カード / 防御: 奪った攻撃カード / 愚者: 自分の場から得点へ",
      final: "最終結果", pile: "得点", result: "結果",
      win: "勝ち", lose: "負け", draw: "引き分け",
      why_annihilation: "全滅させた側が得点に関係なく勝利",
      why_stock: "山札切れ: 得点の多い側の勝ち",
      seen_down: "裏向き{n}枚",
    },
  });
  const w = (key, vars) => XI18n.g(AD, key, vars);
  const { make, cardRow } = XLayouts;

  // Power: pips, A = 1, J C Q K = 10, majors their number.
  function power(code) {
    const c = XCards.parse(code);
    if (!c) return 0;
    if (c.major) return c.number;
    if (c.rank === "A") return 1;
    if ("JCQK".includes(c.rank)) return 10;
    return Number(c.rank) || 0;
  }

  // "good" when a beats b, "even" on a tie, "bad" otherwise (the clicker's view)
  const compare = (a, b) => (a > b ? "good" : a === b ? "even" : "bad");
  // the badge of a card that may meet the attack: the Fool resets instead of fighting
  const outcomeOf = (code, a, b) => (code === "T0" ? "fool" : compare(a, b));

  const cardName = (c) => XCards.name(c, XI18n.get());
  const isSet = (x) => x !== null && x !== undefined;

  function seats(view, ctx) {
    const me = isSet(ctx.seat) ? ctx.seat : 0;
    return { me, opp: 1 - me };
  }

  // One field card: the face (or a back), a power badge, marks for "attacked",
  // "in the attack now", "face down but known".  Clickable when action is legal.
  function fieldCard(ctx, code, opts) {
    const o = opts || {};
    const face = XCards.svg(code, { size: "m", title: code ? cardName(code) : w("a_face_down") });
    const inner = make("span", "ad-face");
    inner.appendChild(face);
    if (code) {
      const badge = make("span", "ad-pow", String(power(code)));
      if (o.outcome) badge.classList.add(o.outcome);
      inner.appendChild(badge);
    }
    if (o.down) {
      const mark = make("span", "ad-down-mark");
      mark.appendChild(make("span", "long", w("down_mark")));
      mark.appendChild(make("span", "short", w("down_short")));
      inner.appendChild(mark);
    }
    let el;
    if (o.action && ctx.legal.includes(o.action)) {
      el = XLayouts.actionButton(ctx, o.action, inner, "ad-slot ad-pick");
      el.title = ctx.label(o.action).replace(/\S+/g, (x) => (XCards.parse(x) ? cardName(x) : x));
    } else {
      el = make("span", "ad-slot");
      el.appendChild(inner);
    }
    if (o.down) el.classList.add("ad-known-down");
    if (o.attacked) { el.classList.add("ad-used"); el.title = w("attacked"); }
    if (o.inAttack) el.classList.add("ad-in-attack");
    return el;
  }

  function emptySlot() {
    const el = make("span", "ad-slot ad-empty");
    el.appendChild(make("span", "ad-empty-card"));
    return el;
  }

  // A seat's field: face-up cards, then the face-down ones, then empty slots to five.
  function field(view, ctx, s, mine) {
    const f = (view.fields || [])[s] || { face_up: [], face_down: 0 };
    const box = make("div", "ad-field");
    const attack = view.attack && view.attack.cards ? view.attack : null;
    const inAttack = new Set(attack ? attack.cards : []);
    const myAttack = ctx.myTurn && view.phase === "attack" && view.attacker === ctx.seat;
    const targetPower = attack && attack.cards.length ? attack.power : undefined;
    let n = 0;
    for (const e of f.face_up || []) {
      let action = null;
      let outcome;
      if (s === ctx.seat && myAttack) action = `attack ${e.card}`;
      if (s !== ctx.seat && myAttack && attack && attack.cards.length) {
        action = `at ${e.card}`;
        // what this target would do against the attack: good when the attack wins
        if (ctx.legal.includes(action)) outcome = outcomeOf(e.card, targetPower, power(e.card));
      }
      box.appendChild(fieldCard(ctx, e.card, {
        action, outcome, attacked: e.attacked && !inAttack.has(e.card), inAttack: inAttack.has(e.card),
      }));
      n += 1;
    }
    const known = mine ? (f.face_down_cards || []) : null;
    if (known && known.length) {
      for (const c of known) {
        let action = null;
        let outcome;
        if (myAttack) action = `attack ${c}`;
        if (view.phase === "defend" && ctx.myTurn) {
          action = `defend ${c}`;
          // this defender against the attack: good when it holds
          if (ctx.legal.includes(action) && attack) outcome = outcomeOf(c, power(c), attack.power);
        }
        box.appendChild(fieldCard(ctx, c, { action, down: true, outcome }));
        n += 1;
      }
    } else if (f.face_down) {
      // the enemy's (or a spectator's view of) face-down cards: backs, one target
      const downs = [];
      for (let i = 0; i < f.face_down; i += 1) {
        const slot = make("span", "ad-slot");
        const inner = make("span", "ad-face");
        inner.appendChild(XCards.svg(null, { size: "m", title: w("a_face_down") }));
        slot.appendChild(inner);
        downs.push(slot);
      }
      const action = "at down";
      let group;
      if (s !== ctx.seat && myAttack && ctx.legal.includes(action)) {
        const inner = make("span", "ad-downs-in");
        for (const d of downs) inner.appendChild(d);
        group = XLayouts.actionButton(ctx, action, inner, "ad-downs ad-pick");
        group.title = ctx.label(action);
      } else {
        group = make("span", "ad-downs");
        for (const d of downs) group.appendChild(d);
      }
      if (view.phase === "defend" && attack && attack.target === "down" && s !== view.attacker) {
        group.classList.add("ad-targeted");
      }
      box.appendChild(group);
      n += f.face_down;
    }
    for (; n < 5; n += 1) box.appendChild(emptySlot());
    return box;
  }

  // A points pile: the count, the cards seen face up (fanned), the face-down ones.
  function pile(view, s) {
    const p = (view.points || [])[s] || { count: 0, cards: [], face_down: 0 };
    const box = make("div", "ad-pile");
    const head = make("div", "ad-pile-head");
    head.appendChild(make("span", "label", w("points")));
    head.appendChild(make("strong", "ad-count", String(p.count)));
    box.appendChild(head);
    const fan = make("div", "ad-fan");
    for (const c of p.cards || []) fan.appendChild(XCards.svg(c, { size: "xs", title: cardName(c) }));
    if (p.face_down) {
      const d = make("span", "ad-fan-down");
      d.appendChild(XCards.svg(null, { size: "xs", title: w("seen_down", { n: p.face_down }) }));
      d.appendChild(make("span", "", `×${p.face_down}`));
      fan.appendChild(d);
    }
    box.appendChild(fan);
    return box;
  }

  function sideHead(view, ctx, s) {
    const head = make("div", "ad-side-head");
    const name = make("span", "ad-name", ctx.seatLabel(s, true));
    if (s === view.current_player && view.phase !== "over") name.classList.add("acting");
    head.appendChild(name);
    if (s === view.attacker && view.phase !== "over") head.appendChild(make("span", "ad-tag att", `⚔ ${w("attacker")}`));
    const hs = (view.hand_sizes || [])[s];
    if (isSet(hs)) head.appendChild(make("span", "ad-tag", w("hand", { n: hs })));
    return head;
  }

  function side(view, ctx, s, mine, cls) {
    const box = make("div", `ad-side ${cls}`);
    box.dataset.seat = String(s);
    const row = make("div", "ad-row");
    row.appendChild(field(view, ctx, s, mine));
    row.appendChild(pile(view, s));
    const head = sideHead(view, ctx, s);
    if (cls === "top") { box.appendChild(head); box.appendChild(row); } else { box.appendChild(row); box.appendChild(head); }
    return box;
  }

  // What moved in a fight, as a sentence.
  function resultText(c, ctx, short) {
    const def = 1 - c.attacker;
    if (short) {
      if (c.result === "attacker") return w("h_takes", { seat: ctx.seatLabel(c.attacker, true), cards: c.defence || "" });
      if (c.result === "defender") return w("h_takes", { seat: ctx.seatLabel(def, true), cards: c.cards.join(" ") });
      if (c.result === "tie") return w("h_tie");
      return `${w(c.cards.includes("T0") ? "fool_att" : "fool_def")} ${w("h_fool")}`;
    }
    if (c.result === "attacker") return w("res_attacker", { seat: ctx.seatLabel(c.attacker, true), cards: c.defence || "" });
    if (c.result === "defender") return w("res_defender", { seat: ctx.seatLabel(def, true), cards: c.cards.join(" ") });
    if (c.result === "tie") return w("res_tie");
    return `${w(c.cards.includes("T0") ? "fool_att" : "fool_def")} ${w("res_fool")}`;
  }

  // One fight, drawn: attack cards and power against the defending card and power.
  function fightRow(c, ctx, size) {
    const row = make("div", `ad-fight res-${c.result}`);
    const att = make("span", "ad-fight-side att");
    att.appendChild(cardRow(c.cards, size));
    att.appendChild(make("strong", "ad-power", String(c.power)));
    row.appendChild(att);
    row.appendChild(make("span", "ad-vs", "⚔"));
    const def = make("span", "ad-fight-side def");
    if (c.target === "down") def.appendChild(make("span", "ad-down-note", "▼"));
    if (c.defence) {
      def.appendChild(make("strong", "ad-power", String(c.defence_power)));
      def.appendChild(cardRow([c.defence], size));
    } else {
      def.appendChild(make("span", "muted", c.target === "down" ? w("a_face_down") : c.target));
    }
    row.appendChild(def);
    if (c.result === "attacker") att.classList.add("won");
    if (c.result === "defender") def.classList.add("won");
    return row;
  }

  function endBanner(view, ctx) {
    const sc = view.scores || {};
    const d = sc.detail || {};
    if (!sc.final) return null;
    const box = make("div", "ad-end");
    if (d.end === "annihilation") {
      box.textContent = w("end_annihilation", { seat: ctx.seatLabel(d.annihilation, true) });
    } else {
      const pts = d.points || sc.totals || [];
      const { me, opp } = seats(view, ctx);
      const who = (sc.winners || []).length === 1 ? w("end_wins", { seat: ctx.seatLabel(sc.winners[0], true) }) : w("end_draw");
      box.textContent = `${w("end_stock", { a: pts[me], b: pts[opp] })} — ${who}`;
    }
    return box;
  }

  // The middle of the table: the attack being built, or the last fight.
  function centre(view, ctx) {
    const box = make("div", "ad-centre");
    const banner = endBanner(view, ctx);
    if (banner) box.appendChild(banner);
    const combats = view.combats || [];
    const last = combats.length ? combats[combats.length - 1] : null;
    const attack = view.attack && view.attack.cards && view.attack.cards.length ? view.attack : null;
    const review = attack && last && ctx.ui.showLast;
    if (attack && !review) {
      const f = make("div", "ad-forming");
      f.appendChild(make("div", "ad-fight-head", w("forming", { seat: ctx.seatLabel(view.attacker, true) })));
      const row = make("div", "ad-fight");
      const att = make("span", "ad-fight-side att");
      att.appendChild(cardRow(attack.cards, "s"));
      att.appendChild(make("span", "ad-power-label", w("power")));
      att.appendChild(make("strong", "ad-power", String(attack.power)));
      row.appendChild(att);
      const tgt = make("span", "ad-target");
      if (attack.target === "down") tgt.textContent = w("target_down");
      else if (attack.target) tgt.appendChild(XLayouts.richLabel(w("target_card", { c: attack.target }), "s"));
      else tgt.textContent = w(ctx.myTurn ? "choose_target" : "choosing_target");
      row.appendChild(tgt);
      f.appendChild(row);
      box.appendChild(f);
    } else if (last) {
      const f = make("div", `ad-last${review ? " reviewing" : ""}`);
      f.appendChild(make("div", "ad-fight-head", `${w("last_fight")} · ${w("fight_head", { n: last.turn, seat: ctx.seatLabel(last.attacker, true) })}`));
      f.appendChild(fightRow(last, ctx, "s"));
      const res = make("div", `ad-result res-${last.result}`);
      res.appendChild(XLayouts.richLabel(resultText(last, ctx), "xs"));
      f.appendChild(res);
      box.appendChild(f);
    } else if (!banner) {
      box.appendChild(make("div", "ad-none muted", w("no_fight")));
    }
    if (attack && last) {
      const btn = make("button", "small ad-review", review ? w("back_to_attack") : w("last_fight"));
      btn.type = "button";
      btn.addEventListener("click", () => { ctx.ui.showLast = !ctx.ui.showLast; ctx.rerender(); });
      box.appendChild(btn);
    }
    return box;
  }

  function infoBar(view, ctx) {
    const bar = make("div", "ad-info");
    if (view.phase !== "setup") bar.appendChild(make("span", "ad-turn", w("turn", { n: view.turn })));
    const stock = make("span", "ad-stock");
    stock.appendChild(XCards.svg(null, { size: "xs", title: w("stock") }));
    stock.appendChild(make("span", "", `${w("stock")} `));
    stock.appendChild(make("strong", "", String(view.stock_left)));
    bar.appendChild(stock);
    if (isSet(view.first_attacker)) {
      bar.appendChild(make("span", "ad-meta", `${w("first")}: ${ctx.seatLabel(view.first_attacker, true)}`));
    }
    if (view.phase !== "setup" && view.phase !== "over") {
      if (view.attacks_made) bar.appendChild(make("span", "ad-meta", w("attacks", { n: view.attacks_made })));
      if (view.lost_this_turn) bar.appendChild(make("span", "ad-meta warn", w("lost", { n: view.lost_this_turn })));
    }
    return bar;
  }

  // The sentence telling the player (or the watcher) what happens now.
  function instruction(view, ctx) {
    const who = ctx.seatLabel(view.current_player, true);
    const attack = view.attack && view.attack.cards && view.attack.cards.length ? view.attack : null;
    if (view.phase === "over") return null;
    if (!ctx.myTurn) {
      if (view.phase === "setup") return w("wait_setup", { seat: who });
      if (view.phase === "refill" || view.phase === "reset") return w("wait_refill", { seat: who });
      return null;
    }
    if (view.phase === "setup") {
      const f = (view.fields || [])[ctx.seat] || {};
      return w("do_setup", { n: (f.face_down || 0) + (f.face_up || []).length });
    }
    if (view.phase === "refill") return w("do_refill");
    if (view.phase === "reset") return w("do_reset");
    if (view.phase === "defend") return w("do_defend", { seat: ctx.seatLabel(view.attacker, true), p: attack ? attack.power : "?" });
    if (view.phase === "attack") {
      if (attack) return w("do_target", { p: attack.power });
      return view.attacks_made ? w("do_attack_more") : w("do_attack");
    }
    return null;
  }

  XLayouts.register(AD, {
    historyTitle() { return XI18n.get() === "ja" ? "戦闘の記録" : "Fights"; },
    board(view, ctx, el) {
      const { me, opp } = seats(view, ctx);
      const root = make("div", "ad-board");
      root.appendChild(infoBar(view, ctx));
      root.appendChild(side(view, ctx, opp, opp === ctx.seat, "top"));
      root.appendChild(centre(view, ctx));
      root.appendChild(side(view, ctx, me, me === ctx.seat, "bottom"));
      el.appendChild(root);
    },

    controls(view, ctx, el) {
      const text = instruction(view, ctx);
      if (text) el.appendChild(make("div", "ad-instruction", text));
      // the field cards on the board are the pickers: those actions need no buttons
      const drawn = new Set();
      const board = document.getElementById("board");
      if (board) board.querySelectorAll("[data-action]").forEach((b) => drawn.add(b.dataset.action));
      return drawn;
    },

    seatExtra(view, s, el, ctx) {
      if (s === view.attacker && view.phase !== "over") el.appendChild(make("span", "chip ad-chip-att", `⚔ ${w("attacker")}`));
      const hs = (view.hand_sizes || [])[s];
      if (isSet(hs)) el.appendChild(make("span", "chip", w("hand", { n: hs })));
      const f = (view.fields || [])[s];
      if (f) el.appendChild(make("span", "chip", w("field_n", { n: (f.face_up || []).length + (f.face_down || 0) })));
      const p = (view.points || [])[s];
      if (p) el.appendChild(make("span", "chip win", `${w("points")} ${p.count}`));
    },

    label(text) {
      const parts = String(text).split(" ");
      const verb = parts[0];
      if (verb === "place") return parts[1] === "?" ? w("place_hidden") : w("place", { c: parts[1] });
      if (verb === "defend") return w("defend", { c: parts[1] });
      if (text === "end") return w("end");
      if (text === "at down") return w("at_down");
      if (verb === "at") return w("at", { c: parts[1] });
      if (verb === "attack") {
        const i = parts.indexOf("at");
        if (i < 0) return w("attack", { c: parts.slice(1).join(" ") });
        const target = parts[i + 1] === "down" ? w("a_face_down") : parts[i + 1];
        return w("full", { cards: parts.slice(1, i).join(" "), target });
      }
      return text;
    },

    phase(view) {
      const words = w("phase") || {};
      if (view.phase === "refill" && view.attacks_made) return words.refill_again;
      return words[view.phase] || XI18n.phase(view.phase);
    },

    cardsOf(text) {
      // only "place" plays a hand card; attack / at / defend name field cards
      return String(text).startsWith("place ") ? XCards.codesIn(text) : [];
    },

    sortHand(view, codes) {
      return codes.slice().sort((a, b) => power(b) - power(a) || (a < b ? -1 : a > b ? 1 : 0));
    },

    summary(view, ctx) {
      const sc = view.scores;
      if (!sc || !sc.final) return null;
      const d = sc.detail || {};
      const box = make("div", "summary-body ad-summary");
      box.appendChild(make("h3", "", w("final")));
      const banner = endBanner(view, ctx);
      if (banner) box.appendChild(banner);
      box.appendChild(make("p", "muted", d.end === "annihilation" ? w("why_annihilation") : w("why_stock")));
      // where each pile came from: fights won attacking, fights won defending, the
      // Fool's sweeps of the own field (the rest of the pile)
      const att = [0, 0];
      const def = [0, 0];
      for (const c of view.combats || []) {
        if (c.result === "attacker") att[c.attacker] += 1;
        if (c.result === "defender") def[1 - c.attacker] += c.cards.length;
      }
      // one column per seat (narrow enough for the side panel)
      const head = [""];
      const rows = [[w("by_attack")], [w("by_defence")], [w("by_fool")], [w("total")], [w("result")]];
      for (let s = 0; s < view.players; s += 1) {
        head.push(ctx.seatLabel(s, true));
        const p = (view.points || [])[s] || { count: 0 };
        const won = (sc.winners || []).includes(s);
        const res = won ? ((sc.winners || []).length > 1 ? w("draw") : w("win")) : w("lose");
        rows[0].push(`+${att[s]}`);
        rows[1].push(`+${def[s]}`);
        rows[2].push(`+${p.count - att[s] - def[s]}`);
        rows[3].push(p.count);
        rows[4].push(make("strong", won ? "ad-won" : "", res));
      }
      box.appendChild(XLayouts.grid(head, rows, "summary ad-sum"));
      box.appendChild(make("p", "muted ad-legend", w("legend")));
      return box;
    },

    handKey() { return null; },
    pauseKey(view) { return (view.combats || []).length; },

    history(view, ctx, el) {
      const combats = view.combats || [];
      if (!combats.length) return;
      const list = make("ol", "rounds ad-history");
      combats.slice().reverse().forEach((c, i) => {
        const li = make("li", `round res-${c.result}`);
        li.appendChild(make("span", "n", `${combats.length - i}.`));
        li.appendChild(make("small", "muted", `${w("turn", { n: c.turn })} ${ctx.seatLabel(c.attacker, true)}`));
        li.appendChild(fightRow(c, ctx, "xs"));
        const res = make("span", `ad-hres res-${c.result}`);
        res.appendChild(XLayouts.richLabel(resultText(c, ctx, true), "xs"));
        li.appendChild(res);
        list.appendChild(li);
      });
      el.appendChild(list);
    },
  });
})();
