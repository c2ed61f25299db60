// In-store sales (POS), `/api/admin/pos`: staff terminals look up or sign up customers, turn a
// sale into an order, record its payment (payments publishes `payment.completed`, and orders
// makes the order paid), note failed attempts, confirm pickups, list, export and total the
// counter's sales, and print a receipt (the tax invoice on 80 mm when the app hands in the
// invoices module's renderer). Orders, payments, identity and catalog are reached through
// their index.ts only.
import type { ModuleContext, PasalModule } from '../../platform/module';
import type { ReceiptProvider } from './pos.documents';
import { posPermissions } from './pos.permissions';
import { posRoutes } from './pos.routes';

export { csvDocumentStart, csvRow } from './pos.csv';
export type { ProvidedReceipt, ReceiptProvider } from './pos.documents';
export { posPermissions } from './pos.permissions';

export interface PosModuleOptions {
  /** The document that replaces a sale's plain receipt when it has one (the tax invoice). */
  saleReceipt?: (ctx: ModuleContext) => ReceiptProvider;
}

export function createPosModule(options: PosModuleOptions = {}): PasalModule {
  return {
    name: 'pos',
    tags: {
      pos: 'The counter (point of sale): customers, orders, payments, receipts.',
    },
    permissions: [{ module: posPermissions.module, codes: posPermissions.codes }],
    events: { publishes: [], subscribes: [] },
    async register(ctx) {
      posRoutes({ ...ctx, saleReceipt: options.saleReceipt?.(ctx) });
    },
  };
}

/** The counter without another module's receipts (the app's own is built in app.ts). */
export const posModule: PasalModule = createPosModule();
