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
  children?: ComponentChildren;
}

export function TextField(props: TextFieldProps): JSX.Element {
  return (
    <label>
      <span>{props.label}</span>
      <input
        id={props.id}
        aria-invalid={props.bad === props.id ? "true" : undefined}
        value={props.value}
        maxLength={props.maxLength}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        placeholder={props.placeholder}
        onInput={(e) => props.onValue((e.currentTarget as HTMLInputElement).value)}
      />
      {props.children}
    </label>
  );
}
