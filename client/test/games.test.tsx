/// <reference types="node" />
// The games' registry: every game this client knows has its folder and one registration, the
// screens reach a game only through it, and a game the server names that this page does not
// know is said plainly, never a crash.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { act, render } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { GAME_UI, GAMES, GUIDES, gameUi, RULES_GAMES } from "../src/games";
import type { Game, View } from "../src/protocol";
import { TableScreen } from "../src/screens/TableScreen";
import { toasts } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { clearTable } from "../src/state/table";
import { settlementFrame, sitAt, tableFrame, viewFrame } from "./fixtures/frames";
import { actView, overView } from "./fixtures/mazhan";

afterEach(() => {
  act(() => {
    clearTable();
    toasts.value = [];
  });
});

/** A game no build of this client knows (a newer server's). */
const POKER = "poker" as Game;

describe("the registry", () => {
  it("has every game it knows, each with its guide, in the order of the tabs", () => {
    expect(GAMES.map((g) => g.id)).toEqual(RULES_GAMES);
    for (const g of GAMES) {
      expect(GAME_UI[g.id]).toBe(g);
      expect(GUIDES[g.id as keyof typeof GUIDES]).toBe(g.guide);
      expect(g.guide.zh.sections.length).toBeGreaterThan(0);
    }
    expect(gameUi(POKER)).toBeNull();
    expect(gameUi("toString")).toBeNull(); // not an object's own property
  });

  it("is the only way the client reaches a game: no module outside a game's folder names one", () => {
    const src = join(__dirname, "..", "src");
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    const names = GAMES.map((g) => g.id);
    const found: string[] = [];
    for (const path of files(src)) {
      const rel = relative(src, path).split("\\").join("/");
      if (!/\.tsx?$/.test(rel) || rel === "protocol/generated.ts") continue;
      if (names.some((n) => rel.startsWith(`games/${n}/`))) continue;
      const text = readFileSync(path, "utf8");
      for (const n of names) if (text.includes(`"${n}"`)) found.push(`${rel}: "${n}"`);
    }
    expect(found).toEqual([]);
  });
});

describe("a game this page does not know", () => {
  it("is said on the table instead of its board", () => {
    act(() => {
      sitAt("S");
      handle(tableFrame({}, { game: POKER, room: "poker", live: true, hand_no: 1 }));
      handle(viewFrame({ ...actView, game: POKER } as unknown as View));
    });
    const { container } = render(<TableScreen />);
    const said = container.querySelector("[data-unknown-game]");
    expect(said?.getAttribute("data-unknown-game")).toBe("poker");
    expect(said?.getAttribute("role")).toBe("alert");
    expect(said?.textContent).toContain("poker");
    expect(container.querySelector(".table")).toBeNull();
  });

  it("is said in the settlement instead of its result", () => {
    act(() => {
      sitAt("S");
      handle(tableFrame({}, { game: POKER, room: "poker", hand_no: 1 }));
      handle(viewFrame({ ...overView, game: POKER } as unknown as View));
      handle(settlementFrame());
    });
    const { container } = render(<TableScreen />);
    expect(container.querySelector("#result [data-unknown-game]")?.textContent).toContain("poker");
  });
});
