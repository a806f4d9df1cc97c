// The hand review on the page: the button that asks for it, the wait (the server plays
// rollouts for seconds), the one-line summary, the decisions where this player and the expert
// differ (largest estimated loss first), and, in the replay, the decision shown now with both
// choices' values and the way to the previous and the next one.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { gameUi } from "../games";
import { errorText, t, type UiKey, windName } from "../i18n";
import type { HandReview, ReviewItem, ReviewValue } from "../net/api";
import type { Seat, View } from "../protocol";
import {
  beyondNoise,
  type ReviewState,
  rankedItems,
  requestReview,
  reviews,
} from "../state/review";
import type { BoardMark } from "./board";
import { useNow } from "./hooks";

/** A figure with its sign and one decimal: "+12.0", "-3.5", "0.0". */
export function signed1(x: number): string {
  const r = Math.round(x * 10) / 10;
  return r > 0 ? `+${r.toFixed(1)}` : r.toFixed(1);
}

const signedInt = (x: number): string => {
  const r = Math.round(x);
  return r > 0 ? `+${r}` : String(r);
};

/** An estimate in words: its mean and, where it has one, its 95% interval: "+12.0 [+2, +22]". */
export function estimate(v: ReviewValue): string {
  if (v.lo === null || v.hi === null) return signed1(v.mean);
  return `${signed1(v.mean)} [${signedInt(v.lo)}, ${signedInt(v.hi)}]`;
}

/** A figure in the review's game's unit: 「+12.0 胡」, "+12.0 hu points" (the server's unit
 *  for a game this page does not know). */
function inUnit(review: HandReview, n: string): string {
  const key = gameUi(review.game)?.netUnit;
  return key ? t(key, { n }) : `${n} ${review.unit}`;
}

const KINDS: Record<string, UiKey> = {
  discard: "reviewKindDiscard",
  "claim or pass": "reviewKindClaim",
  "kong or discard": "reviewKindKong",
  "win or not": "reviewKindWin",
  play: "reviewKindPlay",
};

/** What kind of decision it was, in words (the server's words name it). */
export function kindWords(kind: string): string {
  return t(KINDS[kind] ?? "reviewKindOther");
}

/** A choice in words, without the seat (it is this player's): 「打 一萬」, "discards 1
 *  Character"; at the decision's own view, as its button said it ("Discard 1 Character"). */
export function choiceWords(review: HandReview, action: string, view?: View | null): string {
  const ui = gameUi(review.game);
  if (!ui) return action;
  const own = view ? ui.actionLabel(view, action) : null;
  if (own) return own;
  const words = ui.moveWords(action, false);
  const seat = `${windName(review.seat)} `;
  return words.startsWith(seat) ? words.slice(seat.length) : words;
}

/** The two choices of a decision, for the board to mark. */
export function marksFor(d: ReviewItem): BoardMark[] {
  return [
    { action: d.played, who: "you" },
    { action: d.expert, who: "expert" },
  ];
}

/** The review's decision at a replay's step, when it is one where the two differ. */
export function differenceAt(state: ReviewState | undefined, step: number): ReviewItem | null {
  if (state?.status !== "done") return null;
  return rankedItems(state.review).find((d) => d.step === step) ?? null;
}

/** The words for a refusal of the review: its own where the review has them. */
function reviewError(code: string): string {
  if (code === "unknown_hand") return t("reviewErrUnknownHand");
  if (code === "busy") return t("reviewErrBusy");
  if (code === "unavailable" || code === "draining") return t("reviewErrUnavailable");
  return errorText(code);
}

/** The Review button: asks for the review of `hand` (this player's own seat), and says so
 *  while it runs. */
export function ReviewButton({ hand, seat }: { hand: number; seat: Seat | null }): JSX.Element {
  const state = reviews.value[hand];
  return (
    <button
      type="button"
      class="ghost review-button"
      data-action="review"
      aria-controls="review-panel"
      aria-expanded={state ? "true" : "false"}
      disabled={state?.status === "running"}
      onClick={() => {
        void requestReview(hand, seat);
        // on a phone the panel may open below the fold: bring it into sight
        requestAnimationFrame(() =>
          document.getElementById("review-panel")?.scrollIntoView?.({ block: "nearest" }),
        );
      }}
    >
      {t("review")}
    </button>
  );
}

/** The wait: the decisions reviewed of the seat's (once the server has counted them), the
 *  seconds since it was asked, a bar (filling with the decisions; sweeping before), what is
 *  being done. */
function Running({
  since,
  done,
  total,
}: {
  since: number;
  done: number;
  total: number;
}): JSX.Element {
  const now = useNow(true, 500);
  const n = Math.max(0, Math.floor((now - since) / 1000));
  const known = total > 0;
  return (
    <div
      class="review-running"
      role="status"
      aria-live="polite"
      data-review="running"
      data-done={known ? done : undefined}
      data-total={known ? total : undefined}
    >
      <p>
        <b>{t("reviewRunning", { n })}</b>
        {known ? <span> · {t("reviewDone", { done, total })}</span> : null}
      </p>
      {/* the words above say the numbers: the bar is for the eye */}
      <div class={`review-bar${known ? " known" : ""}`} aria-hidden="true">
        <span style={known ? { width: `${Math.round((100 * done) / total)}%` } : undefined} />
      </div>
      <p class="muted small">{t("reviewRunningNote")}</p>
    </div>
  );
}

/** One choice of the decision shown: whose, what, and what it is worth. */
function ChoiceLine({
  review,
  who,
  action,
  value,
  view,
}: {
  review: HandReview;
  who: "you" | "expert";
  action: string;
  value: ReviewValue | null;
  view?: View | null;
}): JSX.Element {
  return (
    <li class={`review-choice mark-${who}`} data-who={who}>
      <span class={`review-mark mark-${who}`}>
        {t(who === "you" ? "reviewYou" : "reviewExpert")}
      </span>{" "}
      <b>{choiceWords(review, action, view)}</b>
      {value ? (
        <span class="review-worth" data-mean={value.mean}>
          {" · "}
          {t("reviewWorth", { v: inUnit(review, estimate(value)) })}
        </span>
      ) : null}
    </li>
  );
}

/** The decision shown now: its place in the list, both choices and their values, the loss,
 *  and the previous and next differences. */
function Current({
  review,
  items,
  at,
  view,
  onPick,
}: {
  review: HandReview;
  items: ReviewItem[];
  at: number;
  view?: View | null;
  onPick: (step: number) => void;
}): JSX.Element {
  const d = items[at] as ReviewItem;
  const prev = items[at - 1];
  const next = items[at + 1];
  const sure = beyondNoise(d);
  return (
    <div class="review-current" data-step={d.step} aria-live="polite">
      <div class="review-current-head">
        <button
          type="button"
          class="ghost"
          data-action="review-prev"
          aria-label={t("reviewPrev")}
          title={t("reviewPrev")}
          disabled={!prev}
          onClick={() => prev && onPick(prev.step)}
        >
          ◀
        </button>
        <span class="review-where">
          <b>{t("reviewPosition", { i: at + 1, n: items.length })}</b> ·{" "}
          {t("reviewMove", { n: d.step + 1 })} · {kindWords(d.kind)}
        </span>
        <button
          type="button"
          class="ghost"
          data-action="review-next"
          aria-label={t("reviewNext")}
          title={t("reviewNext")}
          disabled={!next}
          onClick={() => next && onPick(next.step)}
        >
          ▶
        </button>
      </div>
      <ul class="review-choices">
        <ChoiceLine
          review={review}
          who="you"
          action={d.played}
          value={d.played_value}
          view={view}
        />
        <ChoiceLine
          review={review}
          who="expert"
          action={d.expert}
          value={d.expert_value}
          view={view}
        />
      </ul>
      {d.loss ? (
        <p class={`review-loss${sure ? " sure" : ""}`} data-loss={d.loss.mean}>
          {t("reviewLoss", { v: inUnit(review, estimate(d.loss)) })}{" "}
          <span class={`tag${sure ? " sure" : ""}`}>
            {t(sure ? "reviewBeyondNoise" : "reviewWithinNoise")}
          </span>
        </p>
      ) : null}
    </div>
  );
}

/** The hand's review of `hand` as far as it has come, or nothing when none was asked for.
 *  `step`: the replay's step shown (its decision, when it is a difference, is shown with
 *  both choices), null at the settlement; `onPick`, to step to a decision. */
export function ReviewPanel({
  hand,
  step,
  view,
  onPick,
}: {
  hand: number;
  step: number | null;
  view?: View | null;
  onPick: (step: number) => void;
}): JSX.Element | null {
  const state = reviews.value[hand];
  const done = state?.status === "done" ? state.review : null;
  const items = done ? rankedItems(done) : [];
  const at = step === null ? -1 : items.findIndex((d) => d.step === step);
  // in the replay the list folds away once a difference is shown (the board needs the room
  // on a phone); its toggle brings it back
  const [listOpen, setListOpen] = useState(at < 0);
  const was = useRef(at);
  const current = useRef<HTMLDivElement>(null);
  const shownAt = at >= 0 ? (items[at]?.step ?? null) : null;
  useEffect(() => {
    if (at >= 0 && was.current < 0) setListOpen(false);
    was.current = at;
  }, [at]);
  // a difference shown: the card with its values and its ◀ ▶ comes into sight, and with it
  // the hand above it (the page moves only as far as it must)
  const boardShown = !!view;
  useEffect(() => {
    if (shownAt !== null) current.current?.scrollIntoView?.({ block: "nearest" });
  }, [shownAt, boardShown]);
  if (!state) return null;
  const close = () => {
    const { [hand]: _gone, ...rest } = reviews.value;
    reviews.value = rest;
  };
  let body: JSX.Element;
  if (state.status === "running")
    body = <Running since={state.since} done={state.done} total={state.total} />;
  else if (state.status === "error")
    body = (
      <div class="review-error" role="alert" data-review-error={state.code}>
        <p class="error">{reviewError(state.code)}</p>
        <button type="button" data-action="review-retry" onClick={() => requestReview(hand)}>
          {t("reviewRetry")}
        </button>
      </div>
    );
  else {
    const review = state.review;
    const agreed = review.items.filter((d) => d.agrees).length;
    const inList = step === null || listOpen || at < 0;
    body = (
      <>
        <p
          class="review-summary"
          data-review="done"
          data-agreement={review.agreement}
          data-loss={review.total_loss}
        >
          {review.decisions
            ? t("reviewSummary", {
                agreed,
                n: review.decisions,
                pct: Math.round(review.agreement * 100),
                loss: inUnit(review, signed1(review.total_loss)),
              })
            : t("reviewNoDecisions")}
        </p>
        {review.decisions && !items.length ? <p>{t("reviewAllAgree")}</p> : null}
        {at >= 0 ? (
          <div ref={current}>
            <Current review={review} items={items} at={at} view={view} onPick={onPick} />
          </div>
        ) : null}
        {items.length && step !== null && at >= 0 ? (
          <button
            type="button"
            class="link review-toggle"
            data-action="review-list"
            aria-expanded={listOpen ? "true" : "false"}
            onClick={() => setListOpen(!listOpen)}
          >
            {listOpen ? t("reviewHideList") : t("reviewShowList", { n: items.length })}
          </button>
        ) : null}
        {items.length && inList ? (
          <>
            <h3 class="small">{t("reviewListTitle")}</h3>
            <ol class="review-list">
              {items.map((d, i) => {
                const sure = beyondNoise(d);
                return (
                  <li key={d.step} class={i === at ? "current" : undefined}>
                    <button
                      type="button"
                      class={`review-item${sure ? " sure" : ""}`}
                      data-step={d.step}
                      aria-current={i === at ? "step" : undefined}
                      onClick={() => onPick(d.step)}
                    >
                      <span class="review-rank">{i + 1}</span>
                      <span class="review-what">
                        <span class="muted small">
                          {t("reviewMove", { n: d.step + 1 })} · {kindWords(d.kind)}
                        </span>
                        <span class="review-said">
                          <span class="review-mark mark-you">{t("reviewMarkYou")}</span>{" "}
                          {choiceWords(review, d.played)}
                        </span>{" "}
                        <span class="review-said">
                          <span class="review-mark mark-expert">{t("reviewMarkExpert")}</span>{" "}
                          {choiceWords(review, d.expert)}
                        </span>
                      </span>
                      <span class={`review-item-loss${sure ? " sure" : ""}`}>
                        {d.loss ? t("reviewLoss", { v: inUnit(review, estimate(d.loss)) }) : ""}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ol>
            {step === null || at < 0 ? <p class="muted small">{t("reviewPick")}</p> : null}
          </>
        ) : null}
        {inList ? (
          <p class="muted small review-note">{t("reviewNote", { worlds: review.worlds })}</p>
        ) : null}
      </>
    );
  }
  return (
    <section class="review-panel" id="review-panel" aria-labelledby="review-title">
      <div class="review-head">
        <h2 id="review-title">{t("reviewTitle")}</h2>
        <button
          type="button"
          class="ghost review-close"
          data-action="review-close"
          aria-label={t("reviewClose")}
          title={t("reviewClose")}
          onClick={close}
        >
          ×
        </button>
      </div>
      {body}
    </section>
  );
}
