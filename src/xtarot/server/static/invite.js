// The invitation's waiting room (/j/ID leads here as invite#t=ID, or #t=ID&s=N for one
// seat): who has arrived, a button per free seat (a click takes it, never the link
// itself), and a link to watch.  It asks the table again every few seconds.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.hash.slice(1));
  const tableId = params.get("t") || "";
  const wanted = params.has("s") ? Number(params.get("s")) : null;
  let table = null;
  let busy = false;

  function make(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function mine() {
    try { return JSON.parse(localStorage.getItem("xtarot.tables") || "[]"); } catch (e) { return []; }
  }

  function keep(entry) {
    try {
      const list = mine().filter((x) => !(x.id === entry.id && x.seat === entry.seat));
      list.unshift(entry);
      localStorage.setItem("xtarot.tables", JSON.stringify(list.slice(0, 30)));
    } catch (e) { /* storage full or disabled */ }
  }

  async function take(seat, button) {
    if (busy) return;
    busy = true;
    button.disabled = true;
    const res = await fetch(`api/tables/${encodeURIComponent(tableId)}/claim`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ seat }),
    });
    const data = await res.json();
    busy = false;
    if (!res.ok) {
      $("invite-note").textContent = data.error || res.statusText;
      load();
      return;
    }
    keep({ id: tableId, seat, game: table.game, link: data.link, at: Date.now() });
    location.href = data.link;
  }

  function draw() {
    document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = XI18n.t(n.dataset.t); });
    $("lang").textContent = XI18n.get() === "ja" ? "English" : "日本語";
    $("invite-watch").href = `table#t=${encodeURIComponent(tableId)}`;
    const list = $("invite-seats");
    list.textContent = "";
    if (!table) return;
    const name = XI18n.get() === "ja" ? table.name_ja : table.name_en;
    $("invite-game").textContent = `${name} · ${table.players}`;
    document.title = `${name} — xtarot`;
    const held = mine().find((e) => e.id === tableId && e.seat !== null && e.seat !== undefined);
    const free = table.seats.filter((s) => s.free);
    let note = "";
    if (table.finished || table.closed) note = XI18n.t("invite_over");
    else if (!free.length && !held) note = XI18n.t("invite_full");
    $("invite-note").textContent = note;
    for (const s of table.seats) {
      const li = make("li", "table-item");
      li.dataset.seat = String(s.seat);
      let who = XI18n.seatName(s.seat);
      if (s.kind === "bot") who += ` · ${XI18n.t("bot")} ${XI18n.botName(s.bot)}`;
      else if (s.name) who += ` · ${s.name}`;
      li.appendChild(make("strong", "", who));
      if (s.kind === "human" && !s.free) li.appendChild(make("span", "muted", ` · ${XI18n.t(s.connected ? "online" : "offline")}`));
      if (held && held.seat === s.seat) {
        const a = make("a", "chip-link", XI18n.t("invite_yours", { seat: XI18n.seatName(s.seat) }));
        a.href = held.link;
        li.appendChild(a);
      } else if (s.free && !table.finished && !table.closed && !held) {
        const b = make("button", s.seat === wanted ? "take wanted" : "take",
          XI18n.t("invite_take", { seat: XI18n.seatName(s.seat) }));
        b.type = "button";
        b.dataset.take = String(s.seat);
        b.addEventListener("click", () => take(s.seat, b));
        li.appendChild(b);
      }
      list.appendChild(li);
    }
  }

  async function load() {
    try {
      const res = await fetch(`api/tables/${encodeURIComponent(tableId)}`);
      if (!res.ok) {
        table = null;
        draw();
        $("invite-note").textContent = XI18n.t("invite_gone");
        return;
      }
      table = await res.json();
    } catch (e) { return; }
    draw();
  }

  $("lang").addEventListener("click", () => { XI18n.set(XI18n.get() === "ja" ? "en" : "ja"); draw(); });
  draw();
  load();
  setInterval(() => { if (!busy) load(); }, 3000);
})();
