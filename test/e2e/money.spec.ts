// Money (issue 29), in English and Nepali: a paid order's payment in the payments list, found
// with the gateway filter; a refund the customer asked for, approved from the refunds queue
// (checked through the API); sales by gateway showing the order's gateway, with its CSV; and
// the three money screens on a phone. Screenshots in Nepali for the issue (E2E_SHOTS_DIR).
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, expectListsSettled, expectNoSidewaysScroll, PHONE, signIn } from './console';
import { adminToken, api, placePaidOnlineOrder } from './orders-api';
import { shot, stringsOf, useLanguage } from './staff-api';

/** Follows a main-menu link (on a phone the menu opens first). */
async function openMenuEntry(page: Page, name: string) {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
}

for (const language of ['en', 'ne'] as const) {
  const { area: s } = stringsOf('money', language);
  const { area: orders } = stringsOf('orders', language);
  const { area: reports } = stringsOf('reports', language);

  test(`a paid order's payment is in the payments list, found by its gateway (${language})`, async ({
    page,
    baseURL,
  }) => {
    const order = await placePaidOnlineOrder(baseURL!);
    await signIn(page);
    await useLanguage(page, language);
    await openMenuEntry(page, s.menu.payments);
    await expect(page.getByRole('heading', { name: s.payments.title, level: 1 })).toBeVisible();
    await page.getByLabel(s.payments.columns.gateway, { exact: true }).selectOption('gateway_card');
    await expect(page).toHaveURL(/gateway=gateway_card/);
    await page.getByLabel(s.filters.search, { exact: true }).fill(order.orderNumber);
    await expect(page).toHaveURL(new RegExp(`search=${order.orderNumber}`));
    await expectListsSettled(page);
    const row = page.getByRole('row').filter({ hasText: order.orderNumber });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(orders.gateway.gateway_card);
    await expect(row).toContainText(s.paymentStatus.completed);
    await expect(row.getByRole('link', { name: order.orderNumber })).toHaveAttribute(
      'href',
      `/admin/orders/${order.id}`,
    );
    // Another gateway's filter leaves it out.
    await page.getByLabel(s.payments.columns.gateway, { exact: true }).selectOption('gateway_bank');
    await expect(page.getByText(s.payments.noMatch)).toBeVisible();
    await page.getByLabel(s.payments.columns.gateway, { exact: true }).selectOption('gateway_card');
    await expect(row).toHaveCount(1);
    await expectAccessible(page);
    if (language === 'ne') await shot(page, 'payments-ne');
  });

  test(`a requested refund is approved from the refunds queue (${language})`, async ({ page, baseURL }) => {
    const order = await placePaidOnlineOrder(baseURL!);
    await api(baseURL!, 'POST', `/api/orders/${order.id}/request-refund`, order.customerToken, {
      reason: 'Wrong size',
    });
    await signIn(page);
    await useLanguage(page, language);
    await openMenuEntry(page, s.menu.refunds);
    await expect(page.getByRole('heading', { name: s.refunds.title, level: 1 })).toBeVisible();
    // The state choice (a segmented control: its radios are hidden behind their labels).
    const show = (state: string) => page.getByRole('search').getByText(state, { exact: true }).click();
    await show(s.refundState.to_decide);
    await expect(page).toHaveURL(/state=to_decide/);
    await page.getByLabel(s.filters.search, { exact: true }).fill(order.orderNumber);
    await expectListsSettled(page);
    const row = page.getByRole('row').filter({ hasText: order.orderNumber });
    await expect(row).toContainText(s.refundState.to_decide);
    await expect(row).toContainText('Wrong size');
    await expectAccessible(page);
    if (language === 'ne') await shot(page, 'refunds-ne');

    // Every state, so the row stays in view as it moves on.
    await show(s.refundState.all);
    await expectListsSettled(page);
    await row.getByRole('button', { name: orders.refunds.decide }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(orders.refunds.remarks).fill('Returned unopened');
    await dialog.getByRole('button', { name: orders.refunds.approve }).click();
    await expect(row).toContainText(s.refundState.owed, { timeout: 30_000 });
    await expect(row.getByRole('button', { name: orders.refunds.settle })).toBeVisible();

    const token = await adminToken(baseURL!);
    const detail = await api<{ orderStatus: string; refunds: { status: string; remarks: string }[] }>(
      baseURL!,
      'GET',
      `/api/admin/orders/${order.id}`,
      token,
    );
    expect(detail.orderStatus).toBe('refund_approved');
    expect(detail.refunds).toEqual([
      expect.objectContaining({ status: 'approved', remarks: 'Returned unopened' }),
    ]);
  });

  test(`sales by gateway show the paid order's gateway, and the CSV has its header (${language})`, async ({
    page,
    baseURL,
  }) => {
    await placePaidOnlineOrder(baseURL!);
    await signIn(page);
    await useLanguage(page, language);
    await openMenuEntry(page, reports.menu.sales);
    await page.getByLabel(reports.sales.range, { exact: true }).selectOption('7d');
    const byGateway = page.getByRole('region', { name: reports.sales.byGateway });
    const card = byGateway.getByRole('row').filter({ hasText: orders.gateway.gateway_card });
    await expect(card.first()).toBeVisible();
    const download = page.waitForEvent('download');
    await byGateway.getByRole('button', { name: reports.actions.csvGateway }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('sales-by-gateway-7d.csv');
    const csv = readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe(
      'Gateway,Orders,Paid orders,Gross sales (NPR),Refunds (NPR),Net sales (NPR)',
    );
    expect(csv).toContain('gateway_card,');

    const byProduct = page.getByRole('region', { name: reports.sales.byProduct });
    await expect(byProduct.getByRole('row').filter({ hasText: 'Silver Om Pendant' })).toBeVisible();
    const products = page.waitForEvent('download');
    await byProduct.getByRole('button', { name: reports.actions.csvProduct }).click();
    const productCsv = readFileSync((await (await products).path())!, 'utf8').replace(/^\uFEFF/, '');
    expect(productCsv.split('\r\n')[0]).toBe('Product ID,Product,Units,Orders,Sales (NPR)');
    await expectAccessible(page);
    if (language === 'ne') {
      // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
      await page.evaluate('window.scrollTo(0, 0)');
      await shot(page, 'sales-by-gateway-and-product-ne');
    }
  });

  test(`the money screens fit a phone (${language})`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signIn(page);
    await useLanguage(page, language);
    for (const [path, title] of [
      ['/admin/money/payments', s.payments.title],
      ['/admin/money/refunds', s.refunds.title],
      ['/admin/money/late-refunds', s.late.title],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expectListsSettled(page);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
    }
  });
}
