// Learn: the coach of a learn table (POST /api/learn; the table's summary says
// learn: true).  Each rule is explained the first time it matters *in this seat's own
// view* — the view and the legal moves the server sent this seat, nothing else — and the
// hint for the current decision is shown beside it.  The words are in learnwords.js.
//
// Each game has a small table of triggers, in the order they are explained:
//   [id, kind, when(f), vars(f, ctx)?]
// kind "turn": about the decision in front of the player (shown at once, before any
// "info" one); "info": about something that happened (shown when no decision lesson is
// waiting).  f = facts(view, seat): the view, the hand, the legal moves, whether it is
// this seat's turn, the cards it may play...  A lesson stays until the player moves or
// clicks "Got it"; then the next one due is shown.
//
//   XLearn.due(game, view, seat)            the lessons whose trigger holds now (ids)
//   XLearn.render(box, state)               draws the coach (table.js, every drawing)
//   XLearn.acted()                          the player moved: the lesson shown is done
//   XLearn.endBlock(game, players)          the learn summary: scoring, two ways on
"use strict";

const XLearn = (() => {
  const { make } = XLayouts;

  // -- what the seat's own view says ---------------------------------------------------
  function facts(view, seat) {
    const legal = view.legal_actions || [];
    const hand = view.hand || [];
    const turn = seat !== null && seat !== undefined && view.current_player === seat && legal.length > 0;
    const plays = legal.filter((a) => a.startsWith("play ")).map((a) => a.split(" ")[1]);
    const verb = (v) => legal.some((a) => a === v || a.startsWith(`${v} `));
    return { v: view, seat, legal, hand, turn, plays, verb, phase: view.phase };
  }

  // trick games: the cards on the current trick
  const onTrick = (f) => ((f.v.trick && f.v.trick.cards) || []).length;
  // the legal plays are a strict part of the hand: a following rule is at work
  const restricted = (f) => f.turn && f.plays.length > 0 && f.plays.length < f.hand.length;
  const free = (f) => f.turn && f.hand.length > 1 && f.plays.length === f.hand.length;
  const lastOf = (list) => (list && list.length ? list[list.length - 1] : null);
  const contract = (f) => f.v.contract || null;
  const suitName = (s) => {
    const suit = XCards.SUITS[s];
    return suit ? suit[XI18n.get()] : s;
  };

  const TRIGGERS = {
    fairy500: [
      ["auction", "turn", (f) => f.turn && f.phase === "auction"],
      ["call", "turn", (f) => f.turn && f.phase === "call"],
      ["kitty", "turn", (f) => f.turn && f.phase === "discard"],
      ["lead", "turn", (f) => f.turn && f.phase === "play" && onTrick(f) === 0],
      ["follow", "turn", (f) => f.phase === "play" && onTrick(f) > 0 && restricted(f)],
      ["void", "turn", (f) => f.phase === "play" && onTrick(f) > 0 && free(f) && Boolean(contract(f) && contract(f).trump)],
      ["void_nt", "turn", (f) => f.phase === "play" && onTrick(f) > 0 && free(f) && !(contract(f) && contract(f).trump)],
      ["partner", "info", (f) => Boolean(f.v.is_partner) && contract(f) && contract(f).declarer !== f.seat,
        (f, ctx) => ({ who: ctx.seatLabel(contract(f).declarer, true) })],
      ["contract_me", "info", (f) => f.phase === "play" && contract(f) && contract(f).kind === "contract" && contract(f).declarer === f.seat,
        (f) => ({ n: (/(\d+)/.exec(contract(f).bid) || ["", "?"])[1] })],
      ["contract", "info", (f) => f.phase === "play" && contract(f) && contract(f).kind === "contract" && contract(f).declarer !== f.seat,
        (f, ctx) => ({ who: ctx.seatLabel(contract(f).declarer, true), n: (/(\d+)/.exec(contract(f).bid) || ["", "?"])[1] })],
      ["misere_me", "info", (f) => contract(f) && contract(f).kind === "misere" && contract(f).declarer === f.seat],
      ["misere", "info", (f) => contract(f) && contract(f).kind === "misere" && contract(f).declarer !== f.seat,
        (f, ctx) => ({ who: ctx.seatLabel(contract(f).declarer, true) })],
      ["ramsch", "info", (f) => contract(f) && contract(f).kind === "ramsch"],
      ["ten_per_trick", "info", (f) => contract(f) && contract(f).kind === "ten_per_trick"],
      ["trump", "info", (f) => f.phase === "play" && contract(f) && Boolean(contract(f).trump),
        (f) => ({ suit: suitName(contract(f).trump) })],
      ["notrump", "info", (f) => f.phase === "play" && contract(f) && contract(f).kind === "contract" && !contract(f).trump],
      ["trick", "info", (f) => (f.v.tricks || []).length > 0 && Boolean(contract(f) && contract(f).trump),
        (f, ctx) => ({ who: ctx.seatLabel(lastOf(f.v.tricks).winner, true) })],
      ["trick_nt", "info", (f) => (f.v.tricks || []).length > 0 && !(contract(f) && contract(f).trump),
        (f, ctx) => ({ who: ctx.seatLabel(lastOf(f.v.tricks).winner, true) })],
    ],
    extendori: [
      ["lead", "turn", (f) => f.turn && onTrick(f) === 0],
      ["follow", "turn", (f) => onTrick(f) > 0 && restricted(f) &&
        (f.v.trick.led_suit === "T" || !f.plays.every((c) => c.startsWith("T")))],
      ["major", "turn", (f) => onTrick(f) > 0 && restricted(f) && f.v.trick.led_suit !== "T" &&
        f.plays.every((c) => c.startsWith("T"))],
      ["void", "turn", (f) => onTrick(f) > 0 && free(f)],
      ["trick", "info", (f) => (f.v.tricks || []).length > 0,
        (f, ctx) => ({ who: ctx.seatLabel(lastOf(f.v.tricks).winner, true) })],
      ["points", "info", (f) => (f.v.hand_points || []).some((p) => p > 0)],
      ["batch", "info", (f) => (f.v.batch || 1) > 1, (f, ctx) => ({ who: ctx.seatLabel(f.v.dealer, true) })],
    ],
    "sono-arcana": [
      ["lot", "turn", (f) => f.turn && f.phase === "lot"],
      ["bid", "turn", (f) => f.turn && f.phase === "bid"],
      ["follow", "turn", (f) => f.phase === "play" && f.v.mode === "up" && restricted(f)],
      ["void", "turn", (f) => f.phase === "play" && f.v.mode === "up" && free(f)],
      ["down", "turn", (f) => f.turn && f.phase === "play" && f.v.mode === "down"],
      ["lot_other", "info", (f) => (f.v.lot || []).length > 0 && f.v.parent !== f.seat && f.phase !== "over",
        (f, ctx) => ({ who: ctx.seatLabel(f.v.parent, true) })],
      ["won", "info", (f) => (f.v.rounds || []).length > 0,
        (f, ctx) => ({ who: ctx.seatLabel(lastOf(f.v.rounds).winner, true) })],
      ["equal", "info", (f) => (f.v.rounds || []).some((r) => (r.void || []).length > 0)],
      ["clash", "info", (f) => ((((f.v.scores || {}).detail || {}).face_down) || []).some((d) => d && d.length)],
      ["final", "info", (f) => Boolean(f.v.final_round) && f.phase !== "over"],
    ],
    "grail-mahjong": [
      ["claim", "turn", (f) => f.turn && f.phase === "claim" && f.verb("claim"),
        (f, ctx) => ({ who: ctx.seatLabel(f.v.claim.seat, true), card: f.v.claim.card })],
      ["pass", "turn", (f) => f.turn && f.phase === "claim" && !f.verb("claim")],
      ["discard", "turn", (f) => f.turn && f.phase === "turn" && f.verb("discard")],
      ["meld", "turn", (f) => f.turn && (f.verb("pon") || f.verb("chi"))],
      ["add", "turn", (f) => f.turn && f.verb("add")],
      ["luck", "turn", (f) => f.turn && f.verb("luck")],
      ["wild", "info", (f) => f.hand.includes("Oc")],
      ["rest", "info", (f) => f.hand.includes("Rc")],
      ["claimed", "info", (f) => Boolean(f.v.last_claim) && f.v.last_claim.seat !== f.seat,
        (f, ctx) => ({ who: ctx.seatLabel(f.v.last_claim.seat, true) })],
    ],
    matto: [
      ["draw", "turn", (f) => f.turn && f.phase === "draw"],
      ["buy", "turn", (f) => f.turn && f.phase === "buy" && f.verb("buy")],
      ["pay", "turn", (f) => f.turn && f.phase === "pay"],
      ["end", "turn", (f) => f.turn && f.phase === "buy" && !f.verb("buy")],
      ["sets", "info", (f) => (f.v.field || []).some((m) => ["T12", "T13", "T15", "T17", "T18", "T19", "T20", "T21"].includes(m))],
      ["fool", "info", (f) => (f.v.won || []).some((w) => (w || []).includes("T0")),
        (f, ctx) => ({ who: ctx.seatLabel((f.v.won || []).findIndex((w) => (w || []).includes("T0")), true) })],
      ["last", "info", (f) => Boolean(f.v.last_turn) && f.phase !== "over"],
    ],
    "arcana-duel": [
      ["setup", "turn", (f) => f.turn && f.phase === "setup"],
      ["refill", "turn", (f) => f.turn && f.phase !== "setup" && f.verb("place")],
      ["defend", "turn", (f) => f.turn && f.phase === "defend",
        (f) => ({ power: (f.v.attack && f.v.attack.power) || "?" })],
      ["attack", "turn", (f) => f.turn && f.verb("attack") && !(f.v.attack && (f.v.attack.cards || []).length)],
      ["target", "turn", (f) => f.turn && f.verb("at")],
      ["endturn", "turn", (f) => f.turn && f.verb("end") && (f.v.attacks_made || 0) > 0],
      ["fight", "info", (f) => (f.v.combats || []).some((c) => c.result !== "fool")],
      ["fool", "info", (f) => (f.v.combats || []).some((c) => c.result === "fool")],
    ],
  };

  // Where several decision lessons can be due at once (meld, add, luck or discard; add
  // a card to the attack, name the target or end), the one about the hinted move first.
  const ABOUT = {
    "grail-mahjong": { discard: /^discard /, meld: /^(pon|chi) /, add: /^add /, luck: /^luck$/ },
    "arcana-duel": { attack: /^attack /, target: /^at /, endturn: /^end$/, refill: /^place / },
  };

  function triggers(game) { return TRIGGERS[game] || []; }

  // The lessons whose trigger holds in this view, decisions first (ids).
  function due(game, view, seat) {
    const f = facts(view, seat);
    const out = [];
    for (const kind of ["turn", "info"]) {
      for (const [id, k, when] of triggers(game)) {
        if (k !== kind) continue;
        let on = false;
        try { on = Boolean(when(f)); } catch (e) { on = false; }
        if (on) out.push(id);
      }
    }
    return out;
  }

  // -- the coach's memory: the lessons done at this table (kept for a reload) -------------
  let table = null;
  let seen = new Set();
  let current = null; // {id, vars, kind}
  let hidden = false;

  function storeKey() { return `xtarot.learn.${table}`; }
  function load(tableId) {
    if (table === tableId) return;
    table = tableId;
    seen = new Set();
    current = null;
    try {
      const saved = JSON.parse(sessionStorage.getItem(storeKey()) || "{}");
      seen = new Set(saved.seen || []);
      hidden = Boolean(saved.hidden);
    } catch (e) { /* storage disabled: start afresh */ }
  }
  function save() {
    try { sessionStorage.setItem(storeKey(), JSON.stringify({ seen: [...seen], hidden })); } catch (e) { /* */ }
  }
  function done() {
    if (current) seen.add(current.id);
    current = null;
    save();
  }

  // The lesson to show now: the one on screen until it is done, unless a decision
  // lesson is waiting while an "info" one is shown (that one comes back afterwards).
  function pick(game, view, seat, ctx, n, hinted) {
    const f = facts(view, seat);
    const waiting = [];
    for (const kind of ["turn", "info"]) {
      for (const [id, k, when, vars] of triggers(game)) {
        if (k !== kind || seen.has(id)) continue;
        let on = false;
        try { on = Boolean(when(f)); } catch (e) { on = false; }
        if (on) waiting.push({ id, kind: k, vars: vars ? vars(f, ctx) : {} });
      }
    }
    if (current && current.kind === "info" && waiting.length && waiting[0].kind === "turn") current = null;
    const about = ABOUT[game] || {};
    const fits = (w) => Boolean(hinted && about[w.id] && about[w.id].test(hinted));
    const best = waiting.find((w) => w.kind === "turn" && fits(w)) || waiting[0];
    // the hint came after the lesson was chosen for this very position: the lesson about
    // the hinted move instead (the other one comes at a later decision)
    if (current && current.n === n && current.kind === "turn" && best && best.id !== current.id &&
      fits(best) && !fits(current)) current = null;
    if (!current && best) current = Object.assign(best, { n });
    return current;
  }

  // -- drawing -----------------------------------------------------------------------
  // Beside the felt on a wide screen (the top of the side column: the felt and the
  // pickers stay where they are); above the felt on a phone (one column).
  const WIDE = window.matchMedia ? window.matchMedia("(min-width: 861px)") : null;
  function place(box) {
    const side = document.querySelector(".side-col");
    const main = document.querySelector(".main-col");
    const parent = WIDE && WIDE.matches && side ? side : main;
    if (parent && box.parentNode !== parent) parent.insertBefore(box, parent.firstChild);
  }
  // state: {tableId, game, view, seat, myTurn, hint, finished, seatLabel, label}
  function render(box, state) {
    load(state.tableId);
    place(box);
    box.textContent = "";
    box.hidden = hidden;
    const toggle = document.getElementById("coach-btn");
    if (toggle) {
      toggle.hidden = !hidden;
      toggle.textContent = XI18n.t("learn_show");
    }
    if (hidden) return;
    const { game, view, seat } = state;
    const ctx = { seatLabel: state.seatLabel };
    const lesson = state.finished ? null
      : pick(game, view, seat, ctx, state.n, state.hint ? state.hint.action : null);
    box.dataset.lesson = lesson ? lesson.id : "";
    box.dataset.game = game;

    const head = make("div", "coach-head");
    head.appendChild(make("strong", "coach-name", XI18n.t("learn_coach")));
    const count = seen.size + (lesson ? 1 : 0);
    if (count) head.appendChild(make("span", "coach-count", XI18n.t("learn_seen", { n: count })));
    head.appendChild(make("span", "grow"));
    if (lesson) {
      const ok = make("button", "small coach-ok", XI18n.t("learn_got_it"));
      ok.type = "button";
      ok.addEventListener("click", () => { done(); render(box, state); });
      head.appendChild(ok);
    }
    const close = make("button", "small coach-close", "×");
    close.type = "button";
    close.title = XI18n.t("learn_hide");
    close.setAttribute("aria-label", XI18n.t("learn_hide"));
    close.addEventListener("click", () => { hidden = true; save(); render(box, state); });
    head.appendChild(close);
    box.appendChild(head);

    if (lesson) {
      const words = XLearnWords.lesson(game, lesson.id, lesson.vars);
      if (words) {
        box.appendChild(make("h3", "coach-title", words.title));
        const p = make("p", "coach-text");
        p.appendChild(XRichText.render(words.text));
        box.appendChild(p);
      }
    } else if (!state.finished) {
      const who = view.current_player;
      const text = !state.myTurn && who !== null && who !== undefined
        ? XI18n.t("learn_wait", { who: state.seatLabel(who, true) }) : XI18n.t("learn_done");
      box.appendChild(make("p", "coach-text muted", text));
    } else {
      box.appendChild(make("p", "coach-text", XI18n.t("learn_over")));
    }

    if (state.myTurn) {
      const line = make("p", "coach-hint");
      line.appendChild(make("strong", "", `${XI18n.t("learn_hint")}: `));
      if (state.hint) {
        line.dataset.hint = state.hint.action; // not data-action: the hint is no control
        line.appendChild(XLayouts.richLabel(state.label(state.hint.action)));
        if (state.hint.text) {
          line.appendChild(make("span", "", " — "));
          // a bid's reason names contracts ("6c"), not cards
          line.appendChild(XRichText.render(state.hint.text, { cards: !state.hint.action.startsWith("bid ") }));
        }
      } else {
        line.appendChild(make("span", "muted", XI18n.t("learn_thinking")));
      }
      box.appendChild(line);
    }
  }

  function showAgain() {
    hidden = false;
    save();
  }

  // -- the end: how the hand was scored, and where to go next --------------------------
  async function start(url, body, button) {
    button.disabled = true;
    try {
      const res = await fetch(url, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || res.statusText);
      location.href = data.seats.find((s) => s.link).link;
    } catch (err) {
      button.disabled = false;
      button.title = XI18n.t("learn_failed", { error: err.message });
      button.after(make("span", "error learn-error", XI18n.t("learn_failed", { error: err.message })));
    }
  }

  // The k-th "Learn again" of a game gets the k-th friendly deal (kept in the browser).
  function againCount(game) {
    try { return Number(localStorage.getItem(`xtarot.learn.again.${game}`) || "0"); } catch (e) { return 0; }
  }
  function learnAgain(game, button) {
    const k = againCount(game) + 1;
    try { localStorage.setItem(`xtarot.learn.again.${game}`, String(k)); } catch (e) { /* */ }
    start("api/learn", { game, again: k, player: XPeople.key() || undefined }, button);
  }

  function endBlock(game, players) {
    const box = make("div", "learn-end");
    box.appendChild(make("h3", "", XI18n.t("learn_end")));
    const p = make("p", "learn-scoring");
    p.appendChild(XRichText.render(XLearnWords.scoring(game)));
    box.appendChild(p);
    const row = make("div", "button-row learn-next");
    const real = make("button", "learn-real", XI18n.t("learn_real"));
    real.type = "button";
    real.title = XI18n.t("learn_real_help");
    real.addEventListener("click", () => start("api/tables", {
      game, players, seats: ["human", ...Array(players - 1).fill("normal")], player: XPeople.key() || undefined,
    }, real));
    const again = make("button", "learn-again", XI18n.t("learn_again"));
    again.type = "button";
    again.title = XI18n.t("learn_again_help");
    again.addEventListener("click", () => learnAgain(game, again));
    row.append(real, again);
    box.appendChild(row);
    return box;
  }

  return { due, render, acted: done, endBlock, showAgain, learnAgain, facts, TRIGGERS };
})();
