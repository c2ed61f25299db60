// The app's OpenAPI document, built in-process from the routes (no server, no migrations):
// what `npm run client:generate` turns into the typed client, and what the tests lint.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pino from 'pino';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { pgliteDatabase, pgliteExtensions } from '../src/platform/db/database';
import { createPlatform } from '../src/platform/platform';

/**
 * Fixed settings, so the document (and the client made from it) does not depend on the
 * machine's environment: the defaults, with every optional route family of the defaults.
 */
const DOCUMENT_SETTINGS = {
  NODE_ENV: 'development',
  LOG_LEVEL: 'silent',
  PUBLIC_BASE_URL: 'http://localhost:3000',
  JWT_SECRET: 'openapi-document-jwt-secret-0123456789abcdef',
  URL_SIGNING_SECRET: 'openapi-document-url-secret-0123456789abcdef',
  DOCS_ENABLED: 'true',
};

export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-openapi-'));
  const config = loadConfig({ ...DOCUMENT_SETTINGS, DATA_DIR: dataDir });
  // An empty in-memory database: registering routes reads nothing from it.
  const database = pgliteDatabase(await PGlite.create({ extensions: pgliteExtensions }));
  const platform = await createPlatform(config, { log: pino({ level: 'silent' }), database });
  try {
    const app = await buildApp(platform, { role: 'api' });
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
