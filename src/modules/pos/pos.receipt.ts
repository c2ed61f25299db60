// A receipt a shop prints on its 80 mm thermal printer: one page 80 mm (226.77 pt) wide and
// as long as the sale, laid out twice — once on a scratch document to measure its height,
// then for real. In Noto Sans Devanagari (platform/pdf.ts), like the invoice: a customer's
// Nepali name prints as written.
import { newPdf, PDF_FONT, pdfBytes, printable } from '../../platform/pdf';

export interface Receipt {
  storeName: string;
  orderNumber: string;
  /** Date and time on the store's calendar, ready to print. */
  orderDate: string;
  customerName: string | null;
  customerPhone: string | null;
  lines: Array<{ title: string; quantity: number; unitPrice: number; lineTotal: number }>;
  subtotal: number;
  /** What the customer saved against MRP. */
  savings: number;
  counterDiscount: number;
  shippingFee: number;
  total: number;
  /** "Paid by cash", "Awaiting payment", …, and the payment reference when there is one. */
  payment: string;
  paymentReference: string | null;
  createdAt: Date;
}

/** 80 mm in PDF points (72 per inch). */
export const RECEIPT_WIDTH = (80 / 25.4) * 72;
const MARGIN = 10;
const INNER = RECEIPT_WIDTH - 2 * MARGIN;

/** Whole NPR with Nepal's digit grouping (1,00,000). */
const npr = (amount: number) => new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }).format(amount);

/** Draws the receipt from the top of the page; answers where it ended. */
function layout(doc: PDFKit.PDFDocument, r: Receipt): number {
  let y = MARGIN;
  const text = (
    value: string,
    opts: { bold?: boolean; size?: number; align?: 'left' | 'center' | 'right' } = {},
  ) => {
    doc.font(opts.bold ? PDF_FONT.bold : PDF_FONT.regular).fontSize(opts.size ?? 8);
    doc.text(printable(value), MARGIN, y, { width: INNER, align: opts.align ?? 'left' });
    y = doc.y + 1;
  };
  /** A label on the left, its value right-aligned; `split` is the label's share of the width. */
  const pair = (label: string, value: string, opts: { bold?: boolean; split?: number } = {}) => {
    const split = opts.split ?? 0.6;
    doc.font(opts.bold ? PDF_FONT.bold : PDF_FONT.regular).fontSize(opts.bold ? 10 : 8);
    const labelOpts = { width: INNER * split };
    const valueOpts = { width: INNER * (1 - split), align: 'right' as const };
    const height = Math.max(
      doc.heightOfString(printable(label), labelOpts),
      doc.heightOfString(printable(value), valueOpts),
    );
    doc.text(printable(label), MARGIN, y, labelOpts);
    doc.text(printable(value), MARGIN + INNER * split, y, valueOpts);
    y += height + 2;
  };
  const fact = (label: string, value: string) => pair(label, value, { split: 0.3 });
  const rule = () => {
    y += 2;
    doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + INNER, y)
      .lineWidth(0.5)
      .dash(2, { space: 2 })
      .stroke()
      .undash();
    y += 4;
  };

  text(r.storeName, { bold: true, size: 12, align: 'center' });
  text('Sales receipt', { align: 'center' });
  rule();
  fact('Order', r.orderNumber);
  fact('Date', r.orderDate);
  if (r.customerName) fact('Customer', r.customerName);
  if (r.customerPhone) fact('Phone', r.customerPhone);
  rule();
  for (const line of r.lines) {
    text(line.title, { bold: true });
    pair(`  ${line.quantity} x ${npr(line.unitPrice)}`, npr(line.lineTotal));
  }
  rule();
  pair('Subtotal', npr(r.subtotal));
  if (r.counterDiscount > 0) pair('Discount', `-${npr(r.counterDiscount)}`);
  if (r.shippingFee > 0) pair('Delivery', npr(r.shippingFee));
  pair('Total NPR', npr(r.total), { bold: true });
  if (r.savings > 0) pair('You saved (MRP)', npr(r.savings));
  rule();
  text(r.payment);
  if (r.paymentReference) text(`Ref ${r.paymentReference}`);
  y += 4;
  text('Thank you for shopping with us!', { align: 'center' });
  return y + MARGIN;
}

export function renderReceipt(r: Receipt): Promise<Buffer> {
  const info = {
    Title: printable(`Receipt ${r.orderNumber}`),
    Author: printable(r.storeName),
    CreationDate: r.createdAt,
  };
  const scratch = newPdf({ size: [RECEIPT_WIDTH, 14_400], margin: 0, info });
  const height = Math.ceil(layout(scratch, r));
  scratch.end();
  const doc = newPdf({ size: [RECEIPT_WIDTH, height], margin: 0, info });
  const finished = pdfBytes(doc);
  layout(doc, r);
  doc.end();
  return finished;
}
