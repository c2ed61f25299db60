import { z } from 'zod';
import { listQuery } from '../../../platform/http/pagination';
import { intId } from '../../../platform/http/params';
import { atLeastOneField, booleanQuery, searchTerm, timestamps } from '../catalog.schemas';
import { SUBSCRIPTION_STATUSES } from './care-packages.table';

const MAX_PRICE = 1_000_000_000;
const price = z.number().int().min(0).max(MAX_PRICE);
const idList = z.array(z.number().int().min(1).max(2_147_483_647)).max(1000);

export const carePackageRules = z
  .object({
    categoryIds: idList.describe('Categories (and their sub-categories) the package covers'),
    brandIds: idList,
    productIds: idList,
    minPrice: price.nullable().describe('Lowest effective price (NPR) of a covered product, inclusive'),
    maxPrice: price.nullable().describe('Highest effective price (NPR), inclusive'),
  })
  .meta({ id: 'CarePackageRules' });

export const carePackageTier = z
  .object({
    id: z.number().int(),
    label: z.string(),
    durationMonths: z.number().int(),
    price: z.number().int().describe('NPR'),
    isActive: z.boolean(),
  })
  .meta({ id: 'CarePackageTier' });
export type CarePackageTierView = z.infer<typeof carePackageTier>;

export const carePackage = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    isActive: z.boolean(),
    rules: carePackageRules,
    tiers: z.array(carePackageTier),
    ...timestamps,
  })
  .meta({ id: 'CarePackage' });
export type CarePackageView = z.infer<typeof carePackage>;

/** What a shopper sees for a product: active packages with their active tiers. */
export const offeredCarePackage = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    tiers: z.array(carePackageTier.omit({ isActive: true })),
  })
  .meta({ id: 'OfferedCarePackage' });
export type OfferedCarePackageView = z.infer<typeof offeredCarePackage>;

const name = z.string().trim().min(1).max(200);
const description = z.string().trim().max(5000).nullable();
const tierFields = {
  label: z.string().trim().min(1).max(100),
  durationMonths: z.number().int().min(1).max(120),
  price,
  isActive: z.boolean().optional(),
};
const priceRangeOrdered = [
  (r: { minPrice?: number | null; maxPrice?: number | null }) =>
    r.minPrice == null || r.maxPrice == null || r.minPrice <= r.maxPrice,
  {
    message: 'minPrice must not be above maxPrice',
    path: ['maxPrice'] as string[],
    params: { code: 'min_above_max' },
  },
] as const;

const rulesBody = z
  .object({
    categoryIds: idList.default([]),
    brandIds: idList.default([]),
    productIds: idList.default([]),
    minPrice: price.nullable().default(null),
    maxPrice: price.nullable().default(null),
  })
  .refine(...priceRangeOrdered);

export const createCarePackageBody = z.object({
  name,
  description: description.optional(),
  isActive: z.boolean().default(true),
  rules: rulesBody.default({ categoryIds: [], brandIds: [], productIds: [], minPrice: null, maxPrice: null }),
  tiers: z.array(z.object(tierFields)).min(1).max(20),
});
export type CreateCarePackageBody = z.output<typeof createCarePackageBody>;

export const updateCarePackageBody = z
  .object({
    name: name.optional(),
    description: description.optional(),
    isActive: z.boolean().optional(),
    rules: z
      .object({
        categoryIds: idList.optional(),
        brandIds: idList.optional(),
        productIds: idList.optional(),
        minPrice: price.nullable().optional(),
        maxPrice: price.nullable().optional(),
      })
      .optional()
      .describe('Only the rules given change'),
    tiers: z
      .array(z.object({ id: z.number().int().min(1).optional(), ...tierFields }))
      .min(1)
      .max(20)
      .optional()
      .describe(
        'The whole tier list: a tier with `id` is updated, one without is added, a tier left out is deactivated',
      ),
  })
  .refine(...atLeastOneField);
export type UpdateCarePackageBody = z.output<typeof updateCarePackageBody>;

export const carePackageListQuery = listQuery(['createdAt', 'name', 'updatedAt'] as const).extend({
  search: searchTerm.describe('Part of the name, case-insensitive'),
  isActive: booleanQuery.optional(),
});
export type CarePackageListQuery = z.output<typeof carePackageListQuery>;

export const productIdParams = z.object({ productId: intId });

export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export interface SubscriptionView {
  id: string;
  customerId: string;
  carePackageId: number;
  tierId: number;
  productId: number | null;
  orderItemId: string | null;
  status: z.infer<typeof subscriptionStatus>;
  durationMonths: number;
  startsAt: string | null;
  endsAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
}
