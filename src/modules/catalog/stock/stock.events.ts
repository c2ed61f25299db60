// The stock event the catalog publishes: every change of a product's available units, in the
// transaction that makes it. Subscribers decide what a change means for them (webhooks make
// `product.stock_low` of one that crosses CATALOG_LOW_STOCK_THRESHOLD).
export {};

declare module '../../../platform/events/events' {
  interface DomainEvents {
    'product.stock_changed': { productId: number; availableBefore: number; availableAfter: number };
  }
}
