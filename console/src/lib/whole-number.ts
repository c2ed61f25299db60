// Whole numbers as staff type them (issue 27, item 1): money is whole NPR and quantities are
// whole units, so the text of a money or quantity input is taken only when it is digits. A
// decimal point, a minus sign where the value cannot be negative, or any other character is a
// problem shown under the input, never reinterpreted ("99.50" is not 9950). Pure functions, so
// test/console/whole-number.test.ts runs them in Node.
import type { FieldProblem } from './api-errors';

export interface WholeNumberRules {
  /** A leading minus sign is taken (a stock change); otherwise it is refused. */
  allowNegative?: boolean;
  minimum?: number;
  maximum?: number;
}

const DEVANAGARI_ZERO = 0x0966;

/** Devanagari digits (०–९) as Latin ones: they are the same digits, typed on a Nepali keyboard. */
function latinDigits(text: string): string {
  return text.replace(/[०-९]/g, (digit) => String(digit.charCodeAt(0) - DEVANAGARI_ZERO));
}

/** A comma is a digit-group mark only where lakh (1,23,456) or thousands (123,456) grouping puts it. */
const GROUPED = /^\d{1,2}(,\d{2})*,\d{3}$|^\d{1,3}(,\d{3})+$/;

/** The text as a sign and digits, or the first character that keeps it from being one. */
function parse(text: string): { negative: boolean; digits: string } | { bad: string } {
  const trimmed = latinDigits(text.trim());
  const negative = trimmed.startsWith('-');
  const body = negative ? trimmed.slice(1) : trimmed;
  if (/^\d*$/.test(body)) return { negative, digits: body };
  if (GROUPED.test(body)) return { negative, digits: body.replaceAll(',', '') };
  // A decimal point anywhere is the mistake to name, whatever else is there.
  if (body.includes('.')) return { bad: '.' };
  const bad = [...body].find((char) => !/\d/.test(char)) ?? body;
  return { bad };
}

/** What is wrong with the text of a whole-number input, or null (an empty text is not a problem here). */
export function wholeNumberProblem(text: string, rules: WholeNumberRules = {}): FieldProblem | null {
  const parsed = parse(text);
  if ('bad' in parsed) {
    if (parsed.bad === '.' || parsed.bad === '٫') return { code: 'decimal_point' };
    return { code: 'not_digit', character: parsed.bad };
  }
  if (parsed.negative && !rules.allowNegative) return { code: 'minus_sign' };
  if (parsed.digits === '') return parsed.negative ? { code: 'not_digit', character: '-' } : null;
  const value = (parsed.negative ? -1 : 1) * Number(parsed.digits);
  if (!Number.isSafeInteger(value)) return { code: 'too_big', origin: 'number', maximum: rules.maximum };
  if (rules.minimum !== undefined && value < rules.minimum) {
    return { code: 'too_small', origin: 'number', minimum: rules.minimum };
  }
  if (rules.maximum !== undefined && value > rules.maximum) {
    return { code: 'too_big', origin: 'number', maximum: rules.maximum };
  }
  return null;
}

/** The number the text holds, or undefined when it is empty or not a whole number. */
export function wholeNumberOf(text: string): number | undefined {
  const parsed = parse(text);
  if ('bad' in parsed || parsed.digits === '') return undefined;
  const value = (parsed.negative ? -1 : 1) * Number(parsed.digits);
  return Number.isSafeInteger(value) ? value : undefined;
}

const grouping = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0, useGrouping: true });

/** A whole number's text with lakh grouping (125000 → "1,25,000"); other text as it is. */
export function groupedText(text: string): string {
  const value = wholeNumberOf(text);
  return value === undefined ? text : grouping.format(value);
}

/** A stored number as the text of its input ("" for none). */
export function wholeNumberText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : grouping.format(value);
}
