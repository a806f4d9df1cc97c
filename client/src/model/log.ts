// The move log: events of the view frames, kept as data and named at render time, so a
// language switch renames every line without losing one.
import type { GameEvent, Seat } from "../protocol";
import { isSeat } from "./seats";

export interface LogEntry {
  id: number;
  hand: number;
  version: number;
  seat: Seat | null;
  kind: string;
  tiles: string[];
  card: string | null;
  detail: string;
}

/** Events the log shows (a hidden draw by another seat, a pass, a deal step are noise). */
const SHOWN = new Set([
  "discard",
  "chi",
  "peng",
  "gang",
  "angang",
  "jiagang",
  "hu",
  "shazhu",
  "bonus",
  "liuju",
  "exhausted",
  "fa",
  "zhuo",
  "mie",
  "trick",
  "chong",
  "claim",
  "dead",
  "mian",
  "claim_lost",
]);

/** Normalise one event's tiles: format 2 sends arrays; older frames sent one string. */
export function eventTiles(e: GameEvent): string[] {
  const raw = (e as { tiles?: unknown }).tiles;
  if (Array.isArray(raw)) return raw.filter((x): x is string => typeof x === "string");
  if (typeof raw === "string") return raw.match(/\d[mpszhj]/g) ?? [];
  return [];
}

let nextId = 1;

/** The log entries of one frame's events (those the log shows). */
export function entriesOf(events: GameEvent[], hand: number, version: number): LogEntry[] {
  const out: LogEntry[] = [];
  for (const e of events) {
    if (!e || typeof e.kind !== "string") continue;
    const detail = typeof e.detail === "string" ? e.detail : "";
    // a Ma Diao play is logged as what it was (lead, capture, face down)
    const kind = e.kind === "play" && detail ? detail : e.kind;
    if (!SHOWN.has(kind)) continue;
    const card = "card" in e && typeof e.card === "string" ? e.card : null;
    out.push({
      id: nextId++,
      hand,
      version,
      seat: isSeat(e.seat) ? e.seat : null,
      kind,
      tiles: eventTiles(e),
      card,
      detail: kind === e.kind ? detail : "",
    });
  }
  return out;
}

/** What a claim_lost event's detail names: the seat and kind of the claim that won. */
export function lostTo(detail: string): { seat: Seat; kind: string } | null {
  const m = /^([ESWN])\s+([a-z_]+)/.exec(detail.trim());
  if (!m) return null;
  return { seat: m[1] as Seat, kind: m[2] as string };
}

/** The log without its last `unshown` 開沖 lines (a draw, a claim or a dead card: one line a
 *  draw), while the settlement is still turning those draws up.
 *
 *  @example withoutUnshownChong(entries, 0) === entries */
export function withoutUnshownChong(entries: LogEntry[], unshown: number): LogEntry[] {
  if (unshown <= 0) return entries;
  const out = [...entries];
  let left = unshown;
  for (let i = out.length - 1; i >= 0 && left > 0; i--) {
    const kind = out[i]?.kind;
    if (kind === "chong" || kind === "claim" || kind === "dead") {
      out.splice(i, 1);
      left--;
    }
  }
  return out;
}
