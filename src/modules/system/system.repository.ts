import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { systemHeartbeats } from './system.table';

export async function recordHeartbeat(db: Db, name: string, at: Date): Promise<void> {
  await db
    .insert(systemHeartbeats)
    .values({ name, beatAt: at })
    .onConflictDoUpdate({ target: systemHeartbeats.name, set: { beatAt: at } });
}

export async function lastHeartbeat(db: Db, name: string): Promise<Date | null> {
  const [row] = await db
    .select({ beatAt: systemHeartbeats.beatAt })
    .from(systemHeartbeats)
    .where(eq(systemHeartbeats.name, name));
  return row?.beatAt ?? null;
}
