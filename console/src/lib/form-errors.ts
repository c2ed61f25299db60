// The form helper: a failed submit's error shown where it belongs. Each `details` entry of a
// `VALIDATION_ERROR` goes next to the input it names (pass `errors.of('email')` to the input's
// `error` prop); anything no input of this form shows goes to the form's own message
// (`errors.formError`, shown with <FormError>). A 403 is left to the console-wide notification.
import { type ChangeEvent, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, fieldErrorsOf, isPasalError, isRefused } from './api-errors';

export interface FormErrors {
  /** The API's message for one input, or undefined. */
  of(field: string): string | undefined;
  /** The message about the form as a whole (not about one input), or null. */
  formError: string | null;
  /** Call in the submit's catch (or a mutation's onError) with what it threw. */
  show(error: unknown): void;
  /** Forget one input's error (as the admin edits it) or, without a name, every error. */
  clear(field?: string): void;
}

/**
 * `fields` are the paths this form has inputs for, as the API names them (`title`, `mrp`,
 * `address.city`). A detail about another path still reaches the admin, in the form message.
 */
export function useFormErrors(fields: readonly string[]): FormErrors {
  const { t } = useTranslation();
  const [byField, setByField] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // Keyed by the names, so an inline array literal does not make a new set every render.
  const names = fields.join('\n');
  const known = useMemo(() => new Set(names.split('\n')), [names]);

  const show = useCallback(
    (error: unknown) => {
      if (isRefused(error)) {
        setByField({});
        setFormError(null);
        return;
      }
      const all = fieldErrorsOf(error);
      const placed: Record<string, string> = {};
      const elsewhere: string[] = [];
      for (const [path, message] of Object.entries(all)) {
        if (known.has(path)) placed[path] = message;
        else elsewhere.push(`${path}: ${message}`);
      }
      setByField(placed);
      if (isPasalError(error, 'VALIDATION_ERROR')) {
        const placedAny = Object.keys(placed).length > 0;
        setFormError(
          elsewhere.length > 0
            ? `${t('common:errors.checkFields')} ${elsewhere.join('; ')}`
            : placedAny
              ? null
              : describeError(error, t),
        );
      } else {
        setFormError(describeError(error, t));
      }
    },
    [known, t],
  );

  const clear = useCallback((field?: string) => {
    if (field === undefined) {
      setByField({});
      setFormError(null);
      return;
    }
    setByField((current) => {
      if (!(field in current)) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  }, []);

  return { of: (field) => byField[field], formError, show, clear };
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

/** textField for the inputs that hand over the value itself (NumberInput, Select, a money input). */
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
