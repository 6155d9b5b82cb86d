// Legal moves out of sight: on a small screen the pinned hand (at the bottom of the
// window) can lie over the last choices (a bidding grid's last rows, Pass).  Then a cue
// in the hand's head says so, and a click on it brings them into view.  Checked after
// every drawing and when the page scrolls or changes size.
"use strict";

const XReach = (() => {
  const CONTROLS = "#choices [data-action]:not([disabled]), #board [data-action]:not([disabled])";
  let cue = null;
  let queued = false;

  XI18n.add({
    en: { more_choices: "▼ More choices", more_choices_help: "Some of your choices are under your hand: scroll to see them" },
    ja: { more_choices: "▼ 選択肢の続き", more_choices_help: "手札の下に隠れた選択肢があります。スクロールしてください" },
  });

  // The legal controls the pinned hand (or the bottom of the window) hides now.
  function hidden() {
    const box = document.getElementById("hand-box");
    const limit = box && !box.hidden ? Math.min(box.getBoundingClientRect().top, innerHeight) : innerHeight;
    return [...document.querySelectorAll(CONTROLS)].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top + r.height / 2 > limit;
    });
  }

  function check() {
    queued = false;
    const head = document.querySelector("#hand-box .hand-head");
    if (!head) return;
    if (!cue) {
      cue = XLayouts.make("button", "small reach-cue");
      cue.type = "button";
      cue.id = "reach-cue";
      cue.addEventListener("click", () => {
        const out = hidden();
        if (out.length) out[out.length - 1].scrollIntoView({ block: "center", behavior: "smooth" });
      });
    }
    cue.textContent = XI18n.t("more_choices");
    cue.title = XI18n.t("more_choices_help");
    const show = hidden().length > 0;
    if (show && cue.parentNode !== head) head.insertBefore(cue, head.querySelector(".grow"));
    if (!show && cue.parentNode) cue.remove();
  }

  function soon() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(check);
  }

  window.addEventListener("scroll", soon, { passive: true });
  window.addEventListener("resize", soon);
  return { check: soon };
})();
