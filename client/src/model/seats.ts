// Seats around the square table: you at the bottom, play running counter-clockwise, so the
// next seat (下家) sits on your right, the one across on top and the one before (上家) on the left.
import type { Seat } from "../protocol";

export const SEATS: readonly Seat[] = ["E", "S", "W", "N"];
export type Side = "bottom" | "right" | "top" | "left";
const SIDES: readonly Side[] = ["bottom", "right", "top", "left"];

/** The seat `k` places after `seat` in play order. */
export function after(seat: Seat, k = 1): Seat {
  const i = SEATS.indexOf(seat);
  return SEATS[(i + k + 400) % 4] as Seat;
}

/** Where `seat` sits on the screen of the player at `me`. */
export function sideOf(seat: Seat, me: Seat): Side {
  const d = (SEATS.indexOf(seat) - SEATS.indexOf(me) + 4) % 4;
  return SIDES[d] as Side;
}

/** The four seats starting with `me` (bottom, right, top, left). */
export function aroundFrom(me: Seat): Seat[] {
  return [0, 1, 2, 3].map((k) => after(me, k));
}

export function isSeat(x: unknown): x is Seat {
  return x === "E" || x === "S" || x === "W" || x === "N";
}
