// Job queue port: in-process by default, BullMQ on Redis when REDIS_URL is set. Modules
// define their jobs with `defineJob` (name, payload schema, handler) and register them at
// start-up; only the `worker` and `all` roles run them.
import type { z } from 'zod';

export interface JobContext {
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  jobId: string;
}

export interface JobDefinition<P = unknown> {
  /** `<module>.<what it does>`, e.g. `system.heartbeat`. */
  name: string;
  payload: z.ZodType<P>;
  handler: (payload: P, ctx: JobContext) => Promise<void>;
  /** Runs in all before the job is given up (default 3). */
  attempts?: number;
  /** First retry delay; each further retry waits twice as long (default 1000 ms). */
  backoffMs?: number;
}

export const defineJob = <P>(def: JobDefinition<P>): JobDefinition<P> => def;

export interface EnqueueOptions {
  /** While a job with this id is waiting or running, enqueueing it again does nothing. */
  jobId?: string;
  delayMs?: number;
}

export type JobSchedule = string | { everySeconds: number };

export interface JobQueue {
  readonly driver: 'memory' | 'bullmq';
  register<P>(def: JobDefinition<P>): void;
  /**
   * Queues a run of a registered job. The payload's type is the job's own (`NoInfer`: it is
   * checked against the definition, never widened to fit); an unregistered job is refused here.
   */
  enqueue<P>(def: JobDefinition<P>, payload: NoInfer<P>, opts?: EnqueueOptions): Promise<void>;
  /**
   * Runs the job on a croner pattern, or every `everySeconds` (a period a setting gives in
   * seconds, which a cron pattern cannot always say); registering the same job again replaces
   * its schedule.
   */
  schedule<P>(
    def: JobDefinition<P>,
    cron: JobSchedule,
    payload: NoInfer<P>,
    opts?: { timezone?: string },
  ): Promise<void>;
  /** Starts processing (worker roles); before that, jobs wait. */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>;
}

export interface JobEvents {
  onCompleted?(name: string, ms: number): void;
  onFailed?(name: string, error: unknown, willRetry: boolean): void;
}

/** How one job id is stored: per job name, and without the ':' BullMQ reserves. */
export const storedJobId = (name: string, jobId: string) => `${name}/${encodeURIComponent(jobId)}`;

/**
 * A job enqueued or scheduled that no module registered: a wiring mistake, refused where it is
 * made (in the request or the test that makes it) rather than when a worker meets the job.
 */
export function refuseUnregistered(definitions: ReadonlyMap<string, unknown>, name: string): void {
  if (!definitions.has(name)) {
    throw new Error(`No job named ${name} is registered: its module registers it before enqueueing it`);
  }
}

export const retryDelay = (backoffMs: number, attempt: number) => backoffMs * 2 ** (attempt - 1);

/**
 * Thrown by a handler whose job cannot succeed however often it runs (a provider refused the
 * message for good): the queue gives it up at once instead of retrying.
 */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}
