import { act, fireEvent, render, screen, within } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MazhanTable, settling } from "../src/games/mazhan/Board";
import { actionWords } from "../src/games/mazhan/words";
import { setLang } from "../src/i18n";
import type { MazhanView, Seat, SeatInfo } from "../src/protocol";
import { actView, claimView, overView, pauseView } from "./fixtures/mazhan";

const names: Record<Seat, SeatInfo | null> = {
  E: { name: "東家", bot: true, ready: true, tuoguan: false, connected: true },
  S: { name: "me", bot: false, ready: true, tuoguan: false, connected: true },
  W: { name: "西家", bot: true, ready: true, tuoguan: false, connected: true },
  N: { name: "北家", bot: false, ready: true, tuoguan: false, connected: false },
};

function table(view = actView, onAction = vi.fn()) {
  const r = render(
    <MazhanTable
      view={view}
      names={names}
      clock={{ seat: null, seconds: 15, deadline: Date.now() + 9000 }}
      pending={null}
      version={view.version}
      onAction={onAction}
    />,
  );
  return { ...r, onAction };
}

afterEach(() => setLang("zh"));

describe("the Mazhan table", () => {
  it("puts you at the bottom, the next seat on the right, the one across on top", () => {
    const { container } = table();
    expect(container.querySelector(".my-area")?.getAttribute("data-seat")).toBe("S");
    expect(container.querySelector(".seat-area.side-right")?.getAttribute("data-seat")).toBe("W");
    expect(container.querySelector(".seat-area.side-top")?.getAttribute("data-seat")).toBe("N");
    expect(container.querySelector(".seat-area.side-left")?.getAttribute("data-seat")).toBe("E");
  });

  it("sets the drawn tile apart from the sorted hand", () => {
    const { container } = table();
    const drawn = container.querySelector(".hand-drawn [data-tile]");
    expect(drawn?.getAttribute("data-tile")).toBe("5m");
    const inHand = [...container.querySelectorAll(".hand-tiles > button")].map((b) =>
      b.getAttribute("data-tile"),
    );
    expect(inHand).toEqual(actView.hand);
  });

  it("enables exactly the legal discards, each with its action and an accessible name", () => {
    const { container, onAction } = table();
    const enabled = [
      ...container.querySelectorAll<HTMLButtonElement>(".hand button:not([disabled])"),
    ];
    expect(enabled.map((b) => b.dataset.action)).toEqual([
      "S discard 1m",
      "S discard 1m",
      "S discard 2m",
      "S discard 5m",
    ]);
    fireEvent.click(screen.getByRole("button", { name: "打 五萬 (摸)" }));
    expect(onAction).toHaveBeenCalledWith("S discard 5m");
    // the wild tile may not be discarded, and says it is wild
    const star = container.querySelector<HTMLButtonElement>('.hand button[data-tile="9s"]');
    expect(star?.disabled).toBe(true);
    expect(star?.getAttribute("aria-label")).toBe("九索 (財神)");
  });

  it("highlights the last discard and marks claimed ones", () => {
    const { container } = table();
    const north = container.querySelector('.pond[data-seat="N"]');
    const last = north?.querySelectorAll(".tile");
    expect(last?.[last.length - 1]?.classList.contains("last")).toBe(true);
    const east = container.querySelector('.pond[data-seat="E"]');
    const claimed = east?.querySelector(".tile.claimed");
    expect(claimed?.getAttribute("data-tile")).toBe("2s");
    expect(claimed?.getAttribute("aria-label")).toBe("二索 → 南");
  });

  it("shows another seat's concealed kong face down, its melds and bonus labelled", () => {
    const { container } = table();
    const east = container.querySelector('.seat-area[data-seat="E"]') as HTMLElement;
    const ckong = east.querySelector('[data-meld="ckong"]') as HTMLElement;
    expect(ckong.querySelectorAll(".tile.back")).toHaveLength(4);
    expect(ckong.querySelector("[data-tile]")).toBeNull();
    expect(within(east).getByRole("group", { name: "吃 一萬 二萬 三萬 ← 北" })).toBeTruthy();
    expect(
      within(east).getByRole("group", { name: "花牌" }).querySelectorAll("[data-tile]"),
    ).toHaveLength(2);
  });

  it("keeps a meld's claimed tile upright, ringed, with the giver's wind under it", () => {
    const { container } = table();
    const east = container.querySelector('.seat-area[data-seat="E"]') as HTMLElement;
    const chow = within(east).getByRole("group", { name: "吃 一萬 二萬 三萬 ← 北" });
    const slot = chow.querySelector(".claimed-slot") as HTMLElement;
    expect(slot.dataset.from).toBe("N");
    expect(slot.querySelector(".tile.claimed-in")?.getAttribute("data-tile")).toBe("2m");
    expect(slot.querySelector(".claimed-from")?.textContent).toBe("北");
    // the claimed tile is in its place in the run, one per meld
    expect(
      [...chow.querySelectorAll("[data-tile]")].map((x) => x.getAttribute("data-tile")),
    ).toEqual(["1m", "2m", "3m"]);
    expect(container.querySelectorAll(".my-area .claimed-slot")).toHaveLength(1);
    // marked by its ring and the wind, not by turning it (no side class, no transform)
    expect(slot.querySelector(".tile")?.className).toBe("tile tile-sm claimed-in");
    expect(slot.querySelector(".tile")?.getAttribute("style")).toBeNull();
  });

  it("shows the wall, the indicator and the wild: its face clear, the ★ beside it, its name", () => {
    const { container } = table();
    // the tiles still to draw: the wall's 50 less the 11 never drawn (留牌, rules §5.6)
    expect(container.querySelector("[data-wall]")?.textContent).toBe("39");
    expect(container.querySelector("[data-dead]")?.textContent).toBe("留牌 11");
    const wild = container.querySelector(".wild-faces .tile.wild") as HTMLElement;
    expect(wild.getAttribute("data-tile")).toBe("9s");
    // nothing drawn over the face: the ★ is its own text beside the tile
    expect(wild.querySelector(".star")).toBeNull();
    expect(wild.classList.contains("tile-md")).toBe(true);
    expect(container.querySelector(".wild-faces .times")?.textContent).toBe("★×3");
    expect(container.querySelector(".table-center .tile:not(.wild)")?.classList).toContain(
      "tile-md",
    );
    expect(container.querySelector(".wild-name")?.textContent).toBe("財神：九索");
    expect(screen.getByRole("group", { name: "翻牌 九索; 財神：九索 ×3" })).toBeTruthy();
    act(() => setLang("en"));
    expect(container.querySelector(".wild-name")?.textContent).toBe("Wild: 9 Bamboo");
  });

  it("shows the waiting tiles (聽牌)", () => {
    table();
    // each with how many of it this seat has not seen (its own hand, the table, the indicator)
    const waits = screen.getByRole("group", { name: /^聽牌: 三萬 剩 \d 張, 六萬 剩 \d 張$/ });
    expect(
      [...waits.querySelectorAll("[data-wait]")].map((w) => w.getAttribute("data-wait")),
    ).toEqual(["3m", "6m"]);
  });

  it("offers claims with the tiles each uses, digits and Escape as keys", () => {
    const { container, onAction } = table(claimView);
    const chow = screen.getByRole("button", { name: "吃 四五六萬" });
    expect(chow.querySelector(".act-name")?.textContent).toBe("吃 四五六萬");
    expect(
      [...chow.querySelectorAll("[data-tile]")].map((x) => x.getAttribute("data-tile")),
    ).toEqual(["4m", "5m", "6m"]);
    // a pung takes the discard the title names: its button says 碰
    const pung = screen.getByRole("button", { name: "碰 五萬" });
    expect(pung.querySelector(".act-name")?.textContent).toBe("碰");
    expect(container.querySelector(".prompt .countdown")).not.toBeNull();
    fireEvent.keyDown(window, { key: "2" });
    expect(onAction).toHaveBeenLastCalledWith("S peng");
    fireEvent.keyDown(window, { key: "Escape" });
    expect(onAction).toHaveBeenLastCalledWith("S pass");
    // no discards during a claim window
    expect(container.querySelectorAll(".hand button:not([disabled])")).toHaveLength(0);
  });

  it("calls a claim or a win out beside the seat's discards, in a cell of its own", () => {
    const won: MazhanView = {
      ...actView,
      version: 46,
      last: { seat: "E", kind: "hu", tile: "5m" },
    };
    const { container } = table(won);
    // East sits on the left: the callout takes the empty corner under East's discards (the
    // styles place callout-left there), never the cell of a pond
    const callout = container.querySelector(".ponds > .callout") as HTMLElement;
    // a win's callout is the larger one, over the middle of the table (the board is over)
    expect(callout.className).toBe("callout callout-left callout-hu");
    expect(callout.textContent).toBe("胡");
    expect(callout.getAttribute("aria-hidden")).toBe("true");
  });

  it("marks a wild among another seat's revealed tiles (the replay) with its frame and ★", () => {
    const { container } = render(
      <MazhanTable
        view={overView}
        names={names}
        clock={null}
        pending={null}
        version={overView.version}
        onAction={vi.fn()}
        readOnly
        revealed={{ E: ["1m", "9s", "2m"] }}
      />,
    );
    const east = container.querySelector('.seat-area[data-seat="E"] .revealed-hand') as HTMLElement;
    const wild = east.querySelector(".tile.wild") as HTMLElement;
    expect(wild.getAttribute("data-tile")).toBe("9s");
    expect(wild.classList.contains("tile-sm")).toBe(true);
    expect(wild.querySelector(".star")?.textContent).toBe("★");
    expect(east.querySelectorAll(".tile.wild")).toHaveLength(1);
  });

  it("switches language without re-creating the table", () => {
    const { container } = table();
    const before = container.querySelector(".hand-drawn button");
    act(() => setLang("en"));
    const after = container.querySelector(".hand-drawn button");
    expect(after).toBe(before);
    expect(after?.getAttribute("aria-label")).toBe("Discard 5 Characters (Drawn)");
    expect(actionWords(claimView.legal[1]!)).toBe("Pung 5 Characters");
    expect(container.textContent).not.toMatch(/[碰吃槓]/);
  });

  it("writes each chow's run on its button, so two chows differ by more than their tiles", () => {
    const twoChows: MazhanView = {
      ...claimView,
      window: { kind: "claim", tile: "7s", from: "E" },
      last: { seat: "E", kind: "discard", tile: "7s" },
      hand: ["5s", "6s", "8s", ...claimView.hand.slice(3)],
      legal: [
        { action: "S chi 567s", kind: "chi", tile: "7s", tiles: ["5s", "6s", "7s"] },
        { action: "S chi 678s", kind: "chi", tile: "7s", tiles: ["6s", "7s", "8s"] },
        { action: "S pass", kind: "pass", tile: null, tiles: [] },
      ],
    };
    const { container } = table(twoChows);
    const said = () =>
      [...container.querySelectorAll(".prompt .act-name")].map((x) => x.textContent);
    expect(said()).toEqual(["吃 五六七索", "吃 六七八索", "過"]);
    act(() => setLang("en"));
    expect(said()).toEqual(["Chow 5-6-7 Bamboo", "Chow 6-7-8 Bamboo", "Pass"]);
    const second = screen.getByRole("button", { name: "Chow 6-7-8 Bamboo" });
    expect(second.dataset.action).toBe("S chi 678s");
    // the tiles stay beside the words, the claimed one ringed
    expect(second.querySelector(".tile.claimed-in")?.getAttribute("data-tile")).toBe("7s");
  });

  describe("the pause after a discard (§5 end)", () => {
    // what would say that a claim window is open or that someone may be deciding
    const DECIDING = /思考|等待|決定|考慮|過|claim|think|waiting for|decid|\bpass/i;

    function paused(view: MazhanView, pending: string | null = null) {
      return render(
        <MazhanTable
          view={view}
          names={names}
          clock={null}
          pending={pending}
          version={view.version}
          onAction={vi.fn()}
        />,
      );
    }

    /** The discard settling, and nothing else on the table. */
    function expectSettling(container: Element): void {
      const table = container.querySelector(".table") as HTMLElement;
      expect(table.dataset.settling).toBe("true");
      // the tile just laid in East's pond, marked as the last discard
      const east = [...container.querySelectorAll('.pond[data-seat="E"] .tile')];
      expect(east.at(-1)?.getAttribute("data-tile")).toBe("5m");
      expect(east.at(-1)?.classList.contains("last")).toBe(true);
      expect(container.querySelectorAll(".tile.last")).toHaveLength(1);
      // no prompt, no clock, nobody's turn
      expect(container.querySelector(".dock")?.childElementCount).toBe(0);
      expect(container.querySelector(".prompt, .countdown, .clock-seconds")).toBeNull();
      expect(
        container.querySelector(".seat-badge.active, .clock.active, .clock.waiting"),
      ).toBeNull();
      expect(container.querySelector(".compass.on")).toBeNull();
      expect(container.querySelectorAll(".hand button:not([disabled])")).toHaveLength(0);
      // and no word of anyone deciding, in either language: not a word more than the
      // same table shows with no window open
      const quiet = paused({ ...pauseView, phase: "act", window: null }).container;
      for (const l of ["zh", "en"] as const) {
        act(() => setLang(l));
        const text = (table.textContent ?? "").replace(/Keys:.*|鍵盤：.*/, "");
        expect(text).not.toMatch(DECIDING);
        expect(table.textContent).toBe(quiet.querySelector(".table")?.textContent);
      }
    }

    it("shows a seat that cannot claim the discard settling into its pond", () => {
      const { container } = paused(pauseView);
      expectSettling(container);
    });

    it("takes an answered prompt away at once: the same settling until the next view", () => {
      const onAction = vi.fn();
      const props = { names, clock: null, version: 45, onAction };
      const withClock = { seat: null, seconds: 15, deadline: Date.now() + 15_000 };
      const { container, rerender } = render(
        <MazhanTable {...props} view={claimView} clock={withClock} pending={null} />,
      );
      expect(container.querySelector(".dock .prompt.claim")).not.toBeNull();
      expect(container.querySelector(".table")?.hasAttribute("data-settling")).toBe(false);
      // Pass: the prompt goes with the click, before the server says anything
      rerender(<MazhanTable {...props} view={claimView} clock={withClock} pending="S pass" />);
      expect(container.querySelector(".prompt")).toBeNull();
      // East's tile in the fixture's window is not in East's pond yet: the settling is
      // otherwise the same as a seat that could not claim sees
      expect(container.querySelector(".table")?.getAttribute("data-settling")).toBe("true");
      fireEvent.keyDown(window, { key: "Escape" });
      fireEvent.keyDown(window, { key: "1" });
      expect(onAction).not.toHaveBeenCalled();
      // then the pause's own view, the same as every seat that cannot claim sees
      rerender(<MazhanTable {...props} view={pauseView} clock={null} pending={null} />);
      expectSettling(container);
    });

    it("is a window with nothing to do, or answered; not a prompt, a turn, or the end", () => {
      expect(settling(pauseView, null)).toBe(true);
      expect(settling(claimView, "S peng")).toBe(true);
      expect(settling(claimView, null)).toBe(false);
      expect(settling(actView, null)).toBe(false);
      expect(settling({ ...overView, window: pauseView.window }, null)).toBe(false);
    });

    it("keeps the board and the hand where they were when a prompt or a turn comes and goes", () => {
      // what comes and goes floats in the dock above the hand: the hand's place in the
      // player's area is the same with a prompt, a turn, an answer and the pause
      const shape = (view: MazhanView, pending: string | null) => {
        const { container, unmount } = paused(view, pending);
        const area = container.querySelector(".my-area") as HTMLElement;
        const order = [...area.children].map((e) => e.className.split(" ")[0]);
        unmount();
        return order;
      };
      const still = shape(pauseView, null);
      expect(still).toEqual(["my-top", "dock", "hand", "keys-hint"]);
      expect(shape(claimView, null)).toEqual(still);
      expect(shape(claimView, "S pass")).toEqual(still);
      expect(shape(actView, null)).toEqual(still);
      expect(shape(actView, "S discard 5m")).toEqual(still);
    });
  });
});
