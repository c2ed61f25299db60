import { AppError } from '../../platform/http/errors';
import { orderErrors } from '../orders';

// Codes of tax documents (docs/api-notes.md, "Tax invoices in Nepal"). The order codes are the
// orders module's own (the customer route answers them the way the order routes do).
export const invoiceErrors = {
  invoiceNotFound: () => new AppError(404, 'INVOICE_NOT_FOUND', 'Tax invoice not found'),
  creditNoteNotFound: () => new AppError(404, 'CREDIT_NOTE_NOT_FOUND', 'Credit note not found'),
  orderNotFound: orderErrors.notFound,
  orderAccessDenied: orderErrors.accessDenied,
  syncNotConfigured: () =>
    new AppError(409, 'INVOICE_SYNC_NOT_CONFIGURED', 'CBMS is not configured (CBMS_URL is not set)'),
  alreadySynced: () => new AppError(409, 'INVOICE_ALREADY_SYNCED', 'This document is already in CBMS'),
};
