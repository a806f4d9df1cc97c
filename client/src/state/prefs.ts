// The player's settings at the table, remembered in this browser (localStorage): sound (off
// until the player turns it on: browsers allow sound only after a gesture anyway), motion
// (follows the system's reduced-motion setting unless the player says otherwise), and the
// helps: take every win offered, pass every claim that is not a win.
import { computed, signal } from "@preact/signals";

export type Motion = "auto" | "on" | "off";

export interface Prefs {
  sound: boolean;
  motion: Motion;
  /** Take every win offered (胡, and 殺豬 when it is offered). */
  autoWin: boolean;
  /** Pass every claim window that offers no win (a win is never passed). */
  autoPass: boolean;
}

export const DEFAULT_PREFS: Readonly<Prefs> = {
  sound: false,
  motion: "auto",
  autoWin: false,
  autoPass: false,
};

export const PREFS_KEY = "paiju.prefs";

/** What a storage needs to be for the settings (localStorage, or a test's map). */
export type PrefsStorage = Pick<Storage, "getItem" | "setItem">;

/** The settings stored, each one checked (anything unreadable or missing is the default). */
export function loadPrefs(storage: PrefsStorage | null): Prefs {
  let raw: unknown = null;
  try {
    const text = storage?.getItem(PREFS_KEY);
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  const r = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const bool = (k: keyof Prefs) =>
    typeof r[k] === "boolean" ? (r[k] as boolean) : (DEFAULT_PREFS[k] as boolean);
  return {
    sound: bool("sound"),
    motion: r.motion === "on" || r.motion === "off" ? r.motion : "auto",
    autoWin: bool("autoWin"),
    autoPass: bool("autoPass"),
  };
}

/** Store the settings (a storage that refuses, private browsing, say, keeps them for the
 *  page only). */
export function savePrefs(storage: PrefsStorage | null, p: Prefs): void {
  try {
    storage?.setItem(PREFS_KEY, JSON.stringify(p));
  } catch {
    // kept for this page only
  }
}

function browserStorage(): PrefsStorage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

export const prefs = signal<Prefs>(loadPrefs(browserStorage()));

/** Change one setting and remember it. */
export function setPref<K extends keyof Prefs>(key: K, value: Prefs[K]): void {
  prefs.value = { ...prefs.value, [key]: value };
  savePrefs(browserStorage(), prefs.value);
}

/** The system asks for less motion (`prefers-reduced-motion: reduce`). */
export const systemReduced = signal(
  typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches,
);
if (typeof matchMedia === "function") {
  matchMedia("(prefers-reduced-motion: reduce)").addEventListener?.("change", (e) => {
    systemReduced.value = e.matches;
  });
}

/** Whether the table moves: the player's choice, else the system's. */
export function motionFor(p: Prefs, reduced: boolean): boolean {
  return p.motion === "auto" ? !reduced : p.motion === "on";
}

export const motionOn = computed(() => motionFor(prefs.value, systemReduced.value));
