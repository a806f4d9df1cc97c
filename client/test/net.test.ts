import { describe, expect, it, vi } from "vitest";
import { BACKOFF_MS, backoff, Socket } from "../src/net/socket";
import type { GameEvent, ServerMessage } from "../src/protocol";
import { me, toasts, unknownFrames } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { escaped, settlement } from "../src/state/settlement";
import { frame, moveLog } from "../src/state/table";
import { overView } from "./fixtures/mazhan";

class FakeWS {
  static made: FakeWS[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeWS.made.push(this);
  }
  send(x: string) {
    this.sent.push(x);
  }
  close() {}
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

function socket() {
  FakeWS.made = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const messages: unknown[] = [];
  const s = new Socket({
    url: () => "ws://x/ws",
    create: (u) => new FakeWS(u) as unknown as WebSocket,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => {},
    onMessage: (m) => messages.push(m),
  });
  return { s, timers, messages };
}

describe("the socket", () => {
  it("backs off exponentially, with jitter, up to 15 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoff(n, () => 0.5))).toEqual([
      ...BACKOFF_MS,
      15000,
      15000,
    ]);
    expect(backoff(1, () => 0)).toBe(400);
    expect(backoff(1, () => 1)).toBe(600);
  });

  it("reconnects by itself after a drop and says so", () => {
    const { s, timers } = socket();
    s.open();
    FakeWS.made[0]?.open();
    expect(s.status.value.state).toBe("open");
    FakeWS.made[0]?.drop();
    expect(s.status.value).toMatchObject({ state: "retrying", attempt: 1 });
    timers.shift()?.fn();
    expect(FakeWS.made).toHaveLength(2);
    FakeWS.made[1]?.drop();
    expect(s.status.value).toMatchObject({ state: "retrying", attempt: 2 });
    timers.shift()?.fn();
    FakeWS.made[2]?.open();
    expect(s.status.value).toMatchObject({ state: "open", reconnected: true });
  });

  it("does not retry a refused session (4401)", () => {
    const { s, timers } = socket();
    s.open();
    FakeWS.made[0]?.open();
    FakeWS.made[0]?.drop(4401);
    expect(s.status.value).toMatchObject({ state: "closed", code: 4401 });
    expect(timers).toHaveLength(0);
  });

  it("does not fight another page of the account that took the socket over (4009)", () => {
    const { s, timers } = socket();
    s.open();
    FakeWS.made[0]?.open();
    FakeWS.made[0]?.drop(4009);
    expect(s.status.value).toMatchObject({ state: "closed", code: 4009 });
    expect(timers).toHaveLength(0);
    s.open(); // the player's choice: play here
    expect(FakeWS.made).toHaveLength(2);
  });

  it("passes frames on and skips what is not JSON", () => {
    const { s, messages } = socket();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    s.open();
    FakeWS.made[0]?.open();
    FakeWS.made[0]?.onmessage?.({ data: "{nope" });
    FakeWS.made[0]?.onmessage?.({ data: '{"type":"pong"}' });
    expect(messages).toEqual([{ type: "pong" }]);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe("frames", () => {
  it("logs a frame it does not know and goes on", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const before = unknownFrames.value;
    expect(() => handle({ type: "brand_new_thing", x: 1 })).not.toThrow();
    expect(() => handle("garbage")).not.toThrow();
    expect(unknownFrames.value).toBe(before + 2);
    warn.mockRestore();
  });

  it("keeps the settlement until the player moves on; an escape clears the board", () => {
    handle({
      type: "view",
      table: 1,
      hand: 3,
      version: 90,
      view: overView,
      events: [],
      clock: null,
      stake: 10,
      your_action: null,
    } satisfies ServerMessage);
    handle({
      type: "settlement",
      hand: 3,
      stake: 10,
      result: {},
      moves: [],
      fee: 10,
      balance: 100,
      balance_change: -10,
      ready_seconds: 30,
      reading_seconds: 30,
    } satisfies ServerMessage);
    expect(settlement.value?.view).toBe(overView);
    handle({
      type: "table",
      table: 1,
      room: "mazhan",
      game: "mazhan",
      live: false,
      hand_no: 3,
      seats: { E: null, S: null, W: null, N: null },
    } satisfies ServerMessage);
    expect(settlement.value).not.toBeNull();
    handle({
      type: "escape",
      hand: 4,
      seat: "W",
      why: "left",
      stake: 10,
      name: "cy",
      penalty: 4000,
      moves: [],
    } satisfies ServerMessage);
    expect(frame.value).toBeNull();
    expect(escaped.value).toMatchObject({ seat: "W", penalty: 4000 });
  });

  it("rebuilds the move log from a connection's first view, with no old news toasted", () => {
    const view = (events: GameEvent[], catchUp: boolean, version: number) =>
      handle({
        type: "view",
        table: 1,
        hand: 8,
        version,
        view: overView,
        events,
        clock: null,
        stake: 10,
        your_action: null,
        catch_up: catchUp,
      } satisfies ServerMessage);
    const discard = (seat: "E" | "S", tile: string): GameEvent => ({
      kind: "discard",
      seat,
      tiles: [tile],
      detail: "",
    });
    view([discard("E", "1m")], false, 1);
    view([discard("S", "2m")], false, 2);
    expect(moveLog.value.map((e) => e.tiles[0])).toEqual(["1m", "2m"]);
    // a reconnect: the server sends the hand so far; the log is that, not twice that
    const before = toasts.value.length;
    view(
      [
        discard("E", "1m"),
        discard("S", "2m"),
        { kind: "claim_lost", seat: null, tiles: [], detail: "W peng" },
        discard("E", "3m"),
      ],
      true,
      4,
    );
    expect(moveLog.value.map((e) => e.kind)).toEqual([
      "discard",
      "discard",
      "claim_lost",
      "discard",
    ]);
    expect(toasts.value.length).toBe(before);
    view([discard("S", "4m")], false, 5);
    expect(moveLog.value.length).toBe(5);
  });

  it("takes the table fee from the balance once, however often the hand starts again", () => {
    me.value = { name: "cy", balance: 10_170 }; // a reload: the server's balance, fee taken
    const start = {
      type: "hand_start",
      hand: 12,
      stake: 10,
      fee: 10,
      seat: "E",
      room: "madiao",
      game: "madiao",
      dealer: "E",
      balance: 10_170,
    } satisfies ServerMessage;
    handle(start);
    handle(start); // a reconnect sends it again
    expect(me.value?.balance).toBe(10_170);
    // an older server without the balance: the fee is taken for a new hand only
    const { balance: _, ...old } = start;
    handle({ ...old, hand: 13 });
    handle({ ...old, hand: 13 });
    expect(me.value?.balance).toBe(10_160);
  });
});
