// What every game's board is given and is made of: the view, who sits where, the clock, what to
// do on a tap; laid out the same way for every game (you at the bottom, the others around).
import type { Seat, SeatInfo, View } from "../protocol";
import type { TableClock } from "./Clock";

/** A board's props (a game's board narrows `V` to its own view). */
export interface BoardProps<V extends View = View> {
  view: V;
  names: Record<Seat, SeatInfo | null>;
  /** The running clock (null: none this seat may see), stopped while the table is paused. */
  clock: TableClock | null;
  /** The action sent and waiting for the server's next view: the prompt it answered is gone
   *  and the hand's buttons are disabled meanwhile. */
  pending: string | null;
  /** Bumped on each new frame, to replay the short animations. */
  version: number;
  points?: Partial<Record<Seat, number>>;
  onAction: (action: string) => void;
  /** The replay viewer shows a table without controls. */
  readOnly?: boolean;
  /** The action a hint suggests (marked on its piece or button). */
  hinted?: string | null;
  /** Replay: every seat's concealed pieces (the hand is over). */
  revealed?: Partial<Record<Seat, string[]>>;
}
