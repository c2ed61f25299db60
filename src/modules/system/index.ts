// System: the smallest complete module, and a tool for operators. It reports the server's
// version, uptime and engines, and runs a heartbeat job that shows workers are alive.
// Copy its shape (routes → service → repository, a job, permissions) for a new module.
import type { PasalModule } from '../../platform/module';
import { HEARTBEAT_CRON, heartbeatJob } from './system.jobs';
import { systemPermissions } from './system.permissions';
import { systemRoutes } from './system.routes';

export { systemPermissions } from './system.permissions';

export const systemModule: PasalModule = {
  name: 'system',
  tags: {
    system: 'Service status and information about the running instance.',
  },
  permissions: [{ module: systemPermissions.module, codes: systemPermissions.codes }],
  async register(ctx) {
    const heartbeat = heartbeatJob(ctx);
    ctx.jobs.register(heartbeat);
    await ctx.jobs.schedule(heartbeat, HEARTBEAT_CRON, {});
    systemRoutes(ctx, { startedAt: ctx.clock.now(), heartbeat });
  },
};
