// Tax invoices (Nepal, IRD e-billing): a tax invoice issued in the transaction that makes an
// order paid, a credit note in the one that returns it, unbroken number series per fiscal year,
// rows the database keeps as issued, PDFs with the original/copy rule, the Schedule 5 registers
// and the CBMS sync. Orders (its in-transaction hooks), activity, identity, notifications and
// pos (whose counter receipt becomes the tax invoice) are reached through their index.ts only.
import type { PasalModule } from '../../platform/module';
import { createNotifier } from '../notifications';
import { onOrderPaidInTransaction, onOrderReturnedInTransaction } from '../orders';
import { provideSaleReceipt } from '../pos';
import { cbmsSyncJob } from './cbms.sync';
import { invoicePermissions } from './invoices.permissions';
import { invoiceRoutes } from './invoices.routes';
import { type InvoiceDeps, issueCreditNote, issueInvoice, posReceiptPdf } from './invoices.service';

export { invoicePermissions } from './invoices.permissions';
export { getDocument as getTaxDocument } from './invoices.service';

export const invoicesModule: PasalModule = {
  name: 'invoices',
  tags: {
    invoices:
      'Nepal VAT documents: tax invoices and credit notes, their PDFs, CBMS sync and the sales registers.',
  },
  permissions: [{ module: invoicePermissions.module, codes: invoicePermissions.codes }],
  register(ctx) {
    const syncJob = cbmsSyncJob({
      db: ctx.db,
      clock: ctx.clock,
      config: ctx.config,
      notifier: createNotifier(ctx),
      log: ctx.log,
    });
    ctx.jobs.register(syncJob);
    // One job per document; a resync is a new job (the first may still be kept as finished).
    const enqueueSync = (documentId: number, resync: boolean) =>
      ctx.jobs.enqueue(
        syncJob,
        { documentId, resync },
        { jobId: resync ? `${documentId}-resync-${ctx.clock.now().getTime()}` : String(documentId) },
      );
    const deps: InvoiceDeps = {
      db: ctx.db,
      clock: ctx.clock,
      config: ctx.config,
      queueSync: (afterCommit, documentId) => afterCommit(() => enqueueSync(documentId, false)),
    };
    onOrderPaidInTransaction(ctx.db, async (tx, afterCommit, e) => {
      await issueInvoice(deps, tx, afterCommit, e);
    });
    onOrderReturnedInTransaction(ctx.db, async (tx, afterCommit, e) => {
      await issueCreditNote(deps, tx, afterCommit, e);
    });
    // A paid counter sale's receipt is its tax invoice on 80 mm paper.
    provideSaleReceipt(ctx.db, (p) => posReceiptPdf(deps, p));
    invoiceRoutes(ctx.app, { ...deps, counters: ctx.counters, enqueueSync });
  },
};
