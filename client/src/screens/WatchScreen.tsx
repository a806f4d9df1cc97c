// Watching a friend's table (issue 36): a form naming the friend (or the table's code), then
// the table read-only as every seat sees the others, one move behind. The game's own board
// draws it: the view a spectator gets is a seat's without its own parts (no hand, no moves).
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { gameUi } from "../games";
import { t } from "../i18n";
import type { Seat, SeatInfo, View } from "../protocol";
import { go, unwatch, watch } from "../session";
import { watching, watchView } from "../state/spectate";

const NOBODY: Record<Seat, SeatInfo | null> = { E: null, S: null, W: null, N: null };

/** A public view as a seat's view with nothing of its own: South's place at the bottom, an
 *  empty hand, no moves (the board is read-only). */
export function asBoardView(view: NonNullable<typeof watchView.value>["view"]): View {
  // every game's own fields, empty (a field a game's view lacks is never read by its board)
  const own = {
    seat: "S",
    version: 0,
    my_turn: false,
    hand: [],
    legal: [],
    drawn: null,
    waits: [],
  };
  return { ...view, ...own } as unknown as View;
}

export function WatchScreen(): JSX.Element {
  const [who, setWho] = useState("");
  const table = watching.value;
  const shown = watchView.value;
  const ui = gameUi(shown?.view.game ?? table?.game);
  const submit = (e: Event) => {
    e.preventDefault();
    if (who.trim()) watch(who);
  };
  return (
    <main class="watch">
      <h2>{t("watch")}</h2>
      {table ? (
        <p class="muted small" data-watchers={table.watchers}>
          {t("watchDelay")} · {t("watchers", { n: table.watchers })}
        </p>
      ) : (
        <form class="friend-code" onSubmit={submit}>
          <p class="muted small" id="watch-hint">
            {t("watchHint")}
          </p>
          <div class="row">
            <input
              id="watch-who"
              aria-label={t("watchWho")}
              aria-describedby="watch-hint"
              autocomplete="off"
              maxLength={40}
              placeholder={t("watchWho")}
              value={who}
              onInput={(e) => setWho((e.currentTarget as HTMLInputElement).value)}
            />
            <button type="submit" data-action="watch-go">
              {t("watchGo")}
            </button>
          </div>
        </form>
      )}
      {table && shown && ui ? (
        <ui.Board
          view={asBoardView(shown.view)}
          names={{ ...NOBODY, ...table.seats }}
          clock={null}
          pending={null}
          version={shown.hand}
          onAction={() => {}}
          readOnly
        />
      ) : table ? (
        <p class="muted">{t("watchWaiting")}</p>
      ) : null}
      <p>
        {table ? (
          <button type="button" data-action="watch-stop" onClick={() => unwatch()}>
            {t("watchStop")}
          </button>
        ) : null}{" "}
        <button type="button" onClick={() => go({ name: "lobby" })}>
          {t("back")}
        </button>
      </p>
    </main>
  );
}
