// Typed test data: accounts with the permissions a test needs, and their tokens.
import { randomBytes } from 'node:crypto';
import {
  createAdmin,
  createCustomerAccount,
  createRole,
  type SessionTokens,
  startSession,
} from '../../src/modules/identity';
import type { TestApp } from './app';

const unique = () => randomBytes(5).toString('hex');
export const TEST_PASSWORD = 'correct-horse-battery';

export interface SignedIn {
  userId: string;
  email: string;
  tokens: SessionTokens;
  /** `{ authorization: 'Bearer …' }` for app.inject. */
  headers: { authorization: string };
}

async function signIn(
  t: TestApp,
  user: { id: string; email: string },
  actor: 'admin' | 'customer',
): Promise<SignedIn> {
  const { platform } = t;
  const tokens = await startSession({
    db: platform.database.db,
    tokens: platform.tokens,
    clock: platform.clock,
    refreshTtlDays: platform.config.JWT_REFRESH_TTL_DAYS,
    userId: user.id,
    actor,
    deviceInfo: { deviceId: 'test-device', deviceType: 'test', deviceName: 'Vitest' },
  });
  return {
    userId: user.id,
    email: user.email,
    tokens,
    headers: { authorization: `Bearer ${tokens.accessToken}` },
  };
}

/** An admin whose role holds exactly `permissions` (or a superadmin with `superadmin: true`). */
export async function signedInAdmin(
  t: TestApp,
  opts: { permissions?: string[]; superadmin?: boolean; email?: string } = {},
): Promise<SignedIn> {
  const db = t.platform.database.db;
  const role = opts.superadmin
    ? 'superadmin'
    : (await createRole({ db, name: `role-${unique()}`, permissions: opts.permissions ?? [] })).name;
  const admin = await createAdmin({
    db,
    email: opts.email ?? `admin-${unique()}@example.com`,
    password: TEST_PASSWORD,
    name: 'Test Admin',
    role,
  });
  return signIn(t, admin, 'admin');
}

export async function signedInCustomer(
  t: TestApp,
  opts: { email?: string; name?: string } = {},
): Promise<SignedIn> {
  const customer = await createCustomerAccount({
    db: t.platform.database.db,
    email: opts.email ?? `customer-${unique()}@example.com`,
    name: opts.name ?? 'Test Customer',
    password: TEST_PASSWORD,
    emailVerified: true,
  });
  return signIn(t, customer, 'customer');
}
