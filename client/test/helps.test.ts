// The new logic of issue 36: the waits a discard would leave and what is left of each (from
// the player's own view only), the remembered settings, the tap that raises before it plays.
import { describe, expect, it } from "vitest";
import {
  afterDiscard,
  faceIndex,
  isComplete,
  seenCounts,
  shownWaits,
  waitsOf,
} from "../src/games/mazhan/waits";
import type { MazhanView } from "../src/protocol";
import {
  DEFAULT_PREFS,
  loadPrefs,
  motionFor,
  PREFS_KEY,
  type PrefsStorage,
  savePrefs,
} from "../src/state/prefs";
import { isSwipeUp, LOWERED, pointerOf, tap } from "../src/widgets/tap";
import { actView } from "./fixtures/mazhan";
import known from "./fixtures/mazhan-waits.json";

describe("waits from the player's own tiles", () => {
  it("finds complete hands, the ★ standing for any face", () => {
    expect(isComplete(["1m", "2m", "3m", "5p", "5p"], "9s")).toBe(true);
    expect(isComplete(["1m", "2m", "9s", "5p", "5p"], "9s")).toBe(true); // ★ as 3m
    expect(isComplete(["8m", "9m", "9s", "5p", "5p"], "9s")).toBe(true); // ★ as 7m
    expect(isComplete(["1m", "2m", "4m", "5p", "5p"], "9s")).toBe(false);
    expect(isComplete(["1z", "2z", "3z", "5p", "5p"], "9s")).toBe(false); // no runs of winds
  });

  it("agrees with the engine's waiting_faces on 240 seeded hands (less the wild's face)", () => {
    for (const c of known as { hand: string[]; wild: string; waits: string[] }[]) {
      expect([...waitsOf(c.hand, c.wild)].sort(), `${c.hand.join("")} ★${c.wild}`).toEqual(
        [...c.waits].sort(),
      );
    }
  });

  it("never lists the wild's face, nor a face the hand holds all four of", () => {
    // 12m with a pair: waits on 3m; a ★ would do too, but the wild's face is no wait to show
    expect(waitsOf(["1m", "2m", "5p", "5p"], "9s")).toEqual(["3m"]);
    expect(waitsOf(["1m", "2m", "5p", "5p"], "3m")).toEqual([]);
    // 1111m 555p: only a fifth 1m would complete it, and there is none
    expect(waitsOf(["1m", "1m", "1m", "1m", "5p", "5p", "5p"], "9s")).toEqual([]);
  });

  it("counts what this seat has seen: its hand, the melds, the untaken discards, the indicator", () => {
    const seen = seenCounts(actView);
    const at = (code: string) => seen[faceIndex(code)];
    expect(at("5m")).toBe(2); // the drawn tile and North's discard
    expect(at("3m")).toBe(2); // in hand, and in East's chow
    // East's 2s taken into South's pung is counted once, with the pung and the hand's 2s
    expect(at("2s")).toBe(4);
    expect(at("9s")).toBe(2); // the wild in hand and the indicator
    expect(at("6m")).toBe(0);
    // another seat's concealed kong is face down: nothing of it is counted
    expect(seen.reduce((a, b) => a + b, 0)).toBeLessThan(60);
  });

  it("shows the view's waits without the wild's face, with what is left of each", () => {
    const view: MazhanView = { ...actView, waits: ["3m", "6m", "9s"] };
    expect(shownWaits(view)).toEqual([
      { tile: "3m", left: 2 },
      { tile: "6m", left: 4 },
    ]);
  });

  it("says what a discard would leave", () => {
    const view: MazhanView = {
      ...actView,
      hand: ["1m", "2m", "3m", "4p", "5p", "6p", "7p", "8p", "9p", "2s", "3s", "4s", "7z"],
      drawn: "5m",
      seats: { ...actView.seats, S: { ...actView.seats.S, melds: [actView.seats.S.melds[0]!] } },
    };
    // 13 + drawn, one meld: discarding 7z leaves 5m alone, a pair wait on 5m
    expect(afterDiscard(view, 12)).toEqual([{ tile: "5m", left: 2 }]);
    // discarding the drawn 5m leaves 7z alone: a wait on 7z, dead (East's pung of 中 and
    // this one: all four seen)
    expect(afterDiscard(view, 13)).toEqual([{ tile: "7z", left: 0 }]);
    // discarding 2m breaks a run: no wait
    expect(afterDiscard(view, 1)).toBeNull();
  });
});

class MemoryStorage implements PrefsStorage {
  map = new Map<string, string>();
  getItem(k: string): string | null {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.map.set(k, v);
  }
}

describe("the table's settings", () => {
  it("start with sound off, motion as the system says, no helps", () => {
    expect(loadPrefs(new MemoryStorage())).toEqual(DEFAULT_PREFS);
    expect(loadPrefs(null)).toEqual(DEFAULT_PREFS);
    expect(DEFAULT_PREFS.sound).toBe(false);
  });

  it("are remembered, and anything unreadable is the default", () => {
    const s = new MemoryStorage();
    savePrefs(s, { sound: true, motion: "off", autoWin: true, autoPass: false });
    expect(loadPrefs(s)).toEqual({ sound: true, motion: "off", autoWin: true, autoPass: false });
    s.setItem(PREFS_KEY, '{"sound": "yes", "motion": "fast", "autoPass": true}');
    expect(loadPrefs(s)).toEqual({ ...DEFAULT_PREFS, autoPass: true });
    s.setItem(PREFS_KEY, "{not json");
    expect(loadPrefs(s)).toEqual(DEFAULT_PREFS);
  });

  it("move as the system asks unless the player chose", () => {
    expect(motionFor(DEFAULT_PREFS, true)).toBe(false);
    expect(motionFor(DEFAULT_PREFS, false)).toBe(true);
    expect(motionFor({ ...DEFAULT_PREFS, motion: "on" }, true)).toBe(true);
    expect(motionFor({ ...DEFAULT_PREFS, motion: "off" }, false)).toBe(false);
  });
});

describe("a tap that raises before it plays", () => {
  const touch = (index: number, playable = true) =>
    ({ type: "tap", index, pointer: "touch", playable }) as const;

  it("raises on the first tap and plays on the second", () => {
    const one = tap(LOWERED, touch(3));
    expect(one).toEqual({ state: { raised: 3 }, play: null });
    expect(tap(one.state, touch(3))).toEqual({ state: LOWERED, play: 3 });
  });

  it("moves the raise to another tile, and lowers on a tap elsewhere", () => {
    const one = tap(LOWERED, touch(3)).state;
    expect(tap(one, touch(5))).toEqual({ state: { raised: 5 }, play: null });
    expect(tap(one, { type: "lower" })).toEqual({ state: LOWERED, play: null });
  });

  it("plays at once by a swipe up, a mouse or a key; never a tile that may not be played", () => {
    expect(tap(LOWERED, { type: "swipe", index: 2, playable: true }).play).toBe(2);
    expect(tap(LOWERED, { ...touch(2), pointer: "mouse" }).play).toBe(2);
    expect(tap(LOWERED, { ...touch(2), pointer: "key" }).play).toBe(2);
    expect(tap({ raised: 2 }, touch(2, false))).toEqual({ state: LOWERED, play: null });
    expect(tap(LOWERED, { type: "swipe", index: 2, playable: false }).play).toBeNull();
    expect(isSwipeUp(300, 250)).toBe(true);
    expect(isSwipeUp(300, 290)).toBe(false);
  });

  it("tells a finger from a mouse and from the keyboard", () => {
    expect(pointerOf({ pointerType: "touch", detail: 1 } as unknown as MouseEvent)).toBe("touch");
    expect(pointerOf({ pointerType: "pen", detail: 1 } as unknown as MouseEvent)).toBe("touch");
    expect(pointerOf({ pointerType: "mouse", detail: 1 } as unknown as MouseEvent)).toBe("mouse");
    expect(pointerOf({ pointerType: "", detail: 0 } as unknown as MouseEvent)).toBe("key");
  });
});
