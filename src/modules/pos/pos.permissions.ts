import { definePermissions } from '../../platform/auth/access';

/** The in-store counter (`/api/admin/pos`): read, create sales and customers, take payments, update. */
export const posPermissions = definePermissions('Pos', [
  'READ',
  'CREATE',
  'RECORD_PAYMENT',
  'UPDATE',
] as const);
