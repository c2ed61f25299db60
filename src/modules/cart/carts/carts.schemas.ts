import { z } from 'zod';
import { intId, uuidId } from '../../../platform/http/params';

const money = z.number().int();
const quantity = z
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(1_000_000, 'too large')
  .describe('1 to 99; above 99: 400 CART_QUANTITY_EXCEEDED');

export const carePackageChoice = z.object({ carePackageId: intId, pricingTierId: intId });
export type CarePackageChoiceBody = z.output<typeof carePackageChoice>;

export const cartItem = z
  .object({
    id: z.string(),
    productId: z.number().int(),
    productTitle: z.string(),
    productSlug: z.string(),
    productKind: z.string(),
    thumbnailUrl: z.string().nullable(),
    quantity: z.number().int(),
    unitMrp: money,
    unitSp: money,
    effectivePrice: money,
    discountPerUnit: money,
    lineDiscount: money,
    lineTotal: money,
    carePackage: z
      .object({
        carePackageId: z.number().int(),
        pricingTierId: z.number().int(),
        name: z.string(),
        tierLabel: z.string(),
        unitPrice: money,
      })
      .nullable(),
  })
  .meta({ id: 'CartItem' });
export type CartItemView = z.infer<typeof cartItem>;

export const shippingLocation = z
  .object({
    districtName: z.string(),
    addressLine1: z.string(),
    city: z.string(),
    postalCode: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  })
  .meta({ id: 'CartShippingLocation' });
export type ShippingLocationView = z.infer<typeof shippingLocation>;

export const cartTotalsSchema = z
  .object({
    totalMrp: money,
    totalSp: money,
    appliedDiscount: money,
    shippingFee: money,
    carePackageTotal: money,
    finalPayable: money,
    itemCount: z.number().int().describe('Units (sum of quantities)'),
  })
  .meta({ id: 'CartTotals' });

const cartFields = {
  totals: cartTotalsSchema,
  appliedCoupon: z.object({ code: z.string(), discount: money }).nullable(),
  promoNotice: z.object({ message: z.string() }).nullable(),
  shippingLocation: shippingLocation.nullable(),
};

export const quoteItemView = cartItem.omit({ id: true }).meta({ id: 'CartQuoteItem' });
export type QuoteItemView = z.infer<typeof quoteItemView>;

/** A guest quote: the cart shape without `id` (and without `updatedAt`). */
export const cartQuote = z.object({ items: z.array(quoteItemView), ...cartFields }).meta({ id: 'CartQuote' });
export type CartQuoteView = z.infer<typeof cartQuote>;

export const cart = z
  .object({ id: z.string(), items: z.array(cartItem), ...cartFields, updatedAt: z.iso.datetime() })
  .meta({ id: 'Cart' });
export type CartView = z.infer<typeof cart>;

export const addItemBody = z.object({
  productId: intId,
  quantity: quantity.default(1),
  carePackage: carePackageChoice.optional(),
});
export type AddItemBody = z.output<typeof addItemBody>;

export const setQuantityBody = z.object({
  quantity,
  operation: z.literal('set').optional(),
});

/** Text PostgreSQL can store: a NUL character is a validation error, never a 500. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'must not contain a NUL character');

export const couponBody = z.object({ code: text(50) });
export const setLocationBody = z.object({
  districtName: text(100),
  addressLine1: text(255),
  city: text(100),
  postalCode: text(20),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
});
export type SetLocationBody = z.output<typeof setLocationBody>;

export const autoLocationBody = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

/** The location with its district's fee, or an empty object when none is set. */
export const locationProjection = z
  .union([
    shippingLocation.extend({ districtId: z.number().int().nullable(), shippingFee: money.nullable() }),
    z.object({}),
  ])
  .meta({ id: 'CartLocation' });

export const quoteItem = z.object({
  productId: intId,
  quantity,
  carePackage: carePackageChoice.optional(),
});
export type QuoteItem = z.output<typeof quoteItem>;

export const guestQuoteBody = z.object({
  items: z.array(quoteItem).max(100),
  districtName: text(100).optional(),
});

export const syncBody = z.object({ items: z.array(quoteItem).max(100) });

export const itemIdParams = z.object({ itemId: uuidId });
export const cartItemIdParams = z.object({ cartItemId: uuidId });
export const userIdParams = z.object({ userId: uuidId });
