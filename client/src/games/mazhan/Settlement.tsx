// The Mazhan settlement: every hand laid down with the winning tile marked, each seat's items
// and 台 with the formula exactly as the scorer gives it, who pays whom (dealer ×2), then the
// same in points (× 底注) with the table fee.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { meldName, named, t, tileName, winByName, windName } from "../../i18n";
import { SEATS } from "../../model/seats";
import type { Formula, MazhanResult, MazhanScore, Named, Seat } from "../../protocol";
import { play } from "../../sound";
import { motionOn } from "../../state/prefs";
import { PieceGroup } from "../../widgets/board";
import {
  type SettlementProps as CommonProps,
  MyResult,
  Points,
  RevealRow,
  seatName,
  signed,
  WhoPays,
} from "../../widgets/settlement";
import { BonusTiles, Tile } from "./Tile";

/** The settlement's props: the hand's wild (its tiles starred) and dealer (marked). */
export type SettlementProps = CommonProps & { wild?: string; dealer?: Seat };

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
    <RevealRow
      seat={seat}
      winner={isWinner}
      who={
        <>
          {seatName(seat, props.names)}
          {props.dealer === seat ? <span class="tag dealer">{t("dealer")}</span> : null}
          {isWinner ? <span class="tag win">{t("winner")}</span> : null}
        </>
      }
    >
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
        <PieceGroup key={i} class="meld" label={meldName(m.kind)}>
          {(m.tiles ?? []).map((c, k) => (
            <Tile key={k} code={c} size="sm" />
          ))}
        </PieceGroup>
      ))}
      <BonusTiles tiles={h.bonus} class="meld bonus" />
    </RevealRow>
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

/** A column of a score card: its items by name, each with what it counts. */
function Items<I extends Named>({
  title,
  items,
  value,
}: {
  title: string;
  items: I[];
  value: (item: I) => string | number;
}): JSX.Element {
  return (
    <div>
      <h5>{title}</h5>
      {items.length ? (
        <ul class="items">
          {items.map((it, i) => (
            <li key={i}>
              <span>{named(it)}</span>
              <span class="num">{value(it)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">—</p>
      )}
    </div>
  );
}

function ScoreCard({
  seat,
  score,
  result,
  props,
  formula = true,
}: {
  seat: Seat;
  score: MazhanScore;
  result: MazhanResult;
  props: SettlementProps;
  /** The formula shown (false while the items are still turning up). */
  formula?: boolean;
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
        <Items title={t("items")} items={score.items} value={(it) => it.points} />
        <Items
          title={t("taiItems")}
          items={score.tai_items}
          value={(it) => t("tai", { n: it.tai })}
        />
      </div>
      {formula ? <FormulaSteps score={score} /> : null}
    </article>
  );
}

/** How a win's settlement turns up (the live table's; a replay shows it whole): the
 *  winner's hand first, then the winner's items one by one, each a beat apart, then the
 *  formula and the rest. `step` counts what is shown; a tap skips to the end. */
function useWinReveal(
  total: number,
  live: boolean,
  onShown?: () => void,
): { step: number; done: boolean; skip: () => void } {
  const [step, setStep] = useState(live && motionOn.value ? 0 : total);
  const done = step >= total;
  useEffect(() => {
    if (done) {
      onShown?.();
      return;
    }
    const id = setTimeout(
      () => {
        setStep((n) => n + 1);
        play("reveal");
      },
      step === 0 ? 700 : 420,
    );
    return () => clearTimeout(id);
  }, [step, done]);
  return { step, done, skip: () => setStep(total) };
}

export function MazhanSettlement({
  result,
  onShown,
  ...props
}: SettlementProps & { result: MazhanResult; onShown?: () => void }): JSX.Element {
  const order = result.winner
    ? [result.winner, ...SEATS.filter((s) => s !== result.winner)]
    : [...SEATS];
  const win = result.winner ? result.scores[result.winner] : null;
  // the winner's hand (1), each of its items and 台 items, the formula (1)
  const total = win ? 2 + win.items.length + win.tai_items.length : 0;
  const { step, done, skip } = useWinReveal(total, onShown !== undefined, onShown);
  // a tap anywhere on it shows the rest at once (the Skip button for the keyboard)
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || done) return;
    el.addEventListener("pointerdown", skip);
    return () => el.removeEventListener("pointerdown", skip);
  }, [done]);
  if (!done && result.winner && win) {
    const items = Math.max(0, step - 1);
    const shownWin: MazhanScore = {
      ...win,
      items: win.items.slice(0, items),
      tai_items: win.tai_items.slice(0, Math.max(0, items - win.items.length)),
    };
    return (
      // a tap anywhere on it (or the button, or a key on the button) shows the rest at once
      <div
        class="settlement mazhan revealing"
        data-hand={props.hand}
        data-revealed="false"
        data-step={step}
        ref={box}
      >
        <div class="row reveal-head">
          <Outcome result={result} props={props} />
          <button type="button" class="ghost" data-action="reveal-skip" onClick={skip}>
            {t("revealSkip")}
          </button>
        </div>
        <section class="reveal" aria-label={t("allHands")}>
          <HandRow seat={result.winner} result={result} props={props} />
        </section>
        {step >= 1 ? (
          <section class="scores">
            <ScoreCard
              seat={result.winner}
              score={shownWin}
              result={result}
              props={props}
              formula={step >= total - 1}
            />
          </section>
        ) : null}
      </div>
    );
  }
  return (
    <div class="settlement mazhan" data-hand={props.hand} data-revealed="true">
      <Outcome result={result} props={props} />
      <MyResult props={props} nets={result.net} unit={(n) => t("hu", { n })} />
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
      <WhoPays payments={result.payments} names={props.names} unit={(n) => t("hu", { n })}>
        <p class="nets">
          {t("netHu")}:{" "}
          {SEATS.map((s) => (
            <span key={s} class={`net ${result.net[s] >= 0 ? "plus" : "minus"}`} data-seat={s}>
              {windName(s)} {signed(result.net[s])}
            </span>
          ))}
        </p>
      </WhoPays>
      <Points props={props} nets={result.net} />
    </div>
  );
}
