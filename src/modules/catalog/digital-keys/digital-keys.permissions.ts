import { definePermissions } from '../../../platform/auth/access';

/** UPDATE revokes a key; SEND_DELIVERY assigns an order's keys and emails them (orders' route). */
export const digitalKeyPermissions = definePermissions('DigitalKeys', [
  'READ',
  'CREATE',
  'UPDATE',
  'SEND_DELIVERY',
] as const);
