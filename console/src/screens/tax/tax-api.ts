// The tax document routes the tax screens use (docs/api-notes.md, "Tax invoices in Nepal"),
// typed from the generated client:
//   GET  /api/admin/invoices, /api/admin/credit-notes             lists (fiscalYear, syncStatus, orderId, search)
//   GET  /api/admin/invoices/{id}, /api/admin/credit-notes/{id}   one document, figures in paisa
//   GET  …/{id}/pdf                                              a print: the original, then numbered copies
//   POST …/{id}/resync                                           send to CBMS again
//   GET  /api/admin/tax-reports/sales-register, …/sales-return-register   CSV of a fiscal year or BS month
import type { operations, PasalClient, paths } from '@pasal/client';
import { type Download, downloadOf } from '../../lib/downloads';

export type { Download } from '../../lib/downloads';
export { saveDownload } from '../../lib/save-download';

type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;

export type TaxDocument = Data<paths['/api/admin/invoices/{id}']['get']['responses'][200]>;
export type SyncStatus = TaxDocument['syncStatus'];
export type DocumentListQuery = NonNullable<operations['adminListInvoices']['parameters']['query']>;

/** Which series: the invoices or the credit notes. */
export type DocumentKind = 'invoice' | 'creditNote';

export const SYNC_STATUSES = [
  'pending',
  'failed',
  'synced',
  'not_required',
] as const satisfies readonly SyncStatus[];

/** The console's paths of a kind (under /admin). */
export const KIND_PATH: Record<DocumentKind, string> = {
  invoice: '/tax/invoices',
  creditNote: '/tax/credit-notes',
};

export function fetchDocuments(client: PasalClient, kind: DocumentKind, query: DocumentListQuery) {
  return kind === 'invoice'
    ? client.list('/api/admin/invoices', { params: { query } })
    : client.list('/api/admin/credit-notes', { params: { query } });
}

export function fetchDocument(client: PasalClient, kind: DocumentKind, id: number): Promise<TaxDocument> {
  const params = { params: { path: { id } } };
  return kind === 'invoice'
    ? client.get('/api/admin/invoices/{id}', params)
    : client.get('/api/admin/credit-notes/{id}', params);
}

export function resyncDocument(client: PasalClient, kind: DocumentKind, id: number): Promise<TaxDocument> {
  const params = { params: { path: { id } } };
  return kind === 'invoice'
    ? client.post('/api/admin/invoices/{id}/resync', params)
    : client.post('/api/admin/credit-notes/{id}/resync', params);
}

/** The order's document of a kind, if it has one (one invoice and one credit note per order). */
export async function documentOfOrder(
  client: PasalClient,
  kind: DocumentKind,
  orderId: number,
): Promise<TaxDocument | null> {
  const { data } = await fetchDocuments(client, kind, { orderId, page: 1, size: 1 });
  return data[0] ?? null;
}

/** A print of the document (counted by the API: the first is the original). */
export function fetchDocumentPdf(
  client: PasalClient,
  kind: DocumentKind,
  id: number,
  format: 'a4' | 'receipt80',
): Promise<Download> {
  const init = { params: { path: { id }, query: { format } }, parseAs: 'blob' as const };
  return downloadOf(
    kind === 'invoice'
      ? client.raw.GET('/api/admin/invoices/{id}/pdf', init)
      : client.raw.GET('/api/admin/credit-notes/{id}/pdf', init),
    `${kind}-${id}.pdf`,
  );
}

export type RegisterKind = 'sales' | 'salesReturn';

/** A register as the API's CSV (its file name is the one an accountant files). */
export function fetchRegister(
  client: PasalClient,
  kind: RegisterKind,
  fiscalYear: string,
  month: number | null,
): Promise<Download> {
  const init = {
    params: { query: { fiscalYear, ...(month ? { month } : {}) } },
    parseAs: 'blob' as const,
  };
  return downloadOf(
    kind === 'sales'
      ? client.raw.GET('/api/admin/tax-reports/sales-register', init)
      : client.raw.GET('/api/admin/tax-reports/sales-return-register', init),
    'register.csv',
  );
}
