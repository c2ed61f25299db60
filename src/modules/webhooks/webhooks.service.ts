// Webhook rules: endpoints and their secrets, the outbox that turns domain events into
// messages inside the publisher's transaction, and the delivery attempts the worker runs.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { UserPrincipal } from '../../platform/auth/principal';
import { cached } from '../../platform/cache/cache';
import type { Db } from '../../platform/db/database';
import { type AfterCommit, inTransaction } from '../../platform/db/transaction';
import { type PageMeta, pageMeta, pageWindow } from '../../platform/http/pagination';
import { newUuid } from '../../platform/ids';
import type { Metrics } from '../../platform/metrics/metrics';
import { recordActivity } from '../activity';
import type { Notifier } from '../notifications';
import { checkedAddress, type Resolver } from './webhooks.addresses';
import { WEBHOOK_EVENT_INFO, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks.catalogue';
import { webhookErrors } from './webhooks.errors';
import type { PayloadDeps } from './webhooks.payloads';
import { webhookPermissions } from './webhooks.permissions';
import * as repo from './webhooks.repository';
import type {
  CreateWebhookBody,
  DeliveryListQuery,
  UpdateWebhookBody,
  WebhookDeliveryDetailView,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookListQuery,
} from './webhooks.schemas';
import type { SendWebhook } from './webhooks.sender';
import type { AttemptLogEntry, WebhookDeliveryRow, WebhookEndpointRow } from './webhooks.table';

export interface WebhookDeps extends PayloadDeps {
  db: Db;
  metrics: Pick<Metrics, 'webhookDeliveries'>;
  notifier: Notifier;
  /** Name → addresses (the system's DNS; tests answer for a name). */
  resolve: Resolver;
  send: SendWebhook;
  /** Queues the attempt of a delivery (`attempts` made so far), after `delayMs`. */
  queueDelivery(p: {
    deliveryId: string;
    attempts: number;
    delayMs?: number;
    sweep?: boolean;
  }): Promise<void>;
}

/** docs/decisions.md "Message": both signatures for 24 h after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
/** A worker's hold on a delivery lasts the attempt's timeout and this much more. */
const CLAIM_MARGIN_MS = 5000;
const ENTITY = 'webhook';

/**
 * The event types some active endpoint hears, kept in the cache: most changes (every cart
 * reservation, every order) are heard by nobody, and this answers that without a query in the
 * change's transaction. Cleared after every endpoint write; the TTL bounds a race where a
 * transaction reloads the old list just as an endpoint is added.
 */
const LISTENED_KEY = 'webhooks:listened-types';
const LISTENED_TTL_MS = 15_000;

export const listenedTypes = (deps: Pick<WebhookDeps, 'cache'>, tx: Db) =>
  cached(deps.cache, LISTENED_KEY, LISTENED_TTL_MS, () => repo.listenedEventTypes(tx), { local: true });

const forgetListenedTypes = (deps: Pick<WebhookDeps, 'cache'>, afterCommit: AfterCommit) =>
  afterCommit(() => deps.cache.delete(LISTENED_KEY));

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
/** `msg_` + a uuid v7 without dashes: unique, and in creation order. */
const newMessageId = () => `msg_${newUuid().replaceAll('-', '')}`;
const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toEndpointView(row: WebhookEndpointRow, now: Date): WebhookEndpointView {
  const rotating = row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    isActive: row.isActive,
    consecutiveFailures: row.consecutiveFailures,
    lastDeliveryAt: iso(row.lastDeliveryAt),
    lastDeliveryStatus: row.lastDeliveryStatus as WebhookEndpointView['lastDeliveryStatus'],
    disabledReason: row.disabledReason as WebhookEndpointView['disabledReason'],
    secretRotatedUntil: rotating ? iso(row.previousSecretExpiresAt) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDeliveryView(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status as WebhookDeliveryView['status'],
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: iso(row.nextAttemptAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export const listEventTypes = () =>
  WEBHOOK_EVENT_TYPES.map((type) => ({ type, ...WEBHOOK_EVENT_INFO[type] }));

/** Refuses a URL whose host is or resolves to an address a webhook may not reach. */
async function checkUrl(deps: Pick<WebhookDeps, 'resolve' | 'config'>, url: string): Promise<void> {
  if (deps.config.WEBHOOK_ALLOW_PRIVATE_URLS) return;
  const checked = await checkedAddress(new URL(url), { resolve: deps.resolve, allowPrivate: false });
  // A name that does not resolve yet is accepted: each delivery checks again before it connects.
  if (!checked.ok && checked.reason === 'url_not_allowed') throw webhookErrors.urlNotAllowed(checked.detail);
}

async function existingEndpoint(db: Db, id: string): Promise<WebhookEndpointRow> {
  const row = await repo.findEndpoint(db, id);
  if (!row) throw webhookErrors.notFound();
  return row;
}

// ---------- endpoints ----------

export async function listEndpoints(
  deps: Pick<WebhookDeps, 'db' | 'clock'>,
  q: WebhookListQuery,
): Promise<{ endpoints: WebhookEndpointView[]; meta: PageMeta }> {
  const { rows, count } = await repo.listEndpoints(deps.db, pageWindow(q), q.order);
  const now = deps.clock.now();
  return { endpoints: rows.map((r) => toEndpointView(r, now)), meta: pageMeta(q, count) };
}

export async function getEndpoint(deps: Pick<WebhookDeps, 'db' | 'clock'>, id: string) {
  return toEndpointView(await existingEndpoint(deps.db, id), deps.clock.now());
}

export async function createEndpoint(
  deps: WebhookDeps,
  { admin, body }: { admin: UserPrincipal; body: CreateWebhookBody },
): Promise<WebhookEndpointView & { secret: string }> {
  await checkUrl(deps, body.url);
  const at = deps.clock.now();
  const secret = newSecret();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    forgetListenedTypes(deps, afterCommit);
    const row = await repo.insertEndpoint(tx, {
      id: newUuid(),
      url: body.url,
      events: body.events,
      description: body.description ?? null,
      isActive: body.isActive ?? true,
      secret,
      createdAt: at,
      updatedAt: at,
    });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'create',
      entityType: ENTITY,
      entityId: row.id,
      summary: `Added webhook endpoint ${row.url} (${row.events.join(', ')})`,
      at,
    });
    return { ...toEndpointView(row, at), secret };
  });
}

export async function updateEndpoint(
  deps: WebhookDeps,
  { admin, id, body }: { admin: UserPrincipal; id: string; body: UpdateWebhookBody },
): Promise<WebhookEndpointView> {
  if (body.url !== undefined) await checkUrl(deps, body.url);
  const at = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    forgetListenedTypes(deps, afterCommit);
    const before = await existingEndpoint(tx, id);
    const resumed = body.isActive === true && !before.isActive;
    const row = (await repo.updateEndpoint(tx, id, {
      ...(body.url === undefined ? {} : { url: body.url }),
      ...(body.events === undefined ? {} : { events: body.events }),
      ...(body.description === undefined ? {} : { description: body.description }),
      ...(body.isActive === undefined ? {} : { isActive: body.isActive }),
      // Resumed: a fresh start, whatever disabled it.
      ...(resumed ? { disabledReason: null, consecutiveFailures: 0 } : {}),
      updatedAt: at,
    }))!;
    if (body.isActive === false && before.isActive) {
      await repo.failPendingDeliveries(tx, id, 'endpoint paused');
    }
    const what = body.isActive === false && before.isActive ? 'Paused' : resumed ? 'Resumed' : 'Updated';
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'update',
      entityType: ENTITY,
      entityId: id,
      summary: `${what} webhook endpoint ${row.url}`,
      at,
    });
    return toEndpointView(row, at);
  });
}

export async function deleteEndpoint(deps: WebhookDeps, { admin, id }: { admin: UserPrincipal; id: string }) {
  const at = deps.clock.now();
  await inTransaction(deps.db, async (tx, afterCommit) => {
    forgetListenedTypes(deps, afterCommit);
    const row = await existingEndpoint(tx, id);
    await repo.deleteEndpoint(tx, id);
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'delete',
      entityType: ENTITY,
      entityId: id,
      summary: `Removed webhook endpoint ${row.url}`,
      at,
    });
  });
}

/** A new secret; messages carry the old one's signature too for 24 h, so receivers can switch without a gap. */
export async function rotateSecret(
  deps: WebhookDeps,
  { admin, id }: { admin: UserPrincipal; id: string },
): Promise<{ secret: string }> {
  const at = deps.clock.now();
  const secret = newSecret();
  return inTransaction(deps.db, async (tx) => {
    const before = await existingEndpoint(tx, id);
    await repo.updateEndpoint(tx, id, {
      secret,
      previousSecret: before.secret,
      previousSecretExpiresAt: new Date(at.getTime() + ROTATION_OVERLAP_MS),
      updatedAt: at,
    });
    await recordActivity(tx, {
      adminId: admin.userId,
      action: 'rotate_secret',
      entityType: ENTITY,
      entityId: id,
      summary: `Rotated the signing secret of webhook endpoint ${before.url} (the old one signs too for 24 h)`,
      at,
    });
    return { secret };
  });
}

// ---------- the outbox ----------

function messageBody(type: WebhookEventType, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * Call INSIDE the transaction of the change: a message of `type` for every active endpoint
 * that hears it, with one delivery each, committed with the change (so a rolled-back change
 * makes none, and a crash after the commit loses none); the attempts are queued after commit.
 * `data` is read only when some endpoint listens.
 */
export async function recordMessage(
  deps: Pick<WebhookDeps, 'clock' | 'queueDelivery'>,
  tx: Db,
  afterCommit: AfterCommit,
  p: { type: WebhookEventType; data: () => Promise<Record<string, unknown>>; endpointIds?: string[] },
): Promise<WebhookDeliveryRow[]> {
  const endpointIds = p.endpointIds ?? (await repo.activeEndpointsFor(tx, p.type)).map((e) => e.id);
  if (!endpointIds.length) return [];
  const at = deps.clock.now();
  const id = newMessageId();
  await repo.insertMessage(tx, {
    id,
    eventType: p.type,
    body: messageBody(p.type, at, await p.data()),
    createdAt: at,
  });
  const deliveries = await repo.insertDeliveries(
    tx,
    endpointIds.map((endpointId) => ({
      id: newUuid(),
      endpointId,
      messageId: id,
      eventType: p.type,
      status: 'pending',
      nextAttemptAt: at,
      createdAt: at,
    })),
  );
  afterCommit(async () => {
    for (const d of deliveries) await deps.queueDelivery({ deliveryId: d.id, attempts: 0 });
  });
  return deliveries;
}

/** `POST /:id/test`: a `webhook.test` message to this endpoint only. */
export async function sendTestMessage(
  deps: WebhookDeps,
  { id }: { id: string },
): Promise<{ deliveryId: string }> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    await existingEndpoint(tx, id);
    const [delivery] = await recordMessage(deps, tx, afterCommit, {
      type: 'webhook.test',
      data: async () => ({ webhookId: id }),
      endpointIds: [id],
    });
    return { deliveryId: delivery!.id };
  });
}

/** A new delivery of a delivery's message (same `webhook-id`), to the same endpoint. */
export async function redeliver(
  deps: WebhookDeps,
  { id, deliveryId }: { id: string; deliveryId: string },
): Promise<{ deliveryId: string }> {
  const at = deps.clock.now();
  return inTransaction(deps.db, async (tx, afterCommit) => {
    await existingEndpoint(tx, id);
    const original = await repo.findDelivery(tx, id, deliveryId);
    if (!original) throw webhookErrors.deliveryNotFound();
    const [delivery] = await repo.insertDeliveries(tx, [
      {
        id: newUuid(),
        endpointId: id,
        messageId: original.messageId,
        eventType: original.eventType,
        status: 'pending',
        nextAttemptAt: at,
        createdAt: at,
      },
    ]);
    afterCommit(() => deps.queueDelivery({ deliveryId: delivery!.id, attempts: 0 }));
    return { deliveryId: delivery!.id };
  });
}

// ---------- the delivery log ----------

export async function listDeliveries(
  deps: Pick<WebhookDeps, 'db'>,
  { id, q }: { id: string; q: DeliveryListQuery },
): Promise<{ deliveries: WebhookDeliveryView[]; meta: PageMeta }> {
  await existingEndpoint(deps.db, id);
  const { rows, count } = await repo.listDeliveries(deps.db, id, q.status, pageWindow(q), q.order);
  return { deliveries: rows.map(toDeliveryView), meta: pageMeta(q, count) };
}

export async function getDelivery(
  deps: Pick<WebhookDeps, 'db'>,
  { id, deliveryId }: { id: string; deliveryId: string },
): Promise<WebhookDeliveryDetailView> {
  await existingEndpoint(deps.db, id);
  const row = await repo.findDelivery(deps.db, id, deliveryId);
  if (!row) throw webhookErrors.deliveryNotFound();
  const message = await repo.findMessage(deps.db, row.messageId);
  return {
    ...toDeliveryView(row),
    payload: message ? (JSON.parse(message.body) as Record<string, unknown>) : {},
    attemptLog: row.attemptLog,
  };
}

// ---------- delivery attempts (the worker) ----------

/** The `webhook-signature` header: the current secret's, and the previous one's while the rotation overlap lasts. */
export function signatureHeader(
  endpoint: Pick<WebhookEndpointRow, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  p: { messageId: string; at: Date; body: string },
): string {
  const secrets = [endpoint.secret];
  if (
    endpoint.previousSecret &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > p.at
  ) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets.map((s) => new Webhook(s).sign(p.messageId, p.at, p.body)).join(' ');
}

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'disabled' | 'url_not_allowed' | 'skipped';

/** The wait before attempt `n + 1` after `n` failed ones: the base, doubling. */
export const retryDelayMs = (baseSeconds: number, attemptsMade: number) =>
  baseSeconds * 1000 * 2 ** (attemptsMade - 1);

/**
 * One attempt of a delivery: claimed first (nobody else attempts it meanwhile), the address
 * checked and pinned, the message signed with the attempt's time and sent with no transaction
 * open; then the outcome recorded: 2xx succeeded, 410 disables the endpoint, anything else is
 * retried later until `WEBHOOK_MAX_ATTEMPTS`.
 */
export async function attemptDelivery(deps: WebhookDeps, deliveryId: string): Promise<AttemptOutcome> {
  const cfg = deps.config;
  const now = deps.clock.now();
  const claimed = await repo.claimDelivery(deps.db, deliveryId, {
    at: now,
    until: new Date(now.getTime() + cfg.WEBHOOK_TIMEOUT_MS + CLAIM_MARGIN_MS),
  });
  if (!claimed) return 'skipped';
  const endpoint = await repo.findEndpoint(deps.db, claimed.endpointId);
  const message = await repo.findMessage(deps.db, claimed.messageId);
  if (!endpoint || !message) return 'skipped'; // removed meanwhile (the delivery went with it)
  const count = (outcome: AttemptOutcome) =>
    deps.metrics.webhookDeliveries.inc({ event_type: claimed.eventType, outcome });

  if (!endpoint.isActive) {
    await finish(
      deps,
      claimed,
      { at: now.toISOString(), statusCode: null, durationMs: 0, error: 'endpoint_inactive' },
      'failed',
      false,
    );
    count('failed');
    return 'failed';
  }
  const url = new URL(endpoint.url);
  const address = await checkedAddress(url, {
    resolve: deps.resolve,
    allowPrivate: cfg.WEBHOOK_ALLOW_PRIVATE_URLS,
  });
  if (!address.ok && address.reason === 'url_not_allowed') {
    // No request is sent, and none ever will be to that address: the delivery fails at once.
    await finish(
      deps,
      claimed,
      { at: now.toISOString(), statusCode: null, durationMs: 0, error: 'url_not_allowed' },
      'failed',
      true,
    );
    count('url_not_allowed');
    return 'url_not_allowed';
  }
  const attemptAt = deps.clock.now();
  const result = address.ok
    ? await deps.send({
        url,
        address: address.address,
        body: message.body,
        timeoutMs: cfg.WEBHOOK_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Pasal-Webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(attemptAt.getTime() / 1000)),
          'webhook-signature': signatureHeader(endpoint, {
            messageId: message.id,
            at: attemptAt,
            body: message.body,
          }),
        },
      })
    : { statusCode: null, durationMs: 0, error: `dns: ${address.detail}` };
  const entry: AttemptLogEntry = { at: attemptAt.toISOString(), ...result };
  const status = result.statusCode;

  if (status !== null && status >= 200 && status < 300) {
    await finish(deps, claimed, entry, 'succeeded', true);
    count('succeeded');
    return 'succeeded';
  }
  if (status === 410) {
    // The receiver says the endpoint is gone for good: stop now, not after the retries.
    await inTransaction(deps.db, async (tx, afterCommit) => {
      await repo.lockEndpoint(tx, endpoint.id);
      await repo.recordAttempt(tx, claimed.id, { status: 'failed', entry, nextAttemptAt: null });
      await repo.noteDeliveryOutcome(tx, endpoint.id, 'failed', attemptAt);
      await disable(deps, tx, afterCommit, endpoint, 'gone');
    });
    count('disabled');
    return 'disabled';
  }
  const attemptsMade = claimed.attempts + 1;
  if (attemptsMade >= cfg.WEBHOOK_MAX_ATTEMPTS) {
    await finish(deps, claimed, entry, 'failed', true);
    count('failed');
    return 'failed';
  }
  const delayMs = retryDelayMs(cfg.WEBHOOK_RETRY_BASE_SECONDS, attemptsMade);
  await repo.recordAttempt(deps.db, claimed.id, {
    status: 'pending',
    entry,
    nextAttemptAt: new Date(attemptAt.getTime() + delayMs),
  });
  await deps.queueDelivery({ deliveryId: claimed.id, attempts: attemptsMade, delayMs });
  count('retrying');
  return 'retrying';
}

/** Ends a delivery; a failed one counts toward disabling its endpoint (`WEBHOOK_DISABLE_AFTER_FAILURES`). */
async function finish(
  deps: WebhookDeps,
  delivery: WebhookDeliveryRow,
  entry: AttemptLogEntry,
  status: 'succeeded' | 'failed',
  counts: boolean,
): Promise<void> {
  await inTransaction(deps.db, async (tx, afterCommit) => {
    if (counts) await repo.lockEndpoint(tx, delivery.endpointId);
    const ended = await repo.recordAttempt(tx, delivery.id, { status, entry, nextAttemptAt: null });
    if (!ended || !counts) return;
    const endpoint = await repo.noteDeliveryOutcome(tx, delivery.endpointId, status, new Date(entry.at));
    if (
      endpoint &&
      status === 'failed' &&
      endpoint.consecutiveFailures >= deps.config.WEBHOOK_DISABLE_AFTER_FAILURES
    ) {
      await disable(deps, tx, afterCommit, endpoint, 'failures');
    }
  });
}

/** Sets the endpoint inactive and tells the admins who can mend it (Webhooks_UPDATE). */
async function disable(
  deps: WebhookDeps,
  tx: Db,
  afterCommit: AfterCommit,
  endpoint: WebhookEndpointRow,
  reason: 'gone' | 'failures',
): Promise<void> {
  const at = deps.clock.now();
  const disabled = await repo.disableEndpoint(tx, endpoint.id, reason, at);
  if (!disabled) return; // already inactive: told once
  forgetListenedTypes(deps, afterCommit);
  await repo.failPendingDeliveries(tx, endpoint.id, 'endpoint disabled');
  const why =
    reason === 'gone' ? 'it answered 410 Gone' : `${disabled.consecutiveFailures} deliveries in a row failed`;
  await deps.notifier.notifyAdmins(tx, afterCommit, {
    permission: webhookPermissions.UPDATE,
    type: 'webhook.disabled',
    title: 'Webhook endpoint disabled',
    body: `${endpoint.url} was set inactive: ${why}. Fix the receiver, then resume it.`,
    data: { webhookId: endpoint.id, url: endpoint.url, reason },
  });
  await recordActivity(tx, {
    adminId: null,
    action: 'disable',
    entityType: ENTITY,
    entityId: endpoint.id,
    summary: `Webhook endpoint ${endpoint.url} disabled by the system: ${why}`,
    at,
  });
}

/** Hands to the queue again every pending delivery that is due and held by nobody (a lost job, a crashed worker). */
export async function sweepDueDeliveries(deps: WebhookDeps): Promise<number> {
  const now = deps.clock.now();
  const due = await repo.dueDeliveries(deps.db, new Date(now.getTime() - SWEEP_GRACE_MS), 500);
  for (const d of due) await deps.queueDelivery({ deliveryId: d.id, attempts: d.attempts, sweep: true });
  return due.length;
}

/** A due delivery is left this long to its own job before the sweep queues it again. */
export const SWEEP_GRACE_MS = 5000;

export async function removeOldDeliveries(
  deps: Pick<WebhookDeps, 'db' | 'clock' | 'config'>,
): Promise<number> {
  const before = new Date(
    deps.clock.now().getTime() - deps.config.WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400_000,
  );
  return repo.removeOldDeliveries(deps.db, before);
}
