// Every add to a cart, cart read with a location and checkout prices the cart's district: one
// statement of a dozen, for 77 rows that change when an admin edits a fee. Each process keeps a
// copy of them all instead, dropped on every change on every process through the cache's
// announcements (`Cache.onDrop`), as the authenticator's session copies are, and never older than
// `CACHE_LOCAL_TTL_MS` (what a lost announcement, or a write made outside the API, can cost).
// docs/api-notes.md, "Shipping districts: each process's copy".

import type { Cache } from '../../../platform/cache/cache';
import type { Db } from '../../../platform/db/database';
import { transactionScope } from '../../../platform/db/transaction';
import type { ModuleContext } from '../../../platform/module';
import * as repo from './shipping-districts.repository';

/** The key whose drop ends every copy (nothing is stored under it). */
const DISTRICTS_KEY = 'catalog:shipping-districts';

interface Copy {
  byName: Map<string, repo.ShippingDistrictRow>;
  byId: Map<number, repo.ShippingDistrictRow>;
  until: number;
}

interface Held {
  ttlMs: number;
  now: () => number;
  copy?: Copy;
  /** Counts drops: a load keeps its result only if no drop came while it ran. */
  drops: number;
}

// Per database (a test runs several stores in one process), shared by every app on it, and
// dropped when any of their caches hears of a change.
const heldByDb = new WeakMap<Db, Held>();

/**
 * Called once per app as the catalog registers. No copy is kept where changes are not announced
 * to every process (Redis with `CACHE_LOCAL_TTL_MS=0`), or with `CACHE_LOCAL_TTL_MS=0` at all.
 */
export function keepDistrictCopies(ctx: Pick<ModuleContext, 'db' | 'cache' | 'clock' | 'config'>) {
  const ttlMs = ctx.config.CACHE_LOCAL_TTL_MS;
  if (ttlMs <= 0 || !ctx.cache.announcesDrops) return;
  let held = heldByDb.get(ctx.db);
  if (!held) {
    held = { ttlMs, now: () => ctx.clock.now().getTime(), drops: 0 };
    heldByDb.set(ctx.db, held);
  }
  held.ttlMs = Math.min(held.ttlMs, ttlMs);
  const dropped = held;
  ctx.cache.onDrop((drop) => {
    if ('key' in drop ? drop.key !== DISTRICTS_KEY : !DISTRICTS_KEY.startsWith(drop.prefix)) return;
    dropped.copy = undefined;
    dropped.drops++;
  });
}

/**
 * A district by id or by name (case-insensitive, trimmed) from this process's copy, loaded
 * through `db` (a transaction's handle inside one: PGlite allows no other) when it has none or
 * it is too old; null when no copy is kept for this database (the caller reads the row itself).
 */
export async function copiedDistrict(
  db: Db,
  by: { id: number } | { name: string },
): Promise<repo.ShippingDistrictRow | undefined | null> {
  const held = heldByDb.get(transactionScope(db)?.root ?? db);
  if (!held) return null;
  const now = held.now();
  let copy = held.copy;
  if (!copy || copy.until <= now) {
    const drops = held.drops;
    const rows = await repo.listAllDistricts(db);
    copy = {
      byName: new Map(rows.map((row) => [row.name.toLowerCase(), row])),
      byId: new Map(rows.map((row) => [row.id, row])),
      until: now + held.ttlMs,
    };
    if (drops === held.drops) held.copy = copy;
  }
  return 'id' in by ? copy.byId.get(by.id) : copy.byName.get(by.name.trim().toLowerCase());
}

/** After the commit that changed a district: every copy goes, here at once and on every process. */
export async function forgetDistricts(db: Db, cache: Cache | undefined): Promise<void> {
  const held = heldByDb.get(db);
  if (held) {
    // Dropped here first, so this process forgets even when Redis cannot be reached.
    held.copy = undefined;
    held.drops++;
  }
  await cache?.delete(DISTRICTS_KEY).catch(() => {});
}
