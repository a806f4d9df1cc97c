// The settlement: every hand laid down with the winning tile marked, each seat's items and 台
// with the formula exactly as the scorer gives it, who pays whom (dealer ×2), then the same
// in points (× 底注) with the table fee, line by line as the ledger records it.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { cardName, lang, meldName, named, t, tileName, winByName, windName } from "../i18n";
import { mergeMoves, netByOther } from "../model/ledger";
import { SEATS } from "../model/seats";
import type {
  Formula,
  MadiaoPenalty,
  MadiaoResult,
  MazhanResult,
  MazhanScore,
  Move,
  Payment,
  Seat,
  SeatInfo,
} from "../protocol";
import { Card } from "./Card";
import { seatName as shownName } from "./SeatBadge";
import { Tile } from "./Tile";

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
  wild?: string;
  dealer?: Seat;
  /** False where the points are not known (a replay before the ledger answered). */
  showPoints?: boolean;
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));
const seatName = (s: Seat, names: Record<Seat, SeatInfo | null>): string =>
  `${windName(s)} ${shownName(names[s])}`.trim();

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

/** The formula as steps, as `paiju mazhan score --explain` writes it: base → 進一 →
 *  (胡頭: rounded + 20) → × 2^台 (written "× 4 (2 台)") → cap → value. */
export function formulaSteps(f: Formula, tai: number): string[] {
  const steps: string[] = [];
  if (f.rule === "limit") return [`${t("limitHand")} ${f.value}`];
  if (f.rule === "pinghu_wilds") return [`${t("pinghuWilds")} ${f.value}`];
  if (f.rule === "pinghu") {
    steps.push(`${t("pinghu")} ${f.head}`);
  } else {
    steps.push(`${t("base")} ${f.base}`);
    steps.push(`${t("rounded")} ${f.rounded}`);
    if (f.rule === "hutou")
      steps.push(
        `${t("head")} ${t("hutouRule", { rounded: f.rounded, head: f.head })} = ${f.rounded + f.head}`,
      );
  }
  steps.push(`${t("times", { tai, m: f.multiplier })} = ${f.uncapped}`);
  if (f.uncapped > f.cap) steps.push(`${t("cap", { cap: f.cap })} → ${f.value}`);
  return steps;
}

function FormulaSteps({ score }: { score: MazhanScore }): JSX.Element {
  const steps = formulaSteps(score.formula, score.tai);
  return (
    <ol class="formula" aria-label={t("formula")} data-rule={score.formula.rule}>
      {steps.map((s, i) => (
        <li key={i}>{s}</li>
      ))}
      <li class="formula-value">
        <b>{t("hu", { n: score.value })}</b>
      </li>
    </ol>
  );
}

function HandRow({
  seat,
  result,
  props,
}: {
  seat: Seat;
  result: MazhanResult;
  props: SettlementProps;
}): JSX.Element {
  const h = result.hands[seat];
  const isWinner = result.winner === seat;
  let winAt = -1;
  if (isWinner && result.win_tile) winAt = h.concealed.lastIndexOf(result.win_tile);
  return (
    <div class={`reveal-row${isWinner ? " winner" : ""}`} data-seat={seat}>
      <span class="reveal-who">
        {seatName(seat, props.names)}
        {props.dealer === seat ? <span class="tag dealer">{t("dealer")}</span> : null}
        {isWinner ? <span class="tag win">{t("winner")}</span> : null}
      </span>
      <span class="reveal-tiles">
        {h.concealed.map((c, i) => (
          <Tile
            key={i}
            code={c}
            size="sm"
            wild={c === props.wild}
            class={i === winAt ? "win-tile" : undefined}
            label={i === winAt ? `${tileName(c)} (${t("winTile")})` : undefined}
          />
        ))}
        {h.melds.map((m, i) => (
          <span key={i} class="meld" role="group" aria-label={meldName(m.kind)}>
            <span class="meld-label">{meldName(m.kind)}</span>
            {(m.tiles ?? []).map((c, k) => (
              <Tile key={k} code={c} size="sm" />
            ))}
          </span>
        ))}
        {h.bonus.length ? (
          <span class="meld bonus" role="group" aria-label={t("bonus")}>
            <span class="meld-label">{t("bonus")}</span>
            {h.bonus.map((b) => (
              <Tile key={b} code={b} size="sm" />
            ))}
          </span>
        ) : null}
      </span>
    </div>
  );
}

function Outcome({ result, props }: { result: MazhanResult; props: SettlementProps }): JSX.Element {
  if (!result.winner) return <p class="outcome">{t("noWinner")}</p>;
  const how: string[] = [];
  if (result.tianhu) how.push(t("tianhu"));
  else if (result.dihu) how.push(t("dihu"));
  if (result.win_by === "discard" && result.discarder)
    how.push(t("onDiscard", { seat: windName(result.discarder) }));
  else if (result.win_by === "robbed_kong" && result.discarder)
    how.push(t("robbedKong", { seat: windName(result.discarder) }));
  else if (result.win_by) how.push(winByName(result.win_by));
  return (
    <p class="outcome" data-winner={result.winner}>
      <b>{seatName(result.winner, props.names)}</b> {t("winner")} · {how.join(" · ")}
      {result.win_tile ? (
        <>
          {" · "}
          {t("winTile")} <Tile code={result.win_tile} size="sm" class="win-tile" />
        </>
      ) : null}
    </p>
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

function Payments({
  payments,
  names,
  unit,
}: {
  payments: Payment[];
  names: Record<Seat, SeatInfo | null>;
  unit: (n: number) => string;
}): JSX.Element {
  if (!payments.length) return <p class="muted">—</p>;
  return (
    <table class="payments">
      <thead>
        <tr>
          <th scope="col">{t("seat")}</th>
          <th scope="col">→</th>
          <th scope="col">{t("amount")}</th>
          <th scope="col">{t("reason")}</th>
        </tr>
      </thead>
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
  );
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
 *  game's units and, when known, in points (the full account is further down). */
function MyResult({
  net,
  unit,
  change,
}: {
  net: number | null;
  unit: (n: string) => string;
  change: number | null;
}): JSX.Element | null {
  if (net === null) return null;
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

/** The points block: the fee, the hand's movements (one line per payer and payee: the
 *  ledger's entry per bot is summed into the house's), the total. */
function Points({
  props,
  owedNet,
}: {
  props: SettlementProps;
  owedNet: number | null;
}): JSX.Element {
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
        <thead>
          <tr>
            <th scope="col">{t("seat")}</th>
            <th scope="col">→</th>
            <th scope="col">{t("paid")}</th>
            <th scope="col">{t("pairWhy")}</th>
          </tr>
        </thead>
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

function ScoreCard({
  seat,
  score,
  result,
  props,
}: {
  seat: Seat;
  score: MazhanScore;
  result: MazhanResult;
  props: SettlementProps;
}): JSX.Element {
  return (
    <article class={`score-card${result.winner === seat ? " winner" : ""}`} data-seat={seat}>
      <h4>
        {seatName(seat, props.names)}
        <span class={`net ${result.net[seat] >= 0 ? "plus" : "minus"}`}>
          {t("hu", { n: signed(result.net[seat]) })}
        </span>
      </h4>
      {score.hand.length ? (
        <p class="hand-names">{score.hand.map((h) => named(h)).join(" · ")}</p>
      ) : null}
      <div class="score-cols">
        <div>
          <h5>{t("items")}</h5>
          {score.items.length ? (
            <ul class="items">
              {score.items.map((it, i) => (
                <li key={i}>
                  <span>{named(it)}</span>
                  <span class="num">{it.points}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">—</p>
          )}
        </div>
        <div>
          <h5>{t("taiItems")}</h5>
          {score.tai_items.length ? (
            <ul class="items">
              {score.tai_items.map((it, i) => (
                <li key={i}>
                  <span>{named(it)}</span>
                  <span class="num">{t("tai", { n: it.tai })}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">—</p>
          )}
        </div>
      </div>
      <FormulaSteps score={score} />
    </article>
  );
}

export function MazhanSettlement({
  result,
  ...props
}: SettlementProps & { result: MazhanResult }): JSX.Element {
  const order = result.winner
    ? [result.winner, ...SEATS.filter((s) => s !== result.winner)]
    : [...SEATS];
  return (
    <div class="settlement mazhan" data-hand={props.hand}>
      <Outcome result={result} props={props} />
      <MyResult
        net={props.me ? result.net[props.me] : null}
        unit={(n) => t("hu", { n })}
        change={props.showPoints === false ? null : props.balanceChange}
      />
      <section class="reveal" aria-label={t("allHands")}>
        {order.map((s) => (
          <HandRow key={s} seat={s} result={result} props={props} />
        ))}
      </section>
      <section class="scores">
        {order.map((s) => (
          <ScoreCard key={s} seat={s} score={result.scores[s]} result={result} props={props} />
        ))}
      </section>
      <section class="who-pays">
        <h3>{t("payments")}</h3>
        <Payments payments={result.payments} names={props.names} unit={(n) => t("hu", { n })} />
        <p class="nets">
          {t("netHu")}:{" "}
          {SEATS.map((s) => (
            <span key={s} class={`net ${result.net[s] >= 0 ? "plus" : "minus"}`} data-seat={s}>
              {windName(s)} {signed(result.net[s])}
            </span>
          ))}
        </p>
      </section>
      {props.showPoints === false ? null : (
        <Points props={props} owedNet={props.me ? result.net[props.me] : null} />
      )}
    </div>
  );
}

/** The 開沖 draws turned up one by one (600 ms apart; at once for reduced motion), the
 *  count shown so far, and a skip to the end. */
function useChongReveal(
  total: number,
  onUnshown?: (n: number) => void,
): { shown: number; skip: () => void } {
  const reduce =
    typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  const [shown, setShown] = useState(reduce ? total : 0);
  useEffect(() => {
    if (shown >= total) return;
    const id = setTimeout(() => setShown((n) => n + 1), 600);
    return () => clearTimeout(id);
  }, [shown, total]);
  useEffect(() => {
    onUnshown?.(Math.max(0, total - shown));
  }, [shown, total, onUnshown]);
  // leaving the settlement (the next hand, the lobby) holds nothing back
  useEffect(() => () => onUnshown?.(0), [onUnshown]);
  return { shown, skip: () => setShown(total) };
}

function ChongDraws({
  result,
  names,
  shown,
  onSkip,
}: {
  result: MadiaoResult;
  names: Record<Seat, SeatInfo | null>;
  shown: number;
  onSkip: () => void;
}): JSX.Element {
  const revealed = shown >= result.chong.length;
  const box = useRef<HTMLElement>(null);
  return (
    <section
      ref={box}
      class="chong"
      tabIndex={-1}
      aria-label={t("chong")}
      data-revealed={revealed ? "true" : "false"}
    >
      <div class="row chong-head">
        <h3>{t("chong")}</h3>
        {/* by the heading: below the draws it was under the settlement's bar, or off screen */}
        {revealed ? null : (
          <button
            type="button"
            class="ghost chong-skip"
            data-action="chong-skip"
            onClick={() => {
              onSkip();
              box.current?.focus(); // the button goes: the focus stays with the draws
            }}
          >
            {t("chongSkip")}
          </button>
        )}
      </div>
      {/* folded: open, it filled a phone's screen and pushed the draws out of sight */}
      <details class="chong-note">
        <summary>{t("chongHow")}</summary>
        <p class="muted small">{t("chongNote")}</p>
      </details>
      <ol class="chong-draws">
        {result.chong.map((d, i) => (
          <li
            key={i}
            class={i < shown ? "shown" : "pending"}
            aria-hidden={i < shown ? undefined : true}
          >
            {i < shown ? (
              <>
                <Card code={d.card} size="sm" />
                <span>
                  {t("chongDraw", { drawer: seatName(d.drawer, names), card: cardName(d.card) })}
                </span>
                <span class={d.scorer ? "plus" : "muted"}>
                  {d.scorer === d.drawer
                    ? `+${d.points}` // the drawer named once: "South draws 8 Coins +2"
                    : d.scorer
                      ? t("chongClaimed", { scorer: seatName(d.scorer, names), points: d.points })
                      : t("chongDead")}
                </span>
              </>
            ) : i === 7 && result.chong.length === 8 ? (
              // the last stock card is the 面張, face up all hand: it waits face up, named
              <>
                <Card code={d.card} size="sm" />
                <span class="muted small">{t("mian")}</span>
              </>
            ) : (
              <Card code={null} size="sm" />
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A 包賠 situation with its meaning (rules §3.3): 「縱百老（第 3 墩先出了千萬，…）」,
 *  "spent Thousand Myriads in trick 3, and 百老 later went 上桌 (…)". */
export function PenaltyText({ penalty }: { penalty: MadiaoPenalty }): JSX.Element {
  const key = penalty.kind === "zongbai" ? "penaltyZongbai" : "penaltyZongzhuang";
  const gloss = t(key, { card: cardName(penalty.card), trick: penalty.trick });
  return lang.value === "zh" ? (
    <>
      <b>{penalty.zh}</b>（{gloss}）
    </>
  ) : (
    <span>{gloss}</span>
  );
}

export function MadiaoSettlement({
  result,
  onChongUnshown,
  ...props
}: SettlementProps & {
  result: MadiaoResult;
  /** Told how many 開沖 draws are still face down (the table's move log holds them back). */
  onChongUnshown?: (n: number) => void;
}): JSX.Element {
  const { shown, skip } = useChongReveal(result.chong.length, onChongUnshown);
  // the scores wait for the 開沖 to be turned up: they would tell its draws before they show
  const done = shown >= result.chong.length;
  return (
    <div class="settlement madiao" data-hand={props.hand}>
      {done ? (
        <MyResult
          net={props.me ? result.net[props.me] : null}
          unit={(n) => t("zhu", { n })}
          change={props.showPoints === false ? null : props.balanceChange}
        />
      ) : null}
      {result.special ? (
        <p class="special-hand" data-special={result.special.seat}>
          {t("specialHand", {
            seat: seatName(result.special.seat, props.names),
            name: result.special.name,
            n: result.special.zhu,
          })}
        </p>
      ) : null}
      <section class="reveal" aria-label={t("wonCards")}>
        <h3>{t("wonCards")}</h3>
        {SEATS.map((s) => (
          <div class="reveal-row" key={s} data-seat={s}>
            <span class="reveal-who">{seatName(s, props.names)}</span>
            <span class="reveal-tiles">
              {result.seats[s].won.length
                ? result.seats[s].won.map((c) => <Card key={c} code={c} size="sm" />)
                : "—"}
            </span>
          </div>
        ))}
      </section>
      {result.penalties.length ? (
        <ul class="penalties">
          {result.penalties.map((x, i) => (
            <li key={i} data-seat={x.seat}>
              {seatName(x.seat, props.names)}: <PenaltyText penalty={x} />
            </li>
          ))}
          <li class="muted small">{t("penaltiesNote")}</li>
        </ul>
      ) : null}
      <ChongDraws result={result} names={props.names} shown={shown} onSkip={skip} />
      {done ? <MadiaoScores result={result} props={props} /> : null}
    </div>
  );
}

function MadiaoScores({
  result,
  props,
}: {
  result: MadiaoResult;
  props: SettlementProps;
}): JSX.Element {
  return (
    <>
      {/* the net first after the seat; on a phone each seat's row is a block (seat and net,
          then the other columns named by their data-label), never wider than the screen */}
      <table class="md-scores">
        <thead>
          <tr>
            <th scope="col">{t("seat")}</th>
            <th scope="col">{t("net")}</th>
            <th scope="col">{t("trickShort")}</th>
            <th scope="col">{t("diao")}</th>
            <th scope="col">{t("bonuses")}</th>
            <th scope="col">{t("chongPoints")}</th>
            <th scope="col">{t("bonusTotal")}</th>
          </tr>
        </thead>
        <tbody>
          {SEATS.map((s) => {
            const r = result.seats[s];
            return (
              <tr key={s} data-seat={s}>
                <th scope="row">
                  {seatName(s, props.names)}
                  {result.banker === s ? <span class="tag dealer">{t("banker")}</span> : null}
                </th>
                <td class={`num net ${r.net >= 0 ? "plus" : "minus"}`}>
                  {t("zhu", { n: signed(r.net) })}
                </td>
                <td class="num" data-label={t("trickShort")}>
                  {r.tricks}{" "}
                  <span class="muted small">{r.zhengben ? t("zhengben") : t("chijiao")}</span>
                </td>
                <td class="num" data-label={t("diao")}>
                  {signed(r.diao)}
                </td>
                <td class="bonus-items" data-label={t("bonuses")}>
                  {r.bonuses.length
                    ? r.bonuses.map((b) => `${named(b)} ${t("zhu", { n: b.zhu })}`).join(" · ")
                    : "—"}
                </td>
                <td class="num" data-label={t("chongPoints")}>
                  {r.chong}
                </td>
                <td class="num" data-label={t("bonusTotal")}>
                  {r.bonus_total}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <section class="who-pays">
        <h3>{t("payments")}</h3>
        <Payments
          payments={result.payments ?? []}
          names={props.names}
          unit={(n) => t("zhu", { n })}
        />
      </section>
      {props.showPoints === false ? null : (
        <Points props={props} owedNet={props.me ? result.net[props.me] : null} />
      )}
    </>
  );
}
