// The seam between the counter's receipt and the tax documents module (invoices). With tax
// invoices on, the receipt of a POS sale that has a tax invoice is that invoice on 80 mm paper
// (the IRD's legal document replaces the plain receipt). Invoices reads pos (its CSV and PDF
// helpers), so pos cannot import invoices: invoices registers its renderer here at start-up
// and the receipt route asks it first. Kept per database, i.e. per app: tests build several.
import type { Db } from '../../platform/db/database';

/** A receipt rendered by another module: the PDF and the name to give it. */
export interface ProvidedReceipt {
  fileName: string;
  pdf: Buffer;
}

/**
 * Answers the receipt of a POS sale printed by `adminId`, or null when it has none of its own
 * (tax invoices off, or the sale not paid yet): the plain receipt is printed then.
 */
export type ReceiptProvider = (p: { orderId: number; adminId: string }) => Promise<ProvidedReceipt | null>;

const providers = new WeakMap<object, ReceiptProvider>();

/** Called once at start-up by the module whose document replaces the plain receipt. */
export function provideSaleReceipt(db: Db, provider: ReceiptProvider): void {
  providers.set(db, provider);
}

export function saleReceiptProvider(db: Db): ReceiptProvider | undefined {
  return providers.get(db);
}
