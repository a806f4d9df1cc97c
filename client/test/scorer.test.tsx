import { act, fireEvent, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BLANK, EXAMPLE, errorPlace, meldList, Scorer, toRecord } from "../src/components/Scorer";

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
  it("shows the server's error for a bad hand, where it points named in the page's words", async () => {
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
    // the seat in the page's words, the scorer's own words after it
    expect(container.querySelector("#sc-error")?.textContent).toBe("東: 2 tiles");
    expect(container.querySelector("#sc-error")?.getAttribute("data-field")).toBe("sc-E-concealed");
    expect(fetch).toHaveBeenCalledOnce();
  });
});

describe("the scorer's error", () => {
  it("names the seat and field in the page's words, and which input it is", () => {
    expect(
      errorPlace("players.E.concealed: unknown suit letter 'x' in '8x' at position 1"),
    ).toEqual({
      id: "sc-E-concealed",
      where: "東 · 手牌",
      text: "unknown suit letter 'x' in '8x' at position 1",
    });
    expect(errorPlace("players.S.melds[0]: not a meld").id).toBe("sc-S-melds");
    expect(errorPlace("discarder: required for a discard win").where).toBe("放炮者");
    expect(errorPlace("something else")).toEqual({ id: null, where: "", text: "something else" });
  });

  it("takes capitals as the notation's letters", () => {
    const r = toRecord({ ...EXAMPLE, wild: "9S", winTile: "2P" });
    expect([r.wild, r.win_tile]).toEqual(["9s", "2p"]);
    const melds = { ...EXAMPLE.players.S, melds: "PUNG 777Z" };
    const p = toRecord({ ...EXAMPLE, players: { ...EXAMPLE.players, S: melds } }).players as Record<
      string,
      { melds: string[] }
    >;
    expect(p.S?.melds).toEqual(["pung 777z"]);
  });
});

describe("an error about a seat as a whole", () => {
  it("points at its concealed tiles and names the seat", () => {
    const place = errorPlace("players.E: holds 2 tiles (2 concealed + 0 melds × 3)");
    expect(place.id).toBe("sc-E-concealed");
    expect(place.where).toBe("東");
  });
});
