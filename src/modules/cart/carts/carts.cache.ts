// The per-customer cart cache (CART_CUSTOMER_CACHE_TTL_SECONDS): the cart as GET answers it,
// kept as its JSON text. Every write clears the customer's entry after commit by dropping the
// generation token it was loaded under (one DEL, no scan of the key space, and a read that loaded
// before the commit cannot leave a stale copy the next read takes: `cachedInGeneration`); coupon
// writes clear them all.
import { asText, type Cache, cachedInGeneration } from '../../../platform/cache/cache';

const PREFIX = 'cart:view:';

const generationKey = (customerId: string) => `${PREFIX}generation:${customerId}`;

/** The customer's cart as JSON text, from the cache or from `load`. */
export function cachedCartText(
  cache: Cache,
  ttlMs: number,
  customerId: string,
  load: () => Promise<string>,
): Promise<string> {
  return cachedInGeneration(cache, generationKey(customerId), `${PREFIX}${customerId}`, ttlMs, load, asText);
}

export function forgetCachedCart(cache: Cache, customerId: string): Promise<void> {
  return cache.delete(generationKey(customerId));
}

export function forgetAllCachedCarts(cache: Cache): Promise<void> {
  return cache.deleteByPrefix(PREFIX);
}
