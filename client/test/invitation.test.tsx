import { act, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLang } from "../src/i18n";
import { Invitation } from "../src/widgets/Invitation";
import { answer } from "./fixtures/fetch";

afterEach(() => {
  vi.unstubAllGlobals();
  setLang("zh");
});

const TABLE = {
  code: "ABCD2345",
  game: "mazhan",
  room: { name: "mazhan", min_balance: 800 },
  people: ["ana", "bo"],
  free: 2,
  playing: false,
};

async function shown(code: string): Promise<string> {
  const { container } = render(<Invitation code={code} />);
  await act(async () => {
    await new Promise((done) => setTimeout(done, 0));
  });
  return container.querySelector("#invitation")?.textContent ?? "";
}

describe("an invitation before joining (GET /api/invite/{code})", () => {
  it("names the room, the people there and the free seats", async () => {
    setLang("en");
    const fetch = answer(TABLE);
    const text = await shown("ABCD2345");
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/invite/ABCD2345");
    expect(text).toContain("Mazhan mahjong");
    expect(text).toContain("ana, bo");
    expect(text).toContain("800 points");
    expect(text).toContain("2 of 4 seats free");
  });

  it("says when a hand is being played, in Chinese too", async () => {
    answer({ ...TABLE, playing: true, free: 0 });
    const text = await shown("ABCD2345");
    expect(text).toContain("正在打一手牌");
    expect(text).not.toContain("空");
  });

  it("says a closed table's code no longer plays", async () => {
    setLang("en");
    answer({ error: { code: "unknown_table", message: "no table has the code" } }, 404);
    expect(await shown("ZZZZZZZ2")).toContain("No table plays under this code now");
  });
});
