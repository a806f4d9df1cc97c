import { afterEach, describe, expect, it, vi } from "vitest";
import { SERVER_TYPES, type ServerMessage, type UnseatedWhy } from "../src/protocol";
import { me, route, toasts, unknownFrames } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { unseatedFrom, unseatedToast, unseatedWhy } from "../src/state/lobby";
import { settlement } from "../src/state/settlement";
import {
  clearTable,
  frame,
  handNames,
  paused,
  pending,
  seated,
  tableState,
} from "../src/state/table";
import { toastText } from "../src/widgets/Chrome";
import { settlementFrame, sitAt } from "./fixtures/frames";
import { actView, claimView, pauseView } from "./fixtures/mazhan";

const seat = { name: "me", bot: false, ready: false, tuoguan: false, connected: true };

function sit(): void {
  sitAt("S");
}

function view(now: number, left = 12): void {
  handle(
    {
      type: "view",
      table: 7,
      hand: 3,
      version: actView.version,
      view: actView,
      events: [],
      clock: { seat: "S", seconds: 15, left },
      stake: 10,
      your_action: null,
    } satisfies ServerMessage,
    now,
  );
}

afterEach(() => {
  clearTable();
  toasts.value = [];
});

describe("the protocol", () => {
  it("handles every server frame type the schema names", () => {
    expect(SERVER_TYPES).toContain("paused");
    expect(SERVER_TYPES).toContain("resumed");
    expect(SERVER_TYPES).not.toContain("left");
  });

  it("logs an unknown frame type, a frame without a type, and goes on", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const before = unknownFrames.value;
    handle({ type: "left" });
    handle({ nope: 1 });
    expect(unknownFrames.value).toBe(before + 2);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});

describe("the clock", () => {
  it("runs from the view frame's clock: whose it is, its length, when it ends", () => {
    sit();
    view(1_000_000);
    expect(frame.value?.clock).toEqual({ seat: "S", seconds: 15, deadline: 1_012_000 });
  });

  it("stops while the table is paused and restarts in full when it resumes", () => {
    sit();
    view(1_000_000);
    handle({ type: "paused", why: "storage" } satisfies ServerMessage, 1_004_000);
    expect(paused.value).toEqual({ at: 1_004_000, left: 8, why: "storage" });
    expect(toasts.value.at(-1)?.key).toEqual({ ui: "paused" });
    handle({ type: "resumed" } satisfies ServerMessage, 1_060_000);
    expect(paused.value).toBeNull();
    expect(frame.value?.clock?.deadline).toBe(1_075_000);
    expect(toasts.value.at(-1)?.key).toEqual({ ui: "resumed" });
  });
});

describe("the table's server out of reach (paused, why: peers)", () => {
  it("stops the clock as a storage pause does, says why, and resumes the same way", () => {
    sit();
    view(1_000_000);
    handle({ type: "paused", why: "peers" } satisfies ServerMessage, 1_003_000);
    expect(paused.value).toEqual({ at: 1_003_000, left: 9, why: "peers" });
    expect(toasts.value.at(-1)?.key).toEqual({ ui: "pausedPeers" });
    // the storage pausing too: the clock stays stopped where it stopped
    handle({ type: "paused", why: "storage" } satisfies ServerMessage, 1_005_000);
    expect(paused.value).toEqual({ at: 1_003_000, left: 9, why: "storage" });
    handle({ type: "resumed" } satisfies ServerMessage, 1_030_000);
    expect(paused.value).toBeNull();
    expect(toasts.value.at(-1)?.key).toEqual({ ui: "resumed" });
    // then a fresh view: its own clock
    view(1_031_000, 15);
    expect(frame.value?.clock?.deadline).toBe(1_046_000);
  });
});

describe("an answer sent", () => {
  it("waits for the next view, whatever its version (the pause's may be the same)", () => {
    sit();
    handle({
      type: "view",
      table: 7,
      hand: 3,
      version: 45,
      view: claimView,
      events: [],
      clock: { seat: null, seconds: 15, left: 15 },
      stake: 10,
      your_action: null,
    });
    pending.value = { version: 45, action: "S pass" };
    handle({
      type: "view",
      table: 7,
      hand: 3,
      version: 45,
      view: pauseView,
      events: [],
      clock: null,
      stake: 10,
      your_action: null,
    });
    expect(pending.value).toBeNull();
    expect(frame.value?.clock).toBeNull();
  });
});

describe("the ready confirmations", () => {
  it("keeps who has confirmed and this player's time to confirm", () => {
    sit();
    handle(
      {
        type: "table",
        table: 7,
        room: "mazhan",
        game: "mazhan",
        live: false,
        hand_no: 2,
        seats: { E: { ...seat, name: "a", ready: true }, S: seat, W: null },
        ready_seconds: 20,
      } satisfies ServerMessage,
      5_000,
    );
    expect(tableState.value?.seats.E?.ready).toBe(true);
    expect(tableState.value?.seats.N).toBeNull();
    expect(tableState.value?.readyDeadline).toBe(25_000);
    expect(tableState.value?.handNo).toBe(2);
  });
});

describe("losing the seat", () => {
  const whys: UnseatedWhy[] = ["escape", "too_few_points", "not_ready", "table_closed", "void"];
  it.each(whys)("says why (%s) and goes back to the lobby", (why) => {
    sit();
    route.value = { name: "table" };
    handle({ type: "unseated", why } satisfies ServerMessage);
    expect(seated.value).toBeNull();
    expect(route.value.name).toBe("lobby");
    if (why === "not_ready") {
      // said by a notice that stays, with a seat at the same kind of table (no toast)
      expect(unseatedWhy.value).toBe("not_ready");
      expect(unseatedFrom.value?.room).toBe("mazhan");
      expect(toasts.value.some((x) => "ui" in x.key && x.key.ui === "unseatedReady")).toBe(false);
    } else expect(toasts.value.at(-1)?.key).toEqual(unseatedToast(why));
  });

  it("gives each reason its own message", () => {
    const keys = whys.map((w) => JSON.stringify(unseatedToast(w)));
    expect(new Set(keys.slice(1)).size).toBe(4);
  });

  it("learns from a new connection's hello that the table is gone", () => {
    sit();
    route.value = { name: "table" };
    handle({ type: "hello", name: "me", balance: 900, seated: true } satisfies ServerMessage);
    expect(seated.value).not.toBeNull(); // still seated: the table's frames follow
    handle({ type: "hello", name: "me", balance: 900, seated: false } satisfies ServerMessage);
    expect(seated.value).toBeNull();
    expect(route.value.name).toBe("lobby");
    expect(toasts.value.at(-1)?.key).toEqual(unseatedToast("table_closed"));
  });

  it("returns to the lobby on the player's own leave", () => {
    sit();
    handle({ type: "unseated", why: "left" } satisfies ServerMessage);
    expect(route.value.name).toBe("lobby");
    expect(seated.value).toBeNull();
  });
});

describe("an escape", () => {
  it("takes the balance the server sends", () => {
    sit();
    handle({
      type: "escape",
      hand: 3,
      seat: "W",
      name: "cy",
      why: "disconnected",
      stake: 10,
      penalty: 4000,
      moves: [{ from: "cy", to: "me", amount: 1000, reason: "escape" }],
      balance: 6000,
    } satisfies ServerMessage);
    expect(me.value?.balance).toBe(6000);
  });
});

describe("errors", () => {
  it("show the code's message and free the buttons", () => {
    handle({
      type: "error",
      code: "stale_version",
      message: "the table is at version 9",
    } satisfies ServerMessage);
    expect(toasts.value.at(-1)?.key).toEqual({ error: "stale_version" });
  });
});

describe("a finished hand's names", () => {
  const a = { ...seat, name: "a" };
  const b = { ...seat, name: "b" };
  const c = { ...seat, name: "c" };
  const d = { ...seat, name: "d" };
  it("follow the seating of the hand, not the next one's", () => {
    // d sat in E for the hand; the deal passed and d sits in N now
    expect(handNames({ E: a, S: b, W: c, N: d }, "E", "N")).toEqual({ E: d, S: a, W: b, N: c });
    expect(handNames({ E: a, S: b, W: c, N: d }, "S", "S")).toEqual({ E: a, S: b, W: c, N: d });
  });

  it("are those of the table when the settlement arrives (before the seating moves on)", () => {
    sit();
    handle({
      type: "table",
      table: 7,
      room: "mazhan",
      game: "mazhan",
      live: true,
      hand_no: 3,
      seats: { E: a, S: { ...seat }, W: c, N: d },
    } satisfies ServerMessage);
    handle(settlementFrame());
    handle({
      type: "table",
      table: 7,
      room: "mazhan",
      game: "mazhan",
      live: false,
      hand_no: 3,
      seats: { E: c, S: d, W: a, N: { ...seat } },
    } satisfies ServerMessage);
    expect(settlement.value?.names.E).toBe(a);
    expect(settlement.value?.names.S?.name).toBe("me");
  });
});

describe("the seating", () => {
  it("follows this player when the deal passes", () => {
    sit();
    handle({
      type: "table",
      table: 7,
      room: "mazhan",
      game: "mazhan",
      live: false,
      hand_no: 1,
      seats: { E: { ...seat, name: "x", bot: true }, S: null, W: null, N: seat },
    } satisfies ServerMessage);
    expect(seated.value?.seat).toBe("N");
  });
});

describe("a lost claim", () => {
  it("is told in a toast naming the claim that won", () => {
    sit();
    handle({
      type: "view",
      table: 7,
      hand: 3,
      version: actView.version,
      view: actView,
      events: [{ kind: "claim_lost", seat: "S", tiles: [], detail: "W peng" }],
      clock: null,
      stake: 10,
      your_action: null,
    } satisfies ServerMessage);
    const last = toasts.value.at(-1);
    expect(last?.key).toEqual({ ui: "claimLost" });
    expect(last?.params).toMatchObject({ seat: "W", winner: "peng" });
    expect(toastText(last as NonNullable<typeof last>)).toBe("你的宣告被西的碰截走");
  });
});
