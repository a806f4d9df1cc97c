// The "How to play" guides: each game in each language (the page is `#/rules`).

import { madiaoEn } from "../games/madiao/guide.en";
import { madiaoZh } from "../games/madiao/guide.zh";
import { mazhanEn } from "../games/mazhan/guide.en";
import { mazhanZh } from "../games/mazhan/guide.zh";
import type { Lang } from "../i18n";
import type { Guide } from "./types";

export type RulesGame = "mazhan" | "madiao";
export const RULES_GAMES: readonly RulesGame[] = ["mazhan", "madiao"];

export const GUIDES: Record<RulesGame, Record<Lang, Guide>> = {
  mazhan: { zh: mazhanZh, en: mazhanEn },
  madiao: { zh: madiaoZh, en: madiaoEn },
};

export type { Block, Guide, Section } from "./types";
