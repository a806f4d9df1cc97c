import { act, fireEvent, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLang } from "../src/i18n";
import type { SeatInfo, ServerMessage } from "../src/protocol";
import { hashToRoute } from "../src/routes";
import { TableScreen } from "../src/screens/TableScreen";
import { inviteLink, joinPrivate, normaliseCode, socket } from "../src/session";
import { toasts } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { inviteCode, joining } from "../src/state/lobby";
import { clearTable, peopleChange, readySent } from "../src/state/table";
import { seatName } from "../src/widgets/SeatBadge";
import { person, settlementFrame, sitAt, tableFrame, viewFrame } from "./fixtures/frames";
import { actView, claimView, overView, pauseView } from "./fixtures/mazhan";

function sitDown(now: number): void {
  sitAt("S");
  handle(
    tableFrame(
      { E: person("a", true), S: person("me"), W: person("c", true), N: null },
      { ready_seconds: 20 },
    ),
    now,
  );
}

afterEach(() => {
  act(() => {
    clearTable();
    toasts.value = [];
  });
});

describe("the table screen", () => {
  it("opens the guide over the table between hands, with the time left to confirm", () => {
    act(() => sitDown(Date.now()));
    const { container } = render(<TableScreen />);
    act(() => {
      fireEvent.click(container.querySelector("#to-rules-table") as HTMLButtonElement);
    });
    const over = container.querySelector(".howto-over") as HTMLElement;
    expect(over.getAttribute("role")).toBe("dialog");
    expect(over.querySelector("[data-ready-left]")?.textContent).toMatch(/請在 (19|20) 秒內準備/);
    expect(container.querySelector("#ready")).not.toBeNull(); // the table is still there
    act(() => {
      fireEvent.click(over.querySelector('.howto-tab[data-game="madiao"]') as HTMLElement);
    });
    expect(container.querySelector(".howto-over")?.getAttribute("data-game")).toBe("madiao");
    expect(location.hash).not.toContain("rules"); // the tabs switch in place
    act(() => {
      readySent.value = true;
    });
    expect(container.querySelector("[data-ready-left]")).toBeNull();
    act(() => {
      fireEvent.click(container.querySelector("[data-action=close-rules]") as HTMLButtonElement);
    });
    expect(container.querySelector(".howto-over")).toBeNull();
  });

  it("closes the guide when a hand goes live", () => {
    act(() => sitDown(Date.now()));
    const { container } = render(<TableScreen />);
    act(() => {
      fireEvent.click(container.querySelector("#to-rules-table") as HTMLButtonElement);
    });
    expect(container.querySelector(".howto-over")).not.toBeNull();
    act(() => {
      handle(viewFrame(actView));
    });
    expect(container.querySelector(".howto-over")).toBeNull();
    expect(container.querySelector("#to-rules-table")).toBeNull();
  });

  it("shows who has confirmed the next hand and the time to confirm", () => {
    act(() => sitDown(Date.now()));
    const { container } = render(<TableScreen />);
    const box = container.querySelector(".confirmations") as HTMLElement;
    expect(box.getAttribute("data-confirmed")).toBe("2");
    expect(box.querySelector('[data-seat="E"]')?.getAttribute("data-ready")).toBe("true");
    expect(box.querySelector('[data-seat="S"]')?.getAttribute("data-ready")).toBe("false");
    expect(box.textContent).toContain("2/4");
    expect(box.textContent).toMatch(/請在 (19|20) 秒內準備/);
    expect(container.querySelector("#ready")).not.toBeNull();
  });

  it("shows a pause and stops the clock; the clock restarts in full on resume", () => {
    const now = Date.now();
    act(() => {
      sitDown(now);
      handle(
        {
          type: "view",
          table: 7,
          hand: 1,
          version: actView.version,
          view: actView,
          events: [],
          clock: { seat: "S", seconds: 30, left: 12 },
          stake: 10,
          your_action: null,
        } satisfies ServerMessage,
        now,
      );
    });
    const { container } = render(<TableScreen />);
    const mine = () => container.querySelector(".my-area .clock-seconds") as HTMLElement;
    expect(mine().getAttribute("data-seconds")).toBe("12");
    act(() => handle({ type: "paused", why: "storage" } satisfies ServerMessage, now + 5000));
    expect(container.querySelector("[data-paused]")).not.toBeNull();
    expect(container.querySelector(".clock.stopped")).not.toBeNull();
    expect(mine().getAttribute("data-seconds")).toBe("7");
    act(() => handle({ type: "resumed" } satisfies ServerMessage, Date.now()));
    expect(container.querySelector("[data-paused]")).toBeNull();
    expect(mine().getAttribute("data-seconds")).toBe("30");
  });
});

describe("a bot's name", () => {
  it("drops the level the server appends; the tag says it in the current language", () => {
    const bot = { name: "夏雨（高級）", bot: true, level: "hard" as const, ready: true };
    expect(seatName({ ...bot, tuoguan: false, connected: true })).toBe("夏雨");
    expect(
      seatName({ ...bot, name: "a（高級）", bot: false, tuoguan: false, connected: true }),
    ).toBe("a（高級）");
  });

  it("is romanised first on an English page (Xiayu 夏雨); a player's name is never changed", () => {
    const bot = { name: "夏雨（高級）", bot: true, level: "hard" as const, ready: true };
    const seat = { ...bot, tuoguan: false, connected: true };
    expect(seatName(seat, "en")).toBe("Xiayu 夏雨");
    expect(seatName(seat, "zh")).toBe("夏雨");
    expect(seatName({ ...seat, name: "夏雨", bot: false }, "en")).toBe("夏雨");
  });
});

describe("a table for friends", () => {
  it("shows its code and link, and a button that fills the empty seats with bots", () => {
    act(() => {
      sitDown(Date.now());
      handle(
        tableFrame(
          { E: person("me"), S: null, W: null, N: null },
          { ready_seconds: null, code: "ABC234" },
        ),
      );
    });
    const { container } = render(<TableScreen />);
    const panel = container.querySelector(".friends-panel") as HTMLElement;
    expect(panel.getAttribute("data-code")).toBe("ABC234");
    expect(panel.querySelector(".code")?.textContent).toBe("ABC234");
    const link = panel.querySelector(".invite-link") as HTMLInputElement;
    expect(link.value).toMatch(/\/#\/join\/ABC234$/);
    expect(panel.querySelector('[data-action="fill"]')).not.toBeNull();
    expect(container.textContent).toContain("等待好友入座");
  });

  it("shows no code at a public table", () => {
    act(() => sitDown(Date.now()));
    const { container } = render(<TableScreen />);
    expect(container.querySelector(".friends-panel")).toBeNull();
  });
});

describe("a table code as typed", () => {
  it("is eight letters and digits, any case, spaces and dashes ignored", () => {
    expect(normaliseCode("abcd2345")).toBe("ABCD2345");
    expect(normaliseCode(" ABCD-2345 ")).toBe("ABCD2345");
    expect(normaliseCode("ABCD234")).toBeNull();
    expect(normaliseCode("ABCD23456")).toBeNull();
    expect(normaliseCode("ABCD234!")).toBeNull();
  });

  it("comes from an invite link: the lobby offers it", () => {
    expect(inviteLink("ABCD2345", "https://paiju.example")).toBe(
      "https://paiju.example/#/join/ABCD2345",
    );
    expect(hashToRoute("#/join/abcd2345")).toEqual({ name: "lobby" });
    expect(inviteCode.value).toBe("ABCD2345");
    // a link cut short: the lobby, no table offered (not the last one), and why
    expect(hashToRoute("#/join/zz!!")).toEqual({ name: "lobby" });
    expect(inviteCode.value).toBeNull();
    expect(toasts.value.at(-1)?.key).toEqual({ error: "bad_invite" });
  });
});

describe("who comes and goes at a table for friends", () => {
  it("names the people who sat down or left, not the bots and not this player", () => {
    const bot = { ...person("春風"), bot: true };
    const before = { E: person("me"), S: person("ana"), W: null, N: null };
    const after = { E: person("me"), S: null, W: person("bo"), N: bot };
    expect(peopleChange(before, after, "me")).toEqual([
      { key: { ui: "friendJoined" }, params: { name: "bo" } },
      { key: { ui: "friendLeft" }, params: { name: "ana" } },
    ]);
  });

  it("does not say that one who escaped left: the escape notice has said it", () => {
    const code = { code: "ABCD2345" };
    act(() => {
      sitDown(Date.now());
      handle(tableFrame({ E: person("a"), S: person("me"), W: person("c"), N: null }, code));
      handle({
        type: "escape",
        hand: 1,
        seat: "E",
        name: "a",
        why: "left",
        stake: 10,
        penalty: 4000,
        moves: [],
      } satisfies ServerMessage);
      handle(tableFrame({ E: null, S: person("me"), W: null, N: null }, code));
    });
    const said = toasts.value.map((x) => x.params?.name);
    expect(said).toContain("c"); // left between hands: said
    expect(said).not.toContain("a"); // escaped: the notice, not a toast
  });
});

describe("the ready clock for a new player", () => {
  afterEach(() => vi.restoreAllMocks());

  it("counts down on the table bar's Ready while the clock runs, not while it stands", () => {
    act(() => sitDown(Date.now()));
    const { container } = render(<TableScreen />);
    expect(container.querySelector("#ready")?.textContent).toMatch(/準備（(19|20) 秒）/);
    act(() => {
      handle(tableFrame({ E: person("a", true), S: person("me"), W: null, N: null }));
    });
    expect(container.querySelector("#ready")?.textContent).toBe("準備");
  });

  it("keeps Ready's place once pressed, so a second tap cannot land on Leave", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => sitDown(Date.now()));
    const { container } = render(<TableScreen />);
    const bar = container.querySelector(".table-bar") as HTMLElement;
    const order = () =>
      [...bar.querySelectorAll("button")].map((b) => b.getAttribute("data-action"));
    const before = order();
    act(() => {
      fireEvent.click(container.querySelector("#ready") as HTMLButtonElement);
    });
    expect(sent).toHaveBeenCalledWith({ type: "ready" });
    // the same buttons in the same places: Ready's is now a disabled "Ready ✓"
    expect(order()).toEqual(before.map((a) => (a === "ready" ? "ready-sent" : a)));
    const done = container.querySelector("[data-action=ready-sent]") as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    expect(done.textContent).toBe("已準備 ✓");
    act(() => {
      fireEvent.click(done);
    });
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it("sends one join for a double click, and another once the first is answered", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    joinPrivate("mazhan");
    joinPrivate("mazhan");
    expect(sent).toHaveBeenCalledTimes(1);
    expect(joining.value).toBe(true);
    act(() => {
      handle({ type: "error", code: "too_few_points", message: "no" });
    });
    expect(joining.value).toBe(false);
    joinPrivate("mazhan");
    expect(sent).toHaveBeenCalledTimes(2);
    act(() => sitDown(Date.now()));
    expect(joining.value).toBe(false);
  });

  it("never leaves the lobby locked: a join answered by an unseat, or not at all", () => {
    vi.useFakeTimers();
    try {
      const sent = vi.spyOn(socket, "send").mockReturnValue(true);
      joinPrivate("mazhan");
      act(() => {
        handle({ type: "unseated", why: "too_few_points" });
      });
      expect(joining.value).toBe(false);
      joinPrivate("mazhan");
      expect(joining.value).toBe(true);
      vi.advanceTimersByTime(10_000); // no answer at all: the buttons come back
      expect(joining.value).toBe(false);
      joinPrivate("mazhan");
      expect(sent).toHaveBeenCalledTimes(3);
      joining.value = false;
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends a leave as an escape only from the confirmation of leaving a live hand", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => {
      sitDown(Date.now());
      handle(viewFrame(actView));
    });
    const { container } = render(<TableScreen />);
    act(() => {
      fireEvent.click(container.querySelector("#leave") as HTMLButtonElement);
    });
    expect(sent).not.toHaveBeenCalledWith(expect.objectContaining({ type: "leave" }));
    const confirm = [...container.querySelectorAll("button")].find(
      (b) => b.textContent === "確定離開",
    );
    expect(confirm).toBeDefined();
    act(() => {
      fireEvent.click(confirm as HTMLButtonElement);
    });
    expect(sent).toHaveBeenCalledWith({ type: "leave", escape: true });
  });

  it("puts a Ready button in the guide's note; the guide stays open, Escape closes it", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => sitDown(Date.now()));
    const { container } = render(<TableScreen />);
    act(() => {
      fireEvent.click(container.querySelector("#to-rules-table") as HTMLButtonElement);
    });
    const button = container.querySelector("[data-action=ready-guide]") as HTMLButtonElement;
    expect(button.textContent).toMatch(/準備（(19|20) 秒）/);
    act(() => {
      fireEvent.click(button);
    });
    expect(sent).toHaveBeenCalledWith({ type: "ready" });
    expect(readySent.value).toBe(true);
    expect(container.querySelector(".howto-over [data-ready-sent]")).not.toBeNull();
    act(() => {
      fireEvent.keyDown(document, { key: "Escape" });
    });
    expect(container.querySelector(".howto-over")).toBeNull();
  });

  it("counts down on the settlement's Ready button", () => {
    act(() => {
      sitDown(Date.now());
      handle(viewFrame(overView));
      handle(settlementFrame());
    });
    const { container } = render(<TableScreen />);
    const button = container.querySelector(".settlement-panel [data-action=ready]") as HTMLElement;
    expect(button.textContent).toMatch(/準備下一局（(19|20) 秒）/);
  });

  it("shows no countdown while the table's clock stands (a seat is empty after the hand)", () => {
    act(() => {
      sitDown(Date.now());
      handle(viewFrame(overView));
      handle(settlementFrame()); // says 20 s, but the table that follows has a seat empty
      handle(tableFrame({ E: person("a", true), S: person("me"), W: null, N: null }));
    });
    const { container } = render(<TableScreen />);
    const button = container.querySelector(".settlement-panel [data-action=ready]") as HTMLElement;
    expect(button.textContent).not.toMatch(/秒/);
    expect(button.getAttribute("data-ready-left")).toBeNull();
  });

  it("keeps a notice after an unseat for not confirming, and offers the same table", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    const bot = (name: string): SeatInfo => ({ ...person(name, true), bot: true, level: "hard" });
    act(() => {
      sitAt("S");
      handle(tableFrame({ E: bot("a"), S: person("me"), W: bot("c"), N: bot("d") }));
      handle(viewFrame(overView));
      handle(settlementFrame());
      handle({ type: "unseated", why: "not_ready" } satisfies ServerMessage);
    });
    const { container } = render(<TableScreen />);
    const notice = container.querySelector("[data-unseated=not_ready]") as HTMLElement;
    expect(notice.textContent).toContain("不扣任何積分");
    // the settlement stays, without the list of who confirmed the next hand
    expect(container.querySelector(".settlement-panel")).not.toBeNull();
    expect(container.querySelector(".confirmations")).toBeNull();
    // nor its bar: no Leave for a seat no longer held, no Ready (the notice leads on)
    expect(container.querySelector(".settlement-panel .sticky-actions")).toBeNull();
    expect(toasts.value).toEqual([]);
    const again = notice.querySelector("[data-action=sit-again]") as HTMLElement;
    expect(again.getAttribute("data-alone")).toBe("true");
    act(() => {
      fireEvent.click(again);
    });
    expect(sent).toHaveBeenCalledWith({ type: "join", room: "mazhan", alone: true, level: "hard" });
    expect(container.querySelector(".settlement-panel")).toBeNull();
  });

  it("sends a player unseated at a table for friends back to it by its code", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => {
      sitAt("S");
      handle(
        tableFrame(
          { E: person("host", true), S: person("me"), W: null, N: null },
          { code: "ABCD2345" },
        ),
      );
      handle({ type: "unseated", why: "not_ready" } satisfies ServerMessage);
    });
    const { container } = render(<TableScreen />);
    const again = container.querySelector("[data-action=sit-again]") as HTMLElement;
    expect(again.textContent).toContain("ABCD2345");
    act(() => {
      fireEvent.click(again);
    });
    expect(sent).toHaveBeenCalledWith({ type: "join", code: "ABCD2345" });
  });
});

describe("the turn clock", () => {
  it("shows a countdown bar when it is your turn to discard", () => {
    const discards = { ...actView, legal: actView.legal.filter((a) => a.kind === "discard") };
    act(() => {
      sitDown(Date.now());
      handle(viewFrame(discards));
    });
    const { container } = render(<TableScreen />);
    const bar = container.querySelector("[data-turn-clock] .countdown") as HTMLElement;
    expect(bar.getAttribute("data-seconds")).toBe("12");
  });

  it("leaves a claim prompt's clock to the prompt", () => {
    act(() => {
      sitDown(Date.now());
      handle(viewFrame(claimView, { clock: { seat: null, seconds: 8, left: 6 } }));
    });
    const { container } = render(<TableScreen />);
    expect(container.querySelector("[data-turn-clock]")).toBeNull();
    expect(container.querySelectorAll(".countdown").length).toBe(1);
  });
});

describe("the pause after a discard, at the table", () => {
  afterEach(() => vi.restoreAllMocks());

  /** Alone with bots (a hint is offered), South facing East's discard of 5m. */
  function facingAClaim(): void {
    sitAt("S");
    const bot = (name: string) => ({ ...person(name, true), bot: true });
    handle(tableFrame({ E: bot("a"), S: person("me", true), W: bot("c"), N: bot("d") }));
    handle(viewFrame(claimView, { clock: { seat: null, seconds: 15, left: 15 } }));
  }

  it("takes the prompt, its clock and the hint away with the answer, until the next view", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => facingAClaim());
    const { container } = render(<TableScreen />);
    expect(container.querySelector(".dock .prompt.claim .countdown")).not.toBeNull();
    expect(container.querySelector("#hint")).not.toBeNull();
    act(() => {
      fireEvent.click(container.querySelector("[data-action='S pass']") as HTMLButtonElement);
    });
    expect(sent).toHaveBeenCalledWith({ type: "action", action: "S pass", version: 45 });
    const table = () => container.querySelector(".table") as HTMLElement;
    expect(table().dataset.settling).toBe("true");
    expect(container.querySelector(".prompt, .countdown, #hint, .hint-said")).toBeNull();
    // the pause's view (here with the same version): the same settling, and the answer done
    act(() => handle(viewFrame(pauseView, { clock: null })));
    expect(table().dataset.settling).toBe("true");
    expect(container.querySelector(".prompt, .countdown, .clock-seconds")).toBeNull();
    // the next draw, still at that version: a view all the same, the hand goes on
    const next = { ...actView, version: 45, my_turn: false, turn: "W" as const, legal: [] };
    act(() => handle(viewFrame(next, { clock: { seat: "W", seconds: 15, left: 15 } })));
    expect(table().hasAttribute("data-settling")).toBe(false);
    expect(container.querySelector('.seat-badge.active[data-seat="W"]')).not.toBeNull();
  });

  it("shows a seat that cannot claim no clock, no turn and no prompt", () => {
    act(() => {
      facingAClaim();
      handle(viewFrame(pauseView, { clock: null }));
    });
    const { container } = render(<TableScreen />);
    expect(container.querySelector(".table")?.getAttribute("data-settling")).toBe("true");
    expect(container.querySelector(".prompt, .countdown, .clock-seconds, #hint")).toBeNull();
    expect(container.querySelector(".seat-badge.active")).toBeNull();
    expect(container.querySelector('.pond[data-seat="E"] .tile.last')).not.toBeNull();
  });
});

describe("the table's server out of reach", () => {
  afterEach(() => act(() => setLang("zh")));

  it("says so in a banner of its own, in both languages, and stops the clock", () => {
    const now = Date.now();
    act(() => {
      sitDown(now);
      handle(viewFrame(actView), now);
    });
    const { container } = render(<TableScreen />);
    act(() => handle({ type: "paused", why: "peers" } satisfies ServerMessage, now + 3000));
    const banner = () => container.querySelector(".banner[data-paused]") as HTMLElement | null;
    expect(banner()?.getAttribute("data-paused")).toBe("peers");
    expect(banner()?.textContent).toBe("暫停中：與牌桌伺服器暫時失去聯繫，牌局等你回來，不計時");
    expect(container.querySelector(".clock.stopped .clock-seconds")?.textContent).toBe("9");
    act(() => setLang("en"));
    expect(banner()?.textContent).toBe(
      "Paused: lost touch with your table's server; the hand waits for you and no clock runs",
    );
    act(() => handle({ type: "resumed" } satisfies ServerMessage, now + 20_000));
    expect(banner()).toBeNull();
    // the storage's pause keeps its own words
    act(() => handle({ type: "paused", why: "storage" } satisfies ServerMessage, now + 21_000));
    expect(banner()?.getAttribute("data-paused")).toBe("storage");
    expect(banner()?.textContent).toBe(
      "Paused: the clocks are stopped until the server's storage is back",
    );
    act(() => handle({ type: "resumed" } satisfies ServerMessage, now + 22_000));
    expect(banner()).toBeNull();
  });
});

describe("托管 after a reconnection", () => {
  it("shows what the table frame says of this player's seat", () => {
    const seats = (on: boolean) => ({
      E: { ...person("a", true), bot: true },
      S: { ...person("me", true), tuoguan: on },
      W: { ...person("c", true), bot: true },
      N: { ...person("d", true), bot: true },
    });
    act(() => {
      sitAt("S");
      handle(tableFrame(seats(true), { live: true, hand_no: 3 }));
      handle(viewFrame(actView));
    });
    const { container } = render(<TableScreen />);
    const box = () => container.querySelector("#tuoguan") as HTMLInputElement;
    expect(box().checked).toBe(true);
    // a new connection (after the server's restart): hello, seated, the table as it is
    act(() => {
      sitAt("S");
      handle(tableFrame(seats(true), { live: true, hand_no: 3 }));
      handle(viewFrame(actView, { catch_up: true }));
    });
    expect(box().checked).toBe(true);
    act(() => handle(tableFrame(seats(false), { live: true, hand_no: 3 })));
    expect(box().checked).toBe(false);
  });
});
