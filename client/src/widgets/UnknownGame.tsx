// What the page shows for a game the server names and this client does not know (a newer
// server's game): a clear sentence where the board or the settlement would be.
import type { JSX } from "preact";
import { t } from "../i18n";

export function UnknownGame({ game }: { game: string | null }): JSX.Element {
  return (
    <p class="notice unknown-game" role="alert" data-unknown-game={game ?? ""}>
      {t("unknownGame", { game: game ?? "?" })}
    </p>
  );
}
