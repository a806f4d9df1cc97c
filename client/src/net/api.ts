// HTTP calls: the session is the HttpOnly cookie the server sets on login; no token is kept
// by this page (nothing in localStorage, nothing in a URL).
import type { BotLevel, Game, GameEvent, Move, Seat, View } from "../protocol";

/** What the scorer's server found wrong (`invalid_hand`'s `detail`): a stable key, the
 *  input's path, and the key's values (tile or card codes, seat letters, counts). */
export interface ProblemDetail {
  why: string;
  field: string;
  params: Record<string, string | number>;
}

/** One of the problems the scorer found in a hand (`invalid_hand`'s `problems`): the
 *  server's English, and its detail when it has one. */
export interface ApiProblem {
  message: string;
  detail: ProblemDetail | null;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly detail: ProblemDetail | null = null,
    /** Every problem found (the first is this error's own); empty when none are sent. */
    readonly problems: ApiProblem[] = [],
  ) {
    super(message);
  }
}

function problemsOf(value: unknown): ApiProblem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p: unknown) => {
    const m = (p as { message?: unknown } | null)?.message;
    if (typeof m !== "string") return [];
    const d = (p as { detail?: unknown }).detail;
    return [{ message: m, detail: isDetail(d) ? d : null }];
  });
}

function isDetail(value: unknown): value is ProblemDetail {
  const d = value as ProblemDetail | null;
  return (
    typeof d === "object" &&
    d !== null &&
    typeof d.why === "string" &&
    typeof d.field === "string" &&
    typeof d.params === "object" &&
    d.params !== null
  );
}

export async function api<T>(path: string, body?: unknown, method?: string): Promise<T> {
  const init: RequestInit = {
    credentials: "same-origin",
    headers: { accept: "application/json" },
  };
  if (body !== undefined) {
    init.method = method ?? "POST";
    init.headers = { ...init.headers, "content-type": "application/json" };
    init.body = JSON.stringify(body);
  } else if (method) {
    init.method = method;
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError("network", String(err), 0);
  }
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (
      data as {
        error?: { code?: string; message?: string; detail?: unknown; problems?: unknown };
      } | null
    )?.error;
    throw new ApiError(
      error?.code ?? "other",
      error?.message ?? response.statusText,
      response.status,
      isDetail(error?.detail) ? error.detail : null,
      problemsOf(error?.problems),
    );
  }
  return data as T;
}

export interface Me {
  name: string;
  balance: number;
  seated: { table: number | string; room: string; seat: string } | null;
}

export interface Room {
  name: string;
  game: Game;
  title?: string;
  min_balance: number;
  seats: number;
  escape_multiple: number;
  bots: boolean;
  /** The level of the room's bots (a table of one's own may choose another). */
  level?: BotLevel | null;
  tables: number;
  players: number;
}

export interface LedgerEntry {
  id: number;
  amount: number;
  balance_after: number;
  reason: string;
  hand: number | null;
  at: string;
  /** The other side of the movement (a player's name, or "house"), when the server sends it. */
  counterpart?: string | null;
  counterparts?: string[] | null;
}

export interface HandSummary {
  hand: number;
  game: Game;
  seat: string;
  stake: number;
  net: number | null;
  /** This player's points moved by the hand (the fee and the settlement). */
  points?: number | null;
  at: string;
  /** "done", or "aborted" by an escape: then `escaper` is the seat that escaped. */
  status?: string;
  result?: string | null;
  escaper?: string | null;
  why?: string | null;
}

export interface ReplayStep {
  game: Game;
  seat: string;
  step: number;
  steps: number;
  last: string | null;
  view: View;
  /** Every seat's view at this step (the hand is over, so nothing is hidden any more). */
  views?: Partial<Record<Seat, View>>;
  /** The hand's moves, in the record's notation. */
  actions?: string[];
  /** Each move's events as this seat saw them (the move list names tiles as the log did). */
  events?: GameEvent[][];
  /** Who sat where, as the record has it. */
  names?: Partial<Record<Seat, { name: string; bot: boolean; level?: BotLevel | null }>>;
}

/** A finished hand's points, as the ledger recorded them for this player: the fee, each
 *  movement of the settlement (with its counterpart), the change and the balance after. */
export interface HandPoints {
  fee: number;
  moves: Move[];
  change: number;
  balance: number | null;
}

export function handPoints(entries: LedgerEntry[], hand: number, me: string): HandPoints {
  const mine = entries.filter((e) => e.hand === hand);
  let fee = 0;
  const moves: Move[] = [];
  for (const e of [...mine].reverse()) {
    if (e.reason === "fee") {
      fee -= e.amount;
      continue;
    }
    const other = e.counterpart ?? "house";
    const reason: Move["reason"] = e.reason === "escape" ? "escape" : "hand";
    if (e.amount < 0) moves.push({ from: me, to: other, amount: -e.amount, reason });
    else moves.push({ from: other, to: me, amount: e.amount, reason });
  }
  return {
    fee,
    moves,
    change: mine.reduce((acc, e) => acc + e.amount, 0),
    balance: mine[0]?.balance_after ?? null,
  };
}

/** An estimate of the hand review (`GET /api/hands/{id}/review`): the mean over the worlds
 *  and its 95% interval (`lo`, `hi` null where it has none), in the game's unit. */
export interface ReviewValue {
  mean: number;
  lo: number | null;
  hi: number | null;
  n: number;
}

/** One decision of the reviewed seat: the replay's step that shows it, what was played and
 *  what the expert chose (the record's notation); where they differ, each one's value and
 *  the loss (the expert's less the played one's). */
export interface ReviewItem {
  step: number;
  kind: string;
  played: string;
  expert: string;
  legal: number;
  agrees: boolean;
  played_value: ReviewValue | null;
  expert_value: ReviewValue | null;
  loss: ReviewValue | null;
}

/** A finished hand reviewed for the caller's own seat (docs/protocol.md, docs/bots.md). */
export interface HandReview {
  game: Game;
  hand: number | null;
  seat: Seat;
  unit: string;
  seed: number;
  worlds: number;
  rollout: string;
  expert: string;
  decisions: number;
  agreement: number;
  total_loss: number;
  summary: string;
  /** The steps of the decisions that differ, largest loss first. */
  ranked: number[];
  /** Those of them whose loss's interval lies above 0. */
  flagged: number[];
  items: ReviewItem[];
}
