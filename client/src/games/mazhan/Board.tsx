// The Mazhan table: a square table with you at the bottom.
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { actionName, lang, meldName, t, tileName, windName, windShort } from "../../i18n";
import { aroundFrom, isSeat, sideOf } from "../../model/seats";
import type { GameEvent, MazhanAction, MazhanMeld, MazhanView, Seat } from "../../protocol";
import { type Cue, play } from "../../sound";
import { motionOn } from "../../state/prefs";
import {
  ActButton,
  type BoardProps,
  BoardTable,
  MarkedPiece,
  marksOf,
  OwnArea,
  type Plate,
  Prompt,
  SeatArea,
  TurnPrompt,
} from "../../widgets/board";
import { clockOf, type TableClock } from "../../widgets/Clock";
import {
  hasFinePointer,
  secondsLeft,
  useNow,
  useRovingHand,
  useTurnFocus,
} from "../../widgets/hooks";
import {
  isSwipeUp,
  LOWERED,
  pointerOf,
  type TapEvent,
  type TapState,
  tap,
} from "../../widgets/tap";
import { BonusTiles, Tile, TileButton } from "./Tile";
import { afterDiscard, shownWaits, type Wait } from "./waits";
import { actionWords, optionText } from "./words";

export type MazhanTableProps = BoardProps<MazhanView>;

/** The tiles of a meld, every one upright (a turned tile cannot be read at this size): the
 *  claimed tile ringed, with the wind of the seat that gave it under it. */
function Meld({ meld, isMine }: { meld: MazhanMeld; isMine: boolean }): JSX.Element {
  const faceDown = meld.tiles === null;
  const label = meldName(meld.kind);
  const tiles = meld.tiles ?? [null, null, null, null];
  let claimedIndex = -1;
  if (meld.claimed && meld.tiles) claimedIndex = meld.tiles.indexOf(meld.claimed);
  const from = meld.from ? windName(meld.from) : "";
  const aria = faceDown
    ? t("concealedKong")
    : `${label} ${(meld.tiles ?? []).map((x) => tileName(x)).join(" ")}${from ? ` ← ${from}` : ""}`;
  return (
    <span class={`meld meld-${meld.kind}`} role="group" aria-label={aria} data-meld={meld.kind}>
      <span class="meld-label">{label}</span>
      <span class="meld-tiles">
        {tiles.map((code, i) =>
          i === claimedIndex ? (
            <span key={i} class="claimed-slot" data-from={meld.from ?? undefined}>
              <Tile code={code} size="sm" class="claimed-in" />
              {meld.from ? (
                <span class="claimed-from" aria-hidden="true">
                  {windShort(meld.from)}
                </span>
              ) : null}
            </span>
          ) : (
            <Tile
              key={i}
              code={code}
              size="sm"
              class={
                isMine && meld.kind === "ckong" && (i === 0 || i === 3) ? "own-ckong" : undefined
              }
            />
          ),
        )}
      </span>
      {meld.from && claimedIndex < 0 ? <span class="meld-from">{windShort(meld.from)}</span> : null}
    </span>
  );
}

function Melds({ seat, view }: { seat: Seat; view: MazhanView }): JSX.Element | null {
  const s = view.seats[seat];
  if (!s.melds.length && !s.bonus.length) return null;
  return (
    <div class="melds-row">
      {s.melds.length ? (
        <span class="group" role="group" aria-label={t("melds")}>
          {s.melds.map((m, i) => (
            <Meld key={i} meld={m} isMine={seat === view.seat} />
          ))}
        </span>
      ) : null}
      <BonusTiles tiles={s.bonus} class="group bonus" />
    </div>
  );
}

/** Where a discard flies in from: this player's own from the tile they played, another
 *  seat's from its side of the table. */
const FROM_SIDE: Record<string, [number, number]> = {
  bottom: [0, 90],
  top: [0, -70],
  left: [-70, 0],
  right: [70, 0],
};

function Pond({ seat, view }: { seat: Seat; view: MazhanView }): JSX.Element {
  const discards = view.seats[seat].discards;
  const last = view.last;
  const lastHere = last && last.seat === seat && last.kind === "discard";
  const side = sideOf(seat, view.seat);
  const box = useRef<HTMLDivElement>(null);
  const count = discards.length;
  const seen = useRef(count);
  // a new discard travels to its place (not on a reload or a catch-up: only one new tile)
  useLayoutEffect(() => {
    const was = seen.current;
    seen.current = count;
    if (count !== was + 1 || !lastHere || !motionOn.value) return;
    const el = box.current?.querySelector<HTMLElement>(".pond-slot:last-child .tile");
    if (!el?.animate) return;
    const to = el.getBoundingClientRect();
    let [dx, dy] = FROM_SIDE[side] ?? [0, 0];
    if (seat === view.seat && discardedFrom && discardedFrom.tile === last?.tile) {
      dx = discardedFrom.rect.left - to.left;
      dy = discardedFrom.rect.top - to.top;
    }
    if (seat === view.seat) discardedFrom = null;
    el.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(1.25)`, opacity: 0.6 },
        { transform: "none", opacity: 1 },
      ],
      { duration: 260, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
  }, [count]);
  return (
    <div class={`pond pond-${side}`} data-seat={seat}>
      <div
        class="pond-inner"
        ref={box}
        role="list"
        aria-label={`${windName(seat)} ${t("discards")}`}
      >
        {discards.map((d, i) => {
          const isLast = lastHere && i === discards.length - 1;
          const cls = [d.claimed_by ? "claimed" : "", isLast ? "last" : ""]
            .filter(Boolean)
            .join(" ");
          const claimedBy = isSeat(d.claimed_by) ? ` → ${windName(d.claimed_by)}` : "";
          return (
            <span role="listitem" key={i} class="pond-slot">
              <Tile
                code={d.tile}
                size="pond"
                class={cls || undefined}
                label={`${tileName(d.tile)}${claimedBy}`}
              />
              {isSeat(d.claimed_by) ? (
                <span class="claimed-mark" aria-hidden="true">
                  {windShort(d.claimed_by)}
                </span>
              ) : null}
            </span>
          );
        })}
      </div>
    </div>
  );
}

/** The calls, as a player at the table says them (the callout's big glyph, whatever the
 *  page's language) and the sound each makes. */
const CALLS: Record<string, { glyph: string; cue: Cue }> = {
  chi: { glyph: "吃", cue: "chi" },
  peng: { glyph: "碰", cue: "peng" },
  gang: { glyph: "槓", cue: "gang" },
  angang: { glyph: "槓", cue: "gang" },
  jiagang: { glyph: "槓", cue: "gang" },
  hu: { glyph: "胡", cue: "hu" },
};

/** The call this frame's events made (the last claim, kong or win), if any. */
export function callOf(
  events: readonly GameEvent[] | undefined,
): { seat: Seat; kind: string } | null {
  for (let i = (events?.length ?? 0) - 1; i >= 0; i -= 1) {
    const e = events?.[i];
    if (e && CALLS[e.kind] && isSeat(e.seat)) return { seat: e.seat, kind: e.kind };
  }
  return null;
}

/** A claim's, a kong's or a win's callout at the seat that made it (「碰」), with its sound;
 *  a win's stays (the board stays a moment after the hand ends, to show it). */
function Callout(props: MazhanTableProps): JSX.Element | null {
  const { view, version } = props;
  // the frame's events say the call; without them (a test, a tool), the view's last action
  const last = view.last?.seat ? { seat: view.last.seat, kind: view.last.kind } : null;
  const call = props.readOnly
    ? null
    : props.events
      ? callOf(props.events)
      : last && CALLS[last.kind]
        ? last
        : null;
  const [shown, setShown] = useState<number | null>(null);
  useEffect(() => {
    if (!call) return;
    setShown(version);
    play((CALLS[call.kind] as { cue: Cue }).cue);
    if (call.kind === "hu") return;
    const id = setTimeout(() => setShown(null), 1200);
    return () => clearTimeout(id);
  }, [version, call?.kind, call?.seat]);
  if (!call || shown !== version) return null;
  const c = CALLS[call.kind] as { glyph: string };
  return (
    <span
      class={`callout callout-${sideOf(call.seat, view.seat)}${call.kind === "hu" ? " callout-hu" : ""}`}
      data-call={call.kind}
      data-seat={call.seat}
      aria-hidden="true"
    >
      <span lang="zh-Hant">{c.glyph}</span>
      {lang.value === "en" ? <small>{actionName(call.kind)}</small> : null}
    </span>
  );
}

/** A tick each of the last five seconds of this player's own clock (a turn or a prompt): a
 *  component of its own, drawing nothing, so that its clock redraws only itself. */
function LastSeconds({ clock, on }: { clock: TableClock | null; on: boolean }): null {
  const now = useNow(on && clock !== null && !clock.stoppedAt, 250);
  const left = on && clock && !clock.stoppedAt ? secondsLeft(clock.deadline, now) : null;
  useEffect(() => {
    if (left !== null && left >= 1 && left <= 5) play("tick");
  }, [left]);
  return null;
}

/** The table's sounds for this frame: a discard landing, one's turn coming. */
function useCues(view: MazhanView, version: number, readOnly: boolean | undefined): void {
  const turn = view.my_turn && !view.window && view.result === null;
  const discard = view.last?.kind === "discard";
  useEffect(() => {
    if (!readOnly && discard) play("discard");
  }, [version]);
  useEffect(() => {
    if (!readOnly && turn) play("turn");
  }, [turn]);
}

/** A seat's plate: its wind this hand, the dealer marked. */
const plate = (view: MazhanView, seat: Seat): Plate => ({
  wind: view.seats[seat].wind,
  dealer: view.dealer,
  dealerLabel: "dealer",
});

function OtherSeat(props: MazhanTableProps & { seat: Seat }): JSX.Element {
  const { view, seat } = props;
  const s = view.seats[seat];
  return (
    <SeatArea
      board={props}
      seat={seat}
      plate={plate(view, seat)}
      handSize={s.hand_size}
      piece={(c, i) =>
        c === null ? (
          <Tile key={i} code={null} size="xs" />
        ) : (
          <Tile key={i} code={c} size="sm" wild={c === view.wild} />
        )
      }
    >
      <Melds seat={seat} view={view} />
    </SeatArea>
  );
}

function Center({ view }: { view: MazhanView }): JSX.Element {
  const drawable = Math.max(0, view.wall_left - view.dead_wall);
  const wildIs = t("wildIs", { tile: tileName(view.wild) });
  return (
    <div class="table-center" role="group" aria-label={t("wall")}>
      <div class="center-row">
        {/* the tiles still to be drawn: the 留牌 are never drawn (rules §5.6) */}
        <span
          class="center-stat"
          role="img"
          title={t("wallDrawable")}
          aria-label={`${t("wallDrawable")} ${drawable}; ${t("deadWall")} ${view.dead_wall}`}
        >
          <span class="stat-label" aria-hidden="true">
            {t("wall")}
          </span>
          <b data-wall={drawable} data-wall-left={view.wall_left} aria-hidden="true">
            {drawable}
          </b>
          <span class="stat-label dead" aria-hidden="true" data-dead={view.dead_wall}>
            {t("deadWall")} {view.dead_wall}
          </span>
        </span>
      </div>
      {/* the wild decides every hand: its face at a readable size, the ★ beside it (never
          over it) and its name in words */}
      <div
        class="center-row indicator"
        role="group"
        aria-label={`${t("indicator")} ${tileName(view.indicator)}; ${wildIs} ×3`}
      >
        <span class="stat-label">{t("indicator")}</span>
        <Tile code={view.indicator} size="md" />
        <span class="wild-faces">
          <Tile code={view.wild} size="md" wild="framed" />
          <span class="times">★×3</span>
        </span>
      </div>
      <div class="center-row wild-name" data-wild={view.wild} aria-hidden="true">
        {wildIs}
      </div>
      {view.set_aside.length ? (
        <div class="center-row set-aside">
          {view.set_aside.map((x) => (
            <Tile key={x} code={x} size="sm" />
          ))}
        </div>
      ) : null}
      <div class="center-row winds">
        {aroundFrom(view.seat).map((s) => (
          <span
            key={s}
            class={`compass compass-${sideOf(s, view.seat)}${view.turn === s ? " on" : ""}`}
          >
            {windShort(view.seats[s].wind)}
          </span>
        ))}
      </div>
    </div>
  );
}

/** The prompt: claim options (with the tiles each uses and its own countdown) or the
 *  declarations open on one's turn (win, kongs, three wilds), which say it is one's turn. */
function Options(props: MazhanTableProps & { options: MazhanAction[] }): JSX.Element | null {
  const { view, options } = props;
  if (!options.length) return null;
  const win = view.window;
  return (
    <Prompt
      claim={win !== null}
      clock={clockOf(props.clock, view.seat, view.seat)}
      title={
        win ? (
          <span class="prompt-title">
            {t(win.kind === "rob" ? "robPrompt" : "claimPrompt", {
              seat: windName(win.from),
              tile: tileName(win.tile),
            })}
            <Tile code={win.tile} size="sm" class="prompt-tile" />
          </span>
        ) : (
          <span class="prompt-title turn-hint" role="status">
            {t("yourTurn")}
          </span>
        )
      }
    >
      {options.map((a, i) => (
        <ActButton
          key={a.action}
          kind={a.kind}
          action={a.action}
          label={actionWords(a)}
          name={optionText(a)}
          keys={a.kind === "pass" ? "Escape" : String(i + 1)}
          hinted={props.hinted}
          disabled={props.pending !== null || !!props.readOnly}
          onAction={props.onAction}
          marks={marksOf(props.marks, a.action)}
        >
          {a.tiles.length && a.kind !== "pass" ? (
            <span class="act-tiles">
              {(a.kind === "chi"
                ? a.tiles
                : a.tiles.slice(
                    0,
                    a.kind === "angang" || a.kind === "jiagang" || a.kind === "gang" ? 4 : 3,
                  )
              ).map((x, k) => (
                <Tile
                  key={k}
                  code={x}
                  size="xs"
                  class={win && x === win.tile ? "claimed-in" : undefined}
                />
              ))}
            </span>
          ) : null}
          <kbd>{a.kind === "pass" ? "Esc" : i + 1}</kbd>
        </ActButton>
      ))}
    </Prompt>
  );
}

/** What the raised tile (or, with a mouse or the keyboard, the one pointed at) would leave:
 *  the waits and how many of each this seat has not seen, or that it would wait on nothing. */
function Preview({ view, index }: { view: MazhanView; index: number }): JSX.Element | null {
  const all = view.drawn ? [...view.hand, view.drawn] : view.hand;
  const code = all[index];
  if (!code) return null;
  const waits = afterDiscard(view, index);
  return (
    <div class="preview" role="status" data-preview={code} data-waits={waits?.length ?? 0}>
      <span class="preview-what">
        {actionName("discard")} <Tile code={code} size="xs" />
      </span>
      {waits ? (
        <WaitList waits={waits} label={t("waitsAfter")} />
      ) : (
        <span class="muted-felt">{t("noWaitsAfter")}</span>
      )}
    </div>
  );
}

/** Waits, each with how many are still unseen (from this seat's view only). */
function WaitList({ waits, label }: { waits: Wait[]; label: string }): JSX.Element {
  const said = waits.map((w) => `${tileName(w.tile)} ${t("leftN", { n: w.left })}`).join(", ");
  return (
    <span class="waits" role="group" aria-label={`${label}: ${said}`}>
      <span class="meld-label" aria-hidden="true">
        {label}
      </span>
      {waits.map((w) => (
        <span
          key={w.tile}
          class={`wait${w.left ? "" : " dead"}`}
          data-wait={w.tile}
          data-left={w.left}
        >
          <Tile code={w.tile} size="xs" />
          <span class="wait-left" aria-hidden="true">
            {w.left}
          </span>
        </span>
      ))}
    </span>
  );
}

/** Where this player's last discard left from (the tile's box on screen), for the pond to
 *  fly it from there. */
let discardedFrom: { tile: string; rect: DOMRect } | null = null;

function MyArea(props: MazhanTableProps): JSX.Element {
  const { view } = props;
  const me = view.seat;
  const discards = useMemo(() => {
    const m = new Map<string, string>();
    for (const a of view.legal) if (a.kind === "discard" && a.tile) m.set(a.tile, a.action);
    return m;
  }, [view.legal]);
  const options = view.legal.filter((a) => a.kind !== "discard");
  // passes last, so digits 1… are the real claims
  options.sort((a, b) => Number(a.kind === "pass") - Number(b.kind === "pass"));
  const tiles = view.hand;
  const all = view.drawn ? [...tiles, view.drawn] : tiles;
  const { buttons, setFocus, stop } = useRovingHand(all.length, tiles.length);
  // the hinted discard is outlined once: on the drawn tile, else the rightmost copy
  let hinted = -1;
  for (let i = 0; i < all.length; i += 1) {
    if (props.hinted && discards.get(all[i] as string) === props.hinted) hinted = i;
  }
  // the review's two choices: a discard on its tile (the rightmost copy, as the hint), any
  // other on its option of the prompt the seat had (shown, read-only, when one is marked)
  const marked = new Map<number, ReturnType<typeof marksOf>>();
  for (const m of props.marks ?? []) {
    let at = -1;
    for (let i = 0; i < all.length; i += 1) if (discards.get(all[i] as string) === m.action) at = i;
    if (at >= 0) marked.set(at, [...(marked.get(at) ?? []), m.who]);
  }
  const reviewPrompt =
    !!props.readOnly &&
    options.length > 0 &&
    (props.marks ?? []).some((m) => options.some((a) => a.action === m.action));
  // an answer sent: its prompt goes at once, and the table shows the discard settling (as
  // every seat that cannot claim sees it) until the server's next view
  const answered = props.pending !== null;
  const prompting = !props.readOnly && !answered && options.length > 0;
  const disabled = props.readOnly || answered || !view.my_turn;
  const discarding =
    view.my_turn && !view.window && discards.size > 0 && !props.readOnly && !answered;
  // the keyboard starts on the drawn tile (or the last), where the pointer would go
  useTurnFocus(discarding, view.version, buttons, all.length - 1, setFocus);
  // touch: the raised tile (a second tap plays it); a mouse or the keyboard: the tile
  // pointed at or focused, for the preview only
  const [taps, setTaps] = useState<TapState>(LOWERED);
  const [pointed, setPointed] = useState<number | null>(null);
  const swipe = useRef<{ index: number; y: number } | null>(null);
  // a new view lowers the tile: a raised tile of another moment is never played by one tap
  useEffect(() => {
    setTaps(LOWERED);
    setPointed(null);
  }, [view.version, answered]);
  // a tap anywhere but on the hand lowers it
  useEffect(() => {
    if (taps.raised === null) return;
    const away = (ev: PointerEvent) => {
      const el = ev.target instanceof Element ? ev.target.closest(".hand .tile-button") : null;
      if (!el) setTaps(LOWERED);
    };
    document.addEventListener("pointerdown", away, true);
    return () => document.removeEventListener("pointerdown", away, true);
  }, [taps.raised]);

  // digits pick a prompt option, Escape passes
  useEffect(() => {
    if (!prompting) return;
    const onKey = (ev: KeyboardEvent) => {
      if (ev.target instanceof HTMLInputElement || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const claims = options.filter((a) => a.kind !== "pass");
      if (ev.key === "Escape") {
        const pass = options.find((a) => a.kind === "pass");
        if (pass && props.pending === null) {
          ev.preventDefault();
          props.onAction(pass.action);
        }
        return;
      }
      const n = Number(ev.key);
      if (Number.isInteger(n) && n >= 1 && n <= claims.length && props.pending === null) {
        ev.preventDefault();
        props.onAction((claims[n - 1] as MazhanAction).action);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [options, prompting, props.pending, props.onAction]);

  const playAt = (i: number) => {
    const code = all[i];
    const action = code ? discards.get(code) : undefined;
    if (!action || !code) return;
    const el = buttons.current[i];
    discardedFrom = el ? { tile: code, rect: el.getBoundingClientRect() } : null;
    props.onAction(action);
  };
  const send = (ev: TapEvent) => {
    const next = tap(taps, ev);
    setTaps(next.state);
    if (next.play !== null) playAt(next.play);
  };

  const tileButton = (code: string, i: number, drawn: boolean) => {
    const action = discards.get(code);
    const wild = code === view.wild;
    const label = `${action ? `${actionName("discard")} ` : ""}${tileName(code)}${wild ? ` (${t("wild")})` : ""}${drawn ? ` (${t("drawn")})` : ""}`;
    if (props.readOnly) {
      return (
        <MarkedPiece key={`${i}`} who={marked.get(i) ?? []}>
          <Tile code={code} size="lg" wild={wild} class={drawn ? "drawn" : undefined} />
        </MarkedPiece>
      );
    }
    const playable = !disabled && !!action;
    const cls = [
      drawn ? "drawn" : "",
      i === hinted ? "hinted" : "",
      taps.raised === i ? "raised" : "",
    ];
    return (
      <TileButton
        key={`${i}-${code}`}
        code={code}
        size="lg"
        wild={wild}
        class={cls.join(" ").trim() || undefined}
        label={label}
        action={action}
        pressed={taps.raised === i ? true : undefined}
        disabled={disabled || !action}
        {...stop(i)}
        onClick={(ev) => send({ type: "tap", index: i, pointer: pointerOf(ev), playable })}
        onPointerDown={(ev) => {
          if (ev.pointerType !== "mouse") swipe.current = { index: i, y: ev.clientY };
        }}
        onPointerUp={(ev) => {
          const s = swipe.current;
          swipe.current = null;
          if (s && s.index === i && isSwipeUp(s.y, ev.clientY)) {
            ev.preventDefault();
            send({ type: "swipe", index: i, playable });
          }
        }}
        onPointerEnter={(ev) => {
          if (ev.pointerType === "mouse" && playable) setPointed(i);
        }}
        onPointerLeave={(ev) => {
          if (ev.pointerType === "mouse") setPointed((p) => (p === i ? null : p));
        }}
        onFocus={() => {
          if (playable && hasFinePointer()) setPointed(i);
        }}
      />
    );
  };

  // your turn to discard (nothing to declare): the words and the turn's clock as a bar
  const mine = clockOf(props.clock, me, me);
  const previewAt = discarding ? (taps.raised ?? pointed) : null;
  const waits = shownWaits(view);
  return (
    <OwnArea
      board={props}
      plate={plate(view, me)}
      top={
        <>
          <Melds seat={me} view={view} />
          {waits.length ? <WaitList waits={waits} label={t("waits")} /> : null}
        </>
      }
      hand={
        <>
          <span class="hand-tiles">{tiles.map((c, i) => tileButton(c, i, false))}</span>
          <span class="hand-drawn">
            {view.drawn ? tileButton(view.drawn, tiles.length, true) : null}
          </span>
        </>
      }
      keys="mahjongKeys"
    >
      {reviewPrompt ? (
        // the review: the choices the seat had, the two compared marked on them
        <div class="dock review-dock">
          <Options {...props} options={options} />
        </div>
      ) : null}
      {props.readOnly ? null : (
        // what this player may do now floats over the table's edge above the hand: its
        // coming and going never moves the board or the hand under a finger
        <div class="dock">
          <LastSeconds clock={mine} on={!answered && (discarding || prompting)} />
          {previewAt !== null ? <Preview view={view} index={previewAt} /> : null}
          {prompting ? (
            <Options {...props} options={options} />
          ) : discarding ? (
            <TurnPrompt words={t("yourTurn")} clock={mine && mine.seat === me ? mine : null} bar />
          ) : null}
        </div>
      )}
    </OwnArea>
  );
}

/** True while this seat is shown the pause after a discard (Mazhan §5 end): a window is
 *  open and it has nothing to decide in it, or it has answered. Every seat that cannot claim
 *  sees the same thing, whether or not another seat can: the discard settling into its pond,
 *  and nothing else (no prompt, no clock, nobody's turn, no word of anyone deciding). */
export function settling(view: MazhanView, pending: string | null): boolean {
  return (
    view.result === null && view.window !== null && (pending !== null || view.legal.length === 0)
  );
}

export function MazhanTable(props: MazhanTableProps): JSX.Element {
  const { view } = props;
  useCues(view, props.version, props.readOnly);
  const [, right, top, left] = aroundFrom(view.seat) as [Seat, Seat, Seat, Seat];
  return (
    <BoardTable
      board={props}
      game="mazhan"
      settling={!props.readOnly && settling(view, props.pending)}
      other={(seat) => <OtherSeat {...props} seat={seat} />}
      center={
        <>
          <Pond seat={top} view={view} />
          <Pond seat={left} view={view} />
          <Center view={view} />
          <Pond seat={right} view={view} />
          <Pond seat={view.seat} view={view} />
          <Callout {...props} />
        </>
      }
      mine={<MyArea {...props} />}
    />
  );
}
