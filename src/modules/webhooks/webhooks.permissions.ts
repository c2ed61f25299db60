import { definePermissions } from '../../platform/auth/access';

export const webhookPermissions = definePermissions('Webhooks', [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
] as const);
