import { describe, expect, it } from "vitest";
import { handPoints, type LedgerEntry } from "../src/net/api";

const entry = (
  id: number,
  amount: number,
  reason: string,
  hand: number | null,
  counterpart?: string,
) =>
  ({
    id,
    amount,
    reason,
    hand,
    balance_after: 10_000 + id,
    at: "2026-12-01T00:00:00",
    counterpart: counterpart ?? null,
  }) satisfies LedgerEntry;

describe("a finished hand's points from the ledger", () => {
  it("splits the fee from the settlement lines, each with its counterpart", () => {
    // newest first, as /api/ledger lists them
    const entries = [
      entry(5, 300, "hand", 8, "bo"),
      entry(4, -640, "hand", 7, "bo"),
      entry(3, -10, "fee", 7),
      entry(2, 50, "hand", 6, "cy"),
      entry(1, 10_000, "issue", null),
    ];
    expect(handPoints(entries, 7, "amy")).toEqual({
      fee: 10,
      moves: [{ from: "amy", to: "bo", amount: 640, reason: "hand" }],
      change: -650,
      balance: 10_004,
    });
    expect(handPoints(entries, 8, "amy").moves).toEqual([
      { from: "bo", to: "amy", amount: 300, reason: "hand" },
    ]);
  });
});
