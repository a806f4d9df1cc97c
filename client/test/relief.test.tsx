import { act, fireEvent, render } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLang } from "../src/i18n";
import { me } from "../src/state/connection";
import { Relief } from "../src/widgets/Relief";
import { answer } from "./fixtures/fetch";

afterEach(() => {
  vi.unstubAllGlobals();
  setLang("zh");
  me.value = null;
});

const STATUS = {
  eligible: true,
  why: null,
  amount: 700,
  balance: 100,
  floor: 800,
  claimed_today: 0,
  per_day: 1,
  next_day_at: 1_772_380_800,
};

async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((done) => setTimeout(done, 0));
  });
}

describe("the relief button in the lobby (GET/POST /api/relief)", () => {
  it("offers the amount, claims it and shows the new balance", async () => {
    setLang("en");
    me.value = { name: "ana", balance: 100 };
    const fetch = answer(STATUS);
    const { container } = render(<Relief />);
    await settle();
    const button = container.querySelector<HTMLButtonElement>("[data-action=relief]");
    expect(button?.textContent).toBe("Claim 700 relief points");
    const after = { ...STATUS, eligible: false, why: "balance_enough", amount: 0, balance: 800 };
    answer({ given: 700, balance: 800, status: after });
    fireEvent.click(button as HTMLButtonElement);
    await settle();
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/relief");
    expect(me.value?.balance).toBe(800);
    expect(container.textContent).toContain("700 points added");
    expect(container.querySelector("[data-action=relief]")).toBeNull();
  });

  it("says when the day's relief is used, in Chinese", async () => {
    answer({ ...STATUS, eligible: false, why: "relief_claimed", amount: 0 });
    const { container } = render(<Relief />);
    await settle();
    expect(container.textContent).toContain("明天可再領救濟金");
  });

  it("shows nothing to a player with points enough", async () => {
    answer({ ...STATUS, eligible: false, why: "balance_enough", amount: 0, balance: 5000 });
    const { container } = render(<Relief />);
    await settle();
    expect(container.querySelector("#relief")).toBeNull();
  });
});
