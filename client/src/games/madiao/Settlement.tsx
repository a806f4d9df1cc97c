// The Ma Diao settlement: the cards each seat won, the 包賠 penalties, the 開沖 draws turned up
// one by one, then each seat's 吊 and bonuses, who pays whom, and the points.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { cardName, lang, named, t } from "../../i18n";
import { SEATS } from "../../model/seats";
import type { MadiaoPenalty, MadiaoResult, Seat, SeatInfo } from "../../protocol";
import { motionOn } from "../../state/prefs";
import {
  ColumnHeads,
  MyResult,
  Points,
  RevealRow,
  type SettlementProps,
  seatName,
  signed,
  WhoPays,
} from "../../widgets/settlement";
import { Card } from "./Card";

/** The 開沖 draws turned up one by one (600 ms apart; at once for reduced motion), the
 *  count shown so far, and a skip to the end. */
function useChongReveal(
  total: number,
  onUnshown?: (n: number) => void,
): { shown: number; skip: () => void } {
  // at once without motion (the system's setting, or the player's at the table)
  const [shown, setShown] = useState(motionOn.value ? 0 : total);
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
  onShown,
  ...props
}: SettlementProps & {
  result: MadiaoResult;
  /** Told how many 開沖 draws are still face down (the table's move log holds them back). */
  onChongUnshown?: (n: number) => void;
  /** Told once the 開沖 is all turned up (or skipped to): the settlement is fully shown. */
  onShown?: () => void;
}): JSX.Element {
  const { shown, skip } = useChongReveal(result.chong.length, onChongUnshown);
  // the scores wait for the 開沖 to be turned up: they would tell its draws before they show
  const done = shown >= result.chong.length;
  useEffect(() => {
    if (done) onShown?.();
  }, [done]);
  return (
    <div class="settlement madiao" data-hand={props.hand}>
      {done ? <MyResult props={props} nets={result.net} unit={(n) => t("zhu", { n })} /> : null}
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
          <RevealRow key={s} seat={s} who={seatName(s, props.names)}>
            {result.seats[s].won.length
              ? result.seats[s].won.map((c) => <Card key={c} code={c} size="sm" />)
              : "—"}
          </RevealRow>
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
        <ColumnHeads
          cols={[
            t("seat"),
            t("net"),
            t("trickShort"),
            t("diao"),
            t("bonuses"),
            t("chongPoints"),
            t("bonusTotal"),
          ]}
        />
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
      <WhoPays payments={result.payments ?? []} names={props.names} unit={(n) => t("zhu", { n })} />
      <Points props={props} nets={result.net} />
    </>
  );
}
