// The leaderboard of a game (players#g=GAME) and a player's page (players#p=ID): ratings
// per game and the latest rated matches, each with everyone at the table, its result
// and a link to its replay.  Names are set as text.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let games = [];

  function make(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function gameName(id) {
    const g = games.find((x) => x.id === id);
    return g ? (XI18n.get() === "ja" ? g.name_ja : g.name_en) : id;
  }

  function who(row) {
    if (row.bot) return `${XI18n.t("bot")} ${XI18n.botName(row.bot)}`;
    return row.name || row.player || "—";
  }

  function playerLink(row) {
    if (!row.player) return make("span", "", who(row));
    const a = make("a", "", who(row));
    a.href = `players#p=${encodeURIComponent(row.player)}`;
    return a;
  }

  function headRow(table, heads) {
    const tr = make("tr");
    for (const h of heads) tr.appendChild(make("th", "", h));
    table.appendChild(tr);
  }

  async function showBoard(game) {
    $("board-box").hidden = false;
    $("player-box").hidden = true;
    $("board-game").value = game;
    const res = await fetch(`api/leaderboard/${encodeURIComponent(game)}`);
    const rows = res.ok ? (await res.json()).players : [];
    const table = $("board");
    table.textContent = "";
    $("board-empty").hidden = rows.length > 0;
    table.hidden = rows.length === 0;
    headRow(table, [XI18n.t("place"), XI18n.t("player"), XI18n.t("rating"), XI18n.t("matches")]);
    for (const r of rows) {
      const tr = make("tr");
      tr.dataset.player = r.player;
      if (r.bot) tr.classList.add("bot-row");
      tr.appendChild(make("td", "num", String(r.place)));
      const cell = make("td");
      cell.appendChild(playerLink(r));
      tr.appendChild(cell);
      tr.appendChild(make("td", "num", String(r.rating)));
      tr.appendChild(make("td", "num", String(r.matches)));
      table.appendChild(tr);
    }
  }

  async function showPlayer(id) {
    $("board-box").hidden = true;
    $("player-box").hidden = false;
    const res = await fetch(`api/players/${encodeURIComponent(id)}`);
    const p = res.ok ? await res.json() : null;
    $("player-name").textContent = p ? `${XI18n.t("player_title")}: ${who(p)}` : XI18n.t("no_ratings");
    const ratings = $("player-ratings");
    ratings.textContent = "";
    const list = $("player-matches");
    list.textContent = "";
    if (!p) return;
    headRow(ratings, [XI18n.t("game"), XI18n.t("rating"), XI18n.t("matches")]);
    for (const r of p.ratings) {
      const tr = make("tr");
      const cell = make("td");
      const a = make("a", "", gameName(r.game));
      a.href = `players#g=${encodeURIComponent(r.game)}`;
      cell.appendChild(a);
      tr.append(cell, make("td", "num", String(r.rating)), make("td", "num", String(r.matches)));
      ratings.appendChild(tr);
    }
    $("player-empty").hidden = p.matches.length > 0;
    const locale = XI18n.get() === "ja" ? "ja-JP" : "en-GB";
    for (const m of p.matches) {
      const li = make("li", "table-item match-item");
      li.dataset.table = m.table;
      const when = new Date(m.at * 1000).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short" });
      li.appendChild(make("strong", "", `${gameName(m.game)} · ${when}`));
      const d = m.after !== null && m.before !== null ? m.after - m.before : null;
      let result = `${XI18n.t("rank")} ${m.rank}/${m.players.length} · ${m.score}`;
      if (d !== null) result += ` · ${XI18n.t("rating")} ${m.after} (${d >= 0 ? "+" : ""}${d})`;
      li.appendChild(make("span", "muted", ` ${result} `));
      const people = make("span", "match-players");
      m.players.forEach((row, i) => {
        if (i) people.appendChild(document.createTextNode(", "));
        people.appendChild(playerLink(row));
      });
      li.appendChild(people);
      const replay = make("a", "chip-link", XI18n.t("replay_link"));
      replay.href = `replay#t=${encodeURIComponent(m.table)}`;
      li.appendChild(replay);
      const record = make("a", "chip-link", XI18n.t("download"));
      record.href = `api/tables/${encodeURIComponent(m.table)}/record`;
      record.setAttribute("download", "");
      li.appendChild(record);
      list.appendChild(li);
    }
  }

  function route() {
    document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = XI18n.t(n.dataset.t); });
    $("lang").textContent = XI18n.get() === "ja" ? "English" : "日本語";
    const sel = $("board-game");
    const before = sel.value;
    sel.textContent = "";
    for (const g of games) {
      const o = make("option", "", gameName(g.id));
      o.value = g.id;
      sel.appendChild(o);
    }
    if (before) sel.value = before;
    const params = new URLSearchParams(location.hash.slice(1));
    if (params.get("p")) showPlayer(params.get("p"));
    else showBoard(params.get("g") || (games[0] && games[0].id) || "");
  }

  async function start() {
    const res = await fetch("api/games");
    games = (await res.json()).games;
    $("lang").addEventListener("click", () => { XI18n.set(XI18n.get() === "ja" ? "en" : "ja"); route(); });
    $("board-game").addEventListener("change", () => { location.hash = `g=${encodeURIComponent($("board-game").value)}`; });
    window.addEventListener("hashchange", route);
    route();
  }

  start();
})();
