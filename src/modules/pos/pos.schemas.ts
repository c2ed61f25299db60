import { z } from 'zod';
import { decimalInt, intId, MAX_INT_ID, uuidId } from '../../platform/http/params';
import { buyerFields } from '../orders';
import { POS_GATEWAYS } from '../payments';

const text = (max: number) => z.string().trim().min(1).max(max);
const storeDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' });
const npr = z.number().int().describe('Whole NPR');
/** Amounts a counter may type: whole NPR, inside PostgreSQL's integer. */
const amount = (min: number) => z.number().int().min(min).max(100_000_000).describe('Whole NPR');
const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .pipe(z.email({ error: 'must be an email address' }));

export const orderIdParams = z.object({ orderId: intId });

// ---------- customers ----------

export const lookupQuery = z.object({
  email: email.describe('Trimmed and lowercased before the lookup'),
});

export const posCustomer = z.object({
  exists: z.literal(true),
  customerId: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  image: z.string().nullable(),
});
export type PosCustomerView = z.infer<typeof posCustomer>;

export const createCustomerBody = z.object({
  name: text(100),
  email,
  phone: text(20).optional(),
});
export type CreateCustomerBody = z.output<typeof createCustomerBody>;

// ---------- orders ----------

export const createOrderBody = z.object({
  customerId: uuidId,
  items: z
    .array(
      z.object({
        productId: z.number().int().min(1).max(MAX_INT_ID),
        quantity: z.number().int().min(1).max(1000),
      }),
    )
    .min(1)
    .max(100)
    .describe('Lines of the sale; a product named twice is one line with the quantities added'),
  couponDiscount: amount(0).default(0).describe('A discount given at the counter, whole NPR'),
  shippingFee: amount(0).default(0),
  receiverName: text(100).optional().describe("Default: the customer's name"),
  ...buyerFields,
  receiverContactNumber: text(20).optional().describe("Default: the customer's phone"),
  shippingDistrict: text(100).optional().describe('One of the 77 districts (any letter case)'),
  shippingAddressLine1: text(255).optional(),
  shippingAddressLine2: text(255).optional(),
  shippingCity: text(100).optional(),
  shippingState: text(100).optional(),
  shippingPostalCode: text(20).optional(),
  shippingLandmark: text(255).optional(),
  shippingLatitude: z.number().min(-90).max(90).optional(),
  shippingLongitude: z.number().min(-180).max(180).optional(),
});
export type CreateOrderBody = z.output<typeof createOrderBody>;

export const orderCreated = z.object({
  requestId: z.string(),
  status: z.literal('completed'),
  id: z.number().int().describe('The order id'),
  createdAt: z.iso.datetime(),
});
export type OrderCreatedView = z.infer<typeof orderCreated>;

export const recordPaymentBody = z.object({
  gateway: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .describe(`One of ${POS_GATEWAYS.join(', ')}; another value: 400 POS_INVALID_GATEWAY`),
  amountNpr: amount(1).describe("Whole NPR; must equal the order's finalPayable"),
  transactionReference: text(255)
    .optional()
    .describe('The slip, wallet or till reference; generated (`POS-…`) when omitted'),
});
export type RecordPaymentBody = z.output<typeof recordPaymentBody>;

export const paymentRecorded = z.object({ paymentId: z.uuid(), orderId: z.number().int() });
export type PaymentRecordedView = z.infer<typeof paymentRecorded>;

export const paymentFailureBody = z.object({ reason: text(1000) });

export const pickupConfirmed = z.object({
  requestId: z.string().describe('`pos_pickup_…`; `pos_pickup_already_…` when it was picked up already'),
  status: z.literal('completed'),
  id: z.number().int(),
});
export type PickupConfirmedView = z.infer<typeof pickupConfirmed>;

// ---------- list, export, analytics ----------

function inOrder(q: { startDate?: string | undefined; endDate?: string | undefined }, ctx: z.RefinementCtx) {
  if (q.startDate && q.endDate && q.startDate > q.endDate)
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
}

export const listQuery = z
  .object({
    page: decimalInt(1, MAX_INT_ID).default(1),
    limit: decimalInt(1, 100).default(20),
    startDate: storeDate.optional().describe('First store-local day (inclusive)'),
    endDate: storeDate.optional().describe('Last store-local day (inclusive)'),
  })
  .superRefine(inOrder);
export type PosListQuery = z.output<typeof listQuery>;

export const EXPORT_FORMATS = ['json', 'csv'] as const;

export const exportQuery = z
  .object({
    startDate: storeDate.describe('First store-local day (inclusive)'),
    endDate: storeDate.describe('Last store-local day (inclusive); at most 90 days after startDate'),
    format: z
      .enum(EXPORT_FORMATS)
      .optional()
      .describe(
        '`json` (default: the flat array) or `csv` (a spreadsheet file); `Accept: text/csv` also asks for CSV',
      ),
  })
  .superRefine(inOrder);
export type PosExportQuery = z.output<typeof exportQuery>;

export const analyticsQuery = z
  .object({
    startDate: storeDate.optional().describe('First store-local day (inclusive); open when omitted'),
    endDate: storeDate.optional().describe('Last store-local day (inclusive); open when omitted'),
    district: text(100)
      .optional()
      .describe('Shipping district (any letter case); not applied to districtBreakdown'),
  })
  .superRefine(inOrder);
export type PosAnalyticsQuery = z.output<typeof analyticsQuery>;

export const posListItem = z.object({
  id: z.number().int(),
  orderNumber: z.string(),
  orderStatus: z.string(),
  paymentStatus: z.string(),
  fulfillmentStatus: z.string().nullable(),
  finalPayable: npr,
  paymentMethod: z.string().nullable().describe('The counter gateway that took the payment; null until paid'),
  createdAt: z.iso.datetime(),
  customer: z.object({ id: z.uuid().nullable(), name: z.string(), email: z.string() }),
});
export type PosListItem = z.infer<typeof posListItem>;

export const posAnalytics = z.object({
  totalRevenue: npr,
  orderCount: z.number().int(),
  gatewayBreakdown: z.array(z.object({ gateway: z.string(), revenue: npr, count: z.number().int() })),
  districtBreakdown: z.array(
    z.object({ districtName: z.string(), revenue: npr, orderCount: z.number().int() }),
  ),
});
export type PosAnalyticsView = z.infer<typeof posAnalytics>;

/** A binary file answer, for the OpenAPI document. */
export const fileResponse = (mediaType: string, description: string) =>
  z.string().meta({ description, contentMediaType: mediaType, format: 'binary' });
