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

/** Split a grouped code run: "345m" → 3m 4m 5m; "wt" → wt; "9m" → 9m. */
export function splitCodes(arg: string): string[] {
  const out: string[] = [];
  for (const m of arg.matchAll(/([0-9wqbh]+)([a-z])/g)) {
    const faces = m[1] ?? "";
    const suit = m[2] ?? "";
    for (const f of faces) out.push(f + suit);
  }
  return out;
}

export function parseRecordAction(text: string): RecordAction {
  const [seat, kind = "", arg = ""] = text.trim().split(/\s+/);
  return { seat: isSeat(seat) ? seat : null, kind, codes: arg ? splitCodes(arg) : [] };
}
