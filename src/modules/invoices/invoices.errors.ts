import { AppError } from '../../platform/http/errors';

// Codes of tax documents (docs/api-notes.md, "Tax invoices in Nepal"). The order codes are the
// orders module's own (the customer route answers them the way the order routes do).
export const invoiceErrors = {
  invoiceNotFound: () => new AppError(404, 'INVOICE_NOT_FOUND', 'Tax invoice not found'),
  creditNoteNotFound: () => new AppError(404, 'CREDIT_NOTE_NOT_FOUND', 'Credit note not found'),
  orderNotFound: () => new AppError(404, 'ORDER_NOT_FOUND', 'Order not found'),
  orderAccessDenied: () => new AppError(403, 'ORDER_ACCESS_DENIED', 'This order belongs to another customer'),
  syncNotConfigured: () =>
    new AppError(409, 'INVOICE_SYNC_NOT_CONFIGURED', 'CBMS is not configured (CBMS_URL is not set)'),
  alreadySynced: () => new AppError(409, 'INVOICE_ALREADY_SYNCED', 'This document is already in CBMS'),
};
