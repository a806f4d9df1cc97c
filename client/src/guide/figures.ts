// The figures the guides quote, written once for both languages (each from the rules:
// /shared/rules/mazhan.md §7 and §10, madiao.md §3.4–§4.6; the server's rooms for Ma Diao's
// escape). The guides' tables are built from these, so English and Chinese cannot disagree.

/** Mazhan §7: base points of a set, middle (2–8) and terminal/honour. */
export const BASE_POINTS = {
  pung: [2, 4],
  concealedPung: [4, 8],
  kong: [8, 16],
  concealedKong: [16, 32],
} as const;

/** Mazhan §7: each bonus tile laid out; the winner's self-draw and single wait. */
export const BONUS_TILE = 4;
export const SELF_DRAWN = 2;
export const SINGLE_WAIT = 2;

/** Mazhan §7 (進一法): the base rounded up to a multiple of ten, the rules' examples. */
export const ROUNDING: readonly (readonly [number, number])[] = [
  [0, 0],
  [2, 10],
  [12, 20],
  [14, 20],
  [32, 40],
];

/** Mazhan §7: the cap (and the limit hands' value), the head bonus, 平胡's value. */
export const LIMIT = 400;
export const HEAD = 20;
export const PINGHU = 100;

/** Mazhan §5.6: the tiles a normal draw never takes. */
export const KEPT_BACK = 11;

/** §10: the rooms' minimum balances. */
export const ROOM_MINIMUM = { mazhan: 800, "mazhan-vip": 1_000_000, madiao: 800 } as const;

/** §10: 底注 is the largest step not above (lowest balance) / STAKE_PER; at least 1. */
export const STAKE_PER = 800;
export const LADDER = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] as const;

/** Lowest balances at a table and the 底注 they give (§10's example is 8000 → 10). */
export const STAKE_EXAMPLES: readonly (readonly [number, number])[] = [
  [800, 1],
  [1600, 2],
  [4000, 5],
  [8000, 10],
  [80_000, 100],
  [1_000_000, 1000],
];

/** §10: the clocks, in seconds. */
export const TURN_SECONDS = 15;
export const READY_SECONDS = 20;
export const RECONNECT_SECONDS = 180;
/** §10: the 4th timeout in a row is an escape. */
export const TIMEOUTS_TO_ESCAPE = 4;

/** The escape penalty multiple of a room (rules §10: 400 × 底注; Ma Diao 40 ×). */
export const ESCAPE_MULTIPLE: Record<string, number> = { mazhan: 400, madiao: 40 };

/** Ma Diao §3.4: the 吊 of each outcome (trick counts, then each player's 吊, then the name). */
export const DIAO: readonly (readonly [string, string, "du" | "ge" | "he" | "even"])[] = [
  ["8-0-0-0 · 7-1-0-0 · 6-1-1-0 · 5-1-1-1", "+3 −1 −1 −1", "du"],
  ["6-2-0-0 · 5-2-1-0 · 4-2-1-1", "+2 0 −1 −1", "du"],
  ["4-2-2-0 · 3-2-2-1", "+1 0 0 −1", "du"],
  ["4-3-1-0 · 5-3-0-0 · 4-4-0-0 · 3-3-1-1", "+1 +1 −1 −1", "ge"],
  ["3-3-2-0", "+½ +½ 0 −1", "he"],
  ["2-2-2-2", "0 0 0 0", "even"],
];

/** Ma Diao §3.5: 百老's bonus: on the table and 正本, held and 正本, holder not 正本. */
export const BAILAO = { big: 3, small: 2, dead: 1 } as const;
/** Ma Diao §3.5: each 賞, 肩 or 極 won to the table (正本 only); 敲門 from each other 散家. */
export const ROLE_BONUS = 1;
export const QIAOMEN = 1;

/** Ma Diao §4.4: points of a drawn card for one leader, the first row that matches. */
export const CHONG = {
  topBottom: 3,
  secondTop: 3,
  drawnSecond: 2,
  gapBelow: 3,
  gapAbove: 2,
  connected: 2,
  apart: 1,
} as const;

/** Ma Diao §4.6: the 十字 suit's values; top against top is paiju's default (§6.3). */
export const SHI = {
  twentyTop: 5,
  ninetyBailao: 5,
  ninety: 2,
  connected: 2,
  apart: 1,
  topTop: 2,
} as const;
