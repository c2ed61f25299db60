// The bench opens Pasal's database itself before the server starts and after it stops
// (PGlite admits one process at a time), to write fixtures and count what was recorded.
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/platform/db/database';

export async function withDatabase<T>(
  env: NodeJS.ProcessEnv,
  work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
) {
  const config = loadConfig({ ...env, NODE_ENV: 'development' });
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    poolSize: 2,
    dataDir: config.DATA_DIR,
  });
  try {
    await database.migrate();
    return await work(database.db);
  } finally {
    await database.close();
  }
}
