import { definePermissions } from '../../platform/auth/access';

/** The back office's order routes (list, detail, cancel, refunds, fulfilment). */
export const orderPermissions = definePermissions('Orders', ['READ', 'UPDATE'] as const);
