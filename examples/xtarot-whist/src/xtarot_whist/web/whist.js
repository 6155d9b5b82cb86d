// Whist (ホイスト), the example plugin's table: the hand and the target, the trump card
// turned up by the dealer, tricks and points per side, the trick around the table with
// who is winning it, and the viewer's following rule.  Served by xtarot from the
// plugin's web package as /layouts/whist.js.
"use strict";

(() => {
  const WH = "whist";
  XI18n.addGame(WH, {
    en: {
      phase: { play: "playing", over: "over" },
      play: "play {card}",
      hand_of: "Hand {n} of {of}",
      hand_to: "Hand {n} · first side to {t} points",
      trump: "Trump",
      dealer: "Dealer",
      turned_up: "turned up by {who}",
      side: "Side {s}",
      tricks: "{n} tricks",
      points: "{n} pts",
      trick_n: "Trick {n} of 13",
      winning: "{who} is winning with {card}",
      you_lead: "You lead: play any card.",
      follow: "Follow suit: play {suit}.",
      free: "You have no {suit}: trump or throw any card.",
      no_suit: "no {suit}",
      result: "Hand {n}: side {s} took {t} tricks, +{p}",
      final: "Final result",
      book: "The side with more tricks scores one point per trick over six.",
      h_tricks: "This hand's tricks",
    },
    ja: {
      phase: { play: "プレイ", over: "終了" },
      play: "{card} を出す",
      hand_of: "第{n}ハンド / 全{of}",
      hand_to: "第{n}ハンド・{t}点先取",
      trump: "切り札",
      dealer: "ディーラー",
      turned_up: "{who} がめくった札",
      side: "チーム{s}",
      tricks: "{n}トリック",
      points: "{n}点",
      trick_n: "第{n}トリック / 13",
      winning: "{who} が {card} で優勢",
      you_lead: "あなたの打ち出しです。どのカードでも出せます。",
      follow: "マークに従って{suit}を出してください。",
      free: "{suit}がないので、切り札でも何でも出せます。",
      no_suit: "{suit}なし",
      result: "第{n}ハンド：チーム{s} が {t}トリック、+{p}点",
      final: "最終結果",
      book: "トリックの多いチームが、6を超えた1トリックにつき1点を得ます。",
      h_tricks: "このハンドのトリック",
    },
  });
  const w = (key, vars) => XI18n.g(WH, key, vars);
  const { make } = XLayouts;
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const SIDES = ["A", "B"];

  const suitName = (s) => (XCards.SUITS[s] ? XCards.SUITS[s][XI18n.get()] : String(s));

  // Who wins the cards played so far: the highest trump, else the highest of the led suit.
  function winner(plays, trump) {
    if (!plays || !plays.length) return null;
    const led = XCards.parse(plays[0][1]).suit;
    const key = (code) => {
      const c = XCards.parse(code);
      const tier = c.suit === trump ? 2 : c.suit === led ? 1 : 0;
      return tier * 100 + RANKS.indexOf(c.rank);
    };
    let best = plays[0];
    for (const p of plays) if (key(p[1]) > key(best[1])) best = p;
    return { seat: best[0], card: best[1] };
  }

  function mustLine(view, ctx) {
    if (!ctx.myTurn) return null;
    const cards = (view.trick && view.trick.cards) || [];
    if (!cards.length) return w("you_lead");
    const led = XCards.parse(cards[0][1]).suit;
    const has = (view.hand || []).some((c) => XCards.parse(c).suit === led);
    return w(has ? "follow" : "free", { suit: suitName(led) });
  }

  function sidePoints(view) {
    return (view.scores && view.scores.detail && view.scores.detail.side_points) || [0, 0];
  }

  XLayouts.register(WH, {
    board(view, ctx, el) {
      const info = make("div", "wh-info");
      const n = view.hand_number || 1;
      info.appendChild(make("span", "wh-progress", view.hands_limit
        ? w("hand_of", { n, of: view.hands_limit }) : w("hand_to", { n, t: view.target })));
      const trump = make("span", "wh-trump");
      trump.appendChild(make("strong", "", `${w("trump")}: ${suitName(view.trump)}`));
      trump.appendChild(XCards.svg(view.trump_card, { size: "s", title: XCards.name(view.trump_card, XI18n.get()) }));
      trump.appendChild(make("span", "muted-felt", w("turned_up", { who: ctx.seatLabel(view.dealer, true) })));
      info.appendChild(trump);
      el.appendChild(info);

      const sides = make("div", "wh-sides");
      const pts = sidePoints(view);
      (view.teams || []).forEach((members, i) => {
        const chip = make("span", `wh-side wh-side-${i}`);
        chip.appendChild(make("strong", "", w("side", { s: SIDES[i] })));
        chip.appendChild(make("span", "", ` ${members.map((s) => s + 1).join("+")} · `));
        chip.appendChild(make("span", "", `${w("tricks", { n: view.side_tricks[i] })} · ${w("points", { n: pts[i] })}`));
        sides.appendChild(chip);
      });
      el.appendChild(sides);

      const must = mustLine(view, ctx);
      if (must) el.appendChild(make("div", "wh-must", must));

      // between hands the previous hand's last trick stays on the felt
      const trick = view.trick || { cards: [] };
      let tricks = view.tricks || [];
      if (!tricks.length && !trick.cards.length && view.last_trick) tricks = [view.last_trick];
      const now = winner(trick.cards, view.trump);
      const center = make("div", "wh-center");
      if (view.phase !== "over") center.appendChild(make("div", "wh-trick-n", w("trick_n", { n: (view.tricks || []).length + 1 })));
      const opts = { size: "m", cls: "wh-felt", center };
      if (now) opts.winning = now.seat;
      el.appendChild(XLayouts.trickRing(view, ctx, trick, tricks, opts));
      if (now && trick.cards.length > 1) {
        el.appendChild(XLayouts.richLabel(w("winning", { who: ctx.seatLabel(now.seat, true), card: now.card }), "xs"));
      }
    },

    seatExtra(view, seat, el) {
      const side = seat % 2;
      el.appendChild(make("span", `chip wh-side-${side}`, w("side", { s: SIDES[side] })));
      el.appendChild(make("span", "chip", w("tricks", { n: (view.tricks_won || [])[seat] || 0 })));
      for (const v of view.phase === "over" ? [] : (view.voids || [])[seat] || []) {
        el.appendChild(make("span", "chip wh-void", w("no_suit", { suit: suitName(v) })));
      }
    },

    history(view, ctx, el) {
      const tricks = view.tricks || [];
      if (!tricks.length) return;
      el.appendChild(make("h3", "", w("h_tricks")));
      const list = make("ol", "rounds");
      for (let i = tricks.length - 1; i >= 0; i -= 1) {
        const t = tricks[i];
        const li = make("li", "round");
        li.appendChild(make("span", "n", `${i + 1}.`));
        for (const [s, c] of t.cards) {
          const p = make("span", "played");
          p.appendChild(make("small", "", String(s + 1)));
          p.appendChild(XCards.svg(c, { size: "xs", title: XCards.name(c, XI18n.get()) }));
          li.appendChild(p);
        }
        li.appendChild(make("span", "chip win", `→ ${ctx.seatLabel(t.winner, true)}`));
        list.appendChild(li);
      }
      el.appendChild(list);
    },

    summary(view, ctx) {
      const sc = view.scores;
      const hands = (sc && sc.detail && sc.detail.hands) || [];
      if (!hands.length) return null;
      const box = make("div", "summary-body wh-summary");
      if (sc.final) box.appendChild(make("h3", "", w("final")));
      const rows = hands.map((h, i) => {
        const s = h.tricks[0] > h.tricks[1] ? 0 : 1;
        return [i + 1, ctx.seatLabel(h.dealer, true), XLayouts.richLabel(h.trump_card, "xs"),
          `${h.tricks[0]} : ${h.tricks[1]}`, `${SIDES[s]} +${h.points[s]}`];
      });
      const pts = sidePoints(view);
      rows.push(["", "", "", "", `A ${pts[0]} : B ${pts[1]}`]);
      box.appendChild(XLayouts.grid(["#", w("dealer"), w("trump"), "A : B", ""], rows, "summary"));
      const last = hands[hands.length - 1];
      const s = last.tricks[0] > last.tricks[1] ? 0 : 1;
      box.appendChild(make("p", "", w("result", { n: hands.length, s: SIDES[s], t: last.tricks[s], p: last.points[s] })));
      box.appendChild(make("p", "muted", w("book")));
      return box;
    },

    handKey(view) { return view.hand_number; },
    label(text) {
      const parts = text.split(" ");
      return parts[0] === "play" && parts.length === 2 ? w("play", { card: parts[1] }) : text;
    },
    phase(view) { return (w("phase") || {})[view.phase] || XI18n.phase(view.phase); },
    cardsOf(text) { return XCards.codesIn(text); },
    sortHand(view, codes) {
      // trumps first, then the other suits; each suit from the 2 up to the ace
      const order = ["c", "d", "s", "w"].sort((a, b) => (b === view.trump) - (a === view.trump));
      const key = (code) => {
        const c = XCards.parse(code);
        return c ? order.indexOf(c.suit) * 100 + RANKS.indexOf(c.rank) : 9999;
      };
      return codes.slice().sort((a, b) => key(a) - key(b));
    },
  });
})();
