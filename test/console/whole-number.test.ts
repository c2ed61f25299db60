// Money and quantity inputs (console/src/lib/whole-number.ts) and the words of a field problem
// (describeProblem in console/src/lib/form-errors.ts): issue 27, items 1 and 4.
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { describeProblem, fieldRules } from '../../console/src/lib/field-problems';
import { groupedText, wholeNumberOf, wholeNumberProblem } from '../../console/src/lib/whole-number';
import en from '../../console/src/locales/en.json';

describe('whole numbers', () => {
  it('refuses a decimal point instead of dropping it', () => {
    for (const text of ['99.50', '150.75', '2.5', '.5', '1,25,000.50']) {
      expect(wholeNumberProblem(text), text).toEqual({ code: 'decimal_point' });
      expect(wholeNumberOf(text), text).toBeUndefined();
    }
  });

  it('refuses a minus sign where the value cannot be negative, takes it where it can', () => {
    expect(wholeNumberProblem('-500')).toEqual({ code: 'minus_sign' });
    expect(wholeNumberProblem('-500', { allowNegative: true })).toBeNull();
    expect(wholeNumberOf('-500')).toBe(-500);
  });

  it('names any other character', () => {
    expect(wholeNumberProblem('99a')).toEqual({ code: 'not_digit', character: 'a' });
    expect(wholeNumberProblem('5-3', { allowNegative: true })).toEqual({ code: 'not_digit', character: '-' });
    expect(wholeNumberProblem('99,50')).toEqual({ code: 'not_digit', character: ',' });
  });

  it('takes digits, Devanagari digits and digit groups as they are written', () => {
    expect(wholeNumberOf('9950')).toBe(9950);
    expect(wholeNumberOf('१२५')).toBe(125);
    expect(wholeNumberOf('1,25,000')).toBe(125000);
    expect(wholeNumberOf('125,000')).toBe(125000);
    expect(wholeNumberOf('')).toBeUndefined();
    expect(groupedText('125000')).toBe('1,25,000');
    expect(groupedText('99.50')).toBe('99.50');
  });

  it('checks the limits with the API’s codes', () => {
    expect(fieldRules.whole('', { required: true })).toEqual({ code: 'required' });
    expect(fieldRules.whole('0', { minimum: 1 })).toEqual({
      code: 'too_small',
      origin: 'number',
      minimum: 1,
    });
    expect(fieldRules.whole('121', { maximum: 120 })).toEqual({
      code: 'too_big',
      origin: 'number',
      maximum: 120,
    });
    expect(fieldRules.notAbove('700', '500', 'sp_above_mrp')).toEqual({ code: 'sp_above_mrp' });
    expect(fieldRules.notAbove('', '500', 'sp_above_mrp')).toBeNull();
    expect(fieldRules.text('  ', { required: true })).toEqual({
      code: 'too_small',
      origin: 'string',
      minimum: 1,
    });
  });
});

describe('describeProblem', () => {
  // i18next's interpolation over the English common strings.
  const strings = en.fieldCodes as Record<string, string>;
  const t = ((key: string, options: Record<string, string> = {}) => {
    const template = strings[key.replace('common:fieldCodes.', '')];
    if (template === undefined) return options.defaultValue ?? key;
    return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => options[name] ?? '');
  }) as unknown as TFunction;

  it('words each code with the field’s label, never the API’s English', () => {
    expect(describeProblem({ code: 'too_small', origin: 'string', minimum: 1 }, 'Product name', t)).toBe(
      'Product name must not be empty.',
    );
    expect(describeProblem({ code: 'too_big', origin: 'number', maximum: 1000000 }, 'Shipping fee', t)).toBe(
      'Shipping fee must be at most 10,00,000.',
    );
    expect(
      describeProblem({ code: 'sp_above_mrp', message: 'sp must not be above mrp' }, 'Selling price', t),
    ).toBe('Selling price must not be above the MRP.');
    expect(describeProblem({ code: 'invalid_format', format: 'email' }, 'Email', t)).toMatch(
      /^Email is not an email/,
    );
    expect(describeProblem({ code: 'required' }, undefined, t)).toBe('This value is required.');
    expect(describeProblem({ code: 'something_new', message: 'raw' }, 'Title', t)).toBe(
      'Title is not valid.',
    );
  });
});
