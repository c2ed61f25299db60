// The sales register and the sales return register (the IRD billing procedure's Schedule 5):
// one CSV row per document of a fiscal year, or of one BS month of it, in series order, with
// amounts in rupees and two decimals, streamed. Each export is written to the activity log.
import { Readable } from 'node:stream';
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

/** Documents read per query: keyset pages of the series, so memory stays flat whatever the year. */
export const REGISTER_BATCH = 500;

function csvLine(d: repo.TaxDocumentRow): string {
  return csvRow([
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

/**
 * A register as a CSV stream: read page by page (`batchSize` documents a query) and written as
 * it is read, never held whole in memory. The export goes to the activity log with the admin
 * and the number of documents written, once the last row is out (or, when the download breaks
 * off, with how far it got).
 */
export function registerCsv(
  deps: { db: Db; clock: Clock; log: { error(obj: object, msg: string): void } },
  p: { kind: TaxDocumentKind; fiscalYear: string; month?: number; adminId: string },
  batchSize = REGISTER_BATCH,
): { fileName: string; stream: Readable } {
  const period = p.month ? fiscalPeriod(p.fiscalYear, p.month) : undefined;
  const filter = { kind: p.kind, fiscalYear: p.fiscalYear, from: period?.from, to: period?.to };
  const name = p.kind === 'invoice' ? 'sales-register' : 'sales-return-register';
  const what = `the ${name.replaceAll('-', ' ')} of ${p.fiscalYear}${p.month ? `, BS month ${p.month}` : ''}`;
  const logExport = (summary: string) =>
    recordActivity(deps.db, {
      adminId: p.adminId,
      action: 'export',
      entityType: p.kind,
      entityId: null,
      summary,
      at: deps.clock.now(),
    });

  async function* lines() {
    yield csvDocumentStart(COLUMNS);
    let written = 0;
    let complete = false;
    try {
      let after = 0;
      for (;;) {
        const rows = await repo.registerBatch(deps.db, filter, after, batchSize);
        if (rows.length) yield rows.map(csvLine).join('');
        written += rows.length;
        if (rows.length < batchSize) break;
        after = rows[rows.length - 1]!.sequence;
      }
      // Logged before the stream ends, so the entry exists once the download has arrived.
      await logExport(`Exported ${what} (${written} documents)`);
      complete = true;
    } finally {
      if (!complete) {
        await logExport(`Started an export of ${what}; it broke off after ${written} documents`).catch(
          (error: unknown) => deps.log.error({ err: error }, 'could not log a broken-off register export'),
        );
      }
    }
  }

  const period_ = `${p.fiscalYear.replace('/', '-')}${p.month ? `-m${String(p.month).padStart(2, '0')}` : ''}`;
  return { fileName: `${name}-${period_}.csv`, stream: Readable.from(lines(), { objectMode: false }) };
}
