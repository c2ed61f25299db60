// PostgreSQL + Redis: a worker process killed while a delivery is under way (the receiver has
// the request but has not answered) does not lose it: after a restart the delivery is attempted
// again, with the same webhook-id, and succeeds.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../../helpers/app';
import { freshDatabase } from '../../helpers/database';
import { signedInAdmin } from '../../helpers/factories';
import { removeTempDirs, startServer, tempDir } from '../../helpers/server-process';
import { servicesTier, serviceUrls } from '../../helpers/services';
import { type Receiver, startReceiver, verified } from './receiver';

let t: TestApp | undefined;
let receiver: Receiver | undefined;
let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;

afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await database?.close();
  removeTempDirs();
});

describe.skipIf(!servicesTier)('a worker killed during a delivery', { timeout: 400_000 }, () => {
  it('retries the delivery after the restart, with the same webhook-id', async (ctx) => {
    database = await freshDatabase();
    const prefix = `pasal-test-${randomBytes(4).toString('hex')}`;
    const settings = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '3000', REDIS_PREFIX: prefix };
    // This process only queues (an API process); the worker below delivers.
    t = await createTestApp({ database, startJobs: false, env: settings });
    const admin = await signedInAdmin(t, { superadmin: true });
    receiver = await startReceiver();
    let answered = 0;
    // The first request is held unanswered: the worker dies while it waits.
    receiver.answer = () => (answered++ === 0 ? 'hang' : 200);

    const workerEnv = {
      ...settings,
      DATABASE_URL: database.url!,
      REDIS_URL: serviceUrls().redisUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      URL_SIGNING_SECRET: 'test-url-signing-secret-long-enough-0123456789',
      DATA_DIR: tempDir(),
      LOG_LEVEL: 'info',
    };
    const startWorker = async () => {
      const worker = startServer(ctx, ['worker'], workerEnv);
      await worker.waitForLog((e) => e.msg === 'Pasal worker running (jobs: bullmq)', 180_000);
      return worker;
    };

    const first = await startWorker();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      headers: admin.headers,
      payload: { url: receiver.url, events: ['webhook.test'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, secret } = created.json().data;
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/admin/webhooks/${id}/test`,
      headers: admin.headers,
    });
    expect(test.statusCode, test.body).toBe(202);
    const deliveryId = test.json().data.deliveryId;

    await receiver.waitFor(1, 'webhook.test', 60_000);
    first.child.kill('SIGKILL');
    await first.exited;

    await startWorker();
    const [held, retried] = await receiver.waitFor(2, 'webhook.test', 120_000);
    expect(retried!.headers['webhook-id']).toBe(held!.headers['webhook-id']);
    expect(verified(retried!, secret)).toMatchObject({ type: 'webhook.test', data: { webhookId: id } });

    const deadline = Date.now() + 30_000;
    let delivery: { status: string; attempts: number; lastStatusCode: number | null } | undefined;
    while (Date.now() < deadline) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/webhooks/${id}/deliveries/${deliveryId}`,
        headers: admin.headers,
      });
      delivery = res.json().data;
      if (delivery?.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(delivery).toMatchObject({ status: 'succeeded', lastStatusCode: 200 });
    expect(receiver.ofType('webhook.test')).toHaveLength(2);
  });
});
