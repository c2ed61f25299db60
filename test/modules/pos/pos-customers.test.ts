// Customers at the counter: lookup by email, account creation (unverified, a random password
// nobody knows, the password-reset email that lets the customer in), duplicates, validation,
// and the per-admin hourly creation limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../../helpers/factories';
import { lastMailTo } from '../../helpers/mail';
import { expectError } from '../cart/calls';
import { ALL_POS, type PosTestApp, posTestApp } from './calls';

let c: PosTestApp;

beforeAll(async () => {
  c = await posTestApp();
});
afterAll(() => c?.t.close());

let seq = 0;
const freshEmail = () => `walkin-${++seq}-${Date.now()}@example.com`;

describe('GET /api/admin/pos/customers/lookup', () => {
  it('finds a customer by email, trimmed and lowercased; null (200) when none', async () => {
    const who = await c.customer({ name: 'Sita Sharma', email: 'sita.lookup@example.com' });
    const res = await c.call(
      'GET',
      `/customers/lookup?email=${encodeURIComponent('  SITA.Lookup@Example.com ')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      exists: true,
      customerId: who.userId,
      name: 'Sita Sharma',
      email: 'sita.lookup@example.com',
      phone: null,
      image: null,
    });
    const none = await c.call('GET', '/customers/lookup?email=nobody@example.com');
    expect(none.statusCode).toBe(200);
    expect(none.json().data).toBeNull();
    // Staff accounts are not customers.
    const staff = await c.call('GET', `/customers/lookup?email=${encodeURIComponent(c.clerk.email)}`);
    expect(staff.json().data).toBeNull();
  });

  it('needs a valid email', async () => {
    expectError(await c.call('GET', '/customers/lookup'), 400, 'VALIDATION_ERROR');
    expectError(await c.call('GET', '/customers/lookup?email=not-an-email'), 400, 'VALIDATION_ERROR');
  });
});

describe('POST /api/admin/pos/customers', () => {
  it('creates an unverified account with a phone, answers the lookup shape, and mails a password reset', async () => {
    const email = freshEmail();
    const res = await c.write('/customers', {
      name: '  Hari Prasad  ',
      email: email.toUpperCase(),
      phone: '+9779800000001',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      exists: true,
      name: 'Hari Prasad',
      email,
      phone: '+9779800000001',
      image: null,
    });
    const looked = await c.call('GET', `/customers/lookup?email=${encodeURIComponent(email)}`);
    expect(looked.json().data).toEqual(data);
    const account = await c.http.call('GET', `/api/admin/customers/${data.customerId}`, c.admin.headers);
    expect(account.statusCode, account.body).toBe(200);
    expect(account.json().data).toMatchObject({ emailVerified: false, phoneVerified: false });

    // The reset email lets the customer choose a password and sign in.
    const mail = await lastMailTo(c.t, email);
    expect(mail, 'password-reset email').toBeDefined();
    expect(mail!.code).toMatch(/^\d{6}$/);
    const reset = await c.http.call(
      'POST',
      '/api/mobile/auth/password/reset',
      {},
      {
        email,
        code: mail!.code,
        newPassword: 'my-own-password-123',
      },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    const login = await c.http.call(
      'POST',
      '/api/mobile/auth/login/email',
      {},
      {
        email,
        password: 'my-own-password-123',
        deviceInfo: { deviceId: 'd1', deviceType: 'android', deviceName: 'Counter test' },
      },
    );
    expect(login.statusCode, login.body).toBe(200);
  });

  it('refuses a taken email (a customer or a staff member) and a taken phone with 409', async () => {
    const existing = await c.customer({ email: 'taken.pos@example.com' });
    expect(existing.userId).toBeTruthy();
    expectError(
      await c.write('/customers', { name: 'Again', email: 'Taken.POS@example.com' }),
      409,
      'POS_DUPLICATE_EMAIL',
    );
    expectError(
      await c.write('/customers', { name: 'Staff', email: c.clerk.email }),
      409,
      'POS_DUPLICATE_EMAIL',
    );
    const first = await c.write('/customers', {
      name: 'Phone One',
      email: freshEmail(),
      phone: '9841000099',
    });
    expect(first.statusCode, first.body).toBe(200);
    expectError(
      await c.write('/customers', { name: 'Phone Two', email: freshEmail(), phone: '9841000099' }),
      409,
      'POS_DUPLICATE_PHONE',
    );
  });

  it('validates name (max 100), email and phone (max 20)', async () => {
    // Every call counts against the hourly limit: a clerk of its own.
    const clerk = await signedInAdmin(c.t, { permissions: ALL_POS });
    for (const body of [
      { email: freshEmail() },
      { name: '', email: freshEmail() },
      { name: 'x'.repeat(101), email: freshEmail() },
      { name: 'Ok', email: 'nope' },
      { name: 'Ok', email: freshEmail(), phone: '1'.repeat(21) },
    ]) {
      expectError(await c.write('/customers', body, {}, clerk), 400, 'VALIDATION_ERROR');
    }
    const longest = await c.write(
      '/customers',
      { name: 'x'.repeat(100), email: freshEmail(), phone: '1'.repeat(20) },
      {},
      clerk,
    );
    expect(longest.statusCode, longest.body).toBe(200);
  });

  it('limits each admin to 10 creations per hour; another admin has their own count', async () => {
    const clerk = await signedInAdmin(c.t, { permissions: ALL_POS });
    for (let i = 0; i < 10; i++) {
      const res = await c.write('/customers', { name: `Walk-in ${i}`, email: freshEmail() }, {}, clerk);
      expect(res.statusCode, res.body).toBe(200);
    }
    const eleventh = await c.write('/customers', { name: 'Too many', email: freshEmail() }, {}, clerk);
    expectError(eleventh, 429, 'RATE_LIMITED');
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    // Refused calls count too, like any limit; a colleague is not held back.
    const colleague = await signedInAdmin(c.t, { permissions: ALL_POS });
    const other = await c.write('/customers', { name: 'Colleague', email: freshEmail() }, {}, colleague);
    expect(other.statusCode, other.body).toBe(200);
  });
});
