// The rules of `Idempotency-Key` (docs/decisions.md, "Checkout, payments, orders"): the first
// request with a key runs; the same key with the same body gets that first answer again;
// another body is refused; a key whose first request is still running is refused for now.
// Keys live 24 h, per caller and per route, in the database, so every process agrees.

import type { Db } from '../../platform/db/database';
import { sha256Hex } from '../../platform/security/tokens';
import { idempotencyErrors } from './idempotency.errors';
import {
  claimKey,
  completeKey,
  deleteExpiredKey,
  deleteKeysCreatedBefore,
  findKey,
  type KeyId,
  releaseKey,
} from './idempotency.repository';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
}

export type Claim = { kind: 'first' } | { kind: 'replay'; response: StoredResponse };

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const requestDigest = (request: { params?: unknown; query?: unknown; body?: unknown }) =>
  sha256Hex(
    canonicalJson({
      params: request.params ?? null,
      query: request.query ?? null,
      body: request.body ?? null,
    }),
  );

/**
 * Claims `id` for this request, or says how to answer it. A row older than the key lifetime
 * is removed first: that key is new again.
 */
export async function claimIdempotencyKey(db: Db, id: KeyId, digest: string, now: Date): Promise<Claim> {
  // Two rounds at most: the second one follows the removal of an expired row.
  for (let round = 0; round < 2; round++) {
    if (await claimKey(db, id, digest, now)) return { kind: 'first' };
    const row = await findKey(db, id);
    if (!row) continue; // released or expired between the insert and the read: claim again
    if (row.createdAt.getTime() <= now.getTime() - IDEMPOTENCY_KEY_TTL_MS) {
      await deleteExpiredKey(db, id, row.createdAt);
      continue;
    }
    if (row.requestDigest !== digest) throw idempotencyErrors.keyMismatch();
    if (row.status === 'running' || row.responseStatus === null || row.responseBody === null) {
      throw idempotencyErrors.inProgress();
    }
    return {
      kind: 'replay',
      response: { status: row.responseStatus, contentType: row.responseContentType, body: row.responseBody },
    };
  }
  // A key that keeps expiring or vanishing under us is being fought over: say so.
  throw idempotencyErrors.inProgress();
}

/**
 * Ends the first request of a key. An answer of ours that failed (5xx) frees the key, so the
 * client's retry with the same key runs again; any other answer is kept for replays.
 */
export async function finishIdempotentRequest(
  db: Db,
  id: KeyId,
  response: StoredResponse,
  now: Date,
): Promise<void> {
  if (response.status >= 500) await releaseKey(db, id);
  else await completeKey(db, id, response, now);
}

export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return deleteKeysCreatedBefore(db, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS));
}
