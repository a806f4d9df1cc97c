// What an invite link's table is, before joining it (`GET /api/invite/{code}`, no account
// needed): its room, the people sitting there, the seats free now, or that it has closed.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { errorText, roomName, t } from "../i18n";
import { ApiError, api } from "../net/api";
import type { Game } from "../protocol";
import { codeRefused } from "../state/lobby";

/** The server's answer (docs/protocol.md, `GET /api/invite/{code}`). */
export interface InvitationInfo {
  code: string;
  game: Game;
  room: { name: string; min_balance: number };
  people: string[];
  free: number;
  playing: boolean;
}

/** Ask the server what the table of `code` is. */
export function fetchInvitation(code: string): Promise<InvitationInfo> {
  return api<InvitationInfo>(`/api/invite/${encodeURIComponent(code)}`);
}

/** The invitation's table, in a sentence or two; nothing while it is being asked. Asked
 *  again when a join by a code is refused: what it said may no longer be true. */
export function Invitation({ code }: { code: string }): JSX.Element | null {
  const [info, setInfo] = useState<InvitationInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refused = codeRefused.value;
  useEffect(() => {
    let live = true; // an answer for a code no longer shown is dropped
    setInfo(null);
    setError(null);
    fetchInvitation(code).then(
      (found) => {
        if (live) setInfo(found);
      },
      (err: unknown) => {
        if (live) setError(err instanceof ApiError ? err.code : "network");
      },
    );
    return () => {
      live = false;
    };
  }, [code, refused]);
  if (error !== null) {
    return (
      <p class="invitation gone" id="invitation" role="status">
        {error === "unknown_table" ? t("inviteGone") : errorText(error)}
      </p>
    );
  }
  if (info === null) return null;
  return (
    <p class="invitation" id="invitation" role="status">
      {t("inviteWhat", {
        room: roomName(info.room.name),
        people: info.people.join(", "),
        min: info.room.min_balance,
      })}{" "}
      {info.playing ? t("invitePlaying") : t("inviteFree", { free: info.free })}
    </p>
  );
}
