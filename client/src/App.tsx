import { signal } from "@preact/signals";
import type { JSX } from "preact";
import { useEffect } from "preact/hooks";
import { t } from "./i18n";
import { hashToRoute, routeToHash } from "./routes";
import { HowTo } from "./screens/HowTo";
import { Lobby } from "./screens/Lobby";
import { Login } from "./screens/Login";
import { Replay } from "./screens/Replay";
import { Scorer } from "./screens/Scorer";
import { TableScreen } from "./screens/TableScreen";
import { WatchScreen } from "./screens/WatchScreen";
import { refreshMe } from "./session";
import { me, route, toast } from "./state/connection";
import { inviteCode } from "./state/lobby";
import { ConnectionBanner, Header, Toasts } from "./widgets/Chrome";

/** True until `boot` knows who is logged in and which screen to show. */
const booting = signal(true);

/** The screens one may open without an account. */
const NO_ACCOUNT = new Set(["score", "rules"]);

export function App(): JSX.Element {
  const r = route.value;
  // the hash mirrors the route (a reload comes back to the same screen)
  useEffect(() => {
    const hash = routeToHash(r);
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }, [r]);
  // the screen shown, for the page's frame (the table fills the screen: no page scroll)
  useEffect(() => {
    document.documentElement.dataset.screen = me.value ? r.name : "login";
  }, [r, me.value]);
  useEffect(() => {
    // Back and Forward: to the screen the address names; logged out, the pages without an
    // account, else the login page (Back from the guide or the scorer to where one was)
    const onHash = () => {
      const next = hashToRoute(location.hash);
      if (next && (me.value || NO_ACCOUNT.has(next.name))) route.value = next;
      else if (!me.value && route.value.name !== "login") route.value = { name: "login" };
      else if (me.value && !next && (location.hash === "" || location.hash === "#"))
        route.value = { name: "lobby" };
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  let screen: JSX.Element;
  // until the session is known, nothing: the login page shown and then replaced by the
  // lobby, or the header growing a line, moved the whole page (a layout shift)
  if (booting.value) return <div id="main" aria-busy="true" />;
  if (r.name === "score") screen = <Scorer game={r.game} />;
  else if (r.name === "rules") screen = <HowTo game={r.game} />;
  else if (!me.value || r.name === "login") screen = <Login />;
  else if (r.name === "table") screen = <TableScreen />;
  else if (r.name === "watch") screen = <WatchScreen />;
  else if (r.name === "replay") screen = <Replay key={r.hand} hand={r.hand} step={r.step} />;
  else screen = <Lobby />;
  return (
    <>
      <a class="skip" href="#main">
        {t("menu")}
      </a>
      <Header />
      <ConnectionBanner />
      <div id="main">{screen}</div>
      <Toasts />
    </>
  );
}

/** On load: who is logged in (cookie), where they sit, which screen the hash names. */
export async function boot(): Promise<void> {
  try {
    await route_();
  } finally {
    booting.value = false;
  }
}

async function route_(): Promise<void> {
  const wanted = hashToRoute(location.hash);
  try {
    const found = await refreshMe();
    if (wanted && NO_ACCOUNT.has(wanted.name)) {
      route.value = wanted; // the scorer and the rules need no account
      return;
    }
    if (!found) {
      route.value = { name: "login" };
      return;
    }
    if (found.seated) {
      route.value = { name: "table" };
      const code = inviteCode.value;
      if (code) toast({ ui: "invitedSeated" }, { code }, "warn");
    } else if (wanted && wanted.name !== "login" && wanted.name !== "table") route.value = wanted;
    else route.value = { name: "lobby" };
  } catch {
    route.value = { name: "login" };
  }
}
