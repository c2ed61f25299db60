import { int, optionalString, setting } from '../../platform/settings';

export const backupSettings = {
  BACKUP_DIR: setting({
    doc: 'Folder where `db:backup` and the scheduled backups write `pasal-YYYYMMDD-HHmmss.sql.gz` (UTC). Unset: `DATA_DIR/backups`.',
    schema: optionalString,
    example: '/var/backups/pasal',
  }),
  BACKUP_CRON: setting({
    doc: 'Cron pattern (UTC) of the scheduled backup the worker makes (`backup.scheduled`); unset: no scheduled backups. On PostgreSQL the worker needs `pg_dump`.',
    schema: optionalString,
    example: '30 2 * * *',
  }),
  BACKUP_KEEP: setting({
    doc: 'After a scheduled backup, only this many newest `pasal-….sql.gz` in `BACKUP_DIR` are kept (with their `.files.tar.gz`).',
    schema: int(1, 10_000),
    default: '7',
  }),
} as const;
