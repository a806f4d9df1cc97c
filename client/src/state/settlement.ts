// A finished hand's state: its settlement (which stays until the player confirms the next
// hand or leaves), an escape that ended it, and the 開沖 draws the settlement has yet to show.
import { signal } from "@preact/signals";
import type { Game, Move, Seat, SeatInfo, View } from "../protocol";

export interface SettlementFrame {
  hand: number;
  stake: number;
  fee: number;
  result: unknown;
  moves: Move[];
  balance: number | null;
  balanceChange: number | null;
  /** When the confirmation of the next hand expires (ms, local clock). */
  readyDeadline: number | null;
  /** The hand's last view (its `result` reveals every hand). */
  view: View | null;
  /** Who sat where in this hand (the table's seating moves on when the deal passes). */
  names: Record<Seat, SeatInfo | null>;
  /** The game as the server names it (null: none known; the table says so). */
  game: Game | null;
}

export interface EscapeNotice {
  hand: number;
  seat: Seat;
  name: string;
  why: string;
  penalty: number;
  moves: Move[];
  mine: boolean;
}

export const settlement = signal<SettlementFrame | null>(null);
export const escaped = signal<EscapeNotice | null>(null);
/** How many of the hand's last 開沖 draws the settlement has yet to turn up: the move log
 *  holds their lines back until then (else it told the draws before the cards showed). */
export const chongUnshown = signal(0);

/** The movements of a settlement or an escape as the protocol lists them (anything else in
 *  the list is dropped). */
export function movesOf(raw: unknown): Move[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (m): m is Move =>
      !!m &&
      typeof m === "object" &&
      typeof (m as Move).amount === "number" &&
      typeof (m as Move).from === "string",
  );
}

/** How far the settlement of the hand just ended is shown: `board`, the last board stays a
 *  moment with the win's callout (the 胡 is seen before the board goes); `reveal`, the
 *  settlement turns up its parts (the winner's hand, then its items one by one; Ma Diao's
 *  開沖 draws); `shown`, all of it is on screen (or the player skipped to it). */
export type SettlementStage = "board" | "reveal" | "shown";
export const settlementStage = signal<SettlementStage>("shown");
/** The hand whose settlement was last fully shown (`settlementShown`), or null. */
export const shownHand = signal<number | null>(null);
