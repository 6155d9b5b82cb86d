// The player's display name, kept in this browser (localStorage "xtarot.name") and
// checked as the server checks it (xtarot/server/people.py): spaces collapsed, 1 to 24
// characters, no control characters nor bidirectional overrides.
"use strict";

const XPeople = (() => {
  const KEY = "xtarot.name";
  const MAX = 24;
  const BAD = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  // The name as it will be shown, or null when it cannot be one.
  function clean(raw) {
    if (typeof raw !== "string") return null;
    const text = raw.normalize("NFC").split(/\s+/).filter(Boolean).join(" ");
    if (BAD.test(raw.replace(/\s/g, " ")) || !text || [...text].length > MAX) return null;
    return text;
  }

  function stored() {
    try { return clean(localStorage.getItem(KEY) || ""); } catch (e) { return null; }
  }

  function store(raw) {
    const name = clean(raw);
    if (name === null) return null;
    try { localStorage.setItem(KEY, name); } catch (e) { /* storage disabled: this page only */ }
    return name;
  }

  return { clean, stored, store, MAX };
})();
