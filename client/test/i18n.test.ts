import { describe, expect, it } from "vitest";
import { fill, TABLES } from "../src/i18n";
import { en } from "../src/i18n/en";
import { zh } from "../src/i18n/zh";

type Tree = { [k: string]: string | Tree };
function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === "string") out.set(prefix + k, v);
    else for (const [kk, vv] of leaves(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const zhLeaves = leaves(zh as unknown as Tree);
const enLeaves = leaves(en as unknown as Tree);
// the button that switches language names the other language in that language
// the scorer's notation help names the input's own keywords (pung, chow, kong, ckong), the
// 開沖 scorer's its card letters; its English keeps Ma Diao's terms (開沖, 斷沖) as the guide does
const BILINGUAL = new Set([
  "ui.switchLang",
  "ui.title",
  "ui.scorerNotation",
  "ui.chongTab",
  "ui.chongNotation",
  "ui.chongBreak",
  "ui.chongHelp",
  "ui.chongHelpLink",
  // the scorers' problems quote the notation a player types (pung 777z, qt)
  "problems.no_card",
  "ui.problemCardWords",
  "problems.meld_shape",
  "problems.meld_kind",
  "problems.captor_not_top",
  "problems.captive_not_top",
]);

describe("language tables", () => {
  it("have exactly the same keys", () => {
    expect([...enLeaves.keys()].sort()).toEqual([...zhLeaves.keys()].sort());
  });

  it("have no empty string", () => {
    for (const [k, v] of [...zhLeaves, ...enLeaves]) expect(v.trim(), k).not.toBe("");
  });

  it("hold no Chinese in English", () => {
    for (const [k, v] of enLeaves)
      if (!BILINGUAL.has(k)) expect(CJK.test(v), `${k}: ${v}`).toBe(false);
  });

  it("hold no English words in Chinese", () => {
    for (const [k, v] of zhLeaves) {
      if (BILINGUAL.has(k) || k.startsWith("tilesShort.")) continue;
      // key names as printed on keyboards are the same in both languages
      const text = v.replace(/\{\w+\}/g, "").replace(/\b(Enter|Esc|Home|End)\b/g, "");
      expect(/[A-Za-z]{2,}/.test(text), `${k}: ${v}`).toBe(false);
    }
  });

  it("use the same placeholders in both languages", () => {
    for (const [k, v] of zhLeaves) {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(enLeaves.get(k) ?? ""), k).toEqual(names(v));
    }
  });

  it("name every Mazhan tile and every Ma Diao card", () => {
    const tiles = [
      ..."123456789".split("").flatMap((r) => [`${r}m`, `${r}p`, `${r}s`]),
      ..."1234567".split("").map((r) => `${r}z`),
      ..."1234".split("").flatMap((r) => [`${r}h`, `${r}j`]),
    ];
    const cards = [
      "wt",
      "qt",
      "bt",
      ..."98765432".split("").map((r) => `${r}t`),
      ..."987654321".split("").flatMap((r) => [`${r}m`, `${r}s`]),
      "0c",
      "hc",
      ..."123456789".split("").map((r) => `${r}c`),
    ];
    expect(cards).toHaveLength(40);
    for (const lang of ["zh", "en"] as const) {
      expect(Object.keys(TABLES[lang].tiles).sort()).toEqual([...tiles].sort());
      expect(Object.keys(TABLES[lang].tilesShort).sort()).toEqual([...tiles].sort());
      expect(Object.keys(TABLES[lang].cards).sort()).toEqual([...cards].sort());
    }
    expect(zh.tiles["5m"]).toBe("五萬");
    expect(en.tiles["5m"]).toBe("5 Characters");
    expect(zh.cards.wt).toBe("萬萬");
  });

  it("fill placeholders and leave unknown ones visible", () => {
    expect(fill("{a} + {b}", { a: 1 })).toBe("1 + {b}");
  });
});
