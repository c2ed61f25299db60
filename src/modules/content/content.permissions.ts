import { definePermissions } from '../../platform/auth/access';

/** The content interface's codes: admins read, edit and delete page sections. */
export const contentPermissions = definePermissions('Content', ['READ', 'UPDATE', 'DELETE'] as const);
