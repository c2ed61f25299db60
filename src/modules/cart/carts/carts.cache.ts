// The per-customer cart cache (CART_CUSTOMER_CACHE_TTL_SECONDS): the cart as GET answers it.
// Every write clears the customer's entry after commit by dropping the generation token its key
// carries (one DEL, no scan of the key space, and a read that loaded before the commit cannot
// leave its stale copy where the next read looks); coupon writes clear them all.
import { type Cache, generationToken } from '../../../platform/cache/cache';

const PREFIX = 'cart:view:';

const generationKey = (customerId: string) => `${PREFIX}generation:${customerId}`;

/** The key of the customer's cached cart now (read it before loading the cart). */
export async function cartCacheKey(cache: Cache, customerId: string): Promise<string> {
  return `${PREFIX}${customerId}:${await generationToken(cache, generationKey(customerId))}`;
}

export function forgetCachedCart(cache: Cache, customerId: string): Promise<void> {
  return cache.delete(generationKey(customerId));
}

export function forgetAllCachedCarts(cache: Cache): Promise<void> {
  return cache.deleteByPrefix(PREFIX);
}
