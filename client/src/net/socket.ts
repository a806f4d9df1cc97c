// The one WebSocket: opened after login, kept across screens and language switches,
// reconnected by itself with exponential backoff (and says so through `status`). A close the
// server announced (a drain, between hands) is a hand-over, not a fault: its reconnect is
// `quiet` and the page shows nothing unless it fails.
import { signal } from "@preact/signals";

export type SocketStatus =
  | { state: "idle" }
  | { state: "connecting"; attempt: number; quiet: boolean }
  | { state: "open"; since: number; reconnected: boolean; quiet: boolean }
  | { state: "retrying"; attempt: number; at: number; delay: number; quiet: boolean }
  | { state: "closed"; code: number };

/** The close code of a socket another page of the same account took over. */
export const TAKEN_OVER = 4009;

export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

/** A hand-over's reconnect is shown as a fault only once it has failed this many times. */
export const QUIET_ATTEMPTS = 3;

/** The delay before reconnect attempt `attempt` (1-based), with ±20% jitter from `rand`. */
export function backoff(attempt: number, rand: () => number = Math.random): number {
  const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1] ?? 15000;
  return Math.round(base * (0.8 + 0.4 * rand()));
}

export interface SocketDeps {
  url: () => string;
  create?: (url: string) => WebSocket;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  onMessage: (data: unknown) => void;
  /** `quiet`: the reconnect of a hand-over the server announced (nothing to tell the player). */
  onOpen?: (reconnected: boolean, quiet: boolean) => void;
  /** Asked when the socket closes: was this close announced (the server drains and no hand
   *  of this player is live)? Then the reconnect is quiet. */
  announced?: () => boolean;
  /** Called for a close the page must not retry (the session is gone: 4401). */
  onRefused?: (code: number) => void;
}

export class Socket {
  readonly status = signal<SocketStatus>({ state: "idle" });
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer: unknown = null;
  private wanted = false;
  private everOpened = false;
  private quiet = false;

  constructor(private readonly deps: SocketDeps) {}

  open(): void {
    this.wanted = true;
    if (this.ws) return;
    this.connect();
  }

  close(): void {
    this.wanted = false;
    this.quiet = false;
    this.cancelTimer();
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000);
    this.status.value = { state: "idle" };
  }

  /** Send a message; false when the socket is not open (the caller may say so). */
  send(message: unknown): boolean {
    if (this.ws?.readyState !== 1) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  get isOpen(): boolean {
    return this.ws?.readyState === 1;
  }

  private connect(): void {
    this.attempt += 1;
    this.status.value = { state: "connecting", attempt: this.attempt, quiet: this.quiet };
    const create = this.deps.create ?? ((url: string) => new WebSocket(url));
    const ws = create(this.deps.url());
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      const reconnected = this.everOpened;
      const quiet = reconnected && this.quiet;
      this.everOpened = true;
      this.attempt = 0;
      this.quiet = false;
      this.status.value = { state: "open", since: Date.now(), reconnected, quiet };
      this.deps.onOpen?.(reconnected, quiet);
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws !== ws) return;
      let data: unknown;
      try {
        data = JSON.parse(String(ev.data));
      } catch {
        console.warn("paiju: a frame that is not JSON", ev.data);
        return;
      }
      this.deps.onMessage(data);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4401 || ev.code === 4403) {
        this.wanted = false;
        this.status.value = { state: "closed", code: ev.code };
        this.deps.onRefused?.(ev.code);
        return;
      }
      if (ev.code === TAKEN_OVER) {
        // another page of this account took the connection over: retrying would take it
        // back, and the two pages would chase each other; the player chooses (open())
        this.wanted = false;
        this.status.value = { state: "closed", code: ev.code };
        return;
      }
      if (!this.wanted) {
        this.status.value = { state: "closed", code: ev.code };
        return;
      }
      // asked once, when the open socket closes: a failed attempt after it keeps the answer
      if (this.attempt === 0) this.quiet = this.deps.announced?.() ?? false;
      if (this.attempt >= QUIET_ATTEMPTS) this.quiet = false;
      this.retry();
    };
  }

  private retry(): void {
    const delay = backoff(this.attempt + 1);
    this.status.value = {
      state: "retrying",
      attempt: this.attempt + 1,
      at: Date.now() + delay,
      delay,
      quiet: this.quiet,
    };
    const setTimer = this.deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.timer = setTimer(() => {
      this.timer = null;
      if (this.wanted && !this.ws) this.connect();
    }, delay);
  }

  private cancelTimer(): void {
    if (this.timer !== null)
      (this.deps.clearTimer ?? ((h) => clearTimeout(h as number)))(this.timer);
    this.timer = null;
  }
}
