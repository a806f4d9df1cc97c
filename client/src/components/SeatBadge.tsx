// A seat's plate: wind, name, dealer mark, points, status, and the clock ring.
import type { JSX } from "preact";
import { levelName, t, windName, windShort } from "../i18n";
import type { Seat, SeatInfo } from "../protocol";
import { ClockRing, type TableClock } from "./Clock";

/** A seat's name as shown: a bot's name without the level the server appends in Chinese
 *  (「夏雨（高級）」), since its tag says the level in the current language. */
export function seatName(info: SeatInfo | null): string {
  if (!info) return "";
  const suffix = info.bot && info.level ? `（${levelName(info.level, "zh")}）` : "";
  return suffix && info.name.endsWith(suffix) ? info.name.slice(0, -suffix.length) : info.name;
}

export interface SeatBadgeProps {
  seat: Seat;
  /** The seat's wind (Mazhan: moves with the deal; Ma Diao: the seat). */
  wind: Seat;
  info: SeatInfo | null;
  isMe: boolean;
  dealer: boolean;
  dealerLabel: "dealer" | "banker";
  active: boolean;
  clock: TableClock | null;
  points?: number | null;
  extra?: JSX.Element | null;
}

export function SeatBadge(p: SeatBadgeProps): JSX.Element {
  const name = seatName(p.info);
  // a person's points, as the table frame shows everyone (bots play for the house: none)
  const points = typeof p.points === "number" ? p.points : (p.info?.points ?? null);
  return (
    <div class={`seat-badge${p.active ? " active" : ""}${p.isMe ? " me" : ""}`} data-seat={p.seat}>
      <ClockRing active={p.active} clock={p.clock}>
        <span class="wind" title={windName(p.wind)}>
          {windShort(p.wind)}
        </span>
      </ClockRing>
      <span class="seat-text">
        <span class="seat-name">
          <span class="seat-name-text" title={name}>
            {name}
          </span>
          {p.isMe ? <span class="tag">{t("you")}</span> : null}
          {p.dealer ? (
            <span class="tag dealer" title={t(p.dealerLabel)}>
              {t(p.dealerLabel)}
            </span>
          ) : null}
          {p.info?.bot ? (
            <span class="tag muted" data-level={p.info.level ?? undefined}>
              {t("bot")}
              {p.info.level ? ` · ${levelName(p.info.level)}` : ""}
            </span>
          ) : null}
          {p.info?.tuoguan ? <span class="tag muted">{t("tuoguan")}</span> : null}
          {p.info && !p.info.bot && p.info.connected === false ? (
            <span class="tag warn">{t("offline")}</span>
          ) : null}
        </span>
        <span class="seat-sub">
          <span class="wind-name">{windName(p.wind)}</span>
          {typeof points === "number" ? (
            <span class="points" data-points={points}>
              {points} {t("points")}
            </span>
          ) : null}
          {p.extra}
        </span>
      </span>
    </div>
  );
}
