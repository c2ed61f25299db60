// Who may read a ticket; REST routes and the realtime rooms both ask this function.
import type { Principal } from '../../../platform/auth/principal';
import type { Db } from '../../../platform/db/database';
import { inquiryErrors } from '../inquiries/inquiries.errors';
import { requestErrors } from './requests.errors';
import { findRequestOwner } from './requests.repository';

/**
 * Customers reach only their own tickets; another customer's ticket answers 404 like an
 * unknown one, so ticket ids reveal nothing. Guests never reach tickets (403
 * SUPPORT_INQUIRY_ACCESS_DENIED). Admins pass for any existing ticket (the caller checks
 * their permission); an unknown id is 404.
 */
export async function assertRequestReadable(db: Db, principal: Principal, requestId: number): Promise<void> {
  if (principal.actor === 'guest') throw inquiryErrors.accessDenied();
  const row = await findRequestOwner(db, requestId);
  if (!row) throw requestErrors.notFound();
  if (principal.actor === 'customer' && row.customerId !== principal.userId) throw requestErrors.notFound();
}
