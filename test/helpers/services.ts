// Which tier the suite runs on. The services tier needs DATABASE_URL and REDIS_URL.
export const servicesTier = process.env.TEST_SERVICES === '1';

export function serviceUrls(): { databaseUrl: string; redisUrl: string } {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    throw new Error(
      'test:services needs DATABASE_URL and REDIS_URL (see README, "Running on PostgreSQL and Redis")',
    );
  }
  return { databaseUrl, redisUrl };
}

/** The same database server, another database on it. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
