// Links between customers and their accounts at the identity provider, keyed by (issuer, subject).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { identityProviderLinks } from '../identity.table';

export type LinkRow = typeof identityProviderLinks.$inferSelect;

export async function findLink(db: Db, issuer: string, subject: string): Promise<LinkRow | undefined> {
  const [row] = await db
    .select()
    .from(identityProviderLinks)
    .where(and(eq(identityProviderLinks.issuer, issuer), eq(identityProviderLinks.subject, subject)));
  return row;
}

export async function insertLink(
  db: Db,
  values: {
    userId: string;
    issuer: string;
    subject: string;
    email: string;
    tokensEncrypted: string;
    at: Date;
  },
): Promise<LinkRow> {
  const [row] = await db
    .insert(identityProviderLinks)
    .values({
      userId: values.userId,
      issuer: values.issuer,
      subject: values.subject,
      email: values.email,
      tokensEncrypted: values.tokensEncrypted,
      tokensUpdatedAt: values.at,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning();
  return row!;
}

/** The tokens (and address) of the latest sign-in through this link. */
export async function updateLinkTokens(
  db: Db,
  id: number,
  values: { email: string; tokensEncrypted: string; at: Date },
): Promise<void> {
  await db
    .update(identityProviderLinks)
    .set({
      email: values.email,
      tokensEncrypted: values.tokensEncrypted,
      tokensUpdatedAt: values.at,
      updatedAt: values.at,
    })
    .where(eq(identityProviderLinks.id, id));
}
