// The replay viewer: a finished hand step by step (← →), every seat's hand shown (the hand
// is over), the move list with names, the settlement at the end; and the hand's review: at a
// decision where this player and the expert differ, both choices marked on the board.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { gameUi } from "../games";
import { errorText, gameName, t } from "../i18n";
import { entriesOf } from "../model/log";
import { isSeat, SEATS } from "../model/seats";
import {
  ApiError,
  api,
  type HandPoints,
  type HandSummary,
  handPoints,
  type LedgerEntry,
  type ReplayStep,
} from "../net/api";
import type { GameEvent, Seat, SeatInfo } from "../protocol";
import { go } from "../session";
import { me } from "../state/connection";
import { reviews } from "../state/review";
import { seated } from "../state/table";
import { logLine } from "../widgets/MoveLog";
import { differenceAt, marksFor, ReviewButton, ReviewPanel } from "../widgets/ReviewPanel";
import { UnknownGame } from "../widgets/UnknownGame";
import { ReadyNote } from "./TableScreen";

/** Who sat where, as the record has it (the server sends the names; an older server sent
 *  none: then only this player's own name is known). */
export function replayNames(
  seat: Seat | undefined,
  name: string | undefined,
  sent?: ReplayStep["names"],
): Record<Seat, SeatInfo | null> {
  const names: Record<Seat, SeatInfo | null> = { E: null, S: null, W: null, N: null };
  for (const s of SEATS) {
    const who = sent?.[s];
    if (who?.name)
      names[s] = {
        name: who.name,
        bot: who.bot,
        level: who.level ?? null,
        ready: false,
        tuoguan: false,
        connected: true,
      };
  }
  if (seat && name && !names[seat])
    names[seat] = { name, bot: false, ready: false, tuoguan: false, connected: true };
  return names;
}

/** A move as the live log said it, from the events the server kept with it (「南 碰 五萬」,
 *  "South wins with 3 Dots"); from its notation alone when there are none. */
export function moveText(text: string, game: string, events?: GameEvent[]): string {
  const lines = events ? entriesOf(events, 0, 0).map((e) => logLine(e)) : [];
  if (lines.length) return lines.join(" · ");
  // a game this page does not know: its notation as recorded
  return gameUi(game)?.moveWords(text, events !== undefined) ?? text;
}

export function Replay({ hand, step }: { hand: number; step: number }): JSX.Element {
  const [data, setData] = useState<ReplayStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    let gone = false;
    api<ReplayStep>(`/api/hands/${hand}/replay?step=${step}`)
      .then((d) => {
        if (!gone) {
          setData(d);
          setError(null);
        }
      })
      .catch((err) => {
        if (!gone) setError(err instanceof ApiError ? err.code : "network");
      });
    return () => {
      gone = true;
    };
  }, [hand, step]);
  // the hand's points as the ledger has them (the settlement at the end shows them)
  const [points, setPoints] = useState<{ stake: number; lines: HandPoints } | null>(null);
  useEffect(() => {
    let gone = false;
    const name = me.value?.name;
    if (!name) return;
    Promise.all([
      api<{ hands: HandSummary[] }>("/api/hands"),
      api<{ entries: LedgerEntry[] }>("/api/ledger"),
    ])
      .then(([h, l]) => {
        const summary = h.hands.find((x) => x.hand === hand);
        if (!gone && summary)
          setPoints({ stake: summary.stake, lines: handPoints(l.entries, hand, name) });
      })
      .catch(() => {});
    return () => {
      gone = true;
    };
  }, [hand]);
  const steps = data?.steps ?? 0;
  const to = (n: number) => go({ name: "replay", hand, step: Math.max(0, Math.min(n, steps)) });
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
      if (ev.key === "ArrowRight") to(step + 1);
      else if (ev.key === "ArrowLeft") to(step - 1);
      else if (ev.key === "Home") to(0);
      else if (ev.key === "End") to(steps);
      else return;
      ev.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  // the current move in sight inside the list, never by scrolling the page (on a phone that
  // would carry the step buttons away from under the finger)
  useEffect(() => {
    const box = list.current;
    const cur = box?.querySelector(".current");
    if (!box || !cur) return;
    const b = box.getBoundingClientRect();
    const c = cur.getBoundingClientRect();
    if (c.top < b.top) box.scrollTop -= b.top - c.top;
    else if (c.bottom > b.bottom) box.scrollTop += c.bottom - b.bottom;
  }, [data?.step]);

  const view = data?.view;
  const revealed: Partial<Record<Seat, string[]>> = {};
  if (data?.views) {
    for (const s of SEATS) {
      const v = data.views[s];
      if (!v || s === view?.seat) continue;
      revealed[s] = gameUi(v.game)?.held(v) ?? v.hand;
    }
  }
  const actions = data?.actions ?? [];
  const NAMES = replayNames(view?.seat, me.value?.name, data?.names);
  const moveEvents = data?.events ?? [];
  const result = view?.result;
  const ui = view ? gameUi(view.game) : null;
  // the review's difference at this step, its two choices marked on the board
  const shownStep = data?.step ?? step;
  const difference = data ? differenceAt(reviews.value[hand], shownStep) : null;
  const mySeat = data && isSeat(data.seat) ? data.seat : null;
  // come from the table's settlement: back there (the next hand waits for this player)
  const atTable = !!seated.value;
  return (
    <main class="replay" id="replay">
      <div class="table-bar">
        <span class="room">
          {t("replayOf", { n: hand })}
          {data ? ` · ${gameName(data.game)}` : ""}
        </span>
        <span id="replay-head" data-step={data?.step}>
          {t("step", { n: data?.step ?? step, m: steps })}
          {data?.last
            ? ` · ${moveText(data.last, data.game, moveEvents[(data.step ?? 1) - 1])}`
            : ""}
        </span>
        <span class="grow" />
        <span class="muted small keys-hint-line">{t("keyboardHint")}</span>
      </div>
      <div class="replay-controls row">
        <button
          type="button"
          data-action="start"
          aria-label={t("start")}
          onClick={() => to(0)}
          disabled={step <= 0}
        >
          |◀
        </button>
        <button
          type="button"
          id="replay-prev"
          data-action="prev"
          aria-label={t("prev")}
          onClick={() => to(step - 1)}
          disabled={step <= 0}
        >
          ◀
        </button>
        <input
          type="range"
          id="replay-step"
          aria-label={t("step", { n: step, m: steps })}
          min={0}
          max={steps}
          value={data?.step ?? step}
          onInput={(e) => to(Number(e.currentTarget.value))}
        />
        <button
          type="button"
          id="replay-next"
          data-action="next"
          aria-label={t("next")}
          onClick={() => to(step + 1)}
          disabled={!!data && step >= steps}
        >
          ▶
        </button>
        <button
          type="button"
          data-action="end"
          aria-label={t("end")}
          onClick={() => to(steps)}
          disabled={!!data && step >= steps}
        >
          ▶|
        </button>
        <ReviewButton hand={hand} seat={mySeat} />
        <button
          type="button"
          class="ghost"
          id="replay-close"
          data-action="back"
          onClick={() => go({ name: atTable ? "table" : "lobby" })}
        >
          {t(atTable ? "backToTable" : "back")}
        </button>
      </div>
      {atTable ? <ReadyNote /> : null}
      {error ? (
        <p class="error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
      <div class="table-layout">
        <div class="table-main">
          {view && !ui ? <UnknownGame game={view.game} /> : null}
          {view && ui ? (
            <ui.Board
              view={view}
              names={NAMES}
              clock={null}
              pending={null}
              version={data?.step ?? 0}
              onAction={() => {}}
              readOnly
              revealed={revealed}
              marks={difference ? marksFor(difference) : undefined}
            />
          ) : null}
          {/* under the board: on a phone the hand with both choices marked, the values and
              the previous and next differences are in sight together */}
          <ReviewPanel hand={hand} step={shownStep} view={view} onPick={to} />
          {result && view && ui ? (
            <section class="settlement-panel in-replay" aria-label={t("settlement")}>
              <h2>{t("settlement")}</h2>
              <ui.Settlement
                hand={hand}
                stake={points?.stake ?? 0}
                fee={points?.lines.fee ?? 0}
                moves={points?.lines.moves ?? []}
                balance={points?.lines.balance ?? null}
                balanceChange={points?.lines.change ?? null}
                showPoints={points !== null}
                names={NAMES}
                me={view.seat}
                myName={me.value?.name ?? null}
                result={result}
                view={view}
              />
            </section>
          ) : null}
        </div>
        <aside class="move-log" aria-label={t("log")}>
          <h2>{t("log")}</h2>
          <ol ref={list}>
            {actions.map((a, i) => (
              <li
                key={i}
                class={
                  i + 1 === data?.step
                    ? "current"
                    : i + 1 > (data?.step ?? 0)
                      ? "future"
                      : undefined
                }
              >
                <button type="button" class="link" onClick={() => to(i + 1)}>
                  {i + 1}. {moveText(a, data?.game ?? "", moveEvents[i])}
                </button>
              </li>
            ))}
          </ol>
        </aside>
      </div>
    </main>
  );
}
