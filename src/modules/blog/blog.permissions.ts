import { definePermissions } from '../../platform/auth/access';

export const blogPermissions = definePermissions('Blog', ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const);
