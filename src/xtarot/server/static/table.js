// The table page: one websocket, the seat's own view, click-to-play legal moves.
// The link's fragment holds the table id, and for a player the seat and its secret
// token (#t=ID&seat=N&token=...); the fragment never reaches the server's logs.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const { make } = XLayouts;
  const params = new URLSearchParams(location.hash.slice(1));
  const tableId = params.get("t");
  const seat = params.has("seat") ? Number(params.get("seat")) : null;
  const token = params.get("token");

  let ws = null;
  let info = null; // the table summary from the welcome message
  let last = null; // the latest state message
  let pending = false; // a move was sent and not yet answered
  let selected = null; // a hand card whose several actions are offered
  let hint = null;
  let retry = 0;
  let messageTimer = null;

  function seatLabel(s, short) {
    const base = XI18n.seatName(s);
    if (short) return String(s + 1);
    const extra = [];
    if (s === seat) extra.push(XI18n.t("you"));
    const spec = last && last.seats[s];
    if (spec && spec.kind === "bot") extra.push(`${XI18n.t("bot")} ${spec.bot}`);
    return extra.length ? `${base} (${extra.join(", ")})` : base;
  }

  function say(text, kind) {
    const box = $("message");
    box.textContent = text;
    box.className = `message ${kind || "error"}`;
    box.hidden = false;
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }

  function act(action) {
    if (pending || !last) return;
    pending = true;
    selected = null;
    document.body.classList.add("pending");
    send({ type: "act", action, n: last.n, seat });
  }

  function connect() {
    if (!tableId) {
      $("status").textContent = XI18n.t("no_table");
      return;
    }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
    $("conn").textContent = XI18n.t(retry ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      retry = 0;
      $("conn").textContent = "";
      const hello = { type: "hello", lang: XI18n.get() };
      if (seat !== null && token) Object.assign(hello, { seat, token });
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      handle(msg);
    });
    ws.addEventListener("close", () => {
      ws = null;
      pending = false;
      document.body.classList.remove("pending");
      if (last && last.finished) return;
      retry += 1;
      $("conn").textContent = XI18n.t("reconnecting");
      setTimeout(connect, Math.min(4000, 500 * 2 ** Math.min(retry, 3)));
    });
  }

  function handle(msg) {
    if (msg.type === "welcome") {
      info = msg.table;
      $("game-name").textContent = XI18n.get() === "ja" ? info.name_ja : info.name_en;
    } else if (msg.type === "state") {
      if (last && msg.n !== last.n) { hint = null; selected = null; }
      last = msg;
      pending = false;
      document.body.classList.remove("pending");
      render();
    } else if (msg.type === "error") {
      pending = false;
      document.body.classList.remove("pending");
      say(msg.message);
      if (last) render();
    } else if (msg.type === "hint") {
      if (last && msg.n === last.n) { hint = msg; render(); }
    }
  }

  // -- drawing --------------------------------------------------------------------------
  function render() {
    if (!last) return;
    const view = last.view;
    const layout = XLayouts.forGame(view.game);
    const legal = view.legal_actions || [];
    const hand = view.hand || [];
    const myTurn = seat !== null && view.current_player === seat && legal.length > 0;

    // status line
    const status = $("status");
    status.dataset.finished = last.finished ? "1" : "0";
    status.dataset.turn = myTurn ? "1" : "0";
    status.dataset.n = String(last.n);
    const phase = layout.phase ? layout.phase(view) : view.phase;
    let line;
    if (last.finished) line = XI18n.t("finished");
    else if (myTurn) line = XI18n.t("your_turn");
    else line = XI18n.t("waiting", { who: seatLabel(view.current_player) });
    status.textContent = `${line} · ${XI18n.t("phase")}: ${phase}`;
    if (seat === null) status.textContent += ` · ${XI18n.t("spectator")}`;
    status.className = `status${myTurn ? " mine" : ""}${last.finished ? " over" : ""}`;

    // seats
    const seats = $("seats");
    seats.textContent = "";
    const totals = (view.scores && view.scores.totals) || [];
    for (let s = 0; s < view.players; s += 1) {
      const box = make("div", "seat-box");
      if (s === view.current_player) box.classList.add("acting");
      if (s === seat) box.classList.add("me");
      const head = make("div", "seat-head");
      const dot = make("span", `dot ${last.seats[s].connected ? "on" : "off"}`);
      dot.title = XI18n.t(last.seats[s].connected ? "online" : "offline");
      head.appendChild(dot);
      head.appendChild(make("strong", "", seatLabel(s)));
      if (totals[s] !== undefined) head.appendChild(make("span", "score", String(totals[s])));
      box.appendChild(head);
      const extra = make("div", "seat-extra");
      layout.seatExtra(view, s, extra);
      box.appendChild(extra);
      seats.appendChild(box);
    }

    // board
    const board = $("board");
    board.textContent = "";
    layout.board(view, { seatLabel, seat }, board);

    // which actions a hand card stands for; the others are buttons
    const inHand = new Set(hand);
    const byCard = new Map();
    const buttons = [];
    for (const a of legal) {
      const codes = layout.cardsOf(a).filter((c) => inHand.has(c));
      if (codes.length) {
        for (const c of codes) {
          if (!byCard.has(c)) byCard.set(c, []);
          byCard.get(c).push(a);
        }
      } else {
        buttons.push(a);
      }
    }
    const offered = selected && byCard.has(selected) ? byCard.get(selected) : [];
    const choices = $("choices");
    choices.textContent = "";
    if (myTurn && (buttons.length || offered.length)) {
      if (offered.length) choices.appendChild(make("span", "muted", XI18n.t("choose")));
      for (const a of [...offered, ...buttons]) {
        const b = make("button", "action", layout.label(a));
        b.dataset.action = a;
        b.type = "button";
        if (hint && hint.action === a) b.classList.add("hinted");
        for (const c of layout.cardsOf(a)) b.appendChild(XCards.svg(c, { size: "xs" }));
        b.addEventListener("click", () => act(a));
        choices.appendChild(b);
      }
    }

    // hand
    $("hand-box").hidden = seat === null;
    const handEl = $("hand");
    handEl.textContent = "";
    for (const code of hand) {
      const svg = XCards.svg(code, { size: "m", title: XCards.name(code, XI18n.get()) });
      const wrap = make("button", "card");
      wrap.type = "button";
      wrap.dataset.card = code;
      wrap.appendChild(svg);
      const actions = byCard.get(code) || [];
      if (myTurn && actions.length) {
        wrap.classList.add("legal");
        if (hint && actions.includes(hint.action)) wrap.classList.add("hinted");
        if (selected === code) wrap.classList.add("selected");
        wrap.addEventListener("click", () => {
          if (actions.length === 1) act(actions[0]);
          else { selected = selected === code ? null : code; render(); }
        });
      } else {
        wrap.disabled = true;
        if (myTurn) wrap.classList.add("illegal");
      }
      handEl.appendChild(wrap);
    }
    const hintBtn = $("hint");
    hintBtn.hidden = !myTurn;
    const hintText = $("hint-text");
    hintText.hidden = !hint;
    if (hint) hintText.textContent = `${XI18n.t("hint")}: ${layout.label(hint.action)} — ${hint.text}`;

    // scores and history
    renderScores(view);
    const history = $("history");
    history.textContent = "";
    if (layout.history) layout.history(view, { seatLabel, seat }, history);
    else if (view.scores && view.scores.detail) {
      const details = make("details");
      details.appendChild(make("summary", "", XI18n.t("history")));
      details.appendChild(XLayouts.value(view.scores.detail, 0));
      history.appendChild(details);
    }
    history.hidden = !history.childNodes.length;

    $("download-box").hidden = !last.finished;
    if (last.finished) $("download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  }

  function renderScores(view) {
    const box = $("scores");
    box.textContent = "";
    const sc = view.scores;
    if (!sc) return;
    box.appendChild(make("h2", "", XI18n.t("scores")));
    const table = make("table", "scores");
    const head = make("tr");
    for (const h of [XI18n.t("seat"), XI18n.t("scores"), XI18n.t("rank")]) {
      head.appendChild(make("th", "", h));
    }
    table.appendChild(head);
    for (let s = 0; s < sc.totals.length; s += 1) {
      const row = make("tr");
      if (sc.final && sc.winners.includes(s)) row.classList.add("winner");
      row.appendChild(make("td", "", seatLabel(s)));
      row.appendChild(make("td", "num", String(sc.totals[s])));
      row.appendChild(make("td", "num", String(sc.ranks[s])));
      table.appendChild(row);
    }
    box.appendChild(table);
    if (sc.final) {
      const names = sc.winners.map((s) => seatLabel(s)).join(", ");
      box.appendChild(make("p", "final", `${XI18n.t("winners")}: ${names}`));
    }
  }

  function translate() {
    document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = XI18n.t(n.dataset.t); });
    $("lang").textContent = XI18n.get() === "ja" ? "English" : "日本語";
    if (info) $("game-name").textContent = XI18n.get() === "ja" ? info.name_ja : info.name_en;
    render();
  }

  $("lang").addEventListener("click", () => {
    XI18n.set(XI18n.get() === "ja" ? "en" : "ja");
    hint = null;
    translate();
  });
  $("hint").addEventListener("click", () => {
    $("hint-text").hidden = false;
    $("hint-text").textContent = XI18n.t("hint_busy");
    send({ type: "hint", lang: XI18n.get() });
  });
  window.addEventListener("hashchange", () => location.reload());
  translate();
  connect();
})();
