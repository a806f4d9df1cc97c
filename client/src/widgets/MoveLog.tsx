// The move log: 「西 碰 五萬」, newest at the bottom, named in the current language.
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { actionName, cardName, eventName, runName, t, tileName, verbName, windName } from "../i18n";
import type { LogEntry } from "../model/log";
import { lostTo } from "../model/log";
import type { RecordAction } from "../model/notation";

const ACTIONS = new Set([
  "discard",
  "chi",
  "peng",
  "gang",
  "angang",
  "jiagang",
  "hu",
  "shazhu",
  "fa",
  "zhuo",
  "mie",
]);

/** One line of the log in the current language. */
export function logLine(e: LogEntry): string {
  const who = e.seat ? windName(e.seat) : "";
  const what = ACTIONS.has(e.kind) ? verbName(e.kind) : eventName(e.kind);
  // a set of one tile is named once, in full (「西 碰 五萬」); a chow by its three tiles
  const tiles =
    e.kind === "chi"
      ? [runName(e.tiles)]
      : e.tiles.length && new Set(e.tiles).size === 1
        ? [tileName(e.tiles[0] as string)]
        : e.tiles.map((x) => tileName(x));
  if (e.card) tiles.push(cardName(e.card));
  if (e.kind === "claim_lost") {
    const to = lostTo(e.detail);
    return to ? `${what}: ${windName(to.seat)} ${actionName(to.kind)}` : what;
  }
  if (e.kind === "trick" && e.detail) return `${who} ${what} (${e.detail})`;
  // a 開沖 draw said as a sentence: "South turns up 2 Coins from the stock: +1"
  if (e.kind === "chong" || e.kind === "claim" || e.kind === "dead") {
    const key = e.kind === "chong" ? "logChong" : e.kind === "claim" ? "logClaim" : "logDead";
    const card = e.card ? cardName(e.card) : "";
    return t(key, { seat: who, card, points: e.detail || "0" }).trim();
  }
  return [who, what, ...tiles].filter(Boolean).join(" ");
}

/** A record's move in words from its notation alone: the seat, the verb, the pieces by
 *  `name` (「南 碰 五萬」, "East passes"). */
export function recordWords(a: RecordAction, name: (code: string) => string): string {
  const seat = a.seat ? windName(a.seat) : "";
  return [seat, verbName(a.kind), ...a.codes.map(name)].filter(Boolean).join(" ");
}

export function MoveLog({ entries }: { entries: LogEntry[] }): JSX.Element {
  const box = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [entries.length]);
  return (
    <aside class="move-log" aria-label={t("log")}>
      <h2>{t("log")}</h2>
      {entries.length ? (
        <ol ref={box} aria-live="polite" aria-relevant="additions">
          {entries.map((e) => (
            <li
              key={e.id}
              data-seat={e.seat ?? undefined}
              data-kind={e.kind}
              class={`log-${e.kind}`}
            >
              {logLine(e)}
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted">{t("logEmpty")}</p>
      )}
    </aside>
  );
}
