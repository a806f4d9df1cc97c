// The ready clock is fair to a reader (docs/protocol.md, `settlement_shown`): the server starts
// a player's ready clock only when the page says the settlement is shown whole. The table's
// settlement presentation calls `settlementShown` once its reveal is done or skipped: a won
// hand's last board with its 胡, the winner's hand and items one by one, Ma Diao's 開沖 draws
// (games' `onShown`); a hand with nothing to turn up calls it at once.
import { batch } from "@preact/signals";
import { send } from "../session";
import { settlement, settlementStage, shownHand } from "./settlement";

let said: number | null = null;

/** The settlement of the hand on screen is shown whole: marked (`#result[data-shown]`) and
 *  told to the server, once per hand. */
export function settlementShown(): void {
  const s = settlement.value;
  if (!s) return;
  if (shownHand.value !== s.hand) {
    batch(() => {
      shownHand.value = s.hand;
      settlementStage.value = "shown";
    });
  }
  if (said === s.hand) return;
  if (send({ type: "settlement_shown" })) said = s.hand;
}
