// Table layouts: the registry, a generic fallback that shows any game's view, and the
// building blocks every game's table uses (card rows, the ring of seats around the
// felt, labels with cards drawn in).  Each game registers its own layout from
// static/games/<id>.js:
//
//   XLayouts.register("fairy500", {
//     board(view, ctx, el)        the felt: trick, melds, market... (required)
//     seatExtra(view, s, el, ctx) a few chips in seat s's box (tricks won, points...)
//     controls(view, ctx, el)     custom action pickers (a bidding grid, the attack
//                                 composer); returns the Set of action texts it drew, the
//                                 other non-card actions become plain buttons
//     label(text)                 an action as people read it, in XI18n.get()'s language;
//                                 card codes left in the string are drawn as cards
//     phase(view)                 the phase's name
//     cardsOf(text)               card codes in the hand that this action plays
//     sortHand(view, codes)       the hand in the order a player keeps it
//     summary(view, ctx)          the last finished hand / the final result with its
//                                 score breakdown (an element), or null
//     handKey(view)               a value that changes when a new hand starts
//     history(view, ctx, el)      the match so far (shown in a scrolling box)
//     historyTitle()              that box's title (default "History")
//     travels(prev, view, seat)   cards that went somewhere unseen since the last
//                                 view (Fairy 500's kitty to the declarer), for motion.js
//   });
//
// A place where cards are laid down and stay (melds, a seat's majors or talismans)
// carries data-land="<key>": motion.js moves a card new there from where it was seen.
//
// ctx (built by table.js on every render): { seat (mine or null), seatLabel(s, short),
// legal (action texts), myTurn, act(text), hint (action text or null), ui (an object
// that keeps a layout's own UI state between renders, e.g. "show the last trick"),
// rerender() }.  Every clickable legal move carries data-action="<text>" so tests and
// people find it the same way.
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

  function cardRow(codes, size, cls) {
    const row = make("span", `card-row${cls ? ` ${cls}` : ""}`);
    for (const c of codes) {
      row.appendChild(XCards.svg(c, { size: size || "s", title: c ? XCards.name(c, XI18n.get()) : undefined }));
    }
    return row;
  }

  // A label with the card codes in it drawn as small cards ("play Kc" -> "play [K]").
  function richLabel(text, size) {
    const out = make("span", "rich");
    const words = String(text).split(" ");
    let buf = [];
    const flush = () => {
      if (buf.length) out.appendChild(make("span", "", buf.join(" ")));
      buf = [];
    };
    for (const w of words) {
      const code = w.split("=")[0];
      if (XCards.parse(code)) {
        flush();
        out.appendChild(XCards.svg(code, { size: size || "xs", title: XCards.name(code, XI18n.get()) }));
        if (w.includes("=")) buf.push(`=${w.split("=")[1]}`);
      } else {
        buf.push(w);
      }
    }
    flush();
    return out;
  }

  // Any JSON value, with card codes drawn as cards (bounded in depth and length).
  function value(v, depth) {
    if (v === null || v === undefined) return make("span", "muted", "—");
    if (typeof v === "string") {
      return XCards.parse(v) ? XCards.svg(v, { size: "s" }) : make("span", "", v);
    }
    if (typeof v !== "object") return make("span", "", String(v));
    if (depth > 5) return make("span", "muted", "…");
    if (Array.isArray(v)) {
      if (v.length === 0) return make("span", "muted", "[]");
      if (isCardList(v)) return cardRow(v, "s");
      if (v.length <= 8 && v.every((x) => x === null || typeof x !== "object")) {
        const inline = make("span", "inline-list");
        for (const item of v) inline.appendChild(value(item, depth + 1));
        return inline;
      }
      const list = make("ol", "generic-list");
      const shown = v.slice(-12);
      if (v.length > 12) list.appendChild(make("li", "muted", `… ${v.length - 12}`));
      for (const item of shown) {
        const li = make("li");
        li.appendChild(value(item, depth + 1));
        list.appendChild(li);
      }
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

  // Where seat s sits around the felt, as percentages: the viewer at the bottom, the
  // following seats clockwise (left, top, right for four players).
  function place(s, n, me) {
    const k = (s - (me === null || me === undefined ? 0 : me) + n) % n;
    const phi = (2 * Math.PI * k) / n;
    return { x: 50 - 40 * Math.sin(phi), y: 50 + 36 * Math.cos(phi), k };
  }

  // The ring: one spot per seat around the felt, each with the seat's name and what
  // it put on the table.  plays: [[seat, code-or-null], ...] (null: a face-down card).
  // opts: { center: element, winner: seat, leader: seat, current: seat,
  //         note: {seat: text}, size: "m", caption: text, cls: extra class }
  function ring(view, ctx, plays, opts) {
    const o = opts || {};
    const n = view.players;
    const box = make("div", `ring ring-${n}${o.cls ? ` ${o.cls}` : ""}`);
    box.dataset.players = String(n);
    const bySeat = new Map();
    for (const [s, c] of plays || []) {
      if (!bySeat.has(s)) bySeat.set(s, []);
      bySeat.get(s).push(c);
    }
    for (let s = 0; s < n; s += 1) {
      const p = place(s, n, ctx.seat);
      const spot = make("div", "spot");
      spot.style.left = `${p.x}%`;
      spot.style.top = `${p.y}%`;
      spot.dataset.seat = String(s);
      if (s === ctx.seat) spot.classList.add("me");
      if (s === o.current) spot.classList.add("acting");
      if (s === o.winner) spot.classList.add("win");
      const name = make("div", "who", ctx.seatLabel(s, true));
      if (s === o.leader) name.appendChild(make("span", "lead-mark", " ▸"));
      const cards = bySeat.get(s) || [];
      const slot = make("div", "slot");
      if (cards.length) {
        for (const c of cards) {
          slot.appendChild(XCards.svg(c, { size: o.size || "m", title: c ? XCards.name(c, XI18n.get()) : undefined }));
        }
      } else {
        slot.appendChild(make("div", "empty-slot"));
      }
      const note = o.note && o.note[s];
      if (p.y < 50) { spot.appendChild(name); spot.appendChild(slot); } else { spot.appendChild(slot); spot.appendChild(name); }
      if (note) spot.appendChild(make("div", "note", note));
      box.appendChild(spot);
    }
    const center = make("div", "ring-center");
    if (o.caption) center.appendChild(make("div", "caption", o.caption));
    if (o.center) center.appendChild(o.center);
    box.appendChild(center);
    return box;
  }

  // A trick on the ring, or (between tricks) the last one with its winner, plus a
  // "last trick" toggle for reviewing it.  trick: {leader, cards: [[seat, code]...]};
  // tricks: the finished ones, each with .winner.  opts as ring(); opts.winning: the
  // seat winning the current trick so far (shown on its spot).
  function trickRing(view, ctx, trick, tricks, opts) {
    const o = Object.assign({}, opts || {});
    const done = tricks || [];
    const last = done.length ? done[done.length - 1] : null;
    const current = (trick && trick.cards) || [];
    const review = ctx.ui.showLast && last;
    let plays = current;
    if (review || (!current.length && last)) {
      plays = last.cards;
      o.winner = last.winner;
      o.leader = last.leader;
      o.caption = `${XI18n.t("last_trick")} → ${ctx.seatLabel(last.winner, true)}`;
      o.cls = `${o.cls || ""} showing-last`;
    } else {
      o.leader = trick ? trick.leader : undefined;
      if (o.winning !== undefined && o.winning !== null && current.length) {
        o.winner = o.winning;
        o.note = Object.assign({}, o.note || {}, { [o.winning]: XI18n.t("winning") });
      }
    }
    o.current = view.current_player;
    const el = ring(view, ctx, plays, o);
    if (last && current.length) {
      const btn = make("button", "small last-toggle", XI18n.t(review ? "back_to_trick" : "last_trick"));
      btn.type = "button";
      btn.addEventListener("click", () => { ctx.ui.showLast = !ctx.ui.showLast; ctx.rerender(); });
      el.appendChild(btn);
    }
    return el;
  }

  // A button for one legal action (data-action set; hinted when the bots suggest it).
  function actionButton(ctx, action, label, cls) {
    const b = make("button", `action${cls ? ` ${cls}` : ""}`);
    b.type = "button";
    b.dataset.action = action;
    if (typeof label === "string") b.appendChild(richLabel(label));
    else if (label) b.appendChild(label);
    if (ctx.hint === action) b.classList.add("hinted");
    b.addEventListener("click", () => ctx.act(action));
    return b;
  }

  // A small titled block on the felt.
  function block(title, cls) {
    const box = make("div", `felt-block${cls ? ` ${cls}` : ""}`);
    if (title) box.appendChild(make("div", "label", title));
    return box;
  }

  // A table of numbers: head (strings) and rows (arrays of strings/numbers/elements).
  function grid(head, rows, cls) {
    const table = make("table", `mini${cls ? ` ${cls}` : ""}`);
    if (head) {
      const tr = make("tr");
      for (const h of head) tr.appendChild(make("th", "", h));
      table.appendChild(tr);
    }
    for (const row of rows) {
      const tr = make("tr");
      for (const cell of row) {
        const td = make("td", typeof cell === "number" ? "num" : "");
        if (cell instanceof Node) td.appendChild(cell);
        else td.textContent = cell === null || cell === undefined ? "—" : String(cell);
        tr.appendChild(td);
      }
      table.appendChild(tr);
    }
    return table;
  }

  function fmt(x) {
    if (typeof x !== "number") return String(x);
    const r = Math.round(x * 100) / 100;
    return r > 0 ? `+${r}` : String(r);
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
        el.appendChild(make("span", "chip", XI18n.cards(sizes[seat])));
      }
    },
    label(text) { return text; },
    phase(view) { return XI18n.phase(view.phase); },
    // The card codes an action plays from the hand: a bid names a contract ("bid 9w" is
    // nine tricks in trees), not a card, unless a game's layout says otherwise.
    cardsOf(text) { return text.startsWith("bid ") ? [] : XCards.codesIn(text); },
    sortHand(view, codes) { return codes; },
    summary() { return null; },
    handKey(view) { return view.hand_number === undefined ? null : view.hand_number; },
  };

  const LAYOUTS = {};

  function register(game, layout) { LAYOUTS[game] = layout; }

  function forGame(game) {
    return Object.assign({}, generic, LAYOUTS[game] || {});
  }

  function has(game) { return Object.prototype.hasOwnProperty.call(LAYOUTS, game); }

  // The rules dialog of the table and replay pages (#rules-dialog): the game's rules
  // summary in the page's language, as HTML the server renders from our own rules text.
  async function showRules(game, name) {
    const $ = (id) => document.getElementById(id);
    const dialog = $("rules-dialog");
    $("rules-title").textContent = XI18n.t("game_rules", { game: name });
    $("rules-body").textContent = "…";
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
    try {
      const res = await fetch(`api/games/${encodeURIComponent(game)}/rules?lang=${XI18n.get()}`);
      const body = await res.json();
      $("rules-body").innerHTML = body.html; // rendered on the server from our own rules text
      // the table page's words for people at the browser (rulesweb.js), where loaded
      if (typeof XRulesWeb !== "undefined") XRulesWeb.dress(game, $("rules-body"));
    } catch (e) {
      $("rules-body").textContent = XI18n.t("error");
    }
  }

  return {
    forGame, register, has, showRules, generic, value, cardRow, richLabel, make, ring, trickRing,
    actionButton, block, grid, fmt, place,
  };
})();
