import { afterEach, describe, expect, it, vi } from "vitest";

const sent: unknown[] = [];
vi.mock("../src/session", () => ({
  send: (m: unknown) => {
    sent.push(m);
    return true;
  },
}));

const { settlementShown, watchSettlement } = await import("../src/state/reading");
const { chongUnshown, settlement } = await import("../src/state/settlement");

function show(hand: number): void {
  settlement.value = {
    hand,
    stake: 10,
    fee: 10,
    result: {},
    moves: [],
    balance: 100,
    balanceChange: 0,
    readyDeadline: null,
    view: null,
    names: { E: null, S: null, W: null, N: null },
    game: null,
  };
}

afterEach(() => {
  settlement.value = null;
  chongUnshown.value = 0;
  sent.length = 0;
});

describe("settlement_shown", () => {
  it("is said once per hand", () => {
    show(1);
    settlementShown();
    settlementShown();
    expect(sent).toEqual([{ type: "settlement_shown" }]);
  });

  it("waits for the 開沖 draws to be turned up", () => {
    const timers: (() => void)[] = [];
    const stop = watchSettlement((fn) => timers.push(fn));
    show(2);
    chongUnshown.value = 5; // the reveal has begun
    for (const fn of timers) fn();
    expect(sent).toEqual([]);
    chongUnshown.value = 1;
    expect(sent).toEqual([]);
    chongUnshown.value = 0; // every draw shown (or skipped)
    expect(sent).toEqual([{ type: "settlement_shown" }]);
    stop();
  });
});
