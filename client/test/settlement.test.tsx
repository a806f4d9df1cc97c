import { act, render } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { PenaltyText } from "../src/games/madiao/Settlement";
import { formulaSteps, MazhanSettlement } from "../src/games/mazhan/Settlement";
import { setLang } from "../src/i18n";
import type { Formula, Seat, SeatInfo } from "../src/protocol";
import { netPairs } from "../src/widgets/settlement";
import { seedResult } from "./fixtures/mazhan";

const names: Record<Seat, SeatInfo | null> = {
  E: { name: "amy", bot: false, ready: false, tuoguan: false, connected: true },
  S: { name: "bo", bot: false, ready: false, tuoguan: false, connected: true },
  W: { name: "cy", bot: false, ready: false, tuoguan: false, connected: true },
  N: { name: "di", bot: false, ready: false, tuoguan: false, connected: true },
};

describe("the formula", () => {
  it("shows 胡頭: base → 進一 → (rounded + 20) → × 2^台, exactly as the scorer gives it", () => {
    const f = seedResult.scores.S.formula;
    expect(formulaSteps(f, 3)).toEqual([
      "底分 14",
      "進一 20",
      "胡頭 （20 + 20） = 40",
      "× 8（3 台） = 320",
    ]);
  });

  it("shows the cap when the uncapped value passes it", () => {
    const f: Formula = {
      rule: "hutou",
      base: 68,
      rounded: 70,
      head: 20,
      multiplier: 8,
      uncapped: 720,
      cap: 400,
      value: 400,
    };
    expect(formulaSteps(f, 3).at(-1)).toBe("封頂 400 → 400");
  });

  it("shows a limit hand and a loser's value", () => {
    const limit: Formula = {
      rule: "limit",
      base: 0,
      rounded: 0,
      head: 0,
      multiplier: 1,
      uncapped: 400,
      cap: 400,
      value: 400,
    };
    expect(formulaSteps(limit, 0)).toEqual(["辣子 400"]);
    const loser: Formula = {
      rule: "loser",
      base: 32,
      rounded: 40,
      head: 0,
      multiplier: 4,
      uncapped: 160,
      cap: 400,
      value: 160,
    };
    expect(formulaSteps(loser, 2)).toEqual(["底分 32", "進一 40", "× 4（2 台） = 160"]);
  });
});

function settlement(me: Seat = "E") {
  return render(
    <MazhanSettlement
      hand={7}
      stake={10}
      fee={10}
      moves={[
        // as the server sends them: the four fees first, then the hand's lines
        ...["amy", "bo", "cy", "di"].map((n) => ({
          from: n,
          to: "house",
          amount: 10,
          reason: "fee" as const,
        })),
        { from: "amy", to: "bo", amount: 6400, reason: "hand" },
        { from: "cy", to: "bo", amount: 3200, reason: "hand" },
        { from: "di", to: "bo", amount: 3200, reason: "hand" },
      ]}
      balance={3590}
      balanceChange={-6410}
      names={names}
      me={me}
      myName={names[me]?.name ?? null}
      wild="9s"
      dealer="E"
      result={seedResult}
    />,
  );
}

describe("the Mazhan settlement", () => {
  it("lays every hand down and marks the winning tile", () => {
    const { container } = settlement();
    expect(container.querySelectorAll(".reveal-row")).toHaveLength(4);
    const win = container.querySelectorAll(".reveal-row.winner .win-tile");
    expect(win).toHaveLength(1);
    expect(win[0]?.getAttribute("data-tile")).toBe("2p");
    expect(container.querySelector(".outcome")?.textContent).toContain("自摸");
  });

  it("lists items, 台 and who pays whom with the dealer doubling", () => {
    const { container } = settlement();
    const south = container.querySelector('.score-card[data-seat="S"]') as HTMLElement;
    expect(south.textContent).toContain("碰 中");
    expect(south.textContent).toContain("混一色");
    expect(south.querySelector(".formula")?.textContent).toContain("320");
    const rows = [...container.querySelectorAll(".payments tbody tr")];
    expect(rows).toHaveLength(3);
    expect(rows[0]?.textContent).toContain("640 胡");
    expect(rows[0]?.textContent).toContain("莊 ×2");
    expect(rows[1]?.textContent).not.toContain("莊 ×2");
  });

  it("shows the points: the fee and each movement, adding up to the balance change", () => {
    const { container } = settlement();
    const mine = [...container.querySelectorAll(".my-ledger tbody tr")].map((r) => r.textContent);
    // the fee once, the settlement line, the total (the fee move is not a settlement line)
    expect(mine).toHaveLength(4);
    expect(mine[0]).toContain("-10");
    expect(mine[1]).toContain("-6400");
    const lines = [...container.querySelectorAll(".my-ledger tbody tr:not(.total) td.num")]
      .slice(0, 2)
      .map((x) => Number(x.textContent));
    expect(lines.reduce((a, b) => a + b, 0)).toBe(-6410);
    expect(container.querySelectorAll("table.moves tbody tr")).toHaveLength(4);
    expect(container.querySelector("#balance-change")?.textContent).toBe("-6410");
    // paid in full: 640 胡 × 10 = 6400, no scaling note
    expect(container.textContent).not.toContain("按比例");
  });

  it("says so when a payment was scaled down", () => {
    const { container } = render(
      <MazhanSettlement
        hand={7}
        stake={10}
        fee={10}
        moves={[{ from: "amy", to: "bo", amount: 3000, reason: "hand" }]}
        balance={0}
        balanceChange={-3010}
        names={names}
        me="E"
        myName="amy"
        result={seedResult}
      />,
    );
    expect(container.textContent).toContain("按比例");
  });

  it("switches to English in place", () => {
    const { container } = settlement();
    act(() => setLang("en"));
    expect(container.textContent).toContain("Who pays whom");
    expect(container.textContent).toContain("exposed pung of red dragons");
    expect(container.textContent).not.toMatch(/[胡碰莊]/);
    act(() => setLang("zh"));
  });
});

describe("the points between two sides", () => {
  it("are one line per pair: the net, with the two amounts it nets", () => {
    const pairs = netPairs([
      { from: "me", to: "house", amount: 1600, reason: "hand" },
      { from: "house", to: "me", amount: 400, reason: "hand" },
      { from: "bo", to: "me", amount: 300, reason: "hand" },
    ]);
    expect(pairs).toEqual([
      { from: "me", to: "house", amount: 1200, gross: [1600, 400] },
      { from: "bo", to: "me", amount: 300, gross: null },
    ]);
  });

  it("shows the player's own result beside the winner, and one row per pair", () => {
    const { container } = render(
      <MazhanSettlement
        hand={7}
        stake={10}
        fee={10}
        moves={[
          { from: "amy", to: "house", amount: 1600, reason: "hand" },
          { from: "house", to: "amy", amount: 400, reason: "hand" },
        ]}
        balance={3790}
        balanceChange={-1210}
        names={names}
        me="E"
        myName="amy"
        result={seedResult}
      />,
    );
    const top = container.querySelector(".outcome + .my-result") as HTMLElement;
    expect(top.getAttribute("data-net")).toBe(String(seedResult.net.E));
    expect(top.querySelector("[data-change]")?.textContent).toContain("-1210");
    const rows = container.querySelectorAll("table.moves tbody tr:not(.fee)");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.textContent).toContain("1200");
    expect(rows[0]?.textContent).toContain("付 1600、收回 400 相抵");
  });
});

describe("a 包賠 situation of Ma Diao", () => {
  it("is said with its meaning, not only its name", () => {
    const x = {
      seat: "E" as const,
      kind: "zongbai" as const,
      card: "qt",
      trick: 3,
      zh: "縱百老",
      en: "spent Thousand Myriads in trick 3, and 百老 later went 上桌",
    };
    const { container } = render(<PenaltyText penalty={x} />);
    expect(container.textContent).toContain("縱百老");
    expect(container.textContent).toContain("第 3 墩先出了千萬");
    expect(container.textContent).toContain("包賠");
    act(() => setLang("en"));
    expect(container.textContent).toContain("spent Thousand Myriads in trick 3");
    act(() => setLang("zh"));
  });
});
