// Identity's domain events.
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    /** A customer account was made: registration, a first sign-in with a provider, or at the counter. */
    'customer.registered': { customerId: string };
  }
}
