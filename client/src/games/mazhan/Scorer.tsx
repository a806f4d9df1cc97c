// The scorer's Mazhan tab: a finished hand typed in as a scorekeeper reads it off a real table
// (rules §11's fields), scored by the server (`POST /api/score`) and shown as the table's
// settlement shows one: every hand, each seat's items and 台, the formula, who pays whom.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { failureText, problemText, TABLES, t, type UiKey, winByName, windName } from "../../i18n";
import { plainTyped } from "../../model/notation";
import { SEATS } from "../../model/seats";
import { ApiError, type ApiProblem, api, type ProblemDetail } from "../../net/api";
import type { MazhanResult, Seat } from "../../protocol";
import {
  FieldProblem,
  problemMarks,
  showFailure,
  TextField,
  type TextFieldProps,
} from "../../widgets/TextField";
import { meldWord, splitTiles } from "./notation";
import { MazhanSettlement } from "./Settlement";
import { Tile } from "./Tile";

type WinBy = "self_draw" | "discard" | "robbed_kong" | "kong_replacement" | "sha_zhu";
const WIN_BY: WinBy[] = ["self_draw", "discard", "robbed_kong", "kong_replacement", "sha_zhu"];

export interface SeatFields {
  concealed: string;
  melds: string;
  bonus: string;
}

export interface ScorerForm {
  wild: string;
  winner: Seat | "";
  winBy: WinBy;
  winTile: string;
  discarder: Seat | "";
  tianhu: boolean;
  dihu: boolean;
  players: Record<Seat, SeatFields>;
}

const EMPTY_SEAT: SeatFields = { concealed: "", melds: "", bonus: "" };

export const BLANK: ScorerForm = {
  wild: "",
  winner: "",
  winBy: "self_draw",
  winTile: "",
  discarder: "",
  tianhu: false,
  dihu: false,
  players: { E: EMPTY_SEAT, S: EMPTY_SEAT, W: EMPTY_SEAT, N: EMPTY_SEAT },
};

/** Rules §7, worked example 1 (the seed's own hand): South self-draws 2p, H = 320. */
export const EXAMPLE: ScorerForm = {
  wild: "9s",
  winner: "S",
  winBy: "self_draw",
  winTile: "2p",
  discarder: "",
  tianhu: false,
  dihu: false,
  players: {
    E: { concealed: "1123456789m123456s", melds: "", bonus: "" },
    S: { concealed: "1p3p678p789p2p2p2p", melds: "pung 777z, pung 555p", bonus: "2j" },
    W: { concealed: "2345679m44p1122334z", melds: "", bonus: "" },
    N: { concealed: "15678s23456p99p44z66z", melds: "", bonus: "" },
  },
};

/** The melds as typed ("pung 777z, chow 789m", 「碰 777z、吃 789m」 or one a line) as §11's
 *  list. */
export function meldList(text: string): string[] {
  return plainTyped(text)
    .split(/[,;、\n]+/)
    .map((m) => meldWord(m.trim()).replace(/\s+/g, " "))
    .filter((m) => m.length > 0);
}

/** Tiles as typed: spaces dropped, full-width made plain, letters in lower case ("9P" is
 *  9p). */
const tilesOf = (text: string): string => plainTyped(text).replace(/\s+/g, "");

/** The form as §11's JSON object (a drawn hand: no winner, no winning tile). */
export function toRecord(f: ScorerForm): Record<string, unknown> {
  const won = f.winner !== "";
  const players: Record<string, unknown> = {};
  for (const s of SEATS) {
    const p = f.players[s];
    players[s] = {
      concealed: tilesOf(p.concealed),
      melds: meldList(p.melds),
      bonus: tilesOf(p.bonus),
    };
  }
  const discardLike = f.winBy === "discard" || f.winBy === "robbed_kong";
  return {
    wild: tilesOf(f.wild),
    winner: won ? f.winner : null,
    win_tile: won && f.winBy !== "sha_zhu" && !f.tianhu ? tilesOf(f.winTile) || null : null,
    win_by: won ? f.winBy : null,
    discarder: won && discardLike && f.discarder !== "" ? f.discarder : null,
    tianhu: won && f.tianhu,
    dihu: won && f.dihu,
    players,
  };
}

/** A field of §11's object (`players.E.melds[0]`, `win_tile`) as the form's input and the
 *  field's name in the page's words (no input: the hand as a whole). */
export function fieldPlace(path: string): { id: string | null; where: string } {
  const m = /^players\.([ESWN])(?:\.(concealed|melds|bonus)(?:\[\d+\])?)?$/.exec(path);
  if (m) {
    // a seat's field, or the seat as a whole (its count of tiles: the concealed tiles)
    const [, seat = "", field] = m;
    const label = { concealed: "scorerConcealed", melds: "scorerMelds", bonus: "bonus" } as const;
    const part = (field ?? "concealed") as keyof typeof label;
    return {
      id: `sc-${seat}-${part}`,
      where: field ? `${windName(seat)} · ${t(label[part])}` : windName(seat),
    };
  }
  const fields: Record<string, { id: string; label: UiKey }> = {
    wild: { id: "sc-wild", label: "wild" },
    win_tile: { id: "sc-wintile", label: "winTile" },
    winner: { id: "sc-winner", label: "scorerWinner" },
    win_by: { id: "sc-winby", label: "scorerHow" },
    discarder: { id: "sc-discarder", label: "scorerDiscarder" },
    tianhu: { id: "sc-tianhu", label: "tianhu" },
    dihu: { id: "sc-dihu", label: "dihu" },
  };
  const f = fields[path];
  return f ? { id: f.id, where: t(f.label) } : { id: null, where: "" };
}

/** Where the scorer's error points and what it says, in the page's words: from the error's
 *  `detail` when the page knows its key, else from the message's leading path (as
 *  `players.E.melds[0]: …`) and the server's own words after it. */
export function errorPlace(
  message: string,
  detail: ProblemDetail | null = null,
): { id: string | null; where: string; text: string } {
  if (detail) {
    const text = problemText(detail);
    const place = fieldPlace(detail.field);
    // the seat field of a robbed kong is labelled as such on the form
    if (detail.field === "discarder" && detail.why.startsWith("robbed"))
      place.where = t("scorerRobbed");
    if (text !== null) return { ...place, text };
  }
  const m = /^([\w.[\]]+): (.*)$/s.exec(message);
  const place = m ? fieldPlace(m[1] ?? "") : { id: null, where: "" };
  if (!m || (place.id === null && place.where === ""))
    return { id: null, where: "", text: message };
  return { ...place, text: m[2] ?? "" };
}

function Preview({ text, wild }: { text: string; wild: string }): JSX.Element | null {
  // what is not a tile yet draws nothing (the server names it)
  const codes = splitTiles(tilesOf(text)).filter((c) => c in TABLES.zh.tiles);
  if (!codes.length) return null;
  return (
    <span class="scorer-preview" aria-hidden="true">
      {codes.map((c, i) => (
        <Tile key={i} code={c} size="xs" wild={c === wild} />
      ))}
    </span>
  );
}

/** A field of tiles, what was typed shown as tiles (``preview``: the ★ face; ``null``: no
 *  preview). */
function TileField(
  props: Omit<TextFieldProps, "children"> & { preview: string | null },
): JSX.Element {
  const { preview, ...field } = props;
  return (
    <TextField {...field}>
      {preview !== null ? <Preview text={props.value} wild={preview} /> : null}
    </TextField>
  );
}

/** Why the last hand was not scored: the server's `invalid_hand` (its message and detail,
 *  and every problem it found), or another error's code (`rate_limited`, `network`, `busy`,
 *  …). Kept raw, so that the words follow a switch of language. */
export type ScorerFailure =
  | { code: "invalid_hand"; message: string; detail: ProblemDetail | null; problems: ApiProblem[] }
  | { code: string; message?: undefined; detail?: undefined; problems?: undefined };

export type FailurePlace = { id: string | null; where: string; text: string };

/** A failure in the page's words, placed on the form: each problem the server found, in the
 *  form's order. */
export function failurePlaces(f: ScorerFailure): FailurePlace[] {
  if (f.message === undefined)
    return [{ id: null, where: "", text: failureText(f.code, "scorerFailed") }];
  const problems = f.problems.length ? f.problems : [{ message: f.message, detail: f.detail }];
  const places = problems.map((p) => errorPlace(p.message, p.detail));
  // in the form's order (the server lists the fields it could not read before the counts);
  // a problem of the hand as a whole after those of a field
  const at = (p: FailurePlace) => {
    const i = p.id === null ? -1 : FORM_ORDER.indexOf(p.id);
    return i < 0 ? FORM_ORDER.length : i;
  };
  return places.sort((a, b) => at(a) - at(b)); // a stable sort: the server's order within
}

/** The form's inputs from top to bottom. */
const FORM_ORDER: string[] = [
  "sc-wild",
  "sc-winner",
  "sc-winby",
  "sc-wintile",
  "sc-discarder",
  "sc-tianhu",
  "sc-dihu",
  ...SEATS.flatMap((s) => [`sc-${s}-concealed`, `sc-${s}-melds`, `sc-${s}-bonus`]),
];

/** What each input of the form is told: its problems' words by the input's id (two problems
 *  of one field are said one after the other). */
export function problemsByField(places: FailurePlace[]): Record<string, string> {
  const marks: Record<string, string> = {};
  for (const p of places) {
    if (p.id === null) continue;
    const said = marks[p.id];
    marks[p.id] = said ? `${said} ${p.text}` : p.text;
  }
  return marks;
}

/** A flag of the hand (天胡, 地胡): its box, and the last error's problem under it (outside
 *  its label: a click on the words would tick the box). */
function FlagBox(props: {
  flag: "tianhu" | "dihu";
  label: string;
  checked: boolean;
  onFlag: (on: boolean) => void;
  problem: string | null;
}): JSX.Element {
  const id = `sc-${props.flag}`;
  return (
    <div class="check-field">
      <label class="check">
        <input
          type="checkbox"
          id={id}
          {...problemMarks(id, props.problem)}
          checked={props.checked}
          onChange={(e) => props.onFlag((e.currentTarget as HTMLInputElement).checked)}
        />
        <span>{props.label}</span>
      </label>
      <FieldProblem id={id} text={props.problem} />
    </div>
  );
}

function PlaceWords({ place }: { place: FailurePlace }): JSX.Element {
  return (
    <>
      {place.where ? (
        <b>
          {place.where}
          {t("fieldSep")}
        </b>
      ) : null}
      {place.text}
    </>
  );
}

/** The failure by the Score button: the one problem, or a count and every problem listed (each
 *  is also said under its field). */
function ScorerError({ places }: { places: FailurePlace[] }): JSX.Element {
  const [first] = places;
  if (places.length === 1 && first)
    return (
      <p class="error scorer-error" role="alert" id="sc-error" data-field={first.id ?? undefined}>
        <PlaceWords place={first} />
      </p>
    );
  return (
    <div class="error scorer-error" role="alert" id="sc-error" data-field={first?.id ?? undefined}>
      <p>{t("scorerProblems", { n: places.length })}</p>
      <ul>
        {places.map((p, i) => (
          <li key={i} data-field={p.id ?? undefined}>
            <PlaceWords place={p} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The tab's state, kept by the page while the other tab is shown: the form, the last
 *  answer (a result or why there is none), and the inputs edited since that failure (a
 *  seat's as `sc-E-`: their problems are being fixed, the others' still stand). */
export interface ScorerState {
  form: ScorerForm;
  result: MazhanResult | null;
  error: ScorerFailure | null;
  fixed: string[];
}

export const SCORER_START: ScorerState = { form: BLANK, result: null, error: null, fixed: [] };
export const SCORER_EXAMPLE: ScorerState = { ...SCORER_START, form: EXAMPLE };

/** The Mazhan hand's form and its settlement. */
export function MazhanScorer(props: {
  state: ScorerState;
  onState: (next: (s: ScorerState) => ScorerState) => void;
}): JSX.Element {
  const { form, result, error, fixed } = props.state;
  const [busy, setBusy] = useState(false);
  // an answer came in this tab's life: coming back to the tab does not jump to an old one
  const answered = useRef(false);
  const set = (patch: Partial<ScorerForm>, edited: string | null = null) =>
    props.onState((s) => ({
      ...s,
      form: { ...s.form, ...patch },
      result: null,
      // how the hand ended, an example, a clear: the old problems may all have changed
      ...(edited === null
        ? { error: null, fixed: [] }
        : s.fixed.includes(edited)
          ? {}
          : { fixed: [...s.fixed, edited] }),
    }));
  const setSeat = (s: Seat, patch: Partial<SeatFields>) =>
    set({ players: { ...form.players, [s]: { ...form.players[s], ...patch } } }, `sc-${s}-`);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    props.onState((s) => ({ ...s, error: null, fixed: [] }));
    try {
      const answer = await api<{ result: MazhanResult }>("/api/score", toRecord(form));
      answered.current = true;
      props.onState((s) => ({ ...s, result: answer.result }));
    } catch (err) {
      const failure: ScorerFailure =
        err instanceof ApiError && err.code === "invalid_hand"
          ? { code: err.code, message: err.message, detail: err.detail, problems: err.problems }
          : { code: err instanceof ApiError ? err.code : "other" };
      answered.current = true;
      props.onState((s) => ({ ...s, result: null, error: failure }));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    // the settlement comes below a long form: bring it into sight (on a phone, off screen)
    if (result && answered.current)
      document.getElementById("sc-result")?.scrollIntoView?.({ block: "start" });
  }, [result]);
  const all = error ? failurePlaces(error) : [];
  // the focus goes where the failure points when it comes, not as its problems are fixed
  const failedAt = all[0]?.id ?? null;
  const places = all.filter((p) => !fixed.some((f) => p.id?.startsWith(f)));
  useEffect(() => {
    if (error && answered.current) showFailure(failedAt, "sc-error");
  }, [error, failedAt]);
  const marks = problemsByField(places);
  const problemAt = (id: string): string | null => marks[id] ?? null;
  const wild = form.wild.trim().toLowerCase();
  const won = form.winner !== "";
  const discardLike = form.winBy === "discard" || form.winBy === "robbed_kong";
  return (
    <>
      <p class="muted small">{t("scorerIntro")}</p>
      <form onSubmit={submit} class="scorer-form">
        <fieldset class="scorer-hand">
          <legend>{t("scorerHand")}</legend>
          <TileField
            id="sc-wild"
            label={t("wild")}
            value={form.wild}
            onValue={(v) => set({ wild: v }, "sc-wild")}
            problem={problemAt("sc-wild")}
            maxLength={4}
            placeholder="9s"
            preview={wild}
          />
          <label>
            <span>{t("scorerWinner")}</span>
            <select
              id="sc-winner"
              {...problemMarks("sc-winner", problemAt("sc-winner"))}
              value={form.winner}
              onChange={(e) =>
                // a discarder that is now the winner is no discarder
                set({
                  winner: (e.currentTarget as HTMLSelectElement).value as Seat | "",
                  discarder: "",
                })
              }
            >
              <option value="">{t("scorerNoWinner")}</option>
              {SEATS.map((s) => (
                <option key={s} value={s}>
                  {windName(s)}
                </option>
              ))}
            </select>
            <FieldProblem id="sc-winner" text={problemAt("sc-winner")} />
          </label>
          {won ? (
            <>
              <label>
                <span>{t("scorerHow")}</span>
                <select
                  id="sc-winby"
                  {...problemMarks("sc-winby", problemAt("sc-winby"))}
                  value={form.winBy}
                  onChange={(e) =>
                    set({ winBy: (e.currentTarget as HTMLSelectElement).value as WinBy })
                  }
                >
                  {WIN_BY.map((w) => (
                    <option key={w} value={w}>
                      {winByName(w)}
                    </option>
                  ))}
                </select>
                <FieldProblem id="sc-winby" text={problemAt("sc-winby")} />
              </label>
              {form.winBy !== "sha_zhu" && !form.tianhu ? (
                <TileField
                  id="sc-wintile"
                  label={t("winTile")}
                  value={form.winTile}
                  onValue={(v) => set({ winTile: v }, "sc-wintile")}
                  problem={problemAt("sc-wintile")}
                  maxLength={4}
                  placeholder="2p"
                  preview={wild}
                />
              ) : null}
              {discardLike ? (
                <label>
                  <span>
                    {t(form.winBy === "robbed_kong" ? "scorerRobbed" : "scorerDiscarder")}
                  </span>
                  <select
                    id="sc-discarder"
                    {...problemMarks("sc-discarder", problemAt("sc-discarder"))}
                    value={form.discarder}
                    onChange={(e) =>
                      set({
                        discarder: (e.currentTarget as HTMLSelectElement).value as Seat | "",
                      })
                    }
                  >
                    <option value="">—</option>
                    {SEATS.filter((s) => s !== form.winner).map((s) => (
                      <option key={s} value={s}>
                        {windName(s)}
                      </option>
                    ))}
                  </select>
                  <FieldProblem id="sc-discarder" text={problemAt("sc-discarder")} />
                </label>
              ) : null}
              <FlagBox
                flag="tianhu"
                label={`天胡 ${t("scorerTianhu")}`}
                checked={form.tianhu}
                onFlag={(on) => set({ tianhu: on })}
                problem={problemAt("sc-tianhu")}
              />
              <FlagBox
                flag="dihu"
                label={`地胡 ${t("scorerDihu")}`}
                checked={form.dihu}
                onFlag={(on) => set({ dihu: on })}
                problem={problemAt("sc-dihu")}
              />
            </>
          ) : null}
        </fieldset>
        <p class="muted small">{t("scorerNotation")}</p>
        <div class="scorer-seats">
          {SEATS.map((s) => (
            <fieldset key={s} class="scorer-seat" data-seat={s}>
              <legend>
                {windName(s)}
                {s === "E" ? <span class="tag dealer">{t("dealer")}</span> : null}
                {form.winner === s ? <span class="tag win">{t("winner")}</span> : null}
              </legend>
              <TileField
                id={`sc-${s}-concealed`}
                label={t("scorerConcealed")}
                value={form.players[s].concealed}
                onValue={(v) => setSeat(s, { concealed: v })}
                problem={problemAt(`sc-${s}-concealed`)}
                maxLength={120}
                preview={wild}
              />
              <TileField
                id={`sc-${s}-melds`}
                label={t("scorerMelds")}
                value={form.players[s].melds}
                onValue={(v) => setSeat(s, { melds: v })}
                problem={problemAt(`sc-${s}-melds`)}
                maxLength={200}
                placeholder="pung 777z, chow 789m"
                preview={null}
              />
              <TileField
                id={`sc-${s}-bonus`}
                label={t("bonus")}
                value={form.players[s].bonus}
                onValue={(v) => setSeat(s, { bonus: v })}
                problem={problemAt(`sc-${s}-bonus`)}
                maxLength={60}
                placeholder="2h 5z"
                preview={wild}
              />
            </fieldset>
          ))}
        </div>
        <div class="row">
          <button type="submit" class="primary" id="sc-score" disabled={busy}>
            {t("scorerScore")}
          </button>
        </div>
        {places.length ? <ScorerError places={places} /> : null}
      </form>
      {result ? (
        <section class="scorer-result" id="sc-result" aria-label={t("scorerResult")}>
          <MazhanSettlement
            result={result}
            hand={0}
            stake={0}
            fee={0}
            moves={[]}
            balance={null}
            balanceChange={null}
            names={{ E: null, S: null, W: null, N: null }}
            me={null}
            myName={null}
            wild={wild}
            dealer="E"
            showPoints={false}
          />
        </section>
      ) : null}
    </>
  );
}
