import { useEffect, useRef, useState } from "preact/hooks";

/** The current time, re-read every `ms` while `active` (for countdowns). */
export function useNow(active: boolean, ms = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [active, ms]);
  return now;
}

/** Seconds left until `deadline` (ms), never below zero; null without a deadline. */
export function secondsLeft(deadline: number | null, now: number): number | null {
  if (deadline === null) return null;
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** When this player's turn comes (or the view moves on during it): on a keyboard device,
 *  put the keyboard on the hand (on `buttons[index]`), unless the player is elsewhere on the
 *  page (a field, the log, another button), so ← → and Enter work at once, without a Tab; on
 *  a touch screen, bring the hand into sight if it is below the screen's edge. */
export function useTurnFocus(
  active: boolean,
  version: number,
  buttons: { current: (HTMLButtonElement | null)[] },
  index: number,
  /** Told the index focused, so the hand's Tab stop (its roving tabindex) moves with it. */
  onFocus?: (index: number) => void,
): void {
  useEffect(() => {
    if (!active || typeof document === "undefined") return;
    if (typeof matchMedia === "function" && !matchMedia("(pointer: fine)").matches) {
      buttons.current[index]?.closest(".hand")?.scrollIntoView?.({ block: "nearest" });
      return;
    }
    const here = document.activeElement;
    const onHand = here instanceof HTMLElement && here.closest(".hand") !== null;
    if (here && here !== document.body && !onHand) return;
    const button = buttons.current[index];
    if (!button) return;
    button.focus({ preventScroll: true });
    onFocus?.(index);
  }, [active, version]);
}

/** A hand of piece buttons one Tab stop wide (a roving tabindex), ← → moving along it, the
 *  stop starting at `start`: `stop(i)` is what the `i`th button takes; `buttons` and
 *  `setFocus` are for `useTurnFocus`. */
export function useRovingHand(
  count: number,
  start: number,
): {
  buttons: { current: (HTMLButtonElement | null)[] };
  setFocus: (i: number) => void;
  stop: (i: number) => {
    tabIndex: number;
    onKeyDown: (ev: KeyboardEvent) => void;
    buttonRef: (el: HTMLButtonElement | null) => void;
  };
} {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const [focus, setFocus] = useState(start);
  const stop = (i: number) => ({
    tabIndex: i === Math.min(focus, count - 1) ? 0 : -1,
    onKeyDown: (ev: KeyboardEvent) => {
      if (ev.key !== "ArrowRight" && ev.key !== "ArrowLeft") return;
      ev.preventDefault();
      const next = (i + (ev.key === "ArrowRight" ? 1 : -1) + count) % count;
      setFocus(next);
      buttons.current[next]?.focus();
    },
    buttonRef: (el: HTMLButtonElement | null) => {
      buttons.current[i] = el;
    },
  });
  return { buttons, setFocus, stop };
}

/** Whether the page has a fine pointer (a mouse): keyboard help is shown only there (a
 *  phone, `(pointer: coarse)`, has no keys to press). True where it cannot be told. */
export function hasFinePointer(): boolean {
  return typeof matchMedia !== "function" || matchMedia("(pointer: fine)").matches;
}
