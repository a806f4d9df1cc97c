// The routes and the URL's hash: the hash mirrors the screen shown, so a reload comes back to
// it; a game's guide and scorer tab are routes only for the games this client knows.
import { gameUi } from "./games";
import { type Route, toast } from "./state/connection";
import { inviteCode } from "./state/lobby";

export function routeToHash(r: Route): string {
  switch (r.name) {
    case "replay":
      return `#/replay/${r.hand}/${r.step}`;
    case "rules":
      return r.game ? `#/rules/${r.game}` : "#/rules";
    case "score":
      return r.game ? `#/score/${r.game}` : "#/score";
    default:
      return `#/${r.name}`;
  }
}

export function hashToRoute(hash: string): Route | null {
  const m = /^#\/replay\/(\d+)(?:\/(\d+))?$/.exec(hash);
  if (m) return { name: "replay", hand: Number(m[1]), step: Number(m[2] ?? 0) };
  const invite = /^#\/join\/([A-Za-z0-9]{8})$/.exec(hash);
  if (invite?.[1]) {
    // an invite link: the lobby offers the friend's table (the code waits there)
    inviteCode.value = invite[1].toUpperCase();
    return { name: "lobby" };
  }
  if (hash.startsWith("#/join/")) {
    // an invite link cut short or mistyped: no table is offered (not an older invitation)
    inviteCode.value = null;
    toast({ error: "bad_invite" }, undefined, "error");
    return { name: "lobby" };
  }
  if (hash === "#/lobby") return { name: "lobby" };
  if (hash === "#/table") return { name: "table" };
  if (hash === "#/watch") return { name: "watch" };
  if (hash === "#/login") return { name: "login" };
  // a game's page: the scorer's tab of a game that has one, a known game's guide
  const page = /^#\/(score|rules)(?:\/([a-z][a-z0-9_-]*))?$/.exec(hash);
  if (page) {
    const name = page[1] === "score" ? "score" : "rules";
    if (!page[2]) return { name, game: null };
    const ui = gameUi(page[2]);
    if (!ui || (name === "score" && !ui.scorer)) return null;
    return { name, game: ui.id };
  }
  return null;
}
