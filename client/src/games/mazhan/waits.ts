// What a discard would leave, from this player's own view only (their hand, every face-up
// tile on the table, the indicator): the faces that would complete the hand (rules §6: five
// sets and a pair, the ★ standing for any suit tile, wind, 發 or 中) and how many of each are
// still unseen. Never the wall or another seat's concealed tiles: the view has neither.
import type { MazhanView } from "../../protocol";

/** The 34 faces as indices: 1m–9m 0–8, 1p–9p 9–17, 1s–9s 18–26, 1z–7z 27–33 (5z, 白, is a
 *  bonus tile and never held). */
const SUITS = "mpsz";
const WHITE = 31;

/** A tile code's face index, or -1 for a bonus tile (1h–4h, 1j–4j) or anything else. */
export function faceIndex(code: string): number {
  const s = SUITS.indexOf(code[1] ?? "");
  const n = Number(code[0]);
  if (code.length !== 2 || s < 0 || !Number.isInteger(n) || n < 1 || n > (s === 3 ? 7 : 9))
    return -1;
  return s * 9 + n - 1;
}

/** The code of a face index. */
export function faceCode(i: number): string {
  return `${(i % 9) + 1}${SUITS[Math.floor(i / 9)]}`;
}

/** Whether natural counts and `wilds` ★ make `sets` sets and, unless `paired`, a pair. */
function forms(c: number[], wilds: number, sets: number, paired: boolean): boolean {
  let i = 0;
  while (i < 34 && c[i] === 0) i += 1;
  if (i === 34) return wilds === sets * 3 + (paired ? 0 : 2);
  const n = c[i] as number;
  // the first tile held is in a pung, a chow it starts, or the pair
  if (sets > 0) {
    const take = Math.min(n, 3);
    if (3 - take <= wilds) {
      c[i] = n - take;
      const ok = forms(c, wilds - (3 - take), sets - 1, paired);
      c[i] = n;
      if (ok) return true;
    }
    if (i < 27 && i % 9 <= 6) {
      const b = c[i + 1] as number;
      const d = c[i + 2] as number;
      const need = (b ? 0 : 1) + (d ? 0 : 1);
      if (need <= wilds) {
        c[i] = n - 1;
        if (b) c[i + 1] = b - 1;
        if (d) c[i + 2] = d - 1;
        const ok = forms(c, wilds - need, sets - 1, paired);
        c[i] = n;
        c[i + 1] = b;
        c[i + 2] = d;
        if (ok) return true;
      }
    }
    // a lone tile of a run's middle or end with ★ before it: 8-9 as ★89, 9 as ★★9
    if (i < 27 && i % 9 >= 7 && wilds >= 1) {
      const b = i % 9 === 7 ? (c[i + 1] as number) : 0;
      const need = i % 9 === 7 ? (b ? 1 : 2) : 2;
      if (need <= wilds) {
        c[i] = n - 1;
        if (b) c[i + 1] = b - 1;
        const ok = forms(c, wilds - need, sets - 1, paired);
        c[i] = n;
        if (b) c[i + 1] = b;
        if (ok) return true;
      }
    }
  }
  if (!paired) {
    const take = Math.min(n, 2);
    if (2 - take <= wilds) {
      c[i] = n - take;
      const ok = forms(c, wilds - (2 - take), sets, true);
      c[i] = n;
      if (ok) return true;
    }
  }
  return false;
}

/** Counts of the natural tiles of `codes` and the number of ★ among them (the wild face). */
function countsOf(codes: readonly string[], wild: string): { counts: number[]; wilds: number } {
  const counts = new Array<number>(34).fill(0);
  let wilds = 0;
  for (const code of codes) {
    if (code === wild) wilds += 1;
    else {
      const f = faceIndex(code);
      if (f >= 0) counts[f] = (counts[f] as number) + 1;
    }
  }
  return { counts, wilds };
}

/** Whether these concealed tiles (3n + 2 of them, ★ among them) are n sets and a pair.
 *
 *  isComplete(["1m","2m","3m","5p","5p"], "9s") → true */
export function isComplete(codes: readonly string[], wild: string): boolean {
  if (codes.length % 3 !== 2) return false;
  const { counts, wilds } = countsOf(codes, wild);
  return forms(counts, wilds, (codes.length - 2) / 3, false);
}

/** The faces that would complete these concealed tiles (3n + 1 of them), in face order:
 *  never the wild's own face (a ★ drawn completes any hand that waits at all, so it says
 *  nothing) nor a face the hand holds all four of (rules §7, 獨張).
 *
 *  waitsOf(["1m","2m","4z"], "9s") → ["4z"]; a ★ could be 3m, but 3m is a face: ["3m","4z"] */
export function waitsOf(codes: readonly string[], wild: string): string[] {
  if (codes.length % 3 !== 1) return [];
  const { counts, wilds } = countsOf(codes, wild);
  const w = faceIndex(wild);
  const sets = (codes.length - 1) / 3;
  const out: string[] = [];
  for (let f = 0; f < 34; f += 1) {
    if (f === WHITE || f === w || (counts[f] as number) >= 4) continue;
    counts[f] = (counts[f] as number) + 1;
    if (forms(counts, wilds, sets, false)) out.push(faceCode(f));
    counts[f] = (counts[f] as number) - 1;
  }
  return out;
}

/** How many of each face this seat has seen: its own hand (the drawn tile too), every
 *  face-up meld (its own concealed kongs as well, face up to it), every discard not taken
 *  into a meld (a taken one is counted in the meld), and the indicator. Nothing hidden. */
export function seenCounts(view: MazhanView): number[] {
  const seen = new Array<number>(34).fill(0);
  const add = (code: string | null) => {
    const f = code ? faceIndex(code) : -1;
    if (f >= 0) seen[f] = (seen[f] as number) + 1;
  };
  for (const c of view.hand) add(c);
  add(view.drawn);
  for (const s of Object.values(view.seats)) {
    for (const m of s.melds) for (const c of m.tiles ?? []) add(c);
    for (const d of s.discards) if (!d.claimed_by) add(d.tile);
  }
  add(view.indicator);
  return seen;
}

/** A wait and how many of its face this seat has not seen (they may be in the wall or in
 *  another hand: the count says what is left to hope for, not where). */
export interface Wait {
  tile: string;
  left: number;
}

/** The waits of a concealed hand with what is unseen of each. */
export function waitsWithLeft(codes: readonly string[], view: MazhanView): Wait[] {
  const seen = seenCounts(view);
  return waitsOf(codes, view.wild).map((tile) => ({
    tile,
    left: Math.max(0, 4 - (seen[faceIndex(tile)] as number)),
  }));
}

/** The view's own waits (the server's list) without the wild's face, with what is left. */
export function shownWaits(view: MazhanView): Wait[] {
  const seen = seenCounts(view);
  return view.waits
    .filter((w) => w !== view.wild)
    .map((tile) => ({ tile, left: Math.max(0, 4 - (seen[faceIndex(tile)] ?? 4)) }));
}

/** What discarding the `index`th tile of the hand (the drawn tile last) would leave: the
 *  waits with what is left of each, or null when the hand would not be one tile short. */
export function afterDiscard(view: MazhanView, index: number): Wait[] | null {
  const all = view.drawn ? [...view.hand, view.drawn] : [...view.hand];
  if (index < 0 || index >= all.length) return null;
  const rest = all.filter((_, i) => i !== index);
  const melds = view.seats[view.seat].melds.length;
  if (rest.length + 3 * melds !== 16) return null;
  const waits = waitsWithLeft(rest, view);
  return waits.length ? waits : null;
}
