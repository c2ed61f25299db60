// A document's figures in paisa, and their words. The rounding rule (docs/api-notes.md, "Tax
// invoices in Nepal"): with VAT-inclusive prices the taxable amount is total × 100 / (100 +
// rate) rounded half up to the paisa, and VAT is what is left, so taxable + VAT + exempt =
// total exactly; with VAT-exclusive prices VAT is taxable × rate / 100 rounded half up and
// the total is their sum.

export interface TaxFigures {
  discountAmount: number;
  taxableAmount: number;
  vatAmount: number;
  exemptAmount: number;
  totalAmount: number;
}

/** a / b rounded half up, for non-negative integers. */
const divideHalfUp = (a: number, b: number) => Math.floor((2 * a + b) / (2 * b));

export function taxFigures(p: {
  /** Whole NPR the buyer pays (the order's `finalPayable`). */
  payable: number;
  /** Whole NPR taken off before VAT (coupon, counter discount). */
  discount: number;
  ratePercent: number;
  pricesIncludeVat: boolean;
}): TaxFigures {
  const paisa = p.payable * 100;
  const exemptAmount = 0; // every sale is taxable; exempt goods are not modelled yet
  if (p.pricesIncludeVat) {
    const taxableAmount = divideHalfUp(paisa * 100, 100 + p.ratePercent);
    return {
      discountAmount: p.discount * 100,
      taxableAmount,
      vatAmount: paisa - taxableAmount - exemptAmount,
      exemptAmount,
      totalAmount: paisa,
    };
  }
  const vatAmount = divideHalfUp(paisa * p.ratePercent, 100);
  return {
    discountAmount: p.discount * 100,
    taxableAmount: paisa,
    vatAmount,
    exemptAmount,
    totalAmount: paisa + vatAmount + exemptAmount,
  };
}

/** Paisa as rupees with two decimals and Nepali grouping: 123456789 → `12,34,567.89`. */
export function rupees(paisa: number, grouped = true): string {
  const text = (paisa / 100).toFixed(2);
  if (!grouped) return text;
  const [whole, decimals] = text.split('.');
  return `${new Intl.NumberFormat('en-IN').format(Number(whole))}.${decimals}`;
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  return TENS[Math.floor(n / 10)]! + (n % 10 ? `-${ONES[n % 10]}` : '');
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [hundreds ? `${ONES[hundreds]} Hundred` : '', rest ? belowHundred(rest) : '']
    .filter(Boolean)
    .join(' ');
}

/** Whole numbers in the Nepali-English system: 1234567 → `Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven`. */
export function numberInWords(n: number): string {
  if (n === 0) return 'Zero';
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  return [
    crore ? `${numberInWords(crore)} Crore` : '',
    lakh ? `${belowHundred(lakh)} Lakh` : '',
    thousand ? `${belowHundred(thousand)} Thousand` : '',
    rest ? belowThousand(rest) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** `Twelve Lakh … Sixty-Seven Rupees and Fifty Paisa only`. */
export function amountInWords(paisa: number): string {
  const whole = Math.floor(paisa / 100);
  const cents = paisa % 100;
  return `${numberInWords(whole)} Rupees${cents ? ` and ${numberInWords(cents)} Paisa` : ''} only`;
}
