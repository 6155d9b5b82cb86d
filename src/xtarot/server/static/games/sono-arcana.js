// そのアルカナは欲しくない (I Don't Want That Arcana): the lot (競り札), the talisman
// stack, the round's cards around the table, each player's talismans.
"use strict";

(() => {
  const SA = "sono-arcana";
  XI18n.addGame(SA, {
    en: {
      phase: { lot: "the lot", bid: "the parent's bid", play: "playing", over: "over" },
      lot_1: "Stop here", lot_2: "Turn up one more",
      bid_up: "Bid face up", bid_down: "Bid face down", play: "Play",
      parent: "parent", lot: "The lot", stack: "talismans left",
      mode_up: "face up: follow the lead suit", mode_down: "face down: any card",
      final_round: "final round", round: "Round", won: "talismans",
      led: "lead suit", void: "void", face_down_card: "a card face down",
      up_points: "face up ×2", down_points: "face down ×−1", best: "best face up",
      total: "total", final: "Final result",
    },
    ja: {
      phase: { lot: "競り札めくり", bid: "親の入札", play: "入札中", over: "終了" },
      lot_1: "ここで止める", lot_2: "もう1枚めくる",
      bid_up: "表向きで入札", bid_down: "裏向きで入札", play: "出す",
      parent: "親", lot: "競りにかかる護符", stack: "山に残る護符",
      mode_up: "表向き：リードのスートに従う", mode_down: "裏向き：何でも可",
      final_round: "最終ラウンド", round: "ラウンド", won: "護符",
      led: "リードのスート", void: "無効", face_down_card: "裏向きのカード",
      up_points: "表 ×2", down_points: "裏 ×−1", best: "表の最大",
      total: "合計", final: "最終結果",
    },
  });
  const w = (key) => XI18n.g(SA, key);
  const { make, cardRow } = XLayouts;

  XLayouts.register(SA, {
    historyTitle() { return XI18n.get() === "ja" ? "これまでのラウンド" : "Rounds"; },
    board(view, ctx, el) {
      const top = make("div", "sa-top");
      const info = make("div", "sa-info");
      const round = make("div", "sa-round");
      round.textContent = `${w("round")} ${view.round}`;
      if (view.final_round) round.appendChild(make("span", "chip warn", w("final_round")));
      info.appendChild(round);
      if (view.parent !== null && view.parent !== undefined) {
        info.appendChild(make("div", "", `${w("parent")}: ${ctx.seatLabel(view.parent)}`));
      }
      if (view.mode) {
        info.appendChild(make("div", `sa-mode ${view.mode}`, w(view.mode === "up" ? "mode_up" : "mode_down")));
      }
      if (view.led_suit) {
        const led = make("div", "sa-led", `${w("led")}: `);
        const s = XCards.SUITS[view.led_suit];
        led.appendChild(make("strong", "", s ? s[XI18n.get()] : view.led_suit));
        info.appendChild(led);
      }
      top.appendChild(info);
      const lot = make("div", "sa-lot");
      lot.appendChild(make("div", "label", w("lot")));
      lot.appendChild(cardRow(view.lot || [], "l"));
      top.appendChild(lot);
      const stack = make("div", "sa-stack");
      stack.appendChild(XCards.svg(null, { size: "s", title: w("stack") }));
      stack.appendChild(make("div", "count", `${view.talismans_left}`));
      stack.appendChild(make("div", "label", w("stack")));
      top.appendChild(stack);
      el.appendChild(top);

      // the round's cards around the table; between rounds the last round stays shown
      const rounds = view.rounds || [];
      const tricks = rounds.map((r) => ({ leader: r.parent, cards: r.cards, winner: r.winner }));
      const trick = { leader: view.parent, cards: (view.table || []).map((p) => [p.seat, p.card]) };
      el.appendChild(XLayouts.trickRing(view, ctx, trick, tricks, { size: "m", cls: "sa-felt" }));
    },
    seatExtra(view, seat, el) {
      XLayouts.generic.seatExtra(view, seat, el);
      const won = (view.won || [])[seat] || [];
      const detail = (view.scores && view.scores.detail) || {};
      const down = new Set(((detail.face_down || [])[seat]) || []);
      if (won.length) {
        const row = make("span", "card-row won");
        row.dataset.land = `won:${seat}`; // the lot lands here (motion.js)
        for (const c of won) {
          const svg = XCards.svg(c, { size: "xs", title: XCards.name(c, XI18n.get()) });
          if (down.has(c)) svg.classList.add("clash");
          row.appendChild(svg);
        }
        el.appendChild(row);
      }
    },
    history(view, ctx, el) {
      const rounds = view.rounds || [];
      if (!rounds.length) return;
      const list = make("ol", "rounds");
      rounds.slice().reverse().forEach((r, i) => {
        const li = make("li", "round");
        li.appendChild(make("span", "n", `${rounds.length - i}.`));
        li.appendChild(cardRow(r.lot, "xs"));
        li.appendChild(make("span", `sa-mode ${r.mode}`, r.mode === "up" ? "▲" : "▼"));
        const voids = new Set((r.void || []).map((x) => (Array.isArray(x) ? x[1] : x)));
        for (const [seat, card] of r.cards) {
          const c = make("span", "played");
          c.appendChild(make("small", "", ctx.seatLabel(seat, true)));
          const svg = XCards.svg(card, { size: "xs" });
          if (voids.has(card)) svg.classList.add("void");
          c.appendChild(svg);
          li.appendChild(c);
        }
        li.appendChild(make("span", "chip win", `→ ${ctx.seatLabel(r.winner, true)}`));
        list.appendChild(li);
      });
      el.appendChild(list);
    },
    summary(view, ctx) {
      const sc = view.scores;
      if (!sc || !sc.final) return null;
      const d = sc.detail || {};
      const box = make("div", "summary-body");
      box.appendChild(make("h3", "", w("final")));
      const rows = [];
      for (let s = 0; s < view.players; s += 1) {
        const up = ((d.face_up || [])[s]) || [];
        const down = ((d.face_down || [])[s]) || [];
        rows.push([
          ctx.seatLabel(s, true),
          cardRow(up, "xs"), `${up.length}×2`,
          cardRow(down, "xs"), `${down.length}×−1`,
          (d.best_face_up || [])[s],
          sc.totals[s],
        ]);
      }
      box.appendChild(XLayouts.grid(
        [XI18n.t("seat"), w("up_points"), "", w("down_points"), "", w("best"), w("total")], rows,
        "summary"));
      return box;
    },
    handKey() { return null; },
    pauseKey(view) { return (view.rounds || []).length; },
    label(text) {
      const parts = text.split(" ");
      if (text === "lot 1") return w("lot_1");
      if (text === "lot 2") return w("lot_2");
      if (parts[0] === "bid") {
        const card = parts[2] === "?" ? "" : ` ${parts[2]}`;
        return `${w(parts[1] === "up" ? "bid_up" : "bid_down")}${card}`;
      }
      if (parts[0] === "play") return parts[1] === "?" ? `${w("play")}: ${w("face_down_card")}` : `${w("play")} ${parts[1]}`;
      return text;
    },
    phase(view) { return (w("phase") || {})[view.phase] || view.phase; },
    cardsOf(text) { return XCards.codesIn(text); },
  });
})();
