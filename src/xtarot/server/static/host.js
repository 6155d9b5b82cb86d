// The host's controls on the table page (only for the player identity that created the
// table; the server checks it again): the invitation with its QR code, a bot for a seat
// nobody took or a player who left, a seat's new link, muting, spectators' chat, seats
// shuffled at a rematch, closing the table.  Sends {"type": "host", "do": ...}
// (xtarot/server/host.py); every text is set as text.
"use strict";

const XHost = (() => {
  const $ = (id) => document.getElementById(id);
  const LEVELS = ["easy", "normal", "hard"];
  let send = () => {};
  let tableId = null;
  let last = null;
  const links = {}; // seat -> the new link the server gave

  function make(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function button(text, what, extra) {
    const b = make("button", "small", text);
    b.type = "button";
    b.dataset.host = what;
    b.addEventListener("click", () => send({ type: "host", do: what, ...(extra ? extra() : {}) }));
    return b;
  }

  function toggle(text, what, on, extra) {
    const label = make("label", "host-toggle");
    const input = make("input");
    input.type = "checkbox";
    input.checked = Boolean(on);
    input.dataset.host = what;
    input.addEventListener("change", () => send({ type: "host", do: what, on: input.checked, ...(extra || {}) }));
    label.append(input, " ", text);
    return label;
  }

  function inviteLink(seat) {
    const url = new URL(`j/${encodeURIComponent(tableId)}`, location.href);
    url.hash = seat === undefined ? "" : `s=${seat}`;
    return url.href;
  }

  function copyRow(link) {
    const row = make("p", "host-link");
    const input = make("input", "link-text");
    input.readOnly = true;
    input.value = link;
    const copy = make("button", "small", XI18n.t("copy"));
    copy.type = "button";
    copy.addEventListener("click", async () => {
      input.select();
      try { await navigator.clipboard.writeText(link); } catch (e) { /* selected instead */ }
      copy.textContent = XI18n.t("copied");
    });
    row.append(input, copy);
    return row;
  }

  function seatRow(spec, online, started, over) {
    const li = make("li", "host-seat");
    li.dataset.seat = String(spec.seat);
    let who = XI18n.seatNumber(spec.seat);
    if (spec.kind === "bot") who += ` · ${XI18n.t("bot")} ${XI18n.botName(spec.bot)}`;
    else if (spec.name) who += ` · ${spec.name}`;
    else if (spec.free) who += ` · ${XI18n.t("host_free")}`;
    if (spec.kind === "human") who += ` · ${XI18n.t(online ? "online" : "offline")}`;
    li.appendChild(make("span", "who", who));
    if (over) return li;
    const canBot = spec.kind === "human" ? !online : !started;
    if (canBot) {
      const sel = make("select");
      sel.dataset.hostBot = String(spec.seat);
      for (const level of LEVELS) {
        const o = make("option", "", `${XI18n.t("bot")}: ${XI18n.botName(level)}`);
        o.value = level;
        sel.appendChild(o);
      }
      sel.value = spec.kind === "bot" && LEVELS.includes(spec.bot) ? spec.bot : "normal";
      li.append(sel, button(XI18n.t(spec.kind === "bot" ? "host_change" : "host_bot"), "bot",
        () => ({ seat: spec.seat, bot: sel.value })));
    }
    if (spec.free) li.appendChild(copyRow(inviteLink(spec.seat)));  // this seat's invitation
    if (spec.kind === "human") {
      li.appendChild(button(XI18n.t("host_link"), "link", () => ({ seat: spec.seat })));
      li.appendChild(toggle(XI18n.t("host_mute"), "mute",
        last.settings && last.settings.muted.includes(spec.seat), { seat: spec.seat }));
      if (links[spec.seat]) li.appendChild(copyRow(links[spec.seat]));
    }
    return li;
  }

  function build() {
    const body = $("host-body");
    if (!body || !last) return;
    body.textContent = "";
    const settings = last.settings || {};
    const over = Boolean(last.finished || settings.closed);
    if (!over) {
      body.appendChild(make("h3", "", XI18n.t("host_invite")));
      body.appendChild(make("p", "muted small-note", XI18n.t("host_invite_help")));
      body.appendChild(copyRow(inviteLink()));
      const qr = make("img", "qr");
      qr.alt = XI18n.t("host_qr");
      qr.src = `api/tables/${encodeURIComponent(tableId)}/qr.svg`;
      body.appendChild(qr);
    }
    body.appendChild(make("h3", "", XI18n.t("seats")));
    const list = make("ul", "host-seats");
    const started = last.n > 0;
    for (const spec of last.seats) list.appendChild(seatRow(spec, spec.connected, started, over));
    body.appendChild(list);
    if (!over) body.appendChild(button(XI18n.t("host_fill"), "fill"));
    body.appendChild(toggle(XI18n.t("host_spectator_chat"), "spectator_chat", settings.spectator_chat));
    body.appendChild(toggle(XI18n.t("host_shuffle"), "shuffle", settings.shuffle));
    if (!over) {
      const close = make("button", "small danger", XI18n.t("host_close"));
      close.type = "button";
      close.dataset.host = "close";
      close.addEventListener("click", () => {
        if (window.confirm(XI18n.t("host_close_confirm"))) send({ type: "host", do: "close" }); // eslint-disable-line no-alert
      });
      body.appendChild(close);
    }
  }

  function init(sender, id, isHost) {
    send = sender;
    tableId = id;
    $("host-btn").hidden = !isHost;
  }

  function open() {
    build();
    const dialog = $("host-dialog");
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
  }

  function render(state) {
    last = state;
    if ($("host-dialog").open) build();
  }

  // The server's answer to "link": the seat's new link, shown to the host only.
  function gotLink(msg) {
    const url = new URL("table", location.href);
    url.hash = `t=${encodeURIComponent(tableId)}&seat=${msg.seat}&token=${encodeURIComponent(msg.token)}`;
    links[msg.seat] = url.href;
    build();
  }

  return { init, open, render, gotLink, build };
})();
