// How to play (玩法): both games' rules as a player's guide, the two games as tabs
// (`#/rules/mazhan`, `#/rules/madiao`), a table of contents, tiles and cards drawn by the
// table's own components. No account needed. The text lives in src/rules/ (one module per
// game and language); this file only lays it out.
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Card } from "../games/madiao/Card";
import { Tile } from "../games/mazhan/Tile";
import { type Block, GUIDES, type Guide, RULES_GAMES, type RulesGame } from "../guide";
import type { Cards, Table, Tiles } from "../guide/types";
import { lang, t } from "../i18n";
import { splitCodes } from "../model/notation";
import { go } from "../session";
import { me } from "../state/connection";
import { seated } from "../state/table";

/** Text with **bold** words. */
export function Rich({ text }: { text: string }): JSX.Element {
  const parts = text.split("**");
  return <>{parts.map((part, i) => (i % 2 === 1 ? <strong key={i}>{part}</strong> : part))}</>;
}

/** Figures as the guide prints them: thousands separated. */
const figure = (n: number): string => n.toLocaleString("en-US");

/** A column of figures (numbers, or short texts of figures as "2 / 1", "−640") is aligned
 *  right and never wrapped. */
function figureColumns(block: Table): boolean[] {
  return block.head.map((_, i) =>
    block.rows.every((row) => {
      const c = row[i] ?? "";
      return typeof c === "number" || c === "" || (c.length <= 8 && /\d/.test(c));
    }),
  );
}

/** A figure is aligned right; a short text is never broken (a sum, a name, a seat). */
function cellClass(cell: string | number, isFigure: boolean | undefined): string | undefined {
  if (isFigure) return "num";
  return typeof cell === "string" && cell.length <= 14 ? "short" : undefined;
}

function GuideTable({ block }: { block: Table }): JSX.Element {
  const figures = figureColumns(block);
  // the caption stays above the box a wide table scrolls in (read whole on a phone)
  return (
    <>
      {block.caption ? (
        <p class="howto-caption">
          <Rich text={block.caption} />
        </p>
      ) : null}
      <div class="howto-table">
        <table>
          <thead>
            <tr>
              {block.head.map((h, i) => (
                <th key={i} scope="col" class={figures[i] ? "num" : undefined}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <td key={i} class={cellClass(cell, figures[i])}>
                    {typeof cell === "number" ? figure(cell) : <Rich text={cell} />}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function GuideTiles({ block }: { block: Tiles }): JSX.Element {
  return (
    <div class="howto-pieces">
      {block.rows.map((row, r) => (
        <div class="howto-piece-row" key={r}>
          <span class="howto-label">{row.label}</span>
          <span class="howto-groups">
            {row.groups.map((g, i) => (
              <span class="tile-group" key={i}>
                {splitCodes(g.codes).map((code, k) => (
                  <Tile
                    key={k}
                    code={code}
                    size="md"
                    wild={code === row.wild}
                    class={g.win ? "win-tile" : undefined}
                  />
                ))}
              </span>
            ))}
          </span>
          {row.note ? <span class="howto-piece-note muted small">{row.note}</span> : null}
        </div>
      ))}
    </div>
  );
}

function GuideCards({ block }: { block: Cards }): JSX.Element {
  return (
    <div class="howto-pieces">
      {block.rows.map((row, r) => (
        <div class="howto-piece-row" key={r}>
          <span class="howto-label">{row.label}</span>
          <span class="howto-groups howto-cards">
            {splitCodes(row.cards, "madiao").map((code, k) => (
              <span class="howto-card" key={k}>
                <Card code={code} size="md" />
                {row.marks ? <span class="howto-mark">{row.marks[k]}</span> : null}
              </span>
            ))}
          </span>
          {row.note ? <span class="howto-piece-note muted small">{row.note}</span> : null}
        </div>
      ))}
    </div>
  );
}

function GuideBlock({ block }: { block: Block }): JSX.Element {
  switch (block.kind) {
    case "p":
      return (
        <p>
          <Rich text={block.text} />
        </p>
      );
    case "note":
      return (
        <p class="howto-note">
          <Rich text={block.text} />
        </p>
      );
    case "list": {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <Rich text={item} />
        </li>
      ));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case "table":
      return <GuideTable block={block} />;
    case "tiles":
      return <GuideTiles block={block} />;
    case "cards":
      return <GuideCards block={block} />;
  }
}

const sectionId = (game: RulesGame, id: string): string => `rules-${game}-${id}`;

/** The sections' titles; a click scrolls to the section (the hash stays the route's). */
function Contents({ guide, game }: { guide: Guide; game: RulesGame }): JSX.Element {
  const jump = (ev: MouseEvent, id: string) => {
    ev.preventDefault();
    const heading = document.getElementById(`${sectionId(game, id)}-title`);
    heading?.scrollIntoView?.({ block: "start" });
    heading?.focus({ preventScroll: true });
  };
  return (
    <nav class="howto-toc" aria-labelledby="rules-toc-title">
      <h3 id="rules-toc-title">{t("howToContents")}</h3>
      <ol>
        {guide.sections.map((s) => (
          <li key={s.id}>
            <a href={`#/rules/${game}`} data-section={s.id} onClick={(ev) => jump(ev, s.id)}>
              {s.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Back where the player came from: the table they sit at, the lobby, or the login page. */
function BackButton(): JSX.Element {
  const [label, to] = seated.value
    ? ([t("backToTable"), { name: "table" }] as const)
    : me.value
      ? ([t("back"), { name: "lobby" }] as const)
      : ([t("toLogin"), { name: "login" }] as const);
  return (
    <button type="button" class="ghost" data-action="back" onClick={() => go(to)}>
      {label}
    </button>
  );
}

/** The guide. On its own page (`#/rules/…`) its tabs are links and "Back" leaves it; over
 *  the table (``onClose``) the tabs switch in place and "Back to the table" closes it, so the
 *  table (its clocks, a hand going live) stays where it is underneath. */
export function HowTo({
  game,
  onClose,
  note,
}: {
  game: RulesGame | null;
  onClose?: () => void;
  /** Over the table: what the table waits for meanwhile (the time left to confirm). */
  note?: ComponentChildren;
}): JSX.Element {
  const [picked, pick] = useState<RulesGame | null>(null);
  const shown = picked ?? game ?? "mazhan";
  const guide = GUIDES[shown][lang.value];
  const Box = onClose ? "div" : "main";
  // over the table, Escape closes the guide as its button does
  useEffect(() => {
    if (!onClose) return;
    const onKey = (ev: KeyboardEvent) => {
      if (ev.key === "Escape" && !ev.defaultPrevented) {
        ev.preventDefault();
        onClose();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <Box
      class={`howto${onClose ? " howto-over" : ""}`}
      id="rules"
      data-game={shown}
      role={onClose ? "dialog" : undefined}
      aria-labelledby={onClose ? "rules-title" : undefined}
    >
      <div class="row howto-head">
        <h2 id="rules-title">{t("howTo")}</h2>
        <span class="grow" />
        {onClose ? (
          <button type="button" class="primary" data-action="close-rules" onClick={onClose}>
            {t("backToTable")}
          </button>
        ) : (
          <BackButton />
        )}
      </div>
      {note}
      <nav class="howto-tabs" aria-label={t("howToGames")}>
        {RULES_GAMES.map((g) => (
          <a
            key={g}
            href={`#/rules/${g}`}
            class="howto-tab"
            data-game={g}
            aria-current={g === shown ? "page" : undefined}
            onClick={
              onClose
                ? (ev) => {
                    ev.preventDefault();
                    pick(g);
                  }
                : undefined
            }
          >
            {GUIDES[g][lang.value].name}
          </a>
        ))}
      </nav>
      <p class="howto-intro">{guide.intro}</p>
      <div class="howto-body">
        <Contents guide={guide} game={shown} />
        <div class="howto-sections">
          {guide.sections.map((s) => (
            <section
              key={s.id}
              class="howto-section"
              id={sectionId(shown, s.id)}
              data-section={s.id}
              aria-labelledby={`${sectionId(shown, s.id)}-title`}
            >
              <h3 id={`${sectionId(shown, s.id)}-title`} tabIndex={-1}>
                {s.title}
              </h3>
              {s.blocks.map((b, i) => (
                <GuideBlock key={i} block={b} />
              ))}
            </section>
          ))}
        </div>
      </div>
    </Box>
  );
}
