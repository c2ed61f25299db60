// Tax invoices (Nepal, IRD e-billing): a tax invoice issued in the transaction that makes an
// order paid, a credit note in the one that returns it, unbroken number series per fiscal year,
// rows the database keeps as issued, PDFs with the original/copy rule, the Schedule 5 registers
// and the CBMS sync. Orders, activity, identity, notifications and pos (whose counter receipt
// becomes the tax invoice: `saleReceipts`, handed to pos by app.ts) are reached through their
// index.ts only.
// Events: hears, in the order's transaction, `order.paid` (a tax invoice is due) and
// `order.cancelled` / `refund.processed` (a paid order returned: a credit note); publishes
// `invoice.issued` and `credit_note.issued`.
import type { ModuleContext, PasalModule } from '../../platform/module';
import { createNotifier } from '../notifications';
import { documentOrderOf } from '../orders';
import type { ReceiptProvider } from '../pos';
import { cbmsSyncJob } from './cbms.sync';
import { invoicePermissions } from './invoices.permissions';
import { invoiceRoutes } from './invoices.routes';
import { type InvoiceDeps, issueCreditNote, issueInvoice, posReceiptPdf } from './invoices.service';

export { invoicePermissions } from './invoices.permissions';
export { getDocument as getTaxDocument } from './invoices.service';

/** A paid counter sale's receipt is its tax invoice on 80 mm paper (for `createPosModule`). */
export const saleReceipts =
  (ctx: Pick<ModuleContext, 'db' | 'clock' | 'config'>): ReceiptProvider =>
  (p) =>
    posReceiptPdf(ctx, p);

export const invoicesModule: PasalModule = {
  name: 'invoices',
  tags: {
    invoices:
      'Nepal VAT documents: tax invoices and credit notes, their PDFs, CBMS sync and the sales registers.',
  },
  permissions: [{ module: invoicePermissions.module, codes: invoicePermissions.codes }],
  events: {
    publishes: ['invoice.issued', 'credit_note.issued'],
    subscribes: ['order.paid', 'order.cancelled', 'refund.processed'],
  },
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
    // In the order's transaction: the document commits with the change that makes it due.
    ctx.events.inTransaction('order.paid', async (tx, e, { afterCommit }) => {
      const order = await documentOrderOf(tx, e.orderId);
      await issueInvoice(deps, tx, afterCommit, { order, adminId: e.paidByAdminId });
    });
    ctx.events.inTransaction('order.cancelled', async (tx, e, { afterCommit }) => {
      if (!e.refundDue) return;
      const order = await documentOrderOf(tx, e.orderId);
      await issueCreditNote(deps, tx, afterCommit, {
        order,
        adminId: e.adminId,
        reason: e.reason ?? 'Order cancelled',
      });
    });
    ctx.events.inTransaction('refund.processed', async (tx, e, { afterCommit }) => {
      if (!e.approved) return;
      const order = await documentOrderOf(tx, e.orderId);
      await issueCreditNote(deps, tx, afterCommit, { order, adminId: e.adminId, reason: e.reason });
    });
    invoiceRoutes(ctx.app, { ...deps, counters: ctx.counters, enqueueSync });
  },
};
