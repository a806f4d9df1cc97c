// The hand reviews this page asked for, by hand: under way (it takes seconds: the server plays
// rollouts), done, or refused. The settlement and the replay show the same one, so a review
// asked for at the table is there, whole, when the replay opens at one of its decisions.
import { signal } from "@preact/signals";
import { ApiError, api, type HandReview, type ReviewItem } from "../net/api";
import type { Seat } from "../protocol";

export type ReviewState =
  /** Under way since `since` (ms): `done` of the seat's `total` decisions reviewed (`total`
   *  is 0 until the server has counted them). */
  | { status: "running"; since: number; done: number; total: number }
  | { status: "done"; review: HandReview }
  | { status: "error"; code: string };

/** The reviews asked for, by hand. */
export const reviews = signal<Readonly<Record<number, ReviewState>>>({});

function put(hand: number, state: ReviewState): void {
  reviews.value = { ...reviews.value, [hand]: state };
}

/** How far a review has come, as the server says it (`/review/progress`). */
interface Progress {
  state: "done" | "running" | "waiting" | "none";
  done: number;
  total: number;
}

/** How often the page asks how far a review under way has come. */
export const PROGRESS_MS = 1000;

/** Ask for the review of `hand` for this player's own seat (`seat`, when known, is sent:
 *  the server checks it is theirs), and how far it has come every `PROGRESS_MS` while it
 *  runs. Asked again while it runs or once it is done: nothing (a refusal may be asked
 *  again). `now` is the clock the wait is counted from. */
export async function requestReview(
  hand: number,
  seat?: Seat | null,
  now: () => number = Date.now,
): Promise<void> {
  const was = reviews.value[hand];
  if (was && was.status !== "error") return;
  const since = now();
  put(hand, { status: "running", since, done: 0, total: 0 });
  const query = seat ? `?seat=${seat}` : "";
  let asking = false;
  const poll = setInterval(() => {
    if (asking) return;
    asking = true;
    api<Progress>(`/api/hands/${hand}/review/progress${query}`)
      .then((p) => {
        const at = reviews.value[hand];
        if (at?.status === "running" && p.state === "running")
          put(hand, { ...at, done: p.done, total: p.total });
      })
      .catch(() => {}) // the review's own answer says what went wrong
      .finally(() => {
        asking = false;
      });
  }, PROGRESS_MS);
  try {
    const review = await api<HandReview>(`/api/hands/${hand}/review${query}`);
    put(hand, { status: "done", review });
  } catch (err) {
    put(hand, { status: "error", code: err instanceof ApiError ? err.code : "network" });
  } finally {
    clearInterval(poll);
  }
}

/** The decisions where the seat and the expert differ, largest estimated loss first (the
 *  server's order). */
export function rankedItems(review: HandReview): ReviewItem[] {
  const byStep = new Map(review.items.map((d) => [d.step, d]));
  return review.ranked.flatMap((s) => {
    const d = byStep.get(s);
    return d ? [d] : [];
  });
}

/** Whether a decision's loss lies beyond the noise (its interval above 0). */
export function beyondNoise(d: ReviewItem): boolean {
  return d.loss?.lo != null && d.loss.lo > 0;
}
