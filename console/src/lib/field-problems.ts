// The words of a field's problem (the API's `details` code, or the browser's own check of the
// same rule) in the admin's language, and the rules the forms check before sending. Pure (no
// React, no DOM), so test/console/whole-number.test.ts runs it in Node.
import type { TFunction } from 'i18next';
import type { FieldProblem } from './api-errors';
import { formatCount } from './format';
import { type WholeNumberRules, wholeNumberOf, wholeNumberProblem } from './whole-number';

/** Which message key words a problem, by its code and what it was about (`origin`). */
function messageKey(problem: FieldProblem): string {
  const origin = typeof problem.origin === 'string' ? problem.origin : '';
  const listy = origin === 'array' || origin === 'set' || origin === 'map';
  switch (problem.code) {
    case 'too_small':
      if (origin === 'string') return problem.minimum === 1 ? 'empty' : 'too_short';
      return listy ? 'too_few' : 'too_small';
    case 'too_big':
      if (origin === 'string') return 'too_long';
      if (listy) return 'too_many';
      return problem.maximum === undefined ? 'too_big_any' : 'too_big';
    case 'invalid_type':
      if (problem.expected === 'number') return 'not_number';
      if (problem.expected === 'int') return 'not_whole';
      return 'invalid_type';
    case 'invalid_format':
      if (problem.format === 'email') return 'email';
      if (problem.format === 'url') return 'url';
      return 'invalid_format';
    default:
      return problem.code;
  }
}

const figure = (value: unknown) => (typeof value === 'number' ? formatCount(value) : String(value ?? ''));

/**
 * One problem of one field in the admin's language, with the field's own label ("MRP must be at
 * least 0."). A code the console has no words for reads as "… is not valid.", never the API's
 * English.
 */
export function describeProblem(problem: FieldProblem, label: string | undefined, t: TFunction): string {
  const name = label ?? t('common:fieldCodes.thisValue');
  const values = {
    label: name,
    minimum: figure(problem.minimum),
    maximum: figure(problem.maximum),
    character: String(problem.character ?? ''),
  };
  return t(`common:fieldCodes.${messageKey(problem)}`, {
    ...values,
    defaultValue: t('common:fieldCodes.invalid', values),
  });
}

/** The browser's checks, with the API's codes, for the rules a form repeats before sending. */
export const fieldRules = {
  /** A text input: required (not blank after trimming), at most `maximum` characters. */
  text(value: string, rules: { required?: boolean; maximum?: number } = {}): FieldProblem | null {
    const trimmed = value.trim();
    if (rules.required && trimmed === '') return { code: 'too_small', origin: 'string', minimum: 1 };
    if (rules.maximum !== undefined && trimmed.length > rules.maximum) {
      return { code: 'too_big', origin: 'string', maximum: rules.maximum };
    }
    return null;
  },
  /**
   * An e-mail address (trimmed): required, and name@domain.tld as the API's check wants it. The
   * browser's own bubble ("Please include an '@'…") speaks the browser's language, not the admin's.
   */
  email(value: string, rules: { required?: boolean } = {}): FieldProblem | null {
    const trimmed = value.trim();
    if (trimmed === '') return rules.required ? { code: 'too_small', origin: 'string', minimum: 1 } : null;
    return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) ? null : { code: 'invalid_format', format: 'email' };
  },
  /** A whole-number input (money, a quantity): digits only, within the API's limits. */
  whole(text: string, rules: WholeNumberRules & { required?: boolean } = {}): FieldProblem | null {
    if (text.trim() === '') return rules.required ? { code: 'required' } : null;
    return wholeNumberProblem(text, rules);
  },
  /** A selling price above the MRP (both whole-number texts; an empty price is 0). */
  notAbove(text: string, limitText: string, code: string): FieldProblem | null {
    const value = wholeNumberOf(text);
    const limit = wholeNumberOf(limitText);
    return value !== undefined && limit !== undefined && value > limit ? { code } : null;
  },
};
