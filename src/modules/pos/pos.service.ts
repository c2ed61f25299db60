// The in-store counter's rules: customers found or signed up at the counter, sales made into
// orders, payments recorded (the payment-completed event makes the order `paid`), failed
// attempts noted, pickups confirmed, and the back office's list, export and revenue. Orders,
// payments, identity and catalog do the writing through what their index.ts exports.

import { Readable } from 'node:stream';
import type { Db } from '../../platform/db/database';
import { inTransaction } from '../../platform/db/transaction';
import { httpErrors } from '../../platform/http/errors';
import { crockfordCode, newUuid } from '../../platform/ids';
import type { ModuleContext } from '../../platform/module';
import { recordActivity } from '../activity';
import { allShippingDistrictNames, findShippingDistrict } from '../catalog';
import { counterCustomers, findUserContacts } from '../identity';
import { posSales, printedOrderDate } from '../orders';
import { DuplicatePosReference, POS_GATEWAYS, type PosGateway, recordPosPayment } from '../payments';
import { csvDocumentStart, csvRow } from './pos.csv';
import type { ReceiptProvider } from './pos.documents';
import { posErrors } from './pos.errors';
import { renderReceipt } from './pos.receipt';
import type {
  CreateCustomerBody,
  CreateOrderBody,
  OrderCreatedView,
  PaymentRecordedView,
  PickupConfirmedView,
  PosAnalyticsQuery,
  PosAnalyticsView,
  PosCustomerView,
  PosExportQuery,
  PosListItem,
  PosListQuery,
  RecordPaymentBody,
} from './pos.schemas';

export interface PosDeps extends ModuleContext {
  /** The document that replaces the plain receipt when there is one (the tax invoice). */
  saleReceipt?: ReceiptProvider;
}

/** The longest export (interface, Limits). */
export const MAX_EXPORT_DAYS = 90;
/** Customer accounts one admin may create per window (interface, Limits). */
export const CUSTOMER_CREATIONS_PER_WINDOW = 10;
export const CUSTOMER_CREATION_WINDOW_MS = 3_600_000;
/** Marks a payment-failure note among the order's admin notes. */
export const PAYMENT_FAILURE_MARKER = '[POS payment failure]';
const EXPORT_BATCH = 500;

const toCustomerView = (c: counterCustomers.CounterCustomer): PosCustomerView => ({
  exists: true,
  customerId: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  image: c.image,
});

// ---------- customers ----------

export async function lookupCustomer(
  deps: Pick<PosDeps, 'db'>,
  email: string,
): Promise<PosCustomerView | null> {
  const customer = await counterCustomers.findCounterCustomer(deps.db, email);
  return customer ? toCustomerView(customer) : null;
}

export async function createCustomer(
  deps: PosDeps,
  adminId: string,
  body: CreateCustomerBody,
): Promise<PosCustomerView> {
  const outcome = await counterCustomers.createCounterCustomer(deps, {
    name: body.name,
    email: body.email,
    phone: body.phone ?? null,
  });
  if (!outcome.ok)
    throw outcome.reason === 'email_taken' ? posErrors.duplicateEmail() : posErrors.duplicatePhone();
  await recordActivity(deps.db, {
    adminId,
    action: 'pos_customer_create',
    entityType: 'user',
    entityId: outcome.customer.id,
    summary: `Created customer account ${outcome.customer.email} at the counter`,
    at: deps.clock.now(),
  });
  return toCustomerView(outcome.customer);
}

// ---------- orders ----------

/** Lines of one product are one line (quantities added), in the order first named. */
function mergeLines(items: CreateOrderBody['items']) {
  const merged = new Map<number, number>();
  for (const item of items) merged.set(item.productId, (merged.get(item.productId) ?? 0) + item.quantity);
  return [...merged].map(([productId, quantity]) => ({ productId, quantity }));
}

export async function createOrder(
  deps: PosDeps,
  adminId: string,
  body: CreateOrderBody,
): Promise<OrderCreatedView> {
  const customer = await counterCustomers.findCounterCustomerById(deps.db, body.customerId);
  if (!customer) throw posErrors.customerNotFound();
  // The district is stored as the catalog spells it, so reports group one district as one.
  let district: string | null = null;
  if (body.shippingDistrict) {
    const found = await findShippingDistrict(deps.db, { name: body.shippingDistrict });
    if (!found)
      throw httpErrors.validation([{ path: 'shippingDistrict', message: 'is not a known district' }]);
    district = found.name;
  }
  const order = await inTransaction(deps.db, (tx, afterCommit) =>
    posSales.createPosOrder(deps, tx, afterCommit, {
      customer,
      adminId,
      items: mergeLines(body.items),
      couponDiscount: body.couponDiscount,
      shippingFee: body.shippingFee,
      receiverName: body.receiverName ?? null,
      buyerName: body.buyerName ?? null,
      buyerPan: body.buyerPan ?? null,
      receiverContactNumber: body.receiverContactNumber ?? null,
      shipping: {
        district,
        addressLine1: body.shippingAddressLine1 ?? null,
        addressLine2: body.shippingAddressLine2 ?? null,
        city: body.shippingCity ?? null,
        state: body.shippingState ?? null,
        postalCode: body.shippingPostalCode ?? null,
        landmark: body.shippingLandmark ?? null,
        latitude: body.shippingLatitude ?? null,
        longitude: body.shippingLongitude ?? null,
      },
    }),
  );
  return {
    requestId: `pos_order_${newUuid()}`,
    status: 'completed',
    id: order.id,
    createdAt: order.createdAt.toISOString(),
  };
}

async function posOrderOr404(db: Db, orderId: number, lock: boolean) {
  const order = lock ? await posSales.lockPosOrder(db, orderId) : await posSales.findPosOrder(db, orderId);
  if (!order) throw posErrors.orderNotFound();
  if (order.orderSource !== 'pos_sale') throw posErrors.notPosSale();
  return order;
}

const isPosGateway = (value: string): value is PosGateway =>
  (POS_GATEWAYS as readonly string[]).includes(value);

/** `POS-YYMMDD-XXXXXXXX`, when the counter typed no reference of its own. */
const generatedReference = (at: Date) =>
  `POS-${at.toISOString().slice(2, 10).replaceAll('-', '')}-${crockfordCode(8)}`;

/**
 * The interface's sequence (after the idempotency check the route does): the order, locked,
 * must be a POS sale still awaiting payment; the gateway must be a counter gateway; the amount
 * the order's total. The payment is recorded completed and its event makes the order `paid`.
 */
export async function recordPayment(
  deps: PosDeps,
  adminId: string,
  orderId: number,
  body: RecordPaymentBody,
): Promise<PaymentRecordedView> {
  try {
    return await inTransaction(
      deps.db,
      async (tx) => {
        const order = await posOrderOr404(tx, orderId, true);
        if (
          order.paymentMethod !== 'pos' ||
          order.status !== 'payment_pending' ||
          order.paymentStatus !== 'pending'
        )
          throw posErrors.notPaymentPending(order.status, order.paymentStatus);
        if (!isPosGateway(body.gateway)) throw posErrors.invalidGateway(POS_GATEWAYS);
        if (body.amountNpr !== order.finalPayable) throw posErrors.amountMismatch(order.finalPayable);
        const at = deps.clock.now();
        const reference = body.transactionReference ?? generatedReference(at);
        await posSales.setPosGateway(tx, order.id, body.gateway);
        const payment = await recordPosPayment(deps, tx, {
          orderId: order.id,
          orderNumber: order.orderNumber,
          amount: body.amountNpr,
          gateway: body.gateway,
          transactionReference: reference,
          adminId,
        });
        await recordActivity(tx, {
          adminId,
          action: 'pos_payment',
          entityType: 'order',
          entityId: order.id,
          summary: `Recorded ${body.amountNpr} NPR by ${body.gateway} (${reference}) for in-store order ${order.orderNumber}`,
          at,
        });
        return { paymentId: payment.paymentId, orderId: order.id };
      },
      (error) => deps.log.error({ err: error, orderId }, 'POS payment after-commit effect failed'),
    );
  } catch (error) {
    if (error instanceof DuplicatePosReference) throw posErrors.duplicateReference();
    throw error;
  }
}

export async function recordPaymentFailure(
  deps: PosDeps,
  adminId: string,
  orderId: number,
  reason: string,
): Promise<void> {
  await inTransaction(deps.db, async (tx, afterCommit) => {
    const order = await posOrderOr404(tx, orderId, true);
    await posSales.addPosOrderNote(deps, tx, afterCommit, {
      order,
      adminId,
      note: `${PAYMENT_FAILURE_MARKER} ${reason}`,
      action: 'pos_payment_failure',
      summary: `Noted a failed payment attempt on in-store order ${order.orderNumber}`,
    });
  });
}

export async function confirmPickup(
  deps: PosDeps,
  adminId: string,
  orderId: number,
): Promise<PickupConfirmedView> {
  return inTransaction(deps.db, async (tx, afterCommit) => {
    const order = await posOrderOr404(tx, orderId, true);
    if (order.fulfillmentStatus === 'picked_up')
      return { requestId: `pos_pickup_already_${newUuid()}`, status: 'completed' as const, id: order.id };
    if (order.orderType === 'digital')
      throw posErrors.pickupNotInStore(
        order.fulfillmentStatus,
        'A digital order has nothing to pick up: its keys go out with send-digital-delivery',
      );
    const inStore =
      order.status === 'paid' &&
      (order.fulfillmentStatus === 'received' || order.fulfillmentStatus === 'ready');
    if (!inStore) throw posErrors.pickupNotInStore(order.fulfillmentStatus);
    const moved = await posSales.completePosPickup(deps, tx, afterCommit, { order, adminId });
    // Under the order's lock nothing else moves it; a miss means the database disagreed.
    if (!moved) throw posErrors.pickupNotInStore(order.fulfillmentStatus);
    return { requestId: `pos_pickup_${newUuid()}`, status: 'completed' as const, id: order.id };
  });
}

// ---------- list, export, analytics ----------

const window = (deps: PosDeps, q: { startDate?: string | undefined; endDate?: string | undefined }) => ({
  startDate: q.startDate ?? null,
  endDate: q.endDate ?? null,
  timeZone: deps.config.STORE_TIMEZONE,
});

async function toListItems(db: Db, rows: posSales.PosOrderRow[]): Promise<PosListItem[]> {
  const contacts = await findUserContacts(
    db,
    rows.map((r) => r.customerId),
  );
  return rows.map((r) => {
    const c = contacts.get(r.customerId);
    return {
      id: r.id,
      orderNumber: r.orderNumber,
      orderStatus: r.status,
      paymentStatus: r.paymentStatus,
      fulfillmentStatus: r.fulfillmentStatus,
      finalPayable: r.finalPayable,
      paymentMethod: isPosGateway(r.gateway) ? r.gateway : null,
      createdAt: r.createdAt.toISOString(),
      customer: { id: c?.id ?? null, name: c?.name ?? '', email: c?.email ?? '' },
    };
  });
}

export async function listOrders(deps: PosDeps, q: PosListQuery) {
  const { rows, count } = await posSales.listPosOrders(deps.db, window(deps, q), {
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
  });
  return { data: await toListItems(deps.db, rows), meta: { count, page: q.page, size: q.limit } };
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

function checkExportRange(q: PosExportQuery) {
  if (dayNumber(q.endDate) - dayNumber(q.startDate) + 1 > MAX_EXPORT_DAYS)
    throw posErrors.rangeTooLarge(MAX_EXPORT_DAYS);
}

/** Every POS order of the range, newest first, as list items, batch after batch. */
async function* exportBatches(deps: PosDeps, q: PosExportQuery): AsyncGenerator<PosListItem[]> {
  let after: { createdAt: Date; id: number } | null = null;
  for (;;) {
    const rows = await posSales.posOrdersBatch(deps.db, window(deps, q), after, EXPORT_BATCH);
    if (!rows.length) return;
    yield await toListItems(deps.db, rows);
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

export async function exportOrders(deps: PosDeps, q: PosExportQuery): Promise<PosListItem[]> {
  checkExportRange(q);
  const all: PosListItem[] = [];
  for await (const batch of exportBatches(deps, q)) all.push(...batch);
  return all;
}

export const CSV_COLUMNS = [
  'id',
  'orderNumber',
  'createdAt',
  'orderStatus',
  'paymentStatus',
  'fulfillmentStatus',
  'paymentMethod',
  'finalPayable',
  'customerId',
  'customerName',
  'customerEmail',
] as const;

/**
 * The export as a CSV stream: checked before the first byte (so a bad range is still a JSON
 * error), then written batch by batch, never held whole in memory.
 */
export function exportOrdersCsv(deps: PosDeps, q: PosExportQuery): Readable {
  checkExportRange(q);
  async function* lines() {
    yield csvDocumentStart([...CSV_COLUMNS]);
    for await (const batch of exportBatches(deps, q)) {
      yield batch
        .map((o) =>
          csvRow([
            o.id,
            o.orderNumber,
            o.createdAt,
            o.orderStatus,
            o.paymentStatus,
            o.fulfillmentStatus,
            o.paymentMethod,
            o.finalPayable,
            o.customer.id,
            o.customer.name,
            o.customer.email,
          ]),
        )
        .join('');
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

export async function analytics(deps: PosDeps, q: PosAnalyticsQuery): Promise<PosAnalyticsView> {
  const w = window(deps, q);
  const district = q.district ?? null;
  const [totals, gateways, districts, names] = await Promise.all([
    posSales.posRevenue(deps.db, w, 'none', district),
    posSales.posRevenue(deps.db, w, 'gateway', district),
    // Every district, whatever the filter (interface).
    posSales.posRevenue(deps.db, w, 'district', null),
    allShippingDistrictNames(deps.db),
  ]);
  const total = totals[0] ?? { revenue: 0, orderCount: 0 };
  const byGateway = new Map(gateways.map((g) => [g.key ?? 'pos', g]));
  const gatewayBreakdown = [...new Set<string>([...POS_GATEWAYS, ...byGateway.keys()])].map((gateway) => ({
    gateway,
    revenue: byGateway.get(gateway)?.revenue ?? 0,
    count: byGateway.get(gateway)?.orderCount ?? 0,
  }));
  const byDistrict = new Map(districts.filter((d) => d.key !== null).map((d) => [d.key!, d]));
  const listed = new Set(names.map((n) => n.toLowerCase()));
  const districtBreakdown = [
    ...names.map((name) => {
      const row = byDistrict.get(name.toLowerCase());
      return { districtName: name, revenue: row?.revenue ?? 0, orderCount: row?.orderCount ?? 0 };
    }),
    // Orders of a district the catalog no longer lists still count somewhere.
    ...districts
      .filter((d) => d.key !== null && !listed.has(d.key))
      .map((d) => ({ districtName: d.name ?? d.key!, revenue: d.revenue, orderCount: d.orderCount })),
  ].sort(
    (a, b) =>
      b.revenue - a.revenue || b.orderCount - a.orderCount || a.districtName.localeCompare(b.districtName),
  );
  return { totalRevenue: total.revenue, orderCount: total.orderCount, gatewayBreakdown, districtBreakdown };
}

// ---------- receipt ----------

const GATEWAY_WORDS: Record<PosGateway, string> = {
  pos_cash: 'cash',
  pos_wallet_a: 'wallet A',
  pos_wallet_b: 'wallet B',
  pos_card: 'card',
};

function paymentLine(order: posSales.PosOrder): string {
  if (order.status === 'cancelled') return 'Cancelled';
  if (order.status.startsWith('refund_')) return `Refund ${order.status.slice('refund_'.length)}`;
  if (order.paymentStatus === 'completed')
    return `Paid by ${isPosGateway(order.gateway) ? GATEWAY_WORDS[order.gateway] : order.gateway}`;
  return 'Awaiting payment';
}

/**
 * `GET /api/admin/pos/orders/:orderId/receipt`: the sale as an 80 mm thermal receipt — its tax
 * invoice when the invoices module has one for it (`deps.saleReceipt`), else the plain receipt.
 */
export async function orderReceipt(
  deps: PosDeps,
  orderId: number,
  adminId: string,
): Promise<{ fileName: string; pdf: Buffer }> {
  const order = await posOrderOr404(deps.db, orderId, false);
  const provided = await deps.saleReceipt?.({ orderId: order.id, adminId });
  if (provided) return provided;
  const items = await posSales.posOrderItems(deps.db, order.id);
  const orderDate = printedOrderDate(deps.config.STORE_TIMEZONE, order.createdAt);
  const pdf = await renderReceipt({
    storeName: deps.config.STORE_NAME,
    orderNumber: order.orderNumber,
    orderDate,
    customerName: order.receiver,
    customerPhone: order.contactNumber,
    lines: items.map((i) => ({
      title: i.productTitle,
      quantity: i.quantity,
      unitPrice: i.quantity > 0 ? i.finalValue / i.quantity : 0,
      lineTotal: i.finalValue,
    })),
    subtotal: order.totalSp,
    savings: Math.max(0, order.totalMrp - order.totalSp),
    counterDiscount: order.couponDiscount,
    shippingFee: order.shippingFee,
    total: order.finalPayable,
    payment: paymentLine(order),
    paymentReference: order.paymentStatus === 'completed' ? order.paymentReference : null,
    createdAt: deps.clock.now(),
  });
  return { fileName: `receipt-${order.orderNumber}.pdf`, pdf };
}
