// A page's tabs, one per game (How to play, the scorer): links to each game's route, the one
// shown marked; over the table the tabs switch in place instead (`onPick`).
import type { JSX } from "preact";

export interface GameTab {
  id: string;
  href: string;
  name: string;
}

export function GameTabs(p: {
  class: string;
  label: string;
  tabs: GameTab[];
  shown: string;
  onPick?: (id: string) => void;
}): JSX.Element {
  const pick = p.onPick;
  return (
    <nav class={p.class} aria-label={p.label}>
      {p.tabs.map((g) => (
        <a
          key={g.id}
          href={g.href}
          class="howto-tab"
          data-game={g.id}
          aria-current={g.id === p.shown ? "page" : undefined}
          onClick={
            pick
              ? (ev) => {
                  ev.preventDefault();
                  pick(g.id);
                }
              : undefined
          }
        >
          {g.name}
        </a>
      ))}
    </nav>
  );
}
