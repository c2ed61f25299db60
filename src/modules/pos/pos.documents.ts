// The counter's receipt may be another module's document: with tax invoices on, the receipt of
// a POS sale that has a tax invoice is that invoice on 80 mm paper (the IRD's legal document
// replaces the plain receipt). Invoices reads pos (its CSV and PDF helpers), so pos cannot
// import invoices: the app hands pos the invoices module's renderer as a dependency
// (`createPosModule({ saleReceipt })` in app.ts), and the receipt route asks it first.

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
