// A sentence with card codes in it ("dump my lowest plain card (10d)", "Adを打ち出す")
// shown with the cards drawn in, wherever the code stands (also against Japanese text,
// which has no spaces).  Used for the bots' hints; plain text otherwise (textContent).
"use strict";

const XRichText = (() => {
  // a code not inside a longer word: majors T0..T23, minors rank + suit
  const CODE = /(^|[^A-Za-z0-9])(T\d{1,2}|(?:10|11|12|13|14|15|[2-9NAREBLWJCQKMFO])[cdsw])(?=$|[^A-Za-z0-9])/g;

  // a trick-taking contract ("7d", "10nt") not inside a longer word
  const CONTRACT = /(^|[^A-Za-z0-9])((?:6|7|8|9|10)(?:nt|[cdsw]))(?=$|[^A-Za-z0-9])/g;

  // opts.cards: false keeps card codes as text (e.g. a bid's reason, where "6c" names
  // a contract, not a card); opts.contract(code): the words for a contract code
  // ("7d" -> "7 金貨"), or null to leave it as it is
  function render(text, opts) {
    const o = opts || {};
    const out = document.createElement("span");
    out.className = "rich-text";
    const s = String(text);
    let at = 0;
    if (o.contract) {
      for (const m of s.matchAll(CONTRACT)) {
        const start = m.index + m[1].length;
        const words = o.contract(m[2]);
        if (!words) continue;
        if (start > at) out.appendChild(document.createTextNode(s.slice(at, start)));
        out.appendChild(document.createTextNode(words));
        at = start + m[2].length;
      }
    } else if (o.cards !== false) {
      for (const m of s.matchAll(CODE)) {
        const code = m[2];
        const start = m.index + m[1].length;
        // "As the…": an English word, not the ace of swords
        if (code === "As" && /^As [a-z]/.test(s.slice(start, start + 4))) continue;
        if (!XCards.parse(code)) continue;
        if (start > at) out.appendChild(document.createTextNode(s.slice(at, start)));
        out.appendChild(XCards.svg(code, { size: "xs", title: XCards.name(code, XI18n.get()) }));
        at = start + code.length;
      }
    }
    if (at < s.length) out.appendChild(document.createTextNode(s.slice(at)));
    return out;
  }

  return { render };
})();
