// Ma Diao's notation: cards as faces then a suit ("98m", "wqt": 萬萬 and 千萬 of the 十字 suit).
import { splitRuns } from "../../model/notation";

/** Split grouped cards: "98m" → 9m 8m; "wqt" → wt qt. */
export const splitCards = (arg: string): string[] => splitRuns(arg, /([0-9wqbh]+)([tmsc])/g);
