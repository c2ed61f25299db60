// Activity: the back office's audit trail. Every admin write of every module records one
// entry with `recordActivity`, inside the write's own transaction; admins read the trail.
import type { PasalModule } from '../../platform/module';
import { activityPermissions } from './activity.permissions';
import { activityRoutes } from './activity.routes';

export { type ActivityRecord, recordActivity } from './activity.service';

export const activityModule: PasalModule = {
  name: 'activity',
  tags: {
    activity: 'The audit trail of admin actions.',
  },
  permissions: [{ module: activityPermissions.module, codes: activityPermissions.codes }],
  register(ctx) {
    activityRoutes(ctx);
  },
};
