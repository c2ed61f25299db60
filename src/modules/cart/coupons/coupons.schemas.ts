import { z } from 'zod';
import { booleanQuery } from '../../../platform/http/fields';
import { listQuery } from '../../../platform/http/pagination';
import { DISCOUNT_TYPES } from './coupons.table';

const amount = z.number().int().min(0).max(1_000_000_000);
const limit = z.number().int().min(1).max(1_000_000_000);
const idList = z.array(z.number().int().min(1).max(2_147_483_647)).max(500);
const code = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, hyphens and underscores only');

export const coupon = z
  .object({
    id: z.number().int(),
    code: z.string(),
    discountType: z.enum(DISCOUNT_TYPES),
    value: z.number().int().describe('Percent (1–100) or NPR'),
    minOrderTotal: z.number().int().nullable(),
    maxDiscount: z.number().int().nullable(),
    startsAt: z.iso.datetime().nullable(),
    endsAt: z.iso.datetime().nullable(),
    usageLimit: z.number().int().nullable(),
    perCustomerLimit: z.number().int().nullable(),
    usedCount: z.number().int().describe('Paid orders that used the coupon'),
    isActive: z.boolean(),
    productIds: z.array(z.number().int()),
    categoryIds: z.array(z.number().int()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Coupon' });
export type CouponView = z.infer<typeof coupon>;

const fields = {
  minOrderTotal: amount.nullable().optional(),
  maxDiscount: limit.nullable().optional(),
  startsAt: z.iso.datetime({ offset: true }).nullable().optional(),
  endsAt: z.iso.datetime({ offset: true }).nullable().optional(),
  usageLimit: limit.nullable().optional(),
  perCustomerLimit: limit.nullable().optional(),
  productIds: idList.optional(),
  categoryIds: idList.optional(),
};

export const createCouponBody = z.object({
  code,
  discountType: z.enum(DISCOUNT_TYPES),
  value: limit,
  isActive: z.boolean().default(true),
  ...fields,
});
export type CreateCouponBody = z.output<typeof createCouponBody>;

export const updateCouponBody = z
  .object({
    code: code.optional(),
    discountType: z.enum(DISCOUNT_TYPES).optional(),
    value: limit.optional(),
    isActive: z.boolean().optional(),
    ...fields,
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'give at least one field to change',
  });
export type UpdateCouponBody = z.output<typeof updateCouponBody>;

export const couponListQuery = listQuery(['createdAt', 'code', 'updatedAt'] as const).extend({
  search: z
    .string()
    .trim()
    .max(50)
    .refine((v) => !v.includes('\u0000'), 'must not contain a NUL character')
    .optional()
    .transform((s) => s || undefined)
    .describe('Part of the code, case-insensitive'),
  isActive: booleanQuery.optional(),
});
export type CouponListQuery = z.output<typeof couponListQuery>;
