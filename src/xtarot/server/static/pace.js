// The table's pace: the states the server sends go through a small queue, so that a
// finished trick (a round, a fight, a purchase, a meld) stays on the felt for the time
// the viewer chose before the next state is drawn, even when a bot moves on at once;
// and the hand's last trick is seen before the hand's summary covers it.  The server's
// protocol is unchanged: this only decides *when* each state is drawn.
//
//   const q = XPace.queue({ show(msg, at, opts), layout(msg), sweep() });
//   q.push(msg)     a state message arrived
//   q.release()     this seat acted: stop holding, draw what came at once
//
// A layout may say what counts as a finished trick and how the hand's last move looks:
//   pauseKey(view)              changes when a trick/round/fight... is complete
//   finalView(view, entry)      the view just before a hand change with the log entry
//                               of the move that ended the hand drawn in (or null)
// opts given to show(): { quiet: true } while the hand summary must wait, { moment:
// "pause" | "final" } when that state is held.
"use strict";

const XPace = (() => {
  // hold: how long a finished trick stays; gap: between two queued states when the
  // table runs behind the server (e.g. after a hold, while bots play on)
  const PACES = {
    fast: { hold: 700, gap: 120 },
    normal: { hold: 1500, gap: 250 },
    slow: { hold: 3000, gap: 450 },
    off: { hold: 0, gap: 0 }, // no holding at all (the browser tests use it)
  };
  const KEY = "xtarot.pace";
  const CHOICES = ["fast", "normal", "slow"];
  // a queue longer than this (a tab in the background, a reconnection) jumps to the end
  const CATCH_UP = 6;

  function get() {
    let p = null;
    try { p = localStorage.getItem(KEY); } catch (e) { /* storage disabled */ }
    return Object.prototype.hasOwnProperty.call(PACES, p) ? p : "normal";
  }
  function set(p) {
    if (!Object.prototype.hasOwnProperty.call(PACES, p)) return;
    try { localStorage.setItem(KEY, p); } catch (e) { /* storage disabled */ }
  }
  function timing() { return PACES[get()]; }

  function queue(hooks) {
    const items = []; // {msg, at}
    let shown = null; // the message drawn last
    let holdUntil = 0;
    let timer = null;
    let heldKind = null; // the moment the drawn message is held for

    // What the step from the drawn message to the next one is: a hand (or the match)
    // ending ("final"), a trick complete ("pause") or nothing to wait for (null).
    function moment(prev, next) {
      if (!prev || !prev.view || !next.view || prev.view.game !== next.view.game) return null;
      if (next.n <= prev.n) return null; // the same position again (a reconnection)
      const layout = hooks.layout(next);
      const handOf = (m) => layout.handKey(m.view);
      if ((next.finished && !prev.finished) || handOf(prev) !== handOf(next)) return "final";
      if (!layout.pauseKey) return null;
      return layout.pauseKey(prev.view) !== layout.pauseKey(next.view) ? "pause" : null;
    }

    // The hand's last move drawn on the hand that it ended (from the drawn view and the
    // log entry of that move, both this seat's own), or null when the layout has none.
    function finalMessage(prev, next) {
      const layout = hooks.layout(next);
      const log = next.log || [];
      const entry = log.length ? log[log.length - 1] : null;
      if (!layout.finalView || !entry || entry.n !== prev.n || next.n !== prev.n + 1) return null;
      let view = null;
      try { view = layout.finalView(JSON.parse(JSON.stringify(prev.view)), entry); } catch (e) { view = null; }
      if (!view) return null;
      view.legal_actions = [];
      return Object.assign({}, prev, { view, log, clock: null, synthetic: true });
    }

    function draw(msg, at, opts) {
      shown = msg;
      heldKind = (opts && opts.moment) || null;
      hooks.show(msg, at, opts || {});
    }

    function pump() {
      clearTimeout(timer);
      timer = null;
      while (items.length) {
        const now = Date.now();
        if (now < holdUntil) {
          timer = setTimeout(pump, holdUntil - now);
          return;
        }
        if (heldKind === "pause" && hooks.sweep) {
          heldKind = null; // the held trick slides to its winner first
          const ms = hooks.sweep();
          if (ms) { holdUntil = now + ms; continue; }
        }
        if (items.length > CATCH_UP) items.splice(0, items.length - 1);
        const { msg, at, after } = items.shift();
        const t = timing();
        const kind = t.hold && !after ? moment(shown, msg) : null;
        if (kind === "final") {
          const last = finalMessage(shown, msg);
          if (last) {
            draw(last, at, { moment: "final" });
          } else {
            draw(msg, at, { moment: "final", quiet: true });
          }
          // the summary (or the next deal) waits for the hold: put it back first
          items.unshift({ msg, at, after: true });
          holdUntil = Date.now() + t.hold;
          continue;
        }
        draw(msg, at, kind ? { moment: kind } : {});
        if (kind) holdUntil = Date.now() + t.hold;
        else if (items.length) holdUntil = Date.now() + t.gap;
      }
    }

    return {
      push(msg) {
        items.push({ msg, at: Date.now() });
        pump();
      },
      // This seat moved: what it sees next is the answer to its own move.
      release() {
        holdUntil = 0;
        pump();
      },
      // Still holding something back (for tests and the "Last trick" button).
      get behind() { return items.length; },
    };
  }

  // finalView for trick games (view.trick = {cards: [[seat, code], ...]}): the card of
  // the move that ended the hand, added to the trick it completed.
  function trickFinal(view, entry) {
    const codes = XCards.codesIn(entry.text);
    if (!view.trick || !Array.isArray(view.trick.cards) || codes.length !== 1) return null;
    view.trick.cards.push([entry.seat, codes[0]]);
    return view;
  }

  return { queue, get, set, timing, trickFinal, CHOICES, PACES };
})();
