// The cart's settings: the customer's rate limit and cache, how long an idle cart holds stock, and
// locating the customer's district. src/config.ts composes them with the others.
import { bool, int, setting } from '../../platform/settings';

export const cartSettings = {
  CART_CUSTOMER_OPERATION_RATE_LIMIT: setting({
    doc: 'Cart changes (add, quantity, remove, coupon, location, care package, sync) allowed per customer in a sliding window of `CART_CUSTOMER_RATE_WINDOW_SECONDS`; counted in the cache port, so shared by every process with Redis.',
    schema: int(1),
    default: '60',
  }),
  CART_CUSTOMER_RATE_WINDOW_SECONDS: setting({
    doc: 'Window of `CART_CUSTOMER_OPERATION_RATE_LIMIT`, in seconds.',
    schema: int(1),
    default: '60',
  }),
  CART_CUSTOMER_CACHE_TTL_SECONDS: setting({
    doc: "A customer's cart as `GET /api/cart` answers it is kept this long in the cache (0: off); every cart write clears it.",
    schema: int(0, 3600),
    default: '60',
  }),
  CART_EXPIRE_IDLE_MS: setting({
    doc: 'A cart unchanged this long (milliseconds) gives back the stock its lines reserve (job `cart.expire`); its lines stay and reserve again when changed.',
    schema: int(1000),
    default: '1800000',
  }),
  CART_AUTO_LOCATE_ENABLED: setting({
    doc: 'Enables `POST /api/cart/location/auto` (else 410 `CART_LOCATION_AUTO_DISABLED`). Pasal has no geolocation provider: enabled, it adds the sent coordinates to the location already set (see docs/api-notes.md, "Cart").',
    schema: bool,
    default: 'false',
  }),
};
