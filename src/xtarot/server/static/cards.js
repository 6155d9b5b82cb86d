// xtarot card faces, drawn as SVG from the card code (docs/cards.md).
// Suit cards: rank + suit letter (c cups, d coins, s swords, w trees); majors: T0..T23;
// Oc is Grail Mahjong's wild cup.  A null code draws a card back (a face-down card).
"use strict";

const XCards = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SUITS = {
    c: { en: "cups", ja: "聖杯", colour: "#b3261e" },
    d: { en: "coins", ja: "金貨", colour: "#b3261e" },
    s: { en: "swords", ja: "魔剣", colour: "#1d1d1f" },
    w: { en: "trees", ja: "聖樹", colour: "#1d1d1f" },
  };
  const RANK_NAMES = {
    M: "M", N: "N", A: "A", R: "R", E: "E", B: "B", L: "L", W: "W",
    J: "J", C: "C", Q: "Q", K: "K", F: "F", O: "O",
  };
  const ROMAN = ["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
    "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII", "XXIII"];
  const CODE = /^(?:T(\d{1,2})|(10|[2-9]|[MNARBELWJCQKFO])([cdsw]))$/;

  function parse(code) {
    if (typeof code !== "string") return null;
    const m = CODE.exec(code);
    if (!m) return null;
    if (m[1] !== undefined) return { code, major: true, number: Number(m[1]) };
    return { code, major: false, rank: m[2], suit: m[3] };
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  // One suit symbol centred on (x, y), scale s (1 = about 14 units wide).
  function symbol(suit, x, y, s, parent) {
    const g = el("g", { transform: `translate(${x} ${y}) scale(${s})` }, parent);
    const fill = SUITS[suit].colour;
    if (suit === "c") {
      // a chalice: bowl, stem, foot
      el("path", { d: "M-7,-7 H7 C7,1 3,3 0,3 C-3,3 -7,1 -7,-7 Z", fill }, g);
      el("rect", { x: -1.2, y: 3, width: 2.4, height: 3, fill }, g);
      el("path", { d: "M-5,8 H5 L3,6 H-3 Z", fill }, g);
    } else if (suit === "d") {
      // a coin: ring with a star-like cross
      el("circle", { cx: 0, cy: 0, r: 7, fill }, g);
      el("circle", { cx: 0, cy: 0, r: 4.6, fill: "none", stroke: "#fff", "stroke-width": 1.2 }, g);
      el("path", { d: "M0,-3 L1,0 L0,3 L-1,0 Z M-3,0 L0,-1 L3,0 L0,1 Z", fill: "#fff" }, g);
    } else if (suit === "s") {
      // a sword point-up: blade, guard, grip, pommel
      el("path", { d: "M0,-9 L2,-6 V3 H-2 V-6 Z", fill }, g);
      el("rect", { x: -5.5, y: 3, width: 11, height: 2, rx: 1, fill }, g);
      el("rect", { x: -1, y: 5, width: 2, height: 3, fill }, g);
      el("circle", { cx: 0, cy: 8.8, r: 1.4, fill }, g);
    } else {
      // a tree: three tiers of leaves and a trunk
      el("path", { d: "M0,-9 L5,-3 H-5 Z M0,-6 L6.5,1 H-6.5 Z M0,-2 L8,5 H-8 Z", fill }, g);
      el("rect", { x: -1.3, y: 5, width: 2.6, height: 4, fill }, g);
    }
    return g;
  }

  function text(parent, x, y, str, attrs) {
    const t = el("text", Object.assign({ x, y, "text-anchor": "middle" }, attrs || {}), parent);
    t.textContent = str;
    return t;
  }

  // The SVG element of one card; opts.size sets a CSS class (s, m, l).
  function svg(code, opts) {
    const o = opts || {};
    const root = el("svg", {
      viewBox: "0 0 60 90",
      class: `xcard ${o.size || "m"}`,
      role: "img",
    });
    el("rect", { x: 1, y: 1, width: 58, height: 88, rx: 5, class: "xcard-edge" }, root);
    const card = parse(code);
    if (!card) {
      // card back: a lattice in the project's colours
      el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "#36307a" }, root);
      for (let i = 0; i < 6; i += 1) {
        el("path", {
          d: `M${4 + i * 10},4 L${56},${56 - i * 10} M4,${14 + i * 12} L${46 - i * 7},86`,
          stroke: "#8f86e6", "stroke-width": 0.8, fill: "none",
        }, root);
      }
      el("circle", { cx: 30, cy: 45, r: 9, fill: "#f2c14e" }, root);
      el("title", {}, root).textContent = o.title || "face down";
      root.dataset.card = "";
      return root;
    }
    root.dataset.card = card.code;
    el("title", {}, root).textContent = o.title || card.code;
    if (o.size === "xs") return mini(root, card);
    if (card.major) {
      el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "#2a2466" }, root);
      el("rect", {
        x: 8, y: 8, width: 44, height: 74, rx: 2, fill: "none", stroke: "#f2c14e",
        "stroke-width": 1,
      }, root);
      // a small eight-pointed star
      el("path", {
        d: "M30,22 L32,28 L38,30 L32,32 L30,38 L28,32 L22,30 L28,28 Z",
        fill: "#f2c14e",
      }, root);
      text(root, 30, 60, String(card.number), {
        "font-size": 22, "font-weight": 700, fill: "#fff", "font-family": "Georgia, serif",
      });
      text(root, 30, 76, ROMAN[card.number] || "", {
        "font-size": 9, fill: "#f2c14e", "font-family": "Georgia, serif",
      });
      return root;
    }
    const colour = SUITS[card.suit].colour;
    el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "#fffdf6" }, root);
    const rank = RANK_NAMES[card.rank] || card.rank;
    const font = { fill: colour, "font-weight": 700, "font-family": "Helvetica, Arial, sans-serif" };
    text(root, 12, 19, rank, Object.assign({ "font-size": rank.length > 1 ? 11 : 13 }, font));
    symbol(card.suit, 12, 29, 0.55, root);
    const back = el("g", { transform: "rotate(180 30 45)" }, root);
    text(back, 12, 19, rank, Object.assign({ "font-size": rank.length > 1 ? 11 : 13 }, font));
    symbol(card.suit, 12, 29, 0.55, back);
    symbol(card.suit, 31, 45, 1.35, root);
    if (card.code === "Oc") {
      el("circle", { cx: 31, cy: 45, r: 15, fill: "none", stroke: "#f2c14e", "stroke-width": 2 },
        root);
    }
    return root;
  }

  // A small card (logs, melds, rivers, summaries): only the rank and the suit, large
  // enough to read at 20-odd pixels wide, toward the left so that a fan of small cards
  // (each over the next) still shows them.
  function mini(root, card) {
    const font = { "font-weight": 700, "font-family": "Helvetica, Arial, sans-serif" };
    if (card.major) {
      el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "#2a2466" }, root);
      const n = String(card.number);
      text(root, n.length > 1 ? 25 : 22, 52, n, Object.assign({ "font-size": n.length > 1 ? 28 : 36, fill: "#fff" }, font));
      el("rect", { x: 8, y: 66, width: 30, height: 3, rx: 1.5, fill: "#f2c14e" }, root);
      return root;
    }
    el("rect", { x: 4, y: 4, width: 52, height: 82, rx: 3, fill: "#fffdf6" }, root);
    const rank = RANK_NAMES[card.rank] || card.rank;
    const colour = SUITS[card.suit].colour;
    text(root, rank.length > 1 ? 25 : 22, 40, rank, Object.assign({ "font-size": rank.length > 1 ? 28 : 36, fill: colour }, font));
    symbol(card.suit, 22, 64, 1.4, root);
    if (card.code === "Oc") {
      el("circle", { cx: 22, cy: 64, r: 14, fill: "none", stroke: "#f2c14e", "stroke-width": 2.5 }, root);
    }
    return root;
  }

  // A suit symbol on its own (for labels such as a bidding grid's column heads).
  function suitIcon(suit, opts) {
    const o = opts || {};
    const root = el("svg", { viewBox: "-10 -10 20 20", class: `suit-icon ${o.cls || ""}`.trim(), role: "img" });
    if (o.title) el("title", {}, root).textContent = o.title;
    symbol(suit, 0, 0, 1, root);
    return root;
  }

  function name(code, lang) {
    const card = parse(code);
    if (!card) return String(code);
    if (card.major) return lang === "ja" ? `大アルカナ ${card.number}` : `major ${card.number}`;
    const suit = SUITS[card.suit];
    return lang === "ja" ? `${suit.ja}の${card.rank}` : `${card.rank} of ${suit.en}`;
  }

  // Split a text into card codes and the rest (for action texts like "bid up Kc").
  function codesIn(str) {
    return String(str).split(/\s+/).filter((w) => parse(w) !== null);
  }

  // A hand this long or shorter is one overlapping row on a phone (style.css, .hand.fan):
  // at the table and in replays.
  const FAN_MAX = 14;

  return { svg, parse, name, codesIn, suitIcon, SUITS, FAN_MAX };
})();
