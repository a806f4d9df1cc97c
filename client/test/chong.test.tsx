import { act, fireEvent, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CHONG_EXAMPLE,
  CHONG_EXAMPLE_TWINS,
  cardCodes,
  chongErrorPlace,
  holdersOf,
  toChongBody,
} from "../src/games/madiao/Chong";
import { setLang } from "../src/i18n";
import { hashToRoute, routeToHash } from "../src/routes";
import { Scorer } from "../src/screens/Scorer";
import { answer } from "./fixtures/fetch";

afterEach(() => {
  vi.unstubAllGlobals();
  setLang("zh");
});

const sent = (fetch: ReturnType<typeof answer>, call = 0): unknown =>
  JSON.parse(String(fetch.mock.calls[call]?.[1]?.body));

const input = (container: Element, id: string): HTMLInputElement =>
  container.querySelector(`#${id}`) as HTMLInputElement;

function type(container: Element, id: string, value: string): void {
  fireEvent.input(input(container, id), { target: { value } });
}

async function score(container: Element): Promise<void> {
  await act(async () => {
    fireEvent.submit(container.querySelector("#chong form") as HTMLFormElement);
  });
}

describe("the 開沖 form's JSON (Ma Diao rules §7)", () => {
  it("is §7's second example with its capture", () => {
    expect(toChongBody(CHONG_EXAMPLE)).toEqual({
      table: "qt",
      draws: "29t",
      captured: { qt: "bt" },
    });
  });

  it("has no captured field when nothing was captured", () => {
    expect(toChongBody(CHONG_EXAMPLE_TWINS)).toEqual({ table: "98m", draws: "1m2m5m7m" });
    expect(toChongBody({ table: "qt", draws: "2t", captured: { qt: " " } })).toEqual({
      table: "qt",
      draws: "2t",
    });
  });

  it("sends a capture only for a top card on the table", () => {
    // typed for 萬萬, then 萬萬 taken off the table: the field and its value are gone
    const f = { table: "qt", draws: "2t", captured: { wt: "qt", qt: "bt" } };
    expect(toChongBody(f).captured).toEqual({ qt: "bt" });
    expect(holdersOf("wt qt bt 9m")).toEqual(["wt", "qt"]);
    expect(holdersOf("bt")).toEqual([]);
  });

  it("reads capitals, spaces and commas as the notation", () => {
    expect(toChongBody({ table: "9 8M", draws: "1m, 2m", captured: {} })).toEqual({
      table: "98m",
      draws: "1m2m",
    });
    // the preview shows what is a card so far, nothing of the rest
    expect(cardCodes("98m 1t qt x")).toEqual(["9m", "8m", "qt"]);
  });
});

describe("the scorer's routes", () => {
  it("open the Mazhan tab or the 開沖 tab", () => {
    expect(hashToRoute("#/score")).toEqual({ name: "score", game: null });
    expect(hashToRoute("#/score/mazhan")).toEqual({ name: "score", game: "mazhan" });
    expect(hashToRoute("#/score/madiao")).toEqual({ name: "score", game: "madiao" });
    expect(hashToRoute("#/score/poker")).toBeNull();
    for (const hash of ["#/score", "#/score/mazhan", "#/score/madiao"]) {
      const r = hashToRoute(hash);
      expect(r && routeToHash(r)).toBe(hash);
    }
  });

  it("show the tab the route names, the other a link", () => {
    const { container, rerender } = render(<Scorer game="madiao" />);
    const current = () => container.querySelector(".scorer-tabs [aria-current=page]");
    expect(current()?.getAttribute("data-game")).toBe("madiao");
    expect(container.querySelector(".scorer-tabs [data-game=mazhan]")?.getAttribute("href")).toBe(
      "#/score/mazhan",
    );
    expect(container.querySelector("#chong")).not.toBeNull();
    expect(container.querySelector("#sc-wild")).toBeNull();
    // a form typed in survives a look at the other tab
    type(container, "ch-table", "9m");
    rerender(<Scorer game="mazhan" />);
    expect(current()?.getAttribute("data-game")).toBe("mazhan");
    expect(container.querySelector("#sc-wild")).not.toBeNull();
    rerender(<Scorer game="madiao" />);
    expect(input(container, "ch-table").value).toBe("9m");
    // the plain address is the Mazhan hand, as before
    rerender(<Scorer game={null} />);
    expect(current()?.getAttribute("data-game")).toBe("mazhan");
  });
});

describe("the 開沖 page", () => {
  it("scores the rules' example: each draw with its points and the running total", async () => {
    const fetch = answer({ points: [10, 4], total: 14 });
    const { container } = render(<Scorer game="madiao" />);
    fireEvent.click(container.querySelector("[data-action=example]") as HTMLElement);
    expect(input(container, "ch-table").value).toBe("qt");
    expect(input(container, "ch-captured-qt").value).toBe("bt");
    expect(input(container, "ch-draws").value).toBe("29t");
    // the cards typed, previewed as cards
    const preview = [...container.querySelectorAll(".chong-preview .card")];
    expect(preview.map((c) => c.getAttribute("data-card"))).toEqual(["qt", "bt", "2t", "9t"]);
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-result")).not.toBeNull());
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/score/chong");
    expect(sent(fetch)).toEqual({ table: "qt", draws: "29t", captured: { qt: "bt" } });
    const draws = [...container.querySelectorAll("#ch-result .chong-draw")];
    expect(draws.map((d) => [d.getAttribute("data-card"), d.getAttribute("data-points")])).toEqual([
      ["2t", "10"],
      ["9t", "4"],
    ]);
    expect(draws.map((d) => d.querySelector(".chong-points")?.textContent)).toEqual(["+10", "+4"]);
    expect(draws.map((d) => d.querySelector(".chong-running")?.textContent)).toEqual([
      "累計 10",
      "累計 14",
    ]);
    expect(draws[0]?.querySelector(".card")?.getAttribute("aria-label")).toBe("二十萬");
    expect(container.querySelector("#ch-total")?.getAttribute("data-total")).toBe("14");
    expect(container.querySelector("#ch-total")?.textContent).toBe("合計 14 注");
    expect(container.querySelector(".chong-break")).toBeNull();
    // a change to the form takes the result away (it no longer says what the form says)
    type(container, "ch-draws", "2t");
    expect(container.querySelector("#ch-result")).toBeNull();
  });

  it("sends no captured field for §4.9's twins, and links its help to the guide's 開沖", async () => {
    const fetch = answer({ points: [5, 4, 2, 4], total: 15 });
    const { container } = render(<Scorer game="madiao" />);
    fireEvent.click(container.querySelector("[data-action=example-twins]") as HTMLElement);
    expect(container.querySelector("[id^=ch-captured-]")).toBeNull();
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-result")).not.toBeNull());
    expect(sent(fetch)).toEqual({ table: "98m", draws: "1m2m5m7m" });
    expect(container.querySelector("#ch-total")?.textContent).toBe("合計 15 注");
    expect(container.querySelector("#ch-rules")?.getAttribute("href")).toBe("#/rules/madiao");
  });

  it("asks for the draws instead of scoring nothing as 0", async () => {
    const fetch = answer({ points: [], total: 0 });
    const { container } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "9m");
    await score(container);
    expect(fetch).not.toHaveBeenCalled();
    expect(container.querySelector("#ch-result")).toBeNull();
    expect(input(container, "ch-draws").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement?.id).toBe("ch-draws");
  });

  it("shows a draw that scores nothing as 斷沖, in both languages", async () => {
    const fetch = answer({ points: [0, 3], total: 3 });
    const { container } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "8m");
    type(container, "ch-draws", "7m9m");
    expect(container.querySelector("#ch-captured-qt")).toBeNull();
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-result")).not.toBeNull());
    expect(sent(fetch)).toEqual({ table: "8m", draws: "7m9m" });
    const broken = container.querySelector(".chong-draw[data-draw='1']");
    expect(broken?.classList.contains("broken")).toBe(true);
    expect(broken?.querySelector(".chong-points")?.textContent).toBe("斷沖");
    expect(broken?.querySelector(".chong-running")?.textContent).toBe("累計 0");
    expect(container.querySelector(".chong-break")?.textContent).toContain("不加入");
    expect(container.querySelector("#ch-total")?.textContent).toBe("合計 3 注");
    await act(() => setLang("en"));
    expect(broken?.querySelector(".chong-points")?.textContent).toBe("斷沖");
    expect(container.querySelector(".chong-break")?.textContent).toContain("not added");
    expect(container.querySelector("#ch-total")?.textContent).toBe("Total: 3 points");
  });

  it("marks the field the server's error names, and focuses it", async () => {
    const message = "draws: 9m (九萬) is already on the table";
    const fetch = answer({ error: { code: "invalid_hand", message } }, 400);
    const { container } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "9m");
    type(container, "ch-draws", "9m");
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-error")).not.toBeNull());
    expect(fetch).toHaveBeenCalledOnce();
    expect(container.querySelector("#ch-error")?.textContent).toBe(
      "翻出的牌（依序）：9m (九萬) is already on the table",
    );
    expect(container.querySelector("#ch-error")?.getAttribute("data-field")).toBe("ch-draws");
    expect(input(container, "ch-draws").getAttribute("aria-invalid")).toBe("true");
    expect(input(container, "ch-table").getAttribute("aria-invalid")).toBeNull();
    expect(document.activeElement?.id).toBe("ch-draws");
    expect(container.querySelector("#ch-result")).toBeNull();
  });

  it("marks a capture's error on the top card's field", async () => {
    const message = "captured: bt appears elsewhere";
    answer({ error: { code: "invalid_hand", message } }, 400);
    const { container } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "wtqt");
    type(container, "ch-captured-wt", "");
    type(container, "ch-captured-qt", "bt");
    type(container, "ch-draws", "bt");
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-error")).not.toBeNull());
    expect(input(container, "ch-captured-qt").getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement?.id).toBe("ch-captured-qt");
  });

  it("words the server's detail in the page's language, on the captor's field", async () => {
    const message = "captured: qt cannot capture the higher wt";
    const detail = {
      why: "captive_higher",
      field: "captured",
      params: { card: "wt", captor: "qt" },
    };
    answer({ error: { code: "invalid_hand", message, detail } }, 400);
    const { container } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "qtbt");
    type(container, "ch-captured-qt", "wt");
    type(container, "ch-draws", "9t");
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-error")).not.toBeNull());
    const text = container.querySelector("#ch-error")?.textContent ?? "";
    expect(text).toContain("不能捉比它大的");
    expect(text).not.toContain("cannot");
    expect(input(container, "ch-captured-qt").getAttribute("aria-invalid")).toBe("true");
    expect(container.querySelector("#ch-captured-qt-problem")?.textContent).toContain("不能捉");
    expect(document.activeElement?.id).toBe("ch-captured-qt");
  });

  it("rewords its problem on a switch of language, and does not jump back to it on a tab's return", async () => {
    const detail = { why: "drawn_twice", field: "draws", params: { card: "8m" } };
    answer({ error: { code: "invalid_hand", message: "draws: 8m is drawn twice", detail } }, 400);
    const { container, rerender } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "9m");
    type(container, "ch-draws", "88m");
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-error")).not.toBeNull());
    expect(container.querySelector("#ch-error")?.textContent).toContain("摸了兩次");
    expect(document.activeElement?.id).toBe("ch-draws");
    await act(() => setLang("en"));
    expect(container.querySelector("#ch-error")?.textContent).toContain("is drawn twice");
    expect(container.querySelector("#ch-error")?.textContent).not.toContain("摸了兩次");
    await act(() => setLang("zh"));
    // to the Mazhan tab and back: the problem is still there, the focus stays where it is
    (document.activeElement as HTMLElement | null)?.blur();
    rerender(<Scorer game="mazhan" />);
    rerender(<Scorer game="madiao" />);
    expect(container.querySelector("#ch-error")?.textContent).toContain("摸了兩次");
    expect(document.activeElement?.id).not.toBe("ch-draws");
  });

  it("marks a capture's notation fault on the field it quotes", async () => {
    const detail = {
      why: "notation_letter",
      field: "captured",
      params: { letter: "x", text: "5x", position: 1 },
    };
    const message = "captured: unknown suit letter 'x' in '5x' at position 1";
    answer({ error: { code: "invalid_hand", message, detail } }, 400);
    const { container } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "wtqt");
    type(container, "ch-captured-qt", "bt");
    type(container, "ch-captured-wt", "5x");
    type(container, "ch-draws", "9t");
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-error")).not.toBeNull());
    expect(input(container, "ch-captured-wt").getAttribute("aria-invalid")).toBe("true");
    expect(input(container, "ch-captured-qt").getAttribute("aria-invalid")).toBeNull();
  });

  it("says a refusal for speed in the page's words", async () => {
    answer({ error: { code: "rate_limited", message: "too many" } }, 429);
    const { container } = render(<Scorer game="madiao" />);
    type(container, "ch-table", "9m");
    type(container, "ch-draws", "8m");
    await score(container);
    await vi.waitFor(() => expect(container.querySelector("#ch-error")).not.toBeNull());
    expect(container.querySelector("#ch-error")?.textContent).not.toContain("too many");
    expect(container.querySelector("#ch-error")?.getAttribute("data-field")).toBeNull();
  });
});

describe("the 開沖 error's place", () => {
  it("names table, draws or the top card whose capture is wrong", () => {
    const body = { table: "wtqt", draws: "9t", captured: { wt: "qt", qt: "bt" } };
    expect(chongErrorPlace("table: 9m (九萬) appears twice", body)).toEqual({
      field: "table",
      id: "ch-table",
      text: "9m (九萬) appears twice",
    });
    expect(chongErrorPlace("captured: qt cannot capture the higher wt", body).id).toBe(
      "ch-captured-qt",
    );
    // a card it took named: the captor's field
    expect(chongErrorPlace("captured: bt appears elsewhere", body).id).toBe("ch-captured-qt");
    expect(chongErrorPlace("captured: keys and values are card strings", body).id).toBe(
      "ch-captured-wt",
    );
    expect(chongErrorPlace("input: missing field 'draws'", body)).toEqual({
      field: null,
      id: null,
      text: "input: missing field 'draws'",
    });
  });
});
