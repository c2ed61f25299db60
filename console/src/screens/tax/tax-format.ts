// Tax documents' own figures and dates. Pure functions, unit-tested (test/console/tax.test.ts).
// - Amounts come in paisa and are shown as rupees with two decimals (as the printed invoice and
//   the registers show them), lakh grouping and Latin digits like every figure in the console.
// - The Bikram Sambat date is the document's own (`dateBs`, on Nepal time), not converted again.
// - Fiscal years are `2082/83`, from 1 Shrawan; register months are BS months 1–12 from Baisakh.
import { ADtoBS, MONTH_EN, MONTH_NP } from 'nepali-date-library';
import type { Language } from '../../lib/format';

const rupees = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const CURRENCY: Record<Language, string> = { en: 'NPR', ne: 'रु' };

/** 113000 paisa → "NPR 1,130.00" / "रु 1,130.00". */
export function formatPaisa(paisa: number, language: Language = 'en'): string {
  const sign = paisa < 0 ? '-' : '';
  return `${sign}${CURRENCY[language]} ${rupees.format(Math.abs(paisa) / 100)}`;
}

/** "2082-08-10" → "10 Mangsir 2082 BS" / "10 मंसिर 2082 वि.सं."; the text itself if malformed. */
export function formatBsYmd(dateBs: string, language: Language = 'en'): string {
  const [year, month, day] = dateBs.split('-').map(Number);
  if (!year || !month || !day || month > 12) return dateBs;
  return language === 'ne'
    ? `${day} ${MONTH_NP[month - 1]} ${year} वि.सं.`
    : `${day} ${MONTH_EN[month - 1]} ${year} BS`;
}

/** The BS month's name (1 = Baisakh). */
export function bsMonthName(month: number, language: Language = 'en'): string {
  return (language === 'ne' ? MONTH_NP : MONTH_EN)[month - 1] ?? String(month);
}

/**
 * The Nepali fiscal year a calendar day (Nepal's, `YYYY-MM-DD`) falls in: it starts on 1 Shrawan
 * (BS month 4). 2025-11-29 → "2082/83".
 */
export function fiscalYearOf(nepalDate: string): string {
  const [year, month] = ADtoBS(nepalDate).split('-').map(Number) as [number, number];
  const start = month >= 4 ? year : year - 1;
  return `${start}/${String((start + 1) % 100).padStart(2, '0')}`;
}

/** The fiscal years a register may be asked for: the current one and `count - 1` before it. */
export function recentFiscalYears(current: string, count: number): string[] {
  const start = Number(current.slice(0, 4));
  return Array.from({ length: count }, (_, i) => {
    const y = start - i;
    return `${y}/${String((y + 1) % 100).padStart(2, '0')}`;
  });
}

/** `YYYY/YY` with consecutive years, as the API checks it. */
export function isFiscalYear(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4})\/(\d{2})$/.exec(value);
  return match !== null && (Number(match[1]) + 1) % 100 === Number(match[2]);
}

/**
 * The rows of an RFC 4180 CSV (the registers': BOM, CRLF, quoted fields with doubled quotes).
 * A formula guard's leading apostrophe is kept: it is part of the value the API wrote.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** "1130.00" → 113000 paisa, exactly (no floating point). */
export function paisaOfRupees(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return 0;
  const paisa = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -paisa : paisa;
}

/** The sum of paisa as the register writes rupees: "1130.00". */
export function rupeesOfPaisa(paisa: number): string {
  const sign = paisa < 0 ? '-' : '';
  const abs = Math.abs(paisa);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
