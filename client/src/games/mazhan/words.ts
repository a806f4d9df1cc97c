// Mazhan's actions in words, tiles by name: the hint, a claim button and its accessible name,
// a record's move in the replay.
import { actionName, lang, runName, t, tileName, windName } from "../../i18n";
import { parseRecordAction } from "../../model/notation";
import type { MazhanAction } from "../../protocol";
import { recordWords } from "../../widgets/MoveLog";
import { splitTiles } from "./notation";

/** A chow's run in words, as a player says it: 「五六七索」, "5-6-7 Bamboo". */
export function runWords(codes: string[]): string {
  if (lang.value !== "zh") return runName(codes);
  const names = codes.map((x) => tileName(x));
  const suit = names[0]?.slice(-1) ?? "";
  // one suit's numbers (a chow always is): the numerals, then the suit once
  if (!names.every((n) => n.length === 2 && n.endsWith(suit))) return names.join(" ");
  return `${names.map((n) => n.slice(0, -1)).join("")}${suit}`;
}

/** An action said in words, tiles by name: 「碰 五萬」, "Pung 5 Characters", a chow by its
 *  run: 「吃 五六七索」, "Chow 5-6-7 Bamboo" (the hint, a claim button's accessible name). */
export function actionWords(a: MazhanAction): string {
  if (a.kind === "chi") return `${actionName(a.kind)} ${runWords(a.tiles)}`;
  return [actionName(a.kind), ...(a.tile ? [tileName(a.tile)] : [])].join(" ");
}

/** What a prompt's button says: the tiles in words where one choice may differ from another
 *  of its kind only by them (a chow's run, the face of a kong declared on one's turn); a
 *  claim of the discard (碰, 槓, 胡) says its name, the prompt's title names the tile. */
export function optionText(a: MazhanAction): string {
  if (a.kind === "chi") return actionWords(a);
  if ((a.kind === "angang" || a.kind === "jiagang") && a.tile) return actionWords(a);
  return actionName(a.kind);
}

/** The claims that may take nothing (another claim came first, or the window was still open). */
const CALLS = new Set(["chi", "peng", "gang", "hu"]);

/** A record's move in words from its notation ("S chi 234p"): 「南 吃 二三四筒」; `called`
 *  (its events came and said nothing): 「南 叫吃 …」, a call, not a chow. */
export function moveWords(text: string, called: boolean): string {
  const a = parseRecordAction(text, splitTiles);
  // a claim that made nothing happen yet (the window was still open, or another claim came
  // first) was a call, not a chow: the line that settles the window says what was taken
  if (called && CALLS.has(a.kind)) {
    const seat = a.seat ? windName(a.seat) : "";
    const tiles = a.kind === "chi" ? runName(a.codes) : a.codes.map((c) => tileName(c)).join(" ");
    return [seat, t("calls", { what: actionName(a.kind) }), tiles].filter(Boolean).join(" ");
  }
  return recordWords(a, (c) => tileName(c));
}
