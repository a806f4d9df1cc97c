// The scorer's Ma Diao tab: one player's 開沖 draws (Ma Diao rules §7's input: the
// 上桌 cards, the draws in order, the 十字 top cards' captures), scored by the server
// (`POST /api/score/chong`) and shown draw by draw: the card, its points (0 is 斷沖: the card
// is not added) and the running total. No account.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { cardName, failureText, problemText, TABLES, t, type UiKey } from "../../i18n";
import { plainTyped } from "../../model/notation";
import { ApiError, api, type ProblemDetail } from "../../net/api";
import { showFailure, TextField, type TextFieldProps } from "../../widgets/TextField";
import { Card } from "./Card";
import { splitCards } from "./notation";

/** The 十字 top cards that may have captured others face up in their trick (百萬, the lowest,
 *  captures none of them). */
export const HOLDERS = ["wt", "qt"] as const;
export type Holder = (typeof HOLDERS)[number];

export interface ChongForm {
  table: string;
  draws: string;
  /** What each top card on the table captured, as typed (a top card not on the table is
   *  left out of the request). */
  captured: Partial<Record<Holder, string>>;
}

export const CHONG_BLANK: ChongForm = { table: "", draws: "", captured: {} };

/** Ma Diao rules §7's second example (§4.9 X5): 千萬 that captured 百萬 scores double. */
export const CHONG_EXAMPLE: ChongForm = { table: "qt", draws: "29t", captured: { qt: "bt" } };

/** §4.9 T11 (雙胞胎): 九萬 and 八萬 on the table both lead; 5, 4, 2, 4 = 15. */
export const CHONG_EXAMPLE_TWINS: ChongForm = { table: "98m", draws: "1m2m5m7m", captured: {} };

/** Cards as typed: spaces and commas dropped, letters in the notation's lower case. */
export const cardsOf = (text: string): string => plainTyped(text).replace(/[\s,、]+/g, "");

const isCard = (code: string): boolean => code in TABLES.zh.cards;

/** The cards of a typed field that are cards (the server names whatever is not). */
export const cardCodes = (text: string): string[] => splitCards(cardsOf(text)).filter(isCard);

/** The top cards on the table that may have captured others: a field each. */
export const holdersOf = (table: string): Holder[] => {
  const on = new Set(cardCodes(table));
  return HOLDERS.filter((h) => on.has(h));
};

/** The form as §7's JSON object (`captured` only when a top card on the table took some). */
export function toChongBody(f: ChongForm): Record<string, unknown> {
  const body: Record<string, unknown> = { table: cardsOf(f.table), draws: cardsOf(f.draws) };
  const captured: Record<string, string> = {};
  for (const h of holdersOf(f.table)) {
    const took = cardsOf(f.captured[h] ?? "");
    if (took) captured[h] = took;
  }
  if (Object.keys(captured).length) body.captured = captured;
  return body;
}

export type ChongField = "table" | "draws" | "captured";

export interface ChongErrorPlace {
  field: ChongField | null;
  /** The input to mark and focus (null: none of the form's). */
  id: string | null;
  /** The server's words after the field it names. */
  text: string;
}

/** Where the server's error points (its leading `table:`, `draws:` or `captured:`): the
 *  field and its input. A capture's error marks the field of the top card the message is
 *  about (the first card it names: a captor, or a card one took), else the first one sent. */
export function chongErrorPlace(
  message: string,
  body: Record<string, unknown>,
  detail: ProblemDetail | null = null,
): ChongErrorPlace {
  const known = detail ? problemText(detail) : null;
  const m = /^(table|draws|captured): (.*)$/s.exec(message);
  const path = detail && known !== null ? detail.field : m?.[1];
  if (path !== "table" && path !== "draws" && path !== "captured")
    return { field: null, id: null, text: known ?? message };
  const field: ChongField = path;
  const text = known ?? m?.[2] ?? message;
  if (field !== "captured") return { field, id: `ch-${field}`, text };
  const captured = (body.captured ?? {}) as Record<string, string>;
  const holders = Object.keys(captured);
  // the card the message is about comes first: a captor, or a card one of them took
  const about = (code: string): string | undefined =>
    holders.includes(code)
      ? code
      : holders.find((h) => splitCards(captured[h] ?? "").includes(code));
  const named = detail
    ? [detail.params.captor, detail.params.card].filter((c): c is string => typeof c === "string")
    : (text.match(/\b[0-9wqbh][tmsc]\b/g) ?? []);
  // a notation fault names no card: the field whose text it quotes
  const quoted = holders.find((h) => captured[h] === detail?.params.text);
  const holder = named.map(about).find((h) => h !== undefined) ?? quoted ?? holders[0];
  return { field, id: holder ? `ch-captured-${holder}` : null, text };
}

const FIELD_LABEL: Record<ChongField, UiKey> = {
  table: "chongTable",
  draws: "chongDraws",
  captured: "chongCaptured",
};

/** The scored draws: each card as sent, its points, and the server's total. */
export interface ChongResult {
  draws: string[];
  points: number[];
  total: number;
}

/** Why the last draws were not scored, kept raw (the words follow a switch of language):
 *  the server's `invalid_hand` with the body it was about, another error's code, or
 *  `no_draws` (nothing typed to draw). */
export type ChongFailure =
  | {
      code: "invalid_hand";
      message: string;
      detail: ProblemDetail | null;
      body: Record<string, unknown>;
    }
  | { code: string; message?: undefined; detail?: undefined; body?: undefined };

/** A failure in the page's words, placed on the form. */
export function chongFailurePlace(f: ChongFailure): ChongErrorPlace {
  if (f.message !== undefined) return chongErrorPlace(f.message, f.body, f.detail);
  if (f.code === "no_draws") return { field: "draws", id: "ch-draws", text: t("chongNoDraws") };
  return { field: null, id: null, text: failureText(f.code, "chongFailed") };
}

export interface ChongState {
  form: ChongForm;
  result: ChongResult | null;
  error: ChongFailure | null;
}

export const CHONG_START: ChongState = { form: CHONG_BLANK, result: null, error: null };
export const CHONG_EXAMPLE_STATE: ChongState = { ...CHONG_START, form: CHONG_EXAMPLE };

/** What the cards typed so far are, as cards (nothing for what is not a card yet). */
function CardPreview({ text }: { text: string }): JSX.Element | null {
  const codes = cardCodes(text);
  if (!codes.length) return null;
  return (
    <span class="scorer-preview chong-preview" aria-hidden="true">
      {codes.map((c, i) => (
        <Card key={i} code={c} size="sm" />
      ))}
    </span>
  );
}

function CardField(props: Omit<TextFieldProps, "children" | "maxLength">): JSX.Element {
  return (
    <TextField {...props} maxLength={60}>
      <CardPreview text={props.value} />
    </TextField>
  );
}

/** The heading of the How-to-play page's 開沖 section (`guide.*.ts`, id `chong`). */
export const RULES_CHONG_HEADING = "rules-madiao-chong-title";

/** The help's link is a plain link to How to play's Ma Diao tab (the page's history keeps the
 *  scorer: Back returns to it); once the page has changed, its 開沖 section is brought into
 *  sight and focused (the page renders the new route as the hash changes, before a task). */
function toRulesChong(ev: MouseEvent): void {
  if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
  const focus = () => {
    const heading = document.getElementById(RULES_CHONG_HEADING);
    heading?.scrollIntoView?.({ block: "start" });
    heading?.focus({ preventScroll: true });
  };
  window.addEventListener("hashchange", () => setTimeout(focus, 0), { once: true });
}

function ChongDraws({ result }: { result: ChongResult }): JSX.Element {
  let running = 0;
  const broke = result.points.some((p) => p === 0);
  return (
    <section class="chong-result" id="ch-result" aria-labelledby="ch-result-title">
      <h3 id="ch-result-title">{t("chongResult")}</h3>
      <ol class="chong-draws">
        {result.points.map((p, i) => {
          running += p;
          const code = result.draws[i] ?? null;
          return (
            <li
              key={i}
              class={`chong-draw${p === 0 ? " broken" : ""}`}
              data-draw={i + 1}
              data-card={code ?? undefined}
              data-points={p}
            >
              <Card code={code} size="md" />
              {p === 0 ? (
                <span class="chong-points duan">斷沖</span>
              ) : (
                <span class="chong-points">+{p}</span>
              )}
              <span class="chong-running muted small">{t("chongRunning", { n: running })}</span>
            </li>
          );
        })}
      </ol>
      {broke ? <p class="chong-break muted small">{t("chongBreak")}</p> : null}
      <p class="chong-total" id="ch-total" data-total={result.total}>
        {t("chongTotal", { n: result.total })}
      </p>
    </section>
  );
}

/** The 開沖 form and its result; the page keeps the state (a switch of tabs loses nothing). */
export function ChongScorer(props: {
  state: ChongState;
  onState: (next: ChongState) => void;
  /** How to play's Ma Diao tab (the help links to its 開沖 section). */
  rulesHref: string;
}): JSX.Element {
  const { form, result, error } = props.state;
  const [busy, setBusy] = useState(false);
  const typed = useRef(form);
  typed.current = form;
  const tried = useRef(false);
  // an edit is a fix under way: the old mark would say it is still wrong
  const set = (patch: Partial<ChongForm>) =>
    props.onState({ form: { ...form, ...patch }, result: null, error: null });
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!form.draws.trim()) {
      // nothing drawn scores nothing: say what is missing instead of a total of 0
      tried.current = true;
      props.onState({ form, result: null, error: { code: "no_draws" } });
      return;
    }
    setBusy(true);
    const body = toChongBody(form);
    let next: ChongState;
    try {
      const answer = await api<{ points: number[]; total: number }>("/api/score/chong", body);
      const draws = splitCards(String(body.draws));
      next = { form, result: { draws, points: answer.points, total: answer.total }, error: null };
    } catch (err) {
      const error: ChongFailure =
        err instanceof ApiError && err.code === "invalid_hand"
          ? { code: err.code, message: err.message, detail: err.detail, body }
          : { code: err instanceof ApiError ? err.code : "other" };
      next = { form, result: null, error };
    }
    setBusy(false);
    if (typed.current !== form) return; // typed on meanwhile: the answer is an old form's
    tried.current = true;
    props.onState(next);
  };
  useEffect(() => {
    if (result) document.getElementById("ch-result")?.scrollIntoView?.({ block: "nearest" });
  }, [result]);
  const place = error ? chongFailurePlace(error) : null;
  const failedAt = place?.id ?? null;
  useEffect(() => {
    // after a submit only: coming back to the tab does not jump to an old error
    if (error && tried.current) showFailure(failedAt, "ch-error");
    tried.current = false;
  }, [error, failedAt]);
  const problemAt = (id: string): string | null => (place && place.id === id ? place.text : null);
  const holders = holdersOf(form.table);
  return (
    <div class="chong" id="chong">
      <form onSubmit={submit} class="scorer-form chong-form">
        <fieldset>
          <legend>{t("chongPlayer")}</legend>
          <CardField
            id="ch-table"
            label={t("chongTable")}
            value={form.table}
            onValue={(v) => set({ table: v })}
            problem={problemAt("ch-table")}
            placeholder="98m"
          />
          {holders.map((h) => (
            <CardField
              key={h}
              id={`ch-captured-${h}`}
              label={t("chongCapturedBy", { card: cardName(h) })}
              value={form.captured[h] ?? ""}
              onValue={(v) => set({ captured: { ...form.captured, [h]: v } })}
              problem={problemAt(`ch-captured-${h}`)}
              placeholder={h === "wt" ? "qt" : "bt"}
            />
          ))}
          <CardField
            id="ch-draws"
            label={t("chongDraws")}
            value={form.draws}
            onValue={(v) => set({ draws: v })}
            problem={problemAt("ch-draws")}
            placeholder="76854m"
          />
        </fieldset>
        <p class="muted small chong-notation">{t("chongNotation")}</p>
        <div class="row">
          <button type="submit" class="primary" id="ch-score" disabled={busy}>
            {t("scorerScore")}
          </button>
          <button
            type="button"
            class="ghost"
            data-action="example-twins"
            onClick={() => props.onState({ form: CHONG_EXAMPLE_TWINS, result: null, error: null })}
          >
            {t("chongExampleTwins")}
          </button>
        </div>
        {place ? (
          <p
            class="error scorer-error"
            role="alert"
            id="ch-error"
            data-field={place.id ?? undefined}
          >
            {place.field ? (
              <b>
                {t(FIELD_LABEL[place.field])}
                {t("fieldSep")}
              </b>
            ) : null}
            {place.text}
          </p>
        ) : null}
        <p class="chong-help small">
          {t("chongHelp")}{" "}
          <a href={props.rulesHref} id="ch-rules" onClick={toRulesChong}>
            {t("chongHelpLink")}
          </a>
        </p>
      </form>
      {result ? <ChongDraws result={result} /> : null}
    </div>
  );
}
