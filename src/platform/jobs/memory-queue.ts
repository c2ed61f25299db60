import { Cron } from 'croner';
import { newUuid } from '../ids';
import { type TraceCarrier, traced, tracingHooks } from '../tracing/hooks';
import {
  type EnqueueOptions,
  type JobDefinition,
  type JobEvents,
  type JobQueue,
  PermanentJobError,
  refuseUnregistered,
  retryDelay,
  storedJobId,
} from './jobs';

interface QueuedJob {
  id: string;
  name: string;
  payload: unknown;
  /** The trace the job was enqueued in (tracing on). */
  trace?: TraceCarrier;
  attempt: number;
  runAt: number;
}

/**
 * The embedded queue: jobs live in this process, so it serves one process running the `all`
 * role. Delays and retries use timers; cron schedules use croner.
 */
export function createMemoryQueue(opts: { concurrency: number; events?: JobEvents }): JobQueue & {
  /** Resolves once nothing is waiting (that is due) or running: for tests. */
  drain(): Promise<void>;
} {
  const definitions = new Map<string, JobDefinition<unknown>>();
  const known = new Set<string>(); // ids waiting, delayed or running
  const ready: QueuedJob[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const crons = new Map<string, Cron>();
  const running = new Set<Promise<void>>();
  let started = false;
  let closed = false;
  let idleWaiters: Array<() => void> = [];

  const notifyIdle = () => {
    if (ready.length === 0 && running.size === 0) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    }
  };

  const later = (job: QueuedJob) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        ready.push(job);
        pump();
      },
      Math.max(0, job.runAt - Date.now()),
    );
    timers.add(timer);
  };

  const pump = () => {
    if (!started || closed) return;
    while (running.size < opts.concurrency && ready.length) {
      const job = ready.shift()!;
      const run = execute(job).finally(() => {
        running.delete(run);
        pump();
        notifyIdle();
      });
      running.add(run);
    }
    notifyIdle();
  };

  const execute = async (job: QueuedJob) => {
    const def = definitions.get(job.name);
    const started = Date.now();
    try {
      if (!def) throw new Error(`No job named ${job.name} is registered`);
      const payload = def.payload.parse(job.payload);
      await traced(job.name, job.trace, () => def.handler(payload, { attempt: job.attempt, jobId: job.id }));
      known.delete(job.id);
    } catch (error) {
      const attempts = def?.attempts ?? 3;
      const willRetry =
        Boolean(def) && job.attempt < attempts && !closed && !(error instanceof PermanentJobError);
      opts.events?.onFailed?.(job.name, error, willRetry);
      if (willRetry) {
        later({
          ...job,
          attempt: job.attempt + 1,
          runAt: Date.now() + retryDelay(def?.backoffMs ?? 1000, job.attempt),
        });
      } else known.delete(job.id);
      return;
    }
    // Outside the try: a failing observer must not turn a finished job into a retry.
    reportCompleted(job.name, Date.now() - started);
  };

  const reportCompleted = (name: string, ms: number) => {
    try {
      opts.events?.onCompleted?.(name, ms);
    } catch {
      // metrics are best effort
    }
  };

  const enqueue = async <P>(def: JobDefinition<P>, payload: NoInfer<P>, options: EnqueueOptions = {}) => {
    refuseUnregistered(definitions, def.name);
    // Parsed before the id is taken: a refused payload must not hold its job id forever.
    const parsed = def.payload.parse(payload);
    if (closed) return;
    const id = options.jobId ? storedJobId(def.name, options.jobId) : newUuid();
    if (known.has(id)) return;
    known.add(id);
    const job = {
      id,
      name: def.name,
      payload: parsed,
      attempt: 1,
      runAt: Date.now(),
      trace: tracingHooks()?.capture(),
    };
    if (options.delayMs && options.delayMs > 0) later({ ...job, runAt: job.runAt + options.delayMs });
    else {
      ready.push(job);
      pump();
    }
  };

  return {
    driver: 'memory',
    register<P>(def: JobDefinition<P>) {
      if (definitions.has(def.name)) throw new Error(`Job ${def.name} is registered twice`);
      definitions.set(def.name, def as unknown as JobDefinition<unknown>);
    },
    enqueue,
    async schedule(def, cron, payload, options = {}) {
      refuseUnregistered(definitions, def.name);
      // Checked now, as BullMQ does: a bad payload would otherwise reject at every tick, with
      // nobody to catch it.
      const parsed = def.payload.parse(payload);
      // A period: croner's every-second pattern with a minimum interval between runs.
      const pattern = typeof cron === 'string' ? cron : '* * * * * *';
      const interval = typeof cron === 'string' ? undefined : cron.everySeconds;
      const job = new Cron(
        pattern,
        { timezone: options.timezone, interval, paused: !started || closed },
        (self: Cron) => {
          // One id per tick: a slow run is not started a second time for the same tick.
          void enqueue(def, parsed, { jobId: `tick-${self.currentRun()?.getTime() ?? Date.now()}` });
        },
      );
      // Replaced only once the new pattern is known to be valid.
      crons.get(def.name)?.stop();
      crons.set(def.name, job);
    },
    async start() {
      started = true;
      for (const cron of crons.values()) cron.resume();
      pump();
    },
    async close() {
      closed = true;
      for (const cron of crons.values()) cron.stop();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
    drain() {
      if (ready.length === 0 && running.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
