// What the coach of a learn table says (learn.js decides when): each game's rules as
// they come up, in the rulebooks' terms, and how a hand is scored.  Both languages.
// A text may name cards by their codes (T0, Oc, Lc...): the coach draws them in.
// {who}, {card}, {suit}, {n}, {power} are filled in from the player's own view.
"use strict";

const XLearnWords = (() => {
  XI18n.add({
    en: {
      learn_coach: "Coach",
      learn_mode: "Learn",
      learn_got_it: "Got it",
      learn_hide: "Hide the coach",
      learn_show: "Coach",
      learn_hint: "Hint",
      learn_thinking: "working out a hint…",
      learn_wait: "{who} is playing. The next rule is explained when it matters.",
      learn_done: "Play on: the next rule is explained when it matters.",
      learn_end: "How this hand was scored",
      learn_over: "The hand is over: the summary says how it was scored, and where to go next.",
      learn_real: "Play a real match",
      learn_real_help: "The whole match, against normal bots",
      learn_again: "Learn again",
      learn_again_help: "Another guided hand, another deal",
      learn_failed: "Could not start the table: {error}",
      learn_seen: "rule {n}",
    },
    ja: {
      learn_coach: "コーチ",
      learn_mode: "練習",
      learn_got_it: "わかった",
      learn_hide: "コーチを閉じる",
      learn_show: "コーチ",
      learn_hint: "ヒント",
      learn_thinking: "ヒントを考えています…",
      learn_wait: "{who}の番です。次のルールは必要になったときに説明します。",
      learn_done: "このまま続けてください。次のルールは必要になったときに説明します。",
      learn_end: "このハンドの点数の数え方",
      learn_over: "このハンドは終わりました。まとめに点数の数え方と、次にできることがあります。",
      learn_real: "本番の対局をする",
      learn_real_help: "普通の強さのボットと、最後まで対局します",
      learn_again: "もう一度練習する",
      learn_again_help: "別の配りで、もう一度説明付きの1ハンド",
      learn_failed: "卓を作れませんでした：{error}",
      learn_seen: "ルール{n}",
    },
  });

  // [title, text] per language
  const L = {
    fairy500: {
      auction: {
        en: ["The auction", "Bid how many of the 10 tricks your side will take (6 to 10) and the trump suit, or no trump — or pass. A bid must be worth more than the standing one (each cell shows its value), and a pass is final. When all the others have passed, the last bidder is the declarer. Misère is a bid to take no trick at all."],
        ja: ["ビッド", "自分の側が10トリックのうち何トリック取るか（6〜10）と切札のスート（またはノートランプ）をビッドするか、パスします。ビッドは今の最高ビッドより基本点が高くなければならず（各マスに点数）、パスしたらもうビッドできません。ほかの全員がパスすると、最後にビッドした人がデクレアラーです。ミゼールは1トリックも取らないというビッドです。"],
      },
      call: {
        en: ["Call your partner", "You are the declarer. Call a card: whoever holds it becomes your secret partner and shares your result (half of it). Nobody knows who it is until the called card is played. Call a strong card you do not hold, such as a high trump."],
        ja: ["副官の指名", "あなたがデクレアラーです。カードを1枚指名してください。そのカードを持つ人が秘密の副官になり、結果の半分を分け合います。指名したカードが出るまで、副官が誰かは誰にもわかりません。自分が持っていない強いカード（高い切札など）を指名しましょう。"],
      },
      kitty: {
        en: ["The kitty", "The 4 cards of the kitty are now in your hand (14 cards): discard any 4, face down. Only you see the kitty and your discards. Keep your trumps and strong cards; let short, weak suits go."],
        ja: ["キティ", "キティの4枚があなたの手札に入りました（14枚）。好きな4枚を裏向きで捨ててください。キティと捨て札を見るのはあなただけです。切札と強いカードを残し、短くて弱いスートを捨てましょう。"],
      },
      partner: {
        en: ["You are the secret partner", "You hold the card {who} called: you are their partner. Help their side take the tricks they bid; you score half their result. The others learn it when you play that card."],
        ja: ["あなたが秘密の副官です", "{who}が指名したカードをあなたが持っています。あなたは副官です。デクレアラーの側がビッドしたトリック数を取れるよう助けましょう。結果の半分があなたの点になります。そのカードを出すと、ほかの人にもわかります。"],
      },
      contract_me: {
        en: ["Your contract", "Your side — you and whoever holds the called card — must take at least {n} of the 10 tricks. More tricks earn nothing more; fewer and you lose the bid's value."],
        ja: ["あなたのコントラクト", "あなたの側（あなたと、指名したカードを持つ副官）は10トリックのうち{n}トリック以上を取らなければなりません。それ以上取っても点は増えず、足りなければビッドの点を失います。"],
      },
      contract: {
        en: ["The contract", "{who} is the declarer: their side, with the secret partner, must take at least {n} tricks. You defend: every trick you take scores you +10 and helps to beat them."],
        ja: ["コントラクト", "{who}がデクレアラーです。秘密の副官とあわせて{n}トリック以上を取らなければなりません。あなたは守る側です。取ったトリック1つごとに+10点で、相手の失敗にも近づきます。"],
      },
      misere: {
        en: ["Misère", "{who} bid misère: they must take no trick at all. Make them take one: each defender scores +10 for every trick the declarer takes, and one is enough to beat the bid."],
        ja: ["ミゼール", "{who}はミゼールです。1トリックも取ってはいけません。取らせてしまいましょう。デクレアラーが取ったトリック1つごとに守る側はそれぞれ+10点、1トリックでミゼールは失敗です。"],
      },
      misere_me: {
        en: ["Your misère", "Take no trick at all: play low, and when you cannot follow suit, get rid of your high cards."],
        ja: ["あなたのミゼール", "1トリックも取ってはいけません。低いカードを出し、スートに従えないときに高いカードを捨てましょう。"],
      },
      ramsch: {
        en: ["Everybody passed: Ramsch", "Nobody bid, so everyone plays alone to take no trick. Each trick you take costs −50 (none if you won it with an F); the players who take none share a bonus."],
        ja: ["全員パス：ラムシュ", "誰もビッドしなかったので、全員がひとりで1トリックも取らないことを目指します。取ったトリック1つにつき−50点（Fで勝ったトリックは0）、1つも取らなかった人はボーナスを得ます。"],
      },
      ten_per_trick: {
        en: ["Everybody passed: ten per trick", "Nobody bid: the hand is played without trumps and every trick you take scores +10. The four F form a suit of their own."],
        ja: ["全員パス：1トリック10点", "誰もビッドしなかったので切札なしで遊び、取ったトリック1つごとに+10点です。4枚のFはそれだけでひとつのスートになります。"],
      },
      trump: {
        en: ["Trumps: {suit}", "A trump beats every card of the other suits. The highest trumps are the four F (cups F > coins F > trees F > swords F), then the J of {suit}, the J of the same colour, then K, Q, C… of {suit}. Those F and Js belong to the trump suit: they follow trump leads, not their printed suit."],
        ja: ["切札：{suit}", "切札はほかのスートのどのカードにも勝ちます。最強は4枚のF（聖杯F > 金貨F > 聖樹F > 魔剣F）、次に{suit}のJ、同じ色のもう一方のJ、そして{suit}のK、Q、C…です。これらのFとJは切札のスートとして扱い、切札のリードに従います（印刷されたスートには従いません）。"],
      },
      notrump: {
        en: ["No trump", "There is no trump suit. The four F are the highest cards and form a suit of their own (an F led must be followed by an F); otherwise the highest card of the led suit wins: K > Q > C > J > 10…"],
        ja: ["ノートランプ", "切札はありません。4枚のFが最強で、Fだけでひとつのスートになります（Fのリードには持っていればFで従う）。それ以外はリードされたスートの最も高いカードが勝ちます：K > Q > C > J > 10…"],
      },
      lead: {
        en: ["You lead", "You play first to this trick: any card you like. The others must follow its suit if they can."],
        ja: ["あなたがリード", "このトリックはあなたが最初に出します。どのカードでもかまいません。ほかの人は、持っていればそのスートに従わなければなりません。"],
      },
      follow: {
        en: ["Follow suit", "You hold cards of the led suit, so you must play one of them: only those can be clicked, the others are dimmed. (With trumps, the F and the two Js of the trump colour count as trumps.)"],
        ja: ["マストフォロー", "リードされたスートのカードを持っているので、その中から出さなければなりません。出せるカードだけがクリックでき、ほかは暗くなっています（切札があるときは、Fと切札の色のJ2枚は切札として数えます）。"],
      },
      void: {
        en: ["You cannot follow", "You have no card of the led suit: play any card. A trump wins the trick unless a higher trump comes; any other card cannot win it — a good moment to throw away a useless card."],
        ja: ["スートに従えない", "リードされたスートのカードがないので、どのカードでも出せます。切札を出せば、より高い切札が出ない限りトリックに勝ちます。それ以外のカードは勝てないので、いらないカードを捨てる好機です。"],
      },
      void_nt: {
        en: ["You cannot follow", "You have no card of the led suit: play any card. Without trumps it cannot win (unless it is an F) — a good moment to throw away a useless card."],
        ja: ["スートに従えない", "リードされたスートのカードがないので、どのカードでも出せます。切札がないので（Fでない限り）勝てません。いらないカードを捨てる好機です。"],
      },
      trick: {
        en: ["Who takes the trick", "{who} took the last trick: the highest trump in it wins; with no trump in it, the highest card of the led suit. The winner leads the next trick."],
        ja: ["トリックの勝者", "直前のトリックは{who}が取りました。切札が出ていれば最も高い切札が、なければリードされたスートの最も高いカードが勝ちます。勝った人が次のトリックをリードします。"],
      },
      trick_nt: {
        en: ["Who takes the trick", "{who} took the last trick: an F beats everything (the led suit's F first in a misère or Ramsch); otherwise the highest card of the led suit wins. The winner leads the next trick."],
        ja: ["トリックの勝者", "直前のトリックは{who}が取りました。Fがいちばん強く（ミゼールとラムシュではリードされたスートのFが最強）、Fがなければリードされたスートの最も高いカードが勝ちます。勝った人が次のトリックをリードします。"],
      },
      score: {
        en: "The declarer's side made its contract by taking at least the tricks bid: the declarer scores the bid's value V (×1.5 if the called card ended in their own hand), a partner V/2, and each defender +10 per trick it took. A failed contract costs the same amounts. A misère scores its value if the declarer takes no trick. The match is won at +500.",
        ja: "デクレアラーの側がビッドしたトリック数以上を取ればコントラクト成功です。デクレアラーはビッドの点V（指名したカードが自分の手にあれば×1.5）、副官はV/2、守る側は取ったトリック1つごとに+10点。失敗すると同じだけ失います。ミゼールは1トリックも取らなければその点を得ます。対局は+500点で勝ちです。",
      },
    },
    extendori: {
      lead: {
        en: ["You lead", "Play any card: it is the led card, and the others must follow its suit. The majors count as one suit."],
        ja: ["あなたがリード", "どのカードでも出せます。それが打ち出し札で、ほかの人はそのスートに従います。大アルカナはまとめてひとつのスートです。"],
      },
      follow: {
        en: ["Follow suit", "You hold cards of the led suit, so you must play one of them (the others are dimmed). The majors count as one suit: a major led is answered with a major."],
        ja: ["スートに従う", "打ち出し札のスートのカードを持っているので、その中から出さなければなりません（ほかは暗くなっています）。大アルカナはひとつのスートなので、大アルカナのリードには大アルカナで従います。"],
      },
      major: {
        en: ["No card of the led suit: a major", "You have no card of the led suit, so you must play a major — and any major beats any minor."],
        ja: ["打ち出しのスートがない：大アルカナ", "打ち出し札のスートを持っていないので、大アルカナを出さなければなりません。大アルカナはどの小アルカナにも勝ちます。"],
      },
      void: {
        en: ["Play any card", "You have neither the led suit nor a major: play any card — it cannot win the trick. Throw away a card worth nothing (2 to 10)."],
        ja: ["何を出してもよい", "打ち出し札のスートも大アルカナもないので、どのカードでも出せますが、そのトリックには勝てません。点にならないカード（2〜10）を捨てましょう。"],
      },
      trick: {
        en: ["Who takes the trick", "{who} took the last trick. Any major beats any minor (the highest major wins, T0 the lowest); otherwise the highest card of the led suit: 10 < R < E < B < L < W < J < C < Q < K < A < F. Wrap-arounds: the top major loses to T1 and T0 in the same trick, and the led suit's F loses to its N and M."],
        ja: ["トリックの勝者", "直前のトリックは{who}が取りました。大アルカナはどの小アルカナにも勝ち、大アルカナ同士は数の大きいほうが勝ちます（T0が最低）。なければ打ち出しのスートの最も高いカード：10 < R < E < B < L < W < J < C < Q < K < A < F。ただし最大の大アルカナはT1やT0と同じトリックでは負け、打ち出しのスートのFは同じスートのNやMに負けます。"],
      },
      points: {
        en: ["Points", "A trick is worth the picture cards in it: every minor outside 2–10 (M N A R E B L W J C Q K F) 15 points, T0 and T1 30 points, all the other cards nothing. Take the tricks that hold them."],
        ja: ["得点", "トリックの点は中の絵札で決まります。2〜10以外の小アルカナ（M N A R E B L W J C Q K F）は15点、T0とT1は30点、ほかは0点です。絵札の入ったトリックを取りましょう。"],
      },
      batch: {
        en: ["The next batch", "Every hand was empty, so {who}, who took the last trick, dealt the next batch from the stock and leads."],
        ja: ["次の配り", "全員の手札がなくなったので、最後のトリックを取った{who}が山札から次の分を配り、リードします。"],
      },
      score: {
        en: "Each player scores the picture cards in the tricks they took: 15 for every minor outside 2–10, 30 for T0 and T1. The most points wins.",
        ja: "取ったトリックの中の絵札が各自の点です。2〜10以外の小アルカナは15点、T0とT1は30点。点の多い人が勝ちです。",
      },
    },
    "sono-arcana": {
      lot: {
        en: ["The lot", "You are the parent. The talisman turned up is the lot: the round's winner takes it. Stop here with one, or turn up one more and sell two together. Beware: talismans whose numbers end in the same digit spoil each other."],
        ja: ["競売品", "あなたが親です。めくった護符が競売品で、このラウンドの勝者がもらいます。1枚で止めるか、もう1枚めくって2枚まとめて競りにかけるかを選んでください。末尾の数字が同じ護符どうしは打ち消し合うので注意。"],
      },
      lot_other: {
        en: ["The lot", "{who} is the parent and turned up the lot: the talismans for sale this round (drawn large). Everyone bids one card; the winner takes the whole lot and becomes the next parent."],
        ja: ["競売品", "{who}が親で、競売品をめくりました。このラウンドで競りにかかる護符です（大きく表示）。全員が1枚ずつ入札し、勝った人が競売品をすべてもらって次の親になります。"],
      },
      bid: {
        en: ["The parent's bid", "As the parent you bid first. Face up: your card is the lead card and everyone must follow its suit. Face down: everyone bids blind, any suit. Strength: K > Q > C > J > W > L > B > E > R > 10 … 2 > A > N; suits do not count."],
        ja: ["親の入札", "親が最初に入札します。表向きなら、そのカードが台札になり、全員そのスートに従います。裏向きなら、全員が何のスートでも伏せて入札します。強さはK > Q > C > J > W > L > B > E > R > 10 … 2 > A > Nで、スートは関係ありません。"],
      },
      follow: {
        en: ["Follow the lead suit", "This round is face up: you must play a card of the lead card's suit if you hold one (only those can be clicked). Only that suit can win the lot."],
        ja: ["台札のスートに従う", "このラウンドは表向きです。台札と同じスートのカードを持っていれば、その中から出さなければなりません（出せるカードだけクリックできます）。勝てるのはそのスートだけです。"],
      },
      void: {
        en: ["You cannot follow", "You hold none of the lead suit: play any card. It cannot win this round — a good moment to get rid of a card you do not need."],
        ja: ["スートに従えない", "台札のスートを持っていないので、どのカードでも出せますが、このラウンドには勝てません。いらないカードを手放す好機です。"],
      },
      down: {
        en: ["A face-down round", "Everyone bids one card face down, any suit; they are turned up together and the strongest valid card of any suit wins."],
        ja: ["裏向きのラウンド", "全員が何のスートでも1枚を伏せて入札します。最後に一斉に表にし、スートに関係なく最も強い有効なカードが勝ちます。"],
      },
      equal: {
        en: ["Equal cards are void", "Cards of equal strength void each other, whatever their suits — the parent's card too. If no valid card is left, the parent wins the lot."],
        ja: ["同じ強さは無効", "同じ強さのカードはスートに関係なくすべて無効になります（親のカードも）。有効なカードが残らなければ、親が競売品をもらいます。"],
      },
      won: {
        en: ["Who wins the lot", "{who} won the last round: the strongest valid card of the lead suit (face up) or of any suit (face down). They take the whole lot, face up, and become the next parent."],
        ja: ["競売品の行方", "直前のラウンドは{who}の勝ちです。表向きなら台札のスートの、裏向きならスートを問わず最も強い有効なカードが勝ちます。勝者は競売品をすべて表向きでもらい、次の親になります。"],
      },
      clash: {
        en: ["Clashing talismans", "Talismans whose numbers end in the same digit (3, 13 and 23) clash: whoever holds two or more of them turns all of them face down. Face up +2 each, face down −1 each."],
        ja: ["打ち消し合う護符", "末尾の数字が同じ護符（3と13と23など）は打ち消し合います。2枚以上持つと、それらはすべて裏向きになります。表向きは1枚+2点、裏向きは1枚−1点です。"],
      },
      final: {
        en: ["The final round", "The parent holds a single card: every talisman left in the stack joins the lot."],
        ja: ["最終ラウンド", "親の手札が1枚になったので、山札に残った護符がすべて競売品になります。"],
      },
      score: {
        en: "Each face-up talisman scores +2, each face-down one (clashing: the same last digit) −1. The highest score wins; a tie goes to the highest-numbered face-up talisman.",
        ja: "表向きの護符は1枚+2点、裏向きの護符（末尾の数字が同じで打ち消し合ったもの）は1枚−1点。合計の高い人が勝ち、同点なら表向きの護符の最大の番号で決めます。",
      },
    },
    "grail-mahjong": {
      claim: {
        en: ["A claim", "{who} discarded {card}. You may claim it: pon with two cards of its number (any suits), chi with two cards of its suit that make a run with it. Answers are blind; pon beats chi. A claim makes it your turn at once, without a draw: the meld is laid, then you discard."],
        ja: ["鳴き", "{who}が{card}を捨てました。鳴くことができます。ポンは同じ数のカード2枚（スートは自由）、チーは同じスートで順番につながる2枚です。答えは非公開で、ポンがチーより優先。鳴くとツモなしですぐにあなたの手番になり、面子をさらしてから1枚捨てます。"],
      },
      pass: {
        en: ["Nothing to claim", "Every discard is put to the other players. You cannot claim this one, so you pass (the table answers for you after a moment, so that nobody learns whether you could have claimed)."],
        ja: ["鳴けない捨て札", "捨て札はほかの全員に確認されます。これは鳴けないのでパスです（少し待つと自動でパスします。鳴けたかどうかをほかの人に知られないためです）。"],
      },
      discard: {
        en: ["Draw and discard", "Your turn: you drew the top card of the stock (automatically). Meld if you like, then discard one card. Empty your hand to win at once (agari); if the stock runs out first, the highest meld score wins."],
        ja: ["ツモと捨て札", "あなたの手番です。山札の1枚は自動でツモりました。面子をさらしたければさらし、1枚捨てます。手札をすべてなくせばすぐに勝ち（あがり）、先に山札が尽きたら面子の点が最も高い人の勝ちです。"],
      },
      meld: {
        en: ["Melds", "You can meld from your hand: pon — three cards of one number, any suits; chi — a run of three in one suit. A meld of n cards scores (n−2)²: 1 for 3 cards, 4 for 4, 9 for 5, 16 for 6 — growing a meld pays."],
        ja: ["面子", "手札から面子をさらせます。ポンは同じ数の3枚（スートは自由）、チーは同じスートの連続した3枚。n枚の面子は(n−2)²点：3枚で1点、4枚で4点、5枚で9点、6枚で16点。面子を育てるほど得です。"],
      },
      add: {
        en: ["Adding to a meld", "Add a card to one of your melds: a pon takes another card of its number (then you draw a replacement card), a chi grows at either end. A meld holds up to 6 cards."],
        ja: ["面子に加える", "自分の面子にカードを加えられます。ポンには同じ数のカード（加えたら1枚補充のツモ）、チーには両端につながるカード。面子は6枚までです。"],
      },
      wild: {
        en: ["Daza's Cup", "Oc is wild: in a meld it stands for any number card, and what it stands for is fixed when it is melded."],
        ja: ["ダーザの杯", "Ocはワイルドです。面子の中でどの数のカードの代わりにもなり、何の代わりかはさらしたときに決まります。"],
      },
      rest: {
        en: ["Rest of the Grail", "Discarding Rc ends the hand at once in a showdown: the highest meld score wins. Discard it when you are ahead."],
        ja: ["聖杯の休息", "Rcを捨てるとその場で局が終わり、面子の点を比べます（最も高い人の勝ち）。リードしているときに捨てましょう。"],
      },
      luck: {
        en: ["Luck of the Grail", "Instead of a discard you may play Lc face up into your area (Luck): it doubles your meld score. It is never discarded."],
        ja: ["聖杯の幸運", "捨て札の代わりにLcを自分の前に表向きで出せます（ラック）。面子の点が2倍になります。捨て札にはなりません。"],
      },
      claimed: {
        en: ["A claim was made", "{who} claimed a discard: the claimed card is outlined in their new meld, and play goes on after them."],
        ja: ["鳴きがありました", "{who}が捨て札を鳴きました。鳴いたカードは新しい面子の中で枠付きで表示され、その人の次から手番が続きます。"],
      },
      score: {
        en: "Each meld of n cards scores (n−2)², doubled with Lc in your area. Agari (an empty hand) wins whatever the scores; at a showdown the highest score wins. Only the winners add their score.",
        ja: "n枚の面子は(n−2)²点、Lcを出していれば2倍。あがり（手札をなくす）は点数に関係なく勝ち、勝負（山札切れやRc）では点の最も高い人が勝ちです。点を得るのは勝者だけです。",
      },
    },
    matto: {
      draw: {
        en: ["Refill", "Take one card: the top of the stock (face down) or the top of the discard pile (everyone sees which card you took)."],
        ja: ["手札の補充", "1枚取ります。山札の一番上（裏向き）か、捨て札の一番上（何を取ったかは全員に見えます）。"],
      },
      buy: {
        en: ["Buy a major", "Buy a major on the table by paying exactly its number with minors: A = 1, 2–10 their value, J C Q K = 10. Only the majors your hand can pay exactly are offered, and you may buy several. After each purchase the next major is turned up: if it is the Fool (T0), you must take it."],
        ja: ["大アルカナの獲得", "場の大アルカナを、その番号ちょうどの合計になる小アルカナで買います。A=1、2〜10はその数、J C Q Kは10。ぴったり払える大アルカナだけが選べ、何枚でも買えます。買うたびに次の大アルカナがめくられ、それが愚者（T0）なら必ずあなたが引き取ります。"],
      },
      pay: {
        en: ["Pay", "Pay card by card until the sum is exact. The paid cards go onto the discard pile in your order: the last one is the new top, which the next player may take."],
        ja: ["支払い", "合計がぴったりになるまで1枚ずつ払います。払ったカードはその順で捨て札に重なり、最後の1枚が一番上になって、次の人が取れるカードになります。"],
      },
      end: {
        en: ["End your turn", "Nothing on the table adds up exactly now: end your turn. There is no discard."],
        ja: ["手番の終わり", "今はぴったり払える大アルカナがありません。手番を終えてください。捨てるカードはありません。"],
      },
      fool: {
        en: ["The Fool", "{who} turned up the Fool (T0) after a purchase and had to take it: −5 (it still counts 1 as a major: −4 in all)."],
        ja: ["愚者（マット）", "{who}が購入のあとに愚者（T0）をめくり、引き取りました。−5点です（大アルカナとして1点は数えるので合計−4点）。"],
      },
      sets: {
        en: ["Sets", "Each major is worth 1 point, and each set +5: T12 + T13 + T15, T17 + T18 + T19, T20 + T21."],
        ja: ["役", "大アルカナは1枚1点、役はそれぞれ+5点です：T12 + T13 + T15、T17 + T18 + T19、T20 + T21。"],
      },
      last: {
        en: ["The last turn", "The stock or the pile of majors is empty: the game ends at the end of this turn. The majors on the table can still be bought."],
        ja: ["最後の手番", "山札か大アルカナの山がなくなりました。この手番の終わりでゲーム終了です。場の大アルカナはまだ買えます。"],
      },
      score: {
        en: "1 point per major, +5 per set (T12 + T13 + T15, T17 + T18 + T19, T20 + T21), −5 for the Fool (−4 in all). The highest score wins.",
        ja: "大アルカナ1枚につき1点、役ひとつにつき+5点（T12 + T13 + T15、T17 + T18 + T19、T20 + T21）、愚者は−5点（合計−4点）。点の高い人が勝ちです。",
      },
    },
    "arcana-duel": {
      setup: {
        en: ["Lay your field", "Lay 5 of your 8 cards face down as your field; 3 stay in your hand. Power: 2–10 their value, A = 1, J C Q K = 10, majors their number (T0 = 0: the Fool)."],
        ja: ["場の準備", "8枚のうち5枚を裏向きで場に置きます。残り3枚は手札です。戦闘力は2〜10がその数、A=1、J C Q K=10、大アルカナは番号（T0=0：愚者）。"],
      },
      refill: {
        en: ["Refill", "Your field holds fewer than 5 cards: lay cards from your hand face down until it holds 5 again."],
        ja: ["補充", "場のカードが5枚より少ないので、5枚になるまで手札から裏向きで置きます。"],
      },
      attack: {
        en: ["Attack", "Add field cards that have not attacked this turn to your attack (they turn face up); their powers add up. Then choose the target."],
        ja: ["攻撃", "このターンまだ攻撃していない場のカードを攻撃に加えます（表向きになります）。戦闘力は合計されます。そのあと目標を選びます。"],
      },
      target: {
        en: ["Choose a target", "Attack one enemy card: a face-up one you name, or a face-down one (the defender picks which). Higher power wins: the attacker takes the defending card, or the defender takes every attacking card, into their points pile. A tie moves nothing. Each target is marked win, tie or lose."],
        ja: ["目標を選ぶ", "相手の場のカード1枚を攻撃します。表向きのカードを指定するか、裏向きのカード（どれで守るかは相手が選ぶ）。戦闘力の高いほうが勝ち、攻撃側が勝てば守ったカードを、守る側が勝てば攻撃したカードすべてを自分の得点の山に入れます。同じなら何も動きません。目標ごとに勝ち・引き分け・負けの印があります。"],
      },
      defend: {
        en: ["Defend", "You are attacked with power {power} at a face-down card: pick which of your face-down cards defends. If it is stronger, you take every attacking card; if weaker, the attacker takes it."],
        ja: ["防御", "戦闘力{power}で裏向きのカードを攻撃されました。どの裏向きのカードで守るかを選んでください。守るカードが強ければ攻撃したカードをすべてもらい、弱ければ相手に取られます。"],
      },
      endturn: {
        en: ["Attack again, or end", "You may attack again with cards that have not attacked this turn, or end your turn. Then you draw as many cards as you lost and lay your field back to 5."],
        ja: ["続けて攻撃するか、終えるか", "このターンまだ攻撃していないカードでもう一度攻撃するか、ターンを終えます。終えると、失った枚数だけ引いて場を5枚に戻します。"],
      },
      fight: {
        en: ["A fight", "The higher power won and took the other side's card(s) into their points pile; surviving cards stay face up. Empty the enemy's field to win at once (annihilation)."],
        ja: ["戦闘", "戦闘力の高いほうが勝ち、相手のカードを得点の山に入れました。残ったカードは表向きのままです。相手の場を全滅させればその場で勝ちです。"],
      },
      fool: {
        en: ["The Fool", "The Fool (T0) was turned up: nothing was resolved, both whole fields went into their owners' points piles, and both players laid 5 new cards."],
        ja: ["愚者（マット）", "愚者（T0）が表になりました。戦闘は行われず、両者の場のカードはすべてそれぞれの得点の山に入り、両者が5枚ずつ置き直しました。"],
      },
      score: {
        en: "Wiping out the enemy's field (annihilation) wins at once. Otherwise, when the stock runs out, the larger points pile (by number of cards) wins; equal piles are a draw.",
        ja: "相手の場を全滅させればその場で勝ちです。そうでなければ山札が尽きたとき、得点の山の枚数が多いほうが勝ち、同じなら引き分けです。",
      },
    },
  };

  function fill(s, vars) {
    let out = String(s);
    for (const [k, v] of Object.entries(vars || {})) out = out.split(`{${k}}`).join(String(v));
    return out;
  }

  // {title, text} of a lesson in the page's language (English when missing), or null
  function lesson(game, id, vars) {
    const entry = (L[game] || {})[id];
    if (!entry || id === "score") return null;
    const pair = entry[XI18n.get()] || entry.en;
    return { title: fill(pair[0], vars), text: fill(pair[1], vars) };
  }

  // how a hand of the game is scored, in a few sentences
  function scoring(game) {
    const entry = (L[game] || {}).score;
    return entry ? (entry[XI18n.get()] || entry.en) : "";
  }

  function has(game, id) { return Boolean((L[game] || {})[id]); }

  return { lesson, scoring, has };
})();
