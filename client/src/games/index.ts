// The games this client can show, each reached through its folder's one registration
// (games/<game>/index.tsx): the screens ask `gameUi(name)` for a game's board, words,
// settlement, guide and scorer, and never test a game's name. A game the server names that is
// not here gets a clear message (widgets/UnknownGame.tsx), not a crash.

import type { Guide } from "../guide/types";
import type { Lang } from "../i18n";
import { madiao } from "./madiao";
import { mazhan } from "./mazhan";
import type { GameUi } from "./types";

/** Every game, in the order of the tabs (the first is the one a page opens on). */
const LIST = [mazhan, madiao] as const;

/** A game this client has a folder for (the server may register others: UnknownGame). */
export type KnownGame = (typeof LIST)[number]["id"];

export const GAMES: readonly GameUi[] = LIST;

/** The games by name. */
export const GAME_UI: Readonly<Partial<Record<string, GameUi>>> = Object.fromEntries(
  GAMES.map((g) => [g.id, g]),
);

/** The game of this name, or null when this client does not know it. */
export function gameUi(name: string | null | undefined): GameUi | null {
  return (name && Object.hasOwn(GAME_UI, name) ? GAME_UI[name] : null) ?? null;
}

/** The game of this name, or the first game (a page that must show one: the guide, the
 *  scorer). */
export function gameOrFirst(name: string | null | undefined): GameUi {
  return gameUi(name) ?? (GAMES[0] as GameUi);
}

/** How to play, by game and language (every game this client knows). */
export const GUIDES = Object.fromEntries(GAMES.map((g) => [g.id, g.guide])) as Readonly<
  Record<KnownGame, Readonly<Record<Lang, Guide>>>
>;
export const RULES_GAMES: readonly KnownGame[] = LIST.map((g) => g.id);

/** An escape's cost in 底注, by game (rules §10). */
export const ESCAPE_MULTIPLE: Readonly<Record<string, number>> = Object.fromEntries(
  GAMES.map((g) => [g.id, g.escapeMultiple]),
);

/** What an escape costs at a table of `game`, × 底注; a game this page does not know: the
 *  most any game asks (the server says what it took). */
export function escapeMultiple(game: string | null | undefined): number {
  return gameUi(game)?.escapeMultiple ?? Math.max(...GAMES.map((g) => g.escapeMultiple));
}

/** Every room's minimum balance, as the games' guides quote them. */
export const ROOM_MINIMUM: Readonly<Record<string, number>> = Object.assign(
  {},
  ...GAMES.map((g) => g.rooms),
);
