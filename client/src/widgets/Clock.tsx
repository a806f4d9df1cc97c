// A clock ring around a seat's wind: a countdown for the seat whose clock runs (the server
// sends the running clock: a turn's is public, a claim prompt's only to its own seat); a
// plain turning ring for a seat that must decide on a clock not shown to us. While the table
// is paused (its storage is down) the clock stands still.
import type { JSX } from "preact";
import { t } from "../i18n";
import type { Seat } from "../protocol";
import { secondsLeft, useNow } from "./hooks";

/** The running clock of a view frame, as the client keeps it. */
export interface TableClock {
  /** Whose turn it times; null: this seat's own claim prompt. */
  seat: Seat | null;
  /** The clock's full length. */
  seconds: number;
  /** When it runs out (ms since the epoch, local clock). */
  deadline: number;
  /** Set while the table is paused: the time (ms) it stopped at. */
  stoppedAt?: number | null;
}

/** The clock `seat` shows: the running clock when it is that seat's (or, for `me`, one's
 *  own claim prompt), else null. */
export function clockOf(clock: TableClock | null, seat: Seat, me: Seat): TableClock | null {
  if (!clock) return null;
  if (clock.seat === seat || (clock.seat === null && seat === me)) return clock;
  return null;
}

/** Seconds left and the fraction of the clock left, at `now` (or where it stopped). */
export function clockLeft(
  clock: TableClock | null,
  now: number,
): { left: number; frac: number } | null {
  if (!clock) return null;
  const at = clock.stoppedAt ?? now;
  const left = secondsLeft(clock.deadline, at) ?? 0;
  const frac =
    clock.seconds > 0
      ? Math.max(0, Math.min(1, (clock.deadline - at) / (clock.seconds * 1000)))
      : 0;
  return { left, frac };
}

export interface ClockProps {
  active: boolean;
  clock: TableClock | null;
  children: JSX.Element | JSX.Element[] | string;
}

export function ClockRing({ active, clock, children }: ClockProps): JSX.Element {
  const running = active && clock !== null && !clock.stoppedAt;
  const now = useNow(running);
  const state = active ? clockLeft(clock, now) : null;
  const r = 20;
  const c = 2 * Math.PI * r;
  const frac = state ? state.frac : 1;
  const urgent = state !== null && state.left <= 5 && !clock?.stoppedAt;
  const cls = [
    "clock",
    active ? "active" : "",
    urgent ? "urgent" : "",
    active && !clock ? "waiting" : "",
    clock?.stoppedAt ? "stopped" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <span class={cls}>
      <svg viewBox="0 0 48 48" aria-hidden="true" focusable="false">
        <circle cx="24" cy="24" r={r} class="clock-track" />
        {active ? (
          <circle
            cx="24"
            cy="24"
            r={r}
            class="clock-arc"
            stroke-dasharray={`${c}`}
            stroke-dashoffset={`${c * (1 - frac)}`}
            transform="rotate(-90 24 24)"
          />
        ) : null}
      </svg>
      <span class="clock-inner">{children}</span>
      {state ? (
        <span
          class="clock-seconds"
          role="timer"
          aria-label={t("seconds", { n: state.left })}
          data-seconds={state.left}
        >
          {state.left}
        </span>
      ) : null}
    </span>
  );
}

/** A countdown bar for a prompt (its own clock). */
export function Countdown({ clock }: { clock: TableClock | null }): JSX.Element | null {
  const now = useNow(clock !== null && !clock.stoppedAt);
  const state = clockLeft(clock, now);
  if (!state) return null;
  return (
    <span
      class={`countdown${state.left <= 5 && !clock?.stoppedAt ? " urgent" : ""}${clock?.stoppedAt ? " stopped" : ""}`}
      role="timer"
      aria-label={t("seconds", { n: state.left })}
      data-seconds={state.left}
    >
      <span class="countdown-bar" style={{ width: `${state.frac * 100}%` }} />
      <span class="countdown-text">{t("seconds", { n: state.left })}</span>
    </span>
  );
}
