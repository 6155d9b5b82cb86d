// The lobby's list of the games under the game picker: each in one line — what it is,
// how many play, how long a match takes (gamewords.js) — the chosen one marked; a
// click on a line chooses that game.  It follows the picker (#game) by itself.
"use strict";

(() => {
  const picker = document.getElementById("game");
  const box = document.getElementById("game-lines");
  if (!picker || !box) return;
  const players = {};

  function render() {
    box.textContent = "";
    for (const opt of picker.options) {
      const id = opt.value;
      const words = XGameWords.line(id, players[id]);
      if (!words) continue;
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = `game-line${id === picker.value ? " chosen" : ""}`;
      b.dataset.game = id;
      const name = document.createElement("strong");
      name.textContent = opt.textContent.replace(/ \([^)]*\)$/, "");
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = words.what;
      const facts = document.createElement("small");
      facts.className = "facts";
      facts.textContent = [words.players, words.time].filter(Boolean).join(" · ");
      b.append(name, what, facts);
      b.addEventListener("click", () => {
        picker.value = id;
        picker.dispatchEvent(new Event("change", { bubbles: true }));
      });
      li.appendChild(b);
      box.appendChild(li);
    }
  }

  picker.addEventListener("change", render);
  new MutationObserver(render).observe(picker, { childList: true });
  fetch("api/games").then((r) => r.json()).then((body) => {
    for (const g of body.games || []) players[g.id] = g.players;
    render();
  }).catch(() => render());
})();
