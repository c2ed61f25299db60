// How the console shows money, counts and dates. Pure functions (no React, no DOM), so they are
// unit-tested in Node (test/console/format.test.ts) and usable from any screen.
//
// Choices (console/README.md, "Formatting"):
// - Money is whole NPR with South Asian grouping (1,23,456; 1,23,45,678) in both languages, with
//   Latin digits in Nepali too by default: staff copy figures into spreadsheets and bank forms
//   that expect them, and a figure reads the same whichever language a colleague picked. An admin
//   may choose Devanagari digits (०–९) for Nepali (the language switch's "नेपाली (०१२)"): then
//   every figure and date below is written with them. That choice is the one piece of state
//   here (`setDigitStyle`), set by the switch; `storeDateOf` stays Latin (it is a value, not text).
// - Dates and times are those of the store's time zone (the API's `timeZone`, default
//   Asia/Kathmandu), never the browser's: a shop's "today" is the same on every laptop.
// - The Bikram Sambat date goes beside the Gregorian one, month names in the chosen language.
import { ADtoBS, MONTH_EN, MONTH_NP } from 'nepali-date-library';

export type Language = 'en' | 'ne';

export const DEFAULT_TIME_ZONE = 'Asia/Kathmandu';

export type DigitStyle = 'latin' | 'devanagari';

let digitStyle: DigitStyle = 'latin';

/** Devanagari digits for what follows (the console in Nepali with that choice), or Latin ones. */
export function setDigitStyle(style: DigitStyle): void {
  digitStyle = style;
}

export function currentDigitStyle(): DigitStyle {
  return digitStyle;
}

const DEVANAGARI_DIGITS = '०१२३४५६७८९';

/** `text` with its digits in the chosen style; English (`language: 'en'`) keeps Latin ones. */
export function localDigits(text: string, language?: Language): string {
  if (digitStyle === 'latin' || language === 'en') return text;
  return text.replace(/[0-9]/g, (digit) => DEVANAGARI_DIGITS[Number(digit)]!);
}

const grouping = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });

/** A count with lakh/crore grouping: 123456 → "1,23,456" (or "१,२३,४५६"). */
export function formatCount(value: number): string {
  return localDigits(grouping.format(value));
}

const CURRENCY: Record<Language, string> = { en: 'NPR', ne: 'रु' };

/** Whole NPR: 123456 → "NPR 1,23,456" (English), "रु 1,23,456" (Nepali). */
export function formatMoney(amount: number, language: Language = 'en'): string {
  const sign = amount < 0 ? '-' : '';
  return localDigits(
    `${sign}${CURRENCY[language]} ${grouping.format(Math.abs(Math.round(amount)))}`,
    language,
  );
}

// Gregorian month names in Nepali, written here rather than asked of Intl: browsers ship
// uneven Nepali locale data (Chromium formats `ne` dates as US English), and the console must
// read the same everywhere.
const AD_MONTHS_NE = [
  'जनवरी',
  'फेब्रुअरी',
  'मार्च',
  'अप्रिल',
  'मे',
  'जुन',
  'जुलाई',
  'अगस्ट',
  'सेप्टेम्बर',
  'अक्टोबर',
  'नोभेम्बर',
  'डिसेम्बर',
];

function toDate(value: Date | string): Date {
  return typeof value === 'string' ? new Date(value) : value;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The calendar date and clock time of an instant in `timeZone`. */
function wallClock(value: Date, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(value);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar date ("2025-11-26") an instant falls on in `timeZone`. */
export function storeDateOf(value: Date | string, timeZone: string = DEFAULT_TIME_ZONE): string {
  const { year, month, day } = wallClock(toDate(value), timeZone);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** An instant as a date and time in the store's zone: "26 Nov 2025, 15:05" / "26 नोभेम्बर 2025, 15:05". */
export function formatDateTime(
  value: Date | string,
  opts: { timeZone?: string; language?: Language } = {},
): string {
  const at = wallClock(toDate(value), opts.timeZone ?? DEFAULT_TIME_ZONE);
  const language = opts.language ?? 'en';
  return localDigits(
    `${dayMonthYear(at.year, at.month, at.day, language)}, ${pad(at.hour)}:${pad(at.minute)}`,
    language,
  );
}

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function dayMonth(month: number, day: number, language: Language): string {
  return `${day} ${(language === 'ne' ? AD_MONTHS_NE : EN_MONTHS)[month - 1]}`;
}

function dayMonthYear(year: number, month: number, day: number, language: Language): string {
  return `${dayMonth(month, day, language)} ${year}`;
}

function calendarParts(date: string): [number, number, number] {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return [year, month, day];
}

/**
 * A calendar date ("2025-11-26", already the store's date, as the API's date-only fields are):
 * "26 Nov 2025" / "26 नोभेम्बर 2025".
 */
export function formatDate(date: string, language: Language = 'en'): string {
  return localDigits(dayMonthYear(...calendarParts(date), language), language);
}

/**
 * The Bikram Sambat form of a calendar date ("2025-11-26"):
 * "10 Mangsir 2082 BS" / "10 मंसिर 2082 वि.सं.". Null outside the converter's range (about
 * 1943–2043 AD), where no BS date is shown rather than a wrong one.
 */
export function formatBsDate(date: string, language: Language = 'en'): string | null {
  const parts = bsParts(date);
  if (!parts) return null;
  const [year, month, day] = parts;
  return language === 'ne'
    ? localDigits(`${day} ${MONTH_NP[month - 1]} ${year} वि.सं.`, language)
    : `${day} ${MONTH_EN[month - 1]} ${year} BS`;
}

/** The BS date of the day an instant falls on in the store's zone. */
export function formatBsDateOf(
  value: Date | string,
  opts: { timeZone?: string; language?: Language } = {},
): string | null {
  return formatBsDate(storeDateOf(value, opts.timeZone), opts.language);
}

/** A short day label for chart axes: "26 Nov" / "26 नोभेम्बर". */
export function formatShortDate(date: string, language: Language = 'en'): string {
  const [, month, day] = calendarParts(date);
  return localDigits(dayMonth(month, day, language), language);
}

/**
 * Amounts the server wrote into a sentence as "<digits> NPR" (activity summaries are stored
 * English text) shown as money everywhere else is: "Collected 12000 NPR" → "Collected NPR 12,000"
 * / "Collected रु 12,000".
 */
export function formatMoneyInText(text: string, language: Language = 'en'): string {
  return text.replace(/(-?\d+) NPR\b/g, (_, digits: string) => formatMoney(Number(digits), language));
}

/** A month's label for a calendar's header: "Nov 2025" / "नोभेम्बर 2025" (`date` is any day of it). */
export function formatMonthYear(date: string, language: Language = 'en'): string {
  const [year, month] = calendarParts(date);
  return `${(language === 'ne' ? AD_MONTHS_NE : EN_MONTHS)[month - 1]} ${year}`;
}

/** A calendar date's Bikram Sambat year, month and day; null outside the converter's range. */
function bsParts(date: string): [number, number, number] | null {
  try {
    const [year, month, day] = ADtoBS(date).split('-').map(Number) as [number, number, number];
    return year && month && day ? [year, month, day] : null;
  } catch {
    return null;
  }
}

/** The Bikram Sambat day of the month of a calendar date (for a calendar's cells), or null. */
export function bsDayOf(date: string): number | null {
  return bsParts(date)?.[2] ?? null;
}

/**
 * The Bikram Sambat months a Gregorian month overlaps (`date` is any day of it):
 * "Kartik–Mangsir 2082 BS", "Poush 2082 – Magh 2082 BS" across a BS year only when the year changes.
 */
export function formatBsMonthsOf(date: string, language: Language = 'en'): string | null {
  const [year, month] = calendarParts(date);
  const first = bsParts(`${year}-${pad(month)}-01`);
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = bsParts(`${year}-${pad(month)}-${pad(lastDay)}`);
  if (!first || !last) return null;
  const names = language === 'ne' ? MONTH_NP : MONTH_EN;
  const era = language === 'ne' ? 'वि.सं.' : 'BS';
  const from = names[first[1] - 1];
  const to = names[last[1] - 1];
  if (first[0] !== last[0]) return `${from} ${first[0]} – ${to} ${last[0]} ${era}`;
  return first[1] === last[1] ? `${from} ${first[0]} ${era}` : `${from}–${to} ${first[0]} ${era}`;
}
