import { useEffect, useState } from "preact/hooks";

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

/** Whether the page has a fine pointer (a mouse): keyboard help is shown only there (a
 *  phone, `(pointer: coarse)`, has no keys to press). True where it cannot be told. */
export function hasFinePointer(): boolean {
  return typeof matchMedia !== "function" || matchMedia("(pointer: fine)").matches;
}
