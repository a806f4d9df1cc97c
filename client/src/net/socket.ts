// The one WebSocket: opened after login, kept across screens and language switches,
// reconnected by itself with exponential backoff (and says so through `status`).
import { signal } from "@preact/signals";

export type SocketStatus =
  | { state: "idle" }
  | { state: "connecting"; attempt: number }
  | { state: "open"; since: number; reconnected: boolean }
  | { state: "retrying"; attempt: number; at: number; delay: number }
  | { state: "closed"; code: number };

/** The close code of a socket another page of the same account took over. */
export const TAKEN_OVER = 4009;

export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

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
  onOpen?: (reconnected: boolean) => void;
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

  constructor(private readonly deps: SocketDeps) {}

  open(): void {
    this.wanted = true;
    if (this.ws) return;
    this.connect();
  }

  close(): void {
    this.wanted = false;
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
    this.status.value = { state: "connecting", attempt: this.attempt };
    const create = this.deps.create ?? ((url: string) => new WebSocket(url));
    const ws = create(this.deps.url());
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.status.value = { state: "open", since: Date.now(), reconnected };
      this.deps.onOpen?.(reconnected);
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
      if (this.wanted) this.retry();
      else this.status.value = { state: "closed", code: ev.code };
    };
  }

  private retry(): void {
    const delay = backoff(this.attempt + 1);
    this.status.value = {
      state: "retrying",
      attempt: this.attempt + 1,
      at: Date.now() + delay,
      delay,
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
