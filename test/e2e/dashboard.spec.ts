// The dashboard's revenue is what the shop keeps: a COD order whose cash was collected and which
// the shop then cancelled owes its money back, and the revenue figures say so (issue 27, item 3).
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible, keepScreenshot, signIn } from './console';
import { apiCall, collectedCodOrder, stringsOf, useLanguage } from './staff-api';

/** A COD order placed now, its cash collected, then cancelled by the shop: its money is owed back. */
async function cancelledAfterCashCollected(request: APIRequestContext) {
  const { orderId, token } = await collectedCodOrder(request);
  const asked = await apiCall<{ requestId: string }>(
    request,
    'POST',
    `/api/admin/orders/${orderId}/cancel`,
    token,
    {
      reason: 'The last one was damaged',
    },
  );
  await expect
    .poll(
      async () =>
        (
          await apiCall<{ status: string }>(
            request,
            'GET',
            `/api/admin/orders/requests/${asked.requestId}`,
            token,
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
