// The order caches of the interface's Limits: the customer's list and details
// (ORDER_HISTORY_CACHE_TTL_SECONDS) and the back office's (ORDER_ADMIN_CACHE_TTL_SECONDS).
// Every entry is kept with a generation token, read together with it: the order's own for its
// details, the customer's and the back office's for the lists. A change drops the tokens after
// commit (`forgetOrder`), so the next read loads afresh under a new token. A read that loaded
// just before the commit stores its stale copy with the dropped token, which no read takes
// (deleting the entry itself would let that copy land after the delete), and no change has to
// scan the key space for the pages it touched (`cachedInGeneration`).
import { asText, type Cache, cachedInGeneration, type TextCodec } from '../../platform/cache/cache';
import type { AfterCommit } from '../../platform/db/transaction';

const keys = {
  customerGeneration: (customerId: string) => `orders:generation:${customerId}`,
  adminGeneration: 'orders:generation:admin',
  orderGeneration: (orderId: number) => `orders:generation:order:${orderId}`,
};

/**
 * Reads `entry` through the cache for `ttlSeconds` (0: straight from the database), filed under
 * the current token of `generationKey`.
 */
async function through<T>(
  cache: Cache,
  ttlSeconds: number,
  generationKey: string,
  entry: string,
  load: () => Promise<T>,
  codec?: TextCodec<T>,
): Promise<T> {
  if (ttlSeconds <= 0) return load();
  return cachedInGeneration(cache, generationKey, `orders:${entry}`, ttlSeconds * 1000, load, codec);
}

// The lists are kept as the JSON text of their answer (`{ data, meta }`), sent as it is on a hit:
// parsing a page of 20 orders and serialising it again was a third of a cached list's CPU.
export const orderCache = {
  customerList: (cache: Cache, ttl: number, customerId: string, query: object, load: () => Promise<string>) =>
    through(
      cache,
      ttl,
      keys.customerGeneration(customerId),
      `list:${customerId}:${JSON.stringify(query)}`,
      load,
      asText,
    ),
  detail: <T>(cache: Cache, ttl: number, orderId: number, load: () => Promise<T>) =>
    through(cache, ttl, keys.orderGeneration(orderId), `detail:${orderId}`, load),
  adminList: (cache: Cache, ttl: number, query: object, load: () => Promise<string>) =>
    through(cache, ttl, keys.adminGeneration, `admin-list:${JSON.stringify(query)}`, load, asText),
  adminDetail: <T>(cache: Cache, ttl: number, orderId: number, load: () => Promise<T>) =>
    through(cache, ttl, keys.orderGeneration(orderId), `admin-detail:${orderId}`, load),
};

/** After commit, every cached view of this order goes: its details, its customer's lists, the back office's lists. */
export function forgetOrder(
  cache: Cache,
  afterCommit: AfterCommit,
  order: { id: number; customerId: string },
): void {
  afterCommit(async () => {
    await Promise.all([
      cache.delete(keys.orderGeneration(order.id)),
      cache.delete(keys.customerGeneration(order.customerId)),
      cache.delete(keys.adminGeneration),
    ]);
  });
}
