// The WebSocket frames (docs/protocol.md): every type is taken from generated.ts (written
// from the server's pydantic models by scripts/gen-types.mjs), so `tsc` catches any drift.
import type * as G from "./generated";

export type Game = G.Game;
/** A seat as everyone at the table sees it. */
export type SeatInfo = G.SeatPublic;
export type BotLevel = NonNullable<G.Level>;

/** Every frame the server sends. */
export type ServerMessage = NonNullable<G.PaijuWebSocketProtocol["server"]>;
/** Every message the client sends. */
export type ClientMessage = NonNullable<G.PaijuWebSocketProtocol["client"]>;
export type ServerType = ServerMessage["type"];

export type HelloFrame = G.Hello;
export type SeatedFrame = G.Seated;
export type TableFrame = G.TableFrame;
export type HandStartFrame = G.HandStart;
export type ViewFrameMessage = G.ViewFrame;
export type SettlementMessage = G.Settlement;
export type EscapeFrame = G.Escape;
export type UnseatedFrame = G.Unseated;
export type PausedFrame = G.Paused;
export type ErrorFrame = G.Error;
export type HintFrame = G.HintFrame;
export type WatchingFrame = G.Watching;
export type WatchViewFrame = G.WatchView;
export type UnwatchedFrame = G.Unwatched;
/** A table as a spectator sees it (public information only). */
export type PublicView = G.WatchView["view"];
export type Clock = G.Clock;
export type Move = G.Move;
export type UnseatedWhy = G.Unseated["why"];
export type EscapeWhy = G.Escape["why"];

/** The frame types this client handles: exactly the server's (tsc fails on either drift). */
export const SERVER_TYPES = [
  "hello",
  "seated",
  "table",
  "hand_start",
  "view",
  "settlement",
  "escape",
  "unseated",
  "paused",
  "draining",
  "resumed",
  "hint",
  "watching",
  "watch_view",
  "unwatched",
  "pong",
  "error",
] as const satisfies readonly ServerType[];

// the list names every server frame type (a new one on the server fails here)
type Missing = Exclude<ServerType, (typeof SERVER_TYPES)[number]>;
export const SERVER_TYPES_COMPLETE: [Missing] extends [never] ? true : Missing = true;
