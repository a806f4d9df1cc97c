// How to play (玩法): each game's rules as a player's guide, the games as tabs
// (`#/rules/<game>`), a table of contents, tiles and cards drawn by the table's own
// components. No account needed. The text lives in each game's folder (games/<game>/guide.*.ts,
// one module per language); this file only lays it out.
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { GAMES, gameOrFirst } from "../games";
import type { GameUi } from "../games/types";
import type { Block, Guide, Table } from "../guide/types";
import { lang, t } from "../i18n";
import type { Game } from "../protocol";
import { routeToHash } from "../routes";
import { go } from "../session";
import { me } from "../state/connection";
import { seated } from "../state/table";
import { GameTabs } from "../widgets/GameTabs";

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

function GuideBlock({ block, game }: { block: Block; game: GameUi }): JSX.Element {
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
    case "cards":
      // the pieces are the game's own (its tiles, its cards)
      return <game.GuidePieces block={block} />;
  }
}

const sectionId = (game: Game, id: string): string => `rules-${game}-${id}`;

/** The sections' titles; a click scrolls to the section (the hash stays the route's). */
function Contents({ guide, game }: { guide: Guide; game: Game }): JSX.Element {
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
            <a
              href={routeToHash({ name: "rules", game })}
              data-section={s.id}
              onClick={(ev) => jump(ev, s.id)}
            >
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
  game: Game | null;
  onClose?: () => void;
  /** Over the table: what the table waits for meanwhile (the time left to confirm). */
  note?: ComponentChildren;
}): JSX.Element {
  const [picked, pick] = useState<Game | null>(null);
  // a game this page does not know: the first game's guide
  const ui = gameOrFirst(picked ?? game);
  const shown = ui.id;
  const guide = ui.guide[lang.value];
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
      <GameTabs
        class="howto-tabs"
        label={t("howToGames")}
        tabs={GAMES.map((g) => ({
          id: g.id,
          href: routeToHash({ name: "rules", game: g.id }),
          name: g.guide[lang.value].name,
        }))}
        shown={shown}
        onPick={onClose ? (id) => pick(gameOrFirst(id).id) : undefined}
      />
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
                <GuideBlock key={i} block={b} game={ui} />
              ))}
            </section>
          ))}
        </div>
      </div>
    </Box>
  );
}
