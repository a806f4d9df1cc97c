// The Mazhan guide's tiles (How to play): rows of tile groups, the winning tile marked, the
// wild's tiles starred.
import type { JSX } from "preact";
import type { Cards, Tiles } from "../../guide/types";
import { PieceRows } from "../../widgets/PieceRows";
import { splitTiles } from "./notation";
import { Tile } from "./Tile";

export function GuideTiles({ block }: { block: Tiles | Cards }): JSX.Element | null {
  if (block.kind !== "tiles") return null;
  return (
    <PieceRows
      rows={block.rows}
      pieces={(row) =>
        row.groups.map((g, i) => (
          <span class="tile-group" key={i}>
            {splitTiles(g.codes).map((code, k) => (
              <Tile
                key={k}
                code={code}
                size="md"
                wild={code === row.wild}
                class={g.win ? "win-tile" : undefined}
              />
            ))}
          </span>
        ))
      }
    />
  );
}
