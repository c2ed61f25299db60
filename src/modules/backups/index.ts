// Scheduled backups (BACKUP_CRON) on the worker; the dump itself and the operator's commands
// (`db:backup`, `db:restore`, `db:move-to-postgres`) are in platform/db.
import { backupSourceOf } from '../../platform/db/backup';
import type { PasalModule } from '../../platform/module';
import { createNotifier } from '../notifications';
import { scheduledBackupJob } from './backups.jobs';

export const backupsModule: PasalModule = {
  name: 'backups',
  async register(ctx) {
    if (!ctx.config.BACKUP_CRON) return;
    const job = scheduledBackupJob({
      db: ctx.db,
      source: backupSourceOf(ctx.db, ctx.config.DATABASE_URL),
      clock: ctx.clock,
      config: ctx.config,
      log: ctx.log,
      metrics: ctx.metrics,
      notifier: createNotifier(ctx),
    });
    ctx.jobs.register(job);
    await ctx.jobs.schedule(job, ctx.config.BACKUP_CRON, {}, { timezone: 'UTC' });
  },
};
