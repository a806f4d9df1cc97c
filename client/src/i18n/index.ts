// One table per language; `t` formats a string of the current language's table.
import { computed, signal } from "@preact/signals";
import type { ProblemDetail } from "../net/api";
import { en } from "./en";
import { zh } from "./zh";

type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
/** The shape of a language table: zh.ts's keys, every value a string. */
export type Table = Shape<typeof zh>;
export type Lang = "zh" | "en";
export type UiKey = keyof Table["ui"];

export const TABLES: Record<Lang, Table> = { zh, en };

function initialLang(): Lang {
  try {
    const saved = globalThis.localStorage?.getItem("paiju-lang");
    if (saved === "zh" || saved === "en") return saved;
  } catch {
    // storage may be unavailable (private mode); fall through
  }
  return globalThis.navigator?.language?.startsWith("zh") === false ? "en" : "zh";
}

/** The page's language attribute (screen readers, fonts) for a language. */
function markPage(l: Lang): void {
  if (typeof document !== "undefined")
    document.documentElement.lang = l === "zh" ? "zh-Hant" : "en";
}

/** The current language; switching it re-renders text and nothing else. */
export const lang = signal<Lang>(initialLang());
export const table = computed(() => TABLES[lang.value]);
markPage(lang.value); // the page starts marked zh-Hant; an English start says so at once

export function setLang(next: Lang): void {
  lang.value = next;
  try {
    globalThis.localStorage?.setItem("paiju-lang", next);
  } catch {
    // not persisted; the switch still applies
  }
  markPage(next);
}

/** Fill `{name}` placeholders. */
export function fill(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

/** A UI string of the current (or given) language. */
export function t(
  key: UiKey,
  params?: Record<string, string | number>,
  l: Lang = lang.value,
): string {
  return fill(TABLES[l].ui[key], params);
}

function lookup(section: Record<string, string>, key: string, what: string): string {
  const found = section[key];
  if (found !== undefined) return found;
  console.warn(`paiju: no ${what} name for ${JSON.stringify(key)}`);
  return key;
}

export const tileName = (code: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].tiles, code, "tile");
export const tileShort = (code: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].tilesShort, code, "tile");
export const cardName = (code: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].cards, code, "card");
export const actionName = (kind: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].actions, ACTION_ALIASES[kind] ?? kind, "action");
export const meldName = (kind: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].melds, kind, "meld");
export const windName = (seat: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].winds, seat, "seat");
/** A seat's wind in one character: 「東」, "E" (the seat ring, the compass, meld marks). */
export const windShort = (seat: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].windsShort, seat, "seat");
/** A bot level's name: 「簡單」, "Easy". */
export const levelName = (level: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].levels, level, "level");
export const roomName = (room: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].rooms, room, "room");
export const gameName = (game: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].games, game, "game");
export const reasonName = (reason: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].reasons, reason, "ledger reason");
/** An action as the move log says it: 「碰」, "pungs". */
export const verbName = (kind: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].verbs, ACTION_ALIASES[kind] ?? kind, "verb");
export const eventName = (kind: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].events, kind, "event");
export const winByName = (how: string, l: Lang = lang.value): string =>
  lookup(TABLES[l].winBy, how, "win");

/** A server error code's message (unknown codes get the generic one). */
export function errorText(code: string, l: Lang = lang.value): string {
  const errors: Record<string, string> = TABLES[l].errors;
  return errors[code] ?? TABLES[l].errors.other;
}

/** A scorer's words for a failure other than a bad hand: the error's own when it is one a
 *  person can wait out (too fast, the network, a busy or unreachable server), else the
 *  scorer's "could not be scored" (`fallback`). */
export function failureText(code: string, fallback: UiKey, l: Lang = lang.value): string {
  const transient = ["rate_limited", "network", "busy", "storage_unavailable", "unavailable"];
  return transient.includes(code) ? errorText(code, l) : t(fallback, undefined, l);
}

/** A code with its name: "9m (9 Characters)", 「9m（九萬）」 (an unknown code as is). */
function namedCode(code: string, names: Record<string, string>, l: Lang): string {
  const name = names[code];
  if (name === undefined) return code;
  return l === "zh" ? `${code}（${name}）` : `${code} (${name})`;
}

/** The scorer's problem in the page's language, or null when this page has no words for its
 *  key (a newer server's): then the server's English message is shown. */
export function problemText(detail: ProblemDetail, l: Lang = lang.value): string | null {
  const template = (TABLES[l].problems as Record<string, string>)[detail.why];
  if (template === undefined) return null;
  const p = detail.params;
  const shown: Record<string, string | number> = { ...p };
  const winds: Record<string, string> = TABLES[l].winds;
  const melds: Record<string, string> = TABLES[l].melds;
  if (typeof p.tile === "string") shown.tile = namedCode(p.tile, TABLES[l].tiles, l);
  for (const key of ["card", "captor"] as const)
    if (typeof p[key] === "string") shown[key] = namedCode(String(p[key]), TABLES[l].cards, l);
  // a seat said as a player is: 「南家」, "South"
  const seat = (s: string): string => (winds[s] ? (l === "zh" ? `${winds[s]}家` : winds[s]) : s);
  if (typeof p.seat === "string") shown.seat = seat(p.seat);
  if (typeof p.seats === "string")
    shown.seats = [...p.seats].map(seat).join(l === "zh" ? "、" : ", ");
  if (typeof p.win_by === "string") shown.win_by = winByName(p.win_by, l);
  if (typeof p.kind === "string" && detail.why !== "meld_kind")
    shown.kind = (melds[p.kind] ?? p.kind).toLowerCase();
  if (typeof p.flag === "string") {
    const hand = TABLES[l].ui[p.flag === "tianhu" ? "tianhu" : "dihu"];
    shown.flag = l === "zh" ? hand : `${p.flag === "tianhu" ? "a" : "an"} ${hand}`;
  }
  let text = fill(template, shown);
  // a Chinese character where the notation goes: how to write what was meant
  const odd = String(p.letter ?? p.char ?? "");
  if (/^[\u3400-\u9fff]$/.test(odd)) {
    const cards = ["table", "draws", "captured"].includes(detail.field);
    text += l === "zh" ? "；" : "; ";
    text += TABLES[l].ui[cards ? "problemCardWords" : "problemTileWords"];
  }
  // a fault in a meld's tiles names the meld (the field holds several)
  return detail.why.startsWith("notation_") && typeof p.meld === "string"
    ? fill(TABLES[l].ui.problemInMeld, { meld: p.meld, problem: text })
    : text;
}

/** Action kinds as the view may spell them (format 2 may use the English meld words). */
const ACTION_ALIASES: Record<string, string> = { chow: "chi", pung: "peng", kong: "gang" };

/** A (zh, en) pair from the scorer, in the current language. */
export const named = (item: { zh: string; en: string }, l: Lang = lang.value): string =>
  l === "zh" ? item.zh : item.en;

/** A chow's three tiles as a player says them: 「三萬 四萬 五萬」, "3-4-5 Characters". */
export function runName(codes: string[], l: Lang = lang.value): string {
  if (l === "zh" || !codes.length) return codes.map((c) => tileShort(c, l)).join(" ");
  const ranks = codes.map((c) => c.slice(0, 1));
  // the suit as the name of its 9 says it (plural): "9 Dots" → "Dots"
  const suit = tileName(`9${codes[0]?.slice(1)}`, l).replace(/^\d+\s*/, "");
  return `${ranks.join("-")} ${suit}`;
}
