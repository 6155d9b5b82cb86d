// The table page: one websocket, the seat's own view, click-to-play legal moves.
// The link's fragment holds the table id, and for a player the seat and its secret
// token (#t=ID&seat=N&token=...); the fragment never reaches the server's logs.
// What the page draws for a game comes from its layout (layouts.js, games/<id>.js);
// this file draws what every table shares: the status line with the move clock, the
// seats, the move log, the hand, the buttons, the scores, the hand summary, the rules.
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
  let receivedAt = 0; // when it arrived (for the move clock)
  let pending = false; // a move was sent and not yet answered
  let selected = null; // a hand card whose several actions are offered
  let hint = null;
  let retry = 0;
  let messageTimer = null;
  let stopped = false; // a stale link or a seat taken over: no reconnecting
  let lastKey; // the layout's hand key, to notice a new hand
  let overlay = null; // the summary shown over the board after a hand ends
  let wasMyTurn = false;
  let quiet = false; // the drawn state's hand summary waits (pace.js: the last trick first)
  let hintAsked = null; // a learn table asks for the hint by itself, once per position
  let prevView = null; // the view drawn before this one (motion: what went where)
  const ui = {}; // layouts' own UI state between renders

  // "Seat 1 (you)"; in Japanese "1番席（あなた）", without the spaces
  function paren(text) { return XI18n.get() === "ja" ? `（${text}）` : ` (${text})`; }

  function seatLabel(s, short) {
    if (s === null || s === undefined) return "—";
    const base = XI18n.seatName(s);
    if (short) return s === seat ? `${base}${paren(XI18n.t("you"))}` : base;
    const extra = [];
    if (s === seat) extra.push(XI18n.t("you"));
    const spec = last && last.seats[s];
    if (spec && spec.kind === "bot") extra.push(`${XI18n.t("bot")} ${XI18n.botName(spec.bot)}`);
    return extra.length ? `${base}${paren(extra.join(XI18n.get() === "ja" ? "、" : ", "))}` : base;
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
    ui.showLast = false;
    if (learning()) XLearn.acted();
    document.body.classList.add("pending");
    send({ type: "act", action, n: last.n, seat });
    pace.release(); // what comes next answers this seat's own move: no holding
  }

  // The states go through the pace queue (pace.js), which draws each at its time.
  const pace = XPace.queue({
    layout: (msg) => XLayouts.forGame(msg.view.game),
    sweep: () => XMotion.sweep(),
    show: showState,
  });

  function showState(msg, at, opts) {
    if (last && msg.n !== last.n) { hint = null; selected = null; }
    const moved = !last || msg.n !== last.n || msg.synthetic !== last.synthetic;
    const before = moved && last ? XMotion.snapshot() : null;
    prevView = moved && last ? last.view : null;
    last = msg;
    receivedAt = at;
    quiet = Boolean(opts.quiet);
    document.body.dataset.moment = opts.moment || "";
    render();
    XMotion.arrive(before);
    if (before && prevView) XMotion.travel(before, XLayouts.forGame(msg.view.game), prevView, msg.view, seat);
    if (moved && !msg.synthetic) XClockMarks.announce(msg, seat, say);
  }

  function connect() {
    if (!tableId) {
      stale("gone");
      return;
    }
    // relative to the page, so that a server behind a path prefix (/cards/) works too
    const url = new URL(`ws/${encodeURIComponent(tableId)}`, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.hash = "";
    ws = new WebSocket(url.href);
    $("conn").textContent = XI18n.t(retry ? "reconnecting" : "connecting");
    ws.addEventListener("open", () => {
      retry = 0;
      $("conn").textContent = "";
      const hello = { type: "hello", lang: XI18n.get() };
      if (seat !== null && token) Object.assign(hello, { seat, token });
      const name = XPeople.stored();
      if (seat !== null && name) hello.name = name;
      const player = XPeople.key();
      if (player) hello.player = player;
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
      if (stopped || (last && last.finished)) return;
      retry += 1;
      $("conn").textContent = XI18n.t("reconnecting");
      setTimeout(connect, Math.min(4000, 500 * 2 ** Math.min(retry, 3)));
    });
  }

  // A link that opens nothing: say what happened and offer to watch or go to the lobby.
  function stale(kind) {
    stopped = true;
    $("table-page").hidden = true;
    $("stale").hidden = false;
    $("stale").dataset.kind = kind;
    $("stale-title").textContent = XI18n.t(kind === "taken" ? "taken_over" : "stale_title");
    $("stale-text").textContent = kind === "gone" ? XI18n.t("stale_gone", { id: tableId || "—" })
      : kind === "token" ? XI18n.t("stale_token") : "";
    const watch = $("stale-watch");
    watch.hidden = kind === "gone";
    watch.textContent = XI18n.t(kind === "taken" ? "reopen" : "stale_watch");
    watch.href = kind === "taken" ? location.href : `table#t=${encodeURIComponent(tableId || "")}`;
    watch.onclick = () => { setTimeout(() => location.reload(), 0); };
    $("stale-lobby").textContent = XI18n.t("stale_lobby");
    if (ws) { try { ws.close(); } catch (e) { /* closed already */ } }
  }

  function handle(msg) {
    if (msg.type === "welcome") {
      info = msg.table;
      XSettings.init(info.game);
      $("game-name").textContent = XI18n.get() === "ja" ? info.name_ja : info.name_en;
      remember();
      XChat.show(msg.chat);
      // a learn table is the learner's own with bots: nothing to host
      XHost.init(send, tableId, Boolean(msg.host) && !learning());
    } else if (msg.type === "chat") {
      XChat.add(msg);
    } else if (msg.type === "rematch") {
      rematchTo(msg);
    } else if (msg.type === "host_link") {
      XHost.gotLink(msg);
    } else if (msg.type === "state") {
      pending = false;
      document.body.classList.remove("pending");
      XChat.allow(seat !== null || Boolean(msg.settings && msg.settings.spectator_chat));
      XHost.render(msg);
      pace.push(msg);
    } else if (msg.type === "error") {
      pending = false;
      document.body.classList.remove("pending");
      if (msg.code === "no_table") { stale("gone"); return; }
      if (msg.code === "bad_token") { stale("token"); return; }
      if (msg.code === "taken_over") { stale("taken"); return; }
      say(msg.message);
      if (last) render();
    } else if (msg.type === "hint") {
      if (last && msg.n === last.n) { hint = msg; render(); }
    }
  }

  // Every human agreed to play again: a seat moves to its new seat (its own new link);
  // a spectator is offered to watch the new table.
  function rematchTo(msg) {
    if (msg.token && msg.seat === seat) {
      $("rematch-note").textContent = XI18n.t("rematch_ready");
      stopped = true;
      location.hash = `t=${encodeURIComponent(msg.table)}&seat=${msg.seat}&token=${encodeURIComponent(msg.token)}`;
    } else if (seat === null && msg.table) {
      const link = $("rematch-watch");
      link.href = `table#t=${encodeURIComponent(msg.table)}`;
      link.hidden = false;
      $("rematch-box").hidden = false;
    }
  }

  function renderRematch() {
    const box = $("rematch-box");
    // a learn table offers "Learn again" and "Play a real match" instead (learn.js)
    const r = last && last.finished && !learning() ? last.rematch : null;
    if (!r || seat === null) { if (seat !== null) box.hidden = true; return; }
    box.hidden = false;
    const mine = r.votes.includes(seat);
    $("rematch-btn").disabled = mine || Boolean(r.table);
    $("rematch-btn").title = XI18n.t("rematch_help");
    const missing = r.humans.filter((s) => !r.votes.includes(s));
    $("rematch-note").textContent = r.table ? XI18n.t("rematch_ready")
      : r.votes.length ? XI18n.t("rematch_wait", {
        who: missing.map((s) => seatLabel(s, true)).join(", "), n: r.votes.length, m: r.humans.length,
      }) : XI18n.t("rematch_help");
  }

  function askName() {
    $("name-input").value = XPeople.stored() || (last && last.seats[seat] && last.seats[seat].name) || "";
    $("name-error").hidden = true;
    const dialog = $("name-dialog");
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
    $("name-input").focus();
  }

  // "My tables": the tables this browser joined, for the lobby (kept in localStorage).
  function remember() {
    if (!info) return;
    try {
      const list = JSON.parse(localStorage.getItem("xtarot.tables") || "[]")
        .filter((x) => !(x.id === info.id && x.seat === seat));
      list.unshift({ id: info.id, seat, game: info.game, link: location.href, at: Date.now() });
      localStorage.setItem("xtarot.tables", JSON.stringify(list.slice(0, 30)));
    } catch (e) { /* storage full or disabled: nothing to keep */ }
  }

  // A learn table (POST /api/learn): the coach explains the rules as they come up and
  // shows the hint for each decision (learn.js).
  function learning() { return Boolean(info && info.learn); }

  function renderCoach(view, layout, myTurn) {
    const box = $("coach");
    if (!learning() || seat === null) { box.hidden = true; return; }
    // the coach shows the hint of every decision: ask for it once per position
    if (myTurn && !hint && hintAsked !== last.n && !last.synthetic) {
      hintAsked = last.n;
      send({ type: "hint", lang: XI18n.get() });
    }
    XLearn.render(box, {
      tableId, game: view.game, view, seat, myTurn, hint, finished: last.finished, seatLabel, n: last.n,
      label: (a) => layout.label(a),
    });
  }

  // -- drawing --------------------------------------------------------------------------
  function ctxFor(view, layout, legal, myTurn) {
    return {
      seat, seatLabel, legal, myTurn, act, ui, view,
      hint: hint ? hint.action : null,
      rerender: render,
      label: (a) => layout.label(a),
    };
  }

  // The games whose layout the page was meant to load (the six built-in ones and the
  // plugins' layouts: script tags with data-layout).
  const EXPECTED = new Set([...document.querySelectorAll("script[data-layout]")]
    .map((s) => s.dataset.layout));

  // A game without its registered layout: when one was meant to load, the table says
  // so in words and what to do (instead of showing the debug listing as if it were
  // the table); a plugin game that has no layout gets the plain listing, labelled.
  function layoutNote(game) {
    if (XLayouts.has(game)) return null;
    const missing = EXPECTED.has(game);
    const note = make("div", `layout-note ${missing ? "missing" : "plain"}`);
    note.dataset.layout = missing ? "missing" : "none";
    if (missing) {
      note.appendChild(make("h2", "", XI18n.t("layout_missing_title")));
      note.appendChild(make("p", "", XI18n.t("layout_missing_text")));
      note.appendChild(make("p", "", XI18n.t("layout_missing_fix")));
    } else {
      note.appendChild(make("p", "", XI18n.t("layout_none")));
    }
    return note;
  }

  function render() {
    if (!last) return;
    XI18n.setNames(last.seats.map((s) => s.name));
    renderRematch();
    const view = last.view;
    const layout = XLayouts.forGame(view.game);
    const legal = view.legal_actions || [];
    const myTurn = seat !== null && view.current_player === seat && legal.length > 0 && !last.finished;
    const hand = layout.sortHand(view, (view.hand || []).slice());
    const ctx = ctxFor(view, layout, legal, myTurn);
    document.body.dataset.game = view.game;

    renderStatus(view, layout, myTurn);
    renderSeats(view, layout, ctx);

    // board
    const board = $("board");
    board.textContent = "";
    board.className = `board board-${view.game}`;
    const note = layoutNote(view.game);
    if (note) board.appendChild(note);
    try {
      if (!note || !note.classList.contains("missing")) layout.board(view, ctx, board);
      if (last.synthetic) board.dataset.final = "1"; else delete board.dataset.final;
    } catch (err) {
      // a layout bug must not blank the table: fall back to the generic listing
      board.textContent = "";
      XLayouts.generic.board(view, ctx, board);
      console.warn(err); // eslint-disable-line no-console
    }
    renderOverlay(view, layout, ctx, board);

    // which actions a hand card stands for; custom controls; the rest are buttons
    const inHand = new Set(hand);
    const byCard = new Map();
    const loose = [];
    for (const a of legal) {
      const codes = layout.cardsOf(a).filter((c) => inHand.has(c));
      if (codes.length) {
        for (const c of codes) {
          if (!byCard.has(c)) byCard.set(c, []);
          byCard.get(c).push(a);
        }
      } else {
        loose.push(a);
      }
    }
    const choices = $("choices");
    choices.textContent = "";
    let drawn = new Set();
    if (myTurn && layout.controls) drawn = layout.controls(view, ctx, choices) || new Set();
    const offered = selected && byCard.has(selected) ? byCard.get(selected) : [];
    const buttons = loose.filter((a) => !drawn.has(a));
    if (myTurn && (buttons.length || offered.length)) {
      const row = make("div", "button-row");
      if (offered.length) row.appendChild(make("span", "muted", XI18n.t("choose")));
      for (const a of [...offered, ...buttons]) row.appendChild(XLayouts.actionButton(ctx, a, layout.label(a)));
      choices.appendChild(row);
    }
    if (XAutoPass.consider(last, seat, autoPass)) {
      choices.appendChild(make("p", "muted autopass-note", XI18n.t("autopass_note")));
    }
    choices.hidden = !choices.childNodes.length;

    // hand
    $("hand-box").hidden = seat === null || (last.finished && !hand.length);
    const handEl = $("hand");
    handEl.textContent = "";
    handEl.classList.toggle("fan", hand.length <= XCards.FAN_MAX);
    for (const code of hand) {
      const svg = XCards.svg(code, { size: "m", title: XCards.name(code, XI18n.get()) });
      const wrap = make("button", "card");
      wrap.type = "button";
      wrap.dataset.card = code;
      wrap.appendChild(svg);
      const actions = byCard.get(code) || [];
      if (myTurn && actions.length) {
        wrap.classList.add("legal");
        if (actions.length === 1) wrap.dataset.action = actions[0];
        if (hint && actions.includes(hint.action)) wrap.classList.add("hinted");
        if (selected === code) wrap.classList.add("selected");
        wrap.addEventListener("click", () => {
          if (actions.length === 1) act(actions[0]);
          else { selected = selected === code ? null : code; render(); }
        });
      } else {
        wrap.disabled = true;
        // dimmed only when some hand cards are playable now (not while drawing or buying)
        if (myTurn && byCard.size) wrap.classList.add("illegal");
      }
      handEl.appendChild(wrap);
    }
    $("hand-note").textContent = hand.length ? XI18n.cards(hand.length) : "";
    const hintBtn = $("hint");
    hintBtn.hidden = !myTurn || learning(); // a learn table's coach shows the hint
    const hintText = $("hint-text");
    hintText.hidden = !hint || learning();
    if (hint && !learning()) {
      hintText.textContent = "";
      hintText.appendChild(make("strong", "", `${XI18n.t("hint")}: `));
      hintText.appendChild(XLayouts.richLabel(layout.label(hint.action)));
      hintText.appendChild(make("span", "", " — "));
      // the cards the reason names drawn in; a bid's reason names contracts ("6c")
      hintText.appendChild(XRichText.render(hint.text, { cards: !hint.action.startsWith("bid ") }));
    }

    renderCoach(view, layout, myTurn);
    renderLog(view, layout);
    renderSummary(view, layout, ctx);
    renderScores(view);
    const history = $("history-body");
    history.textContent = "";
    if (layout.history) layout.history(view, ctx, history);
    $("history").hidden = !history.childNodes.length;
    $("history-title").textContent = layout.historyTitle ? layout.historyTitle() : XI18n.t("history");

    $("download-box").hidden = !last.finished;
    if (last.finished) {
      $("download").href = `api/tables/${encodeURIComponent(tableId)}/record`;
      $("replay-link").href = replayLink(null);
    }

    notifyTurn(myTurn);
    XReach.check();
    XMotion.resume(); // drawn again: the cards on their way go on moving
  }

  // Grail Mahjong's pass-only claim window, answered for the player (autopass.js).
  function autoPass(n) {
    if (!last || last.n !== n || pending) return;
    act("pass");
  }

  function renderStatus(view, layout, myTurn) {
    const status = $("status");
    status.dataset.finished = last.finished ? "1" : "0";
    status.dataset.turn = myTurn ? "1" : "0";
    status.dataset.n = String(last.n);
    status.textContent = "";
    let line;
    if (last.finished) line = XI18n.t("finished");
    else if (last.settings && last.settings.closed) line = XI18n.t("closed");
    else if (myTurn) line = XI18n.t("your_turn");
    else line = XI18n.t("waiting", { who: seatLabel(view.current_player) });
    status.appendChild(make("span", "turn", line));
    const phase = layout.phase(view);
    if (phase && !last.finished) status.appendChild(make("span", "phase", ` · ${phase}`));
    if (seat === null) status.appendChild(make("span", "phase", ` · ${XI18n.t("spectator")}`));
    status.appendChild(make("span", "clock", ""));
    if (last.clock && !last.finished && last.clock.seat === seat) status.appendChild(make("small", "clock-rule", ""));
    status.className = `status${myTurn ? " mine" : ""}${last.finished ? " over" : ""}`;
    tickClock();
  }

  function tickClock() {
    const el = document.querySelector("#status .clock");
    if (!el || !last) return;
    const c = last.clock;
    if (!c || last.finished) { el.textContent = ""; return; }
    const left = Math.max(0, Math.ceil(c.left - (Date.now() - receivedAt) / 1000));
    const text = left < 120 ? XI18n.t("clock_left", { s: left }) : XI18n.t("clock_left_long", { t: XI18n.duration(left) });
    el.textContent = ` · ${XI18n.t("clock")}: ${text}`;
    el.title = XI18n.t("clock_rule");
    el.dataset.left = String(left);
    el.classList.toggle("low", left <= 10);
    const rule = document.querySelector("#status .clock-rule");
    if (rule) rule.textContent = ` (${XI18n.t("clock_rule")})`;
  }
  setInterval(tickClock, 500);

  function renderSeats(view, layout, ctx) {
    const seats = $("seats");
    seats.textContent = "";
    const totals = (view.scores && view.scores.totals) || [];
    for (let s = 0; s < view.players; s += 1) {
      const box = make("div", "seat-box");
      box.dataset.seat = String(s);
      if (s === view.current_player && !last.finished) box.classList.add("acting");
      if (s === seat) box.classList.add("me");
      const head = make("div", "seat-head");
      const spec = last.seats[s] || {};
      const dot = make("span", `dot ${spec.connected ? "on" : "off"}`);
      dot.title = XI18n.t(spec.connected ? "online" : "offline");
      head.appendChild(dot);
      head.appendChild(make("strong", "", seatLabel(s)));
      if (totals[s] !== undefined) head.appendChild(make("span", "score", String(totals[s])));
      box.appendChild(head);
      const extra = make("div", "seat-extra");
      if (spec.name) extra.appendChild(make("span", "seat-no", XI18n.seatNumber(s)));
      if (s === seat) {
        const rename = make("button", "small rename", XI18n.t("set_name"));
        rename.type = "button";
        rename.addEventListener("click", askName);
        extra.appendChild(rename);
      }
      if (spec.autopilot) extra.appendChild(make("span", "chip warn", XI18n.t("autopilot")));
      layout.seatExtra(view, s, extra, ctx);
      box.appendChild(extra);
      seats.appendChild(box);
    }
  }

  function renderLog(view, layout) {
    const box = $("log");
    const entries = last.log || [];
    $("log-box").hidden = !entries.length;
    box.textContent = "";
    let mine = -1;
    if (seat !== null) entries.forEach((e, i) => { if (e.seat === seat) mine = i; });
    let hand = null;
    entries.forEach((e, i) => {
      if (hand !== null && e.hand !== hand) {
        // a game's own word for a hand where it has one (Grail Mahjong: 第2局)
        const own = XI18n.g(view.game, "hand_n", { n: e.hand + 1 });
        box.appendChild(make("li", "sep", own ? `— ${own} —` : XI18n.t("new_hand", { n: e.hand + 1 })));
      }
      hand = e.hand;
      const li = make("li", i > mine && mine >= 0 ? "new" : "");
      if (i === mine + 1 && mine >= 0 && seat !== null) li.classList.add("first-new");
      li.dataset.n = String(e.n);
      li.appendChild(make("span", "who", seatLabel(e.seat, true)));
      li.appendChild(XLayouts.richLabel(layout.label(e.text)));
      if (e.clock) XClockMarks.mark(li);
      box.appendChild(li);
    });
    if (mine >= 0 && mine < entries.length - 1) {
      box.insertBefore(make("li", "since", `▼ ${XI18n.t("since_last")}`), box.querySelector("li.first-new"));
    }
    box.scrollTop = box.scrollHeight;
  }

  // The replay page (replay.js) at this table, from this seat; before the end of the
  // match only a seat may replay (its own view, with its token, in the fragment only).
  // hand: open it at that hand's first step.
  function replayLink(hand) {
    const p = new URLSearchParams();
    p.set("t", tableId);
    if (seat !== null) p.set("seat", String(seat));
    if (!(last && last.finished) && seat !== null && token) p.set("token", token);
    if (hand !== null && hand !== undefined) p.set("hand", String(hand));
    return `replay#${p.toString()}`;
  }

  // "See this hand again" under a hand's summary: the hand the latest move ended.
  function againLink() {
    const entries = (last && last.log) || [];
    if (!entries.length || !(last.finished || (seat !== null && token))) return null;
    const a = make("a", "chip-link replay-hand-link", XI18n.t("replay_this_hand"));
    a.href = replayLink(entries[entries.length - 1].hand);
    a.target = "_blank";
    a.rel = "noopener";
    return a;
  }

  function renderSummary(view, layout, ctx) {
    const box = $("summary");
    box.textContent = "";
    let body = null;
    // not twice: while the summary is shown over the board, the side panel waits
    const overBoard = overlay && !overlay.dismissed;
    if (!overBoard) {
      try { body = layout.summary(view, ctx); } catch (err) { body = null; }
    }
    box.hidden = !body;
    if (!body) return;
    box.appendChild(make("h2", "", last.finished ? XI18n.t("match_over")
      : (XI18n.g(view.game, "summary_title") || XI18n.t("last_hand"))));
    box.appendChild(body);
    if (last.finished && learning()) box.appendChild(XLearn.endBlock(view.game, view.players));
    if (last.finished) {
      const again = againLink();
      if (again) box.appendChild(again);
    }
  }

  // When a hand ends (the layout's hand key changes) or the match ends, its summary is
  // shown over the board until dismissed (or the next move of this seat).
  function renderOverlay(view, layout, ctx, board) {
    if (quiet) return; // the hand's last trick is shown first; the summary comes next
    const key = layout.handKey(view);
    const changed = lastKey !== undefined && key !== lastKey;
    if (changed || (last.finished && overlay === null)) overlay = { n: last.n };
    lastKey = key;
    if (!overlay || overlay.dismissed) return;
    let body = null;
    try { body = layout.summary(view, ctx); } catch (err) { body = null; }
    if (!body) return;
    const box = make("div", "overlay");
    // a game's own word for a hand (Grail Mahjong: 局) where it has one
    const title = last.finished ? XI18n.t("match_over") : (XI18n.g(view.game, "hand_over") || XI18n.t("hand_over"));
    box.appendChild(make("h2", "", title));
    box.appendChild(body);
    if (last.finished && learning()) box.appendChild(XLearn.endBlock(view.game, view.players));
    const again = againLink();
    if (again) box.appendChild(again);
    const ok = make("button", "small", XI18n.t("dismiss"));
    ok.type = "button";
    ok.className = "small dismiss";
    ok.addEventListener("click", () => { overlay.dismissed = true; render(); });
    box.appendChild(ok);
    board.appendChild(box);
  }

  function renderScores(view) {
    const box = $("scores");
    box.textContent = "";
    const sc = view.scores;
    box.hidden = !sc;
    if (!sc) return;
    box.appendChild(make("h2", "", XI18n.t("scores")));
    const table = make("table", "scores");
    const head = make("tr");
    // once the match is rated: each seat's rating before and after
    const rated = last.finished && Array.isArray(last.results) && last.results.length ? last.results : null;
    const heads = [XI18n.t("seat"), XI18n.t("scores"), XI18n.t("rank")];
    if (rated) heads.push(XI18n.t("rating"));
    for (const h of heads) head.appendChild(make("th", "", h));
    table.appendChild(head);
    for (let s = 0; s < sc.totals.length; s += 1) {
      const row = make("tr");
      if (sc.final && sc.winners.includes(s)) row.classList.add("winner");
      row.appendChild(make("td", "", seatLabel(s, true)));
      row.appendChild(make("td", "num", String(sc.totals[s])));
      row.appendChild(make("td", "num", String(sc.ranks[s])));
      if (rated) {
        const r = rated.find((x) => x.seat === s);
        let text = "—";
        if (r && r.after !== null) {
          const d = r.after - r.before;
          text = `${r.after} (${d >= 0 ? "+" : ""}${d})`;
        }
        const cell = make("td", "num rating", "");
        if (r && r.player) {
          const a = make("a", "", text);
          a.href = `players#p=${encodeURIComponent(r.player)}`;
          cell.appendChild(a);
        } else cell.textContent = text;
        row.appendChild(cell);
      }
      table.appendChild(row);
    }
    box.appendChild(table);
    if (rated && info) {
      const a = make("a", "chip-link", XI18n.t("leaderboard"));
      a.href = `players#g=${encodeURIComponent(info.game)}`;
      box.appendChild(a);
    }
    if (sc.final) {
      const names = sc.winners.map((s) => seatLabel(s, true)).join(", ");
      box.appendChild(make("p", "final", `${XI18n.t("winners")}: ${names}`));
    }
  }

  // -- your turn: the tab title (also in the background) and an optional sound ---------
  function notifyTurn(myTurn) {
    const name = info ? (XI18n.get() === "ja" ? info.name_ja : info.name_en) : "xtarot";
    document.title = myTurn ? XI18n.t("your_turn_title", { game: name }) : `${name} — xtarot`;
    badge(myTurn);
    if (myTurn && !wasMyTurn && $("sound").checked) beep();
    wasMyTurn = myTurn;
  }

  // A dot on the tab's icon while it is your turn (drawn once, then kept).
  let dot = null;
  function badge(on) {
    let icon = document.querySelector("link[rel='icon']");
    if (!icon) { icon = document.createElement("link"); icon.rel = "icon"; document.head.appendChild(icon); }
    if (on && dot === null) {
      const c = document.createElement("canvas");
      c.width = c.height = 32;
      const g = c.getContext("2d");
      if (g) {
        g.fillStyle = "#d93025";
        g.beginPath();
        g.arc(16, 16, 12, 0, 2 * Math.PI);
        g.fill();
        dot = c.toDataURL("image/png");
      } else dot = "data:,";
    }
    icon.href = on ? dot : "data:,";
    document.body.dataset.yourTurn = on ? "1" : "0";
  }

  let audio = null;
  function beep() {
    try {
      audio = audio || new AudioContext();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.25);
    } catch (e) { /* no audio here */ }
  }

  // -- rules ---------------------------------------------------------------------------
  async function showRules() {
    const game = (info && info.game) || (last && last.view.game);
    if (!game) return;
    const name = info ? (XI18n.get() === "ja" ? info.name_ja : info.name_en) : game;
    await XLayouts.showRules(game, name);
  }

  function translate() {
    XSettings.translate();
    document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = XI18n.t(n.dataset.t); });
    $("lang").textContent = XI18n.get() === "ja" ? "English" : "日本語";
    if (info) $("game-name").textContent = XI18n.get() === "ja" ? info.name_ja : info.name_en;
    XChat.render();
    XHost.build();
    render();
  }

  $("lang").addEventListener("click", () => {
    XI18n.set(XI18n.get() === "ja" ? "en" : "ja");
    hint = null;
    hintAsked = null; // the coach asks again, in the new language
    translate();
    if ($("rules-dialog").open) showRules();
  });
  $("hint").addEventListener("click", () => {
    $("hint-text").hidden = false;
    $("hint-text").textContent = XI18n.t("hint_busy");
    send({ type: "hint", lang: XI18n.get() });
  });
  $("rules").addEventListener("click", showRules);
  $("coach-btn").addEventListener("click", () => { XLearn.showAgain(); render(); });
  $("host-btn").addEventListener("click", () => XHost.open());
  $("host-close").addEventListener("click", () => $("host-dialog").close());
  $("rules-close").addEventListener("click", () => $("rules-dialog").close());
  $("sound").checked = localStorage.getItem("xtarot.sound") === "1";
  $("sound").addEventListener("change", () => {
    localStorage.setItem("xtarot.sound", $("sound").checked ? "1" : "0");
    if ($("sound").checked) beep();
  });
  $("rematch-btn").addEventListener("click", () => {
    $("rematch-btn").disabled = true;
    send({ type: "rematch" });
  });
  $("name-cancel").addEventListener("click", () => $("name-dialog").close());
  $("name-form").addEventListener("submit", (event) => {
    const name = XPeople.store($("name-input").value);
    if (name === null) {
      event.preventDefault();
      $("name-error").textContent = XI18n.t("name_bad");
      $("name-error").hidden = false;
      return;
    }
    send({ type: "name", name });
  });
  XChat.init(send, seat !== null);
  window.addEventListener("hashchange", () => location.reload());
  translate();
  connect();
})();
