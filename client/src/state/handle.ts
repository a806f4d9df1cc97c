// The one entry of server frames into the state: `handle` checks a frame's type and hands it
// to that type's function (state/frames.ts).
import type { ServerMessage } from "../protocol";
import { SERVER_TYPES } from "../protocol";
import { ON, unknownFrame } from "./frames";

/** Fold one frame from the server into the state. Unknown frames are logged, not fatal. */
export function handle(raw: unknown, now: number = Date.now()): void {
  if (!raw || typeof raw !== "object" || typeof (raw as { type?: unknown }).type !== "string") {
    unknownFrame("a frame without a type", raw);
    return;
  }
  const m = raw as ServerMessage;
  if (!(SERVER_TYPES as readonly string[]).includes(m.type)) {
    unknownFrame(`unknown frame type ${JSON.stringify(m.type)}`, raw);
    return;
  }
  (ON[m.type] as (m: ServerMessage, now: number) => void)(m, now);
}
