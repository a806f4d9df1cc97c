// The ready clock is fair to a reader (docs/protocol.md, `settlement_shown`): the server starts
// a player's ready clock only when the page says the settlement is shown whole. `settlementShown`
// says so, once per hand; the table's settlement presentation calls it when its reveal (Ma Diao's
// 開沖 draws, a win's items) is done or skipped. Until that presentation calls it itself,
// `watchSettlement` calls it once the 開沖 draws are all turned up (a hand without any: a
// moment after the settlement shows).
import { effect } from "@preact/signals";
import { send } from "../session";
import { chongUnshown, settlement } from "./settlement";

let said: number | null = null;

/** Tell the server the settlement of the hand on screen is shown whole (once per hand). */
export function settlementShown(): void {
  const s = settlement.value;
  if (!s || said === s.hand) return;
  if (send({ type: "settlement_shown" })) said = s.hand;
}

/** How long after a settlement appears its reveal has surely begun (the 開沖 draws are
 *  counted by then): an empty count after this is a reveal done. */
export const SETTLE_MS = 800;

/** Call `settlementShown` when the settlement's 開沖 draws are all shown (the stop-gap until
 *  the settlement's presentation calls it); the disposer stops watching. */
export function watchSettlement(
  setTimer: (fn: () => void, ms: number) => unknown = setTimeout,
): () => void {
  let since: number | null = null;
  let armed = false;
  return effect(() => {
    const s = settlement.value;
    const left = chongUnshown.value;
    if (!s) {
      since = null;
      armed = false;
      return;
    }
    if (since !== s.hand) {
      since = s.hand;
      armed = false;
      setTimer(() => {
        armed = true;
        if (chongUnshown.peek() <= 0) settlementShown();
      }, SETTLE_MS);
      return;
    }
    if (armed && left <= 0) settlementShown();
  });
}
