// The connection's state: who is logged in, which screen the page shows, the toasts, and the
// frames it could not read. Nothing here renders; components read these signals, so a language
// switch (a signal of its own) re-renders text without touching the connection or the screen.
import { signal } from "@preact/signals";
import type { Game } from "../protocol";

export interface Me {
  name: string;
  balance: number;
}

export type Route =
  | { name: "login" }
  | { name: "lobby" }
  | { name: "table" }
  /** Watching a friend's table (public information only). */
  | { name: "watch" }
  | { name: "replay"; hand: number; step: number }
  /** The scorer page on one game's tab (null: the first game's). */
  | { name: "score"; game: Game | null }
  /** How to play, on one game's guide (null: the first game's). */
  | { name: "rules"; game: Game | null };

export interface Toast {
  id: number;
  kind: "info" | "warn" | "error";
  /** Resolved at render time so it follows the language. */
  key: ToastKey;
  params?: Record<string, string | number>;
  at: number;
}

export type ToastKey =
  | {
      ui:
        | "claimLost"
        | "claimLostPlain"
        | "reconnected"
        | "unknownMessage"
        | "escapeNotice"
        | "youEscaped"
        | "youLeftPaid"
        | "unseatedPoints"
        | "unseatedClosed"
        | "unseatedEscape"
        | "unseatedReady"
        | "unseatedVoid"
        | "paused"
        | "pausedPeers"
        | "resumed"
        | "linkCopied"
        | "draining"
        | "friendJoined"
        | "friendLeft"
        | "linkNotCopied"
        | "invitedSeated";
    }
  | { error: string };

export const me = signal<Me | null>(null);
export const route = signal<Route>({ name: "login" });
export const toasts = signal<Toast[]>([]);
/** This server said it drains (a deploy): its socket's close, between hands, is a hand-over. */
export const draining = signal(false);
/** Frames the page could not read (no type, or a type it does not know): logged, counted. */
export const unknownFrames = signal(0);

let toastId = 1;
export function toast(
  key: ToastKey,
  params?: Record<string, string | number>,
  kind: Toast["kind"] = "info",
): void {
  const item: Toast = { id: toastId++, kind, key, at: Date.now() };
  if (params) item.params = params;
  toasts.value = [...toasts.value.slice(-3), item];
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((x) => x.id !== id);
}
