// Support inquiries, customer and guest side: creation, guest tokens, access rules, messages
// and status, identify, email verification, throttles.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  supportInquiries,
  supportInquiryAccessTokens,
  supportInquiryEmailCodes,
} from '../../../src/modules/support/inquiries/inquiries.table';
import { supportEvents } from '../../../src/modules/support/realtime/support-events.table';
import { TestClock } from '../../../src/platform/clock';
import { sha256Hex } from '../../../src/platform/security/tokens';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { lastMailTo, mailCountTo } from '../../helpers/mail';
import {
  bearer,
  caller,
  createCustomerInquiry,
  createGuestInquiry,
  type Headers,
  newIp,
} from './support-helpers';

describe('support inquiries (customer and guest)', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let customer: SignedIn;
  let otherCustomer: SignedIn;
  let admin: SignedIn;
  const clock = new TestClock(new Date());
  beforeAll(async () => {
    t = await createTestApp({ clock });
    call = caller(t);
    customer = await signedInCustomer(t, { name: 'Sita Sharma' });
    otherCustomer = await signedInCustomer(t);
    admin = await signedInAdmin(t, { superadmin: true });
  });
  afterAll(() => t.close());
  const db = () => t.platform.database.db;

  async function inquiryRow(id: number) {
    const [row] = await db().select().from(supportInquiries).where(eq(supportInquiries.id, id));
    return row!;
  }
  async function setStatus(id: number, status: string) {
    const res = await call('PATCH', `/api/admin/support-inquiries/${id}/status`, {
      headers: admin.headers,
      payload: { status },
    });
    expect(res.statusCode).toBe(200);
  }

  describe('POST /api/support-inquiries', () => {
    it('a guest gets the inquiry with the greeting and first message, and its si_ token once', async () => {
      const res = await call('POST', '/api/support-inquiries', {
        payload: {
          category: 'order',
          subject: '  Late delivery ',
          message: ' Where is it? ',
          guestName: 'Ram',
          guestEmail: 'Ram@Example.COM',
          guestPhone: '+9779800000000',
        },
      });
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      expect(data).toMatchObject({
        customerId: null,
        guestName: 'Ram',
        guestEmail: 'ram@example.com',
        guestPhone: '+9779800000000',
        category: 'order',
        subject: 'Late delivery',
        status: 'open',
        isAssigned: false,
        supportRequestId: null,
        emailVerifiedAt: null,
        closedAt: null,
        lastAdminMessageAt: null,
      });
      expect(data.trackingCode).toMatch(/^SI-[0-9A-HJKMNP-TV-Z]{10}$/);
      expect(data.lastVisitorMessageAt).toBe(data.createdAt);
      expect(data.messages.map((m: { authorType: string }) => m.authorType)).toEqual(['system', 'guest']);
      expect(data.messages[1]).toMatchObject({
        body: 'Where is it?',
        authorName: 'Ram',
        authorCustomerId: null,
      });
      expect(data.messages[0]).not.toHaveProperty('authorAdminId');
      expect(data).not.toHaveProperty('assignedAdminId');
      expect(data.inquiryAccessToken).toMatch(/^si_[A-Za-z0-9_-]{43,}$/);

      const [token] = await db()
        .select()
        .from(supportInquiryAccessTokens)
        .where(eq(supportInquiryAccessTokens.supportInquiryId, data.id));
      expect(token!.tokenDigest).toBe(sha256Hex(data.inquiryAccessToken));
      expect(token!.tokenDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(token!.expiresAt.getTime() - clock.now().getTime()).toBe(30 * 86_400_000);
      expect(token!.revokedAt).toBeNull();

      // The token opens the inquiry; it is never shown again.
      const again = await call('GET', `/api/support-inquiries/${data.id}`, {
        headers: bearer(data.inquiryAccessToken),
      });
      expect(again.statusCode).toBe(200);
      expect(again.json().data).not.toHaveProperty('inquiryAccessToken');
      expect(again.json().data.messages).toHaveLength(2);
    });

    it('a customer gets an inquiry of their own and no token; the message is theirs', async () => {
      const res = await call('POST', '/api/support-inquiries', {
        headers: customer.headers,
        payload: { category: 'payment', subject: 'Refund', message: 'Hello' },
      });
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      expect(data.customerId).toBe(customer.userId);
      expect(data).not.toHaveProperty('inquiryAccessToken');
      expect(data.messages[1]).toMatchObject({
        authorType: 'customer',
        authorCustomerId: customer.userId,
        authorName: 'Sita Sharma',
      });
      expect(
        await db()
          .select()
          .from(supportInquiryAccessTokens)
          .where(eq(supportInquiryAccessTokens.supportInquiryId, data.id)),
      ).toHaveLength(0);
    });

    it('a guest sending its earlier si_ token opens a new guest inquiry with a token of its own', async () => {
      const first = await createGuestInquiry(t);
      const res = await caller(t)('POST', '/api/support-inquiries', {
        headers: first.headers,
        payload: { category: 'other', subject: 'A second question' },
      });
      expect(res.statusCode).toBe(201);
      const second = res.json().data;
      expect(second.customerId).toBeNull();
      expect(second.inquiryAccessToken).toMatch(/^si_/);
      expect(second.inquiryAccessToken).not.toBe(first.token);
      // Each token still opens only its own inquiry.
      const cross = await caller(t)('GET', `/api/support-inquiries/${second.id}`, { headers: first.headers });
      expect(cross.json().errorCode).toBe('SUPPORT_INQUIRY_TOKEN_INVALID');
    });

    it('without a message only the greeting is written', async () => {
      const { data } = await createGuestInquiry(t, { message: undefined });
      expect((data.messages as unknown[]).length).toBe(1);
      expect(data.lastVisitorMessageAt).toBeNull();
    });

    it('publishes the visitor message to the inquiry room, not the greeting', async () => {
      const { id } = await createGuestInquiry(t);
      const events = await db()
        .select()
        .from(supportEvents)
        .where(eq(supportEvents.room, `support:inquiry:${id}:messages`));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ seq: 1, eventType: 'support.inquiry_message.created' });
      expect(events[0]!.dataForVisitor).toMatchObject({ supportInquiryId: id, authorType: 'guest' });
    });

    it('validates the body', async () => {
      for (const payload of [
        { category: 'order', subject: '   ' },
        { category: 'shipping', subject: 'x' },
        { subject: 'x' },
        { category: 'order', subject: 'x', guestEmail: 'not-an-email' },
        { category: 'order', subject: 'x'.repeat(256) },
      ]) {
        const res = await call('POST', '/api/support-inquiries', { payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('refuses an admin token (403) and a bad JWT (401)', async () => {
      const payload = { category: 'order', subject: 'x' };
      const asAdmin = await call('POST', '/api/support-inquiries', { headers: admin.headers, payload });
      expect(asAdmin.statusCode).toBe(403);
      expect(asAdmin.json().errorCode).toBe('AUTH_FORBIDDEN');
      const bad = await call('POST', '/api/support-inquiries', {
        headers: bearer('nope.nope.nope'),
        payload,
      });
      expect(bad.statusCode).toBe(401);
      expect(bad.json().errorCode).toBe('AUTH_UNAUTHORIZED');
    });

    it('allows 10 per hour per IP, then 429 RATE_LIMITED with Retry-After', async () => {
      const ip = newIp();
      const payload = { category: 'other', subject: 'Throttle' };
      for (let i = 0; i < 10; i++) {
        expect((await call('POST', '/api/support-inquiries', { payload, ip })).statusCode).toBe(201);
      }
      const limited = await call('POST', '/api/support-inquiries', { payload, ip });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().errorCode).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await call('POST', '/api/support-inquiries', { payload })).statusCode).toBe(201);
    });
  });

  describe('credentials on inquiry routes', () => {
    it('no credential: 403 SUPPORT_INQUIRY_TOKEN_INVALID on every customer-or-guest route', async () => {
      const { id } = await createGuestInquiry(t);
      for (const [method, url, payload] of [
        ['GET', `/api/support-inquiries/${id}`],
        ['GET', `/api/support-inquiries/${id}/messages`],
        ['POST', `/api/support-inquiries/${id}/messages`, { body: 'hi' }],
        ['PATCH', `/api/support-inquiries/${id}/identify`, { guestName: 'x' }],
        ['POST', `/api/support-inquiries/${id}/verify-email/request`],
        ['POST', `/api/support-inquiries/${id}/verify-email/confirm`, { otp: '123456' }],
      ] as const) {
        const res = await call(method, url, { payload });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_TOKEN_INVALID');
      }
    });

    it('a guest token for another inquiry, an unknown token, or an unknown id: 403 SUPPORT_INQUIRY_TOKEN_INVALID', async () => {
      const a = await createGuestInquiry(t);
      const b = await createGuestInquiry(t);
      const cases: Array<[string, Headers]> = [
        [`/api/support-inquiries/${b.id}`, a.headers],
        [`/api/support-inquiries/${b.id}/messages`, a.headers],
        [`/api/support-inquiries/${a.id}`, bearer('si_unknown-token-0123456789012345678901234567890')],
        ['/api/support-inquiries/999999', a.headers],
      ];
      for (const [url, headers] of cases) {
        const res = await call('GET', url, { headers });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_TOKEN_INVALID');
      }
      const write = await call('POST', `/api/support-inquiries/${b.id}/messages`, {
        headers: a.headers,
        payload: { body: 'sneaky' },
      });
      expect(write.statusCode).toBe(403);
      expect(write.json().errorCode).toBe('SUPPORT_INQUIRY_TOKEN_INVALID');
    });

    it('an expired or revoked token: 403 SUPPORT_INQUIRY_TOKEN_INVALID', async () => {
      const expiring = await createGuestInquiry(t);
      const revoked = await createGuestInquiry(t);
      await db()
        .update(supportInquiryAccessTokens)
        .set({ revokedAt: clock.now() })
        .where(eq(supportInquiryAccessTokens.supportInquiryId, revoked.id));
      const r = await call('GET', `/api/support-inquiries/${revoked.id}`, { headers: revoked.headers });
      expect(r.statusCode).toBe(403);
      expect(r.json().errorCode).toBe('SUPPORT_INQUIRY_TOKEN_INVALID');

      const started = clock.now();
      try {
        clock.advance(30 * 86_400_000 - 1000);
        const before = await call('GET', `/api/support-inquiries/${expiring.id}`, {
          headers: expiring.headers,
        });
        expect(before.statusCode).toBe(200);
        clock.advance(2000);
        const e = await call('GET', `/api/support-inquiries/${expiring.id}`, { headers: expiring.headers });
        expect(e.statusCode).toBe(403);
        expect(e.json().errorCode).toBe('SUPPORT_INQUIRY_TOKEN_INVALID');
      } finally {
        clock.set(started); // the signed-in users' access tokens live 15 minutes
      }
    });

    it("customers: unknown id 404 SUPPORT_INQUIRY_NOT_FOUND, another's or a guest's inquiry 403 SUPPORT_INQUIRY_ACCESS_DENIED", async () => {
      const own = await createCustomerInquiry(t, customer);
      const guest = await createGuestInquiry(t);
      const unknown = await call('GET', '/api/support-inquiries/999999', { headers: customer.headers });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().errorCode).toBe('SUPPORT_INQUIRY_NOT_FOUND');
      for (const [id, who] of [
        [own.id, otherCustomer],
        [guest.id, customer],
      ] as const) {
        for (const [method, url, payload] of [
          ['GET', `/api/support-inquiries/${id}`],
          ['GET', `/api/support-inquiries/${id}/messages`],
          ['POST', `/api/support-inquiries/${id}/messages`, { body: 'hi' }],
          ['PATCH', `/api/support-inquiries/${id}/identify`, { guestName: 'x' }],
          ['POST', `/api/support-inquiries/${id}/verify-email/request`],
          ['POST', `/api/support-inquiries/${id}/verify-email/confirm`, { otp: '123456' }],
        ] as const) {
          const res = await call(method, url, { headers: who.headers, payload });
          expect(res.statusCode, url).toBe(403);
          expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_ACCESS_DENIED');
        }
      }
      expect(
        (await call('GET', `/api/support-inquiries/${own.id}`, { headers: customer.headers })).statusCode,
      ).toBe(200);
    });

    it('an admin JWT is the wrong actor (403 AUTH_FORBIDDEN); a bad id is 400 VALIDATION_ERROR', async () => {
      const { id, headers } = await createGuestInquiry(t);
      const asAdmin = await call('GET', `/api/support-inquiries/${id}`, { headers: admin.headers });
      expect(asAdmin.statusCode).toBe(403);
      expect(asAdmin.json().errorCode).toBe('AUTH_FORBIDDEN');
      for (const [method, path, payload] of [
        ['GET', ''],
        ['GET', '/messages'],
        ['POST', '/messages', { body: 'hi' }],
        ['PATCH', '/identify', { guestName: 'x' }],
        ['POST', '/verify-email/request'],
        ['POST', '/verify-email/confirm', { otp: '123456' }],
      ] as const) {
        const badId = await call(method, `/api/support-inquiries/abc${path}`, { headers, payload });
        expect(badId.statusCode, path).toBe(400);
        expect(badId.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });
  });

  describe('GET /api/support-inquiries (customer list)', () => {
    it("lists only the caller's inquiries with filters and pagination", async () => {
      const me = await signedInCustomer(t);
      const a = await createCustomerInquiry(t, me, { category: 'technical' });
      const b = await createCustomerInquiry(t, me, { category: 'payment' });
      await createCustomerInquiry(t, otherCustomer);
      clock.advance(1000);
      await setStatus(a.id, 'waiting');

      const all = await call('GET', '/api/support-inquiries?size=1', { headers: me.headers });
      expect(all.statusCode).toBe(200);
      expect(all.json().meta).toEqual({ count: 2, page: 1, size: 1 });
      // Default sort updatedAt desc: `a` was updated last (status change).
      expect(all.json().data.map((i: { id: number }) => i.id)).toEqual([a.id]);
      expect(all.json().data[0]).not.toHaveProperty('messages');

      const byCategory = await call('GET', '/api/support-inquiries?category=payment&pagination=false', {
        headers: me.headers,
      });
      expect(byCategory.json()).toMatchObject({ meta: { count: 1 }, data: [{ id: b.id }] });
      expect(byCategory.json().meta).toEqual({ count: 1 });
      const byStatus = await call('GET', '/api/support-inquiries?status=waiting', { headers: me.headers });
      expect(byStatus.json().data.map((i: { id: number }) => i.id)).toEqual([a.id]);
      const asc = await call('GET', '/api/support-inquiries?sort=createdAt&order=asc', {
        headers: me.headers,
      });
      expect(asc.json().data.map((i: { id: number }) => i.id)).toEqual([a.id, b.id]);

      const bad = await call('GET', '/api/support-inquiries?status=nope', { headers: me.headers });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
    });

    it('guests cannot list (a guest token is not a JWT: 401); no credential 401; admin 403', async () => {
      const { headers } = await createGuestInquiry(t);
      const guest = await call('GET', '/api/support-inquiries', { headers });
      expect(guest.statusCode).toBe(401);
      expect(guest.json().errorCode).toBe('AUTH_UNAUTHORIZED');
      expect((await call('GET', '/api/support-inquiries')).statusCode).toBe(401);
      const asAdmin = await call('GET', '/api/support-inquiries', { headers: admin.headers });
      expect(asAdmin.statusCode).toBe(403);
      expect(asAdmin.json().errorCode).toBe('AUTH_FORBIDDEN');
    });
  });

  describe('messages', () => {
    it('GET …/messages lists them oldest first', async () => {
      const g = await createGuestInquiry(t);
      await call('POST', `/api/support-inquiries/${g.id}/messages`, {
        headers: g.headers,
        payload: { body: 'second' },
      });
      const res = await call('GET', `/api/support-inquiries/${g.id}/messages`, { headers: g.headers });
      expect(res.statusCode).toBe(200);
      expect(
        res
          .json()
          .data.map((m: { body: string }) => m.body)
          .slice(1),
      ).toEqual(['Ordered last week', 'second']);
      expect(res.json().data[0].authorType).toBe('system');
    });

    it('POST answers 201 with the detail; waiting and resolved become active, open/active/linked stay', async () => {
      const cases: Array<[string, string]> = [
        ['open', 'open'],
        ['active', 'active'],
        ['waiting', 'active'],
        ['resolved', 'active'],
        ['linked', 'linked'],
      ];
      for (const [from, to] of cases) {
        const g = await createGuestInquiry(t);
        if (from !== 'open') await setStatus(g.id, from);
        clock.advance(1000);
        const res = await call('POST', `/api/support-inquiries/${g.id}/messages`, {
          headers: g.headers,
          payload: { body: `  from ${from} ` },
        });
        expect(res.statusCode, from).toBe(201);
        const data = res.json().data;
        expect(data.status, from).toBe(to);
        expect(data.messages.at(-1)).toMatchObject({ body: `from ${from}`, authorType: 'guest' });
        expect(data.lastVisitorMessageAt).toBe(clock.now().toISOString());
        expect((await inquiryRow(g.id)).status).toBe(to);
      }
    });

    it('a customer message carries the customer as author', async () => {
      const own = await createCustomerInquiry(t, customer);
      const res = await call('POST', `/api/support-inquiries/${own.id}/messages`, {
        headers: customer.headers,
        payload: { body: 'me again' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.messages.at(-1)).toMatchObject({
        authorType: 'customer',
        authorCustomerId: customer.userId,
        authorName: 'Sita Sharma',
      });
    });

    it('closed and spam inquiries refuse messages: 400 SUPPORT_INQUIRY_CLOSED', async () => {
      for (const status of ['closed', 'spam']) {
        const g = await createGuestInquiry(t);
        await setStatus(g.id, status);
        const res = await call('POST', `/api/support-inquiries/${g.id}/messages`, {
          headers: g.headers,
          payload: { body: 'hello?' },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_CLOSED');
        const detail = await call('GET', `/api/support-inquiries/${g.id}`, { headers: g.headers });
        expect(detail.json().data.messages).toHaveLength(2);
      }
    });

    it('a blank body is 400 VALIDATION_ERROR', async () => {
      const g = await createGuestInquiry(t);
      for (const payload of [{ body: '   ' }, {}, { body: 5 }]) {
        const res = await call('POST', `/api/support-inquiries/${g.id}/messages`, {
          headers: g.headers,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('throttles count only requests that pass the credential check', async () => {
      const g = await createGuestInquiry(t);
      const ip = newIp();
      for (let i = 0; i < 31; i++) {
        const res = await call('POST', `/api/support-inquiries/${g.id}/messages`, {
          payload: { body: 'x' },
          ip,
        });
        expect(res.statusCode).toBe(403);
      }
      const res = await call('POST', `/api/support-inquiries/${g.id}/messages`, {
        headers: g.headers,
        payload: { body: 'let me in' },
        ip,
      });
      expect(res.statusCode).toBe(201);
    });

    it('allows 30 messages per minute per IP, then 429', async () => {
      const g = await createGuestInquiry(t);
      const ip = newIp();
      for (let i = 0; i < 30; i++) {
        const res = await call('POST', `/api/support-inquiries/${g.id}/messages`, {
          headers: g.headers,
          payload: { body: `m${i}` },
          ip,
        });
        expect(res.statusCode).toBe(201);
      }
      const limited = await call('POST', `/api/support-inquiries/${g.id}/messages`, {
        headers: g.headers,
        payload: { body: 'too many' },
        ip,
      });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().errorCode).toBe('RATE_LIMITED');
    });
  });

  describe('PATCH /api/support-inquiries/:id/identify', () => {
    it('stores given contact details, lowercases the email, keeps stored values for empty fields', async () => {
      const g = await createGuestInquiry(t, { guestName: 'Old', guestPhone: '+9771111' });
      const res = await call('PATCH', `/api/support-inquiries/${g.id}/identify`, {
        headers: g.headers,
        payload: { guestName: 'Hari', guestEmail: ' Hari@Example.com ', guestPhone: '' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        guestName: 'Hari',
        guestEmail: 'hari@example.com',
        guestPhone: '+9771111',
      });
      const kept = await call('PATCH', `/api/support-inquiries/${g.id}/identify`, {
        headers: g.headers,
        payload: {},
      });
      expect(kept.json().data).toMatchObject({
        guestName: 'Hari',
        guestEmail: 'hari@example.com',
        guestPhone: '+9771111',
      });
    });

    it('never links nor reveals a customer with that email', async () => {
      const known = await createGuestInquiry(t);
      const unknown = await createGuestInquiry(t);
      const a = await call('PATCH', `/api/support-inquiries/${known.id}/identify`, {
        headers: known.headers,
        payload: { guestEmail: customer.email },
      });
      const b = await call('PATCH', `/api/support-inquiries/${unknown.id}/identify`, {
        headers: unknown.headers,
        payload: { guestEmail: 'nobody-here@example.com' },
      });
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(a.json().data.customerId).toBeNull();
      expect(Object.keys(a.json().data).sort()).toEqual(Object.keys(b.json().data).sort());
      expect(a.json().message).toBe(b.json().message);
      expect((await inquiryRow(known.id)).customerId).toBeNull();
    });

    it('validates the email; allows 10 per minute per IP', async () => {
      const g = await createGuestInquiry(t);
      const bad = await call('PATCH', `/api/support-inquiries/${g.id}/identify`, {
        headers: g.headers,
        payload: { guestEmail: 'nope' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errorCode).toBe('VALIDATION_ERROR');
      const ip = newIp();
      for (let i = 0; i < 10; i++) {
        const res = await call('PATCH', `/api/support-inquiries/${g.id}/identify`, {
          headers: g.headers,
          payload: { guestName: `n${i}` },
          ip,
        });
        expect(res.statusCode).toBe(200);
      }
      const limited = await call('PATCH', `/api/support-inquiries/${g.id}/identify`, {
        headers: g.headers,
        payload: { guestName: 'x' },
        ip,
      });
      expect(limited.statusCode).toBe(429);
    });
  });

  describe('email verification', () => {
    const requestCode = (g: { id: number; headers: Headers }, ip?: string) =>
      call('POST', `/api/support-inquiries/${g.id}/verify-email/request`, { headers: g.headers, ip });
    const confirm = (g: { id: number; headers: Headers }, otp: string, ip?: string) =>
      call('POST', `/api/support-inquiries/${g.id}/verify-email/confirm`, {
        headers: g.headers,
        payload: { otp },
        ip,
      });

    it('needs a stored email: 400 SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID', async () => {
      const g = await createGuestInquiry(t);
      const res = await requestCode(g);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID');
      const c = await confirm(g, '123456');
      expect(c.statusCode).toBe(400);
      expect(c.json().errorCode).toBe('SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID');
    });

    it('emails a 6-digit code (stored as a digest); the right code verifies and links the customer with that email', async () => {
      const g = await createGuestInquiry(t, { guestEmail: customer.email.toUpperCase() });
      const res = await requestCode(g);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ sent: true });
      const mail = await lastMailTo(t, customer.email);
      expect(mail?.code).toMatch(/^\d{6}$/);
      const [stored] = await db()
        .select()
        .from(supportInquiryEmailCodes)
        .where(eq(supportInquiryEmailCodes.supportInquiryId, g.id));
      expect(stored!.codeDigest).not.toContain(mail!.code);
      expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(10 * 60_000);

      const wrong = await confirm(g, mail!.code === '000000' ? '111111' : '000000');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().errorCode).toBe('SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID');

      const ok = await confirm(g, mail!.code);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toMatchObject({
        customerId: customer.userId,
        emailVerifiedAt: clock.now().toISOString(),
      });
      // The customer now reaches it too; the guest token still works.
      expect(
        (await call('GET', `/api/support-inquiries/${g.id}`, { headers: customer.headers })).statusCode,
      ).toBe(200);
      expect((await call('GET', `/api/support-inquiries/${g.id}`, { headers: g.headers })).statusCode).toBe(
        200,
      );
      // Single use.
      const reuse = await confirm(g, mail!.code);
      expect(reuse.statusCode).toBe(400);
    });

    it('answers the same for an email no customer has; the inquiry stays a verified guest contact', async () => {
      const email = `guest-${Date.now()}@example.com`;
      const g = await createGuestInquiry(t, { guestEmail: email });
      const res = await requestCode(g);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: expect.any(String), data: { sent: true } });
      const mail = await lastMailTo(t, email);
      const ok = await confirm(g, mail!.code);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data.customerId).toBeNull();
      expect(ok.json().data.emailVerifiedAt).not.toBeNull();
    });

    it("an admin's email verifies the contact but never links the inquiry", async () => {
      const g = await createGuestInquiry(t, { guestEmail: admin.email });
      await requestCode(g);
      const mail = await lastMailTo(t, admin.email);
      const res = await confirm(g, mail!.code);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ customerId: null, guestEmail: admin.email });
      expect(res.json().data.emailVerifiedAt).not.toBeNull();
    });

    it('the code expires after 10 minutes', async () => {
      const email = `late-${Date.now()}@example.com`;
      const g = await createGuestInquiry(t, { guestEmail: email });
      await requestCode(g);
      const mail = await lastMailTo(t, email);
      const started = clock.now();
      try {
        clock.advance(10 * 60_000 + 1000);
        const res = await confirm(g, mail!.code);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID');
      } finally {
        clock.set(started);
      }
    });

    it('five wrong codes invalidate it, even for the right code afterwards', async () => {
      const email = `guess-${Date.now()}@example.com`;
      const g = await createGuestInquiry(t, { guestEmail: email });
      await requestCode(g);
      const mail = await lastMailTo(t, email);
      const wrongCode = mail!.code === '999999' ? '888888' : '999999';
      for (let i = 0; i < 5; i++) expect((await confirm(g, wrongCode)).statusCode).toBe(400);
      const res = await confirm(g, mail!.code);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorCode).toBe('SUPPORT_INQUIRY_EMAIL_VERIFICATION_INVALID');
      expect((await inquiryRow(g.id)).emailVerifiedAt).toBeNull();
    });

    it('a new request supersedes the previous code; changing the email unverifies it and kills the code', async () => {
      const email = `twice-${Date.now()}@example.com`;
      const g = await createGuestInquiry(t, { guestEmail: email });
      await requestCode(g);
      const first = await lastMailTo(t, email);
      await requestCode(g);
      const second = await lastMailTo(t, email);
      expect(await mailCountTo(t, email)).toBe(2);
      if (first!.code !== second!.code) expect((await confirm(g, first!.code)).statusCode).toBe(400);
      expect((await confirm(g, second!.code)).statusCode).toBe(200);

      // Verified; a new address is not.
      const changed = await call('PATCH', `/api/support-inquiries/${g.id}/identify`, {
        headers: g.headers,
        payload: { guestEmail: `new-${email}` },
      });
      expect(changed.json().data.emailVerifiedAt).toBeNull();
      // Same address again keeps the verification state.
      await requestCode(g);
      const third = await lastMailTo(t, `new-${email}`);
      await call('PATCH', `/api/support-inquiries/${g.id}/identify`, {
        headers: g.headers,
        payload: { guestEmail: `other-${email}` },
      });
      expect((await confirm(g, third!.code)).statusCode).toBe(400);
    });

    it('validates the otp (4 to 12 characters)', async () => {
      const g = await createGuestInquiry(t, { guestEmail: `len-${Date.now()}@example.com` });
      for (const otp of ['123', '1234567890123']) {
        const res = await confirm(g, otp);
        expect(res.statusCode).toBe(400);
        expect(res.json().errorCode).toBe('VALIDATION_ERROR');
      }
    });

    it('throttles requests (5 per 15 min) and confirms (10 per 15 min) per IP', async () => {
      const g = await createGuestInquiry(t, { guestEmail: `throttle-${Date.now()}@example.com` });
      const ip = newIp();
      for (let i = 0; i < 5; i++) expect((await requestCode(g, ip)).statusCode).toBe(200);
      const limited = await requestCode(g, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().errorCode).toBe('RATE_LIMITED');
      for (let i = 0; i < 10; i++) expect((await confirm(g, '000001', ip)).statusCode).toBe(400);
      const limitedConfirm = await confirm(g, '000001', ip);
      expect(limitedConfirm.statusCode).toBe(429);
    });
  });
});
