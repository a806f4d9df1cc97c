// Ma Diao cards: tall paper cards with the face written top to bottom in the system CJK font,
// red ink for the red cards (紅張), a suit band at the foot; backs for hidden cards.
import type { JSX } from "preact";
import { cardName, lang, TABLES } from "../../i18n";
import { type HandStop, PieceButton } from "../../widgets/board";

/** The red cards of the [Q] tradition (賞, 肩 and 百老): rules/madiao.md §1. */
export const RED_CARDS = new Set(["wt", "qt", "bt", "9m", "8m", "9s", "8s", "0c", "hc"]);

const SUIT_CLASS: Record<string, string> = { t: "suit-t", m: "suit-m", s: "suit-s", c: "suit-c" };

/** The short English words of the suits whose faces are numbered. */
const SUIT_SHORT_EN: Record<string, string> = { m: "Myr", s: "Str", c: "Coin" };

/** The 十字 suit (tens of myriads) is named in words, as en.ts names it ("Ninety Myriads"),
 *  so that 九十萬 ("Ninety") never reads like 九萬 ("9 Myr"); the two top coins are named. */
const NAMED_SHORT_EN: Record<string, string> = {
  wt: "Myr·Myr",
  qt: "Thous.",
  bt: "Hund.",
  "9t": "Ninety",
  "8t": "Eighty",
  "7t": "Seventy",
  "6t": "Sixty",
  "5t": "Fifty",
  "4t": "Forty",
  "3t": "Thirty",
  "2t": "Twenty",
  "0c": "Empty",
  hc: "½ Coin",
};

/** A card's English name made short enough for the card's foot (7 characters at most):
 *  "Ninety" (九十萬), "9 Myr" (九萬), "9 Str", "3 Coin", "Hund." (百萬), "Myr·Myr" (萬萬,
 *  "Myriad Myriads"): the words of en.ts's card names, abbreviated.
 *
 *  @example cardShortEn("4t") === "Forty" && cardShortEn("4m") === "4 Myr"
 */
export function cardShortEn(code: string): string {
  const named = NAMED_SHORT_EN[code];
  if (named) return named;
  const [face, suit] = [code[0] ?? "", code[1] ?? ""];
  return `${face} ${SUIT_SHORT_EN[suit] ?? suit}`;
}

export interface CardProps {
  code: string | null;
  size?: "lg" | "md" | "sm";
  class?: string;
  label?: string;
}

export function Card({ code, size = "md", class: extra, label }: CardProps): JSX.Element {
  if (!code) {
    return (
      <span
        class={`card card-${size} back${extra ? ` ${extra}` : ""}`}
        role="img"
        aria-label={label}
      >
        <span class="card-back" aria-hidden="true" />
      </span>
    );
  }
  const glyphs = [...(TABLES.zh.cards[code as keyof typeof TABLES.zh.cards] ?? code)];
  const name = cardName(code);
  // in English a label at the foot names the card at every size (no tooltip to read on a
  // phone); a small card is widened a little in English to carry it (styles.css)
  const en = lang.value === "en";
  return (
    <span
      class={`card card-${size} ${SUIT_CLASS[code[1] ?? ""] ?? ""}${RED_CARDS.has(code) ? " red" : ""}${en ? " has-en" : ""}${extra ? ` ${extra}` : ""}`}
      data-card={code}
      role="img"
      aria-label={label ?? name}
      title={name}
    >
      <span class="card-face" aria-hidden="true">
        {glyphs.map((g, i) => (
          <span key={i}>{g}</span>
        ))}
      </span>
      {en ? (
        <span class={`card-en${cardShortEn(code).length > 6 ? " long" : ""}`} aria-hidden="true">
          {cardShortEn(code)}
        </span>
      ) : null}
    </span>
  );
}

export interface CardButtonProps extends HandStop {
  code: string;
  label: string;
  actions: string[];
  selected?: boolean;
  disabled?: boolean;
  onClick: () => void;
  /** The hint names one of this card's plays. */
  hinted?: boolean;
}

export function CardButton(p: CardButtonProps): JSX.Element {
  return (
    <PieceButton
      {...p}
      class={`card-button${p.selected ? " selected" : ""}${p.hinted ? " hinted" : ""}`}
      card
      action={p.actions.join(" | ") || undefined}
      pressed={p.selected}
    >
      <Card code={p.code} size="lg" label="" />
    </PieceButton>
  );
}
