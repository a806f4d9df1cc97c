// Session-level actions: log in and out, the socket, sending to the table, going to a screen.
import { batch, effect } from "@preact/signals";
import { gameUi } from "./games";
import { ApiError, type Me as ApiMe, api } from "./net/api";
import { Socket } from "./net/socket";
import type { BotLevel, ClientMessage } from "./protocol";
import { draining, me, type Route, route, toast } from "./state/connection";
import { handle } from "./state/handle";
import { inviteCode, joining } from "./state/lobby";
import { prefs } from "./state/prefs";
import { reviews } from "./state/review";
import { escaped, settlement } from "./state/settlement";
import {
  clearTable,
  frame,
  handLive,
  hint,
  pending,
  readySent,
  seated,
  tableState,
} from "./state/table";

function wsUrl(): string {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  return `${proto}://${location.host}/ws`;
}

/** The server drains and this player's hand is over: the socket's close is the hand-over
 *  the server announced (a hand still live at the drain's bound is a real reconnect). */
export function closeAnnounced(): boolean {
  return draining.value && !handLive.value;
}

export const socket = new Socket({
  url: wsUrl,
  onMessage: handle,
  onOpen: (reconnected, quiet) => {
    draining.value = false; // the new socket is to a server that stays
    if (reconnected && !quiet) toast({ ui: "reconnected" });
  },
  announced: closeAnnounced,
  onRefused: () => {
    batch(() => {
      me.value = null;
      clearTable();
      go({ name: "login" });
    });
  },
});

export function send(message: ClientMessage): boolean {
  const ok = socket.send(message);
  if (!ok) toast({ error: "network" }, undefined, "error");
  return ok;
}

/** Play an action of the current view (the version the server expects rides along). */
export function act(action: string): void {
  const f = frame.value;
  if (!f || pending.value) return;
  if (send({ type: "action", action, version: f.view.version })) {
    pending.value = { version: f.view.version, action };
  }
}

/** The helps (prefs): take a win offered, pass a claim that offers none. Not under 托管
 *  (the server plays then), never twice for one view, never a pass of a win. */
effect(() => {
  const f = frame.value;
  const p = prefs.value;
  if (!f || pending.value || f.view.result !== null || (!p.autoWin && !p.autoPass)) return;
  const at = seated.value;
  if (at && tableState.value?.seats[at.seat]?.tuoguan) return;
  const chosen = gameUi(f.view.game)?.autoAction?.(f.view, p) ?? null;
  if (chosen) queueMicrotask(() => act(chosen));
});

export function ready(): void {
  if (send({ type: "ready" })) {
    readySent.value = true;
  }
}

/** Confirm the next hand from the settlement: the settlement closes, the table waits. */
export function readyNext(): void {
  if (send({ type: "ready" })) {
    batch(() => {
      readySent.value = true;
      settlement.value = null;
      escaped.value = null;
    });
  }
}

/** Watch a friend's table: by its code (eight letters and digits) or by a player's name. */
export function watch(who: string): boolean {
  const text = who.trim();
  const code = /^[A-Za-z0-9]{8}$/.test(text) && /\d/.test(text) ? text.toUpperCase() : null;
  return send(code ? { type: "watch", code } : { type: "watch", name: text });
}

/** Stop watching. */
export function unwatch(): void {
  send({ type: "unwatch" });
}

/** How long a join may go unanswered before the lobby's buttons come back (the server
 *  answers at once; a lost answer must not lock them). */
const JOIN_WAIT_MS = 10_000;
let joinTimer: ReturnType<typeof setTimeout> | null = null;

/** Send a join unless one is on its way (a double click sends one). */
function sendJoin(message: ClientMessage): void {
  if (joining.value) return;
  if (!send(message)) return;
  joining.value = true;
  if (joinTimer !== null) clearTimeout(joinTimer);
  joinTimer = setTimeout(() => {
    joinTimer = null;
    joining.value = false;
  }, JOIN_WAIT_MS);
}

/** An invite link's code to join by as soon as the socket opens (just after logging in). */
let joinWhenOpen: string | null = null;

// a socket that closes or drops takes any join on it with it
socket.status.subscribe((status) => {
  if (status.state !== "open") joining.value = false;
  else if (joinWhenOpen) {
    const code = joinWhenOpen;
    joinWhenOpen = null;
    joinCode(code);
  }
});

/** Sit at a table of `room`: a shared one, or one's own with bots at `level`. */
export function join(room: string, alone: boolean, level?: BotLevel): void {
  sendJoin(alone && level ? { type: "join", room, alone, level } : { type: "join", room, alone });
}

/** Open a table for friends in `room` (a code to share; bots only when asked). */
export function joinPrivate(room: string, level?: BotLevel): void {
  sendJoin(
    level ? { type: "join", room, private: true, level } : { type: "join", room, private: true },
  );
}

/** A private table's code as typed: eight letters and digits, any case, spaces ignored. */
export function normaliseCode(text: string): string | null {
  const code = text.replace(/[\s-]/g, "").toUpperCase();
  return /^[A-Z0-9]{8}$/.test(code) ? code : null;
}

/** Sit at a friend's private table by its code. */
export function joinCode(code: string): void {
  sendJoin({ type: "join", code });
}

/** At a private table: bots take the empty seats now. */
export function fillBots(): void {
  send({ type: "fill" });
}

/** At a table of bots: ask what the room's default bot would play at this view. */
export function askHint(version: number): void {
  if (send({ type: "hint", version })) hint.value = { version, action: null };
}

/** The link that brings a friend to this code's table (the lobby offers it to them). */
export function inviteLink(code: string, origin: string = location.origin): string {
  return `${origin}/#/join/${code}`;
}

/** Get up from the table: free between hands; `escape` only once the player has confirmed
 *  leaving a live hand (the server refuses a leave during a hand without it, so a tap meant
 *  for a table between hands never costs the penalty). */
export function leave(asEscape = false): void {
  if (!seated.value) {
    clearTable();
    go({ name: "lobby" });
    return;
  }
  if (!send(asEscape ? { type: "leave", escape: true } : { type: "leave" })) return;
}

export function go(r: Route): void {
  route.value = r;
}

/** Who is logged in (the cookie decides); opens the socket when someone is. */
export async function refreshMe(): Promise<ApiMe | null> {
  try {
    const found = await api<ApiMe>("/api/me");
    me.value = { name: found.name, balance: found.balance };
    socket.open();
    return found;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      me.value = null;
      return null;
    }
    throw err;
  }
}

export async function login(name: string, password: string, register: boolean): Promise<void> {
  if (register) await api("/api/register", { name, password });
  await api("/api/login", { name, password });
  const found = await refreshMe();
  const code = inviteCode.value;
  if (found?.seated) go({ name: "table" });
  else if (code) {
    // an invite link: straight to the friend's table (the lobby says so if it is refused)
    go({ name: "lobby" });
    if (socket.isOpen) joinCode(code);
    else joinWhenOpen = code;
  } else go({ name: "lobby" });
}

export async function logout(): Promise<void> {
  try {
    await api("/api/logout", {});
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
  }
  socket.close();
  batch(() => {
    me.value = null;
    clearTable();
    reviews.value = {}; // the reviews asked for were this account's
    go({ name: "login" });
  });
}
