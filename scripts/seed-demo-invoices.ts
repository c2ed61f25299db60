// The demo store's tax documents (Nepal): the paid demo orders already carry their tax invoices
// (issued when they were paid); this adds a business customer's COD order with a buyer PAN,
// collected and then cancelled by the back office, so there is a credit note against it, and
// answers what the demo holds.
import type { ApiApp } from '../src/platform/module';

export interface DemoTaxDocuments {
  invoices: string[];
  creditNotes: string[];
}

export async function seedDemoInvoices(
  app: ApiApp,
  people: { admin: { email: string; password: string }; customer: { email: string; password: string } },
  /** A physical product in stock. */
  productId: number,
  returnUrl: string,
): Promise<DemoTaxDocuments> {
  const call = async (method: string, url: string, token?: string, payload?: unknown, expect = 200) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (res.statusCode !== expect)
      throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 400)}`);
    return res.json().data;
  };
  const admin = (await call('POST', '/api/auth/login/email', undefined, people.admin)).tokens
    .accessToken as string;
  const me = (
    await call('POST', '/api/mobile/auth/login/email', undefined, {
      ...people.customer,
      deviceInfo: { deviceId: 'seed-demo', deviceType: 'web', deviceName: 'seed:demo' },
    })
  ).tokens.accessToken as string;

  const order = await call('POST', '/api/orders/buy-now', me, {
    productId,
    gateway: 'cod',
    returnUrl,
    buyerName: 'Himalayan Handicrafts Pvt. Ltd.',
    buyerPan: '609876543',
  });
  await call('PUT', `/api/admin/orders/${order.orderId}/cod-collect`, admin, { remarks: 'Cash at the door' });
  await call(
    'POST',
    `/api/admin/orders/${order.orderId}/cancel`,
    admin,
    { reason: 'Damaged in transit' },
    202,
  );
  // The cancel is an async command: wait for its credit note.
  let creditNotes: string[] = [];
  for (let i = 0; i < 200 && creditNotes.length === 0; i++) {
    const notes = await call('GET', '/api/admin/credit-notes?pagination=false', admin);
    creditNotes = notes.map((d: { number: string }) => d.number);
    if (creditNotes.length === 0) await new Promise((r) => setTimeout(r, 25));
  }
  const invoices = await call('GET', '/api/admin/invoices?pagination=false&order=asc', admin);
  return { invoices: invoices.map((d: { number: string }) => d.number), creditNotes };
}
