// The player's display name, kept in this browser (localStorage "xtarot.name") and
// checked as the server checks it (xtarot/server/people.py): spaces collapsed, 1 to 24
// characters, no control characters nor bidirectional overrides.  And the player's
// secret key ("xtarot.player"): made here once, sent to the server in the body of a
// request or a websocket message (never in an address), which stores only its hash.
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

  const PLAYER = "xtarot.player";
  const KEY_RE = /^[A-Za-z0-9_-]{16,64}$/;

  // This browser's player key, made on first use (24 random bytes, URL-safe base64).
  function key() {
    try {
      const have = localStorage.getItem(PLAYER);
      if (have && KEY_RE.test(have)) return have;
      const bytes = crypto.getRandomValues(new Uint8Array(24));
      const made = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
      localStorage.setItem(PLAYER, made);
      return made;
    } catch (e) { return null; } // storage disabled: no identity
  }

  // Take over an identity brought from another device; false when it is not a key.
  function adopt(raw) {
    if (typeof raw !== "string" || !KEY_RE.test(raw)) return false;
    try { localStorage.setItem(PLAYER, raw); return true; } catch (e) { return false; }
  }

  return { clean, stored, store, MAX, key, adopt };
})();
