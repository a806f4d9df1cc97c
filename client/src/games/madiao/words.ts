// Ma Diao's actions in words, cards by name: the hint, a card's accessible name, a record's
// move in the replay.
import { actionName, cardName } from "../../i18n";
import { parseRecordAction } from "../../model/notation";
import type { MadiaoAction } from "../../protocol";
import { recordWords } from "../../widgets/MoveLog";
import { splitCards } from "./notation";

/** A play in words: 「捉 九萬」, "Capture 9 Myriads". */
export function actionLabel(a: MadiaoAction): string {
  return a.card ? `${actionName(a.kind)} ${cardName(a.card)}` : actionName(a.kind);
}

/** A record's move in words from its notation ("W zhuo wt"): 「西 捉 萬萬」. */
export function moveWords(text: string): string {
  return recordWords(parseRecordAction(text, splitCards), (c) => cardName(c));
}
