// The lobby's state: a join on its way, an invitation's code, and why the player lost a seat
// (the notice that offers a seat at the same kind of table again).
import { signal } from "@preact/signals";
import type { BotLevel, UnseatedWhy } from "../protocol";
import type { ToastKey } from "./connection";

/** A join was sent and has no answer yet (seated, or an error): the lobby's buttons wait, so
 *  that a double click does not send a second join (answered "you sit at another table"). */
export const joining = signal(false);
/** Joins by a code the server refused (the table closed, filled or began a hand): an
 *  invitation on show asks again what the table is now. */
export const codeRefused = signal(0);
/** A private table's code from an invite link (`#/join/CODE`): the lobby offers it. */
export const inviteCode = signal<string | null>(null);
export const unseatedWhy = signal<UnseatedWhy | null>(null);

/** The kind of table the player was unseated from (not confirming in time): the notice
 *  that says so offers a seat at the same kind again. */
export interface TableKind {
  room: string;
  /** Alone with bots (a table of one's own). */
  alone: boolean;
  level: BotLevel | null;
  /** A table for friends: its code (sitting again goes back there, not to strangers). */
  code: string | null;
}
export const unseatedFrom = signal<TableKind | null>(null);

const UNSEATED_KEY: Record<UnseatedWhy, ToastKey & { ui: string }> = {
  left: { ui: "unseatedEscape" },
  escape: { ui: "unseatedEscape" },
  too_few_points: { ui: "unseatedPoints" },
  not_ready: { ui: "unseatedReady" },
  table_closed: { ui: "unseatedClosed" },
  void: { ui: "unseatedVoid" },
};

/** The toast that says why the seat was lost (every `why` of the protocol has one). */
export function unseatedToast(why: UnseatedWhy): ToastKey {
  return UNSEATED_KEY[why] ?? { ui: "unseatedEscape" };
}
