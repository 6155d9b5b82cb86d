// Moves the move clock made: when a player's clock runs out, a bot moves for them and
// the server marks that move's log entry ("clock": true).  The table says so once, and
// the move log marks such moves as the clock's, not the player's own.
"use strict";

const XClockMarks = (() => {
  let told = -1; // the latest clock move already announced

  XI18n.add({
    en: {
      clock_move: "clock",
      clock_move_help: "The move clock ran out: a bot made this move for the player",
      clock_played: "{who}'s clock ran out: a bot played for them ({move}).",
      clock_played_you: "Your clock ran out: a bot played for you ({move}).",
    },
    ja: {
      clock_move: "時間切れ",
      clock_move_help: "持ち時間が切れたため、ボットがこの手を代わりに指しました",
      clock_played: "{who}の持ち時間が切れたため、ボットが代わりに指しました（{move}）。",
      clock_played_you: "あなたの持ち時間が切れたため、ボットが代わりに指しました（{move}）。",
    },
  });

  // The table's word on the latest move, when the clock made it (once per move).
  function announce(msg, seat, say) {
    const log = msg.log || [];
    const e = log.length ? log[log.length - 1] : null;
    if (!e || !e.clock || e.n <= told) return;
    const first = told < 0 && e.n < msg.n - 1; // joining late: old news
    told = e.n;
    if (first) return;
    const layout = XLayouts.forGame(msg.view.game);
    const move = layout.label(e.text);
    say(e.seat === seat ? XI18n.t("clock_played_you", { move })
      : XI18n.t("clock_played", { who: XI18n.seatName(e.seat), move }), "info");
  }

  // A log line: the move is the clock's.
  function mark(li) {
    li.classList.add("by-clock");
    const chip = XLayouts.make("span", "chip clock-chip", `⏱ ${XI18n.t("clock_move")}`);
    chip.title = XI18n.t("clock_move_help");
    li.appendChild(chip);
  }

  return { announce, mark };
})();
