// What fulfilment does inside someone else's transaction: when an order becomes paid
// (`onOrderPaid`, called by orders' `markOrderPaid` and COD collection), when a COD order is
// placed or an order cancelled, and the steps the admin actions share (deliver an order's keys,
// activate its covers). Nothing here notifies through orders.commands, which imports this file.

import type { Db } from '../../../platform/db/database';
import type { AfterCommit } from '../../../platform/db/transaction';
import type { ModuleContext } from '../../../platform/module';
import {
  activateSubscription,
  assignDigitalKeys,
  type CarePackageSubscription,
  cancelSubscription,
  createPendingSubscription,
  digitalKeyPermissions,
  findProductsForSale,
  revealAssignedKeys,
  subscriptionsOfOrderItems,
} from '../../catalog';
import { findUserCard, findUserEmail } from '../../identity';
import { createNotifier } from '../../notifications';
import * as ordersRepo from '../orders.repository';
import { fulfillmentErrors } from './fulfillment.errors';
import { digitalKeysEmail } from './fulfillment.mail';
import type { DigitalDeliveryView, SubscriptionInfo } from './fulfillment.schemas';

export type FulfillmentDeps = Pick<
  ModuleContext,
  'db' | 'clock' | 'config' | 'storage' | 'mail' | 'push' | 'realtime' | 'log'
>;

type OrderRow = ordersRepo.OrderRow;
type OrderItemRow = ordersRepo.OrderItemRow;

const itemKey = (item: OrderItemRow) => String(item.id);

const subscriptionsOf = (db: Db, items: OrderItemRow[]): Promise<CarePackageSubscription[]> =>
  subscriptionsOfOrderItems(db, items.map(itemKey));

// ---------- care-package subscriptions ----------

/**
 * One `pending` subscription per order line that sells cover: a physical line with a care
 * package attached (the product covered is the line's) and a `care_package` product line (the
 * product's tier). A line that already has one is skipped, so a second call adds nothing.
 */
export async function openSubscriptions(
  deps: Pick<FulfillmentDeps, 'storage' | 'log'>,
  tx: Db,
  order: OrderRow,
  at: Date,
): Promise<number> {
  const items = (await ordersRepo.itemsOf(tx, [order.id])).filter(
    (i) => i.pricingTierId !== null || i.productKind === 'care_package',
  );
  if (!items.length) return 0; // nothing in the order is cover
  const taken = new Set((await subscriptionsOf(tx, items)).map((s) => s.orderItemId));
  const open = items.filter((i) => !taken.has(itemKey(i)));
  const packageProducts = await findProductsForSale(
    deps,
    tx,
    open.filter((i) => i.productKind === 'care_package').map((i) => i.productId),
  );
  let created = 0;
  for (const item of open) {
    const attached = item.pricingTierId !== null;
    const tierId = attached
      ? item.pricingTierId
      : item.productKind === 'care_package'
        ? (packageProducts.get(item.productId)?.carePackageTierId ?? null)
        : null;
    if (tierId === null) {
      if (item.productKind === 'care_package')
        deps.log.warn(
          { orderId: order.id, productId: item.productId },
          'care-package product without a tier',
        );
      continue;
    }
    await createPendingSubscription(tx, {
      customerId: order.customerId,
      tierId,
      productId: attached ? item.productId : null,
      orderItemId: itemKey(item),
      at,
    });
    created += 1;
  }
  return created;
}

/** Every `pending` subscription of the order becomes `active` (its cover starts now). */
export async function activatePendingSubscriptions(tx: Db, orderId: number, at: Date): Promise<number> {
  const items = await ordersRepo.itemsOf(tx, [orderId]);
  const pending = (await subscriptionsOf(tx, items)).filter((s) => s.status === 'pending');
  for (const s of pending) await activateSubscription(tx, { subscriptionId: s.id, at });
  return pending.length;
}

/** A cancelled order's covers end with it. */
export async function cancelOrderSubscriptions(tx: Db, orderId: number, at: Date): Promise<void> {
  const items = await ordersRepo.itemsOf(tx, [orderId]);
  for (const s of await subscriptionsOf(tx, items)) {
    if (s.status === 'pending' || s.status === 'active')
      await cancelSubscription(tx, { subscriptionId: s.id, at });
  }
}

/** `subscriptionInfo` of each order item that sold cover. */
export async function subscriptionInfoOf(
  db: Db,
  items: OrderItemRow[],
): Promise<Map<number, SubscriptionInfo>> {
  const info = new Map<number, SubscriptionInfo>();
  for (const s of await subscriptionsOf(db, items)) {
    info.set(Number(s.orderItemId), {
      subscriptionId: s.id,
      carePackageId: s.carePackageId,
      tierId: s.tierId,
      status: s.status,
      durationMonths: s.durationMonths,
      startsAt: s.startsAt,
      endsAt: s.endsAt,
    });
  }
  return info;
}

// ---------- digital keys ----------

export interface KeyDelivery {
  deliveredItems: DigitalDeliveryView['deliveredItems'];
  emailSentTo: string | null;
  /** Lines left without keys (only when not `strict`). */
  short: Array<{ orderItemId: number; productId: number; productTitle: string; available: number }>;
}

/**
 * Gives every digital line of the order its keys (a line that has them already gets none more)
 * and mails all of them to the customer after commit. `strict`: a line that cannot get its
 * keys throws 409 and the caller's transaction assigns nothing; otherwise that line is left
 * out and reported. The caller holds the order's row lock, so two deliveries never overlap.
 */
export async function deliverDigitalKeys(
  deps: Pick<FulfillmentDeps, 'config' | 'mail'>,
  tx: Db,
  afterCommit: AfterCommit,
  order: OrderRow,
  at: Date,
  opts: { strict: boolean },
): Promise<KeyDelivery> {
  const items = (await ordersRepo.itemsOf(tx, [order.id])).filter((i) => i.productKind === 'digital');
  const delivery: KeyDelivery = { deliveredItems: [], emailSentTo: null, short: [] };
  const mailItems: Array<{ productTitle: string; keys: string[] }> = [];
  for (const item of items) {
    const outcome = await assignDigitalKeys(tx, {
      productId: item.productId,
      orderItemId: itemKey(item),
      quantity: item.quantity,
      at,
    });
    if (!outcome.ok) {
      if (opts.strict)
        throw fulfillmentErrors.keysUnavailable(item.productId, item.quantity, outcome.available);
      delivery.short.push({
        orderItemId: item.id,
        productId: item.productId,
        productTitle: item.productTitle,
        available: outcome.available,
      });
      continue;
    }
    const keys = await revealAssignedKeys({ db: tx, config: deps.config }, itemKey(item));
    for (const key of keys) {
      delivery.deliveredItems.push({
        orderItemId: item.id,
        productId: item.productId,
        productTitle: item.productTitle,
        keyId: key.id,
        assignedAt: key.assignedAt,
      });
    }
    mailItems.push({ productTitle: item.productTitle, keys: keys.map((k) => k.value) });
  }
  if (mailItems.length) {
    const to = await findUserEmail(tx, order.customerId);
    if (to) {
      const name = (await findUserCard(tx, order.customerId))?.name ?? '';
      const mail = digitalKeysEmail({
        to,
        name,
        orderNumber: order.orderNumber,
        webUrl: deps.config.PUBLIC_WEB_URL,
        items: mailItems,
      });
      afterCommit(() => deps.mail.send(mail));
      delivery.emailSentTo = to;
    }
  }
  return delivery;
}

// ---------- the order became paid ----------

/**
 * Called in the transaction that makes an order `paid` (verified online payment, COD cash
 * collected): the care-package lines' subscriptions open `pending`, and a `mixed` order's
 * digital lines get their keys and the keys email at once (docs/decisions.md, "Mixed orders"). A
 * line whose product has run out of keys is left for the admin's send-digital-delivery, and the
 * admins who may send it are told; the payment itself must stand. Safe to call twice.
 */
export async function onOrderPaid(
  deps: FulfillmentDeps,
  tx: Db,
  afterCommit: AfterCommit,
  order: OrderRow,
): Promise<void> {
  const at = deps.clock.now();
  await openSubscriptions(deps, tx, order, at);
  if (order.orderType !== 'mixed') return;
  const delivery = await deliverDigitalKeys(deps, tx, afterCommit, order, at, { strict: false });
  if (!delivery.short.length) return;
  deps.log.warn({ orderId: order.id, short: delivery.short }, 'digital keys ran out for a paid order');
  await createNotifier(deps).notifyAdmins(tx, afterCommit, {
    permission: digitalKeyPermissions.SEND_DELIVERY,
    type: 'order.digital_keys_short',
    title: 'Digital keys ran out',
    body: `Order ${order.orderNumber} is paid but has no key for ${delivery.short
      .map((s) => s.productTitle)
      .join(', ')}. Add keys, then send the digital delivery.`,
    data: { orderId: order.id, orderNumber: order.orderNumber },
  });
}
