// Watching a friend's table (docs/protocol.md, "Spectators"): the seating as a spectator
// sees it, and the table's public view, one move behind. Nothing here touches the seat's
// own table state: a spectator holds no seat.
import { signal } from "@preact/signals";
import type { PublicView, UnwatchedFrame, WatchingFrame, WatchViewFrame } from "../protocol";
import { toast } from "./connection";

/** The watched table's seating (null: watching nothing). */
export const watching = signal<WatchingFrame | null>(null);
/** The last public view shown, and its hand. */
export const watchView = signal<{ hand: number; view: PublicView } | null>(null);

export function onWatching(m: WatchingFrame): void {
  if (watching.value?.table !== m.table) watchView.value = null;
  watching.value = m;
}

export function onWatchView(m: WatchViewFrame): void {
  watchView.value = { hand: m.hand, view: m.view };
}

export function onUnwatched(m: UnwatchedFrame): void {
  watching.value = null;
  watchView.value = null;
  if (m.why === "table_closed") toast({ error: "unknown_table" }, undefined, "warn");
}
