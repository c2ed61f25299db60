// The till's arithmetic and the scanner's input, as pure functions (unit-tested in
// test/console/counter.test.ts). The API decides in the end; these follow its rules
// (docs/api-notes.md, "In-store sales (POS)") so the cashier sees the right total before paying.

/** The API takes 1 to 1000 units of a line. */
export const MAX_QUANTITY = 1000;

/**
 * What the scan field holds when Enter is pressed: a quantity and a code or search words.
 * `3*1042` or `3x1042` is three of product 1042. The products have no SKU or barcode field in
 * the API, so the code printed on a shelf label (and a scanner's barcode) is the product's
 * number: all digits. Anything else is searched by title.
 */
export function parseScan(
  input: string,
): { quantity: number; productId: number | null; words: string } | null {
  const text = input.trim();
  if (!text) return null;
  const prefixed = /^(\d{1,4})\s*[*xX×]\s*(.+)$/.exec(text);
  const quantity = prefixed ? Math.min(Math.max(Number(prefixed[1]), 1), MAX_QUANTITY) : 1;
  const rest = (prefixed?.[2] ?? text).trim();
  // A product number fits PostgreSQL's integer (at most 10 digits); a longer run of digits (an
  // EAN-13 of a maker's barcode) is not one of ours.
  const productId =
    /^\d{1,10}$/.test(rest) && Number(rest) >= 1 && Number(rest) <= 2_147_483_647 ? Number(rest) : null;
  return { quantity, productId, words: rest };
}

export interface SaleLine {
  productId: number;
  title: string;
  productKind: string;
  /** What the customer pays a unit: the product's effective price (sp, else mrp). */
  unitPrice: number;
  mrp: number;
  quantity: number;
  /** Units free to sell when the product was scanned; null for products without stock. */
  available: number | null;
}

/** A line added again (a second scan) adds its quantity to the line already there. */
export function addLine(lines: readonly SaleLine[], line: SaleLine): SaleLine[] {
  const at = lines.findIndex((l) => l.productId === line.productId);
  if (at < 0) return [...lines, line];
  return lines.map((l, i) =>
    i === at ? { ...line, quantity: Math.min(l.quantity + line.quantity, MAX_QUANTITY) } : l,
  );
}

export interface SaleTotals {
  subtotal: number;
  /** What the customer saves against MRP. */
  savings: number;
  discount: number;
  shippingFee: number;
  total: number;
  units: number;
}

/** The API's sums: finalPayable = max(0, Σ price × qty − discount + shipping). */
export function totalsOf(lines: readonly SaleLine[], discount: number, shippingFee: number): SaleTotals {
  const subtotal = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const mrp = lines.reduce((sum, l) => sum + l.mrp * l.quantity, 0);
  return {
    subtotal,
    savings: Math.max(0, mrp - subtotal),
    discount,
    shippingFee,
    total: Math.max(0, subtotal - discount + shippingFee),
    units: lines.reduce((sum, l) => sum + l.quantity, 0),
  };
}

/** Cash handed over minus the total; null when not enough was given (or nothing typed). */
export function changeDue(total: number, tendered: number | null): number | null {
  if (tendered === null || tendered < total) return null;
  return tendered - total;
}

/** Lines asking for more units than were free when scanned. */
export function shortLines(lines: readonly SaleLine[]): SaleLine[] {
  return lines.filter((l) => l.available !== null && l.quantity > l.available);
}

/** A fresh idempotency key. */
export function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One key per attempt: the same request (same body) sent again, after a double click, a lost
 * answer or a retry, carries the same key, so the API answers the first result instead of
 * selling or charging twice; a changed request is a new attempt with a new key.
 */
export class AttemptKeys {
  private last: { fingerprint: string; key: string } | null = null;

  keyFor(body: unknown): string {
    const fingerprint = JSON.stringify(body);
    if (this.last?.fingerprint !== fingerprint) this.last = { fingerprint, key: newKey() };
    return this.last.key;
  }

  /** After the attempt succeeded: the next request, even an identical one, is a new attempt. */
  reset(): void {
    this.last = null;
  }
}
