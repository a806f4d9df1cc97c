// What each server frame does to the state: one small function per frame type (docs/protocol.md),
// each changing the connection's, the lobby's, the table's or the settlement's signals.

import { batch } from "@preact/signals";
import { entriesOf, lostTo } from "../model/log";
import { isSeat, SEATS } from "../model/seats";
import type { ServerMessage, ServerType } from "../protocol";
import { draining, me, route, toast, unknownFrames } from "./connection";
import {
  codeRefused,
  inviteCode,
  joining,
  unseatedFrom,
  unseatedToast,
  unseatedWhy,
} from "./lobby";
import {
  type EscapeNotice,
  escaped,
  movesOf,
  settlement,
  settlementStage,
  shownHand,
} from "./settlement";
import { onUnwatched, onWatching, onWatchView } from "./spectate";
import {
  clearTable,
  frame,
  gameHere,
  handInfo,
  handNames,
  hint,
  moveLog,
  type PausedWhy,
  paused,
  pending,
  peopleChange,
  readySent,
  seated,
  seatsOf,
  tableKind,
  tableState,
  type ViewFrame,
} from "./table";

type Frame<K extends ServerType> = Extract<ServerMessage, { type: K }>;
/** What a frame of type `K` does to the state, at `now` (ms, local clock). */
export type On<K extends ServerType> = (m: Frame<K>, now: number) => void;

function onHello(m: Frame<"hello">): void {
  batch(() => {
    me.value = { name: m.name, balance: m.balance };
    joining.value = false; // a new connection: a join sent on the old one is not answered
    // a new connection: a hint asked on the old one is not coming
    if (hint.value?.action === null) hint.value = null;
  });
  // the server holds no seat for us: the table we thought we sat at is gone (it closed,
  // or we were unseated while the frame saying so was lost with a server)
  if (m.seated === false && seated.value) onUnseated({ type: "unseated", why: "table_closed" });
}

function onSeated(m: Frame<"seated">): void {
  batch(() => {
    joining.value = false;
    if (seated.value && seated.value.table !== m.table) clearTable();
    seated.value = { table: m.table, room: m.room, game: m.game, seat: m.seat };
    unseatedWhy.value = null;
    unseatedFrom.value = null;
    inviteCode.value = null; // an invitation is done with once seated
    if (route.value.name !== "replay") route.value = { name: "table" };
  });
}

function onTable(m: Frame<"table">, now: number): void {
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
    const chair = name ? SEATS.find((x) => seats[x]?.name === name && !seats[x]?.bot) : null;
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
        if (!(who.key.ui === "friendLeft" && who.params.name === gone)) toast(who.key, who.params);
      }
    }
  });
}

function onHandStart(m: Frame<"hand_start">): void {
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
    if (me.value && typeof m.balance === "number") me.value = { ...me.value, balance: m.balance };
    else if (me.value && typeof m.fee === "number" && !again)
      me.value = { ...me.value, balance: me.value.balance - m.fee };
    if (seated.value && isSeat(m.seat)) seated.value = { ...seated.value, seat: m.seat };
    // a new hand takes a player who was looking at a replay (the last hand's review, say)
    // back to the table: their clock runs from now
    if (!again && seated.value && route.value.name === "replay") route.value = { name: "table" };
  });
}

function onView(m: Frame<"view">, now: number): void {
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
    if (hint.value && (hint.value.version !== f.version || !f.view.legal.length)) hint.value = null;
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
}

function onSettlement(m: Frame<"settlement">, now: number): void {
  batch(() => {
    const view = frame.value?.hand === m.hand ? frame.value.view : null;
    const seats = tableState.value?.seats ?? { E: null, S: null, W: null, N: null };
    settlement.value = {
      names: handNames(seats, view?.seat ?? null, seated.value?.seat ?? null),
      hand: m.hand,
      stake: m.stake,
      fee: typeof m.fee === "number" ? m.fee : (handInfo.value?.fee ?? m.stake),
      result: m.result,
      moves: movesOf(m.moves),
      balance: typeof m.balance === "number" ? m.balance : null,
      balanceChange: m.balance_change,
      readyDeadline: typeof m.ready_seconds === "number" ? now + m.ready_seconds * 1000 : null,
      view,
      game: view?.game ?? gameHere() ?? settlement.value?.game ?? null,
    };
    if (me.value && typeof m.balance === "number") me.value = { ...me.value, balance: m.balance };
    readySent.value = false;
    pending.value = null;
    // the hand's last board stays a moment when this page saw the win (its 胡 called out);
    // a settlement sent again (a reconnect) goes straight to its parts
    const again = settlement.value && shownHandIs(m.hand);
    const won = frame.value?.hand === m.hand && frame.value.events.some((e) => e.kind === "hu");
    settlementStage.value = won && !again ? "board" : "reveal";
  });
}

function shownHandIs(hand: number): boolean {
  return shownHand.value === hand;
}

function onEscape(m: Frame<"escape">): void {
  batch(() => {
    const mine = seated.value?.seat === m.seat;
    const notice: EscapeNotice = {
      hand: m.hand,
      seat: m.seat,
      name: m.name || (tableState.value?.seats[m.seat]?.name ?? m.seat),
      why: m.why,
      penalty: m.penalty,
      moves: movesOf(m.moves),
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
}

function onUnseated(m: Frame<"unseated">): void {
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
}

function onPaused(m: Frame<"paused">, now: number): void {
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
}

function onResumed(_m: Frame<"resumed">, now: number): void {
  batch(() => {
    const f = frame.value;
    // fresh clocks after a pause (the server re-arms every clock at its full length)
    if (f?.clock && paused.value)
      frame.value = { ...f, clock: { ...f.clock, deadline: now + f.clock.seconds * 1000 } };
    paused.value = null;
    toast({ ui: "resumed" });
  });
}

function onHint(m: Frame<"hint">): void {
  if (frame.value?.version === m.version) hint.value = { version: m.version, action: m.action };
}

function onError(m: Frame<"error">): void {
  batch(() => {
    joining.value = false;
    if (m.code === "unknown_table" || m.code === "table_full" || m.code === "table_playing")
      codeRefused.value += 1;
    // a hint asked just as the view moved on: the next view has come or is coming, and
    // the hint is simply not given (an action's stale version is still said)
    const hintGone = m.code === "stale_version" && hint.value?.action === null && !pending.value;
    pending.value = null;
    if (hint.value?.action === null) hint.value = null;
    if (hintGone) return;
    toast({ error: m.code }, m.message ? { message: m.message } : undefined, "error");
    if (m.code === "unauthorized" || m.code === "session_ended") {
      me.value = null;
      route.value = { name: "login" };
    }
  });
}

/** Every frame type of the protocol and what it does (tsc fails on a type without one). */
export const ON: { [K in ServerType]: On<K> } = {
  hello: onHello,
  seated: onSeated,
  table: onTable,
  hand_start: onHandStart,
  view: onView,
  settlement: onSettlement,
  escape: onEscape,
  unseated: onUnseated,
  paused: onPaused,
  // the server restarts: the hand plays on to its end, then the page reconnects elsewhere
  draining: () => {
    draining.value = true;
    toast({ ui: "draining" }, undefined, "warn");
  },
  resumed: onResumed,
  hint: onHint,
  watching: onWatching,
  watch_view: onWatchView,
  unwatched: onUnwatched,
  pong: () => {},
  error: onError,
};

/** A frame this page cannot read: logged and counted, never fatal. */
export function unknownFrame(why: string, raw: unknown): void {
  console.warn(`paiju: ${why}`, raw);
  unknownFrames.value += 1;
}
