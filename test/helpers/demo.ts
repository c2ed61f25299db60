// The demo seeder's dependencies taken from a test app's platform, for the seed:demo tests: the
// same ones `npm run seed:demo` passes, the cache included (its writes clear the app's caches).
import type { SeedDeps } from '../../scripts/seed-demo';
import type { TestApp } from './app';

export const demoSeedDeps = ({ platform }: TestApp): SeedDeps => ({
  db: platform.database.db,
  clock: platform.clock,
  storage: platform.storage,
  config: platform.config,
  cache: platform.cache,
});
