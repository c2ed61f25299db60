// Runs once per test run: builds one migrated database template, which every test file
// then copies (a PGlite data-dir dump, or a PostgreSQL TEMPLATE database): a file costs
// well under a second instead of a full migration.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { pgliteDatabase, pgliteExtensions, postgresDatabase } from '../../src/platform/db/database';
import { servicesTier, serviceUrls, withDatabase } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pasal-test-'));
  if (servicesTier) {
    const { databaseUrl } = serviceUrls();
    const template = `pasal_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const database = postgresDatabase(withDatabase(databaseUrl, template), 2);
    await database.migrate();
    await database.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteSnapshot', '');
    return async () => {
      await admin.query(`drop database if exists ${template}`).catch(() => {});
      await admin.end();
      rmSync(dir, { recursive: true, force: true });
    };
  }

  const client = await PGlite.create({ extensions: pgliteExtensions });
  const database = pgliteDatabase(client);
  await database.migrate();
  const dump = await client.dumpDataDir('none');
  const file = path.join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteSnapshot', file);
  project.provide('postgresTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
