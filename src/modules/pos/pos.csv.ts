// CSV the way spreadsheets read it (RFC 4180): fields with a comma, a quote, a line break or
// edge spaces are quoted with inner quotes doubled; lines end in CRLF; the file starts with a
// UTF-8 byte-order mark so Excel reads Devanagari names as UTF-8 rather than a legacy code page.
// A text cell starting with = + - @ (or a tab or CR) gets a leading apostrophe, so a customer
// named "=HYPERLINK(…)" is shown as text, never run as a formula.

const BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRow = (fields: Array<string | number | null | undefined>) =>
  `${fields.map(csvField).join(',')}\r\n`;

/** The byte-order mark and the header line. */
export const csvDocumentStart = (columns: string[]) => BOM + csvRow(columns);
