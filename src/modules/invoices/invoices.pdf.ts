// A tax document as a PDF, on A4 or on an 80 mm thermal receipt: the fields the IRD's billing
// procedure asks for (seller and buyer with PAN, number, fiscal year, BS and AD dates, lines,
// discount, taxable amount, VAT, total and the total in words, payment method, who issued it)
// and, on every rendering after the first, "Copy of Original – N". In Noto Sans Devanagari
// (platform/pdf.ts): a buyer's Nepali name and address print as written.
import { newPdf, PDF_FONT, pdfBytes, printable } from '../../platform/pdf';
import type { TaxDocumentRow } from './invoices.repository';
import { amountInWords, rupees } from './tax-figures';

export type PdfFormat = 'a4' | 'receipt80';

export function documentTitle(doc: Pick<TaxDocumentRow, 'kind' | 'abbreviated'>): string {
  if (doc.kind === 'credit_note') return 'Credit Note';
  return doc.abbreviated ? 'Abbreviated Tax Invoice' : 'Tax Invoice';
}

/**
 * Nothing on the first rendering; `Copy of Original – N` on the N-th reprint; `Copy of Original`
 * on a buyer's electronic copy, which is not a print of the store's (docs/api-notes.md, "Tax
 * invoice prints").
 */
export const copyMark = (printCount: number, electronicCopy = false) =>
  electronicCopy ? 'Copy of Original' : printCount > 1 ? `Copy of Original – ${printCount - 1}` : null;

interface Page {
  width: number;
  height: number;
  margin: number;
  base: number;
}
const PAGES: Record<PdfFormat, Page> = {
  a4: { width: 595.28, height: 841.89, margin: 50, base: 10 },
  receipt80: { width: (80 / 25.4) * 72, height: 0, margin: 10, base: 8 },
};

export interface RenderInput {
  doc: TaxDocumentRow;
  /** The AD date of issue on the store's calendar, `2026-11-26`. */
  dateAd: string;
  format: PdfFormat;
  createdAt: Date;
  /** The buyer's download of an invoice already issued to them: a copy, not counted. */
  electronicCopy?: boolean;
}

/** Draws the document from the top; answers where it ended. */
function layout(pdf: PDFKit.PDFDocument, page: Page, input: RenderInput, paginate: boolean): number {
  const { doc } = input;
  const inner = page.width - 2 * page.margin;
  let y = page.margin;
  const room = (needed: number) => {
    if (paginate && page.height && y + needed > page.height - page.margin) {
      pdf.addPage();
      y = page.margin;
    }
  };
  const text = (
    value: string,
    opts: { bold?: boolean; size?: number; align?: 'left' | 'center' | 'right' } = {},
  ) => {
    pdf.font(opts.bold ? PDF_FONT.bold : PDF_FONT.regular).fontSize(opts.size ?? page.base);
    const height = pdf.heightOfString(printable(value), { width: inner });
    room(height);
    pdf.text(printable(value), page.margin, y, { width: inner, align: opts.align ?? 'left' });
    y = pdf.y + 2;
  };
  const pair = (label: string, value: string, bold = false) => {
    pdf.font(bold ? PDF_FONT.bold : PDF_FONT.regular).fontSize(page.base);
    const labelOpts = { width: inner * 0.6 };
    const valueOpts = { width: inner * 0.4, align: 'right' as const };
    const height = Math.max(
      pdf.heightOfString(printable(label), labelOpts),
      pdf.heightOfString(printable(value), valueOpts),
    );
    room(height);
    pdf.text(printable(label), page.margin, y, labelOpts);
    pdf.text(printable(value), page.margin + inner * 0.6, y, valueOpts);
    y += height + 2;
  };
  const rule = () => {
    room(6);
    pdf
      .moveTo(page.margin, y + 2)
      .lineTo(page.width - page.margin, y + 2)
      .strokeColor('#999999')
      .lineWidth(0.5)
      .stroke();
    y += 6;
  };

  text(doc.sellerName, { bold: true, size: page.base + 4, align: 'center' });
  text(doc.sellerAddress, { align: 'center' });
  if (doc.sellerPan) text(`PAN: ${doc.sellerPan}`, { align: 'center' });
  text(documentTitle(doc), { bold: true, size: page.base + 3, align: 'center' });
  const mark = copyMark(doc.printCount, input.electronicCopy);
  if (mark) text(mark, { bold: true, align: 'center' });
  rule();
  pair(doc.kind === 'credit_note' ? 'Credit note no.' : 'Invoice no.', doc.number);
  pair('Fiscal year', doc.fiscalYear);
  pair('Date (BS)', doc.bsDate);
  pair('Date (AD)', input.dateAd);
  pair('Order', doc.orderNumber);
  if (doc.referenceNumber) pair('Against invoice', doc.referenceNumber);
  text(`Buyer: ${doc.buyerName}`);
  text(`Buyer PAN: ${doc.buyerPan ?? '-'}`);
  if (doc.buyerAddress) text(`Address: ${doc.buyerAddress}`);
  if (doc.reason) text(`Reason for return: ${doc.reason}`);
  rule();
  text('Item / Qty x Rate / Amount', { bold: true });
  for (const line of doc.lines) {
    text(line.title);
    pair(`${line.quantity} x ${rupees(line.rate)}`, rupees(line.amount));
  }
  rule();
  pair('Discount', rupees(doc.discountAmount));
  pair('Taxable amount', rupees(doc.taxableAmount));
  pair(`VAT ${doc.vatRatePercent} %`, rupees(doc.vatAmount));
  if (doc.exemptAmount) pair('Tax-exempt amount', rupees(doc.exemptAmount));
  pair('Total (NPR)', rupees(doc.totalAmount), true);
  text(`In words: ${amountInWords(doc.totalAmount)}`);
  rule();
  text(`Payment method: ${doc.paymentMethod}`);
  text(`Issued by: ${doc.issuedByName}`);
  return y + page.margin;
}

export function renderTaxDocument(input: RenderInput): Promise<Buffer> {
  const page = PAGES[input.format];
  let height = page.height;
  if (!height) {
    // A receipt is as long as its content: measure on a scratch document first.
    const scratch = newPdf({ size: [page.width, 10_000], margin: page.margin });
    height = Math.ceil(layout(scratch, page, input, false));
    scratch.end();
  }
  const pdf = newPdf({
    size: [page.width, height],
    margin: page.margin,
    info: {
      Title: printable(`${documentTitle(input.doc)} ${input.doc.number}`),
      Author: printable(input.doc.sellerName),
      CreationDate: input.createdAt,
    },
  });
  const done = pdfBytes(pdf);
  layout(pdf, page, input, true);
  pdf.end();
  return done;
}
