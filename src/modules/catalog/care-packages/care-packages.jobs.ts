import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/jobs';
import type { ModuleContext } from '../../../platform/module';
import { expireSubscriptions } from './care-packages.service';

/** Hourly: covers whose end has passed become `expired`. */
export const EXPIRE_SUBSCRIPTIONS_CRON = '7 * * * *';

export const expireSubscriptionsJob = (deps: Pick<ModuleContext, 'db' | 'clock'>) =>
  defineJob({
    name: 'catalog.expire_care_package_subscriptions',
    payload: z.object({}),
    attempts: 1,
    handler: async () => {
      await expireSubscriptions(deps.db, deps.clock.now());
    },
  });
