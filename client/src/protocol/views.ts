// View format 2 (docs/views.md), written by hand from the contract until the server's JSON
// Schema lands in docs/; then `npm run types` generates generated.ts and index.ts re-exports
// it instead. Everything here is exactly what the server sends: no client-side derivations.

export type Seat = "E" | "S" | "W" | "N";
export type PerSeat<T> = Record<Seat, T>;
/** A Mazhan tile code ("5m", "7z", "2h", "1j"). */
export type TileCode = string;
/** A Ma Diao card code ("9m", "wt", "hc", "0c"). */
export type CardCode = string;

export interface MazhanAction {
  /** The exact string to send back ("S peng"). */
  action: string;
  kind: string;
  tile: TileCode | null;
  tiles: TileCode[];
}

export interface MazhanMeld {
  /** chow | pung | kong | ckong */
  kind: string;
  /** null: another seat's concealed kong, face down. */
  tiles: TileCode[] | null;
  claimed: TileCode | null;
  from: Seat | null;
}

export interface MazhanDiscard {
  tile: TileCode;
  claimed_by: Seat | null;
}

export interface MazhanSeatView {
  wind: Seat;
  hand_size: number;
  melds: MazhanMeld[];
  bonus: TileCode[];
  discards: MazhanDiscard[];
}

export interface MazhanLast {
  seat: Seat | null;
  kind: string;
  tile: TileCode | null;
}

export interface ClaimWindow {
  kind: "claim" | "rob";
  tile: TileCode;
  from: Seat;
}

export interface Named {
  zh: string;
  en: string;
}

export interface ScoreItem extends Named {
  points: number;
}

export interface TaiItem extends Named {
  tai: number;
}

export interface Formula {
  /** hutou | pinghu | limit | loser */
  rule: string;
  base: number;
  rounded: number;
  head: number;
  multiplier: number;
  uncapped: number;
  cap: number;
  value: number;
}

export interface ScoredSet {
  kind: string;
  tiles: TileCode[];
  concealed: boolean;
  wild: TileCode[];
}

export interface MazhanScore {
  role: "winner" | "loser" | string;
  base: number;
  rounded: number;
  tai: number;
  value: number;
  uncapped: number;
  capped: boolean;
  formula: Formula;
  hand: Named[];
  items: ScoreItem[];
  tai_items: TaiItem[];
  sets: ScoredSet[];
}

export interface RevealedHand {
  concealed: TileCode[];
  melds: MazhanMeld[];
  bonus: TileCode[];
}

export interface Payment {
  from: Seat;
  to: Seat;
  amount: number;
  /** Mazhan: win | difference; Ma Diao: diao | bonus | chong | qiaomen … */
  reason: string;
  dealer?: boolean;
}

export interface MazhanResult {
  winner: Seat | null;
  win_by: string | null;
  win_tile: TileCode | null;
  discarder: Seat | null;
  tianhu: boolean;
  dihu: boolean;
  hands: PerSeat<RevealedHand>;
  scores: PerSeat<MazhanScore>;
  payments: Payment[];
  net: PerSeat<number>;
}

export interface MazhanView {
  game: "mazhan";
  format: 2;
  seat: Seat;
  phase: "act" | "claim" | "rob" | "over";
  version: number;
  my_turn: boolean;
  turn: Seat | null;
  window: ClaimWindow | null;
  dealer: Seat;
  wild: TileCode;
  indicator: TileCode;
  set_aside: TileCode[];
  dice: [number, number] | number[];
  wall_left: number;
  dead_wall: number;
  hand: TileCode[];
  drawn: TileCode | null;
  waits: TileCode[];
  seats: PerSeat<MazhanSeatView>;
  last: MazhanLast | null;
  legal: MazhanAction[];
  result: MazhanResult | null;
}

export interface MadiaoAction {
  action: string;
  /** fa (lead) | zhuo (capture) | mie (face down) */
  kind: string;
  card: CardCode | null;
}

export interface MadiaoSeatView {
  hand_size: number;
  won: CardCode[];
  tricks_won: number;
  face_down: number;
  /** This seat's own 滅 cards; null for the others. */
  face_down_cards: CardCode[] | null;
}

export interface TrickPlay {
  seat: Seat;
  card: CardCode | null;
  face_up: boolean;
}

export interface Trick {
  leader: Seat;
  plays: TrickPlay[];
}

export interface MadiaoLast {
  seat: Seat | null;
  kind: string;
  card: CardCode | null;
}

export interface MadiaoBonus extends Named {
  zhu: number;
}

export interface MadiaoSeatResult {
  tricks: number;
  zhengben: boolean;
  diao: number;
  bonuses: MadiaoBonus[];
  chong: number;
  bonus_total: number;
  net: number;
}

export interface ChongDraw {
  card: CardCode;
  drawer: Seat;
  scorer: Seat | null;
  points: number;
}

export interface MadiaoResult {
  banker: Seat;
  seats: PerSeat<MadiaoSeatResult>;
  chong: ChongDraw[];
  payments: Payment[];
  net: PerSeat<number>;
  /** Every seat's cards at the end (the hand is over), when the server sends them. */
  hands?: PerSeat<CardCode[]>;
}

export interface MadiaoView {
  game: "madiao";
  format: 2;
  seat: Seat;
  phase: "tricks" | "over";
  version: number;
  my_turn: boolean;
  turn: Seat | null;
  banker: Seat;
  mian: CardCode;
  trick_no: number;
  hand: CardCode[];
  seats: PerSeat<MadiaoSeatView>;
  trick: Trick | null;
  seen: CardCode[];
  last: MadiaoLast | null;
  legal: MadiaoAction[];
  result: MadiaoResult | null;
}

export type View = MazhanView | MadiaoView;

/** One event of a view frame, as this seat may see it. */
export interface GameEvent {
  kind: string;
  seat: Seat | null;
  tiles?: TileCode[] | null;
  card?: CardCode | null;
  detail?: string;
}
