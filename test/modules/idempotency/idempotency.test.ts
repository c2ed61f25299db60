// `Idempotency-Key` as docs/decisions.md "Idempotency" says, through test routes that opt in the
// way checkout, cancel and POS do: same key + same body → the first answer; other body → 422; still
// running → 409; kept 24 h, per caller and route; our own failures (5xx) free the key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  canonicalJson,
  purgeExpiredIdempotencyKeys,
} from '../../../src/modules/idempotency/idempotency.service';
import { idempotencyKeys } from '../../../src/modules/idempotency/idempotency.table';
import { startSession } from '../../../src/modules/identity';
import { access } from '../../../src/platform/auth/access';
import { TestClock } from '../../../src/platform/clock';
import { currentUser } from '../../../src/platform/http/access-hook';
import { ok } from '../../../src/platform/http/envelope';
import { AppError } from '../../../src/platform/http/errors';
import type { ApiApp } from '../../../src/platform/module';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInCustomer } from '../../helpers/factories';
import { servicesTier } from '../../helpers/services';

/** How many times each test route's handler really ran. */
const runs = { orders: 0, refusals: 0, failures: 0, pos: 0 };
let orderDelayMs = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function testRoutes(app: ApiApp) {
  const body = z.object({ productId: z.number().int(), quantity: z.number().int().min(1) });
  app.post(
    '/api/test/idem/orders',
    { config: { access: access.customer(), idempotency: 'optional' }, schema: { body } },
    async (request, reply) => {
      runs.orders += 1;
      const n = runs.orders;
      if (orderDelayMs) await sleep(orderDelayMs);
      reply.status(201);
      return ok(
        { orderNumber: `ORD-${n}`, by: currentUser(request).userId, ...request.body },
        'Order placed',
      );
    },
  );
  app.post(
    '/api/test/idem/other-orders',
    { config: { access: access.customer(), idempotency: 'optional' }, schema: { body } },
    async (request, reply) => {
      runs.orders += 1;
      reply.status(201);
      return ok({ orderNumber: `ORD-${runs.orders}`, ...request.body }, 'Order placed');
    },
  );
  app.post(
    '/api/test/idem/refusals',
    { config: { access: access.customer(), idempotency: 'optional' }, schema: { body } },
    async () => {
      runs.refusals += 1;
      throw new AppError(400, 'CART_INSUFFICIENT_STOCK', `Not enough stock (run ${runs.refusals})`);
    },
  );
  app.post(
    '/api/test/idem/failures',
    { config: { access: access.customer(), idempotency: 'optional' }, schema: { body } },
    async () => {
      runs.failures += 1;
      if (runs.failures === 1) throw new Error('database went away');
      return ok({ attempt: runs.failures });
    },
  );
  app.post(
    '/api/test/idem/pos',
    { config: { access: access.customer(), idempotency: 'required' }, schema: { body } },
    async () => {
      runs.pos += 1;
      return ok({ sale: runs.pos });
    },
  );
}

describe('Idempotency-Key', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let customer: SignedIn;
  let otherCustomer: SignedIn;
  let keySeq = 0;
  const newKey = () => `key-${Date.now()}-${++keySeq}`;

  const post = (url: string, who: SignedIn, payload: unknown, key?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...who.headers, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: payload as Record<string, unknown>,
    });

  const reSignIn = async (who: SignedIn): Promise<SignedIn> => {
    const { platform } = t;
    const tokens = await startSession({
      db: platform.database.db,
      tokens: platform.tokens,
      clock: platform.clock,
      refreshTtlDays: platform.config.JWT_REFRESH_TTL_DAYS,
      userId: who.userId,
      actor: 'customer',
      deviceInfo: { deviceId: 'test-device', deviceType: 'test', deviceName: 'Vitest' },
    });
    return { ...who, tokens, headers: { authorization: `Bearer ${tokens.accessToken}` } };
  };

  beforeAll(async () => {
    t = await createTestApp({ testRoutes, clock });
    customer = await signedInCustomer(t);
    otherCustomer = await signedInCustomer(t);
  });
  afterAll(async () => t?.close());
  beforeEach(() => {
    orderDelayMs = 0;
  });

  it('runs a request without a key every time (the key is optional there)', async () => {
    const before = runs.orders;
    const a = await post('/api/test/idem/orders', customer, { productId: 1, quantity: 1 });
    const b = await post('/api/test/idem/orders', customer, { productId: 1, quantity: 1 });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(runs.orders).toBe(before + 2);
    expect(a.json().data.orderNumber).not.toBe(b.json().data.orderNumber);
  });

  it('answers a repeated key with the same body with the first answer, without running again', async () => {
    const key = newKey();
    const before = runs.orders;
    const first = await post('/api/test/idem/orders', customer, { productId: 7, quantity: 2 }, key);
    // Same body with its keys in another order is the same request.
    const again = await post('/api/test/idem/orders', customer, { quantity: 2, productId: 7 }, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['content-type']).toContain('application/json');
    expect(runs.orders).toBe(before + 1);
  });

  it('refuses the same key with another body: 422 IDEMPOTENCY_KEY_MISMATCH', async () => {
    const key = newKey();
    await post('/api/test/idem/orders', customer, { productId: 7, quantity: 2 }, key);
    const before = runs.orders;
    const other = await post('/api/test/idem/orders', customer, { productId: 7, quantity: 3 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ statusCode: 422, errorCode: 'IDEMPOTENCY_KEY_MISMATCH' });
    expect(runs.orders).toBe(before);
  });

  it('answers 409 IDEMPOTENCY_REQUEST_IN_PROGRESS while the first request still runs', async () => {
    orderDelayMs = 300;
    const key = newKey();
    const first = post('/api/test/idem/orders', customer, { productId: 3, quantity: 1 }, key);
    await sleep(100);
    const during = await post('/api/test/idem/orders', customer, { productId: 3, quantity: 1 }, key);
    expect(during.statusCode).toBe(409);
    expect(during.json().errorCode).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    expect((await first).statusCode).toBe(201);
    const after = await post('/api/test/idem/orders', customer, { productId: 3, quantity: 1 }, key);
    expect(after.statusCode).toBe(201);
    expect(after.body).toBe((await first).body);
  });

  it('keeps keys per caller and per route', async () => {
    const key = newKey();
    const before = runs.orders;
    const mine = await post('/api/test/idem/orders', customer, { productId: 5, quantity: 1 }, key);
    const theirs = await post('/api/test/idem/orders', otherCustomer, { productId: 5, quantity: 1 }, key);
    const otherRoute = await post(
      '/api/test/idem/other-orders',
      customer,
      { productId: 5, quantity: 1 },
      key,
    );
    expect([mine.statusCode, theirs.statusCode, otherRoute.statusCode]).toEqual([201, 201, 201]);
    expect(runs.orders).toBe(before + 3);
    // Never another caller's answer.
    expect(theirs.json().data.by).toBe(otherCustomer.userId);
    expect(mine.json().data.by).toBe(customer.userId);
  });

  it('replays a refusal (4xx) as it was, and runs again after our own failure (5xx)', async () => {
    const key = newKey();
    const refused = await post('/api/test/idem/refusals', customer, { productId: 1, quantity: 1 }, key);
    const refusedAgain = await post('/api/test/idem/refusals', customer, { productId: 1, quantity: 1 }, key);
    expect(refused.statusCode).toBe(400);
    expect(refusedAgain.statusCode).toBe(400);
    expect(refusedAgain.json().message).toBe(refused.json().message);
    expect(runs.refusals).toBe(1);

    const failKey = newKey();
    const failed = await post('/api/test/idem/failures', customer, { productId: 1, quantity: 1 }, failKey);
    expect(failed.statusCode).toBe(500);
    const retried = await post('/api/test/idem/failures', customer, { productId: 1, quantity: 1 }, failKey);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toEqual({ attempt: 2 });
    const replayed = await post('/api/test/idem/failures', customer, { productId: 1, quantity: 1 }, failKey);
    expect(replayed.json().data).toEqual({ attempt: 2 });
    expect(runs.failures).toBe(2);
  });

  it('claims nothing for a request refused by validation or access', async () => {
    const key = newKey();
    const invalid = await post('/api/test/idem/orders', customer, { productId: 'x', quantity: 1 }, key);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errorCode).toBe('VALIDATION_ERROR');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/test/idem/orders',
      headers: { 'idempotency-key': key },
      payload: { productId: 1, quantity: 1 },
    });
    expect(anonymous.statusCode).toBe(401);
    const valid = await post('/api/test/idem/orders', customer, { productId: 1, quantity: 1 }, key);
    expect(valid.statusCode).toBe(201);
  });

  it('checks the header: 1 to 255 characters, required where the route says so', async () => {
    const empty = await post('/api/test/idem/orders', customer, { productId: 1, quantity: 1 }, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      errorCode: 'VALIDATION_ERROR',
      details: [{ path: 'idempotency-key' }],
    });
    const long = await post(
      '/api/test/idem/orders',
      customer,
      { productId: 1, quantity: 1 },
      'k'.repeat(256),
    );
    expect(long.statusCode).toBe(400);
    const longest = await post(
      '/api/test/idem/orders',
      customer,
      { productId: 1, quantity: 1 },
      'k'.repeat(255),
    );
    expect(longest.statusCode).toBe(201);

    const before = runs.pos;
    const missing = await post('/api/test/idem/pos', customer, { productId: 1, quantity: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errorCode).toBe('VALIDATION_ERROR');
    expect(runs.pos).toBe(before);
    const given = await post('/api/test/idem/pos', customer, { productId: 1, quantity: 1 }, newKey());
    expect(given.statusCode).toBe(200);
  });

  it('forgets a key after 24 hours: the same key runs again', async () => {
    const key = newKey();
    const before = runs.orders;
    await post('/api/test/idem/orders', customer, { productId: 9, quantity: 1 }, key);
    clock.advance(23 * 60 * 60 * 1000);
    // Access tokens follow the test clock: the same customer signs in again after each move.
    const sameCaller = await reSignIn(customer);
    const stillKept = await post('/api/test/idem/orders', sameCaller, { productId: 9, quantity: 1 }, key);
    expect(stillKept.headers['idempotent-replayed']).toBe('true');
    clock.advance(60 * 60 * 1000 + 1);
    const expired = await post(
      '/api/test/idem/orders',
      await reSignIn(customer),
      { productId: 9, quantity: 1 },
      key,
    );
    expect(expired.statusCode).toBe(201);
    expect(expired.headers['idempotent-replayed']).toBeUndefined();
    expect(runs.orders).toBe(before + 2);
  });

  it('the hourly purge removes keys older than 24 hours and keeps younger ones', async () => {
    const db = t.platform.database.db;
    await post('/api/test/idem/orders', await reSignIn(customer), { productId: 12, quantity: 1 }, newKey());
    const count = async () => (await db.select().from(idempotencyKeys)).length;
    const before = await count();
    // Keys of the earlier tests are more than 24 h old on the moved clock; the fresh one is not.
    const stale = await purgeExpiredIdempotencyKeys(db, clock.now());
    expect(stale).toBeGreaterThan(0);
    expect(await count()).toBe(before - stale);
    const fresh = await count();
    expect(fresh).toBeGreaterThan(0);
    const later = new Date(clock.now().getTime() + 25 * 60 * 60 * 1000);
    expect(await purgeExpiredIdempotencyKeys(db, later)).toBe(fresh);
    expect(await count()).toBe(0);
  });

  it('documents the header on the routes that take it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json();
    const optional = doc.paths['/api/test/idem/orders'].post.parameters;
    const required = doc.paths['/api/test/idem/pos'].post.parameters;
    expect(optional).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false }),
    );
    expect(required).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }),
    );
  });
});

describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: [2, { d: null, c: 'x' }] }, '{"a":[2,{"c":"x","d":null}],"b":1}'],
    [{ a: undefined, b: 2 }, '{"b":2}'],
    [undefined, 'null'],
    ['text', '"text"'],
  ])('%j → %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });
});

describe('Idempotency-Key under concurrency', () => {
  let t: TestApp;
  let second: TestApp | undefined;
  let customer: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({ testRoutes });
    customer = await signedInCustomer(t);
    // On the services tier, a second API process on the same database answers half the calls.
    if (servicesTier) second = await createTestApp({ testRoutes, database: t.platform.database });
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it('50 concurrent requests with one key run the handler once; every success is the same answer', async () => {
    orderDelayMs = 150;
    const before = runs.orders;
    const key = `race-${Date.now()}`;
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 && second ? second : t).app.inject({
          method: 'POST',
          url: '/api/test/idem/orders',
          headers: { ...customer.headers, 'idempotency-key': key },
          payload: { productId: 11, quantity: 1 },
        }),
      ),
    );
    orderDelayMs = 0;
    expect(runs.orders).toBe(before + 1);
    const created = replies.filter((r) => r.statusCode === 201);
    const busy = replies.filter((r) => r.statusCode === 409);
    expect(created.length + busy.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    for (const r of busy) expect(r.json().errorCode).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    // Once the first has finished, every replay is that same answer.
    const replays = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 && second ? second : t).app.inject({
          method: 'POST',
          url: '/api/test/idem/orders',
          headers: { ...customer.headers, 'idempotency-key': key },
          payload: { productId: 11, quantity: 1 },
        }),
      ),
    );
    for (const r of replays) {
      expect(r.statusCode).toBe(201);
      expect(r.body).toBe(created[0]?.body);
    }
    expect(runs.orders).toBe(before + 1);
  });
});
