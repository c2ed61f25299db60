// Repairs: customers book free repairs of their devices (brands from the catalog or typed in,
// optionally linked to an order of theirs), follow and cancel them; staff move each request
// through its statuses, and the customer hears of every move by in-app notification and push.
import type { PasalModule } from '../../platform/module';
import { createNotifier } from '../notifications';
import { repairPermissions } from './repairs.permissions';
import { adminRepairRoutes, customerRepairRoutes } from './repairs.routes';
import { newTicketNumber, type RepairDeps } from './repairs.service';

export { getRepairRequestForAdmin } from './repairs.service';

export const repairsModule: PasalModule = {
  name: 'repairs',
  events: { publishes: ['repair.status_changed'], subscribes: [] },
  tags: {
    'repair requests': "A customer's repair requests.",
    'repair requests (admin)': 'Handling repair requests in the back office.',
  },
  permissions: [{ module: repairPermissions.module, codes: repairPermissions.codes }],
  register(ctx) {
    const deps: RepairDeps = {
      db: ctx.db,
      clock: ctx.clock,
      config: ctx.config,
      notifier: createNotifier({ db: ctx.db, push: ctx.push, clock: ctx.clock, realtime: ctx.realtime }),
      newTicketNumber,
    };
    customerRepairRoutes(ctx.app, deps);
    adminRepairRoutes(ctx.app, deps);
  },
};
