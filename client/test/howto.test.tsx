import { render } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { ESCAPE_MULTIPLE, GUIDES, ROOM_MINIMUM, RULES_GAMES } from "../src/games";
import { DIAO } from "../src/games/madiao/figures";
import { BASE_POINTS, HEAD, KEPT_BACK, LIMIT, ROUNDING } from "../src/games/mazhan/figures";
import { STAKE_EXAMPLES } from "../src/guide/figures";
import type { Block } from "../src/guide/types";
import { type Lang, setLang } from "../src/i18n";
import { hashToRoute, routeToHash } from "../src/routes";
import { HowTo } from "../src/screens/HowTo";
import { stakeFor } from "../src/screens/Lobby";
import { route } from "../src/state/connection";
import { handle } from "../src/state/handle";
import { clearTable } from "../src/state/table";
import { sitAt, viewFrame } from "./fixtures/frames";
import { actView } from "./fixtures/mazhan";

const LANGS: Lang[] = ["zh", "en"];

afterEach(() => {
  setLang("zh");
  clearTable();
});

/** Every string of a block (its text, list items, table cells, labels and notes). */
function texts(b: Block): string[] {
  switch (b.kind) {
    case "p":
    case "note":
      return [b.text];
    case "list":
      return b.items;
    case "table":
      return [b.caption ?? "", ...b.head, ...b.rows.flat().map(String)];
    case "tiles":
      return b.rows.flatMap((r) => [r.label, r.note ?? ""]);
    case "cards":
      return b.rows.flatMap((r) => [r.label, r.note ?? ""]);
  }
}

/** What must be the same in both languages: the kind, the figures, the tiles and cards. */
function shape(b: Block): unknown {
  switch (b.kind) {
    case "p":
    case "note":
      return b.kind;
    case "list":
      return [b.kind, b.ordered ?? false, b.items.length];
    case "table":
      return [
        b.kind,
        b.head.length,
        b.rows.map((r) => r.map((c) => (typeof c === "number" ? c : "text"))),
      ];
    case "tiles":
      return [b.kind, b.rows.map((r) => [r.groups, r.wild ?? null])];
    case "cards":
      return [b.kind, b.rows.map((r) => [r.cards, r.marks ?? null])];
  }
}

describe("the route", () => {
  it("parses #/rules, and #/rules/<game> to open on one game", () => {
    expect(hashToRoute("#/rules")).toEqual({ name: "rules", game: null });
    expect(hashToRoute("#/rules/madiao")).toEqual({ name: "rules", game: "madiao" });
    expect(hashToRoute("#/rules/mazhan")).toEqual({ name: "rules", game: "mazhan" });
    expect(hashToRoute("#/rules/poker")).toBeNull();
  });

  it("writes the same hashes back", () => {
    for (const hash of ["#/rules", "#/rules/mazhan", "#/rules/madiao"]) {
      const r = hashToRoute(hash);
      expect(r && routeToHash(r)).toBe(hash);
    }
  });

  it("brings a seated player back to the table when a hand goes live", () => {
    sitAt("S");
    route.value = { name: "rules", game: "mazhan" };
    handle(viewFrame(actView));
    expect(route.value.name).toBe("table");
  });
});

describe("the guides", () => {
  it.each(RULES_GAMES)(
    "%s: the same sections, in the same order, with text, in both languages",
    (game) => {
      const zh = GUIDES[game].zh;
      const en = GUIDES[game].en;
      expect(en.sections.map((s) => s.id)).toEqual(zh.sections.map((s) => s.id));
      expect(new Set(zh.sections.map((s) => s.id)).size).toBe(zh.sections.length);
      for (const [i, s] of zh.sections.entries()) {
        const other = en.sections[i]!;
        for (const section of [s, other]) {
          expect(section.title.trim(), section.id).not.toBe("");
          expect(section.blocks.length, section.id).toBeGreaterThan(0);
          const words = section.blocks.flatMap(texts).join("");
          expect(words.trim().length, section.id).toBeGreaterThan(20);
        }
        // the same blocks, figures, tiles and cards in both languages
        expect(other.blocks.map(shape), s.id).toEqual(s.blocks.map(shape));
      }
    },
  );

  it("write Chinese in the Chinese guides and English in the English ones", () => {
    const CJK = /[\u3400-\u9fff]/g;
    for (const game of RULES_GAMES) {
      const zh = GUIDES[game].zh.sections.flatMap((s) => s.blocks.flatMap(texts)).join("");
      const en = GUIDES[game].en.sections.flatMap((s) => s.blocks.flatMap(texts)).join("");
      // English names the Chinese terms; it is mostly Latin letters all the same
      expect((en.match(CJK) ?? []).length / en.length).toBeLessThan(0.15);
      expect((zh.match(CJK) ?? []).length / zh.length).toBeGreaterThan(0.4);
    }
  });

  it("the 開沖 examples add up to the totals their labels give", () => {
    for (const lang of LANGS) {
      for (const s of GUIDES.madiao[lang].sections) {
        for (const b of s.blocks) {
          if (b.kind !== "cards") continue;
          for (const row of b.rows) {
            const total = /(?:total|共) (\d+)/.exec(row.label)?.[1];
            if (!row.marks || !total) continue;
            const sum = row.marks.reduce<number>((a, m) => a + Number(m), 0);
            expect(sum, row.label).toBe(Number(total));
          }
        }
      }
    }
  });
});

describe("the worked example (rules §7, example 1)", () => {
  it.each(LANGS)("%s: its items add up to the base, and the base to H = 320", (lang) => {
    const section = GUIDES.mazhan[lang].sections.find((s) => s.id === "example");
    const table = section?.blocks.find((b) => b.kind === "table");
    if (table?.kind !== "table") throw new Error("no table in the example");
    const points = table.rows.map((r) => r[1]).filter((c): c is number => typeof c === "number");
    const [items, rounded, h] = [points.slice(0, 5), points[5], points[6]];
    expect(items.reduce((a, b) => a + b, 0)).toBe(14);
    expect(ROUNDING.find(([b]) => b === 14)?.[1]).toBe(rounded);
    expect(((rounded ?? 0) + HEAD) * 2 ** 3).toBe(h);
    expect(h).toBe(320);
  });
});

describe("the figures, as the rules give them", () => {
  it("Mazhan: base points, rounding, the cap, the wall, the rooms", () => {
    expect(Object.values(BASE_POINTS)).toEqual([
      [2, 4],
      [4, 8],
      [8, 16],
      [16, 32],
    ]);
    expect(ROUNDING).toEqual([
      [0, 0],
      [2, 10],
      [12, 20],
      [14, 20],
      [32, 40],
    ]);
    expect(LIMIT).toBe(400);
    expect(KEPT_BACK).toBe(11);
    expect(ESCAPE_MULTIPLE).toEqual({ mazhan: 400, madiao: 40 });
    expect(ROOM_MINIMUM).toEqual({ mazhan: 800, "mazhan-vip": 1_000_000, madiao: 800 });
  });

  it("the stake table is the lobby's stake", () => {
    for (const [balance, stake] of STAKE_EXAMPLES) expect(stakeFor(balance)).toBe(stake);
  });

  it("Ma Diao: each 吊 of the table follows the rule (under 2 tricks −1, shared by those over 2)", () => {
    const number = (s: string): number =>
      s === "0" ? 0 : Number(s.replace("−", "-").replace("+½", "0.5").replace("+", ""));
    for (const [shapes, values] of DIAO) {
      const want = values.split(" ").map(number);
      for (const shown of shapes.split(" · ")) {
        const tricks = shown.split("-").map(Number);
        expect(tricks.reduce((a, b) => a + b, 0)).toBe(8);
        const losers = tricks.filter((t) => t < 2).length;
        const winners = tricks.filter((t) => t > 2).length;
        const got = tricks.map((t) => (t < 2 ? -1 : t > 2 ? losers / winners : 0));
        expect(got, shown).toEqual(want);
      }
    }
  });
});

describe("the page", () => {
  it.each(LANGS.flatMap((lang) => RULES_GAMES.map((game) => [lang, game] as const)))(
    "renders in %s: %s, every section with its heading and the contents",
    (lang, game) => {
      setLang(lang);
      const { container } = render(<HowTo game={game} />);
      const guide = GUIDES[game][lang];
      const sections = container.querySelectorAll(".howto-section");
      expect(sections).toHaveLength(guide.sections.length);
      for (const [i, s] of guide.sections.entries()) {
        expect(sections[i]?.querySelector("h3")?.textContent).toBe(s.title);
        expect(sections[i]?.textContent?.length).toBeGreaterThan(s.title.length + 20);
      }
      expect(container.querySelectorAll(".howto-toc a")).toHaveLength(guide.sections.length);
      const current = container.querySelector(".howto-tab[aria-current=page]");
      expect(current?.getAttribute("data-game")).toBe(game);
      expect(current?.textContent).toBe(guide.name);
      // tiles and cards drawn with the table's own components
      expect(
        container.querySelectorAll(game === "mazhan" ? "[data-tile]" : "[data-card]").length,
      ).toBeGreaterThan(20);
    },
  );

  it("opens on Mazhan when no game is named", () => {
    const { container } = render(<HowTo game={null} />);
    expect(container.querySelector("#rules")?.getAttribute("data-game")).toBe("mazhan");
  });

  it("shows the base points, the 400 cap and the example's payments as the rules give them", () => {
    for (const lang of LANGS) {
      setLang(lang);
      const { container, unmount } = render(<HowTo game="mazhan" />);
      const base = container.querySelector("section[data-section=base] table");
      const cells = [...(base?.querySelectorAll("tbody tr") ?? [])].map((tr) =>
        [...tr.querySelectorAll("td.num")].map((td) => td.textContent),
      );
      expect(cells).toEqual([
        ["2", "4"],
        ["4", "8"],
        ["8", "16"],
        ["16", "32"],
      ]);
      const value = container.querySelector("section[data-section=value]")?.textContent ?? "";
      expect(value).toContain("400");
      expect(value).toContain("+ 20");
      const example = container.querySelector("section[data-section=example]")?.textContent ?? "";
      for (const net of ["−640", "+1280", "−320", "320"]) expect(example).toContain(net);
      const table = container.querySelector("section[data-section=table]")?.textContent ?? "";
      expect(table).toContain("1,000,000");
      expect(table).toContain("400 × ");
      expect(table).toContain("15");
      expect(table).toContain("180");
      unmount();
    }
  });

  it("Ma Diao's room: the escape costs 40 × the stake", () => {
    for (const lang of LANGS) {
      setLang(lang);
      const { container, unmount } = render(<HowTo game="madiao" />);
      expect(container.querySelector("section[data-section=table]")?.textContent).toContain(
        "40 × ",
      );
      expect(container.querySelectorAll("section[data-section=cards] [data-card]")).toHaveLength(
        40,
      );
      unmount();
    }
  });
});

/** The rows of the tables of a section, as text. */
function tableRows(game: "mazhan" | "madiao", lang: Lang, id: string): string[][][] {
  const section = GUIDES[game][lang].sections.find((s) => s.id === id);
  return (section?.blocks ?? []).flatMap((b) =>
    b.kind === "table" ? [b.rows.map((r) => r.map(String))] : [],
  );
}

const signed = (s: string): number => Number(s.replace("−", "-").replace("+", ""));

describe("who pays whom (rules §7: H from each, U differences, ×2 with the dealer)", () => {
  /** Nets of E S W N: each non-winner pays H, the lower U pays the difference, m = 2 with East. */
  function nets(winner: number, h: number, u: number[]): number[] {
    const net = [0, 0, 0, 0];
    const m = (a: number, b: number): number => (a === 0 || b === 0 ? 2 : 1);
    for (let i = 0; i < 4; i++) {
      if (i === winner) continue;
      net[i]! -= h * m(i, winner);
      net[winner]! += h * m(i, winner);
      for (let j = i + 1; j < 4; j++) {
        if (j === winner) continue;
        const d = (u[i]! - u[j]!) * m(i, j);
        net[i]! += d;
        net[j]! -= d;
      }
    }
    return net;
  }

  it.each(LANGS)("%s: the two worked examples' nets", (lang) => {
    const [, example1, example3] = tableRows("mazhan", lang, "example");
    // example 1: South wins H = 320, the others U 0; example 3: East wins H = 100, U 10 10 0
    expect(example1?.[0]?.map(signed)).toEqual(nets(1, 320, [0, 0, 0, 0]));
    expect(example3?.[0]?.map(signed)).toEqual(nets(0, 100, [0, 10, 10, 0]));
  });

  it.each(LANGS)("%s: every non-winner pays, not only the discarder", (lang) => {
    const section = GUIDES.mazhan[lang].sections.find((s) => s.id === "payments");
    const text = section?.blocks.flatMap(texts).join(" ") ?? "";
    expect(text).toMatch(lang === "en" ? /discarder pays no more/ : /放胡的人不多付/);
  });
});

describe("Ma Diao's examples follow its rules", () => {
  it.each(LANGS)("%s: the settlement example: 散家 net = 吊 + bonuses − the banker's", (lang) => {
    const [rows] = tableRows("madiao", lang, "settle");
    if (!rows) throw new Error("no settlement example");
    // the banker's bonuses 4 + 5 = 9 (九萬, 一萬, 八索, 二十萬 on the table; 開沖 5)
    const banker = 9;
    const others = [
      [0, 2],
      [-1, 0],
      [-1, 0],
    ].map(([diao, bonus]) => diao! + bonus! - banker);
    const shown = rows.map((r) => signed(r[3]!.split("=").pop()!.trim()));
    expect(shown).toEqual([-others.reduce((a, b) => a + b, 0), ...others]);
    expect(rows.map((r) => signed(r[1]!))).toEqual([2, 0, -1, -1]);
  });

  it.each(LANGS)("%s: the first banker is (rank of the 面張 − 1) mod 4 seats from East", (lang) => {
    const deal = GUIDES.madiao[lang].sections.find((s) => s.id === "deal");
    const text = deal?.blocks.flatMap(texts).join(" ") ?? "";
    const seats = lang === "en" ? ["East", "South", "West", "North"] : ["東", "南", "西", "北"];
    // 九萬 is rank 9 of 萬, 萬萬 rank 11 of 十字 (ranks count from the bottom card, 1)
    for (const [card, rank] of [
      ["九萬", 9],
      ["萬萬", 11],
    ] as const) {
      const seat = seats[(rank - 1) % 4]!;
      const said =
        lang === "en"
          ? new RegExp(`${card} \\(${rank}\\)[^,.]*?${seat}`)
          : new RegExp(`${card}（${rank}）就${seat}家做樁`);
      expect(text, card).toMatch(said);
    }
  });

  it.each(LANGS)("%s: a 肩 beside its 賞 scores as a 肩 (一萬: 3 + 2, not 3 + 3)", (lang) => {
    const leaders = GUIDES.madiao[lang].sections.find((s) => s.id === "leaders");
    const twins = leaders?.blocks
      .flatMap((b) => (b.kind === "cards" ? b.rows : []))
      .find((r) => r.cards === "1257m");
    expect(twins?.marks?.[0]).toBe(3 + 2);
    const text = leaders?.blocks.flatMap(texts).join(" ") ?? "";
    expect(text).toMatch(
      lang === "en" ? /already on your table leads at once, as a 肩/ : /仍按肩計分/,
    );
  });
});

describe("wording", () => {
  it("the Chinese Mazhan guide says 基礎分, never 底分 (read as 底注 by a player)", () => {
    const zh = GUIDES.mazhan.zh;
    const all = [zh.intro, ...zh.sections.flatMap((s) => [s.title, ...s.blocks.flatMap(texts)])];
    expect(all.join(" ")).not.toContain("底分");
    expect(all.join(" ")).toContain("基礎分");
  });

  it.each(LANGS)(
    "%s: Mazhan counts 12 bonus tiles, not 8 (the white dragons are bonus tiles)",
    (lang) => {
      const tiles = GUIDES.mazhan[lang].sections.find((s) => s.id === "tiles");
      const first = tiles?.blocks[0];
      expect(first?.kind).toBe("p");
      const text = first?.kind === "p" ? first.text : "";
      expect(text).not.toMatch(lang === "en" ? /eight bonus tiles/ : /八張花。/);
    },
  );
});
