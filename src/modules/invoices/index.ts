// Tax invoices (Nepal, IRD e-billing): a tax invoice issued in the transaction that makes an
// order paid, a credit note in the one that returns it, unbroken number series per fiscal year,
// rows the database keeps as issued, PDFs with the original/copy rule, the Schedule 5 registers
// and the CBMS sync. Orders (its in-transaction hooks), activity, identity, notifications and
// pos are reached through their index.ts only.
import type { PasalModule } from '../../platform/module';
import { createNotifier } from '../notifications';
import { onOrderPaidInTransaction, onOrderReturnedInTransaction } from '../orders';
import { cbmsSyncJob } from './cbms.sync';
import { invoicePermissions } from './invoices.permissions';
import { invoiceRoutes } from './invoices.routes';
import { type InvoiceDeps, issueCreditNote, issueInvoice } from './invoices.service';

export { invoicePermissions } from './invoices.permissions';

export const invoicesModule: PasalModule = {
  name: 'invoices',
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
    invoiceRoutes(ctx.app, { ...deps, enqueueSync });
  },
};
