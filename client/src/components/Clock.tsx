// A clock ring around a seat's wind: a countdown for the seat that must decide (the server
// sends this seat's time left); a plain turning ring for another seat's turn (its clock is
// the server's and not sent to us).
import type { JSX } from "preact";
import { t } from "../i18n";
import { secondsLeft, useNow } from "./hooks";

export interface ClockProps {
  active: boolean;
  deadline: number | null;
  total: number | null;
  children: JSX.Element | JSX.Element[] | string;
}

export function ClockRing({ active, deadline, total, children }: ClockProps): JSX.Element {
  const now = useNow(active && deadline !== null);
  const left = secondsLeft(deadline, now);
  const r = 20;
  const c = 2 * Math.PI * r;
  const frac =
    left !== null && total ? Math.max(0, Math.min(1, (deadline! - now) / (total * 1000))) : 1;
  const urgent = left !== null && left <= 5;
  return (
    <span
      class={`clock${active ? " active" : ""}${urgent ? " urgent" : ""}${deadline === null && active ? " waiting" : ""}`}
    >
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
      {active && left !== null ? (
        <span class="clock-seconds" role="timer" aria-label={t("seconds", { n: left })}>
          {left}
        </span>
      ) : null}
    </span>
  );
}

/** A countdown bar for a prompt (its own clock). */
export function Countdown({
  deadline,
  total,
}: {
  deadline: number | null;
  total: number | null;
}): JSX.Element | null {
  const now = useNow(deadline !== null);
  const left = secondsLeft(deadline, now);
  if (left === null || deadline === null) return null;
  const frac = total ? Math.max(0, Math.min(1, (deadline - now) / (total * 1000))) : 1;
  return (
    <span
      class={`countdown${left <= 5 ? " urgent" : ""}`}
      role="timer"
      aria-label={t("seconds", { n: left })}
    >
      <span class="countdown-bar" style={{ width: `${frac * 100}%` }} />
      <span class="countdown-text">{t("seconds", { n: left })}</span>
    </span>
  );
}
