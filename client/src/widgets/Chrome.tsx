// The page's frame: header (balance, connection, language), toasts, the confirm dialog.
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { actionName, errorText, fill, lang, setLang, TABLES, t, windName } from "../i18n";
import { TAKEN_OVER } from "../net/socket";
import { logout, socket } from "../session";
import { dismissToast, me, type Toast, toasts } from "../state/connection";
import { chongUnshown, settlement } from "../state/settlement";
import { secondsLeft, useNow } from "./hooks";

/** The pages anyone may open, without an account: the scorer and the guide (the login page
 *  and the lobby show them). */
export function GuideLinks(): JSX.Element {
  return (
    <p class="scorer-link">
      <a href="#/score" id="to-scorer">
        {t("scorerLink")}
      </a>
      <span class="muted" aria-hidden="true">
        {" · "}
      </span>
      <a href="#/rules" id="to-rules">
        {t("howToLink")}
      </a>
    </p>
  );
}

export function ConnectionBanner(): JSX.Element | null {
  const status = socket.status.value;
  const now = useNow(status.state === "retrying", 500);
  // a hand-over the server announced: nothing to say while it goes as it should
  if ((status.state === "retrying" || status.state === "connecting") && status.quiet) return null;
  if (status.state === "retrying") {
    return (
      <div class="banner warn" role="status" data-connection="retrying">
        {t("reconnecting", { n: secondsLeft(status.at, now) ?? 0, k: status.attempt })}
      </div>
    );
  }
  if (status.state === "closed" && status.code === TAKEN_OVER) {
    return (
      <div class="banner warn" role="status" data-connection="taken-over">
        <span>{t("takenOver")}</span>{" "}
        <button type="button" class="small" data-action="reconnect" onClick={() => socket.open()}>
          {t("useHere")}
        </button>
      </div>
    );
  }
  if (status.state === "connecting" && status.attempt > 1) {
    return (
      <div class="banner warn" role="status" data-connection="connecting">
        {t("connecting")}
      </div>
    );
  }
  return null;
}

/** The balance as the header shows it: while a Ma Diao settlement is still turning the 開沖
 *  up, as it stood before the hand was settled (the new one would tell the draws). */
export function shownBalance(balance: number): number {
  const s = settlement.value;
  if (chongUnshown.value <= 0 || !s || s.balanceChange === null) return balance;
  return balance - (s.balanceChange + s.fee); // the fee was taken when the hand began
}

export function Header(): JSX.Element {
  const who = me.value;
  const balance = who ? shownBalance(who.balance) : 0;
  return (
    <header class="top-bar">
      <h1>
        <span lang="zh-Hant">牌局</span> <small lang="en">paiju</small>
      </h1>
      <div class="who" id="who">
        {who ? (
          <>
            {/* never cut on a phone (a line of its own there); the title has it in full */}
            <span class="who-name" title={who.name}>
              {who.name}
            </span>
            <span class="who-balance" data-balance={balance}>
              {t("balance")} <b>{balance}</b>
            </span>
          </>
        ) : null}
      </div>
      <div class="header-buttons">
        <button
          type="button"
          id="lang"
          class="ghost"
          data-action="lang"
          lang={lang.value === "zh" ? "en" : "zh-Hant"}
          onClick={() => setLang(lang.value === "zh" ? "en" : "zh")}
        >
          {t("switchLang")}
        </button>
        {who ? (
          <button type="button" class="ghost" data-action="logout" onClick={() => void logout()}>
            {t("logout")}
          </button>
        ) : null}
      </div>
    </header>
  );
}

/** A toast's text in the current language (seat and action codes named at render time). */
export function toastText(x: Toast): string {
  if ("ui" in x.key) {
    const p = x.params;
    if (p && (x.key.ui === "claimLost" || x.key.ui === "claimLostPlain")) {
      const seat = String(p.seat ?? "");
      return t(x.key.ui, {
        ...p,
        seat: seat ? windName(seat) : "",
        winner: actionName(String(p.winner ?? "")),
      });
    }
    return t(x.key.ui, p);
  }
  return errorText(x.key.error);
}

export function Toasts(): JSX.Element {
  const items = toasts.value;
  useEffect(() => {
    if (!items.length) return;
    const oldest = items[0] as Toast;
    const id = setTimeout(
      () => dismissToast(oldest.id),
      Math.max(500, 5000 - (Date.now() - oldest.at)),
    );
    return () => clearTimeout(id);
  }, [items]);
  return (
    <div class="toasts" aria-live="polite">
      {items.map((x) => (
        <div
          key={x.id}
          class={`toast ${x.kind}`}
          role={x.kind === "error" ? "alert" : "status"}
          data-toast={"ui" in x.key ? x.key.ui : x.key.error}
        >
          <span>{toastText(x)}</span>
          <button
            type="button"
            class="ghost small"
            aria-label={t("close")}
            onClick={() => dismissToast(x.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

export interface DialogProps {
  title: string;
  body: string;
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
}

/** A modal confirmation (a real <dialog>: focus stays inside, Escape cancels). */
export function Confirm(p: DialogProps): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open && typeof d.showModal === "function") d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      class="confirm"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        p.onCancel();
      }}
    >
      <h2 id="confirm-title">{p.title}</h2>
      <p>{p.body}</p>
      <div class="row end">
        <button type="button" class="ghost" data-action="cancel" onClick={p.onCancel}>
          {t("cancel")}
        </button>
        <button
          type="button"
          class={p.danger ? "danger" : "primary"}
          data-action="confirm"
          onClick={p.onConfirm}
        >
          {p.confirm}
        </button>
      </div>
    </dialog>
  );
}

/** For tests: every language's value of a key. */
export const both = (key: keyof typeof TABLES.zh.ui, params?: Record<string, string | number>) =>
  (["zh", "en"] as const).map((l) => fill(TABLES[l].ui[key], params));
