// The shape of the "How to play" guides: a guide is a list of sections, a section a list of
// blocks. Text may mark a few words **bold**; everything else is structure, so the page lays
// it out (tables, tiles, cards) and a test can compare the two languages section by section.

/** A paragraph. */
export interface Para {
  kind: "p";
  text: string;
}

/** A list: bullets, or numbered steps. */
export interface List {
  kind: "list";
  items: string[];
  ordered?: boolean;
}

/** A table; numbers are shown as figures (right-aligned). It scrolls inside its own box. */
export interface Table {
  kind: "table";
  caption?: string;
  head: string[];
  rows: (string | number)[][];
}

/** One group of Mazhan tiles in a row: codes as the notation writes them ("777z", "13p"). */
export interface TileGroup {
  codes: string;
  /** The tile that completed the hand (highlighted). */
  win?: boolean;
}

/** Mazhan tiles, a row each: a label, then groups of tiles (a gap between groups). */
export interface Tiles {
  kind: "tiles";
  /** `wild`: the wild face, whose tiles in the row carry the ★. */
  rows: { label: string; groups: TileGroup[]; wild?: string; note?: string }[];
}

/** Ma Diao cards, a row each; `marks` (one per card) are shown under the cards. */
export interface Cards {
  kind: "cards";
  rows: { label: string; cards: string; marks?: (string | number)[]; note?: string }[];
}

/** A short highlighted remark (a rule that is easy to miss). */
export interface Note {
  kind: "note";
  text: string;
}

export type Block = Para | List | Table | Tiles | Cards | Note;

export interface Section {
  /** Stable across languages (the page's anchors, the tests). */
  id: string;
  title: string;
  blocks: Block[];
}

export interface Guide {
  /** The game's name as the tab shows it. */
  name: string;
  /** One or two sentences under the tabs. */
  intro: string;
  sections: Section[];
}
