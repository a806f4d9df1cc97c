// The Ma Diao table: 面張 and banker, the trick in the middle with who led, each seat's cards
// won to the table, its face-down (滅) cards (faces shown to their owner only).
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { actionName, cardName, t, windName } from "../../i18n";
import { sideOf } from "../../model/seats";
import type { MadiaoAction, MadiaoView, Seat } from "../../protocol";
import {
  ActButton,
  type BoardProps,
  BoardTable,
  MarkedPiece,
  marksOf,
  OwnArea,
  PieceGroup,
  type Plate,
  Prompt,
  SeatArea,
  TurnPrompt,
} from "../../widgets/board";
import { clockOf } from "../../widgets/Clock";
import { useRovingHand, useTurnFocus } from "../../widgets/hooks";
import { Card, CardButton } from "./Card";
import { actionLabel } from "./words";

export type MadiaoTableProps = BoardProps<MadiaoView>;

/** "1 trick", "3 tricks", 「3 墩」. */
const tricks = (n: number): string => t(n === 1 ? "tricksWonOne" : "tricksWon", { n });
function SeatCards({ view, seat }: { view: MadiaoView; seat: Seat }): JSX.Element {
  const s = view.seats[seat];
  const own = seat === view.seat;
  return (
    <div class="md-seat-cards">
      <PieceGroup
        class="group"
        label={t("tableCards")}
        aria={`${t("tableCards")}: ${s.won.map((c) => cardName(c)).join(" ") || "—"}`}
      >
        {s.won.length ? (
          s.won.map((c) => <Card key={c} code={c} size="sm" />)
        ) : (
          <span class="none">—</span>
        )}
      </PieceGroup>
      {s.face_down ? (
        <PieceGroup
          class="group face-down"
          label={t("faceDown")}
          aria={t("faceDownCount", { n: s.face_down })}
        >
          {own && s.face_down_cards ? (
            s.face_down_cards.map((c) => <Card key={c} code={c} size="sm" class="mie" />)
          ) : (
            // another seat's: one back and the count, kept on the label's line on a phone
            <>
              <Card code={null} size="sm" />
              <span class="face-down-count" aria-hidden="true">
                ×{s.face_down}
              </span>
            </>
          )}
        </PieceGroup>
      ) : null}
    </div>
  );
}

/** A seat's plate: the banker marked, its tricks won beside its name. */
const plate = (view: MadiaoView, seat: Seat): Plate => ({
  wind: seat,
  dealer: view.banker,
  dealerLabel: "banker",
  extra: <span class="tricks">{tricks(view.seats[seat].tricks_won)}</span>,
});

function OtherSeat(props: MadiaoTableProps & { seat: Seat }): JSX.Element {
  const { view, seat } = props;
  return (
    <SeatArea
      board={props}
      seat={seat}
      plate={plate(view, seat)}
      handSize={view.seats[seat].hand_size}
      piece={(c, i) => <Card key={c ?? i} code={c} size="sm" />}
    >
      <SeatCards view={view} seat={seat} />
    </SeatArea>
  );
}

function TrickArea({ view }: { view: MadiaoView }): JSX.Element {
  const trick = view.trick;
  const no = Math.min(Math.max(view.trick_no, 1), 8);
  // no card played yet: on a phone the area shrinks to its line of facts (the hand rises)
  const empty = !trick?.plays.length;
  return (
    <div
      class={`trick-area${empty ? " empty" : ""}`}
      role="group"
      aria-label={t("trick", { n: no })}
    >
      <div class="trick-info">
        <span class="center-stat">
          <span class="stat-label">{t("mian")}</span>
          <Card code={view.mian} size="sm" />
        </span>
        <span class="center-stat">
          <b>{t("trick", { n: no })}</b> / 8
        </span>
        {view.phase === "over" ? (
          // the eight tricks are played: nobody is to lead (the 開沖 follows in the settlement)
          <span class="center-stat">{t("tricksDone")}</span>
        ) : trick ? (
          <span class="center-stat">
            {t(trick.plays.length ? "leader" : "toLead", { seat: windName(trick.leader) })}
          </span>
        ) : null}
      </div>
      <div class="trick-plays">
        {(trick?.plays ?? []).map((p) => {
          const side = sideOf(p.seat, view.seat);
          const label = p.face_up
            ? `${windName(p.seat)}: ${p.card ? cardName(p.card) : ""}`
            : `${windName(p.seat)}: ${actionName("mie")}${p.card ? ` ${cardName(p.card)}` : ""}`;
          return (
            <span
              key={p.seat}
              class={`trick-play at-${side}${p.face_up ? "" : " down"}${trick?.leader === p.seat ? " leader" : ""}`}
              data-seat={p.seat}
              role="img"
              aria-label={label}
            >
              {p.face_up ? (
                <Card code={p.card} size="md" />
              ) : (
                <Card code={p.card} size="md" class="mie" label={label} />
              )}
              {trick?.leader === p.seat ? <span class="lead-mark">{actionName("fa")}</span> : null}
            </span>
          );
        })}
      </div>
    </div>
  );
}

function MyArea(props: MadiaoTableProps): JSX.Element {
  const { view } = props;
  const me = view.seat;
  const [selected, setSelected] = useState<string | null>(null);
  const { buttons, setFocus, stop } = useRovingHand(view.hand.length, 0);
  useEffect(() => setSelected(null), [view.version]);
  const byCard = new Map<string, MadiaoAction[]>();
  for (const a of view.legal) if (a.card) byCard.set(a.card, [...(byCard.get(a.card) ?? []), a]);
  const disabled = props.readOnly || props.pending !== null || !view.my_turn;
  const choices = selected ? (byCard.get(selected) ?? []) : [];
  const playable = view.hand.findIndex((c) => byCard.has(c));
  useTurnFocus(
    view.my_turn && !props.readOnly && playable >= 0,
    view.version,
    buttons,
    playable,
    setFocus,
  );
  const canZhuo = view.legal.some((a) => a.kind === "zhuo");
  // a card with two plays asks: the keyboard goes to the first choice (Enter plays it)
  const firstChoice = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (choices.length > 1) firstChoice.current?.focus();
  }, [selected, choices.length]);
  const clock = clockOf(props.clock, me, me);
  // the review's two choices, each on its card; where both are plays of one card (a capture
  // or a throw down), the two plays are shown as the card's prompt, marked
  const marks = props.marks ?? [];
  const markedCard = (c: string) =>
    marks.filter((m) => (byCard.get(c) ?? []).some((a) => a.action === m.action)).map((m) => m.who);
  const reviewChoices = props.readOnly
    ? view.legal.filter((a) => {
        const same =
          marks.length > 1 &&
          marks.every((m) => byCard.get(a.card ?? "")?.some((x) => x.action === m.action));
        return marks.some((m) => m.action === a.action) && (same || !a.card);
      })
    : [];
  return (
    <OwnArea
      board={props}
      plate={plate(view, me)}
      top={<SeatCards view={view} seat={me} />}
      handClass="hand cards"
      hand={view.hand.map((c, i) => {
        const acts = byCard.get(c) ?? [];
        if (props.readOnly)
          return (
            <MarkedPiece key={c} who={markedCard(c)}>
              <Card code={c} size="lg" />
            </MarkedPiece>
          );
        const label = acts.length === 1 ? actionLabel(acts[0] as MadiaoAction) : cardName(c);
        return (
          <CardButton
            key={c}
            code={c}
            label={label}
            actions={acts.map((a) => a.action)}
            selected={selected === c}
            hinted={acts.some((a) => a.action === props.hinted)}
            disabled={disabled || !acts.length}
            {...stop(i)}
            onClick={() => {
              if (acts.length === 1) props.onAction((acts[0] as MadiaoAction).action);
              else if (acts.length > 1) setSelected(selected === c ? null : c);
            }}
          />
        );
      })}
      keys="madiaoKeys"
    >
      {reviewChoices.length ? (
        <Prompt clock={null}>
          {reviewChoices.map((a) => (
            <ActButton
              key={a.action}
              kind={a.kind}
              action={a.action}
              label={actionLabel(a)}
              name={actionName(a.kind)}
              disabled
              onAction={props.onAction}
              marks={marksOf(marks, a.action)}
            >
              {a.card ? <Card code={a.card} size="sm" /> : null}
            </ActButton>
          ))}
        </Prompt>
      ) : null}
      {choices.length > 1 && !props.readOnly ? (
        <Prompt clock={clock}>
          {choices.map((a, k) => (
            <ActButton
              key={a.action}
              buttonRef={k === 0 ? firstChoice : undefined}
              kind={a.kind}
              action={a.action}
              label={actionLabel(a)}
              name={actionName(a.kind)}
              hinted={props.hinted}
              disabled={props.pending !== null}
              onAction={props.onAction}
            >
              {a.card ? <Card code={a.card} size="sm" /> : null}
            </ActButton>
          ))}
        </Prompt>
      ) : view.my_turn && !props.readOnly ? (
        <TurnPrompt
          words={
            view.legal.some((a) => a.kind === "fa")
              ? t("lead")
              : canZhuo
                ? t("zhuoOrMie")
                : t("mieOnly")
          }
          clock={clock}
        />
      ) : null}
    </OwnArea>
  );
}

export function MadiaoTable(props: MadiaoTableProps): JSX.Element {
  return (
    <BoardTable
      board={props}
      game="madiao"
      other={(seat) => <OtherSeat {...props} seat={seat} />}
      center={<TrickArea view={props.view} />}
      mine={<MyArea {...props} />}
    />
  );
}
