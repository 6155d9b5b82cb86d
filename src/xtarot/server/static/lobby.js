// The lobby: open tables to join or watch, the tables this browser knows ("my tables",
// kept in localStorage), and the form that creates a table (game, player count, the
// options that apply at that count, who sits where, the move clock).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const MINE = "xtarot.tables";
  // seconds; an hour or more makes a turn-based table (docs/web.md)
  const CLOCKS = [null, 30, 60, 120, 300, 3600, 86400, 259200];
  const LEVELS = ["easy", "normal", "hard"];
  let games = [];
  let refreshTimer = null;

  function make(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function gameName(id) {
    const g = games.find((x) => x.id === id);
    if (!g) return id;
    return XI18n.get() === "ja" ? g.name_ja : g.name_en;
  }

  function optionName(name) {
    const names = XI18n.t("option_names");
    return (names && typeof names === "object" && names[name]) || name.replace(/_/g, " ");
  }

  function translate() {
    document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = XI18n.t(n.dataset.t); });
    $("lang").textContent = XI18n.get() === "ja" ? "English" : "日本語";
    document.title = XI18n.t("title");
    if (!games.length) return; // still loading: start() fills the rest in the chosen language
    const current = $("game").value;
    fillGames();
    if (current) $("game").value = current;
    fillOptions();
    fillSeats();
    fillClock();
    showOpen();
    showMine();
  }

  function info() { return games.find((g) => g.id === $("game").value) || games[0]; }

  function fillGames() {
    const sel = $("game");
    sel.textContent = "";
    for (const g of games) {
      sel.appendChild(make("option", { value: g.id }, `${XI18n.get() === "ja" ? g.name_ja : g.name_en} (${g.id})`));
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

  // Only the options that can take a non-default value at the chosen player count.
  function fillOptions() {
    const g = info();
    if (!g) return;
    const n = Number($("players").value || g.players[0]);
    const box = $("options");
    const previous = {};
    box.querySelectorAll("[data-opt]").forEach((i) => {
      previous[i.dataset.opt] = i.dataset.kind === "bool" ? i.checked : i.value;
    });
    box.textContent = "";
    const entries = Object.entries(g.options || {})
      .filter(([, opt]) => !Array.isArray(opt.players) || opt.players.includes(n))
      .filter(([name]) => !XGameWords.optionHidden(g.id, name));
    $("options-box").hidden = entries.length === 0;
    for (const [name, opt] of entries) {
      const label = make("label", { class: "opt" });
      label.appendChild(make("span", {}, optionName(name)));
      let input;
      if (opt.type === "bool") {
        input = make("input", { type: "checkbox", "data-opt": name, "data-kind": "bool" });
        input.checked = name in previous ? previous[name] : opt.default === true;
      } else if (Array.isArray(opt.choices) && opt.choices.length) {
        input = make("select", { "data-opt": name, "data-kind": opt.type });
        if (opt.default === null) input.appendChild(make("option", { value: "" }, "—"));
        const names = XI18n.t("choice_names");
        for (const c of opt.choices) {
          const text = XGameWords.choiceName(g.id, name, c) ||
            (names && typeof names === "object" && names[c]) || String(c);
          input.appendChild(make("option", { value: String(c) }, text));
        }
        input.value = name in previous ? previous[name] : (opt.default === null ? "" : String(opt.default));
      } else {
        input = make("input", {
          type: opt.type === "int" ? "number" : "text", "data-opt": name, "data-kind": opt.type,
        });
        input.value = name in previous ? previous[name]
          : (opt.default === null || opt.default === undefined ? "" : String(opt.default));
      }
      label.appendChild(input);
      const help = XGameWords.optionHelp(g.id, name, XI18n.get() === "ja" ? opt.help_ja : opt.help_en);
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
      sel.appendChild(make("option", { value: "open" }, XI18n.t("open_seat")));
      // the three levels for people first, then every bot by name for researchers
      const levels = g.bots.filter((b) => LEVELS.includes(b));
      const named = g.bots.filter((b) => !LEVELS.includes(b));
      for (const [key, list] of [["bot_levels", levels], ["bot_by_name", named]]) {
        if (!list.length) continue;
        const group = make("optgroup", { label: XI18n.t(key) });
        for (const b of list) group.appendChild(make("option", { value: b }, `${XI18n.t("bot")}: ${XI18n.botName(b)}`));
        sel.appendChild(group);
      }
      sel.value = previous[i] || (i === 0 ? "human" : g.default_bot);
      label.appendChild(sel);
      box.appendChild(label);
    }
  }

  function fillClock() {
    const sel = $("clock");
    const before = sel.value;
    sel.textContent = "";
    for (const c of CLOCKS) {
      let text = XI18n.t("clock_none");
      if (c !== null) text = XI18n.duration(c);
      if (c !== null && c >= 3600) text += ` (${XI18n.t("clock_turn_based")})`;
      sel.appendChild(make("option", { value: c === null ? "" : String(c) }, text));
    }
    sel.value = before || "";
  }

  function options() {
    const out = {};
    document.querySelectorAll("[data-opt]").forEach((input) => {
      const name = input.dataset.opt;
      const opt = info().options[name];
      let value;
      if (input.dataset.kind === "bool") value = input.checked;
      else if (input.value === "") value = null;
      else if (input.dataset.kind === "int") value = Number(input.value);
      else value = input.value;
      if (String(value) !== String(opt.default)) out[name] = value;
    });
    return out;
  }

  // -- my tables (this browser's links) ------------------------------------------------
  function mine() {
    try { return JSON.parse(localStorage.getItem(MINE) || "[]"); } catch (e) { return []; }
  }
  function keep(entries) {
    const list = mine();
    for (const e of entries) {
      const i = list.findIndex((x) => x.id === e.id && x.seat === e.seat);
      if (i >= 0) list.splice(i, 1);
      list.unshift(e);
    }
    try { localStorage.setItem(MINE, JSON.stringify(list.slice(0, 30))); } catch (e) { /* full */ }
  }
  function forget(id) {
    try { localStorage.setItem(MINE, JSON.stringify(mine().filter((x) => x.id !== id))); } catch (e) { /* */ }
  }

  async function showMine() {
    const box = $("my-tables");
    const byId = new Map();
    for (const e of mine()) {
      if (!byId.has(e.id)) byId.set(e.id, []);
      byId.get(e.id).push(e);
    }
    box.textContent = "";
    if (!byId.size) { box.appendChild(make("li", { class: "muted" }, XI18n.t("no_my_tables"))); return; }
    for (const [id, entries] of [...byId.entries()].slice(0, 12)) {
      const li = make("li", { class: "table-item", "data-table": id });
      li.appendChild(make("strong", {}, gameName(entries[0].game)));
      const status = make("span", { class: "muted" }, "…");
      li.appendChild(status);
      for (const e of entries.sort((a, b) => (a.seat ?? -1) - (b.seat ?? -1))) {
        const text = e.seat === null || e.seat === undefined ? XI18n.t("watch") : XI18n.seatName(e.seat);
        li.appendChild(make("a", { href: e.link, class: "chip-link" }, text));
      }
      const drop = make("button", { type: "button", class: "small" }, XI18n.t("forget"));
      drop.addEventListener("click", () => { forget(id); showMine(); });
      li.appendChild(drop);
      box.appendChild(li);
      fetch(`api/tables/${encodeURIComponent(id)}`).then((r) => (r.ok ? r.json() : null)).then((t) => {
        if (!t) { status.textContent = ` · ${XI18n.t("over")}?`; return; }
        status.textContent = ` · ${t.players} · ${t.finished ? XI18n.t("over") : XI18n.t("playing")}`;
        if (t.finished) {
          const seat = entries.find((e) => e.seat !== null && e.seat !== undefined);
          const p = new URLSearchParams({ t: id });
          if (seat) p.set("seat", String(seat.seat));
          const a = make("a", { href: `replay#${p.toString()}`, class: "chip-link replay-link" }, XI18n.t("replay_link"));
          status.after(a);
        }
      }).catch(() => { status.textContent = ""; });
    }
  }

  // -- open tables (listed by their hosts) ------------------------------------------------
  async function showOpen() {
    let tables = [];
    try {
      const res = await fetch("api/tables");
      tables = (await res.json()).tables || [];
    } catch (e) { tables = []; }
    const box = $("open-tables");
    box.textContent = "";
    if (!tables.length) { box.appendChild(make("li", { class: "muted" }, XI18n.t("no_open_tables"))); return; }
    for (const t of tables) {
      const li = make("li", { class: "table-item", "data-table": t.id });
      li.appendChild(make("strong", {}, gameName(t.game)));
      const free = t.seats.filter((s) => s.free);
      let facts = ` · ${t.players} · ${XI18n.t("free_seats", { n: free.length })}`;
      if (t.clock) facts += ` · ${XI18n.t("clock")} ${XI18n.duration(t.clock)}`;
      li.appendChild(make("span", { class: "muted" }, facts));
      for (const s of free) {
        const b = make("button", { type: "button", class: "join-open", "data-seat": String(s.seat) },
          XI18n.t("join_seat", { seat: XI18n.seatName(s.seat) }));
        b.addEventListener("click", () => claim(t, s.seat, b));
        li.appendChild(b);
      }
      li.appendChild(make("a", { href: `table#t=${encodeURIComponent(t.id)}`, class: "chip-link watch" }, XI18n.t("watch")));
      box.appendChild(li);
    }
  }

  async function claim(t, seatNo, button) {
    button.disabled = true;
    button.textContent = XI18n.t("claiming");
    const res = await fetch(`api/tables/${encodeURIComponent(t.id)}/claim`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat: seatNo }),
    });
    const data = await res.json();
    if (!res.ok) {
      alert(`${XI18n.t("seat_taken")}\n${data.error || ""}`); // eslint-disable-line no-alert
      showOpen();
      return;
    }
    keep([{ id: t.id, seat: seatNo, game: t.game, link: data.link, at: Date.now() }]);
    location.href = data.link;
  }

  async function create(event) {
    event.preventDefault();
    if (!games.length) return; // the game list has not arrived: nothing to create yet
    $("create-error").hidden = true;
    const body = {
      player: XPeople.key() || undefined,
      game: $("game").value,
      players: Number($("players").value),
      options: options(),
      seats: [...$("seats").querySelectorAll("select")].map((s) => s.value),
    };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    if ($("clock").value !== "") body.clock = Number($("clock").value);
    const res = await fetch("api/tables", {
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
    const kept = [];
    for (const s of data.seats) {
      if (!s.link) continue;
      kept.push({ id: data.id, seat: s.seat, game: data.game, link: s.link, at: Date.now() });
      const li = make("li");
      li.appendChild(make("strong", {}, `${XI18n.seatName(s.seat)} `));
      const a = make("a", { href: s.link, class: "join", "data-seat": String(s.seat) }, XI18n.t("play_here"));
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
    keep(kept.reverse());
    const open = data.seats.some((s) => s.open);
    $("invite-box").hidden = !open;
    if (open) {
      $("invite-link").value = data.invite;
      $("invite-open").href = data.invite;
      $("invite-qr").src = `api/tables/${encodeURIComponent(data.id)}/qr.svg`;
    }
    $("spectate").href = data.spectator;
    $("spectate").textContent = data.spectator;
    $("created").hidden = false;
    $("created").dataset.table = data.id;
    $("created").scrollIntoView({ block: "nearest" });
    showMine();
    showOpen();
  }

  // -- the player identity: this browser's key, its page, its tables to play --------------
  // A link made on another device (#key=...) moves that identity here, once confirmed.
  function adoptIdentity() {
    const key = new URLSearchParams(location.hash.slice(1)).get("key");
    if (!key) return;
    history.replaceState(null, "", location.pathname + location.search); // out of sight
    if (key !== XPeople.key() && window.confirm(XI18n.t("identity_adopt")) && XPeople.adopt(key)) { // eslint-disable-line no-alert
      $("name-note").dataset.t = "identity_adopted";
      $("name-note").textContent = XI18n.t("identity_adopted");
    }
  }

  async function showMe() {
    const key = XPeople.key();
    if (!key) { $("my-page").hidden = true; $("identity-btn").hidden = true; return; }
    let me = null;
    try {
      const res = await fetch("api/me", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key }),
      });
      me = res.ok ? await res.json() : null;
    } catch (e) { me = null; }
    if (!me) return;
    $("my-page").href = `players#p=${encodeURIComponent(me.player)}`;
    const turns = me.tables.filter((t) => t.turn);
    $("turns-box").hidden = turns.length === 0;
    const box = $("turns");
    box.textContent = "";
    for (const t of turns) {
      const li = make("li", { class: "table-item", "data-table": t.id });
      li.appendChild(make("strong", {}, gameName(t.game)));
      const known = mine().find((e) => e.id === t.id && t.seats.includes(e.seat));
      if (known) li.appendChild(make("a", { href: known.link, class: "chip-link" }, XI18n.t("your_turn")));
      box.appendChild(li);
    }
    document.title = turns.length ? `(${turns.length}) ${XI18n.t("title")}` : XI18n.t("title");
  }

  async function start() {
    $("lang").addEventListener("click", () => {
      XI18n.set(XI18n.get() === "ja" ? "en" : "ja");
      translate();
    });
    // The name form is wired before the first await: a name typed and saved while the game
    // list loads must neither submit the form natively (reloading the page) nor be overwritten.
    $("my-name").value = XPeople.stored() || "";
    $("me").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = XPeople.store($("my-name").value);
      // the note keeps its key, so a language switch or the first translation keeps it shown
      $("name-note").dataset.t = name === null ? "name_bad" : "name_saved";
      $("name-note").textContent = XI18n.t($("name-note").dataset.t);
      $("name-note").classList.toggle("error", name === null);
      if (name !== null) $("my-name").value = name;
    });
    $("create").addEventListener("submit", create);
    const res = await fetch("api/games");
    games = (await res.json()).games;
    fillGames();
    const wanted = new URLSearchParams(location.search).get("game");
    $("game").value = games.some((g) => g.id === wanted) ? wanted
      : (games.some((g) => g.id === "sono-arcana") ? "sono-arcana" : games[0].id);
    $("game").addEventListener("change", fillPlayers);
    $("players").addEventListener("change", () => { fillOptions(); fillSeats(); });
    $("refresh").addEventListener("click", showOpen);
    $("identity-btn").addEventListener("click", () => {
      const url = new URL("./", location.href);
      url.hash = `key=${XPeople.key()}`;
      $("identity-link").value = url.href;
      $("identity-box").hidden = false;
      $("identity-link").select();
    });
    fillPlayers();
    adoptIdentity();
    translate();
    showMe();
    refreshTimer = setInterval(() => { showOpen(); showMe(); }, 10000);
  }

  start();
})();
