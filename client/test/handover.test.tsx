// A drain between hands is a hand-over the server announced: the page reconnects without a
// banner or a "reconnected" toast. A hand still live at the drain's bound, an unannounced drop,
// or a hand-over that keeps failing are shown as reconnects.
import { render } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { QUIET_ATTEMPTS, Socket } from "../src/net/socket";
import { closeAnnounced, socket } from "../src/session";
import { draining, toasts } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { clearTable, frame } from "../src/state/table";
import { ConnectionBanner } from "../src/widgets/Chrome";
import { actView, overView } from "./fixtures/mazhan";

class FakeWS {
  static made: FakeWS[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeWS.made.push(this);
  }
  send() {}
  close() {}
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop(code = 1012) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

function fakeSocket(announced: () => boolean) {
  FakeWS.made = [];
  const timers: (() => void)[] = [];
  const opens: [boolean, boolean][] = [];
  const s = new Socket({
    url: () => "ws://x/ws",
    create: (u) => new FakeWS(u) as unknown as WebSocket,
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => {},
    onMessage: () => {},
    onOpen: (reconnected, quiet) => opens.push([reconnected, quiet]),
    announced,
  });
  s.open();
  FakeWS.made[0]?.open();
  return { s, timers, opens };
}

function shown(view: typeof actView): void {
  frame.value = {
    table: 1,
    hand: 1,
    version: view.version,
    view,
    events: [],
    clock: null,
    stake: 10,
    receivedAt: 0,
    timeouts: 0,
  };
}

afterEach(() => {
  draining.value = false;
  clearTable();
});

describe("a hand-over the server announced", () => {
  it("reconnects quietly when the close was announced", () => {
    const { s, timers, opens } = fakeSocket(() => true);
    FakeWS.made[0]?.drop();
    expect(s.status.value).toMatchObject({ state: "retrying", attempt: 1, quiet: true });
    timers.shift()?.();
    expect(s.status.value).toMatchObject({ state: "connecting", quiet: true });
    FakeWS.made[1]?.open();
    expect(s.status.value).toMatchObject({ state: "open", reconnected: true, quiet: true });
    expect(opens).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it("shows an unannounced drop as a reconnect", () => {
    const { s, timers, opens } = fakeSocket(() => false);
    FakeWS.made[0]?.drop(1006);
    expect(s.status.value).toMatchObject({ state: "retrying", quiet: false });
    timers.shift()?.();
    FakeWS.made[1]?.open();
    expect(opens.at(-1)).toEqual([true, false]);
  });

  it(`turns loud after ${QUIET_ATTEMPTS} failed attempts`, () => {
    const { s, timers } = fakeSocket(() => true);
    FakeWS.made[0]?.drop();
    for (let i = 1; i <= QUIET_ATTEMPTS; i += 1) {
      expect(s.status.value).toMatchObject({ state: "retrying", quiet: true });
      timers.shift()?.();
      FakeWS.made[i]?.drop(1006);
    }
    expect(s.status.value).toMatchObject({ state: "retrying", quiet: false });
    timers.shift()?.();
    FakeWS.made.at(-1)?.open();
    expect(s.status.value).toMatchObject({ state: "open", quiet: false });
  });

  it("is announced by a draining frame once the player's hand is over", () => {
    expect(closeAnnounced()).toBe(false);
    shown(actView);
    handle({ type: "draining", seconds: 60 });
    expect(draining.value).toBe(true);
    expect(closeAnnounced()).toBe(false); // a hand live at the bound: a real reconnect
    shown(overView);
    expect(closeAnnounced()).toBe(true);
  });

  it("shows no banner while quiet, and the usual one otherwise", () => {
    const before = socket.status.value;
    try {
      socket.status.value = {
        state: "retrying",
        attempt: 1,
        at: Date.now(),
        delay: 500,
        quiet: true,
      };
      const quiet = render(<ConnectionBanner />);
      expect(quiet.container.querySelector("[data-connection]")).toBeNull();
      quiet.unmount();
      socket.status.value = {
        state: "retrying",
        attempt: 1,
        at: Date.now(),
        delay: 500,
        quiet: false,
      };
      const loud = render(<ConnectionBanner />);
      expect(loud.container.querySelector("[data-connection='retrying']")).not.toBeNull();
      loud.unmount();
    } finally {
      socket.status.value = before;
    }
    expect(toasts.value.some((x) => "ui" in x.key && x.key.ui === "reconnected")).toBe(false);
  });
});
