// The domain events payments publishes (platform/events), inside the transaction that moves a
// payment out of `pending` (or, for a late payment, out of `failed` / `cancelled`). Orders
// subscribes in that transaction, so an order and its payment never disagree; a subscriber
// that throws rolls the payment's move back (the job asks again).
export {};

declare module '../../platform/events/events' {
  interface DomainEvents {
    /** A verified online payment, or one recorded at the POS counter. */
    'payment.completed': {
      orderId: number;
      paymentId: string;
      /** What proves the payment: the gateway transaction id online, the slip reference at the counter. */
      paymentReference: string;
      /** NPR the provider (or the counter) confirmed. */
      amount: number;
      /**
       * True when the payment had already been failed or cancelled (money taken for an order
       * given up): the order stays as it is and the money is owed back
       * (docs/decisions.md "Real gateways").
       */
      late: boolean;
    };
    'payment.failed': { orderId: number; paymentId: string; reason: string };
  }
}
