// The Mazhan table: a square table with you at the bottom.
import type { JSX } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { actionName, meldName, t, tileName, windName, windShort } from "../../i18n";
import { aroundFrom, isSeat, sideOf } from "../../model/seats";
import type { MazhanAction, MazhanMeld, MazhanView, Seat } from "../../protocol";
import {
  ActButton,
  type BoardProps,
  BoardTable,
  OwnArea,
  PieceGroup,
  type Plate,
  Prompt,
  SeatArea,
  TurnPrompt,
} from "../../widgets/board";
import { clockOf } from "../../widgets/Clock";
import { useRovingHand, useTurnFocus } from "../../widgets/hooks";
import { BonusTiles, Tile, TileButton } from "./Tile";
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

function Pond({ seat, view }: { seat: Seat; view: MazhanView }): JSX.Element {
  const discards = view.seats[seat].discards;
  const last = view.last;
  const lastHere = last && last.seat === seat && last.kind === "discard";
  return (
    <div
      class={`pond pond-${sideOf(seat, view.seat)}`}
      data-seat={seat}
      role="list"
      aria-label={`${windName(seat)} ${t("discards")}`}
    >
      {discards.map((d, i) => {
        const isLast = lastHere && i === discards.length - 1;
        const cls = [d.claimed_by ? "claimed" : "", isLast ? "last" : ""].filter(Boolean).join(" ");
        const claimedBy = isSeat(d.claimed_by) ? ` → ${windName(d.claimed_by)}` : "";
        return (
          <span role="listitem" key={i} class="pond-slot">
            <Tile
              code={d.tile}
              size="sm"
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
  );
}

/** The short callout of a claim or kong at the seat that made it (「碰」), for one second. */
function Callout({ view, version }: { view: MazhanView; version: number }): JSX.Element | null {
  const last = view.last;
  const [shown, setShown] = useState<number | null>(null);
  const loud =
    last &&
    ["chi", "peng", "gang", "angang", "jiagang", "hu", "shazhu", "chow", "pung", "kong"].includes(
      last.kind,
    );
  useEffect(() => {
    if (!loud) return;
    setShown(version);
    const id = setTimeout(() => setShown(null), 1200);
    return () => clearTimeout(id);
  }, [version, loud]);
  if (!loud || shown !== version || !last?.seat) return null;
  return (
    <span class={`callout callout-${sideOf(last.seat, view.seat)}`} aria-hidden="true">
      {actionName(last.kind)}
    </span>
  );
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
  const wildIs = t("wildIs", { tile: tileName(view.wild) });
  return (
    <div class="table-center" role="group" aria-label={t("wall")}>
      <div class="center-row">
        <span class="center-stat" title={t("wall")}>
          <span class="stat-label">{t("wall")}</span>
          <b data-wall={view.wall_left}>{view.wall_left}</b>
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
          disabled={props.pending !== null}
          onAction={props.onAction}
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
  // an answer sent: its prompt goes at once, and the table shows the discard settling (as
  // every seat that cannot claim sees it) until the server's next view
  const answered = props.pending !== null;
  const prompting = !props.readOnly && !answered && options.length > 0;
  const disabled = props.readOnly || answered || !view.my_turn;
  const discarding =
    view.my_turn && !view.window && discards.size > 0 && !props.readOnly && !answered;
  // the keyboard starts on the drawn tile (or the last), where the pointer would go
  useTurnFocus(discarding, view.version, buttons, all.length - 1, setFocus);

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

  const tileButton = (code: string, i: number, drawn: boolean) => {
    const action = discards.get(code);
    const wild = code === view.wild;
    const label = `${action ? `${actionName("discard")} ` : ""}${tileName(code)}${wild ? ` (${t("wild")})` : ""}${drawn ? ` (${t("drawn")})` : ""}`;
    if (props.readOnly) {
      return (
        <Tile key={`${i}`} code={code} size="lg" wild={wild} class={drawn ? "drawn" : undefined} />
      );
    }
    return (
      <TileButton
        key={`${i}-${code}`}
        code={code}
        size="lg"
        wild={wild}
        class={[drawn ? "drawn" : "", i === hinted ? "hinted" : ""].join(" ").trim() || undefined}
        label={label}
        action={action}
        disabled={disabled || !action}
        {...stop(i)}
        onClick={() => {
          if (action) props.onAction(action);
        }}
      />
    );
  };

  // your turn to discard (nothing to declare): the words and the turn's clock as a bar
  const mine = clockOf(props.clock, me, me);
  return (
    <OwnArea
      board={props}
      plate={plate(view, me)}
      top={
        <>
          <Melds seat={me} view={view} />
          {view.waits.length ? (
            <PieceGroup
              class="waits"
              label={t("waits")}
              aria={`${t("waits")}: ${view.waits.map((w) => tileName(w)).join(" ")}`}
            >
              {view.waits.map((w) => (
                <Tile key={w} code={w} size="xs" />
              ))}
            </PieceGroup>
          ) : null}
        </>
      }
      hand={
        <>
          <span class="hand-tiles">{tiles.map((c, i) => tileButton(c, i, false))}</span>
          {view.drawn ? (
            <span class="hand-drawn">{tileButton(view.drawn, tiles.length, true)}</span>
          ) : null}
        </>
      }
      keys="mahjongKeys"
    >
      {props.readOnly ? null : (
        // what this player may do now floats over the table's edge above the hand: its
        // coming and going never moves the board or the hand under a finger
        <div class="dock">
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
          <Callout view={view} version={props.version} />
        </>
      }
      mine={<MyArea {...props} />}
    />
  );
}
