// What a feature module is: a name, its permission codes, and a `register` that adds its
// routes (inside the API scope, where every route must declare its access), its jobs and
// its realtime handlers, using only the ports it is handed.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config, Role } from '../config';
import type { Authenticator } from './auth/authenticator';
import type { Cache } from './cache/cache';
import type { Clock } from './clock';
import type { Db } from './db/database';
import type { Outgoing, PushOutgoing, SmsOutgoing } from './delivery/delivery';
import type { DomainEventSubscriptions, ModuleEvents } from './events/events';
import type { JobQueue } from './jobs/jobs';
import type { MailMessage } from './mail/mailer';
import type { Metrics } from './metrics/metrics';
import type { Realtime } from './realtime/realtime';
import type { AccessTokens } from './security/jwt';
import type { Storage } from './storage/storage';

export type ApiApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface PermissionGroup {
  module: string;
  codes: string[];
}

export interface ModuleContext {
  app: ApiApp;
  config: Config;
  /** The role of this process: `api`, `worker` or `all`. */
  role: Role;
  log: Logger;
  db: Db;
  databaseDriver: string;
  clock: Clock;
  cache: Cache;
  /** Security counters: throttles and lockouts, apart from the cache (platform.ts). */
  counters: Cache;
  jobs: JobQueue;
  /** Outgoing mail, delivered by a job (retried when the provider fails). */
  mail: Outgoing<MailMessage>;
  /** Outgoing SMS, delivered by a job; `accepts` says whether the provider takes a number. */
  sms: SmsOutgoing;
  /** Outgoing push notifications to one device each, delivered by a job. */
  push: PushOutgoing;
  tokens: AccessTokens;
  authenticator: Authenticator;
  realtime: Realtime;
  /** Uploaded files; modules keep keys, never URLs. */
  storage: Storage;
  /** Every permission code of every module, grouped by module. */
  permissionCatalog: readonly PermissionGroup[];
  /** Subscribing to domain events (publishing needs only the transaction: `publishEvent`). */
  events: DomainEventSubscriptions;
  /** The process's Prometheus counters (`/metrics`). */
  metrics: Metrics;
}

export interface PasalModule {
  name: string;
  /** The permission codes the module's routes check, one group per `<Module>` prefix. */
  permissions?: PermissionGroup[];
  /**
   * Descriptions of the OpenAPI tags the module's routes use, by tag name (each tag belongs to
   * one module). A route with a tag nobody describes fails the OpenAPI test.
   */
  tags?: Record<string, string>;
  /**
   * The domain events the module publishes and the ones it subscribes to (docs/architecture.md,
   * "Modules and their events"); its `ctx.events` accepts only the latter.
   */
  events?: ModuleEvents;
  register(ctx: ModuleContext): Promise<void> | void;
}
