// A report's rows as a CSV file the browser downloads: UTF-8 with a BOM (so spreadsheet programs
// read Devanagari), CRLF, RFC 4180 quoting, and a leading apostrophe before what a spreadsheet
// would run as a formula (as the API's own exports do).
import { saveDownload } from '../../lib/save-download';

function cell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvOf(header: string[], rows: (string | number)[][]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

export function downloadCsv(fileName: string, header: string[], rows: (string | number)[][]): void {
  saveDownload({ blob: new Blob([csvOf(header, rows)], { type: 'text/csv;charset=utf-8' }), fileName });
}
