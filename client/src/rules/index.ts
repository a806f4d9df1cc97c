// The "How to play" guides: each game in each language (the page is `#/rules`).
import type { Lang } from "../i18n";
import { madiaoEn } from "./madiao.en";
import { madiaoZh } from "./madiao.zh";
import { mazhanEn } from "./mazhan.en";
import { mazhanZh } from "./mazhan.zh";
import type { Guide } from "./types";

export type RulesGame = "mazhan" | "madiao";
export const RULES_GAMES: readonly RulesGame[] = ["mazhan", "madiao"];

export const GUIDES: Record<RulesGame, Record<Lang, Guide>> = {
  mazhan: { zh: mazhanZh, en: mazhanEn },
  madiao: { zh: madiaoZh, en: madiaoEn },
};

export type { Block, Guide, Section } from "./types";
