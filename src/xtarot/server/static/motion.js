// Cards that move: a card leaves the hand for the felt from where it was held, another
// seat's card comes in from that seat's side, and a finished trick slides to the seat
// that won it.  Only transforms and opacity are animated (Web Animations), so nothing
// is laid out differently and a click never waits for an animation; with the system's
// "reduce motion" setting nothing moves.
//
//   const before = XMotion.snapshot();  render();  XMotion.arrive(before);
//   XMotion.sweep()   the trick on the felt slides to its winner; returns the ms it takes
//
// Cards that land: a layout marks the places where cards are laid down and stay with
// data-land="<key>" (Grail Mahjong's melds and Lc area, Matto's majors in front of their
// buyer, the discard pile and the payment, Sono Arcana's talismans won).  A card new in
// such a place moves there from where it was seen before (the hand, the lot, a river,
// the field) or, never seen (another seat's hidden hand), grows in where it lands.
// And a layout's travels(prev, view, seat) names cards that go somewhere unseen: the
// kitty to Fairy 500's declarer ({from: "kitty", to: seat, count, cards}); the kitty's
// place is marked data-place="kitty".  These two move at the table's pace (fast, normal,
// slow) and not at all when the pace is "off" (the tests) or with reduced motion.
"use strict";

const XMotion = (() => {
  const ARRIVE_MS = 280;
  const SWEEP_MS = 260;
  // landing and travelling cards, by the table's pace
  const LAND_MS = { fast: 300, normal: 450, slow: 650 };

  function still() {
    return !window.matchMedia || window.matchMedia("(prefers-reduced-motion: reduce)").matches ||
      typeof Element.prototype.animate !== "function";
  }

  function centre(rect) { return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }; }

  // how long a card lands or travels; 0: not at all (pace "off", reduced motion)
  function landMs() {
    if (still() || typeof XPace === "undefined") return 0;
    return LAND_MS[XPace.get()] || 0;
  }

  // The cards in landing places ("key|code") and where every card on the table was.
  function landing() {
    const placed = new Set();
    document.querySelectorAll("[data-land]").forEach((zone) => {
      zone.querySelectorAll("svg.xcard[data-card]").forEach((svg) => {
        if (svg.dataset.card) placed.add(`${zone.dataset.land}|${svg.dataset.card}`);
      });
    });
    const seenAt = new Map();
    const note = (code, el) => {
      if (!code || seenAt.has(code)) return;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) seenAt.set(code, r);
    };
    document.querySelectorAll("#hand button.card[data-card]").forEach((b) => note(b.dataset.card, b));
    document.querySelectorAll("#board svg.xcard[data-card], #seats svg.xcard[data-card]").forEach((svg) => {
      note(svg.dataset.card, svg);
    });
    const places = new Map();
    document.querySelectorAll("[data-place]").forEach((el) => {
      places.set(el.dataset.place, el.getBoundingClientRect());
    });
    return { placed, seenAt, places };
  }

  // A played card's place on the felt: its seat's spot and its order there.
  function boardKey(svg, i) {
    const spot = svg.closest("[data-seat]");
    return `${spot ? spot.dataset.seat : "-"}:${svg.dataset.card || "?"}:${i}`;
  }

  function boardCards() {
    const out = new Map();
    document.querySelectorAll("#board .slot").forEach((slot) => {
      slot.querySelectorAll("svg.xcard").forEach((svg, i) => out.set(boardKey(svg, i), svg));
    });
    return out;
  }

  // The cards moving now, so that a drawing of the same state (the hint arriving, a seat
  // connecting) goes on moving the new element from where the old one was.
  let flights = [];

  // el.animate, kept in flights: find() finds the card again after a drawing.
  function animate(el, find, frames, options) {
    el.animate(frames, options);
    flights.push({ find, frames, options, start: performance.now() });
  }

  // After a drawing of the same state: the cards still on their way go on moving.
  function resume() {
    const now = performance.now();
    flights = flights.filter((f) => now < f.start + (f.options.delay || 0) + f.options.duration);
    for (const f of flights) {
      const el = f.find();
      if (!el || el.getAnimations().length) continue;
      el.animate(f.frames, f.options).currentTime = now - f.start;
    }
  }

  // the card with this code inside the element matching sel
  const finder = (sel, code) => () => (code ? document.querySelector(`${sel} [data-card="${CSS.escape(code)}"]`) : null);

  // Where the cards are before a new state is drawn.
  function snapshot() {
    flights = []; // a new state: what moved on the last one is done
    if (still()) return null;
    const hand = new Map();
    document.querySelectorAll("#hand button.card[data-card]").forEach((b) => {
      hand.set(b.dataset.card, b.getBoundingClientRect());
    });
    const board = new Set();
    document.querySelectorAll("#board svg.xcard[data-card]").forEach((svg) => {
      if (svg.dataset.card) board.add(svg.dataset.card);
    });
    return { hand, board, slots: new Set(boardCards().keys()), land: landing() };
  }

  // Never outside the page's width (a card passing beyond it would make the page
  // scroll sideways for the moment it moves).
  function inside(el, dx) {
    const r = el.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    return Math.max(-r.left, Math.min(width - r.right, dx));
  }

  function fly(el, dx, dy, fade) {
    const from = { transform: `translate(${inside(el, dx)}px, ${dy}px)${fade ? " scale(0.7)" : ""}` };
    if (fade) from.opacity = 0.2;
    animate(el, finder("#board", el.dataset.card || ""), [from, { transform: "none", opacity: 1 }],
      { duration: ARRIVE_MS, easing: "ease-out" });
  }

  // After drawing: cards new on the felt move in, from the hand (this seat's) or from
  // their seat's side of the table (the others').
  function arrive(before) {
    if (!before || still()) return;
    const handNow = new Set([...document.querySelectorAll("#hand button.card[data-card]")].map((b) => b.dataset.card));
    // this seat's cards that left the hand and are now on the felt
    for (const [code, rect] of before.hand) {
      if (handNow.has(code) || before.board.has(code)) continue;
      const el = document.querySelector(`#board svg.xcard[data-card="${CSS.escape(code)}"]`);
      if (!el) continue;
      const from = centre(rect);
      const to = centre(el.getBoundingClientRect());
      fly(el, from.x - to.x, from.y - to.y, false);
      el.dataset.moved = "1";
    }
    // the other seats' cards played on the ring
    for (const [key, el] of boardCards()) {
      if (before.slots.has(key) || el.dataset.moved) continue;
      const spot = el.closest(".spot");
      const ring = el.closest(".ring");
      if (!spot || !ring || spot.classList.contains("me")) continue;
      // from the seat's side of the felt
      const s = centre(spot.getBoundingClientRect());
      const r = centre(ring.getBoundingClientRect());
      const d = Math.hypot(s.x - r.x, s.y - r.y) || 1;
      fly(el, ((s.x - r.x) / d) * 40, ((s.y - r.y) / d) * 40, true);
    }
    land(before);
  }

  // From a rectangle to an element: moved and scaled from there to its place.
  // scale: the size it starts at (default: the size it had there, a card's rectangle)
  function flip(el, from, ms, delay, find, scale) {
    const to = el.getBoundingClientRect();
    if (!to.width || !to.height) return;
    const a = centre(from);
    const b = centre(to);
    const k = scale || Math.max(0.3, Math.min(3, from.width / to.width));
    animate(el, find,
      [{ transform: `translate(${inside(el, a.x - b.x)}px, ${a.y - b.y}px) scale(${k})` },
        { transform: "none" }],
      { duration: ms, delay: delay || 0, easing: "ease-out", fill: "backwards" },
    );
    el.dataset.landed = "1";
  }

  // A card nobody saw before grows in where it lands.
  function grow(el, ms, delay, find) {
    animate(el, find,
      [{ transform: "scale(0.4)", opacity: 0 }, { transform: "none", opacity: 1 }],
      { duration: ms, delay: delay || 0, easing: "ease-out", fill: "backwards" },
    );
    el.dataset.landed = "1";
  }

  // Cards new in a landing place come from where they were seen, or grow in.
  function land(before) {
    const ms = landMs();
    if (!ms || !before.land) return;
    const { placed, seenAt } = before.land;
    document.querySelectorAll("[data-land]").forEach((zone) => {
      let i = 0;
      zone.querySelectorAll("svg.xcard[data-card]").forEach((svg) => {
        const code = svg.dataset.card;
        if (!code || placed.has(`${zone.dataset.land}|${code}`)) return;
        const from = seenAt.get(code);
        const find = finder(`[data-land="${CSS.escape(zone.dataset.land)}"]`, code);
        if (from) flip(svg, from, ms, i * 60, find);
        else grow(svg, ms, i * 60, find);
        i += 1;
      });
    });
  }

  // Where a seat is on screen now: its place on the felt, else its seat box.
  function seatRect(seat) {
    const sel = [`#board .spot[data-seat="${seat}"]`, `#board [data-seat="${seat}"]`, `#seats .seat-box[data-seat="${seat}"]`];
    for (const s of sel) {
      const el = document.querySelector(s);
      if (!el) continue;
      const r = el.getBoundingClientRect();
      if (r.width && r.bottom > 0 && r.top < innerHeight) return r;
    }
    return null;
  }

  // A card drawn for the moment it travels (it has no element of its own on the way).
  function ghost(code, from, to, ms, delay) {
    const svg = XCards.svg(code || null, { size: "s" });
    svg.classList.add("ghost-card");
    const w = 40;
    const h = 60;
    const a = centre(from);
    const b = centre(to);
    Object.assign(svg.style, {
      position: "fixed", left: `${a.x - w / 2}px`, top: `${a.y - h / 2}px`, width: `${w}px`,
      height: `${h}px`, zIndex: 40, pointerEvents: "none",
    });
    document.body.appendChild(svg);
    const anim = svg.animate(
      [{ transform: "none", opacity: 1 },
        { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.7)`, opacity: 0.3 }],
      { duration: ms, delay, easing: "ease-in-out", fill: "both" },
    );
    anim.onfinish = () => svg.remove();
    anim.oncancel = () => svg.remove();
    return svg;
  }

  // What the layout says went somewhere unseen (the kitty to the declarer): to this
  // seat, its cards come from there into the hand; to another seat, card backs travel
  // from there to its place.
  function travel(before, layout, prev, view, seat) {
    const ms = landMs();
    if (!ms || !before || !before.land || !layout || !layout.travels) return;
    let moves = [];
    try { moves = layout.travels(prev, view, seat) || []; } catch (e) { moves = []; }
    for (const m of moves) {
      const from = before.land.places.get(m.from);
      if (!from) continue;
      if (m.to === seat && Array.isArray(m.cards)) {
        m.cards.forEach((code, i) => {
          const b = document.querySelector(`#hand button.card[data-card="${CSS.escape(code)}"]`);
          // from a pile (not a card's rectangle): small, growing into the hand
          const find = () => document.querySelector(`#hand button.card[data-card="${CSS.escape(code)}"]`);
          if (b) flip(b, from, ms, i * 80, find, 0.4);
        });
        continue;
      }
      const to = seatRect(m.to);
      if (!to) continue;
      for (let i = 0; i < (m.count || 0); i += 1) ghost(null, from, to, ms, i * 80);
    }
  }

  // The finished trick slides to its winner's place and fades; the next state is drawn
  // when it is done.
  function sweep() {
    if (still()) return 0;
    const ring = document.querySelector("#board .ring");
    const win = ring && ring.querySelector(".spot.win");
    if (!win) return 0;
    const to = centre(win.getBoundingClientRect());
    const cards = ring.querySelectorAll(".slot svg.xcard");
    if (!cards.length) return 0;
    cards.forEach((el) => {
      const c = centre(el.getBoundingClientRect());
      el.animate(
        [{ transform: "none", opacity: 1 },
          { transform: `translate(${inside(el, to.x - c.x)}px, ${to.y - c.y}px) scale(0.6)`, opacity: 0 }],
        { duration: SWEEP_MS, easing: "ease-in", fill: "forwards" },
      );
    });
    return SWEEP_MS;
  }

  return { snapshot, arrive, sweep, still, travel, resume };
})();
