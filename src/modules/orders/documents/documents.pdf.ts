// The invoice's page layout with pdfkit: the store, the order, who it goes to, its lines and
// the totals, on A4 pages (the item table continues on a new page with its header again).
// In Noto Sans Devanagari (platform/pdf.ts): a Nepali name or address prints as written.
import { newPdf, PDF_FONT, pdfBytes, printable } from '../../../platform/pdf';

export interface InvoiceLine {
  title: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
  /** A care package sold with the line, priced per unit of it. */
  carePackage: { name: string; tierLabel: string; unitPrice: number } | null;
}

export interface Invoice {
  storeName: string;
  orderNumber: string;
  /** The order's date and time on the store's calendar, ready to print. */
  orderDate: string;
  payment: string;
  customer: { name: string | null; phone: string | null };
  /** Address lines, empty when nothing ships (digital orders). */
  shipTo: string[];
  lines: InvoiceLine[];
  subtotal: number;
  carePackageTotal: number;
  coupon: { code: string | null; discount: number } | null;
  shippingFee: number;
  finalPayable: number;
  /** When the document is made (its metadata). */
  createdAt: Date;
}

/** Whole NPR with the grouping used in Nepal (1,00,000). */
export const npr = (amount: number) =>
  new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }).format(amount);

const MARGIN = 50;
const PAGE = { width: 595.28, height: 841.89 }; // A4
const RIGHT = PAGE.width - MARGIN;
const BOTTOM = PAGE.height - MARGIN;
const COLUMNS = {
  item: { x: MARGIN, width: 275 },
  quantity: { x: MARGIN + 280, width: 40 },
  unitPrice: { x: MARGIN + 325, width: 80 },
  lineTotal: { x: MARGIN + 410, width: RIGHT - (MARGIN + 410) },
};
const GREY = '#555555';
const RULE = '#cccccc';

export function renderInvoice(invoice: Invoice): Promise<Buffer> {
  const doc = newPdf({
    size: 'A4',
    margin: MARGIN,
    // Kept in memory until the end, so every page can be numbered once their count is known.
    bufferPages: true,
    info: {
      Title: printable(`Invoice ${invoice.orderNumber}`),
      Author: printable(invoice.storeName),
      CreationDate: invoice.createdAt,
    },
  });
  const finished = pdfBytes(doc);

  // A page after the first says whose invoice it continues.
  const continuedPage = () => {
    doc.addPage();
    doc.font(PDF_FONT.regular).fontSize(9).fillColor(GREY);
    doc.text(printable(`${invoice.storeName} - Invoice ${invoice.orderNumber} (continued)`), MARGIN, MARGIN, {
      width: RIGHT - MARGIN,
    });
    y = MARGIN + 24;
  };
  const rule = (y: number) =>
    doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor(RULE).stroke().strokeColor('black');

  // Store and title.
  doc.font(PDF_FONT.bold).fontSize(20).fillColor('black');
  doc.text(printable(invoice.storeName), MARGIN, MARGIN, { width: 300 });
  doc.text('INVOICE', MARGIN + 300, MARGIN, { width: RIGHT - MARGIN - 300, align: 'right' });
  let y = Math.max(doc.y, MARGIN + 28) + 8;
  const facts: Array<[string, string]> = [
    ['Order number', invoice.orderNumber],
    ['Order date', invoice.orderDate],
    ['Payment', invoice.payment],
  ];
  doc.fontSize(10);
  for (const [label, value] of facts) {
    doc
      .font(PDF_FONT.regular)
      .fillColor(GREY)
      .text(label, MARGIN + 215, y, { width: 80 });
    doc
      .font(PDF_FONT.bold)
      .fillColor('black')
      .text(printable(value), MARGIN + 295, y, { width: RIGHT - MARGIN - 295, align: 'right' });
    y += 15;
  }
  y += 10;
  rule(y);
  y += 14;

  // Who it goes to.
  const half = (RIGHT - MARGIN) / 2;
  const block = (x: number, heading: string, lines: string[]) => {
    doc
      .font(PDF_FONT.bold)
      .fontSize(9)
      .fillColor(GREY)
      .text(heading.toUpperCase(), x, y, { width: half - 10 });
    doc.font(PDF_FONT.regular).fontSize(10).fillColor('black');
    for (const line of lines) doc.text(printable(line), { width: half - 10 });
    return doc.y;
  };
  const customerLines = [invoice.customer.name, invoice.customer.phone].filter((l): l is string => !!l);
  const leftEnd = block(MARGIN, 'Customer', customerLines.length ? customerLines : ['-']);
  const rightEnd = block(
    MARGIN + half,
    'Ship to',
    invoice.shipTo.length ? invoice.shipTo : ['Nothing to ship'],
  );
  y = Math.max(leftEnd, rightEnd) + 20;

  // Items.
  const tableHeader = () => {
    doc.font(PDF_FONT.bold).fontSize(9).fillColor(GREY);
    doc.text('ITEM', COLUMNS.item.x, y, { width: COLUMNS.item.width });
    doc.text('QTY', COLUMNS.quantity.x, y, { width: COLUMNS.quantity.width, align: 'right' });
    doc.text('UNIT PRICE', COLUMNS.unitPrice.x, y, { width: COLUMNS.unitPrice.width, align: 'right' });
    doc.text('AMOUNT', COLUMNS.lineTotal.x, y, { width: COLUMNS.lineTotal.width, align: 'right' });
    y += 14;
    rule(y);
    y += 6;
  };
  const row = (title: string, quantity: number, unitPrice: number, total: number, sub = false) => {
    doc.font(PDF_FONT.regular).fontSize(sub ? 9 : 10);
    const indent = sub ? 12 : 0;
    const text = printable(title);
    const height = doc.heightOfString(text, { width: COLUMNS.item.width - indent });
    if (y + height > BOTTOM - 20) {
      continuedPage();
      tableHeader();
      doc.font(PDF_FONT.regular).fontSize(sub ? 9 : 10);
    }
    doc.fillColor(sub ? GREY : 'black');
    doc.text(text, COLUMNS.item.x + indent, y, { width: COLUMNS.item.width - indent });
    doc.text(String(quantity), COLUMNS.quantity.x, y, { width: COLUMNS.quantity.width, align: 'right' });
    doc.text(npr(unitPrice), COLUMNS.unitPrice.x, y, { width: COLUMNS.unitPrice.width, align: 'right' });
    doc.text(npr(total), COLUMNS.lineTotal.x, y, { width: COLUMNS.lineTotal.width, align: 'right' });
    y += height + 6;
  };
  tableHeader();
  for (const line of invoice.lines) {
    row(line.title, line.quantity, line.unitPrice, line.lineTotal);
    const pkg = line.carePackage;
    if (pkg) {
      row(
        `Care package: ${pkg.name} (${pkg.tierLabel})`,
        line.quantity,
        pkg.unitPrice,
        pkg.unitPrice * line.quantity,
        true,
      );
    }
  }
  rule(y);
  y += 10;

  // Totals, right-aligned under the amounts.
  const totals: Array<[string, string]> = [['Subtotal', npr(invoice.subtotal)]];
  if (invoice.carePackageTotal > 0) totals.push(['Care packages', npr(invoice.carePackageTotal)]);
  if (invoice.coupon) {
    const label = invoice.coupon.code ? `Coupon discount (${invoice.coupon.code})` : 'Coupon discount';
    totals.push([label, `-${npr(invoice.coupon.discount)}`]);
  }
  totals.push(['Shipping fee', npr(invoice.shippingFee)]);
  if (y + totals.length * 16 + 60 > BOTTOM) continuedPage();
  const labelX = COLUMNS.quantity.x - 60;
  const labelWidth = COLUMNS.lineTotal.x - labelX - 10;
  doc.font(PDF_FONT.regular).fontSize(10);
  for (const [label, value] of totals) {
    doc.fillColor(GREY).text(printable(label), labelX, y, { width: labelWidth, align: 'right' });
    doc
      .fillColor('black')
      .text(value, COLUMNS.lineTotal.x, y, { width: COLUMNS.lineTotal.width, align: 'right' });
    y += 16;
  }
  y += 2;
  doc.moveTo(labelX, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 8;
  doc.font(PDF_FONT.bold).fontSize(12).fillColor('black');
  doc.text('Total payable', labelX, y, { width: labelWidth, align: 'right' });
  doc.text(`NPR ${npr(invoice.finalPayable)}`, COLUMNS.lineTotal.x - 40, y, {
    width: COLUMNS.lineTotal.width + 40,
    align: 'right',
  });
  y += 40;

  doc
    .font(PDF_FONT.regular)
    .fontSize(9)
    .fillColor(GREY)
    .text(
      printable(
        `All amounts are in Nepalese rupees (NPR). Thank you for shopping with ${invoice.storeName}.`,
      ),
      MARGIN,
      Math.min(y, BOTTOM - 12),
      { width: RIGHT - MARGIN, align: 'center' },
    );

  const { start, count } = doc.bufferedPageRange();
  if (count > 1) {
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      // Inside the bottom margin: lift the margin so pdfkit does not start a new page for it.
      const bottomMargin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font(PDF_FONT.regular)
        .fontSize(8)
        .fillColor(GREY)
        .text(`Page ${i - start + 1} of ${count}`, MARGIN, PAGE.height - MARGIN / 2 - 8, {
          width: RIGHT - MARGIN,
          align: 'right',
        });
      doc.page.margins.bottom = bottomMargin;
    }
  }
  doc.end();
  return finished;
}
