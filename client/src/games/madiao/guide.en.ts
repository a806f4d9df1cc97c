// How to play Ma Diao, in English: a player's guide written from the normative rules
// (/shared/rules/madiao.md), as the engine plays them (the [Q] tradition, the defaults of
// §6 wherever the rules mark a CHOICE). The Chinese guide (guide.zh.ts) has the same
// sections in the same order; the figures come from figures.ts (this game's) and
// guide/figures.ts (the online table's).
import {
  READY_SECONDS,
  RECONNECT_SECONDS,
  TIMEOUTS_TO_ESCAPE,
  TURN_SECONDS,
} from "../../guide/figures";
import type { Guide } from "../../guide/types";
import { BAILAO, CHONG, DIAO, ESCAPE_MULTIPLE, QIAOMEN, ROLE_BONUS, ROOMS, SHI } from "./figures";

const DIAO_NAMES = {
  du: "獨吊 one wins",
  ge: "各吊 two win",
  he: "合吊 two share",
  even: "四和氣 all even",
} as const;

export const madiaoEn: Guide = {
  name: "Ma Diao",
  intro:
    "A card game of the Ming dynasty: 40 paper cards, 8 to each player, one banker against three. Eight tricks are played; then the eight stock cards are turned up one by one (開沖) and score for a player whose table cards of the same suit they go with. Each hand is settled between the banker and each of the others, in stakes (注).",
  sections: [
    {
      id: "cards",
      title: "The 40 cards",
      blocks: [
        {
          kind: "p",
          text: "Four suits, shown here from the highest card to the lowest. Cards are compared only within their suit: there are no trumps.",
        },
        {
          kind: "cards",
          rows: [
            { label: "十字 Tens of myriads (11 cards)", cards: "wqb98765432t" },
            { label: "萬 Myriads (9)", cards: "987654321m" },
            { label: "索 Strings (9)", cards: "987654321s" },
            { label: "文錢 Coins (11): they run the other way", cards: "0h123456789c" },
          ],
        },
        {
          kind: "note",
          text: "**文錢 runs the other way**: 空沒文 (the empty coin) is the highest, then 半文 (half a coin), 一文, 二文 … down to 九文, the lowest.",
        },
        {
          kind: "table",
          caption: "Each suit's top card is its 賞, the second its 肩 and the bottom one its 極:",
          head: ["Suit", "賞 top", "肩 second", "極 bottom"],
          rows: [
            ["十字", "萬萬", "千萬", "二十萬"],
            ["萬", "九萬", "八萬", "一萬"],
            ["索", "九索", "八索", "一索"],
            ["文錢", "空沒文", "半文", "九文"],
          ],
        },
        {
          kind: "list",
          items: [
            "**百老** (百萬, the third card of 十字) has a bonus of its own.",
            "The red cards (紅張) are the four 賞, the four 肩 and 百老.",
          ],
        },
      ],
    },
    {
      id: "deal",
      title: "The banker and the deal",
      blocks: [
        {
          kind: "list",
          ordered: true,
          items: [
            "Four players; play runs counter-clockwise: East → South → West → North. One is the **banker** (樁家); the other three (散家) each settle with the banker (the one payment between 散家 is 敲門, below).",
            "Each player is dealt 8 cards, the banker first. The 8 left over are the **stock** (底牌), face down; its last card is turned face up for everyone to see (the **face card**, 面張) and is drawn last.",
            "The first banker is set by the face card's rank in its suit, counted from the lowest card (1) up (in 文錢 九文 is 1 and 空沒文 11): counting from East in play order, rank 1 makes East the banker, 2 South, 3 West, 4 North, 5 East again, and so on. A face card 九萬 (9) makes East the banker, 萬萬 (11) West.",
            "After each hand the bank passes to the next player in play order.",
            "The banker leads the first trick.",
          ],
        },
      ],
    },
    {
      id: "tricks",
      title: "Playing the tricks",
      blocks: [
        {
          kind: "list",
          ordered: true,
          items: [
            "There are 8 tricks; each player plays one card to each.",
            "The leader plays any card face up (發).",
            "Each other player in turn either **captures** (捉): plays face up a card of the suit led that beats every face-up card so far in the trick; or **throws** (滅): plays any card face down.",
            "The highest face-up card of the suit led wins (the lead itself if nobody captured). Only that card stays: it is laid face up in front of its winner, **won to the table** (上桌). Every other card of the trick leaves play. The winner leads the next trick.",
          ],
        },
        {
          kind: "note",
          text: "You never have to follow suit and never have to capture: holding back (關) is allowed, and a card that could capture may be thrown face down. A card once played cannot be taken back.",
        },
        {
          kind: "p",
          text: "A player with at least 2 cards on the table (2 tricks) is **正本**; fewer is 赤腳. Only 正本 players score the card bonuses.",
        },
      ],
    },
    {
      id: "diao",
      title: "Settling the tricks (吊)",
      blocks: [
        {
          kind: "p",
          text: "Each player with fewer than 2 tricks loses 1 (−1 吊). What they lose is shared equally by the players with more than 2 tricks; exactly 2 tricks is even.",
        },
        {
          kind: "table",
          head: ["Tricks, most first", "吊, in the same order", "Name"],
          rows: DIAO.map(([tricks, diao, name]) => [tricks, diao, DIAO_NAMES[name]]),
        },
      ],
    },
    {
      id: "bonuses",
      title: "Bonuses",
      blocks: [
        {
          kind: "list",
          items: [
            `**Cards on the table** (正本 only): each 賞, 肩 or 極 won to your table in a trick is ${ROLE_BONUS} 注 (cards drawn in 開沖 do not count here).`,
            "**百老** scores for the player it was dealt to:",
          ],
        },
        {
          kind: "table",
          head: ["百老", "注"],
          rows: [
            ["大活百: won to the holder's table, and the holder is 正本", BAILAO.big],
            ["小活百: the holder is 正本, 百老 is not on their table", BAILAO.small],
            ["死百: the holder is not 正本", BAILAO.dead],
          ],
        },
        {
          kind: "list",
          items: [
            `**敲門** (knocking): a 散家 with 大活百 also collects ${QIAOMEN} from each of the other two 散家.`,
            "The points of 開沖 (next sections) count as bonuses too.",
          ],
        },
      ],
    },
    {
      id: "chong",
      title: "開沖: turning up the stock",
      blocks: [
        {
          kind: "list",
          ordered: true,
          items: [
            "After the eighth trick, the player who won it (結家) turns up the first stock card.",
            "If the card scores for them (next section), they take the points, add the card to their own and draw again (連沖).",
            "If it scores nothing (斷沖), the card is offered to the others in play order: the first who can score it takes it and draws next. If nobody can, it is dead, and the player after the last drawer draws.",
            "It ends when all 8 stock cards are drawn, the face card last.",
          ],
        },
        {
          kind: "note",
          text: "A drawn card only counts with your own cards of its suit: those you won to the table and those you have drawn before. Drawn cards extend your chain but never score as leaders. You need not be 正本 to draw. At the online table 開沖 runs by itself: there is nothing to decide.",
        },
      ],
    },
    {
      id: "leaders",
      title: "開沖: who scores, and how much",
      blocks: [
        {
          kind: "list",
          items: [
            "In 萬, 索 and 文錢 only a 賞, 肩 or 極 on your table **leads** (scores the cards you draw); other cards only extend the chain, unless they are part of a 順領 or 間領 (below).",
            "A **肩 waits for its 賞** (肩張不見賞不開沖). A 肩 alone scores nothing until you draw the 賞 of its suit (3 for it); from then on it scores as a 賞 would. A 肩 with its 賞 already on your table leads at once, as a 肩 (2 for a connected card, 2 for the 極).",
            "Each suit is a **ring**: cards next in rank are neighbours, and the top card is also next to the bottom one.",
            "A drawn card is **connected** when it is next to a card of the leader's chain (checked before the card joins it). A card scored as not connected is never scored again when the gap is filled later.",
          ],
        },
        {
          kind: "table",
          caption: "Points of a drawn card for each leader (the first row that matches):",
          head: ["The drawn card", "Points"],
          rows: [
            ["the 極 for a 賞 leader, or the 賞 for a 極 leader", CHONG.topBottom],
            ["the 賞 for a 肩 leader (which starts leading)", CHONG.secondTop],
            ["the 肩 for a 賞 or 極 leader, connected or not", CHONG.drawnSecond],
            [
              "the one missing card of a straight (間領), for a leader below it / above it",
              `${CHONG.gapBelow} / ${CHONG.gapAbove}`,
            ],
            ["connected", CHONG.connected],
            ["not connected", CHONG.apart],
          ],
        },
        {
          kind: "list",
          items: [
            "With several leaders in a suit, each one scores the card and the points add up: a 賞 and its 肩 (雙胞胎) score a connected card 2 + 2 = 4; 賞, 肩 and 極 (三胞胎) score it 6.",
            "**順領**: a straight of three or more table cards holding the 賞 or the 極 leads with every card in it. **間領**: table cards on both sides of one missing card, holding the 賞 or the 極 (九萬 and 七萬, missing 八萬, is one); the other cards start leading with the missing card itself, when you draw it. Straights may run round the ring (8-9-1).",
          ],
        },
        {
          kind: "cards",
          rows: [
            {
              label: "九萬 on the table; drawn in this order (total 8)",
              cards: "76854m",
              marks: [1, 1, 2, 2, 2],
              note: "七萬 and 六萬 are not connected (八萬 is missing): 1 each. Then 八萬 is, and so are 五萬 and 四萬.",
            },
            {
              label: "八萬 (a 肩) alone on the table (total 18)",
              cards: "97654321m",
              marks: [3, 2, 2, 2, 2, 2, 2, 3],
              note: "九萬 wakes the 肩 up (3); from then on it scores as a 賞: 2 for each connected card, 3 for the 極.",
            },
            {
              label: "八萬 alone, drawing 七萬 first",
              cards: "7m",
              marks: [0],
              note: "The 肩 is still waiting for its 賞: 斷沖, and the card is offered to the others.",
            },
            {
              label: "九萬 and 八萬 on the table (雙胞胎, total 15)",
              cards: "1257m",
              marks: [5, 4, 2, 4],
              note: "一萬: 3 for the 賞 + 2 for the 肩. 五萬 is not connected: 1 + 1.",
            },
          ],
        },
      ],
    },
    {
      id: "shi",
      title: "開沖 in 十字",
      blocks: [
        {
          kind: "p",
          text: "In the 十字 ring, 萬萬, 千萬 and 百萬 (the top group) count as one place: top – 九十 – 八十 – … – 二十 – top. Each of the three leads, and so does 二十:",
        },
        {
          kind: "table",
          head: ["Leader", "Drawn card", "Points"],
          rows: [
            ["萬萬, 千萬 or 百萬", "二十", SHI.twentyTop],
            ["", "another top card", SHI.topTop],
            ["", "九十 (always)", SHI.ninety],
            ["", "connected / not connected", `${SHI.connected} / ${SHI.apart}`],
            ["二十", "any top card", SHI.twentyTop],
            ["", "九十 (always)", SHI.ninety],
            ["", "connected / not connected", `${SHI.connected} / ${SHI.apart}`],
            [
              "九十",
              "百老 (it leads only after drawing 百老, or beside it on your table)",
              SHI.ninetyBailao,
            ],
            ["", "二十 (always)", SHI.ninety],
            ["", "connected / not connected", `${SHI.connected} / ${SHI.apart}`],
            ["", "萬萬 or 千萬", 0],
          ],
        },
        {
          kind: "list",
          items: [
            "A top card that won its trick over other top cards played face up scores once more for each of them: 千萬 that captured 百老 scores everything double; 萬萬 over 千萬 and 百老, triple.",
            "Straights do not count in 十字, and top cards won in different tricks lead separately.",
          ],
        },
        {
          kind: "cards",
          rows: [
            { label: "百萬 on the table (total 10)", cards: "2936t", marks: [5, 2, 2, 1] },
            { label: "千萬 that captured 百萬 (double, total 14)", cards: "29t", marks: [10, 4] },
          ],
        },
      ],
    },
    {
      id: "settle",
      title: "Settling a hand",
      blocks: [
        {
          kind: "p",
          text: "Every payment is between the banker and a 散家, except 敲門 (between 散家). Bonuses here include 開沖 points.",
        },
        {
          kind: "list",
          items: [
            "Each 散家's net = their 吊 + their bonuses − the banker's bonuses. So each of the three pays the banker's bonuses in full, and a 散家's bonuses are paid by the banker alone.",
            "The banker's net is the opposite of the three nets together. 敲門 is paid on top, from 散家 to 散家. The 吊 are not multiplied.",
            "At the online table each 注 is worth the stake (底注) in points; each payment is rounded to whole points.",
          ],
        },
        {
          kind: "table",
          caption:
            "An example: East is the banker and wins 4 tricks (九萬, 一萬, 八索 and 二十萬 on the table) and 5 points of 開沖; South, dealt 百老, wins 2 tricks; West and North 1 each.",
          head: ["", "吊", "Bonuses", "Net"],
          rows: [
            ["East (banker)", "+2", "4 + 5 = 9", "+27"],
            ["South", "0", "小活百 2", "0 + 2 − 9 = −7"],
            ["West", "−1", "0", "−1 − 9 = −10"],
            ["North", "−1", "0", "−1 − 9 = −10"],
          ],
        },
      ],
    },
    {
      id: "table",
      title: "At the online table",
      blocks: [
        {
          kind: "table",
          head: ["Room", "Points needed to sit"],
          rows: [["Ma Diao", ROOMS.madiao]],
        },
        {
          kind: "list",
          items: [
            `As at a Mazhan table (see its tab): every hand waits for all four to confirm (within ${READY_SECONDS}\u00a0s); the stake is set by the lowest balance of the people at the table and one stake is each person's table fee; the turn clock is ${TURN_SECONDS}\u00a0s; Auto-play (托管) plays for you; reconnecting within ${RECONNECT_SECONDS}\u00a0s resumes the hand; points never go below zero.`,
            "When your clock runs out, the server plays your lowest card: it leads it, or throws it face down.",
            `An escape (${TIMEOUTS_TO_ESCAPE} timeouts in a row, disconnected more than ${RECONNECT_SECONDS}\u00a0s, or leaving a live hand) costs **${ESCAPE_MULTIPLE} × the stake**: a quarter to each other player, a quarter to the house.`,
          ],
        },
        {
          kind: "note",
          text: "Not played in this version: special dealt hands (色樣, 異賞), the 突 combinations and 升代. The penalties for careless play (包賠: letting 百老 or the banker win) are noted in the settlement but cost nothing.",
        },
      ],
    },
  ],
};
