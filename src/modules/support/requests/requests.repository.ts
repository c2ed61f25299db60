// Every query of tickets and their messages.
import { eq } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { supportRequests } from './requests.table';

export async function findRequestOwner(db: Db, requestId: number) {
  const [row] = await db
    .select({ customerId: supportRequests.customerId })
    .from(supportRequests)
    .where(eq(supportRequests.id, requestId))
    .limit(1);
  return row;
}
