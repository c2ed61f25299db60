import { definePermissions } from '../../platform/auth/access';

export const repairPermissions = definePermissions('RepairRequests', ['READ', 'UPDATE'] as const);
