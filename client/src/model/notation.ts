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

/** What was typed as the notation reads it: full-width digits, letters and commas made
 *  plain (a Chinese input method types 「２ｐ，」), letters in lower case.
 *
 *  @example plainTyped("２Ｐ，３ｐ") === "2p,3p" */
export function plainTyped(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/** A meld's kind as a Chinese player may write it: 吃 chow, 碰 pung, 槓 kong, 暗槓 ckong. */
const MELD_WORDS: [RegExp, string][] = [
  [/^暗[槓杠]\s*/, "ckong "],
  [/^明?[槓杠]\s*/, "kong "],
  [/^碰\s*/, "pung "],
  [/^吃\s*/, "chow "],
];

/** One meld as typed, its kind in the notation's word ("碰 777z" is "pung 777z").
 *
 *  @example meldWord("碰777z") === "pung 777z" */
export function meldWord(meld: string): string {
  for (const [word, kind] of MELD_WORDS) if (word.test(meld)) return meld.replace(word, kind);
  return meld;
}
