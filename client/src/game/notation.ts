// The action notation of a hand's record ("S chi 345m", "W zhuo wt"), read only by the replay
// viewer's move list: live play never parses notation (views carry structured actions).
import type { Seat } from "../protocol";
import { isSeat } from "./seats";

export interface RecordAction {
  seat: Seat | null;
  kind: string;
  /** Mazhan tiles or a Ma Diao card, as codes. */
  codes: string[];
}

const RUNS = {
  mazhan: /(\d+)([mpszhj])/g,
  madiao: /([0-9wqbh]+)([tmsc])/g,
};

/** Split a grouped code run: "345m" → 3m 4m 5m; "1h2j" → 1h 2j; Ma Diao "wqt" → wt qt. */
export function splitCodes(arg: string, game: "mazhan" | "madiao" = "mazhan"): string[] {
  const out: string[] = [];
  for (const m of arg.matchAll(RUNS[game])) {
    const faces = m[1] ?? "";
    const suit = m[2] ?? "";
    for (const f of faces) out.push(f + suit);
  }
  return out;
}

export function parseRecordAction(text: string, game: "mazhan" | "madiao"): RecordAction {
  const [seat, kind = "", arg = ""] = text.trim().split(/\s+/);
  return { seat: isSeat(seat) ? seat : null, kind, codes: arg ? splitCodes(arg, game) : [] };
}
