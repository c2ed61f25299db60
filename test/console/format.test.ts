// The console's formatters (console/src/lib/format.ts): pure functions, so they run here in
// Node with the API's tests rather than in a browser.
import { afterEach, describe, expect, it } from 'vitest';
import {
  bsDayOf,
  currentDigitStyle,
  formatBsDate,
  formatBsDateOf,
  formatBsMonthsOf,
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMoneyInText,
  formatMonthYear,
  formatShortDate,
  setDigitStyle,
  storeDateOf,
} from '../../console/src/lib/format';

describe('formatMoney: whole NPR with lakh and crore grouping', () => {
  it.each([
    [0, 'en', 'NPR 0'],
    [999, 'en', 'NPR 999'],
    [123456, 'en', 'NPR 1,23,456'],
    [12345678, 'en', 'NPR 1,23,45,678'],
    [-1500, 'en', '-NPR 1,500'],
    [999.6, 'en', 'NPR 1,000'],
    // Nepali keeps Latin digits and the same grouping (an e2e test looks for "1,23,456").
    [123456, 'ne', 'रु 1,23,456'],
  ] as const)('%d in %s is %s', (amount, language, expected) => {
    expect(formatMoney(amount, language)).toBe(expected);
  });

  it('groups counts the same way', () => {
    expect(formatCount(1234567)).toBe('12,34,567');
  });
});

describe("dates in the store's time zone", () => {
  it('takes the calendar day from the store zone, not UTC', () => {
    // 18:14 UTC is 23:59 in Kathmandu (UTC+05:45); 18:15 UTC is already the next day there.
    expect(storeDateOf('2025-11-26T18:14:00Z')).toBe('2025-11-26');
    expect(storeDateOf('2025-11-26T18:15:00Z')).toBe('2025-11-27');
    expect(storeDateOf('2025-11-26T18:15:00Z', 'UTC')).toBe('2025-11-26');
  });

  it('shows date and time in the store zone, 24-hour', () => {
    expect(formatDateTime('2025-11-26T09:20:00Z')).toBe('26 Nov 2025, 15:05');
    expect(formatDateTime('2025-11-26T09:20:00Z', { timeZone: 'UTC' })).toBe('26 Nov 2025, 09:20');
    // Nepali month names, Latin digits (the same in every browser: not left to Intl's locale data).
    expect(formatDateTime('2025-11-26T09:20:00Z', { language: 'ne' })).toBe('26 नोभेम्बर 2025, 15:05');
    // Just after midnight in Kathmandu is 00:xx, not 24:xx.
    expect(formatDateTime('2025-11-26T18:20:00Z')).toBe('27 Nov 2025, 00:05');
  });

  it('shows a calendar date without moving it across zones', () => {
    expect(formatDate('2025-11-26')).toBe('26 Nov 2025');
    expect(formatDate('2025-11-26', 'ne')).toBe('26 नोभेम्बर 2025');
    expect(formatDate('2026-01-05')).toBe('5 Jan 2026');
    expect(formatShortDate('2026-01-05')).toBe('5 Jan');
    expect(formatShortDate('2026-01-05', 'ne')).toBe('5 जनवरी');
  });
});

describe('Bikram Sambat dates', () => {
  it.each([
    ['2025-11-26', 'en', '10 Mangsir 2082 BS'],
    ['2025-11-26', 'ne', '10 मंसिर 2082 वि.सं.'],
    // New Year (1 Baisakh) 2083 falls on 14 April 2026; Chaitra 2082 has 30 days.
    ['2026-04-14', 'en', '1 Baisakh 2083 BS'],
    ['2026-04-13', 'en', '30 Chaitra 2082 BS'],
  ] as const)('%s in %s is %s', (date, language, expected) => {
    expect(formatBsDate(date, language)).toBe(expected);
  });

  it('gives no BS date outside the converter’s range rather than a wrong one', () => {
    expect(formatBsDate('1800-01-01')).toBeNull();
    expect(formatBsDate('not a date')).toBeNull();
  });

  it('takes the BS date of the store-local day of an instant', () => {
    expect(formatBsDateOf('2026-04-13T18:15:00Z')).toBe('1 Baisakh 2083 BS');
    expect(formatBsDateOf('2026-04-13T18:14:00Z')).toBe('30 Chaitra 2082 BS');
  });
});

describe('Devanagari digits (the language switch’s "नेपाली (०१२)")', () => {
  afterEach(() => setDigitStyle('latin'));

  it('writes every figure and date of Nepali with ०–९ once chosen; English keeps Latin digits', () => {
    setDigitStyle('devanagari');
    expect(formatCount(1234567)).toBe('१२,३४,५६७');
    expect(formatMoney(123456, 'ne')).toBe('रु १,२३,४५६');
    expect(formatMoney(123456, 'en')).toBe('NPR 1,23,456');
    expect(formatDate('2025-11-26', 'ne')).toBe('२६ नोभेम्बर २०२५');
    expect(formatDateTime('2025-11-26T09:20:00Z', { language: 'ne' })).toBe('२६ नोभेम्बर २०२५, १५:०५');
    expect(formatBsDate('2025-11-26', 'ne')).toBe('१० मंसिर २०८२ वि.सं.');
    expect(formatShortDate('2025-11-26', 'ne')).toBe('२६ नोभेम्बर');
    // A value, not text: the store's date stays as the API takes it.
    expect(storeDateOf('2025-11-26T09:20:00Z')).toBe('2025-11-26');
  });

  it('Latin digits by default', () => {
    expect(currentDigitStyle()).toBe('latin');
    expect(formatMoney(123456, 'ne')).toBe('रु 1,23,456');
  });
});

describe('amounts inside server-written sentences (activity summaries)', () => {
  it('shows "<n> NPR" as money in the language, leaves other figures alone', () => {
    expect(formatMoneyInText('Collected 12000 NPR cash on delivery for order ORD-1', 'en')).toBe(
      'Collected NPR 12,000 cash on delivery for order ORD-1',
    );
    expect(formatMoneyInText('Cancelled order ORD-2; refund of 123456 NPR pending', 'ne')).toBe(
      'Cancelled order ORD-2; refund of रु 1,23,456 pending',
    );
    expect(formatMoneyInText('Printed tax invoice HE-7 (copy 2)', 'en')).toBe(
      'Printed tax invoice HE-7 (copy 2)',
    );
  });
});

describe("a date picker's calendar: Gregorian month with its Bikram Sambat days", () => {
  it('names the month and the BS months it spans, in both languages', () => {
    expect(formatMonthYear('2025-11-26', 'en')).toBe('Nov 2025');
    expect(formatMonthYear('2025-11-01', 'ne')).toBe('नोभेम्बर 2025');
    // 1 Nov 2025 is 15 Kartik 2082; 30 Nov 2025 is 14 Mangsir 2082.
    expect(formatBsMonthsOf('2025-11-10', 'en')).toBe('Kartik–Mangsir 2082 BS');
    expect(formatBsMonthsOf('2025-11-10', 'ne')).toMatch(/^कार्तिक–मंसिर 2082 वि\.सं\.$/);
    // April crosses the BS new year (1 Baisakh, mid-April).
    expect(formatBsMonthsOf('2026-04-20', 'en')).toBe('Chaitra 2082 – Baisakh 2083 BS');
  });

  it('gives each day its BS day of the month', () => {
    expect(bsDayOf('2025-11-26')).toBe(10);
    expect(bsDayOf('1800-01-01')).toBeNull();
  });
});
