// The lobby: rooms (minimum and your stake), your balance and its chart over your hands,
// your hands with results and replay links, the ledger.

import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { gameUi } from "../games";
import { STAKE_PER } from "../guide/figures";
import { errorText, gameName, levelName, reasonName, roomName, t, windName } from "../i18n";
import { groupLedger } from "../model/ledger";
import { ApiError, api, type HandSummary, type LedgerEntry, type Room } from "../net/api";
import type { BotLevel } from "../protocol";
import { go, join, joinCode, joinPrivate, normaliseCode } from "../session";
import { me } from "../state/connection";
import { inviteCode, joining } from "../state/lobby";
import { GuideLinks } from "../widgets/Chrome";
import { Invitation } from "../widgets/Invitation";
import { Relief } from "../widgets/Relief";
import { UnseatNotice } from "./TableScreen";

const LEVELS: BotLevel[] = ["easy", "normal", "hard"];

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

/** "12-03 13:10": a date this year without its year (a narrow screen has no room to spare). */
export function shortTime(at: string, year: number = new Date().getFullYear()): string {
  const text = at.replace("T", " ").slice(0, 16);
  return text.startsWith(`${year}-`) ? text.slice(5) : text;
}

/** 底注 for a balance (rules §10): the largest of 1, 2, 5, 10, 20, 50, … not above balance / 800. */
export function stakeFor(balance: number): number {
  const limit = balance / STAKE_PER;
  let best = 1;
  for (let scale = 1; scale <= limit; scale *= 10) {
    for (const k of [1, 2, 5]) if (k * scale <= limit) best = k * scale;
  }
  return best;
}

/** The points of the balance chart: the balance after each hand (oldest first). */
export function chartPoints(entries: LedgerEntry[]): { hand: number | null; balance: number }[] {
  const chrono = [...entries].sort((a, b) => a.id - b.id);
  const out: { hand: number | null; balance: number }[] = [];
  for (const e of chrono) {
    const last = out[out.length - 1];
    if (last && e.hand !== null && last.hand === e.hand) last.balance = e.balance_after;
    else out.push({ hand: e.hand, balance: e.balance_after });
  }
  return out;
}

export function BalanceChart({ entries }: { entries: LedgerEntry[] }): JSX.Element | null {
  const pts = chartPoints(entries);
  if (pts.length < 2) return null;
  const w = 600;
  const h = 140;
  const pad = 28;
  const gutter = 56; // the axis labels' column, left of the line
  const values = pts.map((p) => p.balance);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const x = (i: number) => gutter + (i * (w - gutter - pad)) / (pts.length - 1);
  const y = (v: number) => h - pad / 2 - ((v - lo) * (h - pad)) / span;
  const path = pts
    .map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.balance).toFixed(1)}`)
    .join(" ");
  const last = pts[pts.length - 1] as { balance: number };
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${w} ${h}`}
        role="img"
        aria-label={`${t("balanceChart")}: ${pts[0]?.balance} → ${last.balance}`}
      >
        <line x1={gutter} x2={w - pad} y1={y(lo)} y2={y(lo)} class="axis" />
        <text x={2} y={y(hi) + 4} class="axis-label">
          {hi}
        </text>
        <text x={2} y={y(lo) + 4} class="axis-label">
          {lo}
        </text>
        <path d={path} class="line" />
        {pts.map((p, i) => (
          <circle key={i} cx={x(i)} cy={y(p.balance)} r="2.5" class="dot">
            <title>{`${p.hand ? t("handNo", { n: p.hand }) : ""} ${p.balance}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption>{t("balanceChart")}</figcaption>
    </figure>
  );
}

/** Who plays in a room now, said in words: "nobody is playing now", "3 playing at 1 table". */
export function playing(players: number, tables: number): string {
  if (!players) return t("playingNone");
  return t(tables === 1 ? "playingOne" : "playingMany", { n: players, tables });
}

/** A hand's net in its game's unit (「+40 胡」, "+2 zhu"); a game this page does not know: the
 *  number alone. */
function netIn(game: string, net: number): string {
  const unit = gameUi(game)?.netUnit;
  return unit ? t(unit, { n: signed(net) }) : signed(net);
}

function result(h: HandSummary): string {
  if (h.status === "aborted" || h.result === "escape")
    return h.escaper && h.escaper !== h.seat
      ? t("otherEscaped", { seat: windName(h.escaper) })
      : t("escaped");
  if (h.net === null || h.net === undefined) return t("drawnHand");
  if (h.net > 0) return t("won");
  if (h.net < 0) return t("lost");
  return t("even");
}

function counterpart(e: LedgerEntry): string {
  if (e.counterparts?.length)
    return e.counterparts.map((c) => (c === "house" ? t("house") : c)).join(", ");
  if (e.counterpart) return e.counterpart === "house" ? t("house") : e.counterpart;
  if (e.reason === "fee") return t("house");
  return "—";
}

/** Join a friend's private table by its code (prefilled from an invite link). */
function FriendCode(): JSX.Element {
  const [text, setText] = useState(inviteCode.value ?? "");
  const [bad, setBad] = useState(false);
  const invited = inviteCode.value;
  useEffect(() => {
    // an invite link opened on a lobby scrolled down: bring the invitation into sight
    if (invited) {
      setText(invited);
      document.getElementById("friend-code")?.scrollIntoView?.({ block: "start" });
    }
  }, [invited]);
  const submit = (e: Event) => {
    e.preventDefault();
    const code = normaliseCode(text);
    setBad(code === null);
    if (code) joinCode(code); // the invitation stays until a seat is taken
  };
  return (
    <form
      class="friend-code"
      id="friend-code"
      onSubmit={submit}
      data-invited={invited ?? undefined}
    >
      <h3>{t("joinFriend")}</h3>
      {invited ? <p class="invited">{t("invited", { code: invited })}</p> : null}
      {invited ? <Invitation code={invited} /> : null}
      <div class="row">
        <input
          id="table-code"
          aria-label={t("codeLabel")}
          name="code"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck={false}
          maxLength={12}
          placeholder={t("codeLabel")}
          value={text}
          aria-invalid={bad ? "true" : undefined}
          aria-describedby="table-code-hint"
          onInput={(e) => {
            setText((e.currentTarget as HTMLInputElement).value);
            setBad(false);
          }}
        />
        <button type="submit" class={invited ? "primary" : undefined} data-action="join-code">
          {t("codeJoin")}
        </button>
      </div>
      <p
        id="table-code-hint"
        class={bad ? "error small" : "muted small"}
        role={bad ? "alert" : undefined}
      >
        {bad ? t("codeBad") : t("codeHint")}
      </p>
    </form>
  );
}

export function Lobby(): JSX.Element {
  const [rooms, setRooms] = useState<Room[] | null>(null);
  const [hands, setHands] = useState<HandSummary[]>([]);
  const [ledger, setLedger] = useState<LedgerEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  const balance = me.value?.balance ?? 0;
  useEffect(() => {
    let gone = false;
    (async () => {
      try {
        const [r, h, l] = await Promise.all([
          api<{ rooms: Room[] }>("/api/rooms"),
          api<{ hands: HandSummary[] }>("/api/hands"),
          api<{ entries: LedgerEntry[] }>("/api/ledger"),
        ]);
        if (gone) return;
        setRooms(r.rooms);
        setHands(h.hands);
        setLedger(l.entries);
        const newest = l.entries[0];
        if (newest && me.value && me.value.balance !== newest.balance_after) {
          me.value = { ...me.value, balance: newest.balance_after };
        }
      } catch (err) {
        if (!gone) setError(err instanceof ApiError ? err.code : "network");
      }
    })();
    return () => {
      gone = true;
    };
  }, []);
  const [levels, setLevels] = useState<Partial<Record<string, BotLevel>>>({});
  // the lobby shows once its rooms are known: the rooms coming in pushed the rest down the
  // screen (a layout shift of 0.32 in Lighthouse)
  if (rooms === null && !error) return <main class="lobby" id="lobby" aria-busy="true" />;
  return (
    <main class="lobby" id="lobby">
      {error ? (
        <p class="error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
      <UnseatNotice inLobby />
      {inviteCode.value ? <FriendCode /> : null}
      <GuideLinks />
      <section aria-labelledby="rooms-title">
        <h2 id="rooms-title">{t("rooms")}</h2>
        <div class="rooms" id="rooms">
          {rooms === null ? <p class="muted">{t("loading")}</p> : null}
          {rooms?.map((r) => {
            const allowed = balance >= r.min_balance;
            return (
              <article class="room-card" key={r.name} data-room-card={r.name}>
                <h3>{roomName(r.name)}</h3>
                <dl>
                  <dt>{t("minBalance")}</dt>
                  <dd>{r.min_balance}</dd>
                  <dt>{t("yourStake")}</dt>
                  <dd data-stake={stakeFor(balance)}>{stakeFor(balance)}</dd>
                  <dt>{t("players")}</dt>
                  <dd data-players={r.players} data-tables={r.tables}>
                    {playing(r.players, r.tables)}
                  </dd>
                </dl>
                <div class="row">
                  <button
                    type="button"
                    class="primary"
                    data-room={r.name}
                    data-action="join"
                    disabled={!allowed || joining.value}
                    onClick={() => join(r.name, false)}
                  >
                    {t("join")}
                  </button>
                  {r.bots ? (
                    <button
                      type="button"
                      data-alone={r.name}
                      data-action="alone"
                      disabled={!allowed || joining.value}
                      onClick={() => join(r.name, true, levels[r.name] ?? r.level ?? undefined)}
                    >
                      {t("alone")}
                    </button>
                  ) : null}
                  <button
                    type="button"
                    data-private={r.name}
                    data-action="private"
                    disabled={!allowed || joining.value}
                    title={t("friendsHint")}
                    onClick={() =>
                      joinPrivate(
                        r.name,
                        r.bots ? (levels[r.name] ?? r.level ?? undefined) : undefined,
                      )
                    }
                  >
                    {t("friends")}
                  </button>
                </div>
                {r.bots ? (
                  <label class="level-choice">
                    <span>{t("botLevel")}</span>
                    <select
                      data-level={r.name}
                      disabled={!allowed}
                      value={levels[r.name] ?? r.level ?? "normal"}
                      onChange={(e) =>
                        setLevels({
                          ...levels,
                          [r.name]: (e.currentTarget as HTMLSelectElement).value as BotLevel,
                        })
                      }
                    >
                      {LEVELS.map((l) => (
                        <option key={l} value={l}>
                          {levelName(l)}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : null}
                {allowed ? null : <p class="muted small">{t("tooFewPoints")}</p>}
              </article>
            );
          })}
        </div>
        {inviteCode.value ? null : <FriendCode />}
        <p>
          <a href="#/watch" data-action="watch">
            {t("watch")}
          </a>
        </p>
      </section>
      <section aria-labelledby="balance-title" class="balance-section">
        <h2 id="balance-title">
          {t("balance")} <b data-balance={balance}>{balance}</b>
        </h2>
        <Relief />
        <BalanceChart entries={ledger} />
      </section>
      <section aria-labelledby="hands-title">
        <h2 id="hands-title">{t("history")}</h2>
        {hands.length ? (
          <table class="hands" id="hands">
            <thead>
              <tr>
                <th scope="col">{t("hand")}</th>
                <th scope="col">{t("result")}</th>
                <th scope="col">{t("replay")}</th>
                <th scope="col">{t("game")}</th>
                <th scope="col">{t("time")}</th>
                <th scope="col">{t("seat")}</th>
                <th scope="col">{t("stake")}</th>
              </tr>
            </thead>
            <tbody>
              {hands.map((h) => (
                <tr key={h.hand} data-hand={h.hand}>
                  <td class="hand-no">#{h.hand}</td>
                  <td
                    class={h.net && h.net > 0 ? "plus" : h.net && h.net < 0 ? "minus" : undefined}
                  >
                    {result(h)}
                    {typeof h.net === "number" && h.net !== 0 ? ` ${netIn(h.game, h.net)}` : ""}
                    {typeof h.points === "number" ? (
                      <span class="muted small" data-points={h.points}>
                        {" "}
                        · {signed(h.points)} {t("points")}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {h.status === "aborted" ? (
                      "—"
                    ) : (
                      <a
                        href={`#/replay/${h.hand}/0`}
                        data-action="replay"
                        onClick={(e) => {
                          e.preventDefault();
                          go({ name: "replay", hand: h.hand, step: 0 });
                        }}
                      >
                        {t("replay")}
                      </a>
                    )}
                  </td>
                  <td data-label={t("game")}>{gameName(h.game)}</td>
                  <td data-label={t("time")}>
                    <time dateTime={h.at}>{shortTime(h.at)}</time>
                  </td>
                  <td data-label={t("seat")}>{windName(h.seat)}</td>
                  <td class="num" data-label={t("stake")}>
                    {h.stake}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">{t("noHands")}</p>
        )}
      </section>
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">{t("ledger")}</h2>
        {ledger.length ? (
          <table class="ledger" id="ledger">
            <thead>
              <tr>
                <th scope="col">{t("time")}</th>
                <th scope="col">{t("amount")}</th>
                <th scope="col">{t("reason")}</th>
                <th scope="col">{t("hand")}</th>
                <th scope="col">{t("counterpart")}</th>
                <th scope="col">{t("balanceAfter")}</th>
              </tr>
            </thead>
            <tbody>
              {groupLedger(ledger)
                .slice(0, 60)
                .map((e) => (
                  <tr key={e.id} data-ledger={e.id}>
                    <td class="when">
                      <time dateTime={e.at}>{shortTime(e.at)}</time>
                    </td>
                    <td class={`num ${e.amount >= 0 ? "plus" : "minus"}`}>
                      {e.amount > 0 ? "+" : ""}
                      {e.amount}
                    </td>
                    <td class="why">{reasonName(e.reason)}</td>
                    <td data-label={t("hand")}>{e.hand ? `#${e.hand}` : "—"}</td>
                    <td data-label={t("counterpart")}>{counterpart(e)}</td>
                    <td class="num" data-label={t("balanceAfter")}>
                      {e.balance_after}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        ) : (
          <p class="muted">{t("noLedger")}</p>
        )}
      </section>
    </main>
  );
}
