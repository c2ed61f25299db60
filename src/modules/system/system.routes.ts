import { z } from 'zod';
import { access } from '../../platform/auth/access';
import { envelopeSchema, ok } from '../../platform/http/envelope';
import type { ModuleContext } from '../../platform/module';
import type { heartbeatJob } from './system.jobs';
import { systemPermissions } from './system.permissions';
import { systemInfo, systemStatus } from './system.schemas';
import { getSystemInfo, getSystemStatus, requestHeartbeat } from './system.service';

export function systemRoutes(
  ctx: ModuleContext,
  deps: { startedAt: Date; heartbeat: ReturnType<typeof heartbeatJob> },
) {
  const { app } = ctx;
  const serviceDeps = { ...ctx, startedAt: deps.startedAt };

  app.get(
    '/api/admin/system/info',
    {
      config: { access: access.admin(systemPermissions.READ) },
      schema: {
        tags: ['system'],
        summary: 'Version, uptime and the engines this server runs on',
        response: { 200: envelopeSchema(systemInfo) },
      },
    },
    async () => ok(await getSystemInfo(serviceDeps), 'System information'),
  );

  app.post(
    '/api/admin/system/heartbeat',
    {
      config: { access: access.admin(systemPermissions.UPDATE) },
      schema: {
        tags: ['system'],
        summary: 'Queue a heartbeat job now (checks that workers take jobs)',
        response: { 200: envelopeSchema(z.object({ queued: z.literal(true) })) },
      },
    },
    async () => {
      await requestHeartbeat(ctx, deps.heartbeat);
      return ok({ queued: true as const }, 'Heartbeat queued');
    },
  );

  app.get(
    '/api/system/status',
    {
      config: { access: access.public() },
      schema: {
        tags: ['system'],
        summary: 'Public version and job heartbeat (cached for 10 s)',
        response: { 200: envelopeSchema(systemStatus) },
      },
    },
    async () => ok(await getSystemStatus(ctx), 'System status'),
  );
}
