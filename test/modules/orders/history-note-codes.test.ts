// The notes the server writes in an order's status history carry a code with parameters in the
// admin detail (`noteCode`, `noteParams`), so the back office can word them in Nepali; `notes`
// keeps the English API clients read. Notes people typed have no code. Rows written before the
// codes get theirs from the migration.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaymentFailed, queueUnpaidOrderCancels } from '../../../src/modules/orders';
import { orderFulfillmentHistory, orderStatusHistory } from '../../../src/modules/orders/orders.table';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { fakeInitiator } from '../orders/calls';
import { type PosTestApp, posTestApp } from '../pos/calls';

const clock = new TestClock('2026-03-01T08:00:00.000Z');
let c: PosTestApp;

beforeAll(async () => {
  c = await posTestApp({ initiator: fakeInitiator(), clock });
});
afterAll(() => c?.t.close());

type Entry = { status: string; notes: string | null; noteCode: string | null; noteParams: unknown };
const historyOf = async (orderId: number): Promise<Entry[]> =>
  (await c.adminOrder(orderId)).statusHistory.map((h: Entry) => ({
    status: h.status,
    notes: h.notes,
    noteCode: h.noteCode,
    noteParams: h.noteParams,
  }));

describe('GET /api/admin/orders/:id statusHistory[].noteCode / noteParams', () => {
  it('a COD order: the placement note is coded, the cash remarks staff typed are not', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    const res = await c.http.call('PUT', `/api/admin/orders/${orderId}/cod-collect`, c.admin.headers, {
      remarks: 'Cash received by the rider',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await historyOf(orderId)).toEqual([
      { status: 'payment_pending', notes: 'Cash on delivery', noteCode: 'cod_checkout', noteParams: null },
      { status: 'paid', notes: 'Cash received by the rider', noteCode: null, noteParams: null },
    ]);
  });

  it('an online order paid: the gateway and the payment reference are parameters', async () => {
    const { orderId } = await c.placed(await c.customer(), 'gateway_wallet_a');
    expect((await c.markPaid(orderId)).changed).toBe(true);
    expect(await historyOf(orderId)).toEqual([
      {
        status: 'payment_pending',
        notes: 'Payment by gateway_wallet_a',
        noteCode: 'online_checkout',
        noteParams: { gateway: 'gateway_wallet_a' },
      },
      {
        status: 'paid',
        notes: `Payment ref-${orderId} verified`,
        noteCode: 'payment_verified',
        noteParams: { reference: `ref-${orderId}` },
      },
    ]);
  });

  it('a failed payment keeps its reason as the note and as a parameter', async () => {
    const { orderId } = await c.placed(await c.customer(), 'gateway_card');
    await inTransaction(c.db, (tx, ac) =>
      markOrderPaymentFailed(c.deps, tx, ac, { orderId, reason: 'sandbox_failure' }),
    );
    expect((await historyOf(orderId)).at(-1)).toEqual({
      status: 'payment_failed',
      notes: 'sandbox_failure',
      noteCode: 'payment_failed',
      noteParams: { reason: 'sandbox_failure' },
    });
  });

  it('an online order left unpaid: the sweep’s cancel is coded payment_timeout', async () => {
    const { orderId } = await c.placed(await c.customer(), 'gateway_bank');
    // Placed longer ago than the timeout (moving the clock would expire the test's sign-ins).
    const minutes = c.deps.config.ORDER_PAYMENT_TIMEOUT_MINUTES + 1;
    await c.forceOrder(orderId, { createdAt: new Date(clock.now().getTime() - minutes * 60_000) });
    await queueUnpaidOrderCancels(c.deps);
    await c.t.drainJobs();
    expect((await historyOf(orderId)).at(-1)).toEqual({
      status: 'cancelled',
      notes: 'payment_timeout',
      noteCode: 'payment_timeout',
      noteParams: null,
    });
  });

  it('a second checkout of the same cart: the replaced order’s cancel is coded', async () => {
    const who = await c.customer();
    const first = await c.placed(who, 'gateway_card');
    const again = await c.checkout(who, 'gateway_card');
    expect(again.statusCode, again.body).toBe(200);
    expect((await historyOf(first.orderId)).at(-1)).toEqual({
      status: 'cancelled',
      notes: 'Replaced by a new checkout of the same cart',
      noteCode: 'replaced_by_new_checkout',
      noteParams: null,
    });
  });

  it('a counter sale: rung up and paid, both coded, with the counter gateway', async () => {
    const { orderId } = await c.paidPosOrder({ gateway: 'pos_wallet_a' });
    const history = await historyOf(orderId);
    expect(history[0]).toEqual({
      status: 'payment_pending',
      notes: 'In-store sale',
      noteCode: 'in_store_sale',
      noteParams: null,
    });
    const reference = (history[1]!.noteParams as { reference: string }).reference;
    expect(history[1]).toEqual({
      status: 'paid',
      notes: `In-store payment ${reference} (pos_wallet_a)`,
      noteCode: 'in_store_payment',
      noteParams: { reference, gateway: 'pos_wallet_a' },
    });
  });

  it('a counter pick-up: both fulfilment steps carry remarksCode picked_up_in_store', async () => {
    const { orderId } = await c.paidPosOrder();
    const res = await c.write(`/orders/${orderId}/pickup-confirm`);
    expect(res.statusCode, res.body).toBe(200);
    const moves = (await c.adminOrder(orderId)).fulfillmentHistory.map(
      (f: { toStatus: string; remarks: string | null; remarksCode: string | null }) => ({
        toStatus: f.toStatus,
        remarks: f.remarks,
        remarksCode: f.remarksCode,
      }),
    );
    expect(moves).toEqual([
      { toStatus: 'ready', remarks: 'Picked up in store', remarksCode: 'picked_up_in_store' },
      { toStatus: 'picked_up', remarks: 'Picked up in store', remarksCode: 'picked_up_in_store' },
    ]);
  });

  it('fulfilment remarks an admin typed stay uncoded', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    const done = await c.fulfil(orderId, 'ready', 'Packed at the Thamel counter');
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect((await c.adminOrder(orderId)).fulfillmentHistory.at(-1)).toMatchObject({
      remarks: 'Packed at the Thamel counter',
      remarksCode: null,
    });
  });

  it('a cancel reason an admin typed stays uncoded', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    const res = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Customer phoned to cancel',
    });
    expect(res.statusCode, res.body).toBe(202);
    await c.adminSettled(res.json().data.requestId);
    expect((await historyOf(orderId)).at(-1)).toMatchObject({
      status: 'cancelled',
      notes: 'Customer phoned to cancel',
      noteCode: null,
      noteParams: null,
    });
  });
});

describe('migration 0031: rows written before the codes', () => {
  const backfill = async () => {
    const migration = readFileSync('drizzle/0031_server_note_codes.sql', 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) {
      if (/^\s*(--[^\n]*\n\s*)*UPDATE/.test(statement)) await c.db.execute(sql.raw(statement));
    }
  };

  it('the server’s own sentences get their code and parameters; typed notes stay uncoded', async () => {
    const { orderId } = await c.placed(await c.customer(), 'cod');
    const at = clock.now();
    const old = (status: string, notes: string, actorType: string) => ({
      orderId,
      status: status as 'paid',
      notes,
      actorType: actorType as 'system',
      createdAt: at,
    });
    await c.db
      .insert(orderStatusHistory)
      .values([
        old('paid', 'Payment PSL-7Q2 verified', 'system'),
        old('paid', 'In-store payment PAY-9 (pos_card)', 'system'),
        old('payment_pending', 'Payment by gateway_wallet_b', 'customer'),
        old('cancelled', 'payment_timeout', 'system'),
        old('paid', 'Payment received, verified by phone', 'admin'),
      ]);
    // The migration's backfill, run again over these rows (it only touches rows without a code).
    await backfill();
    expect((await historyOf(orderId)).slice(1)).toEqual([
      {
        status: 'paid',
        notes: 'Payment PSL-7Q2 verified',
        noteCode: 'payment_verified',
        noteParams: { reference: 'PSL-7Q2' },
      },
      {
        status: 'paid',
        notes: 'In-store payment PAY-9 (pos_card)',
        noteCode: 'in_store_payment',
        noteParams: { reference: 'PAY-9', gateway: 'pos_card' },
      },
      {
        status: 'payment_pending',
        notes: 'Payment by gateway_wallet_b',
        noteCode: 'online_checkout',
        noteParams: { gateway: 'gateway_wallet_b' },
      },
      { status: 'cancelled', notes: 'payment_timeout', noteCode: 'payment_timeout', noteParams: null },
      { status: 'paid', notes: 'Payment received, verified by phone', noteCode: null, noteParams: null },
    ]);
  });

  it('an old counter pick-up gets picked_up_in_store', async () => {
    const { orderId } = await c.paidPosOrder();
    await c.db.insert(orderFulfillmentHistory).values({
      orderId,
      fromStatus: 'received',
      toStatus: 'ready',
      remarks: 'Picked up in store',
      actorType: 'admin',
      createdAt: clock.now(),
    });
    await backfill();
    await c.t.platform.cache.deleteByPrefix('orders:');
    expect((await c.adminOrder(orderId)).fulfillmentHistory.at(-1)).toMatchObject({
      remarks: 'Picked up in store',
      remarksCode: 'picked_up_in_store',
    });
  });
});
