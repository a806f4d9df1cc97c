import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../src/i18n";
import { entriesOf, type LogEntry, withoutUnshownChong } from "../src/model/log";
import type { GameEvent } from "../src/protocol";
import { logLine } from "../src/widgets/MoveLog";

afterEach(() => setLang("zh"));

const line = (events: GameEvent[]) => entriesOf(events, 1, 1).map((e) => logLine(e));

describe("the move log", () => {
  it("names a pung by its tile once, a chow by its three tiles", () => {
    expect(
      line([
        { kind: "peng", seat: "W", tiles: ["5m", "5m", "5m"], detail: "" },
        { kind: "chi", seat: "S", tiles: ["3m", "4m", "5m"], detail: "" },
        { kind: "discard", seat: "E", tiles: ["7z"], detail: "" },
      ]),
    ).toEqual(["西 碰 五萬", "南 吃 三萬 四萬 五萬", "東 打 中"]);
    setLang("en");
    expect(line([{ kind: "peng", seat: "W", tiles: ["5m", "5m", "5m"], detail: "" }])).toEqual([
      "West pungs 5 Characters",
    ]);
    // a chow in English: its ranks and its suit, never the codes
    expect(line([{ kind: "chi", seat: "S", tiles: ["6s", "7s", "8s"], detail: "" }])).toEqual([
      "South chows 6-7-8 Bamboo",
    ]);
    expect(line([{ kind: "chi", seat: "N", tiles: ["1p", "2p", "3p"], detail: "" }])).toEqual([
      "North chows 1-2-3 Dots",
    ]);
  });

  it("logs a Ma Diao play as what it was, a hidden card unnamed", () => {
    const entries = entriesOf(
      [
        { kind: "play", seat: "E", card: "9m", detail: "fa" },
        { kind: "play", seat: "S", card: null, detail: "mie" },
        { kind: "chong", seat: "E", card: "8m", detail: "2" },
      ],
      1,
      1,
    );
    expect(entries.map((e) => e.kind)).toEqual(["fa", "mie", "chong"]);
    expect(logLine(entries[1] as (typeof entries)[number])).not.toContain("null");
    expect(logLine(entries[2] as (typeof entries)[number])).toContain("+2");
  });

  it("says a 開沖 draw as a sentence: who turned up what, and who scored", () => {
    setLang("en");
    const [chong, claim, dead] = entriesOf(
      [
        { kind: "chong", seat: "S", card: "2c", detail: "1" },
        { kind: "claim", seat: "W", card: "9t", detail: "2" },
        { kind: "dead", seat: "N", card: "3s", detail: "" },
      ],
      1,
      1,
    );
    expect(logLine(chong as LogEntry)).toBe("South turns up 2 Coins from the stock: +1");
    expect(logLine(claim as LogEntry)).toBe("West claims Ninety Myriads from the stock: +2");
    expect(logLine(dead as LogEntry)).toBe(
      "North turns up 3 Strings from the stock: nobody scores",
    );
    setLang("zh");
    expect(logLine(chong as LogEntry)).toBe("南 開沖 二文：+1");
  });

  it("leaves out what a player would not follow (another seat's hidden draw)", () => {
    expect(line([{ kind: "draw", seat: "N", tiles: null, detail: "head" }])).toEqual([]);
  });
});

describe("the replay's move list", () => {
  it("says each move as the live log did, and a claim that took nothing as a call", async () => {
    const { moveText } = await import("../src/screens/Replay");
    setLang("en");
    expect(
      moveText("S hu", "mazhan", [{ kind: "hu", seat: "S", tiles: ["1p"], detail: "discard" }]),
    ).toBe("South wins with 1 Dot");
    // South's chow lost to West's pung: South called, West punged
    expect(moveText("S chi 234p", "mazhan", [])).toBe("South calls Chow 2-3-4 Dots");
    expect(
      moveText("W peng", "mazhan", [
        { kind: "peng", seat: "W", tiles: ["4p", "4p", "4p"], detail: "" },
      ]),
    ).toBe("West pungs 4 Dots");
    expect(moveText("E pass", "mazhan", [])).toBe("East passes");
  });
});

describe("the log while the 開沖 is turned up", () => {
  const entry = (id: number, kind: string): LogEntry => ({
    id,
    hand: 1,
    version: id,
    seat: "S",
    kind,
    tiles: [],
    card: kind === "trick" ? null : "9m",
    detail: "",
  });
  const log = [
    entry(1, "trick"),
    entry(2, "chong"),
    entry(3, "claim"),
    entry(4, "dead"),
    entry(5, "chong"),
  ];

  it("holds back the last draws not yet shown, and nothing else", () => {
    expect(withoutUnshownChong(log, 0)).toBe(log);
    expect(withoutUnshownChong(log, 2).map((e) => e.id)).toEqual([1, 2, 3]);
    expect(withoutUnshownChong(log, 4).map((e) => e.id)).toEqual([1]);
    expect(withoutUnshownChong(log, 9).map((e) => e.id)).toEqual([1]);
  });
});
