// A seat's plate: wind, name, dealer mark, points, status, and the clock ring.
import type { JSX } from "preact";
import { type Lang, lang, levelName, t, windName, windShort } from "../i18n";
import type { Seat, SeatInfo } from "../protocol";
import { ClockRing, type TableClock } from "./Clock";

/** The house's bots (the server's BOT_NAMES) in pinyin, for pages in English. */
export const BOT_ROMAN: Record<string, string> = {
  春風: "Chunfeng",
  夏雨: "Xiayu",
  秋月: "Qiuyue",
  冬雪: "Dongxue",
};

/** A seat's name as shown: a bot's name without the level the server appends in Chinese
 *  (「夏雨（高級）」), since its tag says the level in the current language; on an English
 *  page a bot's name romanised first, the Chinese after it ("Xiayu 夏雨"). */
export function seatName(info: SeatInfo | null, l: Lang = lang.value): string {
  if (!info) return "";
  const suffix = info.bot && info.level ? `（${levelName(info.level, "zh")}）` : "";
  const name =
    suffix && info.name.endsWith(suffix) ? info.name.slice(0, -suffix.length) : info.name;
  const roman = info.bot && l === "en" ? BOT_ROMAN[name] : undefined;
  return roman ? `${roman} ${name}` : name;
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
