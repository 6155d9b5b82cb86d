// The lobby: pick a game, player count, options and who sits where; create the table.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let games = [];

  function make(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function translate() {
    document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = XI18n.t(n.dataset.t); });
    $("lang").textContent = XI18n.get() === "ja" ? "English" : "日本語";
    document.title = XI18n.t("title");
    const current = $("game").value;
    fillGames();
    if (current) $("game").value = current;
    fillSeats();
  }

  function info() { return games.find((g) => g.id === $("game").value) || games[0]; }

  function fillGames() {
    const sel = $("game");
    sel.textContent = "";
    for (const g of games) {
      sel.appendChild(make("option", { value: g.id },
        `${XI18n.get() === "ja" ? g.name_ja : g.name_en} (${g.id})`));
    }
  }

  function fillPlayers() {
    const g = info();
    const sel = $("players");
    sel.textContent = "";
    for (let n = g.players[0]; n <= g.players[1]; n += 1) {
      sel.appendChild(make("option", { value: String(n) }, String(n)));
    }
    sel.value = String(g.players[1] >= 4 && g.players[0] <= 4 ? 4 : g.players[0]);
    fillOptions();
    fillSeats();
  }

  function fillOptions() {
    const g = info();
    const box = $("options");
    box.textContent = "";
    const entries = Object.entries(g.options || {});
    $("options-box").hidden = entries.length === 0;
    for (const [name, opt] of entries) {
      const label = make("label", { class: "opt" });
      label.appendChild(make("span", {}, name));
      let input;
      if (opt.type === "bool") {
        input = make("input", { type: "checkbox", "data-opt": name, "data-kind": "bool" });
        input.checked = opt.default === true;
      } else if (Array.isArray(opt.choices) && opt.choices.length) {
        input = make("select", { "data-opt": name, "data-kind": opt.type });
        if (opt.default === null) input.appendChild(make("option", { value: "" }, "—"));
        for (const c of opt.choices) input.appendChild(make("option", { value: String(c) }, String(c)));
        input.value = opt.default === null ? "" : String(opt.default);
      } else {
        input = make("input", {
          type: opt.type === "int" ? "number" : "text", "data-opt": name, "data-kind": opt.type,
        });
        input.value = opt.default === null || opt.default === undefined ? "" : String(opt.default);
      }
      label.appendChild(input);
      const help = XI18n.get() === "ja" ? opt.help_ja : opt.help_en;
      if (help) label.appendChild(make("small", {}, help));
      box.appendChild(label);
    }
  }

  function fillSeats() {
    const g = info();
    if (!g) return;
    const n = Number($("players").value || g.players[0]);
    const box = $("seats");
    const previous = [...box.querySelectorAll("select")].map((s) => s.value);
    box.textContent = "";
    for (let i = 0; i < n; i += 1) {
      const label = make("label", { class: "seat-choice" });
      label.appendChild(make("span", {}, XI18n.seatName(i)));
      const sel = make("select", { "data-seat": String(i) });
      sel.appendChild(make("option", { value: "human" }, XI18n.t("human")));
      for (const b of g.bots) sel.appendChild(make("option", { value: b }, `${XI18n.t("bot")}: ${b}`));
      sel.value = previous[i] || (i === 0 ? "human" : g.default_bot);
      label.appendChild(sel);
      box.appendChild(label);
    }
  }

  function options() {
    const out = {};
    document.querySelectorAll("[data-opt]").forEach((input) => {
      const name = input.dataset.opt;
      const opt = info().options[name];
      let value;
      if (input.dataset.kind === "bool") value = input.checked;
      else if (input.value === "") value = null;
      else value = input.value;
      // only what differs from the default (some options exist at some player counts only)
      if (String(value) !== String(opt.default)) out[name] = value;
    });
    return out;
  }

  async function create(event) {
    event.preventDefault();
    $("create-error").hidden = true;
    const body = {
      game: $("game").value,
      players: Number($("players").value),
      options: options(),
      seats: [...$("seats").querySelectorAll("select")].map((s) => s.value),
    };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    const res = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) {
      $("create-error").textContent = data.error || res.statusText;
      $("create-error").hidden = false;
      return;
    }
    const list = $("links");
    list.textContent = "";
    for (const s of data.seats) {
      if (!s.link) continue;
      const li = make("li");
      li.appendChild(make("strong", {}, `${XI18n.seatName(s.seat)} `));
      const a = make("a", { href: s.link, class: "join", "data-seat": String(s.seat) },
        XI18n.t("play_here"));
      li.appendChild(a);
      const input = make("input", { value: s.link, readonly: "", class: "link-text" });
      li.appendChild(input);
      const copy = make("button", { type: "button", class: "small" }, XI18n.t("copy"));
      copy.addEventListener("click", async () => {
        input.select();
        try { await navigator.clipboard.writeText(s.link); } catch (e) { /* selected instead */ }
        copy.textContent = XI18n.t("copied");
      });
      li.appendChild(copy);
      list.appendChild(li);
    }
    $("spectate").href = data.spectator;
    $("spectate").textContent = data.spectator;
    $("created").hidden = false;
    $("created").dataset.table = data.id;
  }

  async function start() {
    $("lang").addEventListener("click", () => {
      XI18n.set(XI18n.get() === "ja" ? "en" : "ja");
      translate();
      fillOptions();
    });
    const res = await fetch("/api/games");
    games = (await res.json()).games;
    fillGames();
    const wanted = new URLSearchParams(location.search).get("game");
    $("game").value = games.some((g) => g.id === wanted) ? wanted
      : (games.some((g) => g.id === "sono-arcana") ? "sono-arcana" : games[0].id);
    $("game").addEventListener("change", fillPlayers);
    $("players").addEventListener("change", fillSeats);
    $("create").addEventListener("submit", create);
    fillPlayers();
    translate();
  }

  start();
})();
