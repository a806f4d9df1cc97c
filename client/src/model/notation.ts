// The notation every game's codes are written in: a run of faces then the suit they share
// ("345m", "wqt"), and a hand record's actions ("S chi 345m", "W zhuo wt"), read only by the
// replay viewer's move list (live play never parses notation: views carry structured
// actions). Each game says which faces and suits it has (games/<game>/notation.ts).
import type { Seat } from "../protocol";
import { isSeat } from "./seats";

export interface RecordAction {
  seat: Seat | null;
  kind: string;
  /** The game's pieces (tiles, cards), as codes. */
  codes: string[];
}

/** Split grouped code runs by a game's pattern (its faces, then its suit letter): with
 *  Mazhan's, "345m" → 3m 4m 5m and "1h2j" → 1h 2j; with Ma Diao's, "wqt" → wt qt. */
export function splitRuns(arg: string, runs: RegExp): string[] {
  const out: string[] = [];
  for (const m of arg.matchAll(runs)) {
    const faces = m[1] ?? "";
    const suit = m[2] ?? "";
    for (const f of faces) out.push(f + suit);
  }
  return out;
}

/** A record's action, its codes split by the game's `split`. */
export function parseRecordAction(text: string, split: (arg: string) => string[]): RecordAction {
  const [seat, kind = "", arg = ""] = text.trim().split(/\s+/);
  return { seat: isSeat(seat) ? seat : null, kind, codes: arg ? split(arg) : [] };
}

/** What was typed as the notation reads it: full-width digits, letters and commas made
 *  plain (a Chinese input method types 「２ｐ，」), letters in lower case.
 *
 *  @example plainTyped("２Ｐ，３ｐ") === "2p,3p" */
export function plainTyped(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}
