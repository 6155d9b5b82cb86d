// The table's chat: free text and quick phrases, each phrase shown in the reader's own
// language.  Messages come from the server ({"type": "chat", "n", "seat", "name", "text"
// or "phrase"}); everything is set as text, never as HTML.  Only seated players write.
"use strict";

const XChat = (() => {
  const PHRASES = ["hello", "nice", "thanks", "gg", "sorry", "wait", "again"];
  const KEEP = 100;
  let messages = [];
  let send = () => {};
  let writer = false;

  const $ = (id) => document.getElementById(id);

  function make(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function who(m) {
    return m.name || XI18n.seatNumber(m.seat);
  }

  function line(m) {
    const li = make("li");
    li.dataset.seat = String(m.seat);
    li.appendChild(make("span", "who", `${who(m)}:`));
    li.appendChild(document.createTextNode(" "));
    if (m.phrase) {
      const span = make("span", "phrase", XI18n.t(`phrase_${m.phrase}`));
      span.dataset.phrase = m.phrase;
      li.appendChild(span);
    } else {
      li.appendChild(make("span", "text", m.text));
    }
    return li;
  }

  // Draw the whole log again (after a language switch, or the history on joining).
  function render() {
    const log = $("chat-log");
    log.textContent = "";
    if (!messages.length) log.appendChild(make("li", "empty", XI18n.t("chat_empty")));
    for (const m of messages) log.appendChild(line(m));
    log.scrollTop = log.scrollHeight;
    const phrases = $("chat-phrases");
    phrases.textContent = "";
    for (const id of PHRASES) {
      const b = make("button", "small", XI18n.t(`phrase_${id}`));
      b.type = "button";
      b.dataset.phrase = id;
      b.hidden = !writer;
      b.addEventListener("click", () => send({ type: "chat", phrase: id }));
      phrases.appendChild(b);
    }
    $("chat-form").hidden = !writer;
    $("chat-readonly").hidden = writer;
  }

  function show(list) {
    messages = Array.isArray(list) ? list.slice(-KEEP) : [];
    render();
  }

  function add(m) {
    if (messages.some((x) => x.n === m.n)) return;
    messages.push(m);
    messages = messages.slice(-KEEP);
    render();
  }

  // sender(message) sends over the table's websocket; canWrite: a seated player.
  function init(sender, canWrite) {
    send = sender;
    writer = canWrite;
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("chat-input").value.trim();
      if (!text) return;
      send({ type: "chat", text });
      $("chat-input").value = "";
    });
    render();
  }

  // The host let spectators write (or stopped them): canWrite for this page now.
  function allow(canWrite) {
    if (canWrite === writer) return;
    writer = canWrite;
    render();
  }

  return { init, show, add, render, allow, PHRASES };
})();
