import { definePermissions } from '../../../platform/auth/access';

export const inventoryPermissions = definePermissions('Inventory', ['READ', 'UPDATE'] as const);
