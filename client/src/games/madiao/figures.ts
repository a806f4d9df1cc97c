// Ma Diao's figures the guides quote, written once for both languages (from the rules:
// /shared/rules/madiao.md §3.4–§4.6; the server's rooms for the escape). The guides' tables
// are built from these, so English and Chinese cannot disagree.

/** The room of Ma Diao and its minimum balance. */
export const ROOMS = { madiao: 800 } as const;

/** An escape costs 40 × 底注 (the server's Ma Diao room). */
export const ESCAPE_MULTIPLE = 40;

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
