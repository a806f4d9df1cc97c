// The Ma Diao guide's cards (How to play): rows of cards, a mark under each (a 開沖 draw's
// points) where the row has them.
import type { JSX } from "preact";
import type { Cards, Tiles } from "../../guide/types";
import { PieceRows } from "../../widgets/PieceRows";
import { Card } from "./Card";
import { splitCards } from "./notation";

export function GuideCards({ block }: { block: Tiles | Cards }): JSX.Element | null {
  if (block.kind !== "cards") return null;
  return (
    <PieceRows
      rows={block.rows}
      groups="howto-cards"
      pieces={(row) =>
        splitCards(row.cards).map((code, k) => (
          <span class="howto-card" key={k}>
            <Card code={code} size="md" />
            {row.marks ? <span class="howto-mark">{row.marks[k]}</span> : null}
          </span>
        ))
      }
    />
  );
}
