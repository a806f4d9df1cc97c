// The scorer page (`#/score`, `#/score/<game>`; no account): a tab per game that has a scorer
// (Mazhan: a finished hand; Ma Diao: one player's 開沖 draws), each tab's form in its game's
// folder. The page keeps each tab's state while another is shown.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { GAMES, gameUi } from "../games";
import type { GameUi, ScorerTab, Update } from "../games/types";
import { t } from "../i18n";
import type { Game } from "../protocol";
import { routeToHash } from "../routes";
import { go } from "../session";
import { me } from "../state/connection";
import { GameTabs } from "../widgets/GameTabs";

/** The games with a scorer tab, in the registry's order. */
const SCORED = GAMES.filter((g): g is GameUi & { scorer: ScorerTab } => !!g.scorer);

/** The scorer page: its tabs, each form's state kept while the other is shown. */
export function Scorer({ game = null }: { game?: Game | null }): JSX.Element {
  const ui = SCORED.find((g) => g.id === gameUi(game)?.id) ?? SCORED[0];
  const [states, setStates] = useState<Partial<Record<string, unknown>>>({});
  if (!ui) return <main class="scorer" id="scorer" />;
  const { id, scorer } = ui;
  const state = id in states ? states[id] : scorer.blank;
  const onState = (next: Update<unknown>) =>
    setStates((all) => {
      const before = id in all ? all[id] : scorer.blank;
      return {
        ...all,
        [id]: typeof next === "function" ? (next as (s: unknown) => unknown)(before) : next,
      };
    });
  return (
    <main class="scorer" id="scorer" data-game={id}>
      <div class="row scorer-head">
        <h2>{t("scorer")}</h2>
        <span class="grow" />
        <button type="button" data-action="example" onClick={() => onState(scorer.example)}>
          {t("scorerExample")}
        </button>
        <button
          type="button"
          class="ghost"
          data-action="clear"
          onClick={() => onState(scorer.blank)}
        >
          {t("scorerClear")}
        </button>
        <button
          type="button"
          class="ghost"
          data-action="back"
          onClick={() => go(me.value ? { name: "lobby" } : { name: "login" })}
        >
          {me.value ? t("back") : t("toLogin")}
        </button>
      </div>
      <GameTabs
        class="howto-tabs scorer-tabs"
        label={t("scorerTabs")}
        tabs={SCORED.map((g) => ({
          id: g.id,
          href: routeToHash({ name: "score", game: g.id }),
          name: t(g.scorer.tab),
        }))}
        shown={id}
      />
      <scorer.Form
        key={id}
        state={state}
        onState={onState}
        rulesHref={routeToHash({ name: "rules", game: id })}
      />
    </main>
  );
}
