// Webhook endpoints and deliveries: CRUD with the secret shown once, permissions, signatures a
// Standard Webhooks library verifies, retries with the same webhook-id and growing delays, 410
// and repeated failures disabling the endpoint (with a notification), rotation, redelivery, the
// delivery log's shapes, and the refusal of URLs that reach the store's own network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveryDeps } from '../../../src/modules/webhooks';
import { isRefusedAddress } from '../../../src/modules/webhooks/webhooks.addresses';
import { attemptDelivery, ROTATION_OVERLAP_MS } from '../../../src/modules/webhooks/webhooks.service';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { type Receiver, startReceiver, verified, verifiesWith } from './receiver';

const BASE = '/api/admin/webhooks';
let t: TestApp;
let admin: SignedIn;
let receiver: Receiver;

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  who: SignedIn | null,
  payload?: Record<string, unknown>,
) => t.app.inject({ method, url, headers: who ? who.headers : {}, payload });

async function createEndpoint(body: Record<string, unknown> = {}) {
  const res = await call('POST', BASE, admin, { url: receiver.url, events: ['webhook.test'], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; secret: string; url: string };
}

async function sendTest(id: string) {
  const res = await call('POST', `${BASE}/${id}/test`, admin);
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data.deliveryId as string;
}

async function delivery(id: string, deliveryId: string) {
  const res = await call('GET', `${BASE}/${id}/deliveries/${deliveryId}`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  t = await createTestApp({
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_DISABLE_AFTER_FAILURES: '2',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
  });
  admin = await signedInAdmin(t, { superadmin: true });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('endpoints', () => {
  it('creates with the secret shown once, reads, lists, updates and deletes; each write is an activity record', async () => {
    const res = await call('POST', BASE, admin, {
      url: receiver.url,
      events: ['order.created', 'order.paid', 'order.created'],
      description: 'Courier portal',
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      url: receiver.url,
      events: ['order.created', 'order.paid'],
      description: 'Courier portal',
      isActive: true,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.createdAt).toBeTypeOf('string');

    const read = await call('GET', `${BASE}/${created.id}`, admin);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).not.toHaveProperty('secret');
    expect(read.json().data).toMatchObject({ id: created.id, consecutiveFailures: 0, lastDeliveryAt: null });

    const list = await call('GET', `${BASE}?size=100`, admin);
    expect(list.statusCode).toBe(200);
    expect(list.json().meta).toMatchObject({ page: 1, size: 100 });
    const listed = list.json().data.find((e: { id: string }) => e.id === created.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('secret');

    const patched = await call('PATCH', `${BASE}/${created.id}`, admin, {
      isActive: false,
      events: ['order.paid'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ isActive: false, events: ['order.paid'] });
    expect(patched.json().data).not.toHaveProperty('secret');

    const gone = await call('DELETE', `${BASE}/${created.id}`, admin);
    expect(gone.statusCode).toBe(200);
    expect((await call('GET', `${BASE}/${created.id}`, admin)).json().errorCode).toBe('WEBHOOK_NOT_FOUND');

    const activity = await call(
      'GET',
      `/api/admin/activity?entityType=webhook&entityId=${created.id}`,
      admin,
    );
    expect(activity.statusCode, activity.body).toBe(200);
    const actions = activity
      .json()
      .data.map((a: { action: string }) => a.action)
      .sort();
    expect(actions).toEqual(['create', 'delete', 'update']);
  });

  it('refuses bad input: unknown event types, no events, other schemes, unknown ids', async () => {
    const cases = [
      { url: receiver.url, events: ['order.shipped'] },
      { url: receiver.url, events: [] },
      { url: 'ftp://example.com/x', events: ['order.paid'] },
      { url: 'not a url', events: ['order.paid'] },
      { url: receiver.url, events: ['order.paid'], secret: 'mine' },
    ];
    for (const body of cases) {
      const res = await call('POST', BASE, admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errorCode).toBe('VALIDATION_ERROR');
    }
    const unknown = '0190a0a0-0000-7000-8000-000000000000';
    for (const [method, url] of [
      ['GET', `${BASE}/${unknown}`],
      ['PATCH', `${BASE}/${unknown}`],
      ['DELETE', `${BASE}/${unknown}`],
      ['POST', `${BASE}/${unknown}/rotate-secret`],
      ['POST', `${BASE}/${unknown}/test`],
      ['GET', `${BASE}/${unknown}/deliveries`],
    ] as const) {
      const res = await call(method, url, admin, method === 'PATCH' ? { isActive: true } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().errorCode).toBe('WEBHOOK_NOT_FOUND');
    }
    expect((await call('GET', `${BASE}/not-a-uuid`, admin)).json().errorCode).toBe('VALIDATION_ERROR');
  });

  it('lists the event catalogue', async () => {
    const res = await call('GET', `${BASE}/event-types`, admin);
    expect(res.statusCode).toBe(200);
    const types = res.json().data.map((e: { type: string }) => e.type);
    expect(types).toEqual([
      'order.created',
      'order.paid',
      'order.payment_failed',
      'order.cancelled',
      'order.fulfillment_changed',
      'order.refund_requested',
      'refund.processed',
      'product.stock_low',
      'invoice.issued',
      'credit_note.issued',
      'inquiry.created',
      'ticket.created',
      'repair.status_changed',
      'review.submitted',
      'customer.registered',
      'webhook.test',
    ]);
    for (const e of res.json().data) expect(e.description.length).toBeGreaterThan(10);
  });

  it('permissions: READ reads, CREATE creates, UPDATE changes, DELETE deletes; nothing else', async () => {
    const target = await createEndpoint();
    const reader = await signedInAdmin(t, { permissions: ['Webhooks_READ'] });
    const creator = await signedInAdmin(t, { permissions: ['Webhooks_CREATE'] });
    const updater = await signedInAdmin(t, { permissions: ['Webhooks_UPDATE'] });
    const deleter = await signedInAdmin(t, { permissions: ['Webhooks_DELETE'] });
    const body = { url: receiver.url, events: ['webhook.test'] };
    expect((await call('GET', BASE, null)).statusCode).toBe(401);
    expect((await call('GET', BASE, reader)).statusCode).toBe(200);
    expect((await call('GET', `${BASE}/${target.id}/deliveries`, reader)).statusCode).toBe(200);
    expect((await call('POST', BASE, reader, body)).json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    expect((await call('POST', BASE, creator, body)).statusCode).toBe(201);
    expect((await call('GET', BASE, creator)).json().errorCode).toBe('AUTH_PERMISSION_DENIED');
    expect((await call('PATCH', `${BASE}/${target.id}`, creator, { isActive: true })).statusCode).toBe(403);
    expect((await call('PATCH', `${BASE}/${target.id}`, updater, { isActive: true })).statusCode).toBe(200);
    expect((await call('POST', `${BASE}/${target.id}/rotate-secret`, reader)).statusCode).toBe(403);
    expect((await call('POST', `${BASE}/${target.id}/test`, reader)).statusCode).toBe(403);
    expect((await call('DELETE', `${BASE}/${target.id}`, updater)).statusCode).toBe(403);
    expect((await call('DELETE', `${BASE}/${target.id}`, deleter)).statusCode).toBe(200);
    const customerLike = await call('GET', BASE, null);
    expect(customerLike.json().errorCode).toBe('AUTH_UNAUTHORIZED');
  });
});

describe('delivery', () => {
  it('sends a test message that verifies with the Standard Webhooks library; the log shows it', async () => {
    const ep = await createEndpoint();
    const deliveryId = await sendTest(ep.id);
    const [msg] = await receiver
      .waitFor(1, 'webhook.test')
      .then((l) => l.filter((r) => r.json.data.webhookId === ep.id));
    const body = verified(msg!, ep.secret);
    expect(body).toMatchObject({ type: 'webhook.test', data: { webhookId: ep.id } });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(Math.abs(Number(msg!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);

    const done = await until(
      () => delivery(ep.id, deliveryId),
      (d) => d.status === 'succeeded',
    );
    expect(Object.keys(done).sort()).toEqual(
      [
        'id',
        'messageId',
        'eventType',
        'status',
        'attempts',
        'lastStatusCode',
        'lastError',
        'lastAttemptAt',
        'nextAttemptAt',
        'createdAt',
        'payload',
        'attemptLog',
      ].sort(),
    );
    expect(done).toMatchObject({
      messageId: msg!.headers['webhook-id'],
      eventType: 'webhook.test',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      payload: JSON.parse(msg!.body),
    });
    expect(done.attemptLog).toHaveLength(1);
    expect(done.attemptLog[0]).toMatchObject({ statusCode: 200, error: null });
    expect(done.attemptLog[0].durationMs).toBeTypeOf('number');

    const list = await call('GET', `${BASE}/${ep.id}/deliveries`, admin);
    expect(list.json().meta).toEqual({ count: 1, page: 1, size: 20 });
    expect(Object.keys(list.json().data[0]).sort()).toEqual(
      [
        'id',
        'messageId',
        'eventType',
        'status',
        'attempts',
        'lastStatusCode',
        'lastError',
        'lastAttemptAt',
        'nextAttemptAt',
        'createdAt',
      ].sort(),
    );
    const health = (await call('GET', `${BASE}/${ep.id}`, admin)).json().data;
    expect(health).toMatchObject({ lastDeliveryStatus: 'succeeded', consecutiveFailures: 0 });
    expect((await call('GET', `${BASE}/${ep.id}/deliveries?status=failed`, admin)).json().meta.count).toBe(0);
    expect((await call('GET', `${BASE}/${ep.id}/deliveries?status=sent`, admin)).statusCode).toBe(400);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /webhook_deliveries_total\{event_type="webhook.test",outcome="succeeded"\} \d+/,
    );
  });

  it('retries a failing receiver with the same webhook-id and growing delays, then fails the delivery', async () => {
    const ep = await createEndpoint();
    receiver.answer = (r) => (r.json.data.webhookId === ep.id ? 500 : 200);
    try {
      const deliveryId = await sendTest(ep.id);
      const failed = await until(
        () => delivery(ep.id, deliveryId),
        (d) => d.status === 'failed',
        20_000,
      );
      const mine = receiver.received.filter((r) => r.json.data.webhookId === ep.id);
      expect(mine).toHaveLength(3); // WEBHOOK_MAX_ATTEMPTS
      expect(new Set(mine.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const gaps = [mine[1]!.at - mine[0]!.at, mine[2]!.at - mine[1]!.at];
      expect(gaps[0]).toBeGreaterThanOrEqual(900); // 1 s
      expect(gaps[1]).toBeGreaterThanOrEqual(1900); // 2 s
      expect(failed).toMatchObject({ attempts: 3, lastStatusCode: 500, nextAttemptAt: null });
      expect(failed.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500]);
      for (const r of mine) expect(verifiesWith(r, ep.secret)).toBe(true);
    } finally {
      receiver.answer = () => 200;
    }
  });

  it('a 410 disables the endpoint at once and tells the admins holding Webhooks_UPDATE', async () => {
    const watcher = await signedInAdmin(t, { permissions: ['Webhooks_UPDATE'] });
    const bystander = await signedInAdmin(t, { permissions: ['Webhooks_READ'] });
    const ep = await createEndpoint();
    receiver.answer = (r) => (r.json.data.webhookId === ep.id ? 410 : 200);
    try {
      const deliveryId = await sendTest(ep.id);
      const d = await until(
        () => delivery(ep.id, deliveryId),
        (x) => x.status === 'failed',
      );
      expect(d.attempts).toBe(1);
      const endpoint = (await call('GET', `${BASE}/${ep.id}`, admin)).json().data;
      expect(endpoint).toMatchObject({ isActive: false, disabledReason: 'gone' });
      const feed = await call('GET', '/api/admin/notifications', watcher);
      expect(
        feed
          .json()
          .data.some(
            (n: { type: string; data: { webhookId: string } }) =>
              n.type === 'webhook.disabled' && n.data.webhookId === ep.id,
          ),
      ).toBe(true);
      const other = await call('GET', '/api/admin/notifications', bystander);
      expect(other.json().data.some((n: { type: string }) => n.type === 'webhook.disabled')).toBe(false);
      // Resumed: a fresh start.
      const resumed = await call('PATCH', `${BASE}/${ep.id}`, admin, { isActive: true });
      expect(resumed.json().data).toMatchObject({
        isActive: true,
        disabledReason: null,
        consecutiveFailures: 0,
      });
    } finally {
      receiver.answer = () => 200;
    }
  });

  it('failed deliveries in a row (WEBHOOK_DISABLE_AFTER_FAILURES) disable the endpoint with a notification', async () => {
    const ep = await createEndpoint();
    const deps = webhookDeliveryDeps(t.platform.database.db)!;
    receiver.answer = (r) => (r.json.data.webhookId === ep.id ? 503 : 200);
    try {
      const first = await sendTest(ep.id);
      await until(
        () => delivery(ep.id, first),
        (d) => d.status === 'failed',
        20_000,
      );
      expect((await call('GET', `${BASE}/${ep.id}`, admin)).json().data).toMatchObject({
        isActive: true,
        consecutiveFailures: 1,
        lastDeliveryStatus: 'failed',
      });
      const second = await sendTest(ep.id);
      await until(
        () => delivery(ep.id, second),
        (d) => d.status === 'failed',
        20_000,
      );
      const endpoint = (await call('GET', `${BASE}/${ep.id}`, admin)).json().data;
      expect(endpoint).toMatchObject({ isActive: false, disabledReason: 'failures', consecutiveFailures: 2 });
      const feed = await call('GET', '/api/admin/notifications', admin);
      expect(
        feed
          .json()
          .data.filter(
            (n: { type: string; data: { webhookId: string; reason: string } }) =>
              n.type === 'webhook.disabled' && n.data.webhookId === ep.id && n.data.reason === 'failures',
          ),
      ).toHaveLength(1);
      expect(deps).toBeDefined();
    } finally {
      receiver.answer = () => 200;
    }
  });

  it('rotation: both secrets sign for 24 h, then only the new one', async () => {
    const ep = await createEndpoint();
    const rotated = await call('POST', `${BASE}/${ep.id}/rotate-secret`, admin);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret } = rotated.json().data;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(ep.secret);
    await sendTest(ep.id);
    const msg = (
      await until(
        async () => receiver.received.filter((r) => r.json.data.webhookId === ep.id),
        (l) => l.length >= 1,
      )
    )[0]!;
    expect(String(msg.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiesWith(msg, secret)).toBe(true);
    expect(verifiesWith(msg, ep.secret)).toBe(true);
    // After the overlap: only the new secret signs.
    const deps = webhookDeliveryDeps(t.platform.database.db)!;
    const realClock = deps.clock;
    deps.clock = {
      now: () => new Date(realClock.now().getTime() + ROTATION_OVERLAP_MS + 60_000),
    } as typeof realClock;
    try {
      const later = await sendTest(ep.id);
      await until(
        () => delivery(ep.id, later),
        (d) => d.status !== 'pending',
      );
    } finally {
      deps.clock = realClock;
    }
    const latest = receiver.received.filter((r) => r.json.data.webhookId === ep.id)[1]!;
    expect(String(latest.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(String(latest.headers['webhook-signature'])).toMatch(/^v1,/);
    expect(latest.headers['webhook-signature']).toBeDefined();
    const endpoint = (await call('GET', `${BASE}/${ep.id}`, admin)).json().data;
    expect(endpoint.secretRotatedUntil).toBeTypeOf('string');
  });

  it('redelivers a message as a new delivery with the same webhook-id', async () => {
    const ep = await createEndpoint();
    const first = await sendTest(ep.id);
    const d1 = await until(
      () => delivery(ep.id, first),
      (d) => d.status === 'succeeded',
    );
    const res = await call('POST', `${BASE}/${ep.id}/deliveries/${first}/redeliver`, admin);
    expect(res.statusCode, res.body).toBe(202);
    const second = res.json().data.deliveryId;
    expect(second).not.toBe(first);
    const d2 = await until(
      () => delivery(ep.id, second),
      (d) => d.status === 'succeeded',
    );
    expect(d2.messageId).toBe(d1.messageId);
    const mine = receiver.received.filter((r) => r.json.data.webhookId === ep.id);
    expect(mine).toHaveLength(2);
    expect(mine[0]!.headers['webhook-id']).toBe(mine[1]!.headers['webhook-id']);
    expect(mine[0]!.body).toBe(mine[1]!.body);
    const unknown = await call(
      'POST',
      `${BASE}/${ep.id}/deliveries/0190a0a0-0000-7000-8000-000000000000/redeliver`,
      admin,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorCode).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    // Another endpoint's delivery is not this one's.
    const other = await createEndpoint();
    const foreign = await call('GET', `${BASE}/${other.id}/deliveries/${first}`, admin);
    expect(foreign.json().errorCode).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    const list = await call('GET', `${BASE}/${ep.id}/deliveries`, admin);
    expect(list.json().data.map((d: { id: string }) => d.id)).toEqual([second, first]);
  });

  it('a delivery job run twice attempts once', async () => {
    const ep = await createEndpoint();
    const deliveryId = await sendTest(ep.id);
    await until(
      () => delivery(ep.id, deliveryId),
      (d) => d.status === 'succeeded',
    );
    const deps = webhookDeliveryDeps(t.platform.database.db)!;
    expect(await attemptDelivery(deps, deliveryId)).toBe('skipped');
    expect(receiver.received.filter((r) => r.json.data.webhookId === ep.id)).toHaveLength(1);
  });
});

describe('server-side request forgery', () => {
  let guarded: TestApp;
  let guardAdmin: SignedIn;
  beforeAll(async () => {
    guarded = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    guardAdmin = await signedInAdmin(guarded, { superadmin: true });
  });
  afterAll(() => guarded?.close());

  const refusedUrls = [
    'http://127.0.0.1/hook',
    'http://127.1/hook',
    'http://2130706433/hook', // decimal
    'http://0x7f000001/hook', // hex
    'http://0x7f.0.0.1/hook',
    'http://0177.0.0.1/hook', // octal
    'http://017700000001/hook',
    'http://localhost/hook',
    'http://0.0.0.0/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.1/hook',
    'http://172.31.255.255/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://[::1]/hook',
    'http://[::]/hook',
    'http://[::ffff:127.0.0.1]/hook', // IPv4-mapped
    'http://[::ffff:7f00:1]/hook',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[fc00::1]/hook', // unique-local
    'http://[fd12:3456::1]/hook',
    'http://[fe80::1]/hook', // link-local
    'http://[64:ff9b::7f00:1]/hook', // NAT64 of 127.0.0.1
    'https://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
  ];

  it('refuses every spelling of a loopback, private, link-local, unique-local or unspecified host at creation', async () => {
    for (const url of refusedUrls) {
      const res = await guarded.app.inject({
        method: 'POST',
        url: BASE,
        headers: guardAdmin.headers,
        payload: { url, events: ['order.paid'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errorCode, url).toBe('WEBHOOK_URL_NOT_ALLOWED');
    }
  });

  it('checks the addresses themselves, and lets public ones through', () => {
    for (const a of ['127.0.0.1', '::1', '::ffff:192.168.0.1', 'fe80::abcd', '0.0.0.0', '::'])
      expect(isRefusedAddress(a), a).toBe(true);
    for (const a of [
      '93.184.216.34',
      '2606:2800:220:1:248:1893:25c8:1946',
      '::ffff:93.184.216.34',
      '8.8.8.8',
    ])
      expect(isRefusedAddress(a), a).toBe(false);
  });

  it('refuses at delivery a name that now resolves to 127.0.0.1: no request is sent', async () => {
    const deps = webhookDeliveryDeps(guarded.platform.database.db)!;
    const local = await startReceiver();
    const port = new URL(local.url).port;
    const resolve = deps.resolve;
    // Public when the endpoint is saved…
    deps.resolve = async () => [{ address: '93.184.216.34', family: 4 }];
    try {
      const res = await guarded.app.inject({
        method: 'POST',
        url: BASE,
        headers: guardAdmin.headers,
        payload: { url: `http://hooks.example.test:${port}/hook`, events: ['webhook.test'] },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().data.id;
      // …loopback when the delivery connects.
      deps.resolve = async () => [{ address: '127.0.0.1', family: 4 }];
      const test = await guarded.app.inject({
        method: 'POST',
        url: `${BASE}/${id}/test`,
        headers: guardAdmin.headers,
      });
      const deliveryId = test.json().data.deliveryId;
      const d = await until(
        async () =>
          (
            await guarded.app.inject({
              method: 'GET',
              url: `${BASE}/${id}/deliveries/${deliveryId}`,
              headers: guardAdmin.headers,
            })
          ).json().data,
        (x) => x.status !== 'pending',
      );
      expect(d).toMatchObject({
        status: 'failed',
        lastError: 'url_not_allowed',
        lastStatusCode: null,
        attempts: 1,
      });
      expect(local.received).toHaveLength(0);
    } finally {
      deps.resolve = resolve;
      await local.close();
    }
  });
});
