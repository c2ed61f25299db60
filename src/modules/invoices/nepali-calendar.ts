// Bikram Sambat dates and the Nepali fiscal year (1 Shrawan to the end of Asar), from the
// nepali-date-library package's month tables (to 2100 BS), not a table of our own. The package
// converts on Nepal time (UTC+05:45) whatever the server's zone, which is the date a Nepali tax
// document carries.
import { lazyPackage } from '../../platform/lazy';

const library = lazyPackage<typeof import('nepali-date-library')>('nepali-date-library');

export interface BsDate {
  year: number;
  /** 1 (Baisakh) to 12 (Chaitra). */
  month: number;
  day: number;
}

export function bsDateOf(at: Date): BsDate {
  const d = new (library().NepaliDate)(at);
  return { year: d.getYear(), month: d.getMonth() + 1, day: d.getDate() };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2082-08-10`. */
export const formatBsDate = (d: BsDate, separator = '-') =>
  [String(d.year), pad(d.month), pad(d.day)].join(separator);

/** Shrawan is the 4th month: the fiscal year that starts then is named by that BS year. */
const SHRAWAN = 4;

/** `2082/83` for any date from 1 Shrawan 2082 to the end of Asar 2083. */
export function fiscalYearOf(at: Date): string {
  const { year, month } = bsDateOf(at);
  const start = month >= SHRAWAN ? year : year - 1;
  return `${start}/${pad((start + 1) % 100)}`;
}

/** The IRD's own form of a fiscal year, as CBMS takes it: `2082/83` → `2082.083`. */
export function cbmsFiscalYear(fiscalYear: string): string {
  const [start, end] = fiscalYear.split('/');
  return `${start}.${end!.padStart(3, '0')}`;
}

/** The UTC instants [from, to) of a fiscal year, or of one BS month (1–12) of it. */
export function fiscalPeriod(fiscalYear: string, month?: number): { from: Date; to: Date } {
  const start = Number(fiscalYear.split('/')[0]);
  const { NepaliDate } = library();
  // BS month m of the fiscal year: Shrawan–Chaitra in the first BS year, Baisakh–Asar in the next.
  const yearOf = (m: number) => (m >= SHRAWAN ? start : start + 1);
  const instant = (y: number, m: number) => {
    // Midnight in Nepal (UTC+05:45) of the 1st of BS month m.
    const ad = new NepaliDate(y, m - 1, 1).getEnglishDate();
    return new Date(Date.UTC(ad.getUTCFullYear(), ad.getUTCMonth(), ad.getUTCDate()) - 20_700_000);
  };
  if (month === undefined) return { from: instant(start, SHRAWAN), to: instant(start + 1, SHRAWAN) };
  const next = month === 12 ? { y: yearOf(12) + 1, m: 1 } : { y: yearOf(month), m: month + 1 };
  return { from: instant(yearOf(month), month), to: instant(next.y, next.m) };
}
