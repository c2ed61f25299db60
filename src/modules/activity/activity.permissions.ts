import { definePermissions } from '../../platform/auth/access';

export const activityPermissions = definePermissions('ActivityLogs', ['READ'] as const);
