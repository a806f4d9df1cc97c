// Mahjong tiles drawn with SVG (pips for dots and bamboo, the system CJK font for the
// characters): no image files, no web font. `data-tile` carries the code for tests and tools.
import type { JSX } from "preact";
import { t, tileName } from "../../i18n";
import { type HandStop, PieceButton, PieceGroup } from "../../widgets/board";

const NUMERALS = "一二三四五六七八九";
const HONOURS: Record<string, { glyph: string; cls: string }> = {
  "1z": { glyph: "東", cls: "ink" },
  "2z": { glyph: "南", cls: "ink" },
  "3z": { glyph: "西", cls: "ink" },
  "4z": { glyph: "北", cls: "ink" },
  "5z": { glyph: "", cls: "blue" },
  "6z": { glyph: "發", cls: "green" },
  "7z": { glyph: "中", cls: "red" },
};
const BONUS_GLYPHS: Record<string, string> = { h: "梅蘭菊竹", j: "春夏秋冬" };

type Pip = [number, number, string];
const B = "pip-blue";
const G = "pip-green";
const R = "pip-red";
/** Dot positions in a 30 × 40 face: [x, y, colour class]. */
const DOTS: Record<number, { r: number; pips: Pip[] }> = {
  1: { r: 9, pips: [[15, 20, R]] },
  2: {
    r: 6,
    pips: [
      [15, 11, G],
      [15, 29, B],
    ],
  },
  3: {
    r: 5.2,
    pips: [
      [8, 9, B],
      [15, 20, R],
      [22, 31, G],
    ],
  },
  4: {
    r: 5.2,
    pips: [
      [9, 12, B],
      [21, 12, G],
      [9, 28, G],
      [21, 28, B],
    ],
  },
  5: {
    r: 4.8,
    pips: [
      [8, 10, B],
      [22, 10, G],
      [15, 20, R],
      [8, 30, G],
      [22, 30, B],
    ],
  },
  6: {
    r: 4.6,
    pips: [
      [9, 9, G],
      [21, 9, G],
      [9, 21, R],
      [21, 21, R],
      [9, 32, R],
      [21, 32, R],
    ],
  },
  7: {
    r: 3.9,
    pips: [
      [7, 6, G],
      [15, 10, G],
      [23, 14, G],
      [9, 24, R],
      [21, 24, R],
      [9, 33, R],
      [21, 33, R],
    ],
  },
  8: {
    r: 3.9,
    pips: [
      [9, 6, B],
      [21, 6, B],
      [9, 15, B],
      [21, 15, B],
      [9, 25, B],
      [21, 25, B],
      [9, 34, B],
      [21, 34, B],
    ],
  },
  9: {
    r: 4,
    pips: [
      [7, 8, B],
      [15, 8, B],
      [23, 8, B],
      [7, 20, R],
      [15, 20, R],
      [23, 20, R],
      [7, 32, G],
      [15, 32, G],
      [23, 32, G],
    ],
  },
};
/** Bamboo stick centres in a 30 × 40 face. */
const STICKS: Record<number, Pip[]> = {
  2: [
    [15, 10, G],
    [15, 30, G],
  ],
  3: [
    [15, 10, G],
    [9, 30, G],
    [21, 30, G],
  ],
  4: [
    [9, 10, G],
    [21, 10, G],
    [9, 30, G],
    [21, 30, G],
  ],
  5: [
    [8, 10, G],
    [22, 10, G],
    [15, 20, R],
    [8, 30, G],
    [22, 30, G],
  ],
  6: [
    [7, 10, G],
    [15, 10, G],
    [23, 10, G],
    [7, 30, G],
    [15, 30, G],
    [23, 30, G],
  ],
  7: [
    [15, 7, R],
    [7, 21, G],
    [15, 21, G],
    [23, 21, G],
    [7, 34, G],
    [15, 34, G],
    [23, 34, G],
  ],
  8: [
    [6, 10, G],
    [12, 10, G],
    [18, 10, G],
    [24, 10, G],
    [6, 30, G],
    [12, 30, G],
    [18, 30, G],
    [24, 30, G],
  ],
  9: [
    [7, 7, G],
    [15, 7, R],
    [23, 7, G],
    [7, 20, G],
    [15, 20, R],
    [23, 20, G],
    [7, 33, G],
    [15, 33, R],
    [23, 33, G],
  ],
};

function Face({ code }: { code: string }): JSX.Element {
  const rank = Number(code[0]);
  const suit = code[1];
  if (suit === "m") {
    return (
      <>
        <text x="15" y="17" class="glyph ink" font-size="14">
          {NUMERALS[rank - 1]}
        </text>
        <text x="15" y="35" class="glyph red" font-size="14">
          萬
        </text>
      </>
    );
  }
  if (suit === "p") {
    const layout = DOTS[rank];
    return (
      <>
        {layout?.pips.map(([x, y, cls]) => (
          <g key={`${x},${y}`}>
            <circle cx={x} cy={y} r={layout.r} class={cls} />
            <circle cx={x} cy={y} r={layout.r * 0.45} class="pip-hole" />
          </g>
        ))}
      </>
    );
  }
  if (suit === "s") {
    if (rank === 1) {
      return (
        <>
          <rect x="12" y="6" width="6" height="28" rx="3" class="pip-green" />
          <circle cx="15" cy="20" r="3.2" class="pip-red" />
        </>
      );
    }
    const h = rank >= 7 ? 9 : 12;
    return (
      <>
        {(STICKS[rank] ?? []).map(([x, y, cls]) => (
          <g key={`${x},${y}`}>
            <rect x={x - 1.8} y={y - h / 2} width="3.6" height={h} rx="1.6" class={cls} />
            <line x1={x - 1.8} x2={x + 1.8} y1={y} y2={y} class="stick-node" />
          </g>
        ))}
      </>
    );
  }
  if (suit === "z") {
    const h = HONOURS[code];
    if (code === "5z")
      return <rect x="6" y="7" width="18" height="26" rx="2" class="white-frame" />;
    return (
      <text x="15" y="27" class={`glyph ${h?.cls ?? "ink"}`} font-size="20">
        {h?.glyph}
      </text>
    );
  }
  // flowers (h) and seasons (j): the glyph, and the seat number it matches in the corner
  const glyph = BONUS_GLYPHS[suit ?? ""]?.[rank - 1] ?? "?";
  return (
    <>
      <text x="15" y="27" class={`glyph ${suit === "h" ? "red" : "green"}`} font-size="18">
        {glyph}
      </text>
      <text x="25" y="10" class="glyph ink corner" font-size="8">
        {rank}
      </text>
    </>
  );
}

export type TileSize = "lg" | "md" | "sm" | "xs" | "pond";

export interface TileProps {
  code: string | null;
  size?: TileSize;
  /** A wild face (★): framed in gold with a ★ on its corner; "framed" leaves the face clear
   *  (the caller writes the ★ beside it, where the tile is small). */
  wild?: boolean | "framed";
  /** Extra classes (last, claimed, win, drawn, new…). */
  class?: string;
  /** Overrides the accessible name (a button's action label). */
  label?: string;
  title?: string;
}

/** A tile face (or its back when `code` is null), as an image with its name. */
export function Tile({
  code,
  size = "md",
  wild,
  class: extra,
  label,
  title,
}: TileProps): JSX.Element {
  const name = code ? tileName(code) : "";
  return (
    <span
      class={`tile tile-${size}${code ? "" : " back"}${wild ? " wild" : ""}${extra ? ` ${extra}` : ""}`}
      data-tile={code ?? undefined}
      role="img"
      aria-label={label ?? (code ? name : undefined)}
      aria-hidden={code || label ? undefined : true}
      title={title ?? (code ? name : undefined)}
    >
      <svg viewBox="0 0 30 40" aria-hidden="true" focusable="false">
        {code ? (
          <Face code={code} />
        ) : (
          <rect x="3" y="3" width="24" height="34" rx="3" class="back-pattern" />
        )}
      </svg>
      {wild === true ? (
        <span class="star" aria-hidden="true">
          ★
        </span>
      ) : null}
    </span>
  );
}

export interface TileButtonProps extends Omit<TileProps, "label">, HandStop {
  code: string;
  label: string;
  action?: string;
  disabled?: boolean;
  onClick: (ev: MouseEvent) => void;
  onPointerDown?: (ev: PointerEvent) => void;
  onPointerUp?: (ev: PointerEvent) => void;
  onPointerEnter?: (ev: PointerEvent) => void;
  onPointerLeave?: (ev: PointerEvent) => void;
  onFocus?: () => void;
  /** Raised by a first tap (a second plays it). */
  pressed?: boolean;
}

/** A tile one may play: a real button (keyboard, focus ring, accessible name). */
export function TileButton({
  size = "lg",
  wild,
  class: extra,
  ...p
}: TileButtonProps): JSX.Element {
  return (
    <PieceButton {...p} class={`tile-button${extra ? ` ${extra}` : ""}`}>
      <Tile code={p.code} size={size} wild={wild} label="" />
    </PieceButton>
  );
}

/** The bonus tiles a seat has laid aside, a group of their own (none: nothing). */
export function BonusTiles({
  tiles,
  class: cls,
}: {
  tiles: string[];
  class: string;
}): JSX.Element | null {
  if (!tiles.length) return null;
  return (
    <PieceGroup class={cls} label={t("bonus")}>
      {tiles.map((b) => (
        <Tile key={b} code={b} size="sm" />
      ))}
    </PieceGroup>
  );
}
