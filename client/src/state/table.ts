// The table's state: where this player sits, the table's seating, the hand in play (its view,
// clock, move log), what was sent and awaits an answer, the hint, a pause of the house.
import { batch, computed, signal } from "@preact/signals";
import type { LogEntry } from "../model/log";
import { SEATS } from "../model/seats";
import type { BotLevel, Game, GameEvent, Seat, SeatInfo, View } from "../protocol";
import type { TableKind } from "./lobby";
import { chongUnshown, escaped, settlement } from "./settlement";

export interface ViewFrame {
  table: number | string;
  hand: number;
  version: number;
  view: View;
  events: GameEvent[];
  /** The running clock: whose it is (null: this seat's own claim prompt), its full length
   *  in seconds, and when it expires (ms since the epoch, local clock); null when none runs
   *  for this seat to see. */
  clock: { seat: Seat | null; seconds: number; deadline: number } | null;
  stake: number;
  receivedAt: number;
  /** This player's turns timed out in a row (the 4th is an escape). */
  timeouts: number;
}

export interface TableState {
  table: number | string;
  room: string;
  game: Game;
  live: boolean;
  /** Hands started at this table. */
  handNo: number;
  seats: Record<Seat, SeatInfo | null>;
  /** When this player's confirmation of the next hand expires (ms, local clock), or null. */
  readyDeadline: number | null;
  /** A private table's code (its players share it with friends), or null. */
  code: string | null;
}

/** Why the hand waits for the house: its storage, or the server that plays the table. */
export type PausedWhy = "storage" | "peers";

export const seated = signal<{
  table: number | string;
  room: string;
  game: Game;
  seat: Seat;
} | null>(null);
export const tableState = signal<TableState | null>(null);
export const handInfo = signal<{ hand: number; stake: number; fee: number } | null>(null);
export const frame = signal<ViewFrame | null>(null);
export const moveLog = signal<LogEntry[]>([]);
export const readySent = signal(false);
/** The action sent for the current view (its prompt is gone and the buttons wait for the
 *  next view, whatever its version: a view after the claim pause may carry the same one). */
export const pending = signal<{ version: number; action: string } | null>(null);
/** The hint asked at this table of bots: the default bot's action at the view of `version`
 *  (`action` null while the answer is awaited); gone with the view it was asked at. */
export const hint = signal<{ version: number; action: string | null } | null>(null);
/** The hint for the view shown now (an answer for an older view is not this one's). */
export const currentHint = computed(() => {
  const h = hint.value;
  return h && frame.value && h.version === frame.value.version ? h : null;
});
/** The hand waits for the house (`paused`): its storage (`storage`), or the server that plays
 *  the table, which this player's server cannot reach (`peers`). Clocks stand still, the board
 *  shows it. When set, why, the time it paused (ms) and the running clock's seconds left then. */
export const paused = signal<{ at: number; left: number | null; why: PausedWhy } | null>(null);

/** A hand is being played now (ready makes no sense, leaving is an escape). */
export const handLive = computed(() => {
  const f = frame.value;
  if (f && f.view.result === null && !settlement.value && !escaped.value) return true;
  return false;
});

/** The game of the table this player sits at, as far as the frames tell (null: none yet). */
export function gameHere(): Game | null {
  return frame.value?.view.game ?? tableState.value?.game ?? seated.value?.game ?? null;
}

/** Forget the table (after leaving, an unseat, a logout). */
export function clearTable(): void {
  batch(() => {
    seated.value = null;
    tableState.value = null;
    handInfo.value = null;
    frame.value = null;
    moveLog.value = [];
    settlement.value = null;
    escaped.value = null;
    chongUnshown.value = 0;
    readySent.value = false;
    pending.value = null;
    hint.value = null;
    paused.value = null;
  });
}

/** The people (not bots) who sat down or left between two seatings, but this player. */
export function peopleChange(
  before: Record<Seat, SeatInfo | null>,
  after: Record<Seat, SeatInfo | null>,
  me: string | null,
): { key: { ui: "friendJoined" | "friendLeft" }; params: { name: string } }[] {
  const people = (seats: Record<Seat, SeatInfo | null>) =>
    new Set(
      Object.values(seats)
        .filter((s): s is SeatInfo => !!s && !s.bot && s.name !== me)
        .map((s) => s.name),
    );
  const was = people(before);
  const now = people(after);
  return [
    ...[...now]
      .filter((n) => !was.has(n))
      .map((name) => ({ key: { ui: "friendJoined" as const }, params: { name } })),
    ...[...was]
      .filter((n) => !now.has(n))
      .map((name) => ({ key: { ui: "friendLeft" as const }, params: { name } })),
  ];
}

/** The names of a finished hand's seats. The table's seating moves on when the deal passes
 *  (the `table` frame after a settlement); a player who sat in `handSeat` for the hand and
 *  sits in `chair` now finds everyone moved by the same turn.
 *
 *  handNames({E: a, S: b, W: c, N: me}, "E", "N") → {E: me, S: a, W: b, N: c} */
export function handNames(
  seats: Record<Seat, SeatInfo | null>,
  handSeat: Seat | null,
  chair: Seat | null,
): Record<Seat, SeatInfo | null> {
  if (!handSeat || !chair || handSeat === chair) return seats;
  const shift = (SEATS.indexOf(chair) - SEATS.indexOf(handSeat) + 4) % 4;
  const at = (s: Seat) => SEATS[(SEATS.indexOf(s) + shift) % 4] as Seat;
  return { E: seats[at("E")], S: seats[at("S")], W: seats[at("W")], N: seats[at("N")] };
}

/** The four seats of a `table` frame (a missing one is empty). */
export function seatsOf(
  raw: Partial<Record<string, SeatInfo | null>>,
): Record<Seat, SeatInfo | null> {
  return { E: raw.E ?? null, S: raw.S ?? null, W: raw.W ?? null, N: raw.N ?? null };
}

/** The kind of table this player sits at: its room, and whether every other seat is a bot
 *  (then the bots' level). */
export function tableKind(): TableKind | null {
  const at = seated.value;
  const seats = tableState.value?.seats;
  if (!at || !seats) return at ? { room: at.room, alone: false, level: null, code: null } : null;
  const code = tableState.value?.code ?? null;
  const others = SEATS.filter((s) => s !== at.seat).map((s) => seats[s]);
  const alone = !code && others.every((x) => x?.bot === true);
  const level = alone ? ((others[0]?.level as BotLevel | undefined) ?? null) : null;
  return { room: at.room, alone, level, code };
}
