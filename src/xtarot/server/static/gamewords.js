// What people read about each game before they sit down: one line on what the game
// is, how many play and how long a match takes (the lobby), and the lobby's option
// texts in players' words (the engine's own help texts are written for developers and
// the command line).  Both languages.  Games not listed here (plugins) keep the
// engine's texts.
"use strict";

const XGameWords = (() => {
  const GAMES = {
    "sono-arcana": {
      en: "An auction: bid cards from your hand for the talismans (majors), but talismans whose numbers end in the same digit spoil each other.",
      ja: "競りのゲーム。手札を出して護符（大アルカナ）を競り落とすが、末尾の数字が同じ護符どうしは打ち消し合う。",
      minutes: [15, 25],
    },
    fairy500: {
      en: "Bid how many tricks you will take (or none: misère), call a secret partner by a card, and play it out; first to +500 wins.",
      ja: "何トリック取るか（または1つも取らないミゼール）を競り、カードで秘密の副官を指名して戦うトリックテイキング。+500点先取。",
      minutes: [30, 60],
    },
    "grail-mahjong": {
      en: "Draw and discard; claim others' discards with pon and chi to build melds; three special cups cards change the hand.",
      ja: "ツモって捨て、ポンやチーで他の人の捨て札を鳴いて面子を作る。特別な3枚の聖杯が局面を変える。",
      minutes: [25, 40],
    },
    extendori: {
      en: "Plain trick-taking: follow suit and take the tricks that hold picture cards; the most points wins.",
      ja: "素直なトリックテイキング。スートに従い、絵札の入ったトリックを取って点を集める。",
      minutes: [30, 60],
    },
    matto: {
      en: "Buy the majors on the table with exact sums of minors; whoever turns up the Fool (Matto) must take it, and it costs.",
      ja: "小アルカナのぴったりの合計で場の大アルカナを買い集める。愚者（マット）を引いた人はそれを取らされて減点。",
      minutes: [15, 25],
    },
    "arcana-duel": {
      en: "A duel for two in the manner of a trading-card game: attack the other's face-down field with sums of power.",
      ja: "2人で戦うトレーディングカードゲーム風の決闘。戦闘力の合計で相手の伏せた場を攻撃する。",
      minutes: [10, 20],
    },
  };

  // Option texts in players' words; hide: an option people need not see.
  const OPTIONS = {
    "sono-arcana": {
      teams: {
        en: "4 players: two teams of partners sitting opposite (Seats 1+3 against Seats 2+4); a team scores the sum",
        ja: "4人戦：向かい合った2人ずつのチーム戦（1番席+3番席 対 2番席+4番席）、得点はチームの合計",
      },
    },
    extendori: {
      deck: {
        en: "How many cards are played with (empty: the rulebook's choice for the player count)",
        ja: "使うカードの枚数（空欄なら人数に合わせたルールブックの既定）",
        choices: {
          112: { en: "112: every card", ja: "112枚：全部" },
          111: { en: "111: without major 23", ja: "111枚：大アルカナ23を除く" },
          110: { en: "110: without majors 22 and 23", ja: "110枚：大アルカナ22・23を除く" },
          108: { en: "108: without the four 0 (N) cards", ja: "108枚：4枚の0（N）を除く" },
        },
      },
      single_deal: {
        en: "7 or 8 players: deal all the cards at once instead of in batches",
        ja: "7・8人：何回かに分けずにカードを一度に全部配る",
      },
      hands: {
        en: "Hands in the match (empty: one per player, or no limit with a target score)",
        ja: "対戦のゲーム数（空欄なら人数と同じ。目標点があれば無制限）",
      },
      target_score: {
        en: "The match ends after the hand in which someone reaches this score",
        ja: "誰かがこの点数に達したゲームで対戦終了",
      },
      between_hands: {
        en: "Who is player #1 (deals and leads) in the next hand: the next seat in turn, the same player, or drawn again",
        ja: "次のゲームの1番（配って打ち出す人）：左隣へ交代、同じ人のまま、引き直し",
      },
      reseat_each_hand: { hide: true },
      teams: {
        en: "Even numbers of players: partners sitting opposite, or two teams in alternate seats",
        ja: "偶数人数：向かい合った2人ずつ、または1席おきの2チーム",
      },
    },
    fairy500: {
      all_pass: {
        en: "When everyone passes: everyone tries to avoid tricks (ramsch), deal again, or 10 points a trick at no trump (empty: ramsch)",
        ja: "全員パスのとき：全員がトリックを避ける（ラムシュ）、配り直し、ノートランプで1トリック10点（空欄ならラムシュ）",
      },
      pairs: {
        en: "4 players: the declarer's partner is the player opposite (no card is called)",
        ja: "4人戦：デクレアラーの向かいの人が副官（カードでの指名なし）",
      },
      classical: {
        en: "Classic scoring and calls: all ten tricks score at least 250; the partner is called after the kitty and says so at once",
        ja: "クラシカル：10トリック全部取れば最低250点。副官はキティを見てから指名し、すぐに名乗る",
      },
      hands: {
        en: "Stop after this many hands (empty: play until someone reaches +500 or −500)",
        ja: "このハンド数で終了（空欄なら誰かが+500点か−500点に達するまで）",
      },
    },
    "grail-mahjong": {
      hands: { en: "Hands in the match", ja: "対戦の局数" },
      chi_extension_draws: {
        en: "Extending your own chi also draws a card",
        ja: "自分のチーを伸ばしたときも山札から1枚引く",
      },
    },
  };

  XI18n.add({
    en: { game_players: "{n} players", game_minutes: "about {a}–{b} min" },
    ja: { game_players: "{n}人", game_minutes: "約{a}〜{b}分" },
  });

  const lang = () => (XI18n.get() === "ja" ? "ja" : "en");

  // "An auction: ... · 3–5 players · about 15–25 min" (null for a game not listed)
  function line(game, players) {
    const g = GAMES[game];
    if (!g) return null;
    const [lo, hi] = players || [];
    const n = lo === undefined ? "" : lo === hi ? String(lo) : `${lo}–${hi}`;
    return {
      what: g[lang()],
      players: n ? XI18n.t("game_players", { n }) : "",
      time: XI18n.t("game_minutes", { a: g.minutes[0], b: g.minutes[1] }),
    };
  }

  function option(game, name) { return (OPTIONS[game] || {})[name] || null; }

  // The option's help for people, or the engine's text (fallback).
  function optionHelp(game, name, fallback) {
    const o = option(game, name);
    return o && o[lang()] ? o[lang()] : fallback;
  }

  function optionHidden(game, name) { return Boolean((option(game, name) || {}).hide); }

  // A choice's name in the option's own words, or null.
  function choiceName(game, name, value) {
    const c = ((option(game, name) || {}).choices || {})[value];
    return c ? c[lang()] : null;
  }

  return { line, optionHelp, optionHidden, choiceName };
})();
