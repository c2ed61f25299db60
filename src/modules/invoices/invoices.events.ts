// The tax documents' events, published in the transaction that issues the document.
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    'invoice.issued': { invoiceId: number };
    'credit_note.issued': { creditNoteId: number };
  }
}
