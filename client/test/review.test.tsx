import { act, fireEvent, render, waitFor } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { gameUi } from "../src/games";
import { setLang, TABLES } from "../src/i18n";
import type { HandReview, ReplayStep } from "../src/net/api";
import type { View } from "../src/protocol";
import { Replay } from "../src/screens/Replay";
import { TableScreen } from "../src/screens/TableScreen";
import { route } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { PROGRESS_MS, requestReview, reviews } from "../src/state/review";
import { clearTable } from "../src/state/table";
import type { BoardMark } from "../src/widgets/board";
import { estimate, ReviewPanel } from "../src/widgets/ReviewPanel";
import { answer } from "./fixtures/fetch";
import { person, settlementFrame, sitAt, tableFrame, viewFrame } from "./fixtures/frames";
import { trickView } from "./fixtures/madiao";
import { actView, claimView, overView } from "./fixtures/mazhan";

const v = (mean: number, lo: number | null, hi: number | null) => ({ mean, lo, hi, n: 16 });

/** South's review of hand 5: a discard where the expert kept 1m (beyond the noise), a pass
 *  where it would have punged (within the noise), a decision played as the expert. */
const REVIEW: HandReview = {
  game: "mazhan",
  hand: 5,
  seat: "S",
  unit: "胡",
  seed: 0,
  worlds: 16,
  rollout: "strong",
  expert: "expert",
  decisions: 3,
  agreement: 0.3333,
  total_loss: 17,
  summary:
    "S: 1/3 as the expert (33%); estimated loss 17.0 胡 over 2 that differ (1 beyond the noise)",
  ranked: [7, 3],
  flagged: [7],
  items: [
    {
      step: 1,
      kind: "discard",
      played: "S discard 9p",
      expert: "S discard 9p",
      legal: 14,
      agrees: true,
      played_value: null,
      expert_value: null,
      loss: null,
    },
    {
      step: 3,
      kind: "claim or pass",
      played: "S pass",
      expert: "S peng",
      legal: 3,
      agrees: false,
      played_value: v(-20, -60, 20),
      expert_value: v(-15, -50, 20),
      loss: v(5, -10, 20),
    },
    {
      step: 7,
      kind: "discard",
      played: "S discard 1m",
      expert: "S discard 5m",
      legal: 4,
      agrees: false,
      played_value: v(-10, -30, 10),
      expert_value: v(2, -18, 22),
      loss: v(12, 2, 22),
    },
  ],
};

/** The replay's answer at a step: the claim window at 3, the discard at 7, else the turn. */
function replayAt(step: number): ReplayStep {
  const view: View = step === 3 ? claimView : actView;
  return {
    game: "mazhan",
    seat: "S",
    step,
    steps: 20,
    last: step ? "E discard 5m" : null,
    view,
    views: {},
    actions: Array.from({ length: 20 }, () => "E discard 5m"),
    events: [],
    names: {},
  };
}

/** A fetch that answers the replay, the review (`review`, or an error) and the lists. */
function server(review: { status: number; body: unknown } = { status: 200, body: REVIEW }) {
  const fetch = vi.fn(async (path: string) => {
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json" },
      });
    const m = /replay\?step=(\d+)/.exec(path);
    if (m) return json(replayAt(Number(m[1])));
    if (path.includes("/review")) return json(review.body, review.status);
    if (path === "/api/hands") return json({ hands: [] });
    return json({ entries: [] });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

const text = (el: Element | null): string => el?.textContent ?? "";

afterEach(() => {
  vi.unstubAllGlobals();
  act(() => {
    reviews.value = {};
    clearTable();
  });
  setLang("zh");
});

describe("the review panel", () => {
  it("says the summary and lists the differences, largest estimated loss first", () => {
    reviews.value = { 5: { status: "done", review: REVIEW } };
    const picked: number[] = [];
    const { container } = render(
      <ReviewPanel hand={5} step={null} onPick={(s) => picked.push(s)} />,
    );
    expect(text(container.querySelector(".review-summary"))).toBe(
      "3 個決定中有 1 個與高手相同（33%）· 估計損失 +17.0 胡",
    );
    const rows = [...container.querySelectorAll<HTMLButtonElement>(".review-item")];
    expect(rows.map((r) => r.dataset.step)).toEqual(["7", "3"]);
    // the one beyond the noise stands out; each says both choices and the loss
    expect(rows.map((r) => r.classList.contains("sure"))).toEqual([true, false]);
    expect(text(rows[0] as Element)).toContain("你 打 一萬");
    expect(text(rows[0] as Element)).toContain("高手 打 五萬");
    expect(text(rows[0] as Element)).toContain("+12.0 [+2, +22] 胡");
    fireEvent.click(rows[1] as Element);
    expect(picked).toEqual([3]);
  });

  it("shows the decision at the replay's step: both values, the loss, the way on", () => {
    setLang("en");
    reviews.value = { 5: { status: "done", review: REVIEW } };
    const picked: number[] = [];
    const { container } = render(
      <ReviewPanel hand={5} step={7} view={actView} onPick={(s) => picked.push(s)} />,
    );
    const card = container.querySelector(".review-current[data-step='7']") as Element;
    expect(text(card)).toContain("1 of 2 · Move 8 · Discard");
    // at its own view the choices read as their buttons did
    expect(text(card.querySelector("[data-who=you]"))).toBe(
      "You Discard 1 Character · worth -10.0 [-30, +10]\u00a0hu points",
    );
    expect(text(card.querySelector("[data-who=expert]"))).toBe(
      "Expert Discard 5 Characters · worth +2.0 [-18, +22]\u00a0hu points",
    );
    expect(text(card.querySelector(".review-loss"))).toBe(
      "loss +12.0 [+2, +22]\u00a0hu points beyond the noise",
    );
    // the list folds away (the board needs the room), its toggle brings it back
    expect(container.querySelector(".review-list")).toBeNull();
    fireEvent.click(container.querySelector("[data-action=review-list]") as Element);
    expect(container.querySelectorAll(".review-item")).toHaveLength(2);
    expect(container.querySelector("li.current [data-step='7']")).not.toBeNull();
    const prev = container.querySelector("[data-action=review-prev]") as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    fireEvent.click(container.querySelector("[data-action=review-next]") as Element);
    expect(picked).toEqual([3]);
  });

  it("counts the seconds while the review runs, and the decisions once counted", () => {
    reviews.value = { 5: { status: "running", since: Date.now() - 3_200, done: 0, total: 0 } };
    const { container } = render(<ReviewPanel hand={5} step={null} onPick={() => {}} />);
    expect(text(container.querySelector("[role=status]"))).toBe(
      "復盤中… 3 秒高手正在與你所見相符的多種牌局中推演你的每個決定，需要幾秒鐘。",
    );
    expect(container.querySelector(".review-bar.known")).toBeNull();
    act(() => {
      reviews.value = { 5: { status: "running", since: Date.now(), done: 2, total: 8 } };
    });
    expect(text(container.querySelector("[role=status] p"))).toBe(
      "復盤中… 0 秒 · 已復盤 2 / 8 個決定",
    );
    const bar = container.querySelector(".review-bar.known > span") as HTMLElement;
    expect(bar.style.width).toBe("25%");
  });

  it("says no difference when every decision was the expert's", () => {
    const same = { ...REVIEW, ranked: [], flagged: [], items: REVIEW.items.slice(0, 1) };
    reviews.value = { 5: { status: "done", review: { ...same, decisions: 1, agreement: 1 } } };
    const { container } = render(<ReviewPanel hand={5} step={null} onPick={() => {}} />);
    expect(text(container)).toContain("你的每個決定都與高手相同");
    expect(container.querySelector(".review-list")).toBeNull();
  });

  it("words every refusal of the route in both languages, and asks again", async () => {
    const codes = [
      "unknown_hand",
      "forbidden",
      "busy",
      "unavailable",
      "internal",
      "unauthorized",
      "rate_limited",
      "storage_unavailable",
      "network",
    ];
    for (const lang of ["zh", "en"] as const) {
      setLang(lang);
      const seen = new Set<string>();
      for (const code of codes) {
        reviews.value = { 5: { status: "error", code } };
        const { container, unmount } = render(
          <ReviewPanel hand={5} step={null} onPick={() => {}} />,
        );
        const said = text(container.querySelector("[role=alert] .error"));
        expect(said, code).not.toBe(TABLES[lang].errors.other);
        seen.add(said);
        unmount();
      }
      // the review's own words for its own refusals: not one generic line for all
      expect(seen.size).toBeGreaterThanOrEqual(codes.length - 1);
    }
    setLang("zh");
    reviews.value = { 5: { status: "error", code: "busy" } };
    const fetch = answer(REVIEW);
    const { container } = render(<ReviewPanel hand={5} step={null} onPick={() => {}} />);
    expect(text(container)).toContain("高手正在復盤其他牌局");
    fireEvent.click(container.querySelector("[data-action=review-retry]") as Element);
    await waitFor(() => expect(container.querySelector(".review-summary")).not.toBeNull());
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("asking for a review", () => {
  it("asks once for this player's seat, and keeps the answer", async () => {
    const fetch = answer(REVIEW);
    const first = requestReview(5, "S", () => 1000);
    expect(reviews.value[5]).toEqual({ status: "running", since: 1000, done: 0, total: 0 });
    await requestReview(5, "S"); // under way: not asked again
    await first;
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/hands/5/review?seat=S");
    expect(reviews.value[5]).toEqual({ status: "done", review: REVIEW });
    await requestReview(5, "S");
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("asks how far the review has come while it runs, and stops asking once done", async () => {
    vi.useFakeTimers();
    try {
      let finish: (r: Response) => void = () => {};
      const json = (body: unknown) =>
        new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
      const fetch = vi.fn((path: string) =>
        path.endsWith("/progress?seat=S")
          ? Promise.resolve(json({ state: "running", done: 3, total: 9 }))
          : new Promise<Response>((resolve) => {
              finish = resolve;
            }),
      );
      vi.stubGlobal("fetch", fetch);
      const asked = requestReview(8, "S", () => 0);
      await vi.advanceTimersByTimeAsync(PROGRESS_MS);
      expect(reviews.value[8]).toEqual({ status: "running", since: 0, done: 3, total: 9 });
      expect(fetch.mock.calls.map((c) => c[0])).toEqual([
        "/api/hands/8/review?seat=S",
        "/api/hands/8/review/progress?seat=S",
      ]);
      finish(json(REVIEW));
      await asked;
      expect(reviews.value[8]?.status).toBe("done");
      await vi.advanceTimersByTimeAsync(5 * PROGRESS_MS);
      expect(fetch).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the server's refusal by its code (then it may be asked again)", async () => {
    answer({ error: { code: "forbidden", message: "you sat in E" } }, 403);
    await requestReview(6, "S");
    expect(reviews.value[6]).toEqual({ status: "error", code: "forbidden" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("offline");
      }),
    );
    await requestReview(6, "S");
    expect(reviews.value[6]).toEqual({ status: "error", code: "network" });
  });

  it("writes an estimate as its mean and its interval", () => {
    expect(estimate(v(12, 2.4, 21.6))).toBe("+12.0 [+2, +22]");
    expect(estimate(v(-0.04, null, null))).toBe("0.0");
    expect(estimate(v(-3.26, -10, 3))).toBe("-3.3 [-10, +3]");
  });
});

describe("the board at a difference", () => {
  const board = (view: View, marks: BoardMark[]) => {
    const ui = gameUi(view.game);
    if (!ui) throw new Error("no game");
    return render(
      <ui.Board
        view={view}
        names={{ E: null, S: null, W: null, N: null }}
        clock={null}
        pending={null}
        version={1}
        onAction={() => {}}
        readOnly
        marks={marks}
      />,
    );
  };

  it("marks the two discards on their tiles (the rightmost copy)", () => {
    const { container } = board(actView, [
      { action: "S discard 1m", who: "you" },
      { action: "S discard 5m", who: "expert" },
    ]);
    const you = container.querySelectorAll(".hand .marked-piece[data-mark=you] [data-tile]");
    const expert = container.querySelectorAll(".hand .marked-piece[data-mark=expert] [data-tile]");
    expect([...you].map((t) => t.getAttribute("data-tile"))).toEqual(["1m"]);
    expect([...expert].map((t) => t.getAttribute("data-tile"))).toEqual(["5m"]);
    // of the two 1m, the second (as the hint marks one copy)
    const tiles = [...container.querySelectorAll(".hand .hand-tiles > *")];
    expect(tiles[1]?.classList.contains("marked-piece")).toBe(true);
    expect(tiles[0]?.classList.contains("marked-piece")).toBe(false);
    expect(text(container.querySelector(".marked-piece[data-mark=you] .review-mark"))).toBe("你");
    // a discard against a discard: no prompt shown
    expect(container.querySelector(".review-dock")).toBeNull();
  });

  it("marks a claim and a pass on the prompt the seat had, which does nothing", () => {
    const { container } = board(claimView, [
      { action: "S pass", who: "you" },
      { action: "S peng", who: "expert" },
    ]);
    const pass = container.querySelector(".review-dock .act[data-action='S pass']");
    const peng = container.querySelector(".review-dock .act[data-action='S peng']");
    expect(pass?.getAttribute("data-mark")).toBe("you");
    expect(peng?.getAttribute("data-mark")).toBe("expert");
    expect((peng as HTMLButtonElement).disabled).toBe(true);
    expect(peng?.getAttribute("aria-label")).toContain("高手的選擇");
    // the chow nobody chose is there, unmarked
    const chow = container.querySelector(".review-dock .act[data-action='S chi 456m']");
    expect(chow?.getAttribute("data-mark")).toBeNull();
  });

  it("marks Ma Diao's two plays on their cards, and two plays of one card on its choices", () => {
    const { container, unmount } = board(trickView, [
      { action: "W zhuo 8m", who: "you" },
      { action: "W mie 2t", who: "expert" },
    ]);
    expect(container.querySelector(".marked-piece[data-mark=you] [data-card='8m']")).not.toBeNull();
    expect(
      container.querySelector(".marked-piece[data-mark=expert] [data-card='2t']"),
    ).not.toBeNull();
    expect(container.querySelector(".prompt")).toBeNull();
    unmount();
    const same = board(trickView, [
      { action: "W zhuo 8m", who: "you" },
      { action: "W mie 8m", who: "expert" },
    ]).container;
    expect(
      same.querySelector(".marked-piece[data-mark='you expert'] [data-card='8m']"),
    ).not.toBeNull();
    expect(same.querySelector(".act[data-action='W zhuo 8m']")?.getAttribute("data-mark")).toBe(
      "you",
    );
    expect(same.querySelector(".act[data-action='W mie 8m']")?.getAttribute("data-mark")).toBe(
      "expert",
    );
  });
});

describe("the replay and the settlement", () => {
  it("steps the replay to a difference and marks both choices there", async () => {
    server();
    reviews.value = { 5: { status: "done", review: REVIEW } };
    const { container, rerender } = render(<Replay hand={5} step={7} />);
    await waitFor(() =>
      expect(container.querySelector("#replay-head")?.getAttribute("data-step")).toBe("7"),
    );
    expect(container.querySelector(".table [data-mark=you] [data-tile='1m']")).not.toBeNull();
    expect(container.querySelector(".table [data-mark=expert] [data-tile='5m']")).not.toBeNull();
    // the next difference: the route moves to its step, and there the prompt is marked
    fireEvent.click(container.querySelector("[data-action=review-next]") as Element);
    expect(route.value).toEqual({ name: "replay", hand: 5, step: 3 });
    rerender(<Replay hand={5} step={3} />);
    await waitFor(() =>
      expect(container.querySelector(".act[data-action='S peng']")?.getAttribute("data-mark")).toBe(
        "expert",
      ),
    );
    expect(container.querySelector(".review-current")?.getAttribute("data-step")).toBe("3");
    // a step that is no difference: nothing marked, the list to pick from
    rerender(<Replay hand={5} step={4} />);
    await waitFor(() =>
      expect(container.querySelector("#replay-head")?.getAttribute("data-step")).toBe("4"),
    );
    expect(container.querySelector(".table [data-mark]")).toBeNull();
    expect(container.querySelectorAll(".review-item")).toHaveLength(2);
  });

  it("asks for the review from the replay's own button", async () => {
    const fetch = server();
    const { container } = render(<Replay hand={5} step={0} />);
    await waitFor(() =>
      expect(container.querySelector("#replay-head")?.getAttribute("data-step")).toBe("0"),
    );
    expect(container.querySelector(".review-panel")).toBeNull();
    fireEvent.click(container.querySelector(".replay-controls [data-action=review]") as Element);
    await waitFor(() => expect(container.querySelector(".review-summary")).not.toBeNull());
    expect(fetch.mock.calls.map((c) => c[0])).toContain("/api/hands/5/review?seat=S");
    fireEvent.click(container.querySelector(".review-item[data-step='7']") as Element);
    expect(route.value).toEqual({ name: "replay", hand: 5, step: 7 });
  });

  it("offers the review on the settlement, and opens the replay at a difference", async () => {
    const fetch = server({ status: 200, body: { ...REVIEW, hand: 3 } });
    act(() => {
      sitAt("S");
      handle(tableFrame({ E: person("a", true), S: person("me"), W: person("c", true), N: null }));
      handle(viewFrame(overView));
      handle(settlementFrame());
    });
    const { container } = render(<TableScreen />);
    const button = container.querySelector("#result [data-action=review]") as HTMLButtonElement;
    expect(text(button)).toBe("復盤");
    fireEvent.click(button);
    await waitFor(() => expect(container.querySelector("#result .review-summary")).not.toBeNull());
    expect(fetch.mock.calls.map((c) => c[0])).toContain("/api/hands/3/review?seat=S");
    fireEvent.click(container.querySelector("#result .review-item[data-step='3']") as Element);
    expect(route.value).toEqual({ name: "replay", hand: 3, step: 3 });
  });

  it("takes a player in the replay back to the table when the next hand starts", () => {
    act(() => {
      sitAt("S");
      handle(tableFrame({ E: person("a", true), S: person("me"), W: person("c", true), N: null }));
      route.value = { name: "replay", hand: 3, step: 7 };
      handle({ type: "hand_start", hand: 4, seat: "S", stake: 10, fee: 10, balance: 4980 });
    });
    expect(route.value).toEqual({ name: "table" });
  });

  it("shows the server's refusal in the replay", async () => {
    server({ status: 503, body: { error: { code: "busy", message: "busy" } } });
    const { container } = render(<Replay hand={5} step={0} />);
    fireEvent.click(container.querySelector(".replay-controls [data-action=review]") as Element);
    await waitFor(() => expect(container.querySelector("[data-review-error=busy]")).not.toBeNull());
    expect(text(container.querySelector("[data-review-error=busy]"))).toContain(
      "高手正在復盤其他牌局",
    );
  });
});
