// Issuing tax invoices and credit notes inside the transaction that makes them due (called by
// the orders module's in-transaction hooks), and reading them for the back office and the
// customer. Figures, numbers and dates are fixed at issue; the database refuses to change them.
import type { Config } from '../../config';
import type { Cache } from '../../platform/cache/cache';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { publishEvent } from '../../platform/events/events';
import { httpErrors } from '../../platform/http/errors';
import { type PageMeta, pageMeta, pageWindow } from '../../platform/http/pagination';
import { recordActivity } from '../activity';
import { findUserCard } from '../identity';
import { findOrderLink, type OrderDocumentEvent } from '../orders';
import { invoiceErrors } from './invoices.errors';
import { type PdfFormat, renderTaxDocument } from './invoices.pdf';
import * as repo from './invoices.repository';
import type { DocumentListQuery, TaxDocumentView } from './invoices.schemas';
import type { TaxDocumentKind } from './invoices.table';
import { bsDateOf, fiscalYearOf, formatBsDate } from './nepali-calendar';
import { taxFigures } from './tax-figures';

export type InvoiceConfig = Pick<
  Config,
  | 'TAX_INVOICES_ENABLED'
  | 'STORE_NAME'
  | 'SELLER_NAME'
  | 'SELLER_ADDRESS'
  | 'SELLER_PAN'
  | 'VAT_RATE_PERCENT'
  | 'PRICES_INCLUDE_VAT'
  | 'INVOICE_NUMBER_PREFIX'
  | 'CREDIT_NOTE_NUMBER_PREFIX'
  | 'INVOICE_ABBREVIATED_MAX_NPR'
  | 'CBMS_URL'
  | 'STORE_TIMEZONE'
>;

export interface InvoiceDeps {
  db: Db;
  clock: Clock;
  config: InvoiceConfig;
  /** Queues the CBMS post of a document after its transaction commits. */
  queueSync(afterCommit: AfterCommit, documentId: number): void;
}

export const KIND_WORDS: Record<TaxDocumentKind, string> = {
  invoice: 'tax invoice',
  credit_note: 'credit note',
};

const PAYMENT_WORDS: Record<string, string> = {
  online: 'Online payment',
  cod: 'Cash on delivery',
  pos: 'In store',
};
const paymentWords = (method: string, gateway: string) =>
  method === 'online' || method === 'pos'
    ? `${PAYMENT_WORDS[method]} (${gateway})`
    : (PAYMENT_WORDS[method] ?? method);

async function issuerName(tx: Db, adminId: string | null): Promise<string> {
  if (!adminId) return 'System';
  return (await findUserCard(tx, adminId))?.name ?? 'Staff';
}

/**
 * What every new document takes at issue: the next number of its series in the fiscal year of
 * now, the BS date, who issued it, and whether CBMS must get it.
 */
async function issueHeader(deps: InvoiceDeps, tx: Db, kind: TaxDocumentKind, adminId: string | null) {
  const at = deps.clock.now();
  const fiscalYear = fiscalYearOf(at);
  const sequence = await repo.nextSequence(tx, kind, fiscalYear);
  const prefix =
    kind === 'invoice' ? deps.config.INVOICE_NUMBER_PREFIX : deps.config.CREDIT_NOTE_NUMBER_PREFIX;
  return {
    kind,
    number: `${prefix}${sequence}`,
    sequence,
    fiscalYear,
    bsDate: formatBsDate(bsDateOf(at)),
    issuedAt: at,
    issuedByAdminId: adminId,
    issuedByName: await issuerName(tx, adminId),
    syncStatus: deps.config.CBMS_URL ? ('pending' as const) : ('not_required' as const),
  };
}

/** The tax invoice of a paid order (orders' paid hook). A second call for the order does nothing. */
export async function issueInvoice(
  deps: InvoiceDeps,
  tx: Db,
  afterCommit: AfterCommit,
  e: OrderDocumentEvent,
): Promise<repo.TaxDocumentRow | null> {
  if (!deps.config.TAX_INVOICES_ENABLED) return null;
  const existing = await repo.findByOrder(tx, 'invoice', e.order.id);
  if (existing) return existing;
  const { order } = e;
  const c = deps.config;
  const header = await issueHeader(deps, tx, 'invoice', e.adminId);
  const figures = taxFigures({
    payable: order.finalPayable,
    discount: order.discount,
    ratePercent: c.VAT_RATE_PERCENT,
    pricesIncludeVat: c.PRICES_INCLUDE_VAT,
  });
  const buyerName =
    order.buyerName ?? order.receiver ?? (await findUserCard(tx, order.customerId))?.name ?? 'Customer';
  const abbreviated =
    !order.buyerPan &&
    c.INVOICE_ABBREVIATED_MAX_NPR > 0 &&
    figures.totalAmount <= c.INVOICE_ABBREVIATED_MAX_NPR * 100;
  const doc = await repo.insertDocument(tx, {
    ...header,
    abbreviated,
    orderId: order.id,
    orderNumber: order.orderNumber,
    customerId: order.customerId,
    sellerName: c.SELLER_NAME ?? c.STORE_NAME,
    sellerAddress: c.SELLER_ADDRESS,
    sellerPan: c.SELLER_PAN ?? null,
    buyerName,
    buyerPan: order.buyerPan,
    buyerAddress: order.address,
    paymentMethod: paymentWords(order.paymentMethod, order.gateway),
    lines: order.lines.map((l) => ({
      title: l.title,
      quantity: l.quantity,
      rate: l.unitPrice * 100,
      amount: l.amount * 100,
    })),
    vatRatePercent: c.VAT_RATE_PERCENT,
    ...figures,
  });
  await afterIssue(deps, tx, afterCommit, doc, e.adminId);
  return doc;
}

/** The credit note of a returned order (orders' returned hook): the whole invoice, as positive figures. */
export async function issueCreditNote(
  deps: InvoiceDeps,
  tx: Db,
  afterCommit: AfterCommit,
  e: OrderDocumentEvent,
): Promise<repo.TaxDocumentRow | null> {
  if (!deps.config.TAX_INVOICES_ENABLED) return null;
  const invoice = await repo.findByOrder(tx, 'invoice', e.order.id);
  // An order paid before tax invoices were turned on has nothing to reverse.
  if (!invoice) return null;
  const existing = await repo.findByOrder(tx, 'credit_note', e.order.id);
  if (existing) return existing;
  const header = await issueHeader(deps, tx, 'credit_note', e.adminId);
  const doc = await repo.insertDocument(tx, {
    ...header,
    abbreviated: false,
    orderId: invoice.orderId,
    orderNumber: invoice.orderNumber,
    customerId: invoice.customerId,
    referenceDocumentId: invoice.id,
    referenceNumber: invoice.number,
    reason: e.reason?.trim() || 'Sales return',
    sellerName: invoice.sellerName,
    sellerAddress: invoice.sellerAddress,
    sellerPan: invoice.sellerPan,
    buyerName: invoice.buyerName,
    buyerPan: invoice.buyerPan,
    buyerAddress: invoice.buyerAddress,
    paymentMethod: invoice.paymentMethod,
    lines: invoice.lines,
    vatRatePercent: invoice.vatRatePercent,
    discountAmount: invoice.discountAmount,
    taxableAmount: invoice.taxableAmount,
    vatAmount: invoice.vatAmount,
    exemptAmount: invoice.exemptAmount,
    totalAmount: invoice.totalAmount,
  });
  await afterIssue(deps, tx, afterCommit, doc, e.adminId);
  return doc;
}

async function afterIssue(
  deps: InvoiceDeps,
  tx: Db,
  afterCommit: AfterCommit,
  doc: repo.TaxDocumentRow,
  adminId: string | null,
) {
  // With no admin (a verified online payment) the entry names the system: the log holds every
  // issue, not only staff ones.
  const bySystem = doc.kind === 'invoice' ? ' (by the system: payment verified)' : ' (by the system)';
  await recordActivity(tx, {
    adminId,
    action: 'issue',
    entityType: doc.kind,
    entityId: doc.id,
    summary: `Issued ${KIND_WORDS[doc.kind]} ${doc.number} (${doc.fiscalYear}) for order ${doc.orderNumber}${adminId ? '' : bySystem}`,
    at: doc.issuedAt,
  });
  if (doc.syncStatus === 'pending') deps.queueSync(afterCommit, doc.id);
  await (doc.kind === 'invoice'
    ? publishEvent(tx, 'invoice.issued', { invoiceId: doc.id })
    : publishEvent(tx, 'credit_note.issued', { creditNoteId: doc.id }));
}

export function documentView(doc: repo.TaxDocumentRow): TaxDocumentView {
  return {
    id: doc.id,
    documentType:
      doc.kind === 'invoice' ? (doc.abbreviated ? 'abbreviated_tax_invoice' : 'tax_invoice') : 'credit_note',
    number: doc.number,
    fiscalYear: doc.fiscalYear,
    orderId: doc.orderId,
    orderNumber: doc.orderNumber,
    referenceInvoiceId: doc.referenceDocumentId,
    referenceInvoiceNumber: doc.referenceNumber,
    reason: doc.reason,
    seller: { name: doc.sellerName, address: doc.sellerAddress, pan: doc.sellerPan },
    buyerName: doc.buyerName,
    buyerPan: doc.buyerPan,
    buyerAddress: doc.buyerAddress,
    paymentMethod: doc.paymentMethod,
    lines: doc.lines,
    vatRatePercent: doc.vatRatePercent,
    discountAmount: doc.discountAmount,
    taxableAmount: doc.taxableAmount,
    vatAmount: doc.vatAmount,
    exemptAmount: doc.exemptAmount,
    totalAmount: doc.totalAmount,
    dateBs: doc.bsDate,
    issuedAt: doc.issuedAt.toISOString(),
    issuedBy: { adminId: doc.issuedByAdminId, name: doc.issuedByName },
    isActive: doc.isActive,
    printCount: doc.printCount,
    lastPrintedAt: doc.lastPrintedAt?.toISOString() ?? null,
    syncStatus: doc.syncStatus,
    syncAttempts: doc.syncAttempts,
    lastSyncReply: doc.lastSyncReply,
    lastSyncAt: doc.lastSyncAt?.toISOString() ?? null,
  };
}

export async function listDocuments(
  deps: { db: Db },
  kind: TaxDocumentKind,
  q: DocumentListQuery,
): Promise<{ items: TaxDocumentView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listDocuments(
    deps.db,
    {
      kind,
      fiscalYear: q.fiscalYear,
      from: q.from,
      // `to` is inclusive in the query; the filter is exclusive.
      to: q.to ? new Date(q.to.getTime() + 1) : undefined,
      syncStatus: q.syncStatus,
      orderId: q.orderId,
      search: q.search,
    },
    q.order,
    pageWindow(q),
  );
  return { items: rows.map(documentView), meta: pageMeta(q, count) };
}

export async function getDocument(
  deps: { db: Db },
  kind: TaxDocumentKind,
  id: number,
): Promise<TaxDocumentView> {
  const doc = await repo.findDocument(deps.db, id, kind);
  if (!doc) throw kind === 'invoice' ? invoiceErrors.invoiceNotFound() : invoiceErrors.creditNoteNotFound();
  return documentView(doc);
}

/** Who asked for a rendering: an admin in the back office or at the POS counter, or the buyer. */
export type RenderedBy = { via: 'admin' | 'pos'; adminId: string } | { via: 'customer'; customerId: string };

function renderingSummary(
  doc: repo.TaxDocumentRow,
  by: RenderedBy,
  format: PdfFormat,
  counted: boolean,
): string {
  const copy = !counted
    ? 'electronic copy, not a print'
    : doc.printCount > 1
      ? `copy of original ${doc.printCount - 1}`
      : 'original';
  const what = `${KIND_WORDS[doc.kind]} ${doc.number} (${format}, ${copy})`;
  if (by.via === 'customer') return `Customer ${by.customerId} downloaded ${what}`;
  return by.via === 'pos' ? `Printed ${what} as the POS receipt` : `Printed ${what}`;
}

/**
 * Counts one more rendering of a document and writes it to the activity log with who made it,
 * in one transaction. What counts (docs/api-notes.md, "Tax invoice prints"): every print by the
 * store (back office, counter) and the first issue to the buyer; the first is the original,
 * every later one a numbered copy. A buyer's later download is an electronic copy of the
 * original they already have: logged, not counted, marked `Copy of Original`.
 */
function countRendering(
  deps: { db: Db; clock: Clock },
  p: { kind?: TaxDocumentKind; id: number; by: RenderedBy; format: PdfFormat },
): Promise<{ doc: repo.TaxDocumentRow; counted: boolean }> {
  return inTransaction(deps.db, async (tx) => {
    const at = deps.clock.now();
    const current = await repo.findDocument(tx, p.id, p.kind);
    if (!current)
      throw p.kind === 'credit_note' ? invoiceErrors.creditNoteNotFound() : invoiceErrors.invoiceNotFound();
    const counted = p.by.via !== 'customer' || current.printCount === 0;
    const doc = counted ? (await repo.countPrint(tx, current.id, at))! : current;
    await recordActivity(tx, {
      adminId: p.by.via === 'customer' ? null : p.by.adminId,
      action: !counted ? 'download_copy' : doc.printCount > 1 ? 'reprint' : 'print',
      entityType: doc.kind,
      entityId: doc.id,
      summary: renderingSummary(doc, p.by, p.format, counted),
      at,
    });
    return { doc, counted };
  });
}

/** The AD date of issue on the store's calendar: `2026-11-26`. */
const adDate = (timeZone: string, at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  );

/** One rendering of a document as a PDF, counted (original or numbered copy) and logged. */
export async function renderDocument(
  deps: { db: Db; clock: Clock; config: Pick<Config, 'STORE_TIMEZONE'> },
  p: { kind?: TaxDocumentKind; id: number; by: RenderedBy; format: PdfFormat },
): Promise<{ pdf: Buffer; fileName: string }> {
  const { doc, counted } = await countRendering(deps, p);
  const pdf = await renderTaxDocument({
    doc,
    dateAd: adDate(deps.config.STORE_TIMEZONE, doc.issuedAt),
    format: p.format,
    createdAt: deps.clock.now(),
    electronicCopy: !counted,
  });
  const file = doc.kind === 'invoice' ? 'invoice' : 'credit-note';
  return { pdf, fileName: `${file}-${doc.fiscalYear.replace('/', '-')}-${doc.number}.pdf` };
}

/** A customer downloads the invoice of one order at most this often per hour (429 beyond). */
export const CUSTOMER_DOWNLOADS_PER_HOUR = 20;
const HOUR_MS = 3_600_000;

async function limitCustomerDownloads(
  deps: { clock: Clock; counters: Cache },
  p: { orderId: number; customerId: string },
): Promise<void> {
  const now = deps.clock.now().getTime();
  const window = Math.floor(now / HOUR_MS);
  const key = `invoice-downloads:${p.customerId}:${p.orderId}:${window}`;
  const { count } = await deps.counters.increment(key, HOUR_MS);
  if (count > CUSTOMER_DOWNLOADS_PER_HOUR)
    throw httpErrors.rateLimited(Math.max(1, Math.ceil(((window + 1) * HOUR_MS - now) / 1000)));
}

/** The customer's download of the invoice of one of their orders. */
export async function customerInvoicePdf(
  deps: { db: Db; clock: Clock; counters: Cache; config: Pick<Config, 'STORE_TIMEZONE'> },
  p: { orderId: number; customerId: string; format: PdfFormat },
): Promise<{ pdf: Buffer; fileName: string }> {
  const order = await findOrderLink(deps.db, p.orderId);
  if (!order) throw invoiceErrors.orderNotFound();
  if (order.customerId !== p.customerId) throw invoiceErrors.orderAccessDenied();
  await limitCustomerDownloads(deps, p);
  const invoice = await repo.findByOrder(deps.db, 'invoice', order.id);
  if (!invoice) throw invoiceErrors.invoiceNotFound();
  return renderDocument(deps, {
    kind: 'invoice',
    id: invoice.id,
    by: { via: 'customer', customerId: p.customerId },
    format: p.format,
  });
}

/**
 * The POS receipt of a counter sale (pos.documents.ts): its tax invoice on 80 mm paper, or null
 * (plain receipt) when tax invoices are off or the sale has no invoice yet (not paid). An
 * invoice issued while tax invoices were on is not printed once they are off: the store has
 * left the VAT scheme and prints what it prints for every other sale.
 */
export async function posReceiptPdf(
  deps: { db: Db; clock: Clock; config: Pick<Config, 'STORE_TIMEZONE' | 'TAX_INVOICES_ENABLED'> },
  p: { orderId: number; adminId: string },
): Promise<{ pdf: Buffer; fileName: string } | null> {
  if (!deps.config.TAX_INVOICES_ENABLED) return null;
  const invoice = await repo.findByOrder(deps.db, 'invoice', p.orderId);
  if (!invoice) return null;
  return renderDocument(deps, {
    kind: 'invoice',
    id: invoice.id,
    by: { via: 'pos', adminId: p.adminId },
    format: 'receipt80',
  });
}
