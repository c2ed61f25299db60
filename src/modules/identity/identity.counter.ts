// Customers met at the shop counter (POS): found by email, or given an account on the spot.
// The account starts unverified with a random password nobody knows; the customer sets their
// own through the password-reset email sent after the account is committed.
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/errors';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { publishEvent } from '../../platform/events/events';
import { AppError } from '../../platform/http/errors';
import { newUuid } from '../../platform/ids';
import { hashPassword } from '../../platform/security/passwords';
import { randomToken } from '../../platform/security/tokens';
import { type AuthDeps, sendPasswordResetMail } from './auth/auth.service';
import * as repo from './identity.repository';
import { CUSTOMER_ROLE } from './identity.service';

export interface CounterCustomer {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  image: string | null;
}

const toCounterCustomer = (u: repo.UserRow): CounterCustomer => ({
  id: u.id,
  name: u.name,
  email: u.email,
  phone: u.phone,
  image: u.image,
});

/** The live customer account holding `email` (any case), or undefined. */
export async function findCounterCustomer(db: Db, email: string): Promise<CounterCustomer | undefined> {
  const user = await repo.findUserByEmail(db, email.trim());
  if (!user || user.role !== CUSTOMER_ROLE || user.anonymizedAt) return undefined;
  return toCounterCustomer(user);
}

/** The live customer account `id`, or undefined (an admin or an anonymised account is none). */
export async function findCounterCustomerById(db: Db, id: string): Promise<CounterCustomer | undefined> {
  const user = await repo.findUserById(db, id);
  if (!user || user.role !== CUSTOMER_ROLE || user.anonymizedAt || !user.isActive) return undefined;
  return toCounterCustomer(user);
}

export type CounterAccountOutcome =
  | { ok: true; customer: CounterCustomer }
  | { ok: false; reason: 'email_taken' | 'phone_taken' };

/**
 * A new customer account for someone at the counter: the email must belong to no account
 * (customer or staff), the phone (when given) to no other account. Phones have no unique index
 * (several flows set them), so creations with the same phone are serialised by a transaction
 * lock on the phone; emails by their unique index. The password-reset email goes out after
 * commit.
 */
export async function createCounterCustomer(
  deps: AuthDeps & { log: { warn(obj: object, msg: string): void } },
  input: { name: string; email: string; phone: string | null },
): Promise<CounterAccountOutcome> {
  const email = input.email.trim().toLowerCase();
  // A password nobody is told: the account is usable only after the reset the email offers.
  const passwordHash = await hashPassword(randomToken(24));
  try {
    return await inTransaction(
      deps.db,
      async (tx, afterCommit: AfterCommit): Promise<CounterAccountOutcome> => {
        if (await repo.findUserByEmail(tx, email)) return { ok: false, reason: 'email_taken' };
        if (input.phone) {
          await repo.lockCounterPhone(tx, input.phone);
          if (await repo.phoneInUse(tx, input.phone)) return { ok: false, reason: 'phone_taken' };
        }
        const user = await repo.insertUser(tx, {
          id: newUuid(),
          name: input.name,
          email,
          role: CUSTOMER_ROLE,
          passwordHash,
          emailVerified: false,
          phone: input.phone,
          phoneVerified: false,
        });
        await publishEvent(tx, 'customer.registered', { customerId: user.id });
        afterCommit(() => sendPasswordResetMail(deps, { actor: 'customer', email }));
        return { ok: true, customer: toCounterCustomer(user) };
      },
      (error) => deps.log.warn({ err: error }, 'counter customer: password-reset email not sent'),
    );
  } catch (error) {
    // Another counter took the email between the check and the insert.
    if (isUniqueViolation(error, 'users_email_unique')) return { ok: false, reason: 'email_taken' };
    if (error instanceof AppError && error.errorCode === 'AUTH_EMAIL_ALREADY_EXISTS')
      return { ok: false, reason: 'email_taken' };
    throw error;
  }
}
