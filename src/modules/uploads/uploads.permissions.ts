import { definePermissions } from '../../platform/auth/access';

// The interface names no codes for uploads: CREATE stores files, READ resolves and streams them.
export const uploadsPermissions = definePermissions('Uploads', ['READ', 'CREATE'] as const);
