// What every game's board is given and is made of: the view, who sits where, the clock, what to
// do on a tap; laid out the same way for every game (you at the bottom, the others around),
// with the same plates, prompts and piece buttons. The games draw their own pieces.
import type { ComponentChildren, JSX, Ref } from "preact";
import { t, type UiKey, windName } from "../i18n";
import { aroundFrom, sideOf } from "../model/seats";
import type { Game, GameEvent, Seat, SeatInfo, View } from "../protocol";
import { Countdown, clockOf, type TableClock } from "./Clock";
import { hasFinePointer } from "./hooks";
import { SeatBadge } from "./SeatBadge";

/** A board's props (a game's board narrows `V` to its own view). */
export interface BoardProps<V extends View = View> {
  view: V;
  names: Record<Seat, SeatInfo | null>;
  /** The running clock (null: none this seat may see), stopped while the table is paused. */
  clock: TableClock | null;
  /** The action sent and waiting for the server's next view: the prompt it answered is gone
   *  and the hand's buttons are disabled meanwhile. */
  pending: string | null;
  /** Bumped on each new frame, to replay the short animations. */
  version: number;
  points?: Partial<Record<Seat, number>>;
  onAction: (action: string) => void;
  /** The replay viewer shows a table without controls. */
  readOnly?: boolean;
  /** The action a hint suggests (marked on its piece or button). */
  hinted?: string | null;
  /** Replay: every seat's concealed pieces (the hand is over). */
  revealed?: Partial<Record<Seat, string[]>>;
  /** The frame's events (its claims and wins are called out at the table). */
  events?: readonly GameEvent[];
  /** The hand review (a read-only board): two choices of this seat's decision, each marked
   *  on its piece, or on its option in the prompt the seat had. */
  marks?: readonly BoardMark[];
}

/** Who made a choice the review compares: this player, or the expert bot. */
export type MarkWho = "you" | "expert";

/** One choice marked on the board: a legal action of the view and whose it is. */
export interface BoardMark {
  action: string;
  who: MarkWho;
}

/** Who chose `action`, among the board's marks (both, where two marks name it). */
export function marksOf(marks: readonly BoardMark[] | undefined, action: string): MarkWho[] {
  return (marks ?? []).filter((m) => m.action === action).map((m) => m.who);
}

/** The words over a marked piece or option: 「你」 / 「高手」, "you" / "expert". */
export function MarkBadges({ who }: { who: readonly MarkWho[] }): JSX.Element | null {
  if (!who.length) return null;
  return (
    <span class="review-marks" aria-hidden="true">
      {who.map((w) => (
        <span key={w} class={`review-mark mark-${w}`}>
          {t(w === "you" ? "reviewMarkYou" : "reviewMarkExpert")}
        </span>
      ))}
    </span>
  );
}

/** A piece of a read-only hand with the review's marks over it (the piece as it is when
 *  unmarked); its accessible name says whose choice it was. */
export function MarkedPiece({
  who,
  children,
}: {
  who: readonly MarkWho[];
  children: ComponentChildren;
}): JSX.Element {
  if (!who.length) return <>{children}</>;
  const said = who.map((w) => t(w === "you" ? "reviewYourChoice" : "reviewExpertChoice"));
  return (
    <span
      class={`marked-piece ${who.map((w) => `mark-${w}`).join(" ")}`}
      data-mark={who.join(" ")}
      role="group"
      aria-label={said.join(", ")}
    >
      <MarkBadges who={who} />
      {children}
    </span>
  );
}

/** The table as every game lays it out: the three other seats around the middle of the felt
 *  (`center`: the ponds and wall, the trick), this player's own area (`mine`) below. */
export function BoardTable(p: {
  board: BoardProps;
  game: Game;
  /** The pause after a discard (Mazhan §5 end): `.table[data-settling]`. */
  settling?: boolean;
  /** Another seat's area (top, left, right). */
  other: (seat: Seat) => ComponentChildren;
  center: ComponentChildren;
  mine: ComponentChildren;
}): JSX.Element {
  const { view } = p.board;
  const [, right, top, left] = aroundFrom(view.seat) as [Seat, Seat, Seat, Seat];
  return (
    <div
      class={`table ${p.game}${p.board.readOnly ? " read-only" : ""}`}
      data-game={p.game}
      data-phase={view.phase}
      data-version={view.version}
      data-settling={p.settling ? "true" : undefined}
    >
      <div class="felt">
        {p.other(top)}
        {p.other(left)}
        {p.other(right)}
        <div class="ponds">{p.center}</div>
      </div>
      {p.mine}
    </div>
  );
}

/** What a game writes on a seat's plate (the rest is the board's): the seat's wind (Mazhan:
 *  moves with the deal; Ma Diao: the seat), who deals (Mazhan's dealer, Ma Diao's banker),
 *  and anything beside the name (Ma Diao's tricks won). */
export interface Plate {
  wind: Seat;
  dealer: Seat;
  dealerLabel: "dealer" | "banker";
  extra?: JSX.Element;
}

/** A seat's plate on the board: its badge, with the board's name, clock and points for it,
 *  lit while the seat is on the move (nobody is in a claim window or once the hand is over). */
function SeatPlate({
  board,
  seat,
  plate,
}: {
  board: BoardProps;
  seat: Seat;
  plate: Plate;
}): JSX.Element {
  const { view } = board;
  const me = view.seat;
  return (
    <SeatBadge
      seat={seat}
      wind={plate.wind}
      info={board.names[seat]}
      isMe={seat === me}
      dealer={plate.dealer === seat}
      dealerLabel={plate.dealerLabel}
      active={(seat === me ? view.my_turn : view.turn === seat) && !view.result}
      clock={clockOf(board.clock, seat, me)}
      points={board.points?.[seat] ?? null}
      extra={plate.extra}
    />
  );
}

/** Another seat's area: its plate, its hand (backs; every face in the replay), and what the
 *  game lays before it (`children`: melds, cards won). */
export function SeatArea(p: {
  board: BoardProps;
  seat: Seat;
  plate: Plate;
  handSize: number;
  /** One piece of the hand: a face (`code`, the replay's) or a back (`code` null). */
  piece: (code: string | null, i: number) => JSX.Element;
  children?: ComponentChildren;
}): JSX.Element {
  const revealed = p.board.revealed?.[p.seat];
  return (
    <section
      class={`seat-area side-${sideOf(p.seat, p.board.view.seat)}`}
      data-seat={p.seat}
      aria-label={windName(p.plate.wind)}
    >
      <SeatPlate board={p.board} seat={p.seat} plate={p.plate} />
      {revealed ? (
        <span class="revealed-hand">{revealed.map((c, i) => p.piece(c, i))}</span>
      ) : (
        <span class="hidden-hand" role="img" aria-label={t("handSize", { n: p.handSize })}>
          {Array.from({ length: p.handSize }, (_, i) => p.piece(null, i))}
        </span>
      )}
      {p.children}
    </section>
  );
}

/** This player's area: the plate and what lies after it (`top`), what may be done now
 *  (`children`: a prompt, the turn's words), the hand, and the keys (on a device with keys). */
export function OwnArea(p: {
  board: BoardProps;
  plate: Plate;
  top: ComponentChildren;
  /** The hand's class (Ma Diao's `hand cards`). */
  handClass?: string;
  hand: ComponentChildren;
  /** The keyboard's help under the hand. */
  keys: UiKey;
  children?: ComponentChildren;
}): JSX.Element {
  const { board } = p;
  return (
    <section
      class="my-area side-bottom"
      data-seat={board.view.seat}
      aria-label={`${windName(p.plate.wind)} (${t("you")})`}
    >
      <div class="my-top">
        <SeatPlate board={board} seat={board.view.seat} plate={p.plate} />
        {p.top}
      </div>
      {p.children}
      <div class={p.handClass ?? "hand"} role="group" aria-label={t("concealed")}>
        {p.hand}
      </div>
      {board.readOnly || !hasFinePointer() ? null : (
        <p class="keys-hint muted small">{t(p.keys)}</p>
      )}
    </section>
  );
}

/** A prompt: the choices open now (`children`), its words before them (`title`), its own
 *  countdown. */
export function Prompt(p: {
  /** A claim window's prompt (another seat's discard). */
  claim?: boolean;
  title?: ComponentChildren;
  clock: TableClock | null;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <div class={`prompt${p.claim ? " claim" : ""}`} role="group" aria-label={t("chooseAction")}>
      {p.title}
      <span class="prompt-options">{p.children}</span>
      <Countdown clock={p.clock} />
    </div>
  );
}

/** One choice of a prompt: its name, what it plays (`children`: tiles, a card), the hint's
 *  mark. */
export function ActButton(p: {
  kind: string;
  action: string;
  /** Its accessible name (the action in words). */
  label: string;
  name: string;
  hinted?: string | null;
  disabled: boolean;
  onAction: (action: string) => void;
  /** The key that picks it (a claim prompt's digits, Escape for a pass). */
  keys?: string;
  buttonRef?: Ref<HTMLButtonElement>;
  /** The review's marks on it (a read-only board). */
  marks?: readonly MarkWho[];
  children?: ComponentChildren;
}): JSX.Element {
  const who = p.marks ?? [];
  const said = who.map((w) => t(w === "you" ? "reviewYourChoice" : "reviewExpertChoice"));
  return (
    <button
      type="button"
      ref={p.buttonRef}
      class={`act act-${p.kind}${p.action === p.hinted ? " hinted" : ""}${who.map((w) => ` mark-${w}`).join("")}`}
      data-action={p.action}
      data-mark={who.length ? who.join(" ") : undefined}
      aria-label={said.length ? `${p.label} (${said.join(", ")})` : p.label}
      aria-keyshortcuts={p.keys}
      disabled={p.disabled}
      onClick={() => p.onAction(p.action)}
    >
      <MarkBadges who={who} />
      <span class="act-name">{p.name}</span>
      {p.children}
    </button>
  );
}

/** One's turn with nothing to choose but a piece of the hand: the words, and the turn's
 *  clock (`bar`: as a slim bar in the dock). */
export function TurnPrompt(p: {
  words: string;
  clock: TableClock | null;
  bar?: boolean;
}): JSX.Element {
  return (
    <div
      class={`prompt quiet${p.bar ? " turn-clock" : ""}`}
      data-turn-clock={p.bar ? "true" : undefined}
    >
      <span class="turn-hint" role="status">
        {p.words}
      </span>
      <Countdown clock={p.clock} />
    </div>
  );
}

/** A labelled group of pieces: the bonus tiles, the waits, the cards won, a settled meld. */
export function PieceGroup(p: {
  class: string;
  label: string;
  /** Its accessible name, when more than its label (the pieces in words). */
  aria?: string;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <span class={p.class} role="group" aria-label={p.aria ?? p.label}>
      <span class="meld-label">{p.label}</span>
      {p.children}
    </span>
  );
}

/** What a piece button needs from its hand (a roving tabindex): see `useRovingHand`. */
export interface HandStop {
  tabIndex?: number;
  onKeyDown?: (ev: KeyboardEvent) => void;
  buttonRef?: (el: HTMLButtonElement | null) => void;
}

/** A piece one may play (a tile, a card): a real button (keyboard, focus ring, accessible
 *  name) around the piece's face. */
export function PieceButton(
  p: HandStop & {
    class: string;
    code: string;
    label: string;
    /** Its action, or a card's actions (`data-action`). */
    action?: string;
    /** A card that asks which of its plays (pressed while its choices show). */
    pressed?: boolean;
    /** A card's `data-card` besides the `data-tile` every piece has. */
    card?: boolean;
    disabled?: boolean;
    onClick: (ev: MouseEvent) => void;
    onPointerDown?: (ev: PointerEvent) => void;
    onPointerUp?: (ev: PointerEvent) => void;
    onPointerEnter?: (ev: PointerEvent) => void;
    onPointerLeave?: (ev: PointerEvent) => void;
    onFocus?: () => void;
    children: ComponentChildren;
  },
): JSX.Element {
  return (
    <button
      type="button"
      class={p.class}
      data-card={p.card ? p.code : undefined}
      data-tile={p.code}
      data-action={p.action}
      aria-label={p.label}
      aria-pressed={p.pressed}
      title={p.label}
      disabled={p.disabled}
      onClick={p.onClick}
      onPointerDown={p.onPointerDown}
      onPointerUp={p.onPointerUp}
      onPointerEnter={p.onPointerEnter}
      onPointerLeave={p.onPointerLeave}
      onFocus={p.onFocus}
      onKeyDown={p.onKeyDown}
      tabIndex={p.tabIndex}
      ref={p.buttonRef}
    >
      {p.children}
    </button>
  );
}
