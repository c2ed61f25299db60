// No provider is called while Pasal holds a transaction open (docs/architecture.md, "No
// provider call inside a transaction"): Khalti is played by its local fake behind a small
// proxy that, while the call is in flight, asks PostgreSQL whether any backend of Pasal's
// database sits `idle in transaction` (a transaction waiting on us, e.g. holding the stock row
// locks of a checkout). PostgreSQL only: the embedded database has a single connection.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeKhalti, startFakeKhalti } from '../../helpers/fake-khalti';
import { type FakeServer, sendJson, startFakeServer } from '../../helpers/fake-provider';
import { servicesTier } from '../../helpers/services';
import { type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';

const KHALTI_KEY = 'khalti-secret-of-the-transaction-test';

describe.skipIf(!servicesTier)('checkout asks the payment provider with no transaction open', () => {
  let c: OrdersTestApp;
  let khalti: FakeKhalti;
  let proxy: FakeServer;
  /** For each provider call: the backends of Pasal's database idle in a transaction meanwhile. */
  const seen: Array<{ path: string; idleInTransaction: number }> = [];

  async function idleInTransaction(): Promise<number> {
    const result = await c.db.execute(sql`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and state in ('idle in transaction', 'idle in transaction (aborted)')`);
    return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
  }

  beforeAll(async () => {
    khalti = await startFakeKhalti(KHALTI_KEY);
    proxy = await startFakeServer((req, res) => {
      void (async () => {
        // A transaction waiting on this call shows as idle in transaction for as long as it waits.
        await new Promise((r) => setTimeout(r, 150));
        seen.push({ path: req.path, idleInTransaction: await idleInTransaction() });
        const answer = await fetch(`${khalti.origin}${req.path}`, {
          method: req.method,
          headers: { authorization: String(req.headers.authorization), 'content-type': 'application/json' },
          body: req.method === 'GET' ? undefined : req.body,
        });
        const text = await answer.text();
        sendJson(res, answer.status, text ? JSON.parse(text) : {});
      })().catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    c = await ordersTestApp({
      schedules: false,
      env: {
        PAYMENT_RETURN_URL_ALLOWLIST: RETURN_URL,
        PUBLIC_BASE_URL: 'http://api.test',
        PUBLIC_WEB_URL: 'https://shop.example',
        PAYMENT_GATEWAY_WALLET_B: 'khalti',
        KHALTI_SECRET_KEY: KHALTI_KEY,
        KHALTI_BASE_URL: `${proxy.origin}/api/v2`,
        PAYMENT_PROVIDER_TIMEOUT_MS: '5000',
      },
    });
  });
  afterAll(async () => {
    await c?.t.close();
    await proxy?.close();
    await khalti?.close();
  });

  it('an accepted and a refused initiation: nothing of Pasal waits in a transaction meanwhile', async () => {
    expect(c.t.platform.database.driver).toBe('postgres');
    const me = await c.customer();
    const p = await c.product({ onHand: 3, mrp: 1500 });
    await c.cartWith(me, [{ productId: p }]);
    const res = await c.checkout(me, 'gateway_wallet_b');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.redirectUrl).toContain('/pay/');

    // Khalti down: 502, and the reservation taken back without a provider call inside it.
    const other = await c.customer();
    await c.cartWith(other, [{ productId: p }]);
    khalti.mode = 'error';
    try {
      const refused = await c.checkout(other, 'gateway_wallet_b');
      expect(refused.statusCode, refused.body).toBe(502);
      expect(refused.json().errorCode).toBe('PAYMENT_GATEWAY_UNAVAILABLE');
    } finally {
      khalti.mode = 'up';
    }

    const initiations = seen.filter((s) => s.path === '/api/v2/epayment/initiate/');
    expect(initiations.length).toBeGreaterThanOrEqual(2);
    expect(initiations.filter((s) => s.idleInTransaction > 0)).toEqual([]);
  });
});
