import { describe, expect, it } from "vitest";
import { setLang } from "../src/i18n";
import { groupLedger } from "../src/model/ledger";
import type { LedgerEntry } from "../src/net/api";
import { playing } from "../src/screens/Lobby";

const entry = (
  id: number,
  amount: number,
  after: number,
  reason: string,
  hand: number | null,
  counterpart: string,
): LedgerEntry => ({
  id,
  amount,
  balance_after: after,
  reason,
  hand,
  at: "2026-12-03T13:10:00",
  counterpart,
});

describe("the ledger as the lobby shows it", () => {
  it("sums a hand's movements of one reason into one line, its net", () => {
    // newest first: an escape's four quarters, then the fee; the hand before settled
    const rows = groupLedger([
      entry(9, -500, 5785, "escape", 4, "house"),
      entry(8, -500, 6285, "escape", 4, "house"),
      entry(7, -500, 6785, "escape", 4, "ana"),
      entry(6, -500, 7285, "escape", 4, "house"),
      entry(5, -5, 7785, "fee", 4, "house"),
      entry(4, 170, 7790, "hand", 3, "house"),
      entry(3, -10, 7620, "hand", 3, "bo"),
      entry(2, 10, 7630, "hand", 3, "house"),
      entry(1, 10_000, 10_000, "issue", null, ""),
    ]);
    expect(rows.map((r) => [r.reason, r.amount, r.balance_after, r.counterparts])).toEqual([
      ["escape", -2000, 5785, ["house", "ana"]],
      ["fee", -5, 7785, ["house"]],
      ["hand", 170, 7790, ["house", "bo"]],
      ["issue", 10_000, 10_000, []],
    ]);
    // nothing is lost: the sums are the same
    expect(rows.reduce((a, r) => a + r.amount, 0)).toBe(10_000 - 2000 - 5 + 170);
  });
});

describe("times in the lobby's tables", () => {
  it("leave out this year, keep another's", async () => {
    const { shortTime } = await import("../src/screens/Lobby");
    expect(shortTime("2026-12-03T13:10:42.5", 2026)).toBe("12-03 13:10");
    expect(shortTime("2025-12-31T23:59:00", 2026)).toBe("2025-12-31 23:59");
  });
});

describe("a hand's movements in points", () => {
  it("are one line per payer and payee, the house once for all its bots", async () => {
    const { mergeMoves } = await import("../src/model/ledger");
    const moves = mergeMoves([
      { from: "house", to: "ana", amount: 170, reason: "hand" },
      { from: "ana", to: "bo", amount: 20, reason: "hand" },
      { from: "house", to: "ana", amount: 10, reason: "hand" },
      { from: "house", to: "ana", amount: 10, reason: "hand" },
    ]);
    expect(moves).toEqual([
      { from: "house", to: "ana", amount: 190, reason: "hand" },
      { from: "ana", to: "bo", amount: 20, reason: "hand" },
    ]);
  });
});

describe("this player's points by the other side", () => {
  it("nets what went each way with one counterpart", async () => {
    const { netByOther } = await import("../src/model/ledger");
    const lines = netByOther(
      [
        { from: "ana", to: "house", amount: 600, reason: "hand" },
        { from: "house", to: "ana", amount: 2000, reason: "hand" },
        { from: "bo", to: "ana", amount: 30, reason: "hand" },
        { from: "bo", to: "house", amount: 99, reason: "hand" },
      ],
      "ana",
    );
    expect([...lines]).toEqual([
      ["house", 1400],
      ["bo", 30],
    ]);
  });
});

describe("who plays in a room", () => {
  it("is said in words, not as 'Players 0 · 0 tables'", () => {
    setLang("en");
    expect(playing(0, 0)).toBe("nobody is playing now");
    expect(playing(3, 1)).toBe("3 playing at 1 table");
    expect(playing(8, 2)).toBe("8 playing at 2 tables");
    setLang("zh");
    expect(playing(0, 0)).toBe("目前無人對局");
    expect(playing(3, 1)).toBe("3 人在 1 桌對局");
  });
});
