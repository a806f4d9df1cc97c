// Points for the broke (救濟金, `GET`/`POST /api/relief`): below the lowest room's minimum a
// player may claim, once a day, the points that bring them up to it. A button while they
// may, a line saying when they may again, nothing otherwise.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { errorText, t } from "../i18n";
import { ApiError, api } from "../net/api";
import { me } from "../state/connection";

/** The server's answer (`GET /api/relief`). */
export interface ReliefStatus {
  eligible: boolean;
  why: "relief_off" | "balance_enough" | "relief_claimed" | null;
  amount: number;
  balance: number;
  floor: number;
  claimed_today: number;
  per_day: number;
  next_day_at: number;
}

/** The relief button of the lobby, beside the balance. */
export function Relief(): JSX.Element | null {
  const [status, setStatus] = useState<ReliefStatus | null>(null);
  const [given, setGiven] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const balance = me.value?.balance;
  useEffect(() => {
    let live = true;
    api<ReliefStatus>("/api/relief").then(
      (found) => {
        if (live) setStatus(found);
      },
      () => undefined, // no relief shown: the lobby says what else went wrong
    );
    return () => {
      live = false;
    };
  }, [balance]);

  async function claim(): Promise<void> {
    setError(null);
    try {
      const r = await api<{ given: number; balance: number; status: ReliefStatus }>(
        "/api/relief",
        {},
      );
      setGiven(r.given);
      setStatus(r.status);
      if (me.value) me.value = { ...me.value, balance: r.balance };
    } catch (err) {
      setError(err instanceof ApiError ? err.code : "network");
    }
  }

  if (!status) return null;
  const note = given !== null ? t("reliefGiven", { n: given }) : error ? errorText(error) : null;
  const waiting = status.why === "relief_claimed" && status.balance < status.floor;
  if (!status.eligible && !waiting && note === null) return null;
  return (
    <p class="relief" id="relief">
      {status.eligible ? (
        <button type="button" data-action="relief" onClick={() => void claim()}>
          {t("reliefClaim", { n: status.amount })}
        </button>
      ) : waiting ? (
        t("reliefTomorrow")
      ) : null}{" "}
      {note && <span role="status">{note}</span>}
    </p>
  );
}
