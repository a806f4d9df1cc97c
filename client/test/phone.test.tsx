// What a phone needs from the markup: long names shown whole (the header, the seats), the Ma
// Diao scores' columns named on each cell (a phone shows each seat's row as a block), and the
// waiting room back once the player has confirmed the next hand.
import { act, render } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { MadiaoSettlement } from "../src/games/madiao/Settlement";
import { setLang } from "../src/i18n";
import type { MadiaoResult, MadiaoSeatResult, Seat, SeatInfo } from "../src/protocol";
import { TableScreen } from "../src/screens/TableScreen";
import { me, toasts } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { chongUnshown } from "../src/state/settlement";
import { clearTable, readySent } from "../src/state/table";
import { Header } from "../src/widgets/Chrome";
import { SeatBadge } from "../src/widgets/SeatBadge";
import { person, sitAt, tableFrame, viewFrame } from "./fixtures/frames";
import { overView } from "./fixtures/mazhan";

const LONG = "歐陽慕容長孫司馬上官皇甫諸葛東方";
const LATIN = "ceeceeliawandererxyz";

afterEach(() => {
  act(() => {
    clearTable();
    toasts.value = [];
    me.value = null;
  });
});

describe("a long name on a phone", () => {
  it("is in the header whole, in its text and its title (never an ellipsis of it)", () => {
    act(() => {
      me.value = { name: LONG, balance: 10000 };
    });
    const { container } = render(<Header />);
    const name = container.querySelector(".who-name") as HTMLElement;
    expect(name.textContent).toBe(LONG);
    expect(name.getAttribute("title")).toBe(LONG);
    expect(container.textContent).not.toContain("…");
  });

  it("is on a seat's plate whole", () => {
    const { container } = render(
      <SeatBadge
        seat="W"
        wind="W"
        info={person(LATIN)}
        isMe={false}
        dealer
        dealerLabel="dealer"
        active={false}
        clock={null}
      />,
    );
    const name = container.querySelector(".seat-name-text") as HTMLElement;
    expect(name.textContent).toBe(LATIN);
    expect(name.getAttribute("title")).toBe(LATIN);
  });
});

const seatResult = (net: number, more: Partial<MadiaoSeatResult> = {}): MadiaoSeatResult => ({
  tricks: 2,
  zhengben: true,
  diao: 0,
  won: [],
  bonuses: [],
  chong: 0,
  bonus_total: 0,
  net,
  ...more,
});

const madiaoResult: MadiaoResult = {
  banker: "E",
  seats: {
    E: seatResult(-3, { tricks: 0, zhengben: false, diao: -1 }),
    S: seatResult(2, { tricks: 4, diao: 1, bonuses: [{ zh: "賞上桌", en: "top card", zhu: 1 }] }),
    W: seatResult(1),
    N: seatResult(0),
  },
  chong: [],
  payments: [],
  net: { E: -3, S: 2, W: 1, N: 0 },
  special: null,
  penalties: [],
};

const names: Record<Seat, SeatInfo | null> = {
  E: person(LONG),
  S: person(LATIN),
  W: person("cy"),
  N: person("di"),
};

/** A Ma Diao settlement of `result` as East sees it, points not shown. */
const settlementOf = (result: MadiaoResult, onChongUnshown?: (n: number) => void) => (
  <MadiaoSettlement
    hand={3}
    stake={10}
    fee={10}
    moves={[]}
    balance={null}
    balanceChange={null}
    names={names}
    me="E"
    myName={LONG}
    showPoints={false}
    result={result}
    onChongUnshown={onChongUnshown}
  />
);

describe("the header while the 開沖 is turned up", () => {
  it("holds the balance as it was before the hand was settled, then shows the new one", () => {
    act(() => {
      me.value = { name: "ana", balance: 9860 }; // after the hand: 10000 − 10 fee − 130
      handle({
        type: "settlement",
        hand: 1,
        stake: 10,
        fee: 10,
        result: madiaoResult,
        moves: [],
        balance: 9860,
        balance_change: -140,
      });
      chongUnshown.value = 3;
    });
    const { container } = render(<Header />);
    const shown = () => container.querySelector(".who-balance")?.getAttribute("data-balance");
    expect(shown()).toBe("9990");
    act(() => {
      chongUnshown.value = 0;
    });
    expect(shown()).toBe("9860");
  });
});

describe("the 開沖 row while it is revealed", () => {
  it("turns the draws up one by one, the 面張 (the last stock card, public all hand) face up from the start", () => {
    const draws = ["9m", "8m", "2c", "hc", "5s", "qt", "7m", "1s"];
    const result: MadiaoResult = {
      ...madiaoResult,
      chong: draws.map((card, i) => ({
        drawer: "S",
        card,
        scorer: i % 2 ? null : "S",
        points: i % 2 ? 0 : 1,
      })),
    };
    const { container } = render(settlementOf(result));
    const rows = [...container.querySelectorAll(".chong-draws li")];
    expect(rows).toHaveLength(8);
    expect(container.querySelector(".chong")?.getAttribute("data-revealed")).toBe("false");
    const faces = rows.map((li) => li.querySelector(".card")?.getAttribute("data-card") ?? null);
    expect(faces.slice(0, 7).every((f) => f === null)).toBe(true);
    expect(faces[7]).toBe("1s");
  });

  it("keeps the scores back until the draws are shown (they would tell them), and can skip", () => {
    const told: number[] = [];
    const result: MadiaoResult = {
      ...madiaoResult,
      chong: ["9m", "8m"].map((card) => ({ drawer: "S", card, scorer: "S", points: 2 })),
    };
    const { container } = render(settlementOf(result, (n) => told.push(n)));
    expect(container.querySelector(".md-scores")).toBeNull();
    expect(container.querySelector(".my-result")).toBeNull();
    expect(told.at(-1)).toBe(2);
    act(() => {
      (container.querySelector("[data-action=chong-skip]") as HTMLButtonElement).click();
    });
    expect(container.querySelector(".chong")?.getAttribute("data-revealed")).toBe("true");
    expect(container.querySelector(".md-scores")).not.toBeNull();
    expect(container.querySelector(".my-result")?.getAttribute("data-net")).toBe("-3");
    expect(container.querySelector("[data-action=chong-skip]")).toBeNull();
    expect(document.activeElement?.classList.contains("chong")).toBe(true);
    expect(told.at(-1)).toBe(0);
  });
});

describe("the Ma Diao scores", () => {
  it("name every column on its cells, as the header does (a phone shows a row as a block)", () => {
    for (const lang of ["zh", "en"] as const) {
      act(() => setLang(lang));
      const { container, unmount } = render(settlementOf(madiaoResult));
      const heads = [...container.querySelectorAll(".md-scores thead th")].map(
        (th) => th.textContent,
      );
      for (const row of container.querySelectorAll(".md-scores tbody tr")) {
        const cells = [...row.children];
        // the seat (its name whole) and the net need no label; every other cell says its column
        expect(cells[0]?.tagName).toBe("TH");
        expect(cells[1]?.classList.contains("net")).toBe(true);
        expect(cells.slice(2).map((c) => c.getAttribute("data-label"))).toEqual(heads.slice(2));
      }
      expect(container.querySelector('.md-scores tr[data-seat="E"] th')?.textContent).toContain(
        LONG,
      );
      unmount();
    }
    act(() => setLang("zh"));
  });
});

describe("the waiting room after the settlement", () => {
  it("comes back once the player confirmed the next hand: a seat someone left can be filled", () => {
    act(() => {
      sitAt("E");
      const code = { code: "ABCD2345", hand_no: 1 };
      handle(
        tableFrame(
          { E: person("me"), S: person("bo"), W: person("cy"), N: person("di") },
          { ...code, live: true },
        ),
      );
      // the hand is over (its last view), the settlement confirmed: "Next hand"
      handle(viewFrame(overView, { hand: 1, clock: null }));
      readySent.value = true;
      // then someone leaves: the next hand waits for a fourth
      handle(
        tableFrame(
          { E: person("me", true), S: person("bo", true), W: null, N: person("di") },
          code,
        ),
      );
    });
    const { container } = render(<TableScreen />);
    expect(container.querySelector(".table[data-game]")).toBeNull();
    expect(container.querySelector(".waiting")).not.toBeNull();
    expect(container.querySelector('.friends-panel [data-action="fill"]')).not.toBeNull();
    expect(container.querySelector('.waiting-seats [data-seat="W"]')?.textContent).toContain("—");
  });
});
