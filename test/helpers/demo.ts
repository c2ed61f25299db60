// The demo seeder's dependencies taken from a test app's platform, for the seed:demo tests.
import type { SeedDeps } from '../../scripts/seed-demo';
import type { TestApp } from './app';

export const demoSeedDeps = ({ platform }: TestApp): SeedDeps => ({
  db: platform.database.db,
  clock: platform.clock,
  storage: platform.storage,
  config: platform.config,
});
