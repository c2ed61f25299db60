// The push port: the dev outbox (where a developer sees what would reach a phone), the memory
// sink, and delivery through the job queue with retries, like mail and SMS.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queuedDelivery } from '../../src/platform/delivery/delivery';
import { createMemoryQueue } from '../../src/platform/jobs/memory-queue';
import { createMemoryMailer } from '../../src/platform/mail/mailer';
import {
  createMemoryPush,
  createOutboxPush,
  type PushMessage,
  type PushSender,
} from '../../src/platform/push/push';
import { createMemorySms } from '../../src/platform/sms/sms';

const message: PushMessage = {
  to: 'device-token-1',
  title: 'Your ticket has a reply',
  body: 'Hello from the store',
  data: { type: 'support.request_reply', supportRequestId: 3 },
};

describe('outbox push', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-push-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes one JSON file a message under DATA_DIR/outbox/push, and logs where', async () => {
    const lines: Array<{ fields: Record<string, unknown>; msg: string }> = [];
    const push = createOutboxPush({ dataDir, log: (fields, msg) => lines.push({ fields, msg }) });
    expect(push.driver).toBe('outbox');
    await push.send(message);
    await push.send({ ...message, to: 'device-token-2' });

    const dir = path.join(dataDir, 'outbox', 'push');
    const files = readdirSync(dir).map((name) => path.join(dir, name));
    expect(files).toHaveLength(2);
    const written = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as PushMessage);
    expect(written.map((m) => m.to).sort()).toEqual(['device-token-1', 'device-token-2']);
    expect(written.find((m) => m.to === 'device-token-1')).toEqual(message);
    expect(lines.map((l) => l.msg)).toEqual(['push written to the outbox', 'push written to the outbox']);
  });
});

describe('queued push delivery', () => {
  function deliveryWith(push: PushSender) {
    const jobs = createMemoryQueue({ concurrency: 1 });
    const outgoing = queuedDelivery({
      jobs,
      mailer: createMemoryMailer(),
      sms: createMemorySms(),
      push,
      retryBaseMs: 50,
    });
    return { jobs, outgoing };
  }

  it('queues the message and a worker hands it to the push adapter', async () => {
    const push = createMemoryPush();
    const { jobs, outgoing } = deliveryWith(push);
    expect(outgoing.push.driver).toBe('memory');
    await outgoing.push.send(message);
    expect(push.sent).toEqual([]); // queued, not sent in the caller's time
    await jobs.start();
    await jobs.drain();
    expect(push.sent).toEqual([message]);
    await jobs.close();
  });

  it('retries when the provider fails, so a short outage loses nothing', async () => {
    const delivered: PushMessage[] = [];
    let failures = 1;
    const flaky: PushSender = {
      driver: 'memory',
      async send(m) {
        if (failures-- > 0) throw new Error('provider unavailable');
        delivered.push(m);
      },
    };
    const { jobs, outgoing } = deliveryWith(flaky);
    await jobs.start();
    await outgoing.push.send(message);
    // The first retry waits the backoff given (DELIVERY_RETRY_BASE_SECONDS in the app).
    await expect.poll(() => delivered, { timeout: 2000, interval: 20 }).toEqual([message]);
    await jobs.close();
  });

  it('refuses to queue a message without a device token', async () => {
    const push = createMemoryPush();
    const { jobs, outgoing } = deliveryWith(push);
    await expect(outgoing.push.send({ ...message, to: '' })).rejects.toThrow();
    await jobs.close();
  });
});
