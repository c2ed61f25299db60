// Every query of support inquiries, their messages, guest tokens and email codes.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../../platform/db/database';
import { supportInquiries, supportInquiryAccessTokens } from './inquiries.table';

export async function findInquiryOwner(db: Db, inquiryId: number) {
  const [row] = await db
    .select({ customerId: supportInquiries.customerId })
    .from(supportInquiries)
    .where(eq(supportInquiries.id, inquiryId))
    .limit(1);
  return row;
}

export async function findLiveAccessToken(db: Db, tokenDigest: string, now: Date) {
  const [row] = await db
    .select({ inquiryId: supportInquiryAccessTokens.supportInquiryId })
    .from(supportInquiryAccessTokens)
    .where(
      and(
        eq(supportInquiryAccessTokens.tokenDigest, tokenDigest),
        isNull(supportInquiryAccessTokens.revokedAt),
        gt(supportInquiryAccessTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}
