// One typed field of the scorers' forms: its label, the input (marked when the server's
// error points at it), and what follows it (a preview of the tiles or cards typed).
import type { ComponentChildren, JSX } from "preact";

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** The id of the field the last error points at. */
  bad: string | null;
  maxLength: number;
  placeholder?: string;
  /** What the last error says, shown under the field it points at. */
  problem?: string | null;
  children?: ComponentChildren;
}

/** The last error's words under the input it points at (on a phone the form's own error line
 *  is screens away from the field that takes the focus). */
export function FieldProblem(props: {
  id: string;
  bad: string | null;
  text: string | null | undefined;
}): JSX.Element | null {
  if (props.bad !== props.id || !props.text) return null;
  return (
    // read as the input's description (aria-describedby), not as part of its label's name
    <span class="field-problem" id={`${props.id}-problem`} aria-hidden="true">
      {props.text}
    </span>
  );
}

/** The `aria-describedby` of an input the last error points at (its problem, under it). */
export const describedBy = (id: string, bad: string | null): string | undefined =>
  bad === id ? `${id}-problem` : undefined;

/** After a failed submit: the input the error points at takes the focus (and comes into
 *  sight, with its problem under it); an error about the form as a whole is scrolled to. */
export function showFailure(id: string | null, errorId: string): void {
  const field = id ? document.getElementById(id) : null;
  if (field) {
    field.focus();
    field.scrollIntoView?.({ block: "center" });
  } else document.getElementById(errorId)?.scrollIntoView?.({ block: "center" });
}

export function TextField(props: TextFieldProps): JSX.Element {
  return (
    <label>
      <span>{props.label}</span>
      <input
        id={props.id}
        aria-invalid={props.bad === props.id ? "true" : undefined}
        aria-describedby={props.problem ? describedBy(props.id, props.bad) : undefined}
        value={props.value}
        maxLength={props.maxLength}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        placeholder={props.placeholder}
        onInput={(e) => props.onValue((e.currentTarget as HTMLInputElement).value)}
      />
      <FieldProblem id={props.id} bad={props.bad} text={props.problem} />
      {props.children}
    </label>
  );
}
