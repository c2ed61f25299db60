import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { lazyPackage } from '../lazy';
import { ownConnection } from '../redis-connection';
import { splitTrace, traced, withTrace } from '../tracing/hooks';
import type { EnqueueOptions, JobDefinition, JobEvents, JobQueue } from './jobs';
import { PermanentJobError, refuseUnregistered, storedJobId } from './jobs';

const bullmq = lazyPackage<typeof import('bullmq')>('bullmq');

const QUEUE_NAME = 'jobs';

/**
 * BullMQ on Redis: every process can enqueue, every worker process takes jobs, a job id
 * deduplicates across processes and a cron schedule fires once per tick for the whole fleet.
 */
export function createBullmqQueue(opts: {
  redis: Redis;
  prefix: string;
  concurrency: number;
  events?: JobEvents;
}): JobQueue {
  const { Queue, Worker, UnrecoverableError } = bullmq();
  const definitions = new Map<string, JobDefinition<unknown>>();
  // Queues and workers each need their own connection (a worker blocks on its). BullMQ
  // leaves a connection it is handed open on close, so these are ended in close() below.
  const connections: Redis[] = [];
  const connection = (override?: { maxRetriesPerRequest: null }) => {
    const redis = ownConnection(opts.redis, override);
    connections.push(redis);
    return redis;
  };
  const queue = new Queue(QUEUE_NAME, { connection: connection(), prefix: opts.prefix });
  let worker: Worker | undefined;

  const jobOptions = (def: Pick<JobDefinition<unknown>, 'attempts' | 'backoffMs'>) => ({
    attempts: def.attempts ?? 3,
    backoff: { type: 'exponential' as const, delay: def.backoffMs ?? 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  });

  return {
    driver: 'bullmq',
    register<P>(def: JobDefinition<P>) {
      if (definitions.has(def.name)) throw new Error(`Job ${def.name} is registered twice`);
      definitions.set(def.name, def as unknown as JobDefinition<unknown>);
    },
    async enqueue<P>(def: JobDefinition<P>, payload: NoInfer<P>, options: EnqueueOptions = {}) {
      refuseUnregistered(definitions, def.name);
      // The enqueuing request's trace context rides in the data; the worker takes it out again.
      await queue.add(def.name, withTrace(def.payload.parse(payload)), {
        ...jobOptions(def),
        jobId: options.jobId ? storedJobId(def.name, options.jobId) : undefined,
        delay: options.delayMs,
      });
    },
    async schedule(def, cron, payload, options = {}) {
      refuseUnregistered(definitions, def.name);
      await queue.upsertJobScheduler(
        def.name,
        typeof cron === 'string'
          ? { pattern: cron, tz: options.timezone }
          : { every: cron.everySeconds * 1000 },
        { name: def.name, data: def.payload.parse(payload), opts: jobOptions(def) },
      );
    },
    async start() {
      if (worker) return;
      worker = new Worker(
        QUEUE_NAME,
        async (job) => {
          const def = definitions.get(job.name);
          if (!def) throw new Error(`No job named ${job.name} is registered`);
          try {
            const { payload, carrier } = splitTrace(job.data);
            await traced(job.name, carrier, () =>
              def.handler(def.payload.parse(payload), { attempt: job.attemptsMade + 1, jobId: job.id ?? '' }),
            );
          } catch (error) {
            // BullMQ's own marker for "do not retry".
            if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
            throw error;
          }
        },
        {
          connection: connection({ maxRetriesPerRequest: null }),
          prefix: opts.prefix,
          concurrency: opts.concurrency,
        },
      );
      // Reported from the event, not the processor: a failing observer must not retry a finished job.
      worker.on('completed', (job) => {
        try {
          opts.events?.onCompleted?.(
            job.name,
            (job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now()),
          );
        } catch {
          // metrics are best effort
        }
      });
      worker.on('failed', (job, error) => {
        if (!job) return;
        const willRetry = error.name !== 'UnrecoverableError' && job.attemptsMade < (job.opts.attempts ?? 1);
        opts.events?.onFailed?.(job.name, error, willRetry);
      });
      worker.on('error', (error) => opts.events?.onFailed?.('worker', error, true));
      await worker.waitUntilReady();
    },
    async close() {
      await worker?.close();
      await queue.close();
      await Promise.all(connections.splice(0).map((redis) => redis.quit().catch(() => redis.disconnect())));
    },
  };
}
