import { definePermissions } from '../../platform/auth/access';

/** Tax invoices and credit notes: read and list, print (PDF), and resend to CBMS. */
export const invoicePermissions = definePermissions('Invoices', ['READ', 'PRINT', 'SYNC'] as const);
