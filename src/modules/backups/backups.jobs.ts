import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Clock } from '../../platform/clock';
import { type BackupSource, makeBackup, pruneBackups } from '../../platform/db/backup';
import type { Db } from '../../platform/db/database';
import { backupDir } from '../../platform/db/db-commands';
import { inTransaction } from '../../platform/db/transaction';
import { defineJob } from '../../platform/jobs/jobs';
import type { Metrics } from '../../platform/metrics/metrics';
import type { Notifier } from '../notifications';
import { systemPermissions } from '../system';

export interface ScheduledBackupDeps {
  db: Db;
  source: BackupSource;
  clock: Clock;
  config: Pick<Config, 'DATA_DIR' | 'BACKUP_DIR' | 'BACKUP_KEEP'>;
  log: Logger;
  metrics: Pick<Metrics, 'backupLastSuccess'>;
  notifier: Notifier;
}

/**
 * `BACKUP_CRON`'s job: a dump in `BACKUP_DIR`, then only the `BACKUP_KEEP` newest kept. A
 * failure is not retried (the next run is the retry): it is logged, and the admins who may
 * change the system (superadmins always) are told in the back office.
 */
export const scheduledBackupJob = (deps: ScheduledBackupDeps) =>
  defineJob({
    name: 'backup.scheduled',
    payload: z.object({}),
    attempts: 1,
    handler: async () => {
      const dir = backupDir(deps.config);
      try {
        const result = await makeBackup({ source: deps.source, dir, now: deps.clock.now() });
        const removed = pruneBackups(dir, deps.config.BACKUP_KEEP);
        deps.metrics.backupLastSuccess.set(deps.clock.now().getTime() / 1000);
        deps.log.info(
          {
            file: result.file,
            bytes: result.bytes,
            tables: result.tables,
            ms: result.ms,
            removed: removed.length,
          },
          'scheduled backup written',
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        deps.log.error({ err: error, dir }, 'scheduled backup failed');
        await inTransaction(deps.db, (tx, afterCommit) =>
          deps.notifier.notifyAdmins(tx, afterCommit, {
            permission: systemPermissions.UPDATE,
            type: 'BACKUP_FAILED',
            title: 'The scheduled backup failed',
            body: `No backup was written to ${dir}: ${reason.slice(0, 500)}`,
            data: { dir },
          }),
        );
        throw error;
      }
    },
  });
