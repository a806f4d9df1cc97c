import { act, fireEvent, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BLANK, EXAMPLE, errorPlace, meldList, toRecord } from "../src/games/mazhan/Scorer";
import { errorText, problemText, setLang, t } from "../src/i18n";
import { Scorer } from "../src/screens/Scorer";

afterEach(() => {
  vi.unstubAllGlobals();
  setLang("zh");
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
    expect(container.querySelector("#sc-error")?.textContent).toBe("東：2 tiles");
    expect(container.querySelector("#sc-error")?.getAttribute("data-field")).toBe("sc-E-concealed");
    expect(fetch).toHaveBeenCalledOnce();
  });
});

describe("the scorer's problem in the page's language", () => {
  const bad = (error: unknown, status = 400) =>
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error }), {
            status,
            headers: { "content-type": "application/json" },
          }),
      ),
    );
  const submit = async () => {
    const view = render(<Scorer />);
    await act(async () => {
      fireEvent.submit(view.container.querySelector("form") as HTMLFormElement);
    });
    await vi.waitFor(() => expect(view.container.querySelector("#sc-error")).not.toBeNull());
    return view.container;
  };

  it("words the server's detail in Chinese, not its English message, at the field too", async () => {
    bad({
      code: "invalid_hand",
      message: "players.S: holds 15 tiles (13 concealed + 0 melds × 3), the winner holds 17",
      detail: {
        why: "seat_size",
        field: "players.S",
        params: { seat: "S", size: 15, concealed: 15, melds: 0, expected: 17 },
      },
    });
    const container = await submit();
    const text = container.querySelector("#sc-error")?.textContent ?? "";
    expect(text).toBe(
      "南：共 15 張（手牌 15 張＋副露 0 組 × 3），應為 17 張（胡牌者 17 張，其餘 16 張）",
    );
    expect(text).not.toMatch(/holds|winner/);
    const field = container.querySelector("#sc-S-concealed") as HTMLInputElement;
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.getAttribute("aria-describedby")).toBe("sc-S-concealed-problem");
    // the problem under the field itself: on a phone the form's error line is screens away
    expect(container.querySelector("#sc-S-concealed-problem")?.textContent).toBe(
      "共 15 張（手牌 15 張＋副露 0 組 × 3），應為 17 張（胡牌者 17 張，其餘 16 張）",
    );
    expect(document.activeElement?.id).toBe("sc-S-concealed");
  });

  it("names tiles and seats in the page's language, and follows a switch of language", async () => {
    bad({
      code: "invalid_hand",
      message: "5 copies of 1m (一萬) at the table: there are only four",
      detail: { why: "copies", field: "", params: { n: 5, tile: "1m", limit: 4, seats: "EN" } },
    });
    const container = await submit();
    expect(container.querySelector("#sc-error")?.textContent).toBe(
      "東家、北家共有 5 張 1m（一萬）：這張牌只有 4 張",
    );
    expect(container.querySelector("#sc-error")?.getAttribute("data-field")).toBeNull();
    expect(container.querySelector(".field-problem")).toBeNull();
    await act(() => setLang("en"));
    expect(container.querySelector("#sc-error")?.textContent).toBe(
      "5 of 1m (1 Character) at the table (East, North): there are only 4",
    );
  });

  it("shows the server's words for a problem this page has none for", async () => {
    bad({
      code: "invalid_hand",
      message: "win_tile: something new",
      detail: { why: "a_newer_key", field: "win_tile", params: {} },
    });
    const container = await submit();
    expect(container.querySelector("#sc-error")?.textContent).toBe("胡牌：something new");
  });

  it("marks every problem the server found, each under its field, the first focused", async () => {
    const size = (seat: string) => ({
      message: `players.${seat}: holds 15 tiles (15 concealed + 0 melds × 3), a non-winner holds 16`,
      detail: {
        why: "seat_size",
        field: `players.${seat}`,
        params: { seat, size: 15, concealed: 15, melds: 0, expected: 16 },
      },
    });
    const meld = {
      message:
        "players.S.melds[1]: meld 'pong 555p': unknown kind 'pong' (chow, pung, kong or ckong)",
      detail: null,
    };
    bad({
      code: "invalid_hand",
      message: meld.message,
      detail: null,
      problems: [meld, size("E"), size("N")],
    });
    const container = await submit();
    const error = container.querySelector("#sc-error") as HTMLElement;
    expect(error.querySelector("p")?.textContent).toBe("有 3 處要改（各處欄位下也有說明）：");
    const items = [...error.querySelectorAll("li")].map((li) => li.getAttribute("data-field"));
    // in the form's order, not the server's (which names the fields it cannot read first)
    expect(items).toEqual(["sc-E-concealed", "sc-S-melds", "sc-N-concealed"]);
    for (const id of items) {
      const field = container.querySelector(`#${id}`) as HTMLInputElement;
      expect(field.getAttribute("aria-invalid")).toBe("true");
      expect(container.querySelector(`#${id}-problem`)?.textContent).not.toBe("");
    }
    expect(container.querySelector("#sc-N-concealed-problem")?.textContent).toBe(
      "共 15 張（手牌 15 張＋副露 0 組 × 3），應為 16 張（胡牌者 17 張，其餘 16 張）",
    );
    // the fields with nothing wrong are not marked
    expect(container.querySelectorAll("[aria-invalid]")).toHaveLength(3);
    expect(document.activeElement?.id).toBe("sc-E-concealed");
    // fixing one: its marks go, the others stay, the count follows; the focus stays put
    await act(async () => {
      fireEvent.input(container.querySelector("#sc-E-concealed") as HTMLInputElement, {
        target: { value: "1123456789m123456s" },
      });
    });
    expect(container.querySelectorAll("[aria-invalid]")).toHaveLength(2);
    expect(container.querySelector("#sc-E-concealed-problem")).toBeNull();
    expect(error.querySelector("p")?.textContent).toBe("有 2 處要改（各處欄位下也有說明）：");
    expect(document.activeElement?.id).toBe("sc-E-concealed");
    await act(async () => {
      fireEvent.input(container.querySelector("#sc-S-melds") as HTMLInputElement, {
        target: { value: "pung 777z, pung 555p" },
      });
    });
    const left = container.querySelector("#sc-error") as HTMLElement;
    expect(left.getAttribute("data-field")).toBe("sc-N-concealed");
    expect(left.querySelector("li")).toBeNull(); // one problem: said, not listed
  });

  it("says a refusal for speed as such, not as a hand that could not be scored", async () => {
    bad({ code: "rate_limited", message: "too many", retry_after: 9 }, 429);
    const container = await submit();
    const text = container.querySelector("#sc-error")?.textContent ?? "";
    expect(text).toBe(errorText("rate_limited"));
    expect(text).not.toBe(t("scorerFailed"));
  });
});

describe("what a Chinese input method types", () => {
  it("reads full-width digits, letters and commas, and melds named in Chinese", () => {
    expect(meldList("碰 777z，吃７８９ｍ、暗槓 1111p；槓9999s")).toEqual([
      "pung 777z",
      "chow 789m",
      "ckong 1111p",
      "kong 9999s",
    ]);
    const f = { ...EXAMPLE, wild: "９Ｓ", players: { ...EXAMPLE.players } };
    f.players.E = { ...f.players.E, concealed: "１１２３４５６７８９ｍ　１２３４５６ｓ" };
    const r = toRecord(f);
    expect(r.wild).toBe("9s");
    expect((r.players as Record<string, { concealed: string }>).E?.concealed).toBe(
      "1123456789m123456s",
    );
  });

  it("says how to write a tile typed as a Chinese character", () => {
    const d = { why: "notation_letter", field: "wild", params: { letter: "九", position: 0 } };
    expect(problemText(d, "zh")).toBe("「九」不是花色字母；牌要用上面的記法：一萬寫 1m、紅中寫 7z");
    const card = { ...d, field: "draws", params: { letter: "千", position: 0 } };
    expect(problemText(card, "en")).toContain("qt for Thousand Myriads");
  });

  it("names a robbed kong's seat field as the form does, and its edit clears the mark", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              error: {
                code: "invalid_hand",
                message: "discarder: required for a robbed_kong win",
                detail: { why: "robbed_required", field: "discarder", params: {} },
              },
            }),
            { status: 400, headers: { "content-type": "application/json" } },
          ),
      ),
    );
    const { container } = render(<Scorer />);
    await act(async () => {
      fireEvent.click(container.querySelector("[data-action=example]") as HTMLButtonElement);
    });
    await act(async () => {
      fireEvent.change(container.querySelector("#sc-winby") as HTMLSelectElement, {
        target: { value: "robbed_kong" },
      });
    });
    await act(async () => {
      fireEvent.submit(container.querySelector("form") as HTMLFormElement);
    });
    await vi.waitFor(() => expect(container.querySelector("#sc-error")).not.toBeNull());
    expect(container.querySelector("#sc-error")?.textContent).toBe(
      `${t("scorerRobbed")}：請選被搶槓的一家`,
    );
    // an edit elsewhere leaves the problem standing; an edit of its own field clears it
    await act(async () => {
      fireEvent.input(container.querySelector("#sc-wild") as HTMLInputElement, {
        target: { value: "9s" },
      });
    });
    expect(container.querySelector("#sc-discarder")?.getAttribute("aria-invalid")).toBe("true");
    await act(async () => {
      fireEvent.change(container.querySelector("#sc-discarder") as HTMLSelectElement, {
        target: { value: "N" },
      });
    });
    expect(container.querySelector("#sc-error")).toBeNull();
    expect(container.querySelector("[aria-invalid=true]")).toBeNull();
  });
});

describe("a problem's words", () => {
  it("fill every value: tiles and cards named, seats as players, a meld named", () => {
    const d = (why: string, params: Record<string, string | number>) => ({
      why,
      field: "",
      params,
    });
    expect(problemText(d("notation_letter", { letter: "x", text: "9x", position: 1 }), "en")).toBe(
      "“x” is not a suit letter",
    );
    // a fault in a meld's tiles names the meld: the field holds several
    const inMeld = { letter: "x", text: "chow 12x", position: 7, meld: "chow 12x" };
    expect(problemText(d("notation_letter", inMeld), "zh")).toBe(
      "「chow 12x」中：「x」不是花色字母",
    );
    expect(problemText(d("drawn_on_table", { card: "9m" }), "zh")).toBe("9m（九萬）已在桌上");
    expect(
      problemText(d("first_turn_seat", { seat: "S", meld: "pung 777z", flag: "dihu" }), "en"),
    ).toBe(
      "South holds “pung 777z”, but before an Earthly hand only the dealer (East) has had a turn",
    );
    expect(problemText(d("incomplete", { seat: "S" }), "zh")).toBe(
      "南家的牌不成胡：要五組加一對，財神可當任何牌",
    );
    expect(
      problemText(d("meld_size", { meld: "pung 77z", kind: "pung", size: 3, n: 2 }), "zh"),
    ).toBe("「pung 77z」：碰是 3 張，不是 2 張");
    expect(problemText(d("no_such_key", {}), "en")).toBeNull();
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
