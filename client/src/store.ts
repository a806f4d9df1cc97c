// The page's state, as signals, and the one function that folds a server frame into it.
// Nothing here renders; components read these signals, so a language switch (a signal of
// its own) re-renders text without touching the connection or what is on screen.
import { batch, computed, signal } from "@preact/signals";
import { entriesOf, type LogEntry, lostTo } from "./game/log";
import { isSeat } from "./game/seats";
import type {
  BotLevel,
  Game,
  GameEvent,
  Move,
  Seat,
  SeatInfo,
  ServerMessage,
  UnseatedWhy,
  View,
} from "./protocol";
import { SERVER_TYPES } from "./protocol";
import type { RulesGame } from "./rules";

export interface Me {
  name: string;
  balance: number;
}

/** The scorer page's tabs: a Mazhan hand, or one Ma Diao player's 開沖 draws. */
export type ScoreGame = "mazhan" | "madiao";

export type Route =
  | { name: "login" }
  | { name: "lobby" }
  | { name: "table" }
  | { name: "replay"; hand: number; step: number }
  | { name: "score"; game: ScoreGame | null }
  | { name: "rules"; game: RulesGame | null };

export interface ViewFrame {
  table: number | string;
  hand: number;
  version: number;
  view: View;
  events: GameEvent[];
  /** The running clock: whose it is (null: this seat's own claim prompt), its full length
   *  in seconds, and when it expires (ms since the epoch, local clock); null when none runs
   *  for this seat to see. */
  clock: { seat: Seat | null; seconds: number; deadline: number } | null;
  stake: number;
  receivedAt: number;
  /** This player's turns timed out in a row (the 4th is an escape). */
  timeouts: number;
}

export interface SettlementFrame {
  hand: number;
  stake: number;
  fee: number;
  result: unknown;
  moves: Move[];
  balance: number | null;
  balanceChange: number | null;
  /** When the confirmation of the next hand expires (ms, local clock). */
  readyDeadline: number | null;
  /** The hand's last view (its `result` reveals every hand). */
  view: View | null;
  /** Who sat where in this hand (the table's seating moves on when the deal passes). */
  names: Record<Seat, SeatInfo | null>;
  game: Game;
}

export interface EscapeNotice {
  hand: number;
  seat: Seat;
  name: string;
  why: string;
  penalty: number;
  moves: Move[];
  mine: boolean;
}

export interface Toast {
  id: number;
  kind: "info" | "warn" | "error";
  /** Resolved at render time so it follows the language. */
  key: ToastKey;
  params?: Record<string, string | number>;
  at: number;
}

export type ToastKey =
  | {
      ui:
        | "claimLost"
        | "claimLostPlain"
        | "reconnected"
        | "unknownMessage"
        | "escapeNotice"
        | "youEscaped"
        | "youLeftPaid"
        | "unseatedPoints"
        | "unseatedClosed"
        | "unseatedEscape"
        | "unseatedReady"
        | "unseatedVoid"
        | "paused"
        | "pausedPeers"
        | "resumed"
        | "linkCopied"
        | "friendJoined"
        | "friendLeft"
        | "linkNotCopied"
        | "invitedSeated";
    }
  | { error: string };

export interface TableState {
  table: number | string;
  room: string;
  game: Game;
  live: boolean;
  /** Hands started at this table. */
  handNo: number;
  seats: Record<Seat, SeatInfo | null>;
  /** When this player's confirmation of the next hand expires (ms, local clock), or null. */
  readyDeadline: number | null;
  /** A private table's code (its players share it with friends), or null. */
  code: string | null;
}

// --- signals ---------------------------------------------------------------------------
export const me = signal<Me | null>(null);
export const route = signal<Route>({ name: "login" });
export const seated = signal<{ table: number | string; room: string; seat: Seat } | null>(null);
/** A join was sent and has no answer yet (seated, or an error): the lobby's buttons wait, so
 *  that a double click does not send a second join (answered "you sit at another table"). */
export const joining = signal(false);
/** Joins by a code the server refused (the table closed, filled or began a hand): an
 *  invitation on show asks again what the table is now. */
export const codeRefused = signal(0);
export const tableState = signal<TableState | null>(null);
export const handInfo = signal<{ hand: number; stake: number; fee: number } | null>(null);
export const frame = signal<ViewFrame | null>(null);
export const moveLog = signal<LogEntry[]>([]);
export const settlement = signal<SettlementFrame | null>(null);
export const escaped = signal<EscapeNotice | null>(null);
/** How many of the hand's last 開沖 draws the settlement has yet to turn up: the move log
 *  holds their lines back until then (else it told the draws before the cards showed). */
export const chongUnshown = signal(0);
export const toasts = signal<Toast[]>([]);
export const readySent = signal(false);
/** The action sent for the current view (its prompt is gone and the buttons wait for the
 *  next view, whatever its version: a view after the claim pause may carry the same one). */
export const pending = signal<{ version: number; action: string } | null>(null);
/** The hint asked at this table of bots: the default bot's action at the view of `version`
 *  (`action` null while the answer is awaited); gone with the view it was asked at. */
export const hint = signal<{ version: number; action: string | null } | null>(null);
/** The hint for the view shown now (an answer for an older view is not this one's). */
export const currentHint = computed(() => {
  const h = hint.value;
  return h && frame.value && h.version === frame.value.version ? h : null;
});
export const unseatedWhy = signal<UnseatedWhy | null>(null);
/** The kind of table the player was unseated from (not confirming in time): the notice
 *  that says so offers a seat at the same kind again. */
export interface TableKind {
  room: string;
  /** Alone with bots (a table of one's own). */
  alone: boolean;
  level: BotLevel | null;
  /** A table for friends: its code (sitting again goes back there, not to strangers). */
  code: string | null;
}
export const unseatedFrom = signal<TableKind | null>(null);
/** The hand waits for the house (`paused`): its storage (`storage`), or the server that plays
 *  the table, which this player's server cannot reach (`peers`). Clocks stand still, the board
 *  shows it. When set, why, the time it paused (ms) and the running clock's seconds left then. */
export const paused = signal<{ at: number; left: number | null; why: PausedWhy } | null>(null);
export type PausedWhy = "storage" | "peers";
export const unknownFrames = signal(0);
/** A private table's code from an invite link (`#/join/CODE`): the lobby offers it. */
export const inviteCode = signal<string | null>(null);

/** The people (not bots) who sat down or left between two seatings, but this player. */
export function peopleChange(
  before: Record<Seat, SeatInfo | null>,
  after: Record<Seat, SeatInfo | null>,
  me: string | null,
): { key: { ui: "friendJoined" | "friendLeft" }; params: { name: string } }[] {
  const people = (seats: Record<Seat, SeatInfo | null>) =>
    new Set(
      Object.values(seats)
        .filter((s): s is SeatInfo => !!s && !s.bot && s.name !== me)
        .map((s) => s.name),
    );
  const was = people(before);
  const now = people(after);
  return [
    ...[...now]
      .filter((n) => !was.has(n))
      .map((name) => ({ key: { ui: "friendJoined" as const }, params: { name } })),
    ...[...was]
      .filter((n) => !now.has(n))
      .map((name) => ({ key: { ui: "friendLeft" as const }, params: { name } })),
  ];
}

export const game = computed<Game | null>(
  () =>
    frame.value?.view.game ??
    tableState.value?.game ??
    settlement.value?.game ??
    gameOfRoom(seated.value?.room),
);

/** A hand is being played now (ready makes no sense, leaving is an escape). */
export const handLive = computed(() => {
  const f = frame.value;
  if (f && f.view.result === null && !settlement.value && !escaped.value) return true;
  return false;
});

export function gameOfRoom(room: string | undefined): Game | null {
  if (!room) return null;
  return room.startsWith("madiao") ? "madiao" : "mazhan";
}

let toastId = 1;
export function toast(
  key: ToastKey,
  params?: Record<string, string | number>,
  kind: Toast["kind"] = "info",
): void {
  const item: Toast = { id: toastId++, kind, key, at: Date.now() };
  if (params) item.params = params;
  toasts.value = [...toasts.value.slice(-3), item];
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((x) => x.id !== id);
}

/** Forget the table (after leaving, an unseat, a logout). */
export function clearTable(): void {
  batch(() => {
    seated.value = null;
    tableState.value = null;
    handInfo.value = null;
    frame.value = null;
    moveLog.value = [];
    settlement.value = null;
    escaped.value = null;
    chongUnshown.value = 0;
    readySent.value = false;
    pending.value = null;
    hint.value = null;
    paused.value = null;
  });
}

function moves(raw: unknown): Move[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (m): m is Move =>
      !!m &&
      typeof m === "object" &&
      typeof (m as Move).amount === "number" &&
      typeof (m as Move).from === "string",
  );
}

const ORDER: Seat[] = ["E", "S", "W", "N"];

/** The names of a finished hand's seats. The table's seating moves on when the deal passes
 *  (the `table` frame after a settlement); a player who sat in `handSeat` for the hand and
 *  sits in `chair` now finds everyone moved by the same turn.
 *
 *  handNames({E: a, S: b, W: c, N: me}, "E", "N") → {E: me, S: a, W: b, N: c} */
export function handNames(
  seats: Record<Seat, SeatInfo | null>,
  handSeat: Seat | null,
  chair: Seat | null,
): Record<Seat, SeatInfo | null> {
  if (!handSeat || !chair || handSeat === chair) return seats;
  const shift = (ORDER.indexOf(chair) - ORDER.indexOf(handSeat) + 4) % 4;
  const at = (s: Seat) => ORDER[(ORDER.indexOf(s) + shift) % 4] as Seat;
  return { E: seats[at("E")], S: seats[at("S")], W: seats[at("W")], N: seats[at("N")] };
}

/** The four seats of a `table` frame (a missing one is empty). */
function seatsOf(raw: Partial<Record<string, SeatInfo | null>>): Record<Seat, SeatInfo | null> {
  return { E: raw.E ?? null, S: raw.S ?? null, W: raw.W ?? null, N: raw.N ?? null };
}

const UNSEATED_KEY: Record<UnseatedWhy, ToastKey & { ui: string }> = {
  left: { ui: "unseatedEscape" },
  escape: { ui: "unseatedEscape" },
  too_few_points: { ui: "unseatedPoints" },
  not_ready: { ui: "unseatedReady" },
  table_closed: { ui: "unseatedClosed" },
  void: { ui: "unseatedVoid" },
};

/** The toast that says why the seat was lost (every `why` of the protocol has one). */
export function unseatedToast(why: UnseatedWhy): ToastKey {
  return UNSEATED_KEY[why] ?? { ui: "unseatedEscape" };
}

/** The kind of table this player sits at: its room, and whether every other seat is a bot
 *  (then the bots' level). */
export function tableKind(): TableKind | null {
  const at = seated.value;
  const seats = tableState.value?.seats;
  if (!at || !seats) return at ? { room: at.room, alone: false, level: null, code: null } : null;
  const code = tableState.value?.code ?? null;
  const others = ORDER.filter((s) => s !== at.seat).map((s) => seats[s]);
  const alone = !code && others.every((x) => x?.bot === true);
  const level = alone ? ((others[0]?.level as BotLevel | undefined) ?? null) : null;
  return { room: at.room, alone, level, code };
}

/** Fold one frame from the server into the state. Unknown frames are logged, not fatal. */
export function handle(raw: unknown, now: number = Date.now()): void {
  if (!raw || typeof raw !== "object" || typeof (raw as { type?: unknown }).type !== "string") {
    console.warn("paiju: a frame without a type", raw);
    unknownFrames.value += 1;
    return;
  }
  const m = raw as ServerMessage;
  if (!(SERVER_TYPES as readonly string[]).includes(m.type)) {
    console.warn(`paiju: unknown frame type ${JSON.stringify(m.type)}`, raw);
    unknownFrames.value += 1;
    return;
  }
  switch (m.type) {
    case "hello":
      batch(() => {
        me.value = { name: m.name, balance: m.balance };
        joining.value = false; // a new connection: a join sent on the old one is not answered
        // a new connection: a hint asked on the old one is not coming
        if (hint.value?.action === null) hint.value = null;
      });
      // the server holds no seat for us: the table we thought we sat at is gone (it closed,
      // or we were unseated while the frame saying so was lost with a server)
      if (m.seated === false && seated.value)
        handle({ type: "unseated", why: "table_closed" }, now);
      return;
    case "seated":
      batch(() => {
        joining.value = false;
        if (seated.value && seated.value.table !== m.table) clearTable();
        seated.value = { table: m.table, room: m.room, seat: m.seat };
        unseatedWhy.value = null;
        unseatedFrom.value = null;
        inviteCode.value = null; // an invitation is done with once seated
        if (route.value.name !== "replay") route.value = { name: "table" };
      });
      return;
    case "table":
      batch(() => {
        const before = tableState.value;
        const seats = seatsOf(m.seats);
        tableState.value = {
          table: m.table,
          room: m.room,
          game: m.game,
          live: m.live,
          handNo: m.hand_no,
          seats,
          readyDeadline: typeof m.ready_seconds === "number" ? now + m.ready_seconds * 1000 : null,
          code: m.code ?? null,
        };
        // the seating moves on when the deal passes (no `seated` frame says so): find
        // this player by name
        const name = me.value?.name;
        const chair = name ? ORDER.find((x) => seats[x]?.name === name && !seats[x]?.bot) : null;
        if (seated.value && chair && chair !== seated.value.seat)
          seated.value = { ...seated.value, seat: chair };
        const mine = seated.value ? seats[seated.value.seat] : null;
        // a table that is not live and shows this seat unconfirmed: the ready button is back
        if (!m.live && mine && !mine.ready && before) readySent.value = false;
        if (mine?.ready) readySent.value = true;
        // at a table for friends, who comes and goes between hands is said
        if (before && before.table === m.table && m.code && !m.live) {
          // one who escaped has been told of by the escape notice: no "left" besides
          const gone = escaped.value?.name;
          for (const who of peopleChange(before.seats, seats, name ?? null)) {
            if (!(who.key.ui === "friendLeft" && who.params.name === gone))
              toast(who.key, who.params);
          }
        }
      });
      return;
    case "hand_start":
      batch(() => {
        const again = handInfo.value?.hand === m.hand;
        handInfo.value = { hand: m.hand, stake: m.stake, fee: m.fee };
        moveLog.value = [];
        settlement.value = null;
        escaped.value = null;
        frame.value = null;
        pending.value = null;
        readySent.value = false;
        paused.value = null;
        // the server says the balance after the fee; taking the fee here would take it
        // again on every reconnect (the hand_start is sent again then)
        if (me.value && typeof m.balance === "number")
          me.value = { ...me.value, balance: m.balance };
        else if (me.value && typeof m.fee === "number" && !again)
          me.value = { ...me.value, balance: me.value.balance - m.fee };
        if (seated.value && isSeat(m.seat)) seated.value = { ...seated.value, seat: m.seat };
      });
      return;
    case "view": {
      const f: ViewFrame = {
        table: m.table,
        hand: m.hand,
        version: m.version,
        view: m.view,
        events: Array.isArray(m.events) ? m.events : [],
        clock: m.clock
          ? {
              seat: isSeat(m.clock.seat) ? m.clock.seat : null,
              seconds: m.clock.seconds,
              deadline: now + m.clock.left * 1000,
            }
          : null,
        stake: m.stake,
        receivedAt: now,
        timeouts: typeof m.timeouts === "number" ? m.timeouts : 0,
      };
      batch(() => {
        if (frame.value && frame.value.hand !== f.hand) moveLog.value = [];
        frame.value = f;
        if (!handInfo.value || handInfo.value.hand !== f.hand) {
          handInfo.value = { hand: f.hand, stake: f.stake, fee: handInfo.value?.fee ?? f.stake };
        }
        const added = entriesOf(f.events, f.hand, f.version);
        // a connection's first view of a live hand carries the hand so far: the log is
        // rebuilt from it (a reload keeps its moves), and nothing in it is news to toast
        const catchUp = m.catch_up === true;
        if (catchUp) moveLog.value = added.slice(-400);
        else if (added.length) moveLog.value = [...moveLog.value, ...added].slice(-400);
        // any view answers what was sent: the server sends none while the claim pause holds,
        // and the view after it may carry the version of the one before
        pending.value = null;
        if (hint.value && (hint.value.version !== f.version || !f.view.legal.length))
          hint.value = null;
        // a live hand's view names this player's seat; a finished one's may be the seat
        // of the hand before the deal passed
        if (
          seated.value &&
          f.view.result === null &&
          isSeat(f.view.seat) &&
          seated.value.seat !== f.view.seat
        ) {
          seated.value = { ...seated.value, seat: f.view.seat };
        }
        for (const e of catchUp ? [] : added) {
          if (e.kind !== "claim_lost") continue;
          const to = lostTo(e.detail);
          toast(
            to ? { ui: "claimLost" } : { ui: "claimLostPlain" },
            to ? { seat: to.seat, winner: to.kind } : { seat: "", winner: e.detail },
            "warn",
          );
        }
        // a hand going live (or a reconnect) while the player was elsewhere: the table
        // (the rules page too: its link at the table is for between hands)
        if (["lobby", "login", "rules"].includes(route.value.name)) route.value = { name: "table" };
      });
      return;
    }
    case "settlement":
      batch(() => {
        const view = frame.value?.hand === m.hand ? frame.value.view : null;
        const seats = tableState.value?.seats ?? { E: null, S: null, W: null, N: null };
        settlement.value = {
          names: handNames(seats, view?.seat ?? null, seated.value?.seat ?? null),
          hand: m.hand,
          stake: m.stake,
          fee: typeof m.fee === "number" ? m.fee : (handInfo.value?.fee ?? m.stake),
          result: m.result,
          moves: moves(m.moves),
          balance: typeof m.balance === "number" ? m.balance : null,
          balanceChange: m.balance_change,
          readyDeadline: typeof m.ready_seconds === "number" ? now + m.ready_seconds * 1000 : null,
          view,
          game: (view?.game ?? game.value ?? "mazhan") as Game,
        };
        if (me.value && typeof m.balance === "number")
          me.value = { ...me.value, balance: m.balance };
        readySent.value = false;
        pending.value = null;
      });
      return;
    case "escape":
      batch(() => {
        const mine = seated.value?.seat === m.seat;
        const notice: EscapeNotice = {
          hand: m.hand,
          seat: m.seat,
          name: m.name || (tableState.value?.seats[m.seat]?.name ?? m.seat),
          why: m.why,
          penalty: m.penalty,
          moves: moves(m.moves),
          mine,
        };
        escaped.value = notice;
        frame.value = null;
        pending.value = null;
        readySent.value = false;
        if (me.value && typeof m.balance === "number") {
          me.value = { ...me.value, balance: m.balance };
        } else if (me.value) {
          const name = me.value.name;
          const delta = notice.moves.reduce(
            (acc, x) => acc + (x.to === name ? x.amount : 0) - (x.from === name ? x.amount : 0),
            0,
          );
          me.value = { ...me.value, balance: me.value.balance + delta };
        }
      });
      return;
    case "unseated":
      joining.value = false; // a join may be answered so (too few points, a closed table)
      if (
        m.why === "left" ||
        (m.why === "escape" && escaped.value?.mine && escaped.value.why === "left")
      ) {
        // the player's own leave, confirmed by the server: back to the lobby (an escape
        // says what it cost)
        batch(() => {
          const penalty = m.why === "escape" ? escaped.value?.penalty : undefined;
          clearTable();
          if (penalty !== undefined) toast({ ui: "youLeftPaid" }, { penalty }, "warn");
          route.value = { name: "lobby" };
        });
        return;
      }
      batch(() => {
        unseatedWhy.value = m.why;
        unseatedFrom.value = tableKind();
        const keep = settlement.value; // a settlement stays on screen until the player leaves
        const esc = escaped.value;
        seated.value = null;
        tableState.value = keep || esc ? tableState.value : null;
        readySent.value = false;
        if (!keep && !esc && route.value.name === "table") route.value = { name: "lobby" };
        // not confirming in time is said by a notice that stays (the table's or the lobby's)
        if (m.why !== "not_ready") toast(unseatedToast(m.why), undefined, "warn");
      });
      return;
    case "paused": {
      // the clock stops where it is; the server restarts it in full after the pause (a
      // second pause, for the other reason, keeps the moment the clock stopped)
      const f = frame.value;
      const was = paused.value;
      const left = f?.clock ? Math.max(0, (f.clock.deadline - now) / 1000) : null;
      const why: PausedWhy = m.why === "peers" ? "peers" : "storage";
      batch(() => {
        paused.value = { at: was?.at ?? now, left: was ? was.left : left, why };
        if (was?.why !== why)
          toast({ ui: why === "peers" ? "pausedPeers" : "paused" }, undefined, "warn");
      });
      return;
    }
    case "resumed":
      batch(() => {
        const f = frame.value;
        // fresh clocks after a pause (the server re-arms every clock at its full length)
        if (f?.clock && paused.value)
          frame.value = { ...f, clock: { ...f.clock, deadline: now + f.clock.seconds * 1000 } };
        paused.value = null;
        toast({ ui: "resumed" });
      });
      return;
    case "hint":
      if (frame.value?.version === m.version) hint.value = { version: m.version, action: m.action };
      return;
    case "pong":
      return;
    case "error":
      batch(() => {
        joining.value = false;
        if (m.code === "unknown_table" || m.code === "table_full" || m.code === "table_playing")
          codeRefused.value += 1;
        // a hint asked just as the view moved on: the next view has come or is coming, and
        // the hint is simply not given (an action's stale version is still said)
        const hintGone =
          m.code === "stale_version" && hint.value?.action === null && !pending.value;
        pending.value = null;
        if (hint.value?.action === null) hint.value = null;
        if (hintGone) return;
        toast({ error: m.code }, m.message ? { message: m.message } : undefined, "error");
        if (m.code === "unauthorized" || m.code === "session_ended") {
          me.value = null;
          route.value = { name: "login" };
        }
      });
      return;
    default: {
      const type = (raw as { type: string }).type;
      console.warn(`paiju: unknown frame type ${JSON.stringify(type)}`, raw);
      unknownFrames.value += 1;
    }
  }
}
