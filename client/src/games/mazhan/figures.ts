// Mazhan's figures the guides quote, written once for both languages (from the rules:
// /shared/rules/mazhan.md §7 and §10). The guides' tables are built from these, so English
// and Chinese cannot disagree.

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

/** §10: the rooms of Mazhan and their minimum balances. */
export const ROOMS = { mazhan: 800, "mazhan-vip": 1_000_000 } as const;

/** §10: an escape costs 400 × 底注. */
export const ESCAPE_MULTIPLE = 400;
