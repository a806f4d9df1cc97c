// Touch that forgives: on a touch screen the first tap on a piece raises it (and the table
// says what playing it would leave), a second tap on the same piece (or a swipe up on it)
// plays it, a tap anywhere else lowers it. A mouse click and the keyboard's Enter play at
// once, as before: a mouse has hovered first, and the keyboard has moved the focus there.

/** What pressed the piece: a finger or a pen, a mouse, or a key (Enter, Space). */
export type Pointer = "touch" | "mouse" | "key";

export interface TapState {
  /** The raised piece (its index in the hand), or null. */
  raised: number | null;
}

export type TapEvent =
  /** A tap or click on the `index`th piece; `playable`: it may be played now. */
  | { type: "tap"; index: number; pointer: Pointer; playable: boolean }
  /** A swipe up that began on the `index`th piece. */
  | { type: "swipe"; index: number; playable: boolean }
  /** A tap elsewhere, or the view moved on: nothing is raised. */
  | { type: "lower" };

export const LOWERED: TapState = { raised: null };

/** The next state, and the piece to play now (null: none).
 *
 *  tap({raised: null}, {type: "tap", index: 3, pointer: "touch", playable: true})
 *    → {state: {raised: 3}, play: null} */
export function tap(state: TapState, ev: TapEvent): { state: TapState; play: number | null } {
  switch (ev.type) {
    case "lower":
      return { state: LOWERED, play: null };
    case "swipe":
      return ev.playable ? { state: LOWERED, play: ev.index } : { state, play: null };
    case "tap":
      if (!ev.playable) return { state: LOWERED, play: null };
      if (ev.pointer !== "touch" || state.raised === ev.index)
        return { state: LOWERED, play: ev.index };
      return { state: { raised: ev.index }, play: null };
  }
}

/** The pointer of a click event: `pointerType` where the browser gives it (a tap's click is
 *  "touch"), a key when the click came from the keyboard (`detail` 0). */
export function pointerOf(ev: MouseEvent): Pointer {
  const type = (ev as PointerEvent).pointerType;
  if (type === "touch" || type === "pen") return "touch";
  if (type === "mouse") return "mouse";
  return ev.detail === 0 ? "key" : "mouse";
}

/** How far up (px) a finger must move on a piece for a swipe to play it. */
export const SWIPE_PX = 36;

/** Whether a move from `from` to `to` (client y) is a swipe up. */
export function isSwipeUp(from: number, to: number): boolean {
  return from - to >= SWIPE_PX;
}
