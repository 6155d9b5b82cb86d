// Cards that move: a card leaves the hand for the felt from where it was held, another
// seat's card comes in from that seat's side, and a finished trick slides to the seat
// that won it.  Only transforms and opacity are animated (Web Animations), so nothing
// is laid out differently and a click never waits for an animation; with the system's
// "reduce motion" setting nothing moves.
//
//   const before = XMotion.snapshot();  render();  XMotion.arrive(before);
//   XMotion.sweep()   the trick on the felt slides to its winner; returns the ms it takes
"use strict";

const XMotion = (() => {
  const ARRIVE_MS = 280;
  const SWEEP_MS = 260;

  function still() {
    return !window.matchMedia || window.matchMedia("(prefers-reduced-motion: reduce)").matches ||
      typeof Element.prototype.animate !== "function";
  }

  function centre(rect) { return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }; }

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

  // Where the cards are before a new state is drawn.
  function snapshot() {
    if (still()) return null;
    const hand = new Map();
    document.querySelectorAll("#hand button.card[data-card]").forEach((b) => {
      hand.set(b.dataset.card, b.getBoundingClientRect());
    });
    const board = new Set();
    document.querySelectorAll("#board svg.xcard[data-card]").forEach((svg) => {
      if (svg.dataset.card) board.add(svg.dataset.card);
    });
    return { hand, board, slots: new Set(boardCards().keys()) };
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
    el.animate([from, { transform: "none", opacity: 1 }], { duration: ARRIVE_MS, easing: "ease-out" });
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

  return { snapshot, arrive, sweep, still };
})();
