// One contract for the job queue port, run against the in-process queue on every tier and
// against BullMQ on the services tier: modules are tested on the first and run on the second.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { unlinkMatching } from '../../src/platform/cache/redis-cache';
import { createBullmqQueue } from '../../src/platform/jobs/bullmq-queue';
import {
  defineJob,
  type JobContext,
  type JobEvents,
  type JobQueue,
  PermanentJobError,
  retryDelay,
  storedJobId,
} from '../../src/platform/jobs/jobs';
import { createMemoryQueue } from '../../src/platform/jobs/memory-queue';
import { servicesTier, serviceUrls } from '../helpers/services';

/** Polls until `check` holds, so tests wait as long as needed and no longer. */
async function waitFor(check: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

interface EventLog extends Required<JobEvents> {
  completed: Array<{ name: string; ms: number }>;
  failed: Array<{ name: string; message: string; willRetry: boolean }>;
}
function eventLog(): EventLog {
  const log: EventLog = {
    completed: [],
    failed: [],
    onCompleted: (name, ms) => log.completed.push({ name, ms }),
    onFailed: (name, error, willRetry) =>
      log.failed.push({ name, message: error instanceof Error ? error.message : String(error), willRetry }),
  };
  return log;
}

interface Run<P> {
  payload: P;
  ctx: JobContext;
  at: number;
}

/** A job that records its runs; `behave` decides, per run, how it ends. */
function recordingJob<P>(
  name: string,
  payload: z.ZodType<P>,
  opts: {
    attempts?: number;
    backoffMs?: number;
    behave?: (run: Run<P>, runs: Run<P>[]) => Promise<void>;
  } = {},
) {
  const runs: Run<P>[] = [];
  const job = defineJob<P>({
    name,
    payload,
    attempts: opts.attempts,
    backoffMs: opts.backoffMs,
    async handler(p, ctx) {
      const run = { payload: p, ctx, at: Date.now() };
      runs.push(run);
      await opts.behave?.(run, runs);
    },
  });
  return { job, runs };
}

const orderPayload = z.object({ orderId: z.string().min(1), email: z.string().trim().toLowerCase() });
type OrderPayload = z.infer<typeof orderPayload>;

interface QueueHarness {
  /** A new queue of the adapter under test; the harness closes and cleans it up after the test. */
  make(events: JobEvents, concurrency?: number): JobQueue;
}

/** A croner seconds pattern: both adapters must take six fields, or schedule tests take minutes. */
const EVERY_SECOND = '* * * * * *';

function queueContract(harness: QueueHarness) {
  let events: EventLog;
  let queue: JobQueue;
  const setup = (concurrency?: number) => {
    events = eventLog();
    queue = harness.make(events, concurrency);
  };

  it('runs a registered job with its payload as the schema parsed it', async () => {
    setup();
    const { job, runs } = recordingJob('orders.confirm', orderPayload);
    queue.register(job);
    await queue.start();

    const sent = { orderId: 'o-1', email: '  Buyer@Example.COM ', extra: 'not in the schema' };
    await queue.enqueue(job, sent);
    await waitFor(() => runs.length === 1 && events.completed.length === 1, 'the job to run');

    expect(runs[0]!.payload).toEqual({ orderId: 'o-1', email: 'buyer@example.com' });
    expect(runs[0]!.ctx.attempt).toBe(1);
    expect(runs[0]!.ctx.jobId).toMatch(/\S/);
    expect(events.completed).toEqual([{ name: 'orders.confirm', ms: expect.any(Number) }]);
    expect(events.completed[0]!.ms).toBeGreaterThanOrEqual(0);
    expect(events.failed).toEqual([]);
  });

  it('a throwing onCompleted observer does not turn a finished job into a failure or a retry', async () => {
    setup();
    const observed = events.onCompleted;
    events.onCompleted = (name, ms) => {
      observed(name, ms);
      throw new Error('metrics backend down');
    };
    const { job, runs } = recordingJob('orders.confirm', orderPayload);
    queue.register(job);
    await queue.start();
    await queue.enqueue(job, { orderId: 'o-2', email: 'b@example.com' });
    await waitFor(() => events.completed.length === 1, 'the job to finish');
    await new Promise((r) => setTimeout(r, 300)); // time enough for a (wrong) retry to start
    expect(runs).toHaveLength(1);
    expect(events.failed).toEqual([]);
  });

  it('refuses an invalid payload at enqueue, and the refused job id stays free', async () => {
    setup();
    const { job, runs } = recordingJob('orders.confirm', orderPayload);
    queue.register(job);
    await queue.start();

    const invalid = { orderId: '', email: 42 } as unknown as OrderPayload;
    await expect(queue.enqueue(job, invalid, { jobId: 'order-7' })).rejects.toBeInstanceOf(z.ZodError);
    await queue.enqueue(job, { orderId: 'o-7', email: 'a@example.com' }, { jobId: 'order-7' });

    await waitFor(() => runs.length === 1, 'the valid job to run');
    expect(runs.map((r) => r.payload.orderId)).toEqual(['o-7']);
  });

  it('refuses to enqueue or schedule a job no module registered, where the mistake is made', async () => {
    setup();
    const { job, runs } = recordingJob('orders.unregistered', orderPayload);
    await queue.start();
    const payload = { orderId: 'o-8', email: 'a@example.com' };
    await expect(queue.enqueue(job, payload)).rejects.toThrow(
      'No job named orders.unregistered is registered',
    );
    await expect(queue.schedule(job, EVERY_SECOND, payload)).rejects.toThrow(
      'No job named orders.unregistered is registered',
    );
    // The payload is the job's own type, never widened to fit what is passed.
    // @ts-expect-error orderId is a string in the job's schema (typecheck fails if this passes)
    await expect(queue.enqueue(job, { orderId: 8, email: 'a@example.com' })).rejects.toThrow('No job named');
    queue.register(job);
    await queue.enqueue(job, payload);
    await waitFor(() => runs.length === 1, 'the job, once registered, to run');
  });

  it('waits for start(), and runs a job id enqueued twice while waiting once', async () => {
    setup();
    const { job, runs } = recordingJob('orders.confirm', orderPayload);
    queue.register(job);

    await queue.enqueue(job, { orderId: 'first', email: 'a@example.com' }, { jobId: 'order:1' });
    await queue.enqueue(job, { orderId: 'second', email: 'a@example.com' }, { jobId: 'order:1' });
    await queue.enqueue(job, { orderId: 'other', email: 'a@example.com' }, { jobId: 'order:2' });
    await sleep(100);
    expect(runs).toHaveLength(0);

    await queue.start();
    await waitFor(() => events.completed.length === 2, 'both job ids to run');
    await sleep(100);
    expect(runs.map((r) => r.payload.orderId).sort()).toEqual(['first', 'other']);
    // The id the handler sees is the stored one, free of the ':' BullMQ reserves.
    expect(runs.find((r) => r.payload.orderId === 'first')!.ctx.jobId).toBe(
      storedJobId('orders.confirm', 'order:1'),
    );
  });

  it('ignores a job id enqueued again while it runs, and runs it again once it is done', async () => {
    setup();
    const gate = deferred();
    const { job, runs } = recordingJob('orders.confirm', orderPayload, { behave: () => gate.promise });
    queue.register(job);
    await queue.start();

    await queue.enqueue(job, { orderId: 'a', email: 'a@example.com' }, { jobId: 'same' });
    await waitFor(() => runs.length === 1, 'the job to start');
    await queue.enqueue(job, { orderId: 'b', email: 'a@example.com' }, { jobId: 'same' });
    gate.resolve();
    await waitFor(() => events.completed.length === 1, 'the job to finish');
    await sleep(100);
    expect(runs.map((r) => r.payload.orderId)).toEqual(['a']);

    await queue.enqueue(job, { orderId: 'c', email: 'a@example.com' }, { jobId: 'same' });
    await waitFor(() => runs.length === 2, 'the finished job id to run again');
    expect(runs.map((r) => r.payload.orderId)).toEqual(['a', 'c']);
  });

  it('keeps job ids apart per job name', async () => {
    setup();
    const first = recordingJob('mail.receipt', orderPayload);
    const second = recordingJob('sms.receipt', orderPayload);
    queue.register(first.job);
    queue.register(second.job);

    await queue.enqueue(first.job, { orderId: 'o-1', email: 'a@example.com' }, { jobId: 'o-1' });
    await queue.enqueue(second.job, { orderId: 'o-1', email: 'a@example.com' }, { jobId: 'o-1' });
    await queue.start();

    await waitFor(() => first.runs.length === 1 && second.runs.length === 1, 'both jobs to run');
  });

  it('refuses to register one job name twice', () => {
    setup();
    const { job } = recordingJob('orders.confirm', orderPayload);
    queue.register(job);
    expect(() => queue.register(job)).toThrow(/registered twice/);
  });

  it('holds a delayed job back for delayMs', async () => {
    setup();
    const { job, runs } = recordingJob('orders.remind', orderPayload);
    queue.register(job);
    await queue.start();

    const enqueuedAt = Date.now();
    await queue.enqueue(job, { orderId: 'later', email: 'a@example.com' }, { delayMs: 300 });
    await queue.enqueue(job, { orderId: 'now', email: 'a@example.com' });
    await waitFor(() => runs.length === 1, 'the job without a delay');
    await sleep(Math.max(0, enqueuedAt + 100 - Date.now()));
    expect(runs.map((r) => r.payload.orderId)).toEqual(['now']);

    await waitFor(() => runs.length === 2, 'the delayed job', 1500);
    expect(runs[1]!.payload.orderId).toBe('later');
    // A few ms of slack: the queue and the test read the clock at slightly different moments.
    expect(runs[1]!.at - enqueuedAt).toBeGreaterThanOrEqual(295);
  });

  it('retries a failing job with a doubling backoff, counting the attempt', async () => {
    setup();
    const backoffMs = 60;
    const { job, runs } = recordingJob('orders.sync', orderPayload, {
      attempts: 3,
      backoffMs,
      behave: async (run) => {
        if (run.ctx.attempt < 3) throw new Error(`flaky ${run.ctx.attempt}`);
      },
    });
    queue.register(job);
    await queue.start();

    await queue.enqueue(job, { orderId: 'o-1', email: 'a@example.com' }, { jobId: 'sync-1' });
    await waitFor(() => events.completed.length === 1, 'the third attempt to succeed');

    expect(runs.map((r) => r.ctx.attempt)).toEqual([1, 2, 3]);
    expect(new Set(runs.map((r) => r.ctx.jobId)).size).toBe(1);
    expect(runs.every((r) => r.payload.orderId === 'o-1')).toBe(true);
    // Slack of a few ms for timer and Redis clock granularity.
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(retryDelay(backoffMs, 1) - 5);
    expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(retryDelay(backoffMs, 2) - 5);
    expect(events.failed).toEqual([
      { name: 'orders.sync', message: 'flaky 1', willRetry: true },
      { name: 'orders.sync', message: 'flaky 2', willRetry: true },
    ]);
    expect(events.completed.map((c) => c.name)).toEqual(['orders.sync']);
  });

  it('gives a job that always fails up after its attempts', async () => {
    setup();
    const { job, runs } = recordingJob('orders.doomed', orderPayload, {
      attempts: 2,
      backoffMs: 20,
      behave: async () => {
        throw new Error('always');
      },
    });
    queue.register(job);
    await queue.start();

    await queue.enqueue(job, { orderId: 'o-1', email: 'a@example.com' }, { jobId: 'doomed' });
    await waitFor(() => events.failed.some((f) => !f.willRetry), 'the job to be given up');
    await sleep(250);

    expect(runs.map((r) => r.ctx.attempt)).toEqual([1, 2]);
    expect(events.failed).toEqual([
      { name: 'orders.doomed', message: 'always', willRetry: true },
      { name: 'orders.doomed', message: 'always', willRetry: false },
    ]);
    expect(events.completed).toEqual([]);

    // Given up, the id is free again.
    await queue.enqueue(job, { orderId: 'o-2', email: 'a@example.com' }, { jobId: 'doomed' });
    await waitFor(() => runs.length === 3, 'the freed job id to run');
    expect(runs[2]!.payload.orderId).toBe('o-2');
  });

  it('gives a job up at once when it throws a PermanentJobError', async () => {
    setup();
    const { job, runs } = recordingJob('sms.refused', orderPayload, {
      attempts: 5,
      backoffMs: 10,
      behave: async () => {
        throw new PermanentJobError('no credit');
      },
    });
    queue.register(job);
    await queue.start();

    await queue.enqueue(job, { orderId: 'o-1', email: 'a@example.com' });
    await waitFor(() => events.failed.length === 1, 'the job to fail');
    await sleep(150);

    expect(runs.map((r) => r.ctx.attempt)).toEqual([1]);
    expect(events.failed).toEqual([{ name: 'sms.refused', message: 'no credit', willRetry: false }]);
  });

  it('runs no more jobs at once than its concurrency', async () => {
    setup(2);
    let inFlight = 0;
    let most = 0;
    const { job, runs } = recordingJob('images.resize', z.object({ n: z.number() }), {
      behave: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Held until a second job runs beside it (or a while), then long enough for a third
        // to start too if the queue let it.
        await waitFor(() => inFlight >= 2, 'a second job in flight', 1000).catch(() => {});
        await sleep(50);
        inFlight--;
      },
    });
    queue.register(job);
    for (let n = 0; n < 6; n++) await queue.enqueue(job, { n });
    await queue.start();

    await waitFor(() => events.completed.length === 6, 'all six jobs');
    expect(runs.map((r) => r.payload.n).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('close() waits for a running job to finish', async () => {
    setup();
    let finished = false;
    const { job, runs } = recordingJob('reports.build', z.object({}), {
      behave: async () => {
        await sleep(250);
        finished = true;
      },
    });
    queue.register(job);
    await queue.start();
    await queue.enqueue(job, {});
    await waitFor(() => runs.length === 1, 'the job to start');

    await queue.close();
    expect(finished).toBe(true);
    expect(events.completed.map((c) => c.name)).toEqual(['reports.build']);
  });

  it('fires a seconds cron schedule with the latest schedule replacing the earlier one', async () => {
    setup();
    const { job, runs } = recordingJob('system.tick', z.object({ label: z.string() }));
    queue.register(job);
    await queue.schedule(job, EVERY_SECOND, { label: 'replaced' });
    await queue.schedule(job, EVERY_SECOND, { label: 'current' });
    await queue.start();

    await waitFor(() => runs.length >= 2, 'two ticks', 3500);
    expect(runs.every((r) => r.payload.label === 'current')).toBe(true);
    // Each tick is its own job, so no tick runs twice.
    expect(new Set(runs.map((r) => r.ctx.jobId)).size).toBe(runs.length);
  });

  it('refuses a schedule with an invalid payload or pattern', async () => {
    setup();
    const { job } = recordingJob('system.tick', z.object({ label: z.string() }));
    queue.register(job);
    const invalid = { label: 7 } as unknown as { label: string };
    await expect(queue.schedule(job, EVERY_SECOND, invalid)).rejects.toBeInstanceOf(z.ZodError);
    await expect(queue.schedule(job, 'every now and then', { label: 'x' })).rejects.toThrow();
  });
}

describe('memory queue', () => {
  const queues: JobQueue[] = [];
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.close()));
  });

  describe('contract', () =>
    queueContract({
      make(events, concurrency = 2) {
        const queue = createMemoryQueue({ concurrency, events });
        queues.push(queue);
        return queue;
      },
    }));

  it('reports its driver, and drain() resolves once the due jobs are done', async () => {
    const queue = createMemoryQueue({ concurrency: 1 });
    queues.push(queue);
    expect(queue.driver).toBe('memory');
    const { job, runs } = recordingJob('images.resize', z.object({ n: z.number() }), {
      behave: () => sleep(20),
    });
    queue.register(job);
    await queue.start();
    for (let n = 0; n < 3; n++) await queue.enqueue(job, { n });
    await queue.drain();
    expect(runs).toHaveLength(3);
  });

  it('a schedule made before start() waits for it', async () => {
    const queue = createMemoryQueue({ concurrency: 1 });
    queues.push(queue);
    const { job, runs } = recordingJob('system.tick', z.object({}));
    queue.register(job);
    await queue.schedule(job, EVERY_SECOND, {});
    await sleep(1100);
    expect(runs).toHaveLength(0);
    await queue.start();
    await waitFor(() => runs.length >= 1, 'a tick after start', 1500);
  });

  it('after close(), enqueued and scheduled jobs no longer run', async () => {
    const queue = createMemoryQueue({ concurrency: 1 });
    const { job, runs } = recordingJob('system.tick', z.object({}));
    queue.register(job);
    await queue.schedule(job, EVERY_SECOND, {});
    await queue.enqueue(job, {}, { delayMs: 100 });
    await queue.start();
    await queue.close();
    await queue.enqueue(job, {});
    await sleep(1100);
    expect(runs).toHaveLength(0);
  });
});

describe.runIf(servicesTier)('bullmq queue', () => {
  let redis: Redis;
  const filePrefix = `pasal-test-jobs-${randomBytes(4).toString('hex')}`;
  let made: Array<{ queue: JobQueue; prefix: string }> = [];
  let count = 0;

  beforeAll(async () => {
    redis = new Redis(serviceUrls().redisUrl);
    await redis.ping();
  });
  afterEach(async () => {
    for (const { queue } of made) await queue.close();
    made = [];
  });
  afterAll(async () => {
    await unlinkMatching(redis, `${filePrefix}*`);
    await redis.quit();
  });

  const make = (events: JobEvents, concurrency = 2) => {
    // Each queue its own prefix: no test sees another's jobs or schedules.
    const prefix = `${filePrefix}-${++count}`;
    const queue = createBullmqQueue({ redis, prefix, concurrency, events });
    made.push({ queue, prefix });
    return queue;
  };

  describe('contract', () => queueContract({ make }));

  it('reports its driver, and close() ends every Redis connection it opened', async () => {
    const duplicate = vi.spyOn(redis, 'duplicate');
    try {
      const queue = make({});
      expect(queue.driver).toBe('bullmq');
      const { job, runs } = recordingJob('orders.confirm', orderPayload);
      queue.register(job);
      await queue.start();
      await queue.enqueue(job, { orderId: 'o-1', email: 'a@example.com' });
      await waitFor(() => runs.length === 1, 'the job to run');
      await queue.close();

      const opened = duplicate.mock.results.map((r) => r.value as Redis);
      expect(opened.length).toBeGreaterThan(0);
      // A connection left open keeps a stopping process alive and holds a Redis client slot.
      await waitFor(() => opened.every((c) => c.status === 'end'), 'the connections to end', 1000);
      expect(redis.status).toBe('ready');
    } finally {
      duplicate.mockRestore();
    }
  });
});
