// CBMS sync against a fake CBMS server that checks every field of the IRD's model: a bill and
// a sales return posted with the IRD's field names and types, success, a duplicate (101), the
// retried replies (102/103/104, also 104 as HTTP 400) until success or the last try, wrong
// credentials (100) stopping at once and alerting the admins who hold Invoices_SYNC, and resync.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../../src/platform/clock';
import { type FakeCbms, startFakeCbms } from '../../helpers/cbms';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { fakeInitiator, type OrdersTestApp, ordersTestApp } from '../orders/calls';
import { collectedOrder, documentOf as readDocument } from './calls';

const clock = new TestClock('2026-03-01T10:00:00.000Z');
let c: OrdersTestApp;
let cbms: FakeCbms;
let syncer: SignedIn;
let bystander: SignedIn;

beforeAll(async () => {
  cbms = await startFakeCbms();
  c = await ordersTestApp({
    initiator: fakeInitiator(),
    clock,
    env: {
      TAX_INVOICES_ENABLED: 'true',
      SELLER_PAN: '601234567',
      CBMS_URL: cbms.url,
      CBMS_USERNAME: 'himal',
      CBMS_PASSWORD: 'secret-pass',
      // Retries at once: the tests do not sleep.
      CBMS_RETRY_BASE_SECONDS: '0',
    },
  });
  syncer = await signedInAdmin(c.t, { permissions: ['Invoices_READ', 'Invoices_SYNC'] });
  bystander = await signedInAdmin(c.t, { permissions: ['Invoices_READ'] });
});
afterAll(async () => {
  await c?.t.close();
  await cbms?.close();
});
beforeEach(() => {
  cbms.replies = [];
});

const collected = async (price: number, buyer: Record<string, string> = {}) =>
  (await collectedOrder(c, price, buyer)).orderId;
const documentOf = (kind: 'invoices' | 'credit-notes', orderId: number) =>
  readDocument(c, syncer, kind, orderId);

/**
 * Runs the jobs until the document's sync has settled: a retry waits on a timer (0 s here),
 * which the queue's drain does not wait for.
 */
async function synced(kind: 'invoices' | 'credit-notes', orderId: number) {
  for (let i = 0; i < 100; i++) {
    await c.t.drainJobs();
    const doc = await documentOf(kind, orderId);
    if (doc.syncStatus !== 'pending') return doc;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`sync of order ${orderId}'s document still pending`);
}

const postsFor = (number: string) =>
  cbms.posts.filter((p) => p.body.invoice_number === number || p.body.credit_note_number === number);

describe('tax.cbms_sync', () => {
  it('posts the bill with every field of the model, in rupees, real time on the first try: synced', async () => {
    // CBMS has not answered yet: the sale is done and its invoice waits for the sync.
    const release = cbms.hold();
    const orderId = await collected(1030, { buyerName: 'Everest Traders', buyerPan: '301234567' });
    expect((await documentOf('invoices', orderId)).syncStatus).toBe('pending');
    release();
    const doc = await synced('invoices', orderId);
    expect(doc).toMatchObject({ syncStatus: 'synced', lastSyncReply: '200', syncAttempts: 1 });
    const [post] = postsFor(doc.number);
    expect(post!.problems).toEqual([]);
    expect(post!.path).toBe('/api/bill');
    expect(post!.body).toMatchObject({
      username: 'himal',
      password: 'secret-pass',
      seller_pan: '601234567',
      buyer_pan: '301234567',
      buyer_name: 'Everest Traders',
      fiscal_year: '2082.083',
      invoice_number: doc.number,
      invoice_date: '2082.11.17',
      total_sales: 1130,
      taxable_sales_vat: 1000,
      vat: 130,
      tax_exempted_sales: 0,
      isrealtime: true,
    });
  });

  it('a sales return goes to /api/billreturn with its invoice, number, date and reason', async () => {
    const orderId = await collected(500);
    await synced('invoices', orderId);
    const cancel = await c.http.call('POST', `/api/admin/orders/${orderId}/cancel`, c.admin.headers, {
      reason: 'Customer changed mind',
    });
    await c.adminSettled(cancel.json().data.requestId);
    const note = await synced('credit-notes', orderId);
    expect(note).toMatchObject({ syncStatus: 'synced' });
    const [post] = postsFor(note.number);
    expect(post!.problems).toEqual([]);
    expect(post!.path).toBe('/api/billreturn');
    expect(post!.body).toMatchObject({
      ref_invoice_number: note.referenceInvoiceNumber,
      credit_note_number: note.number,
      credit_note_date: '2082.11.17',
      reason_for_return: 'Customer changed mind',
      total_sales: 600,
    });
  });

  it('101 (already sent) counts as synced', async () => {
    cbms.replies = [{ status: 200, body: '101' }];
    const orderId = await collected(300);
    expect(await synced('invoices', orderId)).toMatchObject({
      syncStatus: 'synced',
      lastSyncReply: '101',
    });
  });

  it('102, 103 and 104 (also as HTTP 400 {"message":"104"}) are retried, not real time, until CBMS takes it', async () => {
    cbms.replies = [
      { status: 200, body: '102' },
      { status: 200, body: '103' },
      { status: 400, body: '{"message":"104"}' },
    ];
    const orderId = await collected(400);
    const doc = await synced('invoices', orderId);
    expect(doc).toMatchObject({ syncStatus: 'synced', lastSyncReply: '200', syncAttempts: 4 });
    expect(postsFor(doc.number).map((p) => p.body.isrealtime)).toEqual([true, false, false, false]);
    // Every attempt is in the activity log with its reply and effect; no admin acted.
    const log = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=invoice&entityId=${doc.id}&order=asc`,
      c.admin.headers,
    );
    expect(log.json().data.filter((e: { action: string }) => e.action === 'sync_attempt')).toMatchObject([
      {
        adminId: null,
        summary: `CBMS sync attempt 1 of tax invoice ${doc.number} (real time): reply 102, will be tried again`,
      },
      {
        adminId: null,
        summary: `CBMS sync attempt 2 of tax invoice ${doc.number}: reply 103, will be tried again`,
      },
      {
        adminId: null,
        summary: `CBMS sync attempt 3 of tax invoice ${doc.number}: reply 104, will be tried again`,
      },
      { adminId: null, summary: `CBMS sync attempt 4 of tax invoice ${doc.number}: reply 200, synced` },
    ]);
  });

  it('after 8 failed tries the document is failed with the last code; an admin resync sends it again', async () => {
    cbms.replies = Array.from({ length: 8 }, () => ({ status: 200, body: '103' }));
    const orderId = await collected(200);
    const doc = await synced('invoices', orderId);
    expect(doc).toMatchObject({ syncStatus: 'failed', lastSyncReply: '103', syncAttempts: 8 });
    expect(postsFor(doc.number)).toHaveLength(8);

    expectError(
      await c.http.call('POST', `/api/admin/invoices/${doc.id}/resync`, bystander.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    const res = await c.http.call('POST', `/api/admin/invoices/${doc.id}/resync`, syncer.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.syncStatus).toBe('pending');
    expect(await synced('invoices', orderId)).toMatchObject({ syncStatus: 'synced', syncAttempts: 9 });
    expect(postsFor(doc.number).at(-1)!.body.isrealtime).toBe(false);
    expectError(
      await c.http.call('POST', `/api/admin/invoices/${doc.id}/resync`, syncer.headers),
      409,
      'INVOICE_ALREADY_SYNCED',
    );
    const log = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=invoice&entityId=${doc.id}`,
      c.admin.headers,
    );
    const entries = log.json().data as Array<{ action: string; adminId: string | null; summary: string }>;
    expect(entries.filter((e) => e.action === 'resync')).toMatchObject([
      {
        adminId: syncer.userId,
        summary: `Sent tax invoice ${doc.number} to CBMS again (was failed)`,
      },
    ]);
    expect(entries.find((e) => e.summary.startsWith('CBMS sync attempt 8 '))).toMatchObject({
      adminId: null,
      summary: `CBMS sync attempt 8 of tax invoice ${doc.number}: reply 103, failed after 8 tries`,
    });
    expect(entries.find((e) => e.summary.startsWith('CBMS sync attempt 9 '))).toMatchObject({
      adminId: null,
      summary: `CBMS sync attempt 9 of tax invoice ${doc.number}: reply 200, synced`,
    });
  });

  it('100 (wrong credentials) stops at once and alerts every admin holding Invoices_SYNC', async () => {
    cbms.replies = [{ status: 200, body: '100' }];
    const orderId = await collected(250);
    const doc = await synced('invoices', orderId);
    expect(doc).toMatchObject({ syncStatus: 'failed', lastSyncReply: '100', syncAttempts: 1 });
    expect(postsFor(doc.number)).toHaveLength(1);
    const feed = await c.http.call('GET', '/api/admin/notifications', syncer.headers);
    expect(feed.json().data).toMatchObject([
      { type: 'CBMS_CREDENTIALS_REJECTED', data: { documentId: doc.id, number: doc.number } },
    ]);
    const other = await c.http.call('GET', '/api/admin/notifications', bystander.headers);
    expect(other.json().data).toEqual([]);
    const log = await c.http.call(
      'GET',
      `/api/admin/activity?entityType=invoice&entityId=${doc.id}`,
      c.admin.headers,
    );
    expect(log.json().data[0]).toMatchObject({
      adminId: null,
      action: 'sync_attempt',
      summary: `CBMS sync attempt 1 of tax invoice ${doc.number} (real time): reply 100, wrong credentials: failed, no more tries, admins alerted`,
    });
    const failed = await c.http.call('GET', '/api/admin/invoices?syncStatus=failed', syncer.headers);
    expect(failed.json().data.map((d: { id: number }) => d.id)).toContain(doc.id);
  });
});
