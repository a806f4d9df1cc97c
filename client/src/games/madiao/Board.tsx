// The Ma Diao table: 面張 and banker, the trick in the middle with who led, each seat's cards
// won to the table, its face-down (滅) cards (faces shown to their owner only).
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { actionName, cardName, t, windName } from "../../i18n";
import { aroundFrom, sideOf } from "../../model/seats";
import type { MadiaoAction, MadiaoView, Seat } from "../../protocol";
import type { BoardProps } from "../../widgets/board";
import { Countdown, clockOf } from "../../widgets/Clock";
import { hasFinePointer, useTurnFocus } from "../../widgets/hooks";
import { SeatBadge } from "../../widgets/SeatBadge";
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
      <span
        class="group"
        role="group"
        aria-label={`${t("tableCards")}: ${s.won.map((c) => cardName(c)).join(" ") || "—"}`}
      >
        <span class="meld-label">{t("tableCards")}</span>
        {s.won.length ? (
          s.won.map((c) => <Card key={c} code={c} size="sm" />)
        ) : (
          <span class="none">—</span>
        )}
      </span>
      {s.face_down ? (
        <span
          class="group face-down"
          role="group"
          aria-label={t("faceDownCount", { n: s.face_down })}
        >
          <span class="meld-label">{t("faceDown")}</span>
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
        </span>
      ) : null}
    </div>
  );
}

function OtherSeat(props: MadiaoTableProps & { seat: Seat }): JSX.Element {
  const { view, seat } = props;
  const s = view.seats[seat];
  const revealed = props.revealed?.[seat];
  return (
    <section
      class={`seat-area side-${sideOf(seat, view.seat)}`}
      data-seat={seat}
      aria-label={windName(seat)}
    >
      <SeatBadge
        seat={seat}
        wind={seat}
        info={props.names[seat]}
        isMe={false}
        dealer={view.banker === seat}
        dealerLabel="banker"
        active={view.turn === seat && !view.result}
        clock={clockOf(props.clock, seat, view.seat)}
        points={props.points?.[seat] ?? null}
        extra={<span class="tricks">{tricks(s.tricks_won)}</span>}
      />
      {revealed ? (
        <span class="revealed-hand">
          {revealed.map((c) => (
            <Card key={c} code={c} size="sm" />
          ))}
        </span>
      ) : (
        <span class="hidden-hand" role="img" aria-label={t("handSize", { n: s.hand_size })}>
          {Array.from({ length: s.hand_size }, (_, i) => (
            <Card key={i} code={null} size="sm" />
          ))}
        </span>
      )}
      <SeatCards view={view} seat={seat} />
    </section>
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
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const [focus, setFocus] = useState(0);
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
  const key = (i: number) => (ev: KeyboardEvent) => {
    if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
      ev.preventDefault();
      const n = view.hand.length;
      const next = (i + (ev.key === "ArrowRight" ? 1 : -1) + n) % n;
      setFocus(next);
      buttons.current[next]?.focus();
    }
  };
  return (
    <section
      class="my-area side-bottom"
      data-seat={me}
      aria-label={`${windName(me)} (${t("you")})`}
    >
      <div class="my-top">
        <SeatBadge
          seat={me}
          wind={me}
          info={props.names[me]}
          isMe
          dealer={view.banker === me}
          dealerLabel="banker"
          active={view.my_turn && !view.result}
          clock={clockOf(props.clock, me, me)}
          points={props.points?.[me] ?? null}
          extra={<span class="tricks">{tricks(view.seats[me].tricks_won)}</span>}
        />
        <SeatCards view={view} seat={me} />
      </div>
      {choices.length > 1 && !props.readOnly ? (
        <div class="prompt" role="group" aria-label={t("chooseAction")}>
          <span class="prompt-options">
            {choices.map((a, k) => (
              <button
                type="button"
                key={a.action}
                ref={k === 0 ? firstChoice : undefined}
                class={`act act-${a.kind}${a.action === props.hinted ? " hinted" : ""}`}
                data-action={a.action}
                aria-label={actionLabel(a)}
                disabled={props.pending !== null}
                onClick={() => props.onAction(a.action)}
              >
                <span class="act-name">{actionName(a.kind)}</span>
                {a.card ? <Card code={a.card} size="sm" /> : null}
              </button>
            ))}
          </span>
          <Countdown clock={clockOf(props.clock, props.view.seat, props.view.seat)} />
        </div>
      ) : view.my_turn && !props.readOnly ? (
        <div class="prompt quiet">
          <span class="turn-hint" role="status">
            {view.legal.some((a) => a.kind === "fa")
              ? t("lead")
              : canZhuo
                ? t("zhuoOrMie")
                : t("mieOnly")}
          </span>
          <Countdown clock={clockOf(props.clock, props.view.seat, props.view.seat)} />
        </div>
      ) : null}
      <div class="hand cards" role="group" aria-label={t("concealed")}>
        {view.hand.map((c, i) => {
          const acts = byCard.get(c) ?? [];
          if (props.readOnly) return <Card key={c} code={c} size="lg" />;
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
              tabIndex={i === Math.min(focus, view.hand.length - 1) ? 0 : -1}
              onKeyDown={key(i)}
              buttonRef={(el) => {
                buttons.current[i] = el;
              }}
              onClick={() => {
                if (acts.length === 1) props.onAction((acts[0] as MadiaoAction).action);
                else if (acts.length > 1) setSelected(selected === c ? null : c);
              }}
            />
          );
        })}
      </div>
      {props.readOnly || !hasFinePointer() ? null : (
        <p class="keys-hint muted small">{t("madiaoKeys")}</p>
      )}
    </section>
  );
}

export function MadiaoTable(props: MadiaoTableProps): JSX.Element {
  const { view } = props;
  const [, right, top, left] = aroundFrom(view.seat) as [Seat, Seat, Seat, Seat];
  return (
    <div
      class={`table madiao${props.readOnly ? " read-only" : ""}`}
      data-game="madiao"
      data-phase={view.phase}
      data-version={view.version}
    >
      <div class="felt">
        <OtherSeat {...props} seat={top} />
        <OtherSeat {...props} seat={left} />
        <OtherSeat {...props} seat={right} />
        <div class="ponds">
          <TrickArea view={view} />
        </div>
      </div>
      <MyArea {...props} />
    </div>
  );
}
