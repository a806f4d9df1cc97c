// The figures of the online table every guide quotes, written once for both languages and
// both games (rules §10: the stake, the clocks). Each game's own figures are in its folder
// (games/<game>/figures.ts). The guides' tables are built from these, so English and Chinese
// cannot disagree.

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
