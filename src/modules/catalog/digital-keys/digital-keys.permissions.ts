import { definePermissions } from '../../../platform/auth/access';

/** UPDATE revokes a key. */
export const digitalKeyPermissions = definePermissions('DigitalKeys', ['READ', 'CREATE', 'UPDATE'] as const);
