// The WebSocket frames (docs/protocol.md). Hand-written until the server's JSON Schema lands.
import type { GameEvent, Seat, View } from "./views";

export type Game = "mazhan" | "madiao";

export interface SeatInfo {
  name: string;
  bot: boolean;
  ready: boolean;
  tuoguan: boolean;
  connected: boolean;
  balance?: number;
}

export type ServerMessage =
  | { type: "hello"; name: string; balance: number }
  | { type: "seated"; table: number | string; room: string; seat: Seat }
  | {
      type: "table";
      table: number | string;
      room: string;
      game: Game;
      live: boolean;
      seats: Record<Seat, SeatInfo | null>;
    }
  | {
      type: "hand_start";
      hand: number;
      stake: number;
      fee: number;
      seat: Seat;
      room: string;
      game: Game;
    }
  | {
      type: "view";
      table: number | string;
      hand: number;
      version: number;
      view: View;
      events: GameEvent[];
      seconds_left: number | null;
      stake: number;
      your_action?: string | null;
    }
  | {
      type: "settlement";
      hand: number;
      stake: number;
      fee?: number;
      result: unknown;
      moves?: unknown;
      balance: number;
      balance_change: number;
    }
  | {
      type: "escape";
      hand: number;
      seat: Seat;
      why: string;
      stake: number;
      penalty: number;
      moves?: unknown;
    }
  | { type: "unseated"; why: string }
  | { type: "left" }
  | { type: "pong" }
  | { type: "error"; code: string; message?: string };

export type ClientMessage =
  | { type: "join"; room: string; alone?: boolean }
  | { type: "ready" }
  | { type: "action"; action: string; version: number }
  | { type: "tuoguan"; on: boolean }
  | { type: "leave" }
  | { type: "ping" };

export const SERVER_TYPES = [
  "hello",
  "seated",
  "table",
  "hand_start",
  "view",
  "settlement",
  "escape",
  "unseated",
  "left",
  "pong",
  "error",
] as const;
