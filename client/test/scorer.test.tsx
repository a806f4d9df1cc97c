import { act, fireEvent, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BLANK, EXAMPLE, meldList, Scorer, toRecord } from "../src/components/Scorer";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the scorer's form", () => {
  it("reads melds one by one, by commas, semicolons or lines", () => {
    expect(meldList("pung 777z, chow  789m;kong 9999m\nckong 1111p")).toEqual([
      "pung 777z",
      "chow 789m",
      "kong 9999m",
      "ckong 1111p",
    ]);
    expect(meldList(" , ")).toEqual([]);
  });

  it("writes rules §11's object: the example as the rules give it", () => {
    const r = toRecord(EXAMPLE);
    expect(r.wild).toBe("9s");
    expect(r.winner).toBe("S");
    expect(r.win_by).toBe("self_draw");
    expect(r.win_tile).toBe("2p");
    expect(r.discarder).toBeNull();
    expect((r.players as Record<string, { melds: string[] }>).S?.melds).toEqual([
      "pung 777z",
      "pung 555p",
    ]);
  });

  it("a drawn hand has no winner, winning tile or way of winning", () => {
    const r = toRecord({ ...BLANK, wild: "1m", winTile: "2p", discarder: "E" });
    expect([r.winner, r.win_tile, r.win_by, r.discarder, r.tianhu]).toEqual([
      null,
      null,
      null,
      null,
      false,
    ]);
  });

  it("a discarder only for a win on a discard or a robbed kong", () => {
    const f = { ...EXAMPLE, winBy: "discard" as const, discarder: "E" as const };
    expect(toRecord(f).discarder).toBe("E");
    expect(toRecord({ ...f, winBy: "self_draw" }).discarder).toBeNull();
  });
});

describe("the scorer page", () => {
  it("shows the server's error for a bad hand, word for word", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ error: { code: "invalid_hand", message: "players.E: 2 tiles" } }),
          { status: 400, headers: { "content-type": "application/json" } },
        ),
    );
    vi.stubGlobal("fetch", fetch);
    const { container } = render(<Scorer />);
    await act(async () => {
      fireEvent.submit(container.querySelector("form") as HTMLFormElement);
    });
    await vi.waitFor(() => expect(container.querySelector("#sc-error")).not.toBeNull());
    expect(container.querySelector("#sc-error")?.textContent).toBe("players.E: 2 tiles");
    expect(fetch).toHaveBeenCalledOnce();
  });
});
