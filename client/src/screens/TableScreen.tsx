// The table a player sits at: the game, its controls, the move log, the settlement (which
// stays until the player confirms the next hand or leaves), an escape notice.
import { batch } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { escapeMultiple, gameUi } from "../games";
import { lang, levelName, roomName, setLang, t, type UiKey, windName } from "../i18n";
import { withoutUnshownChong } from "../model/log";
import { SEATS } from "../model/seats";
import type { Seat, SeatInfo } from "../protocol";
import {
  act,
  askHint,
  fillBots,
  go,
  inviteLink,
  join,
  joinCode,
  leave,
  ready,
  readyNext,
  send,
} from "../session";
import { soundTurnedOn } from "../sound";
import { me, toast } from "../state/connection";
import { unseatedFrom, unseatedWhy } from "../state/lobby";
import { type Motion, motionOn, prefs, setPref } from "../state/prefs";
import { settlementShown } from "../state/reading";
import { chongUnshown, escaped, settlement, settlementStage, shownHand } from "../state/settlement";
import {
  clearTable,
  currentHint,
  frame,
  handInfo,
  handLive,
  moveLog,
  paused,
  pending,
  readySent,
  seated,
  tableState,
} from "../state/table";
import { Confirm } from "../widgets/Chrome";
import { secondsLeft, useNow } from "../widgets/hooks";
import { MoveLog } from "../widgets/MoveLog";
import { ReviewButton, ReviewPanel } from "../widgets/ReviewPanel";
import { seatName } from "../widgets/SeatBadge";
import { UnknownGame } from "../widgets/UnknownGame";
import { HowTo } from "./HowTo";

/** The move log holds back the 開沖 draws the settlement has not turned up yet. */
const holdBackChong = (n: number): void => {
  chongUnshown.value = n;
};

const EMPTY: Record<Seat, SeatInfo | null> = { E: null, S: null, W: null, N: null };

/** Who has confirmed the next hand (rules §10: every hand waits for all four). */
export function Confirmations({
  seats,
  deadline,
  mine,
  next,
  was,
}: {
  seats: Record<Seat, SeatInfo | null>;
  deadline: number | null;
  mine: Seat | null;
  /** Shown under a settlement: the seats are those of the next hand (the deal passed). */
  next?: boolean;
  /** This player's seat in the hand just settled: a move to another seat is said. */
  was?: Seat | null;
}): JSX.Element {
  const now = useNow(deadline !== null);
  const left = mine && !seats[mine]?.ready ? secondsLeft(deadline, now) : null;
  const count = SEATS.filter((s) => seats[s]?.ready).length;
  return (
    <div class="confirmations" data-confirmed={count}>
      {next ? <h3>{t("nextSeats")}</h3> : null}
      {next && was && mine && was !== mine ? (
        <p class="seat-move" data-from={was} data-to={mine}>
          {t("seatMoves", { from: windName(was), to: windName(mine) })}
        </p>
      ) : null}
      <p class="muted small">
        {t("confirmedCount", { n: count })}
        {left !== null ? ` · ${t("confirmWithin", { n: left })}` : ""}
      </p>
      <ul class="waiting-seats">
        {SEATS.map((s) => (
          <li
            key={s}
            data-seat={s}
            data-ready={seats[s]?.ready ? "true" : "false"}
            class={seats[s]?.ready ? "ready" : undefined}
          >
            <b>{windName(s)}</b> {seats[s] ? seatName(seats[s]) : "—"}
            {s === mine ? <span class="tag">{t("you")}</span> : null}
            {seats[s]?.bot ? <span class="tag muted">{t("bot")}</span> : null}
            {seats[s]?.ready ? (
              <span class="tag ok">✓ {t("confirmed")}</span>
            ) : seats[s] ? (
              <span class="tag muted">{t("notConfirmed")}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function WaitingRoom(): JSX.Element {
  const ts = tableState.value;
  const seats = ts?.seats ?? EMPTY;
  const full = SEATS.every((s) => seats[s]);
  const mine = seated.value?.seat ?? null;
  // the headline says whose move it is: the player's own confirmation first
  const headline = !full
    ? "waitingPlayers"
    : mine && seats[mine] && !seats[mine]?.ready && !readySent.value
      ? "waitingYou"
      : "waitingReady";
  const code = ts?.code ?? null;
  return (
    <div class="waiting" role="status" data-waiting={headline}>
      <p>{t(headline === "waitingPlayers" && code ? "waitingFriends" : headline)}</p>
      {code ? <FriendsPanel code={code} full={full} /> : null}
      <Confirmations
        seats={seats}
        deadline={ts?.readyDeadline ?? null}
        mine={seated.value?.seat ?? null}
      />
    </div>
  );
}

/** Copy a private table's invite link; a toast says whether it worked. */
async function copyLink(code: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(inviteLink(code));
    toast({ ui: "linkCopied" });
  } catch {
    // no clipboard (an insecure page, a refusal): the link is on the waiting screen
    toast({ ui: "linkNotCopied" }, { link: inviteLink(code) }, "warn");
  }
}

/** A private table's code in the table bar, during a hand too (a late friend needs it). */
function CodeChip({ code }: { code: string }): JSX.Element {
  return (
    <button
      type="button"
      class="code-chip"
      data-action="copy-code"
      data-code={code}
      title={t("copyLink")}
      onClick={() => void copyLink(code)}
    >
      {t("friends")} <b>{code}</b>
    </button>
  );
}

/** A private table's code and link to share, and the bots for the seats still empty. */
function FriendsPanel({ code, full }: { code: string; full: boolean }): JSX.Element {
  const link = inviteLink(code);
  // one press asks once: a second before the table answers would come after the hand began
  const [asked, setAsked] = useState(false);
  useEffect(() => setAsked(false), [full]);
  const copy = () => copyLink(code);
  return (
    <section class="friends-panel" data-code={code}>
      <p class="friends-code">
        {t("privateTable", { code: "" })}
        <b class="code" id="table-code-shown">
          {code}
        </b>
      </p>
      <p class="muted small">{t("privateShare")}</p>
      <div class="row">
        <input
          class="invite-link"
          readOnly
          value={link}
          aria-label={t("copyLink")}
          onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
        />
        <button type="button" data-action="copy-link" onClick={copy}>
          {t("copyLink")}
        </button>
      </div>
      {full ? null : (
        <button
          type="button"
          class="primary"
          data-action="fill"
          disabled={asked}
          onClick={() => {
            setAsked(true);
            fillBots();
          }}
        >
          {t("fillBots")}
        </button>
      )}
    </section>
  );
}

/** After a timeout of this player's: how many in a row, and what the 4th costs (§10). */
function TimeoutBanner({
  penalty,
  tuoguan,
}: {
  penalty: number;
  tuoguan: boolean;
}): JSX.Element | null {
  const n = frame.value?.timeouts ?? 0;
  // 托管 plays the turns: no clock runs out while it is on
  if (!n || tuoguan || !handLive.value || settlement.value) return null;
  // the penalty is all the player has when that is less (rules §10)
  const balance = me.value?.balance;
  const cost = typeof balance === "number" ? Math.min(penalty, balance) : penalty;
  return (
    <div class="banner warn" role="alert" data-timeouts={n}>
      {t("timedOut", { n, penalty: cost })}
    </div>
  );
}

/** True when every other seat is a bot: hints are given only there (docs/protocol.md). */
export function aloneWithBots(seats: Record<Seat, SeatInfo | null>, mine: Seat | null): boolean {
  return !!mine && SEATS.every((s) => s === mine || seats[s]?.bot === true);
}

/** The hint button (alone with bots, on one's turn) and, once answered, what it says. */
function HintControl({ tuoguan }: { tuoguan: boolean }): JSX.Element | null {
  const f = frame.value;
  const ts = tableState.value;
  const mine = seated.value?.seat ?? null;
  // an answer sent: the hint goes with the prompt it was for
  if (!f || !ts || tuoguan || !handLive.value || paused.value || f.view.result !== null) {
    return null;
  }
  if (pending.value) return null;
  if (!f.view.legal.length || !aloneWithBots(ts.seats, mine)) return null;
  const h = currentHint.value;
  const said = h?.action ? (gameUi(f.view.game)?.actionLabel(f.view, h.action) ?? h.action) : null;
  return (
    <span class="hint-control">
      <button
        type="button"
        class="ghost"
        id="hint"
        data-action="hint"
        title={t("hintTitle")}
        disabled={!!h}
        onClick={() => askHint(f.version)}
      >
        {t("hint")}
      </button>
      {h ? (
        <span class="hint-said" role="status" data-hint={h.action ?? ""}>
          {said ? t("hintIs", { action: said }) : t("hintWaiting")}
        </span>
      ) : null}
    </span>
  );
}

/** Confirm the next hand: from the settlement (which then closes) or from the table. */
function confirmNext(): void {
  if (settlement.value) readyNext();
  else ready();
}

/** Over the guide: the time this player has left to confirm the next hand (§10: not
 *  confirming in time unseats) and the Ready button, the table's own; once confirmed, the
 *  guide stays open (it closes itself when the hand goes live). */
export function ReadyNote(): JSX.Element | null {
  const ts = tableState.value;
  const mine = seated.value?.seat ?? null;
  // the table frame's clock, not the settlement's: the clock stands while a seat is empty
  const deadline = ts?.readyDeadline ?? null;
  const now = useNow(deadline !== null);
  if (!mine || !ts || handLive.value) return null;
  const done = readySent.value || !!ts.seats[mine]?.ready;
  if (done) {
    return (
      <p class="banner ready-note" role="status" data-ready-sent="true">
        ✓ {t("readyInGuide")}
      </p>
    );
  }
  const left = secondsLeft(deadline, now);
  return (
    <p class="banner warn ready-note" role="status" data-ready-left={left ?? undefined}>
      <span>{left !== null ? t("confirmWithin", { n: left }) : t("waitingYou")}</span>
      <button type="button" class="primary" data-action="ready-guide" onClick={confirmNext}>
        {left !== null ? t("readyIn", { n: left }) : t("ready")}
      </button>
    </p>
  );
}

/** A Ready button with the time left to press it while the clock runs (the settlement's,
 *  which confirms the next hand, and the table bar's). */
function ReadyButton({
  deadline,
  next,
}: {
  deadline: number | null;
  /** The settlement's: "Ready for the next hand", and it closes the settlement. */
  next?: boolean;
}): JSX.Element {
  const now = useNow(deadline !== null);
  const left = secondsLeft(deadline, now);
  const [plain, counting]: [UiKey, UiKey] = next
    ? ["nextHand", "nextHandIn"]
    : ["ready", "readyIn"];
  return (
    <button
      type="button"
      class={`primary${left !== null && left <= 5 ? " urgent" : ""}`}
      id={next ? undefined : "ready"}
      data-action="ready"
      data-ready-left={left ?? undefined}
      onClick={() => (next ? readyNext() : ready())}
    >
      {left !== null ? t(counting, { n: left }) : t(plain)}
    </button>
  );
}

/** Unseated for not confirming the next hand in time: a notice that stays, with a seat at
 *  the same kind of table (the same room; alone with bots at the same level if it was) and
 *  the way back to the lobby. */
export function UnseatNotice({ inLobby }: { inLobby?: boolean }): JSX.Element | null {
  const kind = unseatedFrom.value;
  if (unseatedWhy.value !== "not_ready" || seated.value) return null;
  const forget = () =>
    batch(() => {
      clearTable();
      unseatedWhy.value = null;
      unseatedFrom.value = null;
    });
  const again = () => {
    if (!kind) return;
    forget();
    if (kind.code) joinCode(kind.code);
    else join(kind.room, kind.alone, kind.level ?? undefined);
  };
  const toLobby = () => {
    forget();
    go({ name: "lobby" });
  };
  return (
    <section class="notice unseat" role="alert" data-unseated="not_ready">
      <p>{t("unseatedReadyNotice")}</p>
      <div class="row">
        {kind ? (
          <button
            type="button"
            class="primary"
            data-action="sit-again"
            data-room={kind.room}
            data-alone={kind.alone ? "true" : "false"}
            onClick={again}
          >
            {kind.alone ? t("sitAgainAlone") : t("sitAgain")} · {roomName(kind.room)}
            {kind.alone && kind.level ? ` · ${levelName(kind.level)}` : ""}
            {kind.code ? ` · ${kind.code}` : ""}
          </button>
        ) : null}
        <button
          type="button"
          class="ghost"
          data-action={inLobby ? "dismiss-unseat" : "to-lobby"}
          onClick={toLobby}
        >
          {inLobby ? t("close") : t("back")}
        </button>
      </div>
    </section>
  );
}

/** The hand waits for the house (its storage, or the server that plays the table): no
 *  clock runs meanwhile, and the banner says which. */
function PausedBanner(): JSX.Element | null {
  const p = paused.value;
  if (!p) return null;
  return (
    <div class="banner warn" role="status" data-paused={p.why}>
      {t(p.why === "peers" ? "pausedPeersBanner" : "pausedBanner")}
    </div>
  );
}

function EscapePanel(): JSX.Element | null {
  const e = escaped.value;
  if (!e) return null;
  const why =
    e.why === "timeouts"
      ? t("whyTimeouts")
      : e.why === "disconnected"
        ? t("whyDisconnected")
        : t("whyLeft");
  const name = me.value?.name;
  const share = e.moves.reduce((acc, m) => acc + (m.to === name ? m.amount : 0), 0);
  return (
    <section class="notice escape" role="alert" data-escape={e.seat}>
      <p>
        {e.mine
          ? t("youEscaped", { why, penalty: e.penalty })
          : t("escapeNotice", { name: e.name, seat: windName(e.seat), why, penalty: e.penalty })}
      </p>
      {!e.mine && share > 0 ? <p data-share={share}>{t("escapeShare", { n: share })}</p> : null}
    </section>
  );
}

function SettlementPanel(): JSX.Element | null {
  const s = settlement.value;
  const seat = s?.view?.seat ?? seated.value?.seat ?? null;
  if (!s) return null;
  const result = s.view?.result ?? s.result;
  const ui = gameUi(s.game);
  let body: JSX.Element;
  if (!result) body = <p class="muted">—</p>;
  else if (!ui) body = <UnknownGame game={s.game} />;
  else
    body = (
      <ui.Settlement
        hand={s.hand}
        stake={s.stake}
        fee={s.fee}
        moves={s.moves}
        balance={s.balance}
        balanceChange={s.balanceChange}
        names={s.names}
        me={seat}
        myName={me.value?.name ?? null}
        result={result}
        view={s.view}
        onChongUnshown={holdBackChong}
        onShown={settlementShown}
      />
    );
  return (
    <section
      class="settlement-panel"
      id="result"
      aria-labelledby="settlement-title"
      data-hand={s.hand}
      data-shown={shownHand.value === s.hand ? "true" : "false"}
    >
      <h2 id="settlement-title">
        {t("settlement")} · {t("handNo", { n: tableState.value?.handNo || s.hand })}{" "}
        <span class="muted small" title={t("handRef")}>
          #{s.hand}
        </span>
      </h2>
      {/* the hand's review, asked for by the button at the foot, on top where it is seen: a
          decision picked opens the replay at it (the Ready clock is on the replay's page) */}
      {seat ? (
        <ReviewPanel
          hand={s.hand}
          step={null}
          onPick={(step) => go({ name: "replay", hand: s.hand, step })}
        />
      ) : null}
      {body}
      {tableState.value && seated.value ? (
        <Confirmations
          seats={tableState.value.seats}
          deadline={tableState.value.readyDeadline}
          mine={seated.value?.seat ?? null}
          was={s.view?.seat ?? null}
          next
        />
      ) : null}
      {seated.value ? (
        // no longer seated (unseated after the hand): nothing to leave or confirm here; the
        // notice and the table bar's Back lead on
        <div class="row end sticky-actions">
          <button type="button" class="ghost" data-action="leave" onClick={() => leave()}>
            {t("leave")}
          </button>
          {seat && result ? <ReviewButton hand={s.hand} seat={seat} /> : null}
          <ReadyButton deadline={tableState.value?.readyDeadline ?? null} next />
        </div>
      ) : seat && result ? (
        <div class="row end">
          <ReviewButton hand={s.hand} seat={seat} />
        </div>
      ) : null}
    </section>
  );
}

/** The table's settings, remembered in this browser: sound (off until turned on), motion
 *  (as the system asks, or the player's choice), the helps (take every win offered; pass
 *  every claim that offers no win) and, during a hand, 托管. The bar's ⚙ opens them. */
function SettingsMenu({ tuoguan, live }: { tuoguan: boolean; live: boolean }): JSX.Element {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const p = prefs.value;
  // a tap outside, or Escape, closes it
  useEffect(() => {
    if (!open) return;
    const away = (ev: PointerEvent) => {
      if (ev.target instanceof Node && !box.current?.contains(ev.target)) setOpen(false);
    };
    const key = (ev: KeyboardEvent) => {
      if (ev.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", away, true);
    document.addEventListener("keydown", key);
    return () => {
      document.removeEventListener("pointerdown", away, true);
      document.removeEventListener("keydown", key);
    };
  }, [open]);
  const check = (e: Event) => (e.currentTarget as HTMLInputElement).checked;
  return (
    <div class="settings" ref={box}>
      <button
        type="button"
        class="ghost"
        id="settings"
        data-action="settings"
        aria-expanded={open ? "true" : "false"}
        aria-controls="settings-sheet"
        aria-label={t("settings")}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">⚙</span> <span class="settings-word">{t("settings")}</span>
      </button>
      {open ? (
        <div
          class="settings-sheet"
          id="settings-sheet"
          role="group"
          aria-label={t("settingsTitle")}
        >
          <label class="switch">
            <input
              type="checkbox"
              id="pref-sound"
              checked={p.sound}
              onChange={(e) => {
                setPref("sound", check(e));
                if (check(e)) soundTurnedOn();
              }}
            />
            <span>{t("soundOn")}</span>
          </label>
          <label class="switch select">
            <span>{t("motionOn")}</span>
            <select
              id="pref-motion"
              value={p.motion}
              onChange={(e) =>
                setPref("motion", (e.currentTarget as HTMLSelectElement).value as Motion)
              }
            >
              <option value="auto">{t("motionAuto")}</option>
              <option value="on">{t("optOn")}</option>
              <option value="off">{t("optOff")}</option>
            </select>
          </label>
          <label class="switch">
            <input
              type="checkbox"
              id="pref-autowin"
              checked={p.autoWin}
              onChange={(e) => setPref("autoWin", check(e))}
            />
            <span>
              {t("autoWin")} <small class="muted">{t("autoWinHelp")}</small>
            </span>
          </label>
          <label class="switch">
            <input
              type="checkbox"
              id="pref-autopass"
              checked={p.autoPass}
              onChange={(e) => setPref("autoPass", check(e))}
            />
            <span>
              {t("autoPass")} <small class="muted">{t("autoPassHelp")}</small>
            </span>
          </label>
          {live ? (
            <label class="switch">
              <input
                type="checkbox"
                id="tuoguan-menu"
                checked={tuoguan}
                onChange={(e) => send({ type: "tuoguan", on: check(e) })}
              />
              <span>{t("tuoguan")}</span>
            </label>
          ) : null}
          <button
            type="button"
            class="ghost"
            data-action="lang-menu"
            lang={lang.value === "zh" ? "en" : "zh-Hant"}
            onClick={() => setLang(lang.value === "zh" ? "en" : "zh")}
          >
            {t("switchLang")}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** How long the last board stays after the hand ends (the win's 胡 called out on it),
 *  before the settlement takes its place; a tap moves on at once. */
const BOARD_HOLD_MS = 1400;

export function TableScreen(): JSX.Element {
  const f = frame.value;
  const ts = tableState.value;
  const names = ts?.seats ?? EMPTY;
  const info = handInfo.value;
  const live = handLive.value;
  const room = seated.value?.room ?? ts?.room ?? "";
  const [confirming, setConfirming] = useState(false);
  const [reading, setReading] = useState(false);
  // a hand going live closes the guide: the table is the player's again
  useEffect(() => {
    if (live) setReading(false);
  }, [live]);
  const stake = info?.stake ?? f?.stake ?? 0;
  const game = f?.view.game ?? ts?.game ?? null;
  const multiple = escapeMultiple(game);
  const mySeat = seated.value?.seat ?? null;
  const mine = mySeat ? names[mySeat] : null;
  const canReady = !!seated.value && !live && !readySent.value && !settlement.value;
  const [logOpen, setLogOpen] = useState(false);
  // the hand over: its last board a moment (the 胡 called out), then the settlement
  const sHand = settlement.value?.hand ?? null;
  const holding = !!settlement.value && settlementStage.value === "board";
  useEffect(() => {
    if (!holding) return;
    const id = setTimeout(() => {
      settlementStage.value = "reveal";
    }, BOARD_HOLD_MS);
    // a tap anywhere moves on at once
    const on = () => {
      settlementStage.value = "reveal";
    };
    document.addEventListener("pointerdown", on);
    return () => {
      clearTimeout(id);
      document.removeEventListener("pointerdown", on);
    };
  }, [holding, sHand]);

  const askLeave = () => {
    if (live) setConfirming(true);
    else leave();
  };

  let board: JSX.Element | null = null;
  // once the player has confirmed the next hand, the last hand's board gives way to the
  // waiting room: who sits where, and at a table for friends the code and the bots for a
  // seat someone left (the next hand may wait for a fourth)
  const over = !!f && f.view.result !== null && readySent.value;
  const lastBoard = holding && !!f && f.hand === sHand;
  if (f && ((!settlement.value && !over) || lastBoard)) {
    const ui = gameUi(f.view.game);
    board = ui ? (
      <ui.Board
        view={f.view}
        names={lastBoard && settlement.value ? settlement.value.names : names}
        clock={f.clock ? { ...f.clock, stoppedAt: paused.value?.at ?? null } : null}
        pending={pending.value?.action ?? null}
        version={f.version}
        onAction={act}
        hinted={currentHint.value?.action ?? null}
        events={f.events}
      />
    ) : (
      <UnknownGame game={f.view.game} />
    );
  }

  return (
    <main
      class="table-screen"
      id="table"
      data-live={live ? "true" : "false"}
      data-paused={paused.value ? "true" : undefined}
      data-motion={motionOn.value ? "on" : "off"}
    >
      <div class="table-bar">
        <span class="room">{room ? roomName(room) : ""}</span>
        {ts?.code ? <CodeChip code={ts.code} /> : null}
        {info ? (
          <span data-hand={info.hand}>
            {t("handNo", { n: ts?.handNo || info.hand })}{" "}
            <span class="muted small" title={t("handRef")}>
              #{info.hand}
            </span>
          </span>
        ) : null}
        {stake ? (
          <span data-stake={stake}>
            {t("stake")} {stake} · {t("fee")} {info?.fee ?? stake}
          </span>
        ) : null}
        <span class="grow" />
        {live ? null : (
          // between hands the guide opens over the table: the table, its clocks and a
          // hand going live stay where they are, and the time to confirm is shown on it
          <button
            type="button"
            class="ghost"
            id="to-rules-table"
            data-action="rules"
            onClick={() => setReading(true)}
          >
            {t("howTo")}
          </button>
        )}
        {live ? <HintControl tuoguan={!!mine?.tuoguan} /> : null}
        {live ? (
          <label class="switch tuoguan-switch">
            <input
              type="checkbox"
              id="tuoguan"
              data-action="tuoguan"
              checked={!!mine?.tuoguan}
              onChange={(e) =>
                send({ type: "tuoguan", on: (e.currentTarget as HTMLInputElement).checked })
              }
            />
            <span>{t("tuoguan")}</span>
          </label>
        ) : null}
        {canReady ? <ReadyButton deadline={ts?.readyDeadline ?? null} /> : null}
        {seated.value && !live && readySent.value && !settlement.value ? (
          // Ready pressed: its place stays taken, so that Leave does not slide under a second
          // tap (the hand may begin between the two)
          <button type="button" class="primary" id="ready" data-action="ready-sent" disabled>
            {t("readySent")}
          </button>
        ) : null}
        <SettingsMenu tuoguan={!!mine?.tuoguan} live={live} />
        <button
          type="button"
          class="ghost moves-toggle"
          id="moves-toggle"
          data-action="moves"
          aria-expanded={logOpen ? "true" : "false"}
          onClick={() => setLogOpen(!logOpen)}
        >
          {t("moveLogShow")}
        </button>
        <button type="button" class="ghost" id="leave" data-action="leave" onClick={askLeave}>
          {seated.value ? t("leave") : t("back")}
        </button>
      </div>
      <PausedBanner />
      <TimeoutBanner penalty={multiple * stake} tuoguan={!!mine?.tuoguan} />
      <EscapePanel />
      <UnseatNotice />
      <div class="table-layout" data-log-open={logOpen ? "true" : undefined}>
        <div class={`table-main${board ? " has-board" : ""}`}>
          {lastBoard ? null : <SettlementPanel />}
          {board ?? (settlement.value ? null : <WaitingRoom />)}
        </div>
        <MoveLog entries={withoutUnshownChong(moveLog.value, chongUnshown.value)} />
      </div>
      {reading && !live ? (
        <HowTo
          game={ts?.game ?? f?.view.game ?? null}
          onClose={() => setReading(false)}
          note={<ReadyNote />}
        />
      ) : null}
      {confirming ? (
        <Confirm
          title={t("leaveTitle")}
          body={t("leaveLive", { penalty: multiple * stake, multiple, stake })}
          confirm={t("leaveConfirm")}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            leave(true);
          }}
        />
      ) : null}
    </main>
  );
}
