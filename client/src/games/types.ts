// What the client knows about a game, reached through one object per game (games/index.ts):
// the screens ask a game's registration for its board, its words, its settlement, its guide
// and its scorer, and never test a game's name.
import type { ComponentType } from "preact";
import type { Cards, Guide, Tiles } from "../guide/types";
import type { Lang, UiKey } from "../i18n";
import type { Game, View } from "../protocol";
import type { BoardProps } from "../widgets/board";
import type { SettlementProps } from "../widgets/settlement";

/** A finished hand's settlement, as the table and the replay show it. */
export interface GameSettlementProps extends SettlementProps {
  /** The hand's result as the server sent it (the game's own shape). */
  result: unknown;
  /** The hand's last view, when known (the game may mark what it showed: Mazhan's wild). */
  view: View | null;
  /** Told how many of the hand's last 開沖 draws are still face down (the table's move log
   *  holds them back); a game without them never calls it. */
  onChongUnshown?: (n: number) => void;
  /** Told once the settlement is fully shown (every part turned up, or skipped to). */
  onShown?: () => void;
}

/** A state or a function of the state before (as a `useState` setter takes it). */
export type Update<S> = S | ((before: S) => S);

/** What a scorer tab's form is given: its state, kept by the page while another tab is shown
 *  (a switch of tabs loses nothing), and the link to the game's guide. */
export interface ScorerFormProps<S = unknown> {
  state: S;
  onState: (next: Update<S>) => void;
  rulesHref: string;
}

/** A game's tab on the scorer page (`#/score/<game>`). */
export interface ScorerTab<S = unknown> {
  /** The tab's label. */
  tab: UiKey;
  /** The form's state when the page opens, and after "Clear". */
  blank: S;
  /** The state "Example" fills in (the rules' worked example). */
  example: S;
  Form: ComponentType<ScorerFormProps<S>>;
}

/** A tab whose state only its own form reads: the page keeps that state without its shape. */
export function scorerTab<S>(tab: ScorerTab<S>): ScorerTab {
  return tab as unknown as ScorerTab;
}

/** Everything the client knows about one game. */
export interface GameUi {
  /** The game's name in the protocol (`view.game`, the table's `game`, the routes). */
  readonly id: Game;
  /** The table, live and in the replay (read-only, every hand shown). */
  Board: ComponentType<BoardProps>;
  /** A legal action of the view in words (the hint says it); null when the view has none. */
  actionLabel(view: View, action: string): string | null;
  /** What the helps would play at this view (take a win offered; pass a claim that offers
   *  no win), or null: the player plays. A game without claims leaves it out. */
  autoAction?(view: View, helps: { autoWin: boolean; autoPass: boolean }): string | null;
  /** A record's move in words from its notation alone (the replay, when the move's events
   *  say nothing); `called`: it came with events, so a claim that took nothing was a call. */
  moveWords(text: string, called: boolean): string;
  /** Every piece a seat's view holds (the replay shows the other seats' hands). */
  held(view: View): string[];
  /** The settlement of a finished hand. */
  Settlement: ComponentType<GameSettlementProps>;
  /** The unit a hand's net is counted in (a ui key with `{n}`): 胡, 注. */
  netUnit: UiKey;
  /** An escape costs this many × 底注 (rules §10). */
  escapeMultiple: number;
  /** The game's rooms and their minimum balances (the guides quote them). */
  rooms: Readonly<Record<string, number>>;
  /** How to play, in each language (`#/rules/<game>`). */
  guide: Readonly<Record<Lang, Guide>>;
  /** The guide's pieces (its tiles or cards) drawn by the table's own components. */
  GuidePieces: ComponentType<{ block: Tiles | Cards }>;
  /** The game's tab on the scorer page, if it has one. */
  scorer?: ScorerTab;
}
