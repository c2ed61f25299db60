import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { type UploadRow, uploads } from './uploads.table';

export async function insertUploads(db: Db, rows: (typeof uploads.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(uploads).values(rows);
}

export async function findUpload(db: Db, key: string): Promise<UploadRow | null> {
  const [row] = await db.select().from(uploads).where(eq(uploads.key, key)).limit(1);
  return row ?? null;
}
