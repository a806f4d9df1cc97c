// The views (docs/views.md, format 2): every type is taken from generated.ts (written from
// the server's pydantic models by scripts/gen-types.mjs), named here for the components.
// Nothing is written by hand, so a change of the server's models breaks `tsc`, not a table.
import type * as G from "./generated";

export type Seat = G.Seat;
export type PerSeat<T> = Record<Seat, T>;
/** A Mazhan tile code ("5m", "7z", "2h", "1j"). */
export type TileCode = string;
/** A Ma Diao card code ("9m", "wt", "hc", "0c"). */
export type CardCode = string;

// --- Mazhan ------------------------------------------------------------------------------
export type MazhanView = G.MazhanView;
export type MazhanSeatView = MazhanView["seats"][Seat];
export type MazhanMeld = G.MazhanMeld;
export type MazhanDiscard = G.MazhanDiscard;
export type MazhanLast = G.MazhanLast;
export type MazhanAction = G.MazhanAction;
export type ClaimWindow = G.MazhanWindow;
export type MazhanResult = G.MazhanResult;
export type RevealedHand = MazhanResult["hands"][Seat];
export type MazhanScore = MazhanResult["scores"][Seat];
export type Formula = G.MazhanFormula;
export type Named = G.Named;
export type ScoreItem = G.MazhanItem;
export type TaiItem = G.MazhanTaiItem;
export type ScoredSet = G.MazhanSet;
export type MazhanPayment = G.MazhanPayment;

// --- Ma Diao -----------------------------------------------------------------------------
export type MadiaoView = G.MadiaoView;
export type MadiaoSeatView = MadiaoView["seats"][Seat];
export type Trick = G.MadiaoTrick;
export type TrickPlay = G.MadiaoPlay;
export type MadiaoLast = G.MadiaoLast;
export type MadiaoAction = G.MadiaoAction;
export type MadiaoResult = G.MadiaoResult;
export type MadiaoSeatResult = MadiaoResult["seats"][Seat];
export type MadiaoBonus = G.MadiaoBonus;
export type ChongDraw = G.MadiaoChongDraw;
export type MadiaoPayment = G.MadiaoPayment;
export type MadiaoSpecial = G.MadiaoSpecial;
export type MadiaoPenalty = G.MadiaoPenalty;

/** A payment of either game's result (who pays whom, in 注 or 胡). */
export type Payment = MazhanPayment | MadiaoPayment;

export type View = G.View;

/** One event of a view frame, as this seat may see it (either game). */
export type GameEvent = G.Events[number];
