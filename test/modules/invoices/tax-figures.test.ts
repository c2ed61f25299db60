// The pure parts of tax documents: the figures and their rounding, the total in words with
// lakh and crore, rupees with two decimals, the BS date and the fiscal year around 1 Shrawan.
import { describe, expect, it } from 'vitest';
import {
  bsDateOf,
  cbmsFiscalYear,
  fiscalPeriod,
  fiscalYearOf,
} from '../../../src/modules/invoices/nepali-calendar';
import { amountInWords, numberInWords, rupees, taxFigures } from '../../../src/modules/invoices/tax-figures';

describe('taxFigures', () => {
  it.each([
    // payable NPR, taxable paisa, VAT paisa
    [1130, 100_000, 13_000],
    [1001, 88_584, 11_516], // 88584.07… rounds down
    [1, 88, 12], // 88.49… → 88
    [17, 1504, 196], // 1504.42… → 1504
    [113_000_000, 10_000_000_000, 1_300_000_000],
  ])('VAT-inclusive %i NPR: taxable %i, VAT %i, adding up to the total', (payable, taxable, vat) => {
    const f = taxFigures({ payable, discount: 0, ratePercent: 13, pricesIncludeVat: true });
    expect(f).toMatchObject({
      taxableAmount: taxable,
      vatAmount: vat,
      exemptAmount: 0,
      totalAmount: payable * 100,
    });
    expect(f.taxableAmount + f.vatAmount + f.exemptAmount).toBe(f.totalAmount);
  });

  it('rounds half up at exactly half a paisa', () => {
    // At 60 %: 100 paisa × 100 / 160 = 62.5 → 63, VAT 37.
    expect(taxFigures({ payable: 1, discount: 0, ratePercent: 60, pricesIncludeVat: true })).toMatchObject({
      taxableAmount: 63,
      vatAmount: 37,
    });
  });

  it('VAT-exclusive prices add VAT on top; the discount is reported in paisa', () => {
    expect(taxFigures({ payable: 1001, discount: 50, ratePercent: 13, pricesIncludeVat: false })).toEqual({
      discountAmount: 5000,
      taxableAmount: 100_100,
      vatAmount: 13_013,
      exemptAmount: 0,
      totalAmount: 113_113,
    });
  });
});

describe('words and rupees', () => {
  it.each([
    [0, 'Zero'],
    [7, 'Seven'],
    [45, 'Forty-Five'],
    [100, 'One Hundred'],
    [1_000, 'One Thousand'],
    [1_00_000, 'One Lakh'],
    [12_34_567, 'Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven'],
    [1_00_00_000, 'One Crore'],
    [98_76_54_321, 'Ninety-Eight Crore Seventy-Six Lakh Fifty-Four Thousand Three Hundred Twenty-One'],
  ])('%i → %s', (n, words) => {
    expect(numberInWords(n)).toBe(words);
  });

  it('amounts in words name rupees and paisa', () => {
    expect(amountInWords(123_456_700)).toBe(
      'Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven Rupees only',
    );
    expect(amountInWords(113_050)).toBe('One Thousand One Hundred Thirty Rupees and Fifty Paisa only');
  });

  it('rupees have two decimals and Nepali grouping', () => {
    expect(rupees(123_456_789)).toBe('12,34,567.89');
    expect(rupees(5)).toBe('0.05');
    expect(rupees(123_456_789, false)).toBe('1234567.89');
  });
});

describe('Nepali calendar', () => {
  it('the BS date is the date in Nepal (UTC+05:45), whatever the server zone', () => {
    expect(bsDateOf(new Date('2025-07-16T18:14:59Z'))).toEqual({ year: 2082, month: 3, day: 32 });
    expect(bsDateOf(new Date('2025-07-16T18:15:00Z'))).toEqual({ year: 2082, month: 4, day: 1 });
  });

  it('the fiscal year turns at midnight of 1 Shrawan in Nepal', () => {
    expect(fiscalYearOf(new Date('2025-07-16T18:14:59Z'))).toBe('2081/82');
    expect(fiscalYearOf(new Date('2025-07-16T18:15:00Z'))).toBe('2082/83');
    expect(fiscalYearOf(new Date('2033-07-16T12:00:00Z'))).toBe('2090/91');
    // Past 2090 BS: the package's tables reach 2100.
    expect(fiscalYearOf(new Date('2040-01-01T00:00:00Z'))).toBe('2096/97');
  });

  it('CBMS writes the fiscal year its own way; periods are Nepal midnights', () => {
    expect(cbmsFiscalYear('2082/83')).toBe('2082.083');
    expect(cbmsFiscalYear('2099/00')).toBe('2099.000');
    expect(fiscalPeriod('2082/83')).toEqual({
      from: new Date('2025-07-16T18:15:00Z'),
      to: new Date('2026-07-16T18:15:00Z'),
    });
    // Baisakh (month 1) of 2082/83 is in BS 2083.
    expect(fiscalPeriod('2082/83', 1).from).toEqual(new Date('2026-04-13T18:15:00Z'));
  });
});
