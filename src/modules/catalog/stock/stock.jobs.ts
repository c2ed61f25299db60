import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/jobs';
import type { ModuleContext } from '../../../platform/module';
import { expireStaleReservations } from './stock.service';

/** Every minute: reservations past their expiry go back on sale. */
export const EXPIRE_RESERVATIONS_CRON = '* * * * *';

export const expireReservationsJob = (deps: Pick<ModuleContext, 'db' | 'clock'>) =>
  defineJob({
    name: 'catalog.expire_stock_reservations',
    payload: z.object({}),
    attempts: 1,
    handler: async () => {
      await expireStaleReservations(deps.db, { at: deps.clock.now() });
    },
  });
