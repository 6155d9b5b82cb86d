// The table's settings menu (#settings in the header): the sound on your turn, the
// pace (how long a finished trick stays on the felt, pace.js) and, where the game has
// them, automatic answers (Grail Mahjong's pass-only claim windows, autopass.js).
// Each choice is kept in this browser (localStorage).
"use strict";

const XSettings = (() => {
  const $ = (id) => document.getElementById(id);
  const AUTOPASS = "xtarot.autopass";

  XI18n.add({
    en: {
      settings: "Settings", pace: "Pace", pace_fast: "Fast", pace_normal: "Normal",
      pace_slow: "Slow", autopass: "Pass for me when pass is my only answer",
      pace_help: "How long a finished trick stays on the table",
    },
    ja: {
      settings: "設定", pace: "進行速度", pace_fast: "速い", pace_normal: "ふつう",
      pace_slow: "ゆっくり", autopass: "パスしかできない鳴きは自動でパス",
      pace_help: "終わったトリックを卓に残す時間",
    },
  });

  function autopass() {
    try { return localStorage.getItem(AUTOPASS) !== "0"; } catch (e) { return true; }
  }

  function translate() {
    const pace = $("pace");
    if (!pace) return;
    const current = XPace.get();
    pace.textContent = "";
    for (const p of XPace.CHOICES) {
      const opt = document.createElement("option");
      opt.value = p;
      opt.textContent = XI18n.t(`pace_${p}`);
      pace.appendChild(opt);
    }
    // "off" (no holding, for tests) is kept but not offered
    if (!XPace.CHOICES.includes(current)) {
      const opt = document.createElement("option");
      opt.value = current;
      opt.textContent = current;
      pace.appendChild(opt);
    }
    pace.value = current;
    pace.title = XI18n.t("pace_help");
  }

  // game: the table's game (some settings are for one game only)
  function init(game) {
    const pace = $("pace");
    if (pace && !pace.dataset.ready) {
      pace.dataset.ready = "1";
      pace.addEventListener("change", () => XPace.set(pace.value));
    }
    const box = $("autopass");
    if (box && !box.dataset.ready) {
      box.dataset.ready = "1";
      box.addEventListener("change", () => {
        try { localStorage.setItem(AUTOPASS, box.checked ? "1" : "0"); } catch (e) { /* disabled */ }
      });
    }
    if (box) {
      box.checked = autopass();
      $("autopass-row").hidden = game !== "grail-mahjong";
    }
    translate();
  }

  return { init, translate, autopass };
})();
