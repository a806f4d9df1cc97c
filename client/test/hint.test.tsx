import { act, fireEvent, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TableFrame } from "../src/protocol";
import { aloneWithBots, TableScreen } from "../src/screens/TableScreen";
import { socket } from "../src/session";
import { toasts } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { clearTable, hint } from "../src/state/table";
import { toastText } from "../src/widgets/Chrome";
import { sitAt, tableFrame, viewFrame } from "./fixtures/frames";
import { actView } from "./fixtures/mazhan";

const bot = {
  name: "bot",
  bot: true,
  level: "normal",
  ready: true,
  tuoguan: false,
  connected: true,
} as const;
const me = { name: "me", bot: false, ready: true, tuoguan: false, connected: true, points: 5000 };

function sit(seats: TableFrame["seats"]): void {
  sitAt("S");
  handle(tableFrame(seats, { live: true, hand_no: 1 }));
  handle(viewFrame(actView));
}

afterEach(() => {
  act(() => {
    clearTable();
    toasts.value = [];
  });
  vi.restoreAllMocks();
});

describe("the hint", () => {
  it("is offered alone with bots only", () => {
    expect(aloneWithBots({ E: bot, S: me, W: bot, N: bot }, "S")).toBe(true);
    expect(aloneWithBots({ E: bot, S: me, W: { ...me, name: "friend" }, N: bot }, "S")).toBe(false);
    expect(aloneWithBots({ E: bot, S: me, W: bot, N: null }, "S")).toBe(false);
    expect(aloneWithBots({ E: bot, S: me, W: bot, N: bot }, null)).toBe(false);
    act(() => sit({ E: bot, S: me, W: { ...me, name: "friend" }, N: bot }));
    const { container } = render(<TableScreen />);
    expect(container.querySelector("#hint")).toBeNull();
  });

  it("asks at the view's version, says the action, marks its tile, and goes with the view", () => {
    const sent = vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => sit({ E: bot, S: me, W: bot, N: bot }));
    const { container } = render(<TableScreen />);
    const button = container.querySelector("#hint") as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    act(() => {
      fireEvent.click(button);
    });
    expect(sent).toHaveBeenCalledWith({ type: "hint", version: actView.version });
    expect(button.disabled).toBe(true); // asked once per view
    expect(container.querySelector(".hint-said")?.textContent).toBe("思考中…");
    act(() => handle({ type: "hint", version: actView.version, action: "S discard 2m" }));
    const said = container.querySelector(".hint-said") as HTMLElement;
    expect(said.getAttribute("data-hint")).toBe("S discard 2m");
    expect(said.textContent).toContain("提示");
    const marked = container.querySelectorAll(".hinted");
    expect(marked.length).toBe(1);
    expect(marked[0]?.getAttribute("data-action")).toBe("S discard 2m");
    act(() => handle({ type: "hint", version: actView.version - 1, action: "S discard 1m" }));
    expect(hint.value?.action).toBe("S discard 2m"); // an old view's answer is ignored
    act(() =>
      handle(
        viewFrame(
          { ...actView, version: actView.version + 1 },
          { clock: null, your_action: "S discard 2m" },
        ),
      ),
    );
    expect(hint.value).toBeNull();
    expect(container.querySelector(".hinted")).toBeNull();
  });

  it("is let go when the server refuses it", () => {
    vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => sit({ E: bot, S: me, W: bot, N: bot }));
    const { container } = render(<TableScreen />);
    act(() => {
      fireEvent.click(container.querySelector("#hint") as HTMLButtonElement);
    });
    act(() => handle({ type: "error", code: "hints_off", message: "no" }));
    expect(hint.value).toBeNull();
    const last = toasts.value.at(-1);
    expect(last && toastText(last)).toBe("只有在全是機器人的牌桌上才有提示");
  });

  it("a hint overtaken by the view is let go quietly; a reconnect lets a waiting one go", () => {
    vi.spyOn(socket, "send").mockReturnValue(true);
    act(() => sit({ E: bot, S: me, W: bot, N: bot }));
    const { container } = render(<TableScreen />);
    act(() => {
      fireEvent.click(container.querySelector("#hint") as HTMLButtonElement);
    });
    const before = toasts.value.length;
    act(() => handle({ type: "error", code: "stale_version", message: "the table is at 45" }));
    expect(hint.value).toBeNull();
    expect(toasts.value.length).toBe(before); // not an error the player made
    act(() => {
      fireEvent.click(container.querySelector("#hint") as HTMLButtonElement);
    });
    expect(hint.value?.action).toBeNull();
    act(() => handle({ type: "hello", name: "me", balance: 5000 }));
    expect(hint.value).toBeNull();
    expect((container.querySelector("#hint") as HTMLButtonElement).disabled).toBe(false);
  });
});
