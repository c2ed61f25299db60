// What placing an order takes and answers: checkout's and buy-now's bodies (with the buyer a
// tax invoice names) and the payment initiation the app follows.
import { z } from 'zod';
import { intId } from '../../../platform/http/params';
import { PAYMENT_GATEWAYS } from '../../payments';

// The gateways are the payments module's list: checkout accepts exactly what it can take.
export type { OnlineGateway, PaymentGatewayName as Gateway } from '../../payments';

const returnUrl = z.url().max(2000);

/** Who a tax invoice names (optional, additive): a name, and a PAN of exactly 9 digits. */
export const buyerFields = {
  buyerName: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('The name the tax invoice gives the buyer'),
  buyerPan: z
    .string()
    .regex(/^\d{9}$/, 'must be exactly 9 digits')
    .optional()
    .describe("The buyer's PAN/VAT number for the tax invoice (exactly 9 digits)"),
};

export const checkoutBody = z.object({ gateway: z.enum(PAYMENT_GATEWAYS), returnUrl, ...buyerFields });
export type CheckoutBody = z.output<typeof checkoutBody>;

export const buyNowBody = z.object({
  productId: intId,
  gateway: z.enum(PAYMENT_GATEWAYS),
  returnUrl,
  promoCode: z.string().trim().min(1).max(64).optional(),
  ...buyerFields,
});
export type BuyNowBody = z.output<typeof buyNowBody>;

export const paymentInit = z.object({
  orderId: z.number().int(),
  status: z.literal('payment_pending'),
  paymentId: z.string(),
  gatewayTransactionId: z.string().nullable(),
  initiationType: z.enum(['none', 'redirect', 'form_post']),
  redirectUrl: z.string().nullable(),
  gatewayPayload: z.record(z.string(), z.unknown()),
});
export type PaymentInitView = z.infer<typeof paymentInit>;
