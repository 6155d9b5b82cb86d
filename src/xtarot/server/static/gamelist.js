// The lobby's list of the games under the game picker: each in one line — what it is,
// how many play, how long a match takes (gamewords.js) — the chosen one marked; a
// click on a line chooses that game.  It follows the picker (#game) by itself.
// Beside each game that has one, *Learn*: a guided first hand against easy bots
// (POST /api/learn; the table's coach is learn.js).
"use strict";

(() => {
  const picker = document.getElementById("game");
  const box = document.getElementById("game-lines");
  if (!picker || !box) return;
  const players = {};
  const learnable = {};

  async function learn(id, button) {
    button.disabled = true;
    try {
      const res = await fetch("api/learn", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: id, player: XPeople.key() || undefined }),
      });
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || res.statusText);
      location.href = data.seats.find((s) => s.link).link;
    } catch (err) {
      button.disabled = false;
      button.title = String(err.message);
    }
  }

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
      if (learnable[id]) {
        const l = document.createElement("button");
        l.type = "button";
        l.className = "small learn-btn";
        l.dataset.learn = id;
        l.textContent = XI18n.t("learn");
        l.title = XI18n.t("learn_help");
        l.addEventListener("click", () => learn(id, l));
        li.appendChild(l);
      }
      box.appendChild(li);
    }
  }

  picker.addEventListener("change", render);
  new MutationObserver(render).observe(picker, { childList: true });
  fetch("api/games").then((r) => r.json()).then((body) => {
    for (const g of body.games || []) { players[g.id] = g.players; learnable[g.id] = Boolean(g.learn); }
    render();
  }).catch(() => render());
})();
