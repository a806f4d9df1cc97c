// TEMPORARY: reads the server's view format 1 (tiles as concatenated strings, actions as
// notation) into format 2, so the client plays against today's server until the format 2
// views (docs/views.md, tag m1-views) land on main. Delete this file with its one caller
// (store.ts) then; nothing else may depend on it.
import { splitCodes } from "../game/notation";
import type {
  Formula,
  MadiaoAction,
  MadiaoView,
  MazhanAction,
  MazhanMeld,
  MazhanScore,
  MazhanView,
  PerSeat,
  Seat,
  View,
} from "./views";

type Any = Record<string, unknown>;
const SEATS: Seat[] = ["E", "S", "W", "N"];
const per = <T>(f: (s: Seat) => T): PerSeat<T> => ({ E: f("E"), S: f("S"), W: f("W"), N: f("N") });
const str = (x: unknown): string => (typeof x === "string" ? x : "");
const tiles = (x: unknown): string[] => (Array.isArray(x) ? (x as string[]) : splitCodes(str(x)));
const MELD: Record<string, string> = {
  chi: "chow",
  chow: "chow",
  pung: "pung",
  peng: "pung",
  kong: "kong",
  gang: "kong",
  ckong: "ckong",
  angang: "ckong",
};

function meld(text: string): MazhanMeld {
  const [kind = "", ts = ""] = text.split(" ");
  return { kind: MELD[kind] ?? kind, tiles: splitCodes(ts), claimed: null, from: null };
}

function mzAction(text: string): MazhanAction {
  const [, kind = "", arg = ""] = text.split(" ");
  const ts = splitCodes(arg);
  return { action: text, kind, tile: ts[0] ?? null, tiles: ts };
}

function formula(p: Any, winner: boolean): Formula {
  const rounded = Number(p.rounded ?? 0);
  const tai = Number(p.tai ?? 0);
  const value = Number(p.value ?? 0);
  const uncapped = Number(p.uncapped ?? value);
  const hand = (p.hand as string[] | undefined) ?? [];
  let rule = winner ? "hutou" : "loser";
  let head = winner ? rounded + 20 : rounded;
  if (winner && hand.includes("平胡")) {
    rule = "pinghu";
    head = 100;
  } else if (winner && value === 400 && head * 2 ** tai !== uncapped) rule = "limit";
  return {
    rule,
    base: Number(p.base ?? 0),
    rounded,
    head,
    multiplier: 2 ** tai,
    uncapped,
    cap: 400,
    value,
  };
}

function mazhan(v: Any): MazhanView {
  const seat = v.seat as Seat;
  const acting = (v.acting as Seat[]) ?? [];
  const phase = str(v.phase) as MazhanView["phase"];
  const claiming = phase === "claim" || phase === "rob";
  const melds = (v.melds as Record<Seat, string[]>) ?? {};
  const bonus = (v.bonus as Record<Seat, string>) ?? {};
  const discards = (v.discards as Record<Seat, { tile: string; claimed: boolean }[]>) ?? {};
  const sizes = (v.hand_sizes as Record<Seat, number>) ?? {};
  const hand = tiles(v.hand);
  const drawn = typeof v.drawn === "string" ? v.drawn : null;
  if (drawn) hand.splice(hand.lastIndexOf(drawn), 1);
  let result: MazhanView["result"] = null;
  const r = v.result as Any | null;
  if (r) {
    const st = (r.settlement as Any) ?? {};
    const players = (st.players as Record<Seat, Any>) ?? {};
    const hands = (r.hands as Record<Seat, string>) ?? {};
    result = {
      winner: (r.winner as Seat) ?? null,
      win_by: (r.win_by as string) ?? null,
      win_tile: (r.win_tile as string) ?? null,
      discarder: (r.discarder as Seat) ?? null,
      tianhu: !!r.tianhu,
      dihu: !!r.dihu,
      hands: per((s) => ({
        concealed: tiles(hands[s]),
        melds: (melds[s] ?? []).map(meld),
        bonus: tiles(bonus[s]),
      })),
      scores: per((s): MazhanScore => {
        const p = players[s] ?? {};
        const zh = (p.hand as string[]) ?? [];
        const en = (p.hand_en as string[]) ?? [];
        return {
          role: str(p.role),
          base: Number(p.base ?? 0),
          rounded: Number(p.rounded ?? 0),
          tai: Number(p.tai ?? 0),
          value: Number(p.value ?? 0),
          uncapped: Number(p.uncapped ?? 0),
          capped: !!p.capped,
          formula: formula(p, r.winner === s),
          hand: zh.map((z, i) => ({ zh: z, en: en[i] ?? z })),
          items: ((p.items as Any[]) ?? []).map((i) => ({
            zh: str(i.name),
            en: str(i.en),
            points: Number(i.points),
          })),
          tai_items: ((p.tai_items as Any[]) ?? []).map((i) => ({
            zh: str(i.name),
            en: str(i.en),
            tai: Number(i.tai),
          })),
          sets: [],
        };
      }),
      payments: ((st.payments as Any[]) ?? []).map((p) => {
        const from = p.from as Seat;
        const to = p.to as Seat;
        return {
          from,
          to,
          amount: Number(p.amount),
          reason: str(p.reason),
          dealer: from === "E" || to === "E",
        };
      }),
      net: (r.net as PerSeat<number>) ?? per(() => 0),
    };
  }
  return {
    game: "mazhan",
    format: 2,
    seat,
    phase,
    version: Number(v.version),
    my_turn: acting.includes(seat),
    turn: claiming || phase === "over" ? null : ((v.current as Seat) ?? null),
    window: claiming
      ? {
          kind: phase === "rob" ? "rob" : "claim",
          tile: str(v.claim_tile),
          from: v.claim_from as Seat,
        }
      : null,
    dealer: "E",
    wild: str(v.wild),
    indicator: str(v.indicator),
    set_aside: tiles(v.set_aside),
    dice: (v.dice as number[]) ?? [],
    wall_left: Number(v.wall_left ?? 0),
    dead_wall: Number(v.dead_wall ?? 0),
    hand,
    drawn,
    waits: [],
    seats: per((s) => ({
      wind: s,
      hand_size: Number(sizes[s] ?? 0),
      melds: (melds[s] ?? []).map(meld),
      bonus: tiles(bonus[s]),
      discards: (discards[s] ?? []).map((d) => ({
        tile: d.tile,
        claimed_by: d.claimed ? ("?" as unknown as Seat) : null,
      })),
    })),
    last: null,
    legal: ((v.legal as string[]) ?? []).map(mzAction),
    result,
  };
}

function madiao(v: Any): MadiaoView {
  const seat = v.seat as Seat;
  const acting = (v.acting as Seat[]) ?? [];
  const sizes = (v.hand_sizes as Record<Seat, number>) ?? {};
  const table = (v.table as Record<Seat, string>) ?? {};
  const won = (v.tricks_won as Record<Seat, number>) ?? {};
  const trick = (v.trick as { seat: Seat; card: string | null; face_up: boolean }[]) ?? [];
  const r = v.result as Any | null;
  return {
    game: "madiao",
    format: 2,
    seat,
    phase: r ? "over" : "tricks",
    version: Number(v.version),
    my_turn: acting.includes(seat),
    turn: acting[0] ?? null,
    banker: v.banker as Seat,
    mian: str(v.mian),
    trick_no: Number(v.trick_no ?? 0) + (r ? 0 : 1),
    hand: splitCodes(str(v.hand), "madiao"),
    seats: per((s) => ({
      hand_size: Number(sizes[s] ?? 0),
      won: splitCodes(str(table[s]), "madiao"),
      tricks_won: Number(won[s] ?? 0),
      face_down: 0,
      face_down_cards: s === seat ? [] : null,
    })),
    trick: trick.length ? { leader: trick[0]?.seat as Seat, plays: trick } : null,
    seen: splitCodes(str(v.seen), "madiao"),
    last: null,
    legal: ((v.legal as string[]) ?? []).map((a): MadiaoAction => {
      const [, kind = "", card = ""] = a.split(" ");
      return { action: a, kind, card: card || null };
    }),
    result: r
      ? {
          banker: r.banker as Seat,
          seats: r.seats as MadiaoView["result"] extends infer R
            ? R extends { seats: infer S }
              ? S
              : never
            : never,
          chong: (r.chong as never[]) ?? [],
          payments: ((r.qiaomen as Any[]) ?? []).map((q) => ({
            from: q.from as Seat,
            to: q.to as Seat,
            amount: Number(q.zhu),
            reason: "qiaomen",
          })),
          net: r.net as PerSeat<number>,
        }
      : null,
  };
}

/** A view of either format as format 2. */
export function toFormat2(v: unknown): View {
  const x = v as Any;
  if (x && x.format === 2) return x as unknown as View;
  if (x && "wild" in x) return mazhan(x);
  return madiao(x);
}

export const LEGACY_SEATS = SEATS;
