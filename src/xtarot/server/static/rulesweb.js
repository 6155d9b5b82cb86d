// The rules dialog, for people at the browser table: before the game's rules, how to
// act by clicking and a key to the ranks with the cards drawn; in the rules, the
// terminal's move syntax (`bid 6s`, `play Kc`) is shown as the table shows it (the
// game's own words, cards pictured).  Called by XLayouts.showRules after it has put
// the rules text in the dialog.
"use strict";

const XRulesWeb = (() => {
  const { make } = XLayouts;

  XI18n.add({
    en: {
      rw_title: "Playing here",
      rw_click: "On your turn the moves you may make light up: click a card of your hand to play it, or a button, a cell of a grid or a card on the table. The cards you cannot play now are dimmed. Hint asks the bots for a move and why; Last trick shows the trick just taken; the move log beside the table tells what everyone did.",
      rw_key: "The cards",
      rw_suits: "Suits: cups and coins (red), swords and trees (black).",
      rw_xtarot: "Ranks of the Xtarot deck, low to high: N = 0, A = 1, 2–10, R = 11, E = 12, B = 13, L = 14, W = 15, then the court cards J (jack), C (knight), Q (queen), K (king); F (fairy) above all, M = −1 where a game uses it. Each game orders them its own way (below). The majors (trumps) are numbered 0–23.",
      rw_classic: "The classic tarot deck: A = 1, 2–10, J (jack), C (knight), Q (queen), K (king) in four suits, and 22 majors (trumps) 0–21; 0 is the Fool (Matto).",
      rw_rules: "The rules",
    },
    ja: {
      rw_title: "この画面での遊び方",
      rw_click: "自分の番になると、できる手が明るく表示されます。手札のカードをクリックして出すか、ボタン、表のマス、場のカードをクリックします。今出せないカードは暗く表示されます。「ヒント」でボットに手とその理由を聞けます。「直前のトリック」で取られたばかりのトリックを見られます。卓の横の手の記録に全員の手が残ります。",
      rw_key: "カード",
      rw_suits: "スート：聖杯と金貨（赤）、魔剣と聖樹（黒）。",
      rw_xtarot: "エクスタロットのランク（低い順）：N = 0、A = 1、2〜10、R = 11、E = 12、B = 13、L = 14、W = 15、絵札の J（ジャック）、C（ナイト）、Q（クイーン）、K（キング）、そしてすべての上に F（フェアリー）。M = −1 は使うゲームだけ。並び順はゲームごとに決まります（下記）。大アルカナ（切り札）は0〜23の番号です。",
      rw_classic: "クラシックなタロット：4つのスートに A = 1、2〜10、J（ジャック）、C（ナイト）、Q（クイーン）、K（キング）、そして大アルカナ（切り札）0〜21。0は愚者（マット）です。",
      rw_rules: "ルール",
    },
  });

  // How each game is played by clicking.
  const HOW = {
    "sono-arcana": {
      en: "Click a card to bid it for the lot; when it may go face up or face down, choose with the buttons. The parent decides how many talismans are in the lot.",
      ja: "カードをクリックして競売品に入札します。表でも裏でも出せるときはボタンで選びます。親は競売品の護符の枚数を決めます。",
    },
    fairy500: {
      en: "Bid in the grid: rows are the tricks you promise, columns the trump suit, each cell with its value; the misère table and Pass are below it. The declarer calls a partner by clicking a card in the call grid and discards by clicking hand cards.",
      ja: "ビッドは表で：行が約束するトリック数、列が切り札で、マスに点数があります。ミゼールの表とパスはその下。デクレアラーは指名用の表のカードで副官を指名し、手札をクリックして捨てます。",
    },
    extendori: {
      en: "Click a card to play it; the line above your hand says what the following rule allows now.",
      ja: "カードをクリックして出します。手札の上の行に、今フォローのルールで何が出せるかが出ます。",
    },
    "grail-mahjong": {
      en: "Click a card to discard it. When someone discards, the pon and chi you can make are drawn as the melds they would make: click one, or Pass (a window where Pass is your only answer is answered for you; see Settings).",
      ja: "カードをクリックして捨てます。誰かが捨てると、できるポンやチーが出来上がる面子の形で表示されます。選ぶかパスします（パスしかできないときは自動でパスします。設定で変えられます）。",
    },
    matto: {
      en: "Click the stock or the discard pile to draw; click a major of the field to buy it, then the cards of your hand to pay.",
      ja: "山札か捨て札をクリックして引きます。場の大アルカナをクリックして買い、手札をクリックして支払います。",
    },
    "arcana-duel": {
      en: "Lay your field by clicking cards; to attack, click cards of your hand or field to add their power, then click the target.",
      ja: "カードをクリックして場に置きます。攻撃は手札や場のカードをクリックして戦闘力を足し、最後に目標をクリックします。",
    },
  };

  const CLASSIC = new Set(["matto", "arcana-duel"]);
  const XTAROT_RANKS = ["N", "A", "2", "5", "10", "R", "E", "B", "L", "W", "J", "C", "Q", "K", "F"];
  const CLASSIC_RANKS = ["A", "2", "5", "10", "J", "C", "Q", "K"];

  function row(codes) {
    const r = make("div", "rw-cards");
    for (const c of codes) r.appendChild(XCards.svg(c, { size: "s", title: XCards.name(c, XI18n.get()) }));
    return r;
  }

  function intro(game) {
    const lang = XI18n.get() === "ja" ? "ja" : "en";
    const box = make("section", "rules-web");
    box.appendChild(make("h2", "", XI18n.t("rw_title")));
    box.appendChild(make("p", "", XI18n.t("rw_click")));
    if (HOW[game]) box.appendChild(make("p", "", HOW[game][lang]));
    box.appendChild(make("h3", "", XI18n.t("rw_key")));
    const classic = CLASSIC.has(game);
    box.appendChild(make("p", "", XI18n.t(classic ? "rw_classic" : "rw_xtarot")));
    box.appendChild(row((classic ? CLASSIC_RANKS : XTAROT_RANKS).map((r) => `${r}c`)));
    box.appendChild(make("p", "", XI18n.t("rw_suits")));
    box.appendChild(row(["Kc", "Kd", "Ks", "Kw", "T0", "T1", classic ? "T21" : "T23"]));
    box.appendChild(make("h2", "rw-rules-head", XI18n.t("rw_rules")));
    return box;
  }

  // The rules text's move syntax as the table shows it.
  function dress(game, body) {
    const layout = XLayouts.forGame(game);
    for (const code of [...body.querySelectorAll("code")]) {
      const text = code.textContent.trim();
      if (XCards.parse(text)) {
        code.replaceWith(XCards.svg(text, { size: "xs", title: XCards.name(text, XI18n.get()) }));
        continue;
      }
      let label = text;
      try { label = layout.label(text); } catch (e) { label = text; }
      if (typeof label === "string" && label !== text && !label.includes("<")) {
        const shown = XLayouts.richLabel(label);
        shown.classList.add("rw-move");
        code.replaceWith(shown);
      }
    }
    body.insertBefore(intro(game), body.firstChild);
  }

  return { dress };
})();
