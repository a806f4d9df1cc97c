// Mazhan mahjong, as the client knows it: its one registration (games/index.ts lists it).
import type { JSX } from "preact";
import type { MazhanResult, MazhanView, View } from "../../protocol";
import type { BoardProps } from "../../widgets/board";
import { type GameSettlementProps, type GameUi, scorerTab } from "../types";
import { MazhanTable } from "./Board";
import { ESCAPE_MULTIPLE, ROOMS } from "./figures";
import { GuideTiles } from "./GuideTiles";
import { mazhanEn } from "./guide.en";
import { mazhanZh } from "./guide.zh";
import { MazhanScorer, SCORER_EXAMPLE, SCORER_START, type ScorerState } from "./Scorer";
import { MazhanSettlement } from "./Settlement";
import { actionWords, moveWords } from "./words";

// the registry hands a game only its own views (it picks the game by the view's `game`)
const own = (view: View): MazhanView => view as MazhanView;

function Board(props: BoardProps): JSX.Element {
  return <MazhanTable {...props} view={own(props.view)} />;
}

/** The settlement marks the hand's wild and dealer, from its last view. */
function Settlement({ result, view, onChongUnshown, ...props }: GameSettlementProps): JSX.Element {
  const v = view ? own(view) : null;
  return (
    <MazhanSettlement
      {...props}
      result={result as MazhanResult}
      wild={v?.wild}
      dealer={v?.dealer}
    />
  );
}

export const mazhan = {
  id: "mazhan",
  Board,
  actionLabel(view, action) {
    const a = own(view).legal.find((x) => x.action === action);
    return a ? actionWords(a) : null;
  },
  moveWords,
  autoAction(view, helps) {
    const v = own(view);
    const win = v.legal.find((a) => a.kind === "hu" || a.kind === "shazhu");
    if (win) return helps.autoWin ? win.action : null;
    if (!helps.autoPass || !v.window) return null;
    return v.legal.find((a) => a.kind === "pass")?.action ?? null;
  },
  held(view) {
    const v = own(view);
    return v.drawn ? [...v.hand, v.drawn] : v.hand;
  },
  Settlement,
  netUnit: "hu",
  escapeMultiple: ESCAPE_MULTIPLE,
  rooms: ROOMS,
  guide: { zh: mazhanZh, en: mazhanEn },
  GuidePieces: GuideTiles,
  scorer: scorerTab<ScorerState>({
    tab: "scorerMazhanTab",
    blank: SCORER_START,
    example: SCORER_EXAMPLE,
    Form: ({ state, onState }) => <MazhanScorer state={state} onState={onState} />,
  }),
} as const satisfies GameUi;
