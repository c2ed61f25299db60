import { definePermissions } from '../../platform/auth/access';

export const systemPermissions = definePermissions('System', ['READ', 'UPDATE'] as const);
