// The replay page: a match drawn step by step with the game's own table layout.
//
// replay#t=ID[&seat=N][&step=K]   a table's match (finished; or, with &token=, a seat's
//                                 own view of a match still being played)
// replay                          a record file to open (picker or drag and drop)
//
// The frames come from the server (api/tables/ID/replay, or POST api/replay with a
// record): each step's view from one perspective, the move that led there as that
// viewer saw it, the hand, and after the end every hand as dealt.  Each frame is drawn
// by XLayouts.forGame(game) with a ctx where nothing is legal: no move can be clicked.
// Every address is relative to the page, so a server under a path prefix works too.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const { make } = XLayouts;
  const params = new URLSearchParams(location.hash.slice(1));
  const tableId = params.get("t");
  const token = params.get("token"); // a seat's own replay of an unfinished match
  let perspective = params.has("seat") && params.get("seat") !== "" ? Number(params.get("seat")) : null;
  let wanted = params.has("step") ? Number(params.get("step")) : null;
  let wantedHand = params.has("hand") ? Number(params.get("hand")) : null; // "see this hand again"

  let data = null; // the server's answer: {game, players, frames, log, hands, deals, ...}
  let record = null; // an uploaded record (kept to ask for another perspective)
  let step = 0;
  let playing = null; // the play timer
  let ui = {}; // the layout's own UI state between renders
  let drawn = -1; // the frame drawn last (to know when a jump needs a fresh ui)
  let gameInfo = null;

  function say(text) {
    const box = $("message");
    box.textContent = text;
    box.className = "message page error";
    box.hidden = !text;
  }

  function seatLabel(s, short) {
    if (s === null || s === undefined) return "—";
    const base = XI18n.seatName(s);
    if (short) return s === perspective ? `${base} ★` : base;
    const spec = data && data.seats && data.seats[s];
    if (spec && spec.kind === "bot" && spec.bot) return `${base} (${XI18n.t("bot")} ${XI18n.botName(spec.bot)})`;
    return base;
  }

  // -- loading --------------------------------------------------------------------------
  async function load() {
    say("");
    stop();
    $("status").textContent = XI18n.t("replay_loading");
    let res;
    try {
      if (record) {
        const q = perspective === null ? "" : `?seat=${perspective}`;
        res = await fetch(`api/replay${q}`, {
          method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(record),
        });
      } else {
        const q = perspective === null ? "" : `?seat=${perspective}`;
        const headers = token ? { Authorization: `Bearer ${token}` } : {};
        res = await fetch(`api/tables/${encodeURIComponent(tableId)}/replay${q}`, { headers });
      }
    } catch (e) {
      say(XI18n.t("error"));
      return;
    }
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok || !body || !body.frames) {
      const why = body && body.error ? body.error : `${res.status}`;
      showProblem(res.status, why);
      return;
    }
    const first = !data;
    data = body;
    ui = {};
    drawn = -1;
    $("picker").hidden = true;
    $("replay-page").hidden = false;
    fillSelects();
    if (first) loadGameName();
    const hand = wantedHand === null ? null : data.hands.find((h) => h.hand === wantedHand);
    wantedHand = null;
    const target = hand ? hand.first : wanted !== null ? wanted : (first ? 0 : step);
    wanted = null;
    go(Math.max(0, Math.min(data.frames.length - 1, Number.isFinite(target) ? target : 0)));
  }

  function showProblem(status, why) {
    $("replay-page").hidden = !data;
    const box = $("message");
    box.textContent = "";
    box.className = "message page error";
    box.hidden = false;
    if (status === 409) {
      box.appendChild(make("p", "", XI18n.t("replay_not_over")));
    }
    box.appendChild(make("p", "", why));
    if (tableId && !record) {
      const back = make("a", "button-link", XI18n.t("replay_back_to_table"));
      back.href = `table#t=${encodeURIComponent(tableId)}`;
      box.appendChild(back);
    }
    $("status").textContent = "";
  }

  async function loadGameName() {
    try {
      const res = await fetch("api/games");
      const games = (await res.json()).games || [];
      gameInfo = games.find((g) => g.id === data.game) || null;
    } catch (e) { gameInfo = null; }
    nameGame();
  }

  function nameGame() {
    if (!data) return;
    const name = gameInfo ? (XI18n.get() === "ja" ? gameInfo.name_ja : gameInfo.name_en) : data.game;
    $("game-name").textContent = name;
    $("rules").hidden = !gameInfo;
    document.title = `${XI18n.t("replay")}: ${name} — xtarot`;
  }

  function fillSelects() {
    const hands = $("hand-select");
    hands.textContent = "";
    for (const h of data.hands) {
      const o = make("option", "", XI18n.t("replay_hand_n", { n: h.hand + 1 }));
      o.value = String(h.first);
      hands.appendChild(o);
    }
    hands.disabled = data.hands.length < 2;
    const view = $("perspective");
    view.textContent = "";
    const options = [];
    if (!token) options.push(["", XI18n.t("replay_public")]);
    for (let s = 0; s < data.players; s += 1) {
      if (token && s !== data.seat) continue;
      options.push([String(s), XI18n.seatName(s)]);
    }
    for (const [value, text] of options) {
      const o = make("option", "", text);
      o.value = value;
      view.appendChild(o);
    }
    view.value = data.seat === null ? "" : String(data.seat);
    view.disabled = options.length < 2;
    const scrub = $("scrub");
    scrub.max = String(data.frames.length - 1);
    $("download-box").hidden = !(tableId && !record && data.finished);
    if (tableId) $("download").href = `api/tables/${encodeURIComponent(tableId)}/record`;
  }

  // -- moving through the match --------------------------------------------------------
  function go(n) {
    if (!data) return;
    step = Math.max(0, Math.min(data.frames.length - 1, n));
    render();
    if (step >= data.frames.length - 1) stop();
  }

  function play() {
    if (!data) return;
    if (playing) { stop(); return; }
    if (step >= data.frames.length - 1) go(0);
    const tick = () => {
      if (step >= data.frames.length - 1) { stop(); return; }
      go(step + 1);
      if (playing) playing = setTimeout(tick, 1000 / speed());
    };
    playing = setTimeout(tick, 1000 / speed());
    playButton();
  }

  function stop() {
    if (playing) clearTimeout(playing);
    playing = null;
    playButton();
  }

  function speed() { return Number($("speed").value) || 1; }

  function playButton() {
    const b = $("play");
    b.textContent = playing ? `❚❚ ${XI18n.t("replay_pause_btn")}` : `▶ ${XI18n.t("replay_play_btn")}`;
    b.title = XI18n.t(playing ? "replay_pause" : "replay_play");
    b.dataset.playing = playing ? "1" : "0";
  }

  function control(kind) {
    if (!data) return;
    if (kind !== "play") stop();
    if (kind === "start") go(0);
    else if (kind === "prev") go(step - 1);
    else if (kind === "next") go(step + 1);
    else if (kind === "end") go(data.frames.length - 1);
    else if (kind === "play") play();
  }

  // -- drawing --------------------------------------------------------------------------
  function ctxFor(view, layout) {
    return {
      seat: data.seat, seatLabel, legal: [], myTurn: false, act() {}, ui, view, hint: null,
      rerender: render, label: (a) => layout.label(a), replay: true,
    };
  }

  // Layouts remember a little between renders (e.g. Extendori rebuilds a finished
  // hand's last trick from the frame before the next deal).  A jump draws, off screen,
  // the frames around each earlier hand's end so the drawing matches a step-by-step one.
  function warmUp(layout) {
    ui = {};
    for (const h of data.hands.slice(1)) {
      if (h.first >= step) break;
      for (const k of [h.first - 1, h.first]) {
        const view = data.frames[k].view;
        try { layout.board(view, ctxFor(view, layout), make("div")); } catch (e) { /* off screen */ }
      }
    }
  }

  function render() {
    if (!data) return;
    const frame = data.frames[step];
    const view = frame.view;
    const layout = XLayouts.forGame(data.game);
    if (step !== drawn + 1 && step !== drawn) warmUp(layout);
    drawn = step;
    const ctx = ctxFor(view, layout);
    document.body.dataset.game = data.game;
    renderStatus(frame, view, layout);

    const board = $("board");
    board.textContent = "";
    board.className = `board board-${data.game}`;
    board.dataset.step = String(step);
    try {
      layout.board(view, ctx, board);
    } catch (err) {
      board.textContent = "";
      XLayouts.generic.board(view, ctx, board);
      console.warn(err); // eslint-disable-line no-console
    }
    // nothing is legal in a replay; a layout's own review toggles (last trick) still work
    board.querySelectorAll("[data-action]").forEach((n) => { n.removeAttribute("data-action"); });

    renderHand(view, layout);
    renderSeats(view, layout, ctx);
    renderLog(layout);
    renderSummary(frame, view, layout, ctx);
    renderScores(view);
    const history = $("history-body");
    history.textContent = "";
    if (layout.history) {
      try { layout.history(view, ctx, history); } catch (e) { history.textContent = ""; }
    }
    $("history").hidden = !history.childNodes.length;
    $("history-title").textContent = layout.historyTitle ? layout.historyTitle() : XI18n.t("history");
    renderDealt(frame);
    const scrub = $("scrub");
    scrub.value = String(step);
    const hands = $("hand-select");
    const current = [...data.hands].reverse().find((h) => h.first <= step);
    if (current) hands.value = String(current.first);
    shareLink();
  }

  function renderStatus(frame, view, layout) {
    const count = $("step-count");
    const total = data.frames.length - 1;
    count.textContent = XI18n.t("replay_step", { n: step, total });
    count.dataset.step = String(step);
    count.dataset.steps = String(total);
    const status = $("status");
    status.textContent = "";
    status.className = `status${frame.match_over ? " over" : ""}`;
    status.dataset.step = String(step);
    const parts = [];
    if (data.hands.length > 1 || frame.hand > 0) parts.push(XI18n.t("replay_hand_n", { n: frame.hand + 1 }));
    if (frame.match_over) parts.push(XI18n.t("replay_match_ended"));
    else if (frame.hand_over && frame.move) parts.push(XI18n.t("replay_hand_ended", { n: frame.move.hand + 1 }));
    else if (view.current_player !== null && view.current_player !== undefined) {
      parts.push(XI18n.t("waiting", { who: seatLabel(view.current_player) }));
      const phase = layout.phase(view);
      if (phase) parts.push(phase);
    }
    status.appendChild(make("span", "turn", parts.join(" · ")));
    if (data.seat === null) status.appendChild(make("span", "phase", ` · ${XI18n.t("spectator")}`));
    else if (!data.finished) status.appendChild(make("span", "phase", ` · ${XI18n.t("replay_own_seat")}`));
    const line = make("div", "replay-move");
    if (frame.move) {
      const who = seatLabel(frame.move.seat);
      line.appendChild(make("span", "muted", XI18n.t("replay_after", { who, move: "" })));
      line.appendChild(XLayouts.richLabel(layout.label(frame.move.text)));
    } else {
      line.appendChild(make("span", "muted", XI18n.t("replay_deal")));
    }
    status.appendChild(line);
  }

  function renderHand(view, layout) {
    const box = $("hand-box");
    const hand = Array.isArray(view.hand) ? layout.sortHand(view, view.hand.slice()) : [];
    box.hidden = data.seat === null || !hand.length;
    $("hand-title").textContent = data.seat === null ? "" : XI18n.t("replay_hand_of", { seat: XI18n.seatName(data.seat) });
    $("hand-note").textContent = hand.length ? XI18n.cards(hand.length) : "";
    const el = $("hand");
    el.textContent = "";
    el.classList.toggle("fan", hand.length <= XCards.FAN_MAX);
    for (const code of hand) {
      // in a box of its own, as at the table: on a phone the boxes overlap, not the cards shrink
      const slot = make("span", "card");
      slot.dataset.card = code;
      slot.appendChild(XCards.svg(code, { size: "m", title: XCards.name(code, XI18n.get()) }));
      el.appendChild(slot);
    }
  }

  function renderSeats(view, layout, ctx) {
    const seats = $("seats");
    seats.textContent = "";
    const totals = (view.scores && view.scores.totals) || [];
    for (let s = 0; s < data.players; s += 1) {
      const box = make("div", "seat-box");
      box.dataset.seat = String(s);
      if (s === view.current_player) box.classList.add("acting");
      if (s === data.seat) box.classList.add("me");
      const head = make("div", "seat-head");
      head.appendChild(make("strong", "", seatLabel(s)));
      if (totals[s] !== undefined) head.appendChild(make("span", "score", String(totals[s])));
      box.appendChild(head);
      const extra = make("div", "seat-extra");
      try { layout.seatExtra(view, s, extra, ctx); } catch (e) { extra.textContent = ""; }
      box.appendChild(extra);
      seats.appendChild(box);
    }
  }

  let logDrawn = null;
  function renderLog(layout) {
    const box = $("log");
    if (logDrawn !== data) {
      // the whole match's moves once; each step only moves the highlight
      box.textContent = "";
      let hand = null;
      for (const e of data.log) {
        if (hand !== null && e.hand !== hand) box.appendChild(make("li", "sep", XI18n.t("new_hand", { n: e.hand + 1 })));
        hand = e.hand;
        const li = make("li", "");
        li.dataset.n = String(e.n + 1);
        li.appendChild(make("span", "who", seatLabel(e.seat).replace(/ \(.*\)$/, "")));
        li.appendChild(XLayouts.richLabel(layout.label(e.text)));
        li.addEventListener("click", () => { stop(); go(e.n + 1); });
        box.appendChild(li);
      }
      logDrawn = data;
    }
    box.querySelectorAll("li.current").forEach((li) => li.classList.remove("current"));
    box.querySelectorAll("li[data-n]").forEach((li) => {
      li.classList.toggle("future", Number(li.dataset.n) > step);
    });
    const cur = box.querySelector(`li[data-n="${step}"]`);
    $("log-box").hidden = !data.log.length;
    if (cur) {
      cur.classList.add("current");
      // keep the current move in sight inside the log (never scrolls the page)
      const top = cur.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    } else {
      box.scrollTop = 0;
    }
  }

  function renderSummary(frame, view, layout, ctx) {
    const box = $("summary");
    box.textContent = "";
    let body = null;
    try { body = layout.summary(view, ctx); } catch (err) { body = null; }
    box.hidden = !body;
    if (!body) return;
    box.classList.toggle("fresh", Boolean(frame.hand_over));
    box.appendChild(make("h2", "", XI18n.t(frame.match_over ? "match_over" : "last_hand")));
    box.appendChild(body);
  }

  function renderScores(view) {
    const box = $("scores");
    box.textContent = "";
    const sc = view.scores;
    box.hidden = !sc || !sc.totals;
    if (box.hidden) return;
    box.appendChild(make("h2", "", XI18n.t("scores")));
    const table = make("table", "scores");
    const head = make("tr");
    for (const h of [XI18n.t("seat"), XI18n.t("scores"), XI18n.t("rank")]) head.appendChild(make("th", "", h));
    table.appendChild(head);
    for (let s = 0; s < sc.totals.length; s += 1) {
      const row = make("tr");
      if (sc.final && (sc.winners || []).includes(s)) row.classList.add("winner");
      row.appendChild(make("td", "", seatLabel(s, true)));
      row.appendChild(make("td", "num", String(sc.totals[s])));
      row.appendChild(make("td", "num", String((sc.ranks || [])[s] ?? "")));
      table.appendChild(row);
    }
    box.appendChild(table);
  }

  // After the end: every hand as dealt, every seat's cards face up.
  function renderDealt(frame) {
    const box = $("dealt");
    const show = frame.match_over && Array.isArray(data.deals) && data.deals.length > 0;
    box.hidden = !show;
    box.dataset.shown = show ? "1" : "0";
    if (!show) { box.textContent = ""; return; }
    if (box.dataset.lang === XI18n.get() && box.childNodes.length) return;
    box.dataset.lang = XI18n.get();
    box.textContent = "";
    box.appendChild(make("h2", "", XI18n.t("replay_dealt")));
    data.deals.forEach((deal, h) => {
      const part = make("div", "dealt-hand");
      part.dataset.hand = String(h);
      if (data.deals.length > 1) part.appendChild(make("h3", "", XI18n.t("replay_dealt_hand", { n: h + 1 })));
      for (let s = 0; s < (deal.hands || []).length; s += 1) {
        const row = make("div", "dealt-seat");
        row.dataset.seat = String(s);
        row.appendChild(make("span", "who", seatLabel(s)));
        let codes = (deal.hands[s] || []).slice();
        try { codes = layout().sortHand({ game: data.game, players: data.players }, codes); } catch (e) { /* as dealt */ }
        row.appendChild(XLayouts.cardRow(codes, "s"));
        part.appendChild(row);
      }
      for (const [name, pile] of Object.entries(deal.piles || {})) {
        if (!Array.isArray(pile) || !pile.length || !pile.every((c) => typeof c === "string" && XCards.parse(c))) continue;
        const row = make("div", "dealt-pile");
        row.appendChild(make("span", "who", name.replace(/_/g, " ")));
        row.appendChild(XLayouts.cardRow(pile, "xs"));
        part.appendChild(row);
      }
      box.appendChild(part);
    });
  }

  function layout() { return XLayouts.forGame(data.game); }

  function shareLink() {
    const a = $("share");
    a.hidden = !tableId || Boolean(record) || Boolean(token);
    if (a.hidden) return;
    const p = new URLSearchParams();
    p.set("t", tableId);
    if (data.seat !== null) p.set("seat", String(data.seat));
    if (step) p.set("step", String(step));
    a.href = `replay#${p.toString()}`;
  }

  // -- a record file: the picker and drag and drop -------------------------------------
  async function openFile(file) {
    if (!file) return;
    say("");
    $("status").textContent = XI18n.t("replay_reading");
    let parsed;
    try {
      parsed = JSON.parse(await file.text());
    } catch (e) {
      say(XI18n.t("replay_bad_file", { why: e.message }));
      return;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      say(XI18n.t("replay_bad_file", { why: "not an object" }));
      return;
    }
    record = parsed;
    data = null;
    logDrawn = null;
    perspective = null;
    await load();
  }

  function setUpPicker() {
    $("picker").hidden = false;
    $("file").addEventListener("change", () => openFile($("file").files[0]));
    const zone = document.body;
    zone.addEventListener("dragover", (e) => { e.preventDefault(); $("drop").classList.add("over"); });
    zone.addEventListener("dragleave", () => { $("drop").classList.remove("over"); });
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      $("drop").classList.remove("over");
      const file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      openFile(file);
    });
  }

  // -- rules, language, controls --------------------------------------------------------
  async function showRules() {
    if (!data) return;
    await XLayouts.showRules(data.game, $("game-name").textContent);
  }

  function translate() {
    document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = XI18n.t(n.dataset.t); });
    document.querySelectorAll("[data-t-title]").forEach((n) => { n.title = XI18n.t(n.dataset.tTitle); });
    $("lang").textContent = XI18n.get() === "ja" ? "English" : "日本語";
    nameGame();
    playButton();
    if (data) {
      const keep = $("perspective").value;
      fillSelects();
      $("perspective").value = keep;
      logDrawn = null;
      render();
    }
  }

  document.querySelectorAll("[data-replay]").forEach((b) => {
    b.addEventListener("click", () => control(b.dataset.replay));
  });
  $("scrub").addEventListener("input", () => { stop(); go(Number($("scrub").value)); });
  $("hand-select").addEventListener("change", () => { stop(); go(Number($("hand-select").value)); });
  $("speed").addEventListener("change", () => {
    if (playing) { stop(); play(); }
  });
  $("perspective").addEventListener("change", () => {
    const v = $("perspective").value;
    perspective = v === "" ? null : Number(v);
    wanted = step;
    logDrawn = null;
    load();
  });
  document.addEventListener("keydown", (e) => {
    if (!data || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range")) return;
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "start", End: "end", " ": "play" };
    const kind = keys[e.key];
    if (!kind) return;
    e.preventDefault();
    control(kind);
  });
  $("lang").addEventListener("click", () => {
    XI18n.set(XI18n.get() === "ja" ? "en" : "ja");
    translate();
    if ($("rules-dialog").open) showRules();
  });
  $("rules").addEventListener("click", showRules);
  $("rules-close").addEventListener("click", () => $("rules-dialog").close());
  window.addEventListener("hashchange", () => location.reload());

  translate();
  if (tableId) load();
  else setUpPicker();
})();
