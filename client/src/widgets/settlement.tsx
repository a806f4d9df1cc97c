// The settlement's parts every game shows: who pays whom in the game's units, this player's
// result, and the points block (the fee, one line per payer and payee, the total), line by
// line as the ledger records it. The games' folders lay out the rest (games/*/Settlement.tsx).
import type { ComponentChildren, JSX } from "preact";
import { t, windName } from "../i18n";
import { mergeMoves, netByOther } from "../model/ledger";
import { SEATS } from "../model/seats";
import type { Move, Payment, PerSeat, Seat, SeatInfo } from "../protocol";
import { seatName as shownName } from "./SeatBadge";

export interface SettlementProps {
  hand: number;
  stake: number;
  fee: number;
  moves: Move[];
  balance: number | null;
  balanceChange: number | null;
  names: Record<Seat, SeatInfo | null>;
  me: Seat | null;
  myName: string | null;
  /** False where the points are not known (a replay before the ledger answered). */
  showPoints?: boolean;
}

export const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));
export const seatName = (s: Seat, names: Record<Seat, SeatInfo | null>): string =>
  `${windName(s)} ${shownName(names[s])}`.trim();

/** A table's head: a column heading each. */
export function ColumnHeads({ cols }: { cols: string[] }): JSX.Element {
  return (
    <thead>
      <tr>
        {cols.map((c, i) => (
          <th key={i} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A seat as a payments table names it: the wind kept whole, a long name free to wrap. */
function SeatCell({
  seat,
  names,
}: {
  seat: Seat;
  names: Record<Seat, SeatInfo | null>;
}): JSX.Element {
  const name = shownName(names[seat]);
  return (
    <td>
      <span class="seat-wind">{windName(seat)}</span>
      {name ? ` ${name}` : ""}
    </td>
  );
}

const PAY_REASON: Record<Payment["reason"], Parameters<typeof t>[0]> = {
  win: "payWin",
  difference: "payDifference",
  diao: "payDiao",
  bonus: "payBonus",
  qiaomen: "qiaomen",
  he: "payHe",
};

/** Why a payment was made, in the current language. */
export function payReason(reason: Payment["reason"]): string {
  const key = PAY_REASON[reason];
  return key ? t(key) : reason;
}

/** One line of the points table: who paid whom the net, and the two amounts it nets where
 *  money went both ways (else null). */
export interface NetPair {
  from: string;
  to: string;
  amount: number;
  gross: [number, number] | null;
}

/** A hand's movements (fee apart) as one line per pair of sides: who paid whom the net, and,
 *  where money went both ways (a payment one way, the U settlement back, or the house paying
 *  for one bot and paid for another), the two amounts it nets. */
export function netPairs(moves: Move[]): NetPair[] {
  const pairs = new Map<string, { a: string; b: string; ab: number; ba: number }>();
  for (const m of moves) {
    const [a, b] = m.from < m.to ? [m.from, m.to] : [m.to, m.from];
    const key = `${a}\u0000${b}`;
    const p = pairs.get(key) ?? { a, b, ab: 0, ba: 0 };
    if (m.from === a) p.ab += m.amount;
    else p.ba += m.amount;
    pairs.set(key, p);
  }
  const out: NetPair[] = [];
  for (const p of pairs.values()) {
    const net = p.ab - p.ba;
    if (net === 0 && !p.ab) continue;
    const [from, to] = net >= 0 ? [p.a, p.b] : [p.b, p.a];
    const both = p.ab > 0 && p.ba > 0;
    const gross: [number, number] | null = both ? (net >= 0 ? [p.ab, p.ba] : [p.ba, p.ab]) : null;
    out.push({ from, to, amount: Math.abs(net), gross });
  }
  return out;
}

/** This player's result at the top of the settlement, beside the winner: the net in the
 *  game's units (`nets`, the result's) and, when known, in points (the full account is
 *  further down). */
export function MyResult({
  props,
  nets,
  unit,
}: {
  props: SettlementProps;
  nets: PerSeat<number>;
  unit: (n: string) => string;
}): JSX.Element | null {
  if (!props.me) return null;
  const net = nets[props.me];
  const change = props.showPoints === false ? null : props.balanceChange;
  return (
    <p class="my-result" data-net={net}>
      <b>{t("yourResult")}</b>{" "}
      <span class={`net ${net >= 0 ? "plus" : "minus"}`}>{unit(signed(net))}</span>
      {change !== null ? (
        <>
          {" · "}
          <span class={`net ${change >= 0 ? "plus" : "minus"}`} data-change={change}>
            {signed(change)} {t("points")}
          </span>
        </>
      ) : null}
    </p>
  );
}

/** Who pays whom, in the game's units (a line a payment), and what the game adds under it
 *  (`children`). */
export function WhoPays({
  payments,
  names,
  unit,
  children,
}: {
  payments: Payment[];
  names: Record<Seat, SeatInfo | null>;
  unit: (n: number) => string;
  children?: ComponentChildren;
}): JSX.Element {
  return (
    <section class="who-pays">
      <h3>{t("payments")}</h3>
      {payments.length ? (
        <table class="payments">
          <ColumnHeads cols={[t("seat"), "→", t("amount"), t("reason")]} />
          <tbody>
            {payments.map((p, i) => (
              <tr key={i} data-from={p.from} data-to={p.to}>
                <SeatCell seat={p.from} names={names} />
                <SeatCell seat={p.to} names={names} />
                <td class="num">{unit(p.amount)}</td>
                <td class="reason">
                  {payReason(p.reason)}
                  {"dealer" in p && p.dealer ? (
                    <span class="tag dealer">{t("dealerDouble")}</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">—</p>
      )}
      {children}
    </section>
  );
}

/** One seat's row of the hands (or cards) laid down: who, then the pieces (`children`). */
export function RevealRow({
  seat,
  winner,
  who,
  children,
}: {
  seat: Seat;
  winner?: boolean;
  who: ComponentChildren;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <div class={`reveal-row${winner ? " winner" : ""}`} data-seat={seat}>
      <span class="reveal-who">{who}</span>
      <span class="reveal-tiles">{children}</span>
    </div>
  );
}

/** The points block (none where the points are not known): the fee, the hand's movements
 *  (one line per payer and payee: the ledger's entry per bot is summed into the house's),
 *  the total; `nets`, the result's in the game's units. */
export function Points({
  props,
  nets,
}: {
  props: SettlementProps;
  nets: PerSeat<number>;
}): JSX.Element | null {
  if (props.showPoints === false) return null;
  const owedNet = props.me ? nets[props.me] : null;
  const name = props.myName;
  const who = (x: string) => (x === "house" ? t("house") : x);
  // the fee has its own line; the rest is the hand's settlement, one line per pair
  const moves = mergeMoves(props.moves.filter((m) => m.reason !== "fee"));
  const pairs = netPairs(moves);
  const mine = moves.filter((m) => m.from === name || m.to === name);
  const paid = mine.reduce((acc, m) => acc + (m.to === name ? m.amount : -m.amount), 0);
  const bots = SEATS.some((s) => props.names[s]?.bot);
  // what this seat's net would be in points, against what moved: they differ only when
  // someone could not pay in full (rules §10)
  const change = props.balanceChange ?? paid - props.fee;
  const scaled = owedNet !== null && Math.round(owedNet * props.stake) !== paid;
  return (
    <section class="points-block" aria-label={t("inPoints", { stake: props.stake })}>
      <h3>{t("inPoints", { stake: props.stake })}</h3>
      <table class="moves">
        <ColumnHeads cols={[t("seat"), "→", t("paid"), t("pairWhy")]} />
        <tbody>
          <tr class="fee">
            <td colSpan={2}>{t("feeLine", { fee: props.fee })}</td>
            <td class="num">{props.fee}</td>
            <td />
          </tr>
          {pairs.map((m, i) => (
            <tr
              key={i}
              class={m.from === name || m.to === name ? "mine" : undefined}
              data-from={m.from}
              data-to={m.to}
            >
              <td>{who(m.from)}</td>
              <td>{who(m.to)}</td>
              <td class="num">{m.amount}</td>
              <td class="muted small">
                {m.gross
                  ? t("pairNet", { a: m.gross[0], b: m.gross[1] })
                  : m.from === "house" || m.to === "house"
                    ? t("pairHouse")
                    : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {scaled ? <p class="muted small">{t("scaledNote")}</p> : null}
      {bots ? <p class="muted small">{t("botsHouse")}</p> : null}
      <table class="my-ledger" aria-label={t("yourChange")}>
        <tbody>
          <tr>
            <td>{t("fee")}</td>
            <td>{t("house")}</td>
            <td class="num minus">{signed(-props.fee)}</td>
          </tr>
          {[...netByOther(mine, name)].map(([other, amount]) => (
            <tr key={other}>
              <td>{t("settlement")}</td>
              <td>{who(other)}</td>
              <td class={`num ${amount >= 0 ? "plus" : "minus"}`}>{signed(amount)}</td>
            </tr>
          ))}
          <tr class="total">
            <td colSpan={2}>{t("yourChange")}</td>
            <td
              class={`num ${change >= 0 ? "plus" : "minus"}`}
              id="balance-change"
              data-change={change}
            >
              {signed(change)}
            </td>
          </tr>
          {props.balance !== null ? (
            <tr>
              <td colSpan={2}>{t("balanceAfter")}</td>
              <td class="num" data-balance={props.balance}>
                {props.balance}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}
