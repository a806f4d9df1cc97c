// The guide's rows of pieces (How to play): each row a label, the pieces (a game draws its own
// tiles or cards), and a note.
import type { ComponentChildren, JSX } from "preact";

export interface PieceRow {
  label: string;
  note?: string;
}

export function PieceRows<R extends PieceRow>({
  rows,
  groups,
  pieces,
}: {
  rows: R[];
  /** A class of the pieces' box besides `howto-groups`. */
  groups?: string;
  pieces: (row: R) => ComponentChildren;
}): JSX.Element {
  return (
    <div class="howto-pieces">
      {rows.map((row, r) => (
        <div class="howto-piece-row" key={r}>
          <span class="howto-label">{row.label}</span>
          <span class={groups ? `howto-groups ${groups}` : "howto-groups"}>{pieces(row)}</span>
          {row.note ? <span class="howto-piece-note muted small">{row.note}</span> : null}
        </div>
      ))}
    </div>
  );
}
