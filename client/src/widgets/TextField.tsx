// One typed field of the scorers' forms: its label, the input (marked when the server found a
// problem in it), and what follows it (a preview of the tiles or cards typed).
import type { ComponentChildren, JSX } from "preact";

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  maxLength: number;
  placeholder?: string;
  /** What the last error says of this field, shown under it (`null`: nothing wrong). */
  problem: string | null;
  children?: ComponentChildren;
}

/** The last error's words under the input they are about (on a phone the form's own error
 *  line is screens away from the field that takes the focus). */
export function FieldProblem(props: { id: string; text: string | null }): JSX.Element | null {
  if (!props.text) return null;
  return (
    // read as the input's description (aria-describedby), not as part of its label's name
    <span class="field-problem" id={`${props.id}-problem`} aria-hidden="true">
      {props.text}
    </span>
  );
}

/** An input's marks for its problem: `aria-invalid` and the `aria-describedby` of the words
 *  under it (none when nothing is wrong with it). */
export function problemMarks(
  id: string,
  problem: string | null,
): { "aria-invalid"?: "true"; "aria-describedby"?: string } {
  return problem ? { "aria-invalid": "true", "aria-describedby": `${id}-problem` } : {};
}

/** After a failed submit: the input the (first) problem is about takes the focus (and comes
 *  into sight, with its problem under it); an error about the form as a whole is scrolled
 *  to. */
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
        {...problemMarks(props.id, props.problem)}
        value={props.value}
        maxLength={props.maxLength}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        placeholder={props.placeholder}
        onInput={(e) => props.onValue((e.currentTarget as HTMLInputElement).value)}
      />
      <FieldProblem id={props.id} text={props.problem} />
      {props.children}
    </label>
  );
}
