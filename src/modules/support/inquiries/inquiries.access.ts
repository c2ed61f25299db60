// Who may read an inquiry. REST routes and the realtime rooms both ask these functions, so
// the two can never disagree.
import type { GuestPrincipal, Principal } from '../../../platform/auth/principal';
import type { Clock } from '../../../platform/clock';
import type { Db } from '../../../platform/db/database';
import { sha256Hex } from '../../../platform/security/tokens';
import { inquiryErrors } from './inquiries.errors';
import { findInquiryOwner, findLiveAccessToken } from './inquiries.repository';

export const INQUIRY_TOKEN_PREFIX = 'si_';

/** How a stored `si_` token is named to close its sockets (`credentialKeys.guest`). */
export const inquiryTokenCredential = (tokenId: number) => `support-inquiry-token:${tokenId}`;

/**
 * Order of checks: a guest token names one inquiry, so a guest asking for any other id is
 * refused as a mismatched token (403 SUPPORT_INQUIRY_TOKEN_INVALID) before the id is looked
 * up, and learns nothing about which ids exist. Customers and admins: an unknown id is 404
 * SUPPORT_INQUIRY_NOT_FOUND; a customer on another's (or a guest's) inquiry is 403
 * SUPPORT_INQUIRY_ACCESS_DENIED. Admins pass (the caller checks their permission).
 */
export async function assertInquiryReadable(db: Db, principal: Principal, inquiryId: number): Promise<void> {
  if (principal.actor === 'guest' && principal.subject !== inquiryId) throw inquiryErrors.tokenInvalid();
  const row = await findInquiryOwner(db, inquiryId);
  if (!row) throw inquiryErrors.notFound();
  if (principal.actor === 'customer' && row.customerId !== principal.userId)
    throw inquiryErrors.accessDenied();
}

/**
 * The `si_` guest credential: its digest must be stored, unexpired and unrevoked; the
 * principal's subject is the inquiry id it opens. Its id and expiry let a socket opened with
 * it be closed when it is revoked or expires.
 */
export function inquiryGuestResolver(deps: { db: Db; clock: Clock }) {
  return async (token: string): Promise<GuestPrincipal | null> => {
    const row = await findLiveAccessToken(deps.db, sha256Hex(token), deps.clock.now());
    return row
      ? {
          actor: 'guest',
          token,
          subject: row.inquiryId,
          credentialId: inquiryTokenCredential(row.id),
          expiresAt: row.expiresAt,
        }
      : null;
  };
}
