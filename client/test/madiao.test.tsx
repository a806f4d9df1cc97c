import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { MadiaoTable } from "../src/games/madiao/Board";
import { Card, cardShortEn } from "../src/games/madiao/Card";
import { setLang, TABLES } from "../src/i18n";
import type { MadiaoView, Seat, SeatInfo } from "../src/protocol";
import { trickView } from "./fixtures/madiao";

const names: Record<Seat, SeatInfo | null> = { E: null, S: null, W: null, N: null };

/** The table as its view's seat sees it, no clock, nothing pending. */
const tableOf = (view: MadiaoView, onAction: (action: string) => void = vi.fn()) => (
  <MadiaoTable
    view={view}
    names={names}
    clock={null}
    pending={null}
    version={9}
    onAction={onAction}
  />
);

describe("the Ma Diao table", () => {
  it("shows the trick with its leader, face-down plays hidden", () => {
    const { container } = render(tableOf(trickView, vi.fn()));
    const plays = container.querySelectorAll(".trick-play");
    expect(plays).toHaveLength(2);
    expect(plays[0]?.classList.contains("leader")).toBe(true);
    expect(plays[0]?.querySelector("[data-card]")?.getAttribute("data-card")).toBe("7m");
    expect(plays[1]?.querySelector("[data-card]")).toBeNull();
    expect(container.querySelector(".trick-play.at-top")?.getAttribute("data-seat")).toBe("E");
  });

  it("shows your own face-down cards to you and only counts the others'", () => {
    const { container } = render(tableOf(trickView, vi.fn()));
    const mine = container.querySelector('.my-area .face-down [data-card="7c"]');
    expect(mine).not.toBeNull();
    const south = container.querySelector('.seat-area[data-seat="S"] .face-down');
    // another seat's: one back and the count (a row of backs wrapped on a phone)
    expect(south?.querySelectorAll(".card.back")).toHaveLength(1);
    expect(south?.querySelector(".face-down-count")?.textContent).toBe("×2");
    expect(south?.getAttribute("aria-label")).toContain("2");
  });

  it("says the tricks are done once the hand is over, not who is to lead", () => {
    const over = { ...trickView, phase: "over" as const, trick_no: 8, legal: [], my_turn: false };
    const { container } = render(tableOf(over, vi.fn()));
    const info = container.querySelector(".trick-info")?.textContent ?? "";
    expect(info).toContain("八墩已打完");
    expect(info).not.toContain("輪到");
  });

  it("plays a card with one legal action at once, and asks when it has two", () => {
    const onAction = vi.fn();
    const { container } = render(tableOf(trickView, onAction));
    fireEvent.click(screen.getByRole("button", { name: "滅 萬萬" }));
    expect(onAction).toHaveBeenLastCalledWith("W mie wt");
    const eight = container.querySelector('button[data-card="8m"]') as HTMLButtonElement;
    fireEvent.click(eight);
    expect(onAction).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "捉 八萬" }));
    expect(onAction).toHaveBeenLastCalledWith("W zhuo 8m");
  });
});

describe("a card in English", () => {
  it("carries a short English label at its foot; in Chinese only the glyphs", () => {
    setLang("en");
    const { container, rerender } = render(<Card code="4t" size="lg" />);
    expect(container.querySelector(".card-en")?.textContent).toBe("Forty");
    expect(cardShortEn("4m")).toBe("4 Myr");
    expect(cardShortEn("0c")).toBe("Empty");
    expect(cardShortEn("hc")).toBe("½ Coin");
    expect(cardShortEn("wt")).toBe("Myr·Myr");
    expect(cardShortEn("9s")).toBe("9 Str");
    expect(cardShortEn("1c")).toBe("1 Coin");
    setLang("zh");
    rerender(<Card code="4t" size="lg" />);
    expect(container.querySelector(".card-en")).toBeNull();
  });

  it("names each of the 40 cards differently, in 7 characters at most", () => {
    const codes = Object.keys(TABLES.en.cards).filter((c) =>
      /^[wqb2-9]t$|^[1-9][ms]$|^[0h1-9]c$/.test(c),
    );
    expect(codes).toHaveLength(40);
    const shorts = codes.map(cardShortEn);
    expect(new Set(shorts).size).toBe(40);
    for (const s of shorts) expect([...s].length).toBeLessThanOrEqual(7);
  });

  it("shows the card's name at the foot of a small card too (a phone has no tooltip)", () => {
    setLang("en");
    const { container } = render(<Card code="9t" size="sm" />);
    expect(container.querySelector(".card-en")?.textContent).toBe("Ninety");
    setLang("zh");
  });
});

describe("the trick area", () => {
  it("is marked empty (compact on a phone) until a card is played", () => {
    const props = { names, clock: null, pending: null, version: 9, onAction: vi.fn() };
    const { container, rerender } = render(<MadiaoTable {...props} view={trickView} />);
    expect(container.querySelector(".trick-area.empty")).toBeNull();
    const fresh = { ...trickView, trick: { leader: "E" as const, plays: [] } };
    rerender(<MadiaoTable {...props} view={fresh} />);
    expect(container.querySelector(".trick-area.empty")).not.toBeNull();
  });
});
