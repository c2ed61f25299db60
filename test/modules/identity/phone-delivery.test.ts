// Phone verification and push through the real adapters, each provider played by a local fake:
// a code reaches Sparrow or Aakash and confirms (staff and customers); a COD checkout and a
// buy-now wait for a verified phone when COD_REQUIRES_VERIFIED_PHONE is on; a number the
// provider cannot reach is refused before any code is made; provider errors are retried, refusals
// are not; an FCM token reported unregistered is removed and skipped afterwards.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../../src/modules/identity';
import { oneTimeCodes, sessions } from '../../../src/modules/identity/identity.table';
import { createNotifier } from '../../../src/modules/notifications';
import { inTransaction } from '../../../src/platform/db/transaction';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import {
  AAKASH_TOKEN,
  SPARROW_FROM,
  SPARROW_TOKEN,
  sparrowRefusal,
  startFakeAakash,
  startFakeFcm,
  startFakeSparrow,
} from '../../helpers/message-providers';
import { expectError } from '../cart/calls';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from '../orders/calls';

const STORE = 'पसल हाम्रो'; // the store's name in Devanagari: the SMS carries it as UTF-8

/** Polls `read` until it passes `check`: retries run on timers, after the queue looks idle. */
async function eventually<T>(read: () => T | Promise<T>, check: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const metricValue = async (t: TestApp, labels: string) => {
  const text = await t.platform.metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`outgoing_messages_total{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
};

const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1];

describe('phone verification through Sparrow SMS, and COD with COD_REQUIRES_VERIFIED_PHONE', () => {
  let sparrow: Awaited<ReturnType<typeof startFakeSparrow>>;
  let c: OrdersTestApp;
  let t: TestApp;
  beforeAll(async () => {
    sparrow = await startFakeSparrow();
    c = await ordersTestApp({
      env: {
        SMS_PROVIDER: 'sparrow',
        SPARROW_SMS_TOKEN: SPARROW_TOKEN,
        SPARROW_SMS_FROM: SPARROW_FROM,
        SPARROW_SMS_URL: sparrow.sendUrl,
        DELIVERY_RETRY_BASE_SECONDS: '0',
        STORE_NAME: STORE,
        COD_REQUIRES_VERIFIED_PHONE: 'true',
      },
    });
    t = c.t;
  });
  afterAll(async () => {
    await c?.t.close();
    await sparrow?.close();
  });

  const post = (url: string, body: unknown, who: SignedIn) => c.http.call('POST', url, who.headers, body);

  /** Requests a code on `prefix`, waits for Sparrow to receive it, answers the text Sparrow got. */
  async function requestCode(prefix: string, who: SignedIn, phone: string) {
    const before = sparrow.sent().length;
    const res = await post(`${prefix}/phone/verify/request`, { phone }, who);
    expect(res.statusCode, res.body).toBe(200);
    await t.drainJobs();
    const [sms] = await eventually(
      () => sparrow.sent().slice(before),
      (s) => s.length > 0,
      'the SMS at Sparrow',
    );
    return sms!;
  }

  it('/ready names the providers in use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.json().data).toMatchObject({ sms: 'sparrow', push: 'memory' });
  });

  it('staff: the code reaches Sparrow as 10 digits with the store name in Devanagari, and confirms', async () => {
    const admin = await signedInAdmin(t, { superadmin: true });
    const sms = await requestCode('/api/auth', admin, '+9779812345678');
    expect(sms.to).toBe('9812345678');
    expect(sms.text).toMatch(
      new RegExp(`^${STORE}: your verification code is \\d{6}\\. It is valid for 10 minutes\\.$`),
    );
    // UTF-8 form encoding, as Sparrow reads it
    const raw = sparrow.received.at(-1)!.raw;
    expect(raw).toContain(encodeURIComponent(STORE).replaceAll('%20', '+'));
    const ok = await post(
      '/api/auth/phone/verify/confirm',
      { phone: '+9779812345678', code: codeIn(sms.text) },
      admin,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.user).toMatchObject({ phone: '+9779812345678', phoneVerified: true });
    expect(await metricValue(t, 'channel="sms",provider="sparrow",outcome="sent"')).toBeGreaterThanOrEqual(1);
  });

  it('customer: COD checkout and buy-now are refused until the phone is verified, then accepted', async () => {
    const me = await c.customer();
    const p = await c.product({ onHand: 5 });
    await c.cartWith(me, [{ productId: p }]);
    expectError(await c.checkout(me, 'cod'), 400, 'ORDER_PHONE_VERIFICATION_REQUIRED');
    const buyNow = () =>
      c.http.call('POST', '/api/mobile/orders/buy-now', me.headers, {
        productId: p,
        gateway: 'cod',
        returnUrl: RETURN_URL,
      });
    expectError(await buyNow(), 400, 'ORDER_PHONE_VERIFICATION_REQUIRED');
    expect((await c.http.call('GET', '/api/orders', me.headers)).json().meta.count).toBe(0);

    const phone = '+9779841234567';
    const sms = await requestCode('/api/mobile/auth', me, phone);
    expect(sms.to).toBe('9841234567');
    const code = codeIn(sms.text)!;
    expectError(
      await post(
        '/api/mobile/auth/phone/verify/confirm',
        { phone, code: code === '000000' ? '111111' : '000000' },
        me,
      ),
      400,
      'AUTH_PHONE_VERIFICATION_INVALID',
    );
    const ok = await post('/api/mobile/auth/phone/verify/confirm', { phone, code }, me);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.user).toMatchObject({ phone, phoneVerified: true, role: 'customer' });

    const bought = await buyNow(); // first: checkout clears the cart and its location
    expect(bought.statusCode, bought.body).toBe(200);
    const placed = await c.checkout(me, 'cod');
    expect(placed.statusCode, placed.body).toBe(200);
    expect((await c.http.call('GET', '/api/orders', me.headers)).json().meta.count).toBe(2);
  });

  it('a number Sparrow cannot reach: 400 VALIDATION_ERROR naming phone, no code made, nothing sent', async () => {
    const me = await signedInCustomer(t);
    const before = sparrow.received.length;
    for (const phone of ['+14155550100', '+97714223344']) {
      const res = await post('/api/mobile/auth/phone/verify/request', { phone }, me);
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.json().details).toEqual([
        { path: 'phone', message: expect.stringContaining('Nepali mobile'), code: expect.any(String) },
      ]);
    }
    const codes = await t.platform.database.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, me.userId), eq(oneTimeCodes.purpose, 'phone_verification')));
    expect(codes).toEqual([]);
    await t.drainJobs();
    expect(sparrow.received.length).toBe(before);
    // Refused before any limit was counted: a Nepali number goes through at once.
    expect(
      (await post('/api/mobile/auth/phone/verify/request', { phone: '+9779812000001' }, me)).statusCode,
    ).toBe(200);
  });

  it('a provider error is retried (DELIVERY_RETRY_BASE_SECONDS) and the code then arrives once', async () => {
    const me = await signedInCustomer(t);
    const retryingBefore = await metricValue(t, 'channel="sms",provider="sparrow",outcome="retrying"');
    const before = sparrow.received.length;
    sparrow.answerNext({ status: 503 }, { status: 502 });
    const sms = await requestCode('/api/mobile/auth', me, '+9779812000002');
    expect(sparrow.received.length - before).toBe(3);
    expect(sparrow.sent().filter((s) => s.to === '9812000002')).toHaveLength(1);
    expect(await metricValue(t, 'channel="sms",provider="sparrow",outcome="retrying"')).toBe(
      retryingBefore + 2,
    );
    const ok = await post(
      '/api/mobile/auth/phone/verify/confirm',
      { phone: '+9779812000002', code: codeIn(sms.text) },
      me,
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a refusal that cannot succeed (no credit) is tried once and counted as refused', async () => {
    const me = await signedInCustomer(t);
    const refusedBefore = await metricValue(t, 'channel="sms",provider="sparrow",outcome="refused"');
    const before = sparrow.received.length;
    sparrow.answerNext(sparrowRefusal(1013, 'Insufficient Credits'));
    const res = await post('/api/mobile/auth/phone/verify/request', { phone: '+9779812000003' }, me);
    expect(res.statusCode).toBe(200); // the request never waits for the provider
    await eventually(
      () => metricValue(t, 'channel="sms",provider="sparrow",outcome="refused"'),
      (n) => n === refusedBefore + 1,
      'the refusal',
    );
    await new Promise((r) => setTimeout(r, 200));
    await t.drainJobs();
    expect(sparrow.received.length - before).toBe(1);
  });
});

describe('phone verification through Aakash SMS', () => {
  let aakash: Awaited<ReturnType<typeof startFakeAakash>>;
  let t: TestApp;
  beforeAll(async () => {
    aakash = await startFakeAakash();
    t = await createTestApp({
      env: {
        SMS_PROVIDER: 'aakash',
        AAKASH_SMS_TOKEN: AAKASH_TOKEN,
        AAKASH_SMS_URL: aakash.sendUrl,
        DELIVERY_RETRY_BASE_SECONDS: '0',
        STORE_NAME: STORE,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await aakash?.close();
  });

  it('a customer code reaches Aakash with the Devanagari store name and confirms; an `error: true` is not retried', async () => {
    const me = await signedInCustomer(t);
    const phone = '+9779801234567';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/phone/verify/request',
      headers: me.headers,
      payload: { phone },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.drainJobs();
    const [sms] = await eventually(
      () => aakash.sent(),
      (s) => s.length === 1,
      'the SMS at Aakash',
    );
    expect(sms).toEqual({
      to: '9801234567',
      text: expect.stringMatching(new RegExp(`^${STORE}: your verification code is \\d{6}\\.`)),
    });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/phone/verify/confirm',
      headers: me.headers,
      payload: { phone, code: codeIn(sms!.text) },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.user.phoneVerified).toBe(true);

    const other = await signedInCustomer(t);
    const before = aakash.received.length;
    aakash.answerNext({ status: 200, body: { error: true, message: 'Not enough balance.', data: [] } });
    await t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/phone/verify/request',
      headers: other.headers,
      payload: { phone: '+9779801234568' },
    });
    await eventually(
      () => metricValue(t, 'channel="sms",provider="aakash",outcome="refused"'),
      (n) => n === 1,
      'the refusal',
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(aakash.received.length - before).toBe(1);
  });
});

describe('push through FCM HTTP v1', () => {
  let fcm: Awaited<ReturnType<typeof startFakeFcm>>;
  let t: TestApp;
  beforeAll(async () => {
    fcm = await startFakeFcm();
    t = await createTestApp({
      env: {
        PUSH_PROVIDER: 'fcm',
        FCM_SERVICE_ACCOUNT_JSON: fcm.serviceAccountJson,
        FCM_BASE_URL: fcm.url,
        DELIVERY_RETRY_BASE_SECONDS: '0',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fcm?.close();
  });

  const db = () => t.platform.database.db;
  const device = (userId: string, pushToken: string) =>
    startSession({
      db: db(),
      tokens: t.platform.tokens,
      clock: t.platform.clock,
      refreshTtlDays: 30,
      userId,
      actor: 'customer',
      pushToken,
    });
  const notify = (customerId: string, title: string) =>
    inTransaction(db(), (tx, afterCommit) =>
      createNotifier({
        db: db(),
        push: t.platform.outgoing.push,
        clock: t.platform.clock,
        realtime: t.platform.realtime,
      }).notifyCustomer(tx, afterCommit, {
        customerId,
        type: 'order.shipped',
        title,
        body: 'अर्डर पठाइयो',
        data: { orderId: 12 },
      }),
    );

  it('an unregistered token is removed from the sessions holding it, and the next notification skips it', async () => {
    const me = await signedInCustomer(t);
    await device(me.userId, 'phone-live');
    await device(me.userId, 'phone-live'); // the same phone signed in twice: one push
    await device(me.userId, 'phone-uninstalled');
    await device(me.userId, 'phone-uninstalled');
    fcm.unregistered.add('phone-uninstalled');

    await notify(me.userId, 'Shipped');
    await t.drainJobs();
    await eventually(
      () => metricValue(t, 'channel="push",provider="fcm",outcome="token_removed"'),
      (n) => n === 1,
      'the token removal',
    );
    expect(fcm.delivered.map((m) => m.token)).toEqual(['phone-live']);
    expect(fcm.delivered[0]).toEqual({
      token: 'phone-live',
      notification: { title: 'Shipped', body: 'अर्डर पठाइयो' },
      data: { orderId: '12', type: 'order.shipped', notificationId: expect.any(String) },
    });
    const tokens = await db()
      .select({ pushToken: sessions.pushToken })
      .from(sessions)
      .where(eq(sessions.userId, me.userId));
    expect(tokens.map((s) => s.pushToken).sort()).toEqual([null, null, null, 'phone-live', 'phone-live']);

    const sendsBefore = fcm.sendRequests().length;
    await notify(me.userId, 'Delivered');
    await t.drainJobs();
    await eventually(
      () => fcm.delivered.length,
      (n) => n === 2,
      'the second push',
    );
    expect(
      fcm
        .sendRequests()
        .slice(sendsBefore)
        .map((r) => (r.body.message as { token: string }).token),
    ).toEqual(['phone-live']);
    // One access token for all of it: cached until shortly before it expires.
    expect(fcm.tokenRequests()).toBe(1);
  });
});
