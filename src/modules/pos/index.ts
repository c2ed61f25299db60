// In-store sales (POS), `/api/admin/pos`: staff terminals look up or sign up customers, turn a
// sale into an order, record its payment (the payment-completed event makes it paid), note
// failed attempts, confirm pickups, list, export and total the counter's sales, and print a
// receipt (the tax invoice on 80 mm when the invoices module provides one). Orders, payments, identity and catalog are reached through their index.ts only.
import type { PasalModule } from '../../platform/module';
import { posPermissions } from './pos.permissions';
import { posRoutes } from './pos.routes';

export { csvDocumentStart, csvRow } from './pos.csv';
export { provideSaleReceipt } from './pos.documents';
export { posPermissions } from './pos.permissions';

export const posModule: PasalModule = {
  name: 'pos',
  tags: {
    pos: 'The counter (point of sale): customers, orders, payments, receipts.',
  },
  permissions: [{ module: posPermissions.module, codes: posPermissions.codes }],
  async register(ctx) {
    posRoutes(ctx);
  },
};
