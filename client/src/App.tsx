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

/** The screens one may open without an account. */
const NO_ACCOUNT = new Set(["score", "rules"]);

export function App(): JSX.Element {
  const r = route.value;
  // the hash mirrors the route (a reload comes back to the same screen)
  useEffect(() => {
    const hash = routeToHash(r);
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }, [r]);
  useEffect(() => {
    const onHash = () => {
      const next = hashToRoute(location.hash);
      if (next && (me.value || NO_ACCOUNT.has(next.name))) route.value = next;
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  let screen: JSX.Element;
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
