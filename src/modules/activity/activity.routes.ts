import { access } from '../../platform/auth/access';
import { listEnvelopeSchema, okWithMeta } from '../../platform/http/envelope';
import type { ModuleContext } from '../../platform/module';
import { activityPermissions } from './activity.permissions';
import { activityEntry, activityListQuery } from './activity.schemas';
import { listActivity } from './activity.service';

export function activityRoutes(ctx: ModuleContext) {
  ctx.app.get(
    '/api/admin/activity',
    {
      config: { access: access.admin(activityPermissions.READ) },
      schema: {
        tags: ['activity'],
        summary: 'What admins did, newest first',
        querystring: activityListQuery,
        response: { 200: listEnvelopeSchema(activityEntry) },
      },
    },
    async (request) => {
      const { entries, meta } = await listActivity(ctx, request.query);
      return okWithMeta(entries, meta, 'Admin activity');
    },
  );
}
