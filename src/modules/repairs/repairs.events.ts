// Repairs' domain events.
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    'repair.status_changed': { repairRequestId: number; previousStatus: string };
  }
}
