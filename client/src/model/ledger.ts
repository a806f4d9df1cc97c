// The ledger as a player reads it: one line per hand and reason. The server keeps one entry
// per movement (a bot's payment, each quarter of an escape penalty), which is right for the
// books and noise on screen; the lobby shows their sums, naming everyone on the other side.
import type { LedgerEntry } from "../net/api";
import type { Move } from "../protocol";

const sideOf = (e: LedgerEntry): string[] =>
  e.counterparts?.length ? e.counterparts : e.counterpart ? [e.counterpart] : [];

/** Consecutive entries (newest first, as `/api/ledger` sends them) of one hand and one
 *  reason merged into one: their amounts summed (a hand paid to one seat and received from
 *  another is its net), the balance after the newest, the counterparts listed once each.
 *  Entries of no hand (the opening grant) stay apart. */
export function groupLedger(entries: LedgerEntry[]): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  for (const e of entries) {
    const last = out[out.length - 1];
    if (last && e.hand !== null && last.hand === e.hand && last.reason === e.reason) {
      const names = sideOf(last);
      for (const n of sideOf(e)) if (!names.includes(n)) names.push(n);
      out[out.length - 1] = { ...last, amount: last.amount + e.amount, counterparts: names };
    } else {
      out.push({ ...e, counterparts: [...sideOf(e)] });
    }
  }
  return out;
}

/** A hand's movements with one payer, one payee and one reason summed into one, in the order
 *  they first appear: the house pays or is paid once for all its bots, not once per bot. */
export function mergeMoves(moves: Move[]): Move[] {
  const out: Move[] = [];
  for (const m of moves) {
    const i = out.findIndex((o) => o.from === m.from && o.to === m.to && o.reason === m.reason);
    const same = out[i];
    if (same) out[i] = { ...same, amount: same.amount + m.amount };
    else out.push({ ...m });
  }
  return out;
}

/** What this player gained (+) or paid (−) with each other side of the hand's movements:
 *  the house paid for one bot and was paid for another is one line, its net. */
export function netByOther(moves: Move[], name: string | null): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of moves) {
    if (m.from !== name && m.to !== name) continue;
    const other = m.from === name ? m.to : m.from;
    out.set(other, (out.get(other) ?? 0) + (m.to === name ? m.amount : -m.amount));
  }
  return out;
}
