// The tax screens' pure helpers: paisa as rupees, the document's BS date, fiscal years, and the
// register CSV read back into rows and summed exactly.
import { describe, expect, it } from 'vitest';
import {
  fiscalYearOf,
  formatBsYmd,
  formatPaisa,
  isFiscalYear,
  paisaOfRupees,
  parseCsv,
  recentFiscalYears,
  rupeesOfPaisa,
} from '../../console/src/screens/tax/tax-format';

describe('tax formatting', () => {
  it('shows paisa as rupees with two decimals and lakh grouping', () => {
    expect(formatPaisa(113000)).toBe('NPR 1,130.00');
    expect(formatPaisa(12345678905, 'ne')).toBe('रु 12,34,56,789.05');
    expect(formatPaisa(-50)).toBe('-NPR 0.50');
  });

  it("writes the document's own BS date with the month's name", () => {
    expect(formatBsYmd('2082-08-10')).toBe('10 Mangsir 2082 BS');
    expect(formatBsYmd('2082-08-10', 'ne')).toBe('10 मंसिर 2082 वि.सं.');
    expect(formatBsYmd('not a date')).toBe('not a date');
  });

  it('finds the fiscal year from 1 Shrawan', () => {
    expect(fiscalYearOf('2025-11-29')).toBe('2082/83'); // Mangsir 2082
    expect(fiscalYearOf('2025-07-16')).toBe('2081/82'); // 32 Asar 2082, the year's last day
    expect(fiscalYearOf('2025-07-17')).toBe('2082/83'); // 1 Shrawan 2082
    expect(recentFiscalYears('2082/83', 3)).toEqual(['2082/83', '2081/82', '2080/81']);
    expect(recentFiscalYears('2099/00', 2)).toEqual(['2099/00', '2098/99']);
    expect(isFiscalYear('2082/83')).toBe(true);
    expect(isFiscalYear('2082/84')).toBe(false);
    expect(isFiscalYear('2082-83')).toBe(false);
  });

  it('reads the register CSV back: BOM, CRLF, quotes and doubled quotes', () => {
    const csv =
      '\uFEFFNumber,Buyer name,Total\r\nINV-1,"Shrestha, Sita",1130.00\r\nINV-2,"Say ""Namaste""",\r\n';
    expect(parseCsv(csv)).toEqual([
      ['Number', 'Buyer name', 'Total'],
      ['INV-1', 'Shrestha, Sita', '1130.00'],
      ['INV-2', 'Say "Namaste"', ''],
    ]);
  });

  it('sums rupees exactly, in paisa', () => {
    expect(paisaOfRupees('1130.00')).toBe(113000);
    expect(paisaOfRupees('0.1')).toBe(10);
    expect(paisaOfRupees('-2.05')).toBe(-205);
    expect(paisaOfRupees('')).toBe(0);
    expect(rupeesOfPaisa(paisaOfRupees('0.10') + paisaOfRupees('0.20'))).toBe('0.30');
    expect(rupeesOfPaisa(-205)).toBe('-2.05');
  });
});
