// How to play Mazhan mahjong, in English: a player's guide written from the normative rules
// (/shared/rules/mazhan.md; §10 for the online table). The Chinese guide (guide.zh.ts) has
// the same sections in the same order; the figures come from figures.ts (this game's) and
// guide/figures.ts (the online table's).
import {
  LADDER,
  READY_SECONDS,
  RECONNECT_SECONDS,
  STAKE_EXAMPLES,
  STAKE_PER,
  TIMEOUTS_TO_ESCAPE,
  TURN_SECONDS,
} from "../../guide/figures";
import type { Guide } from "../../guide/types";
import {
  BASE_POINTS,
  BONUS_TILE,
  ESCAPE_MULTIPLE,
  HEAD,
  KEPT_BACK,
  LIMIT,
  PINGHU,
  ROOMS,
  ROUNDING,
  SELF_DRAWN,
  SINGLE_WAIT,
} from "./figures";

export const mazhanEn: Guide = {
  name: "Mazhan mahjong",
  intro:
    "The mahjong of Mazhan, in Cangnan, Zhejiang. Four players, 144 tiles, 16 in each hand; a winning hand is five sets and a pair (17 tiles). A turned tile makes three tiles wild (★), the white dragons are bonus tiles, and no hand is worth more than 400.",
  sections: [
    {
      id: "tiles",
      title: "The tiles",
      blocks: [
        {
          kind: "p",
          text: "144 tiles: three suits numbered 1 to 9, the four winds, the three dragons (中 發 白), and the four flowers and four seasons. The notation (used by the scorer) is digits then a letter: 123m is 1, 2 and 3 of characters.",
        },
        {
          kind: "tiles",
          rows: [
            { label: "Characters 萬 (m), 4 of each", groups: [{ codes: "123456789m" }] },
            { label: "Dots 筒 (p), 4 of each", groups: [{ codes: "123456789p" }] },
            { label: "Bamboo 索 (s), 4 of each", groups: [{ codes: "123456789s" }] },
            { label: "Winds E S W N, 4 of each", groups: [{ codes: "1234z" }] },
            { label: "Green 發 and red 中 dragons, 4 of each", groups: [{ codes: "67z" }] },
            {
              label: "Bonus tiles: flowers and seasons (1 of each), white dragons (4)",
              groups: [{ codes: "1234h" }, { codes: "1234j" }, { codes: "5z" }],
            },
          ],
        },
        {
          kind: "list",
          items: [
            "**Bonus tiles** are the four flowers, the four seasons and the **four white dragons**. They never stay in a hand: when you are dealt or draw one, lay it face up in front of you and draw a replacement from the tail of the wall (again if that is a bonus tile too).",
            "A flower or season **matches** a seat when its number (in the corner) is the seat's: East 1, South 2, West 3, North 4.",
            "**Terminals and honours**: the 1s and 9s of each suit, the winds, 發 and 中. **Middle tiles**: 2 to 8. Pungs and kongs of terminals and honours score double.",
          ],
        },
      ],
    },
    {
      id: "deal",
      title: "Seats and the deal",
      blocks: [
        {
          kind: "list",
          ordered: true,
          items: [
            "The dealer (莊家) always sits East. Play runs counter-clockwise: East → South → West → North → East. The player who plays after you is your 下家, the one who plays before you your 上家.",
            "Each player is dealt 16 tiles; the dealer gets a 17th.",
            "The next tile is turned face up in the middle of the table: the **indicator**, which sets the wild tiles (next section).",
            "Bonus tiles are laid out and replaced, the dealer first, then each player in turn, until no hand holds one.",
            "The dealer moves first: win (天胡), declare a concealed kong, or discard.",
          ],
        },
      ],
    },
    {
      id: "wild",
      title: "The wild tile ★",
      blocks: [
        {
          kind: "p",
          text: "The indicator stays out of play. The **other three tiles of its face** are wild (財神), marked ★. If the turned tile is a bonus tile it is set aside and the next one is turned, until a suit tile, wind, 發 or 中 appears.",
        },
        {
          kind: "tiles",
          rows: [
            { label: "The indicator", groups: [{ codes: "9s" }] },
            {
              label: "…makes the other three 9 Bamboo wild",
              groups: [{ codes: "999s" }],
              wild: "9s",
            },
          ],
        },
        {
          kind: "list",
          items: [
            "A ★ stands for any suit tile, wind, 發 or 中 (its own face too), never for a bonus tile.",
            "A ★ is only used in the concealed part of your hand: never in a chow, pung or kong you claim or declare (those are made of **natural** tiles, tiles that are not ★), and it **cannot be discarded** (so nobody can claim it).",
            "Holding all three ★ lets you declare 殺豬, worth the limit of 400 (see “Three wilds, heavenly and earthly hands”).",
            "When the winning hand is scored, its ★ are read in whatever way gives it the highest value; a set made with ★ scores as the tile the ★ stands for. In a non-winner's hand ★ count for nothing.",
          ],
        },
      ],
    },
    {
      id: "turn",
      title: "Your turn",
      blocks: [
        {
          kind: "list",
          ordered: true,
          items: [
            "**Draw** a tile from the wall. A bonus tile is laid out and replaced from the tail.",
            "**Then you may** win by self-draw (自摸); declare 殺豬 if you hold all three ★; declare a **concealed kong** (暗槓) of four natural tiles; or **add** a natural tile to one of your exposed pungs (加槓). After a kong, draw a replacement from the tail and act again.",
            "**Discard** one tile that is not a ★.",
          ],
        },
        {
          kind: "note",
          text: "There is no minimum to win, no “missed win” restriction (過水) and no liability payment (包牌).",
        },
      ],
    },
    {
      id: "claims",
      title: "Claims on a discard",
      blocks: [
        {
          kind: "p",
          text: "When a tile is discarded, the other three may claim it. ★ never take part: the tiles you show must be natural.",
        },
        {
          kind: "table",
          head: ["Claim", "Who", "What you need"],
          rows: [
            ["胡 Win", "anyone", "the tile completes your hand"],
            ["槓 Kong", "anyone", "three of the tile; then draw a replacement from the tail"],
            ["碰 Pung", "anyone", "two of the tile"],
            [
              "吃 Chow",
              "only the next player (下家)",
              "two tiles that make a run with it: 2-3 takes 1 or 4, 2-4 takes 3",
            ],
          ],
        },
        {
          kind: "list",
          items: [
            "**Priority: 胡 > 槓 = 碰 > 吃.**",
            "When several players can win on the same tile, only the first of them in play order after the discarder wins (截胡); the others cannot win on it.",
            "After a chow or a pung, the claimer discards.",
            "**Robbing a kong (搶槓)**: when a player adds a tile to a pung (加槓), the others may win on that tile, the first in play order from the declarer. The kong then does not happen and the robbed player keeps the pung. A concealed kong cannot be robbed. A robbed kong counts as a win on a discard.",
            "At the online table you see only your own claim buttons, never who else could claim; a claim prompt that runs out is a pass.",
          ],
        },
      ],
    },
    {
      id: "complete",
      title: "A winning hand",
      blocks: [
        {
          kind: "p",
          text: "A complete hand has 17 tiles (bonus tiles not counted, a kong counting as three): **five sets and one pair**. A set is a chow (three in a row of one suit), a pung (three alike) or a kong (four alike). Exposed melds count as sets. There are no other shapes: no seven pairs, no thirteen orphans.",
        },
        {
          kind: "tiles",
          rows: [
            { label: "Exposed melds", groups: [{ codes: "777z" }, { codes: "555p" }] },
            {
              label: "Concealed, and the winning tile",
              groups: [
                { codes: "13p" },
                { codes: "678p" },
                { codes: "789p" },
                { codes: "22p" },
                { codes: "2p", win: true },
              ],
            },
            { label: "Bonus tile", groups: [{ codes: "2j" }] },
          ],
        },
        {
          kind: "p",
          text: "South's hand in the rules' example: a pung of 中 and of 5 Dots shown, 1-2-3, 6-7-8 and 7-8-9 of Dots, and a pair of 2 Dots. Only a 2 Dots could complete it (a single wait).",
        },
      ],
    },
    {
      id: "exhausted",
      title: "No winner: the exhaustive draw",
      blocks: [
        {
          kind: "p",
          text: `The last ${KEPT_BACK} tiles of the wall are never drawn by a normal draw: when the player due to draw finds ${KEPT_BACK} or fewer tiles left, the hand ends as a draw (流局). Replacement draws (for bonus tiles and kongs) come from the tail and may use those tiles; if a replacement is needed and the wall is empty, the hand is a draw. A drawn hand pays nothing (the table fee is still taken).`,
        },
      ],
    },
    {
      id: "base",
      title: "Scoring: base points",
      blocks: [
        {
          kind: "p",
          text: "Everyone's hand is scored when someone wins; the unit is the 胡 (hu). First count base points (基礎分):",
        },
        {
          kind: "table",
          head: ["Set", "Middle (2–8)", "Terminal or honour"],
          rows: [
            ["Exposed pung 碰", ...BASE_POINTS.pung],
            ["Concealed pung (in hand)", ...BASE_POINTS.concealedPung],
            ["Exposed kong 明槓 (claimed or added)", ...BASE_POINTS.kong],
            ["Concealed kong 暗槓", ...BASE_POINTS.concealedKong],
          ],
        },
        {
          kind: "list",
          items: [
            `Each bonus tile laid out (flower, season, white dragon): ${BONUS_TILE}.`,
            `Winner only: self-drawn (自摸, a win on a kong replacement included) ${SELF_DRAWN}; single wait (獨張: exactly one face would have completed the 16 tiles you held, as an inside, edge or pair wait; the wild face does not count, nor a face whose four tiles are all in your own hand and melds) ${SINGLE_WAIT}.`,
            "Chows and the pair: 0.",
            "A pung the winner completes with someone else's discard scores as an exposed pung.",
            "A non-winner's concealed pungs are the natural sets of three (or four) alike in hand; ★ do not count.",
          ],
        },
        {
          kind: "table",
          caption: "Then round the base up to a multiple of ten (進一):",
          head: ["Base", "Rounded"],
          rows: ROUNDING.map(([b, r]) => [b, r]),
        },
      ],
    },
    {
      id: "tai",
      title: "Scoring: doubles (台)",
      blocks: [
        {
          kind: "p",
          text: "Each 台 (tai) doubles the value: 1 台 ×2, 2 台 ×4, 3 台 ×8.",
        },
        {
          kind: "table",
          head: ["台", "for"],
          rows: [
            [1, "each flower and each season that matches your seat"],
            [1, "every two white dragons laid out (2–3: 1, 4: 2)"],
            [1, "a pung or kong of 中"],
            [1, "a pung or kong of 發"],
            [1, "a pung or kong of your seat's wind"],
            [1, "winner only: 對對胡, all five sets pungs or kongs"],
            [
              1,
              "winner only: 混一色, one suit plus honours (at least one honour in a set or the pair)",
            ],
          ],
        },
      ],
    },
    {
      id: "value",
      title: "Scoring: what a hand is worth",
      blocks: [
        {
          kind: "p",
          text: "**The winner's value H**, the first rule that applies:",
        },
        {
          kind: "list",
          ordered: true,
          items: [
            `**${LIMIT}** (the limit, 辣子) for 清一色 (every tile of one suit, no honours; bonus tiles do not matter), 殺豬 (three ★), 天胡, 地胡, or 4 台 or more.`,
            `**平胡** (five chows and a pair; no pung, no kong, no bonus tile; won on a discard; not a single wait): ${LIMIT} if the hand holds two or more ★, else ${PINGHU} × 2^台, at most ${LIMIT}.`,
            `**Otherwise** H = (rounded base + ${HEAD}) × 2^台, at most ${LIMIT}.`,
          ],
        },
        {
          kind: "p",
          text: `**Each non-winner's value U** = rounded base × 2^台, at most ${LIMIT}, from their exposed melds, concealed kongs, natural concealed pungs and bonus tiles. No self-draw, single wait, 對對胡 or 混一色 for them, and no limit for 4 台.`,
        },
      ],
    },
    {
      id: "payments",
      title: "Who pays whom",
      blocks: [
        {
          kind: "list",
          items: [
            "Each non-winner pays the winner **H**, whether the win was self-drawn or on a discard: the discarder pays no more than the others.",
            "Each pair of non-winners settles the difference: the one with the lower U pays the other **U(higher) − U(lower)**.",
            "**The dealer pays and is paid double**: every payment between the dealer and another player is ×2.",
            "A drawn hand pays nothing. Payments always add up to zero.",
            "At the online table each 胡 is worth the stake (底注) in points.",
          ],
        },
      ],
    },
    {
      id: "example",
      title: "A worked example",
      blocks: [
        {
          kind: "p",
          text: "The rules' example 1: the wild is 9 Bamboo and South, holding the hand above, draws the 2 Dots.",
        },
        {
          kind: "table",
          head: ["Item", "Points"],
          rows: [
            ["Exposed pung of 中 (honour)", BASE_POINTS.pung[1]],
            ["Exposed pung of 5 Dots (middle)", BASE_POINTS.pung[0]],
            ["Season 2 (Summer)", BONUS_TILE],
            ["Self-drawn", SELF_DRAWN],
            ["Single wait (only 2 Dots completes)", SINGLE_WAIT],
            ["Base 14, rounded up", 20],
            ["台: 中 1, Summer matches South 1, 混一色 1", "3 台 ×8"],
            [`H = (20 + ${HEAD}) × 8`, 320],
          ],
        },
        {
          kind: "p",
          text: "The other three have U = 0. East is the dealer, so East pays double:",
        },
        {
          kind: "table",
          head: ["East (dealer)", "South (winner)", "West", "North"],
          rows: [["−640", "+1280", "−320", "−320"]],
        },
        {
          kind: "p",
          text: "The rules' example 3 shows the non-winners' differences: East (dealer) wins 平胡 on North's discard, H = 100. South holds a pung of East wind (4 → 10, U 10), West a pung of 3 Characters and a flower (2 + 4 = 6 → 10, U 10), North nothing (U 0). Everyone pays East 100 × 2; South and West settle nothing between them; North pays each of them 10.",
        },
        {
          kind: "table",
          head: ["East (dealer, winner)", "South", "West", "North"],
          rows: [["+600", "−190", "−190", "−220"]],
        },
      ],
    },
    {
      id: "special",
      title: "Three wilds, heavenly and earthly hands",
      blocks: [
        {
          kind: "list",
          items: [
            `**殺豬** (“killing the pig”): a player holding all three ★ may declare it whenever they would discard (after a draw or a claim). It is a win worth ${LIMIT}, whatever the shape of the hand. Any win holding three ★ is worth ${LIMIT} too.`,
            `**天胡** (heavenly hand): the dealer's hand is complete before the first discard: ${LIMIT}.`,
            `**地胡** (earthly hand): another player wins on the dealer's first discard, with no kong declared before it: ${LIMIT}.`,
          ],
        },
      ],
    },
    {
      id: "dealer",
      title: "The dealer",
      blocks: [
        {
          kind: "p",
          text: "The first dealer is drawn at random. The dealer keeps the deal by winning (連莊). When another player wins, or the hand is drawn, the deal passes to South, who becomes East; seat winds and matching flowers move with it. At the online table the players change seats: South's player becomes East, West's South, North's West and East's North.",
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
          rows: [
            ["Mazhan mahjong", ROOMS.mazhan],
            ["Mazhan mahjong · VIP", ROOMS["mazhan-vip"]],
          ],
        },
        {
          kind: "list",
          items: [
            "A player whose points fall below the room's minimum leaves the table after the hand.",
            `**Starting a hand**: every hand, the first and each one after a settlement, starts when all four have confirmed (Ready). Someone who has not confirmed within ${READY_SECONDS}\u00a0s loses the seat, without penalty; leaving before the hand is live costs nothing. Bots fill empty seats after a short wait (at once when you “Play the bots”; at a table for friends only when a player asks) and confirm at once; they play for the house.`,
            `**The stake (底注)**, shown at the start of every hand: the largest step of ${LADDER.join(", ")}, … that is not above the lowest balance of the people at the table ÷ ${STAKE_PER} (bots do not count); at least 1.`,
            "**The table fee (台費)** is one stake, taken from each person at the table at the start of every hand (a drawn hand too) and paid to the house; bots pay none.",
          ],
        },
        {
          kind: "table",
          caption: "The stake",
          head: ["Lowest balance at the table", "Stake"],
          rows: STAKE_EXAMPLES.map(([b, s]) => [b, s]),
        },
        {
          kind: "list",
          items: [
            `**The turn clock**: ${TURN_SECONDS}\u00a0s for each discard. When it runs out the server discards for you (the tile you drew if it may be discarded, else your rightmost tile that is not a ★) and counts a timeout. A claim prompt that runs out is a pass and is not counted. Any move of yours resets the count.`,
            "**Auto-play (托管)**: the switch in the table bar lets the server play your turns until you switch it off; no clock runs out meanwhile.",
            `**Escape (逃跑)**: once the hand is live, a player who times out ${TIMEOUTS_TO_ESCAPE} turns in a row, is disconnected more than ${RECONNECT_SECONDS}\u00a0s in all during the hand, or leaves, has escaped. The escaper loses **${ESCAPE_MULTIPLE} × the stake** (all they have, if less); each other player receives a quarter and the house keeps a quarter. The hand is void, with no other settlement. While you are disconnected the server plays your turns when the clock runs out, but those do not count as timeouts.`,
            `**Reconnecting** within ${RECONNECT_SECONDS}\u00a0s resumes the hand where it was.`,
            "**Points never go below zero**: a player who owes more than they have pays all of it, and each of their payments is cut down in proportion (remainders to the house).",
          ],
        },
      ],
    },
  ],
};
