// The dashboard's revenue is what the shop keeps: a COD order whose cash was collected and which
// the shop then cancelled owes its money back, and the revenue figures say so (issue 27, item 3).
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './console';
import { stringsOf, useLanguage } from './staff-api';

const DEMO_CUSTOMER = { email: 'customer@pasal.demo', password: 'pasal-demo-customer' };
// An entry of PAYMENT_RETURN_URL_ALLOWLIST's default (the development storefront).
const RETURN_URL = 'http://localhost:3001/orders';

async function call<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  token?: string,
  data?: unknown,
) {
  const answer = await request.fetch(path, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    data,
  });
  expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
  return (await answer.json()).data as T;
}

/** A COD order of the demo customer placed now, its cash collected, then cancelled by the shop. */
async function cancelledAfterCashCollected(request: APIRequestContext) {
  const admin = (
    await call<{ tokens: { accessToken: string } }>(
      request,
      'POST',
      '/api/auth/login/email',
      undefined,
      DEMO_ADMIN,
    )
  ).tokens.accessToken;
  const customer = (
    await call<{ tokens: { accessToken: string } }>(
      request,
      'POST',
      '/api/mobile/auth/login/email',
      undefined,
      {
        ...DEMO_CUSTOMER,
        deviceInfo: { deviceId: 'e2e-dashboard', deviceType: 'web', deviceName: 'dashboard.spec' },
      },
    )
  ).tokens.accessToken;
  const products = await call<{ id: number; title: string }[]>(
    request,
    'GET',
    `/api/products?search=${encodeURIComponent('Silver Om Pendant')}`,
  );
  const pendant = products.find((p) => p.title === 'Silver Om Pendant');
  if (!pendant) throw new Error('the demo store has no Silver Om Pendant');
  const placed = await call<{ orderId: number }>(request, 'POST', '/api/orders/buy-now', customer, {
    productId: pendant.id,
    gateway: 'cod',
    returnUrl: RETURN_URL,
  });
  await call(request, 'PUT', `/api/admin/orders/${placed.orderId}/cod-collect`, admin, {
    remarks: 'Cash at the counter',
  });
  const asked = await call<{ requestId: string }>(
    request,
    'POST',
    `/api/admin/orders/${placed.orderId}/cancel`,
    admin,
    {
      reason: 'The last one was damaged',
    },
  );
  await expect
    .poll(
      async () =>
        (
          await call<{ status: string }>(
            request,
            'GET',
            `/api/admin/orders/requests/${asked.requestId}`,
            admin,
          )
        ).status,
    )
    .toBe('completed');
}

const amount = (text: string) => Number(text.replace(/[^\d]/g, ''));

/** The figure card under `label`: its value, its sales and refunds line, as numbers and words. */
async function revenueFigure(page: Page, label: string) {
  const card = page.getByText(label, { exact: true }).locator('..');
  await expect(card).toBeVisible();
  const [, value, hint] = await card.locator('p').allInnerTexts();
  return { value: value ?? '', hint: hint ?? '' };
}

for (const language of ['en', 'ne'] as const) {
  test(`revenue is shown after refunds, with sales and refunds beside it (${language})`, async ({
    page,
    request,
  }, testInfo) => {
    const { area } = stringsOf('dashboard', language);
    await cancelledAfterCashCollected(request);
    await signIn(page);
    await useLanguage(page, language);
    const currency = language === 'ne' ? 'रु' : 'NPR';
    // "Sales NPR 7,200 − refunds NPR 3,600 (NPR 3,600 still to pay back)": the figure is the difference.
    const split = new RegExp(
      `^${area.figures.split.replace('{{sales}}', `(${currency} [\\d,]+)`).replace('{{refunds}}', `(${currency} [\\d,]+)`)}`,
    );
    for (const label of [area.figures.revenueToday, area.figures.revenue30]) {
      const { value, hint } = await revenueFigure(page, label);
      const [, sales, refunds] = hint.match(split) ?? [];
      expect(sales, hint).toBeDefined();
      expect(amount(refunds!)).toBeGreaterThan(0);
      expect(amount(value)).toBe(amount(sales!) - amount(refunds!));
      expect(value.startsWith(currency)).toBe(true);
      // Not yet given back: the card says so.
      expect(hint).toContain(area.figures.owed.split('{{owed}}')[1].trim().replace(/\)$/, ''));
    }
    await expect(page.getByRole('region', { name: area.chart.title })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `dashboard-refunds-${language}`);
  });
}
