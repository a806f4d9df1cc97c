// Ma Diao, as the client knows it: its one registration (games/index.ts lists it).
import type { JSX } from "preact";
import type { MadiaoResult, MadiaoView, View } from "../../protocol";
import type { BoardProps } from "../../widgets/board";
import { type GameSettlementProps, type GameUi, scorerTab } from "../types";
import { MadiaoTable } from "./Board";
import { CHONG_EXAMPLE_STATE, CHONG_START, ChongScorer, type ChongState } from "./Chong";
import { ESCAPE_MULTIPLE, ROOMS } from "./figures";
import { GuideCards } from "./GuideCards";
import { madiaoEn } from "./guide.en";
import { madiaoZh } from "./guide.zh";
import { MadiaoSettlement } from "./Settlement";
import { actionLabel, moveWords } from "./words";

// the registry hands a game only its own views (it picks the game by the view's `game`)
const own = (view: View): MadiaoView => view as MadiaoView;

function Board(props: BoardProps): JSX.Element {
  return <MadiaoTable {...props} view={own(props.view)} />;
}

function Settlement({ result, view: _view, ...props }: GameSettlementProps): JSX.Element {
  return <MadiaoSettlement {...props} result={result as MadiaoResult} />;
}

export const madiao = {
  id: "madiao",
  Board,
  actionLabel(view, action) {
    const a = own(view).legal.find((x) => x.action === action);
    return a ? actionLabel(a) : null;
  },
  moveWords: (text) => moveWords(text),
  held: (view) => own(view).hand,
  Settlement,
  netUnit: "zhu",
  escapeMultiple: ESCAPE_MULTIPLE,
  rooms: ROOMS,
  guide: { zh: madiaoZh, en: madiaoEn },
  GuidePieces: GuideCards,
  scorer: scorerTab<ChongState>({
    tab: "chongTab",
    blank: CHONG_START,
    example: CHONG_EXAMPLE_STATE,
    Form: ({ state, onState, rulesHref }) => (
      <ChongScorer state={state} onState={onState} rulesHref={rulesHref} />
    ),
  }),
} as const satisfies GameUi;
