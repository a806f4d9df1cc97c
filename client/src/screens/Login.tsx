import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { errorText, t } from "../i18n";
import { ApiError } from "../net/api";
import { login } from "../session";
import { inviteCode } from "../state/lobby";
import { GuideLinks } from "../widgets/Chrome";
import { Invitation } from "../widgets/Invitation";

export function Login(): JSX.Element {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (register: boolean) => {
    setError(null);
    setBusy(true);
    try {
      await login(name.trim(), password, register);
    } catch (err) {
      setError(err instanceof ApiError ? err.code : "network");
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login" id="login">
      <h2>{t("welcome")}</h2>
      <p class="muted">{t("intro")}</p>
      {inviteCode.value ? (
        <>
          <p class="invited" id="login-invited">
            {t("loginInvited", { code: inviteCode.value })}
          </p>
          <Invitation code={inviteCode.value} />
        </>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false);
        }}
      >
        <label>
          <span>{t("name")}</span>
          <input
            id="name"
            autocomplete="username"
            required
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <label>
          <span>{t("password")}</span>
          <input
            id="password"
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <div class="row">
          <button type="submit" class="primary" id="do-login" disabled={busy}>
            {t("login")}
          </button>
          <button type="button" id="do-register" disabled={busy} onClick={() => void submit(true)}>
            {t("register")}
          </button>
        </div>
      </form>
      {error ? (
        <p class="error" id="auth-error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
      <GuideLinks />
    </main>
  );
}
