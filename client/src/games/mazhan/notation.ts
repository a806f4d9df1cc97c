// Mazhan's notation: tiles as faces then a suit ("345m", "777z", "1h2j"), and a meld's kind as
// a Chinese player may write it (碰 777z).
import { splitRuns } from "../../model/notation";

/** Split grouped tiles: "345m" → 3m 4m 5m; "1h2j" → 1h 2j. */
export const splitTiles = (arg: string): string[] => splitRuns(arg, /(\d+)([mpszhj])/g);

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
