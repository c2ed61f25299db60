// The sales register and the sales return register (the IRD billing procedure's Schedule 5):
// one CSV row per document of a fiscal year, or of one BS month of it, in series order, with
// amounts in rupees and two decimals. Each export is written to the activity log.
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db/database';
import { recordActivity } from '../activity';
import { csvDocumentStart, csvRow } from '../pos';
import * as repo from './invoices.repository';
import type { TaxDocumentKind } from './invoices.table';
import { fiscalPeriod } from './nepali-calendar';
import { rupees } from './tax-figures';

const COLUMNS = [
  'Fiscal year',
  'Number',
  'Reference invoice',
  'Buyer name',
  'Buyer PAN',
  'Date (BS)',
  'Total',
  'Discount',
  'Taxable amount',
  'VAT',
  'Exempt amount',
  'Payment method',
  'Printed',
  'Print count',
  'Active',
  'Synced',
  'Issued by',
];

export async function registerCsv(
  deps: { db: Db; clock: Clock },
  p: { kind: TaxDocumentKind; fiscalYear: string; month?: number; adminId: string },
): Promise<{ fileName: string; csv: string }> {
  const period = p.month ? fiscalPeriod(p.fiscalYear, p.month) : undefined;
  const rows = await repo.registerRows(deps.db, {
    kind: p.kind,
    fiscalYear: p.fiscalYear,
    from: period?.from,
    to: period?.to,
  });
  let csv = csvDocumentStart(COLUMNS);
  for (const d of rows) {
    csv += csvRow([
      d.fiscalYear,
      d.number,
      d.referenceNumber,
      d.buyerName,
      d.buyerPan,
      d.bsDate,
      rupees(d.totalAmount, false),
      rupees(d.discountAmount, false),
      rupees(d.taxableAmount, false),
      rupees(d.vatAmount, false),
      rupees(d.exemptAmount, false),
      d.paymentMethod,
      d.printCount > 0 ? 'yes' : 'no',
      d.printCount,
      d.isActive ? 'yes' : 'no',
      d.syncStatus === 'synced' ? 'yes' : d.syncStatus === 'not_required' ? 'not required' : 'no',
      d.issuedByName,
    ]);
  }
  const name = p.kind === 'invoice' ? 'sales-register' : 'sales-return-register';
  const period_ = `${p.fiscalYear.replace('/', '-')}${p.month ? `-m${String(p.month).padStart(2, '0')}` : ''}`;
  await recordActivity(deps.db, {
    adminId: p.adminId,
    action: 'export',
    entityType: p.kind,
    entityId: null,
    summary: `Exported the ${name.replaceAll('-', ' ')} of ${p.fiscalYear}${p.month ? `, BS month ${p.month}` : ''} (${rows.length} documents)`,
    at: deps.clock.now(),
  });
  return { fileName: `${name}-${period_}.csv`, csv };
}
