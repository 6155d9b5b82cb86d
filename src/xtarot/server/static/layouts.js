// Table layouts: a generic one that shows any game's view, and game-specific ones.
// A layout has board(view, ctx, el), and optionally seatExtra(view, seat, el),
// history(view, ctx, el) and label(action text) -> a friendlier button label.
"use strict";

const XLayouts = (() => {
  const COMMON = new Set([
    "game", "players", "seat", "phase", "current_player", "hand", "legal_actions", "scores",
  ]);

  function make(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function isCardList(value) {
    return Array.isArray(value) && value.length > 0 &&
      value.every((v) => v === null || XCards.parse(v) !== null);
  }

  function cardRow(codes, size) {
    const row = make("span", "card-row");
    for (const c of codes) row.appendChild(XCards.svg(c, { size: size || "s" }));
    return row;
  }

  // Any JSON value, with card codes drawn as cards (bounded in depth and length).
  function value(v, depth) {
    if (v === null || v === undefined) return make("span", "muted", "—");
    if (typeof v === "string") {
      return XCards.parse(v) ? XCards.svg(v, { size: "s" }) : make("span", "", v);
    }
    if (typeof v !== "object") return make("span", "", String(v));
    if (depth > 3) return make("span", "muted", "…");
    if (Array.isArray(v)) {
      if (v.length === 0) return make("span", "muted", "[]");
      if (isCardList(v)) return cardRow(v, "s");
      if (v.length <= 8 && v.every((x) => x === null || typeof x !== "object")) {
        const inline = make("span", "inline-list");
        for (const item of v) inline.appendChild(value(item, depth + 1));
        return inline;
      }
      const list = make("ol", "generic-list");
      for (const item of v.slice(0, 40)) {
        const li = make("li");
        li.appendChild(value(item, depth + 1));
        list.appendChild(li);
      }
      if (v.length > 40) list.appendChild(make("li", "muted", `… ${v.length - 40} more`));
      return list;
    }
    const dl = make("dl", "generic");
    for (const [k, item] of Object.entries(v)) {
      dl.appendChild(make("dt", "", k.replace(/_/g, " ")));
      const dd = make("dd");
      dd.appendChild(value(item, depth + 1));
      dl.appendChild(dd);
    }
    return dl;
  }

  const generic = {
    board(view, ctx, el) {
      const dl = make("dl", "generic top");
      for (const [k, v] of Object.entries(view)) {
        if (COMMON.has(k)) continue;
        dl.appendChild(make("dt", "", k.replace(/_/g, " ")));
        const dd = make("dd");
        dd.appendChild(value(v, 0));
        dl.appendChild(dd);
      }
      el.appendChild(dl);
    },
    seatExtra(view, seat, el) {
      const sizes = view.hand_sizes;
      if (Array.isArray(sizes) && typeof sizes[seat] === "number") {
        el.appendChild(make("span", "chip", `${sizes[seat]} ${XI18n.t("hand_sizes")}`));
      }
    },
    label(text) { return text; },
    // The card codes an action plays from the hand: a bid names a contract ("bid 9w" is
    // nine tricks in trees), not a card, unless a game's layout says otherwise.
    cardsOf(text) { return text.startsWith("bid ") ? [] : XCards.codesIn(text); },
  };

  // -- そのアルカナは欲しくない -------------------------------------------------------------
  const SA = "sono-arcana";
  const w = (key) => XI18n.g(SA, key);

  const sonoArcana = {
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
        const mode = make("div", `sa-mode ${view.mode}`, w(view.mode === "up" ? "mode_up" : "mode_down"));
        info.appendChild(mode);
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
      stack.appendChild(XCards.svg(null, { size: "m", title: w("stack") }));
      stack.appendChild(make("div", "count", `${view.talismans_left}`));
      stack.appendChild(make("div", "label", w("stack")));
      top.appendChild(stack);
      el.appendChild(top);

      const felt = make("div", "sa-felt");
      for (const played of view.table || []) {
        const spot = make("div", "sa-played");
        spot.appendChild(XCards.svg(played.card, { size: "m" }));
        spot.appendChild(make("div", "who", ctx.seatLabel(played.seat)));
        felt.appendChild(spot);
      }
      if (!(view.table || []).length) felt.appendChild(make("div", "muted", "·"));
      el.appendChild(felt);
    },
    seatExtra(view, seat, el) {
      generic.seatExtra(view, seat, el);
      const won = (view.won || [])[seat] || [];
      const detail = (view.scores && view.scores.detail) || {};
      const down = new Set(((detail.face_down || [])[seat]) || []);
      if (won.length) {
        const row = make("span", "card-row won");
        for (const c of won) {
          const svg = XCards.svg(c, { size: "xs" });
          if (down.has(c)) svg.classList.add("clash");
          row.appendChild(svg);
        }
        el.appendChild(row);
      }
    },
    history(view, ctx, el) {
      const rounds = view.rounds || [];
      if (!rounds.length) return;
      el.appendChild(make("h2", "", XI18n.t("history")));
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
        li.appendChild(make("span", "chip win", `→ ${ctx.seatLabel(r.winner)}`));
        list.appendChild(li);
      });
      el.appendChild(list);
    },
    label(text) {
      const parts = text.split(" ");
      if (text === "lot 1") return w("lot_1");
      if (text === "lot 2") return w("lot_2");
      if (parts[0] === "bid") return `${w(parts[1] === "up" ? "bid_up" : "bid_down")} ${parts[2]}`;
      if (parts[0] === "play") return `${w("play")} ${parts[1]}`;
      return text;
    },
    phase(view) { return (w("phase") || {})[view.phase] || view.phase; },
    cardsOf(text) { return XCards.codesIn(text); },
  };

  const LAYOUTS = { [SA]: sonoArcana };

  function forGame(game) {
    return Object.assign({}, generic, LAYOUTS[game] || {});
  }

  return { forGame, value, cardRow, make };
})();
