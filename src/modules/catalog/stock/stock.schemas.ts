import { z } from 'zod';
import { paginationQuery } from '../../../platform/http/pagination';
import { RESERVATION_OWNERS, STOCK_SOURCES } from './stock.table';

export const stockLevel = z
  .object({
    onHand: z.number().int(),
    reserved: z.number().int().describe('Held by carts and unpaid orders'),
    available: z.number().int().describe('onHand - reserved'),
  })
  .meta({ id: 'StockLevel' });
export type StockLevel = z.infer<typeof stockLevel>;

const reason = z.string().trim().min(1).max(500);
const MAX_UNITS = 1_000_000_000;

export const adjustStockBody = z.union([
  z.strictObject({
    delta: z
      .number()
      .int()
      .min(-MAX_UNITS)
      .max(MAX_UNITS)
      .refine((d) => d !== 0, 'must not be 0')
      .describe('Units to add (negative: remove)'),
    reason,
  }),
  z.strictObject({ onHand: z.number().int().min(0).max(MAX_UNITS).describe('The counted stock'), reason }),
]);
export type AdjustStockBody = z.output<typeof adjustStockBody>;

export const stockLedgerEntry = z
  .object({
    id: z.number().int(),
    source: z.enum(STOCK_SOURCES).describe('adjustment (admin), reservation, release, finalize (sold)'),
    reason: z.string(),
    onHandDelta: z.number().int(),
    reservedDelta: z.number().int(),
    onHand: z.number().int().describe('On-hand stock right after the change'),
    reserved: z.number().int().describe('Reserved stock right after the change'),
    actorId: z.uuid().nullable().describe('The admin of an adjustment'),
    ownerType: z.enum(RESERVATION_OWNERS).nullable(),
    ownerId: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'StockLedgerEntry' });
export type StockLedgerEntryView = z.infer<typeof stockLedgerEntry>;

export const stockLedgerQuery = paginationQuery;
export type StockLedgerQuery = z.output<typeof stockLedgerQuery>;

export const lowStockProduct = z
  .object({
    productId: z.number().int(),
    name: z.string().describe("The product's title"),
    slug: z.string(),
    stock: z.number().int().describe('Units available to sell: on hand minus reserved'),
    threshold: z
      .number()
      .int()
      .describe('CATALOG_LOW_STOCK_THRESHOLD: at or below it a product is low in stock'),
  })
  .meta({ id: 'LowStockProduct' });
export type LowStockProduct = z.infer<typeof lowStockProduct>;
