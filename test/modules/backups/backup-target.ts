// An empty database to restore a dump into, on the tier the suite runs on: a new PGlite in
// memory, or a new (empty, not from the migrated template) database on the PostgreSQL server.
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  loadIntoPostgres,
  pgliteSession,
  postgresSession,
  readBackupSql,
  type SqlSession,
} from '../../../src/platform/db/backup';
import { answerInstantsAsText, pgliteExtensions } from '../../../src/platform/db/database';
import { servicesTier, serviceUrls, withDatabase } from '../../helpers/services';

export interface RestoreTarget {
  session: SqlSession;
  url?: string;
  load(file: string): Promise<void>;
  close(): Promise<void>;
}

export async function emptyTarget(): Promise<RestoreTarget> {
  if (!servicesTier) {
    // Opened as Pasal opens its embedded database, so rows compare with the source's as they are.
    const client = await PGlite.create({ extensions: pgliteExtensions });
    answerInstantsAsText(client);
    const session = pgliteSession(client);
    // The dump empties search_path for its own session; this session goes on being used.
    const load = (file: string) => session.exec(`${readBackupSql(file)};\nreset all;`);
    return { session, load, close: () => session.close() };
  }
  const { databaseUrl } = serviceUrls();
  const name = `pasal_restore_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = withDatabase(databaseUrl, name);
  const session = await postgresSession(url);
  return {
    session,
    url,
    load: (file) => loadIntoPostgres(url, file),
    async close() {
      await session.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
