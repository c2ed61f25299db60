import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { atLeastOneField, booleanQuery, searchTerm, timestamps } from '../catalog.schemas';
import { PROVINCES } from './shipping-districts.table';

export const shippingDistrict = z
  .object({
    id: z.number().int(),
    name: z.string(),
    province: z.enum(PROVINCES),
    shippingFee: z.number().int().describe('NPR'),
    isActive: z.boolean(),
    ...timestamps,
  })
  .meta({ id: 'ShippingDistrict' });
export type ShippingDistrictView = z.infer<typeof shippingDistrict>;

/** What customers see: only the districts the store ships to. */
export const publicShippingDistrict = z
  .object({
    id: z.number().int(),
    name: z.string(),
    province: z.enum(PROVINCES),
    shippingFee: z.number().int(),
  })
  .meta({ id: 'PublicShippingDistrict' });
export type PublicShippingDistrictView = z.infer<typeof publicShippingDistrict>;

export const shippingDistrictListQuery = listQuery([
  'name',
  'province',
  'shippingFee',
  'updatedAt',
] as const).extend({
  // An alphabetical list reads from A.
  order: z.enum(['asc', 'desc']).default('asc'),
  search: searchTerm.describe('Part of the district name, case-insensitive'),
  province: z.enum(PROVINCES).optional(),
  isActive: booleanQuery.optional(),
});
export type ShippingDistrictListQuery = z.output<typeof shippingDistrictListQuery>;

export const updateShippingDistrictBody = z
  .object({
    shippingFee: z.number().int().min(0).max(1_000_000).optional().describe('NPR'),
    isActive: z.boolean().optional(),
  })
  .refine(...atLeastOneField);
export type UpdateShippingDistrictBody = z.output<typeof updateShippingDistrictBody>;
