import { afterEach, describe, expect, it, vi } from "vitest";

const sent: unknown[] = [];
vi.mock("../src/session", () => ({
  send: (m: unknown) => {
    sent.push(m);
    return true;
  },
}));

const { settlementShown } = await import("../src/state/reading");
const { chongUnshown, settlement, settlementStage, shownHand } = await import(
  "../src/state/settlement"
);

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

  it("marks the settlement shown (the table's presentation calls it when its reveal is done)", () => {
    show(2);
    settlementStage.value = "reveal";
    settlementShown();
    expect(shownHand.value).toBe(2);
    expect(settlementStage.value).toBe("shown");
    expect(sent).toEqual([{ type: "settlement_shown" }]);
  });
});
