import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import {
  type Database,
  pgliteDatabase,
  pgliteExtensions,
  postgresDatabase,
} from '../../src/platform/db/database';
import { servicesTier, serviceUrls, withDatabase } from './services';

let snapshot: Blob | undefined;

/** A fresh, migrated database for one test file: PGlite, or a new PostgreSQL database. */
export async function freshDatabase(): Promise<Database & { url?: string }> {
  if (!servicesTier) {
    snapshot ??= new Blob([readFileSync(inject('pgliteSnapshot'))]);
    const client = await PGlite.create({ loadDataDir: snapshot, extensions: pgliteExtensions });
    return pgliteDatabase(client);
  }
  const { databaseUrl } = serviceUrls();
  const name = `pasal_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(databaseUrl, name);
  const database = postgresDatabase(url, 5);
  return {
    ...database,
    url,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: databaseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}
