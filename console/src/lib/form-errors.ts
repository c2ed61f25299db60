// The form helper: a failed submit's error shown where it belongs, in the admin's language.
// Each `details` entry of a `VALIDATION_ERROR` carries a stable `code` and its parameters
// (docs/api-notes.md, "Validation details"); it goes next to the input it names, worded from the
// code with the field's own label (pass `errors.of('email')` to the input's `error` prop).
// Anything no input of this form shows goes to the form's own message (`errors.formError`,
// shown with <FormError>). A 403 is left to the console-wide notification. `errors.check` runs
// the same rules in the browser before a request is sent, so most mistakes never reach the API.
import { type ChangeEvent, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, type FieldProblem, fieldProblemsOf, isRefused } from './api-errors';
import { describeProblem } from './field-problems';

export { describeProblem, fieldRules } from './field-problems';
export type { FieldProblem };

export interface FormErrors {
  /** The message for one input, in the admin's language, or undefined. */
  of(field: string): string | undefined;
  /** The message about the form as a whole (not about one input), or null. */
  formError: string | null;
  /** Call in the submit's catch (or a mutation's onError) with what it threw. */
  show(error: unknown): void;
  /**
   * The browser's own check before sending: each field's problem (or null) by the rules below.
   * Shows them and answers true when there is none, so the caller sends the request.
   */
  check(problems: Readonly<Record<string, FieldProblem | null | undefined>>): boolean;
  /** Forget one input's error (as the admin edits it) or, without a name, every error. */
  clear(field?: string): void;
}

interface Shown {
  byField: Record<string, FieldProblem>;
  elsewhere: [string, FieldProblem][];
  /** A failure that is not about fields (a business refusal, the network). */
  other: unknown;
}

const NOTHING: Shown = { byField: {}, elsewhere: [], other: null };

/**
 * `fields` are the paths this form has inputs for, as the API names them (`title`, `mrp`,
 * `address.city`), or those paths mapped to their inputs' labels (which the messages name). A
 * detail about another path still reaches the admin, in the form message.
 */
export function useFormErrors(fields: readonly string[] | Readonly<Record<string, string>>): FormErrors {
  const { t } = useTranslation();
  const [shown, setShown] = useState<Shown>(NOTHING);
  const labels: Readonly<Record<string, string>> = Array.isArray(fields)
    ? {}
    : (fields as Readonly<Record<string, string>>);
  // Keyed by the names, so an inline array literal does not make a new set every render.
  const names = (Array.isArray(fields) ? fields : Object.keys(fields)).join('\n');
  const known = useMemo(() => new Set(names.split('\n')), [names]);

  const place = useCallback(
    (problems: Readonly<Record<string, FieldProblem | null | undefined>>, other: unknown): boolean => {
      const byField: Record<string, FieldProblem> = {};
      const elsewhere: [string, FieldProblem][] = [];
      for (const [path, problem] of Object.entries(problems)) {
        if (!problem) continue;
        if (known.has(path)) byField[path] = problem;
        else elsewhere.push([path, problem]);
      }
      const any = Object.keys(byField).length > 0 || elsewhere.length > 0;
      setShown(any || other ? { byField, elsewhere, other: any ? null : other } : NOTHING);
      return !any;
    },
    [known],
  );

  const show = useCallback(
    (error: unknown) => {
      if (isRefused(error)) place({}, null);
      else place(fieldProblemsOf(error), error);
    },
    [place],
  );

  const check = useCallback(
    (problems: Readonly<Record<string, FieldProblem | null | undefined>>) => place(problems, null),
    [place],
  );

  const clear = useCallback((field?: string) => {
    if (field === undefined) {
      setShown(NOTHING);
      return;
    }
    setShown((current) => {
      if (!(field in current.byField)) return current;
      const { [field]: _cleared, ...rest } = current.byField;
      return { ...current, byField: rest };
    });
  }, []);

  let formError: string | null = null;
  if (shown.elsewhere.length > 0) {
    const listed = shown.elsewhere.map(([path, problem]) =>
      describeProblem(problem, labels[path] ?? path, t),
    );
    formError = `${t('common:errors.checkFields')} ${listed.join(' ')}`;
  } else if (shown.other && Object.keys(shown.byField).length === 0) {
    formError = describeError(shown.other, t);
  }

  return {
    of: (field) => {
      const problem = shown.byField[field];
      return problem ? describeProblem(problem, labels[field], t) : undefined;
    },
    formError,
    show,
    check,
    clear,
  };
}

/**
 * The props of a text input (TextInput, Textarea) for one field of a form: it shows `value`,
 * typing sets it and forgets the field's error, the error shows under it.
 * `<TextInput label=… {...textField(errors, 'name', name, setName)} />`
 */
export function textField(
  errors: Pick<FormErrors, 'of' | 'clear'>,
  field: string,
  value: string,
  set: (value: string) => void,
) {
  return {
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      set(event.currentTarget.value);
      errors.clear(field);
    },
    error: errors.of(field),
  };
}

/** textField for the inputs that hand over the value itself (Select, a whole-number input). */
export function valueField<Value>(
  errors: Pick<FormErrors, 'of' | 'clear'>,
  field: string,
  value: Value,
  set: (value: Value) => void,
) {
  return {
    value,
    onChange: (next: Value) => {
      set(next);
      errors.clear(field);
    },
    error: errors.of(field),
  };
}
