// Support's domain events (the realtime ones are in realtime/support-events.ts).
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    'inquiry.created': { inquiryId: number };
    /** A support request (ticket) opened by a customer or made from an inquiry. */
    'ticket.created': { ticketId: number };
  }
}
