// Grail Mahjong's claim windows where "pass" is the only legal answer are answered for
// the player (the setting "Pass for me…", on by default).  The answer goes after a
// random delay in the range of a real decision, so the other seats — who see who has
// answered, never what — cannot tell from the timing that this seat had no choice.
"use strict";

const XAutoPass = (() => {
  const MIN_MS = 1000;
  const SPREAD_MS = 2200;
  let timer = null;
  let forN = null;

  XI18n.add({
    en: { autopass_note: "You cannot claim this discard: passing for you…" },
    ja: { autopass_note: "この捨て札は鳴けません: 自動でパスします…" },
  });

  function cancel() {
    clearTimeout(timer);
    timer = null;
    forN = null;
  }

  function passOnly(msg, seat) {
    const v = msg.view;
    const legal = v.legal_actions || [];
    return seat !== null && !msg.finished && !msg.synthetic && v.game === "grail-mahjong" &&
      v.phase === "claim" && v.current_player === seat && legal.length === 1 && legal[0] === "pass";
  }

  // Called with every drawn state; act(n) answers "pass" for position n (it checks
  // that the table is still there).  Returns true while a pass is on its way.
  function consider(msg, seat, act) {
    if (!passOnly(msg, seat) || !XSettings.autopass()) {
      if (forN !== msg.n) cancel();
      return false;
    }
    if (forN === msg.n && timer) return true;
    cancel();
    forN = msg.n;
    const n = msg.n;
    timer = setTimeout(() => { timer = null; act(n); }, MIN_MS + Math.random() * SPREAD_MS);
    return true;
  }

  return { consider, cancel };
})();
