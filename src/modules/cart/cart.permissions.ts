import { definePermissions } from '../../platform/auth/access';

/** The admin's read of a customer's cart (support). */
export const cartPermissions = definePermissions('Cart', ['READ'] as const);

export const couponPermissions = definePermissions('Coupons', [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
] as const);
