// The per-customer cart cache (CART_CUSTOMER_CACHE_TTL_SECONDS): the cart as GET answers it.
// Every write clears the customer's entry after commit (one key: a DEL, not a scan of the
// key space on every cart change); coupon writes clear them all.
import type { Cache } from '../../../platform/cache/cache';

const PREFIX = 'cart:view:';

export const cartCacheKey = (customerId: string) => `${PREFIX}${customerId}`;

export function forgetCachedCart(cache: Cache, customerId: string): Promise<void> {
  return cache.delete(cartCacheKey(customerId));
}

export function forgetAllCachedCarts(cache: Cache): Promise<void> {
  return cache.deleteByPrefix(PREFIX);
}
