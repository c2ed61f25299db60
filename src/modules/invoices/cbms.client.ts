// The IRD's Central Billing Monitoring System (CBMS) API: a bill goes to `{CBMS_URL}/api/bill`,
// a sales return to `{CBMS_URL}/api/billreturn`, as JSON with the fields and types of the IRD's
// published model; amounts in rupees (numbers with two decimals), dates BS `YYYY.MM.DD`.
// Reply codes: 200 success, 101 already sent, 100 wrong credentials, 102 (saving failed),
// 103 (unknown exception), 104 (model invalid) — the last three retried. The reply comes as the
// body (a bare number) or, for 104, also as HTTP 400 `{"message":"104"}`.
import type { TaxDocumentRow } from './invoices.repository';
import { cbmsFiscalYear } from './nepali-calendar';

export interface CbmsCredentials {
  url: string;
  username: string;
  password: string;
}

export type CbmsOutcome =
  | { kind: 'synced'; reply: string }
  | { kind: 'credentials'; reply: string }
  | { kind: 'retry'; reply: string };

const toRupees = (paisa: number) => Math.round(paisa) / 100;
const cbmsDate = (bsDate: string) => bsDate.replaceAll('-', '.');

export function cbmsPayload(
  doc: TaxDocumentRow,
  credentials: Pick<CbmsCredentials, 'username' | 'password'>,
  realtime: boolean,
  now: Date,
): { path: string; body: Record<string, unknown> } {
  const common = {
    username: credentials.username,
    password: credentials.password,
    seller_pan: doc.sellerPan ?? '',
    buyer_pan: doc.buyerPan ?? '',
    fiscal_year: cbmsFiscalYear(doc.fiscalYear),
    buyer_name: doc.buyerName,
    total_sales: toRupees(doc.totalAmount),
    taxable_sales_vat: toRupees(doc.taxableAmount),
    vat: toRupees(doc.vatAmount),
    excisable_amount: 0,
    excise: 0,
    taxable_sales_hst: 0,
    hst: 0,
    amount_for_esf: 0,
    esf: 0,
    export_sales: 0,
    tax_exempted_sales: toRupees(doc.exemptAmount),
    isrealtime: realtime,
    datetimeClient: now.toISOString(),
  };
  if (doc.kind === 'invoice') {
    return {
      path: '/api/bill',
      body: { ...common, invoice_number: doc.number, invoice_date: cbmsDate(doc.bsDate) },
    };
  }
  return {
    path: '/api/billreturn',
    body: {
      ...common,
      ref_invoice_number: doc.referenceNumber ?? '',
      credit_note_number: doc.number,
      credit_note_date: cbmsDate(doc.bsDate),
      reason_for_return: doc.reason ?? '',
    },
  };
}

/** The reply code in a CBMS answer: a bare number, a quoted one, or `{ "message": "104" }`. */
function replyCode(body: string): string {
  const trimmed = body.trim();
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed === 'number' || typeof parsed === 'string') return String(parsed).trim();
    if (parsed && typeof parsed === 'object' && 'message' in parsed) return String(parsed.message).trim();
  } catch {
    // not JSON: the text itself
  }
  return trimmed.slice(0, 200);
}

export async function postToCbms(
  credentials: CbmsCredentials,
  doc: TaxDocumentRow,
  realtime: boolean,
  now: Date,
): Promise<CbmsOutcome> {
  const { path, body } = cbmsPayload(doc, credentials, realtime, now);
  let status: number;
  let text: string;
  try {
    const res = await fetch(`${credentials.url.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    status = res.status;
    text = await res.text();
  } catch (error) {
    return { kind: 'retry', reply: `unreachable: ${(error as Error).message}`.slice(0, 200) };
  }
  const code = replyCode(text);
  if (code === '200' || code === '101') return { kind: 'synced', reply: code };
  if (code === '100') return { kind: 'credentials', reply: code };
  return { kind: 'retry', reply: ['102', '103', '104'].includes(code) ? code : `HTTP ${status}: ${code}` };
}
