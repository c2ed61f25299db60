// The orders screens: an order found through the list's search and moved through fulfilment to
// delivered from its page, the list filtered by a status, and an owed refund recorded as given
// back.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, expectListsSettled, keepScreenshot, signIn } from './console';
import { placeCodOrder } from './orders-api';
import { adminGet, apiCall, collectedCodOrder } from './staff-api';

/** Opens the orders list from the menu (the pointer stays on the entry: its contrast is checked too). */
async function openOrdersFromMenu(page: Page) {
  await page.getByRole('link', { name: 'Orders', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
}

/** The buttons that move fulfilment a step ("Mark as …"): the page offers at most one. */
const advanceButtons = (page: Page) => page.getByRole('main').getByRole('button', { name: /^Mark as / });

test('an order found by its number is moved through fulfilment to delivered', async ({
  page,
  baseURL,
}, testInfo) => {
  const order = await placeCodOrder(baseURL ?? '');

  await signIn(page);
  await openOrdersFromMenu(page);
  await page.getByRole('searchbox', { name: 'Search' }).fill(order.orderNumber);
  await expect(page).toHaveURL(new RegExp(`search=${order.orderNumber}`));
  const table = page.getByRole('table', { name: 'Orders' });
  await expect(table.getByRole('row')).toHaveCount(2); // the header and this order
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText('Sita Shrestha');
  await expect(row).toContainText('Cash due');
  await expect(row).toContainText('Received');
  await row.getByRole('link', { name: order.orderNumber }).click();

  await expect(page.getByRole('heading', { name: `Order ${order.orderNumber}`, level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Items' })).toContainText('Silver Om Pendant');
  const timeline = page.getByRole('list', { name: 'Fulfilment timeline' });
  await expect(timeline.getByRole('listitem')).toHaveCount(5);

  const steps = [
    { button: 'Mark as ready', reached: 'Ready', remarks: 'Packed at the Thamel counter' },
    { button: 'Mark as picked up', reached: 'Picked up' },
    { button: 'Mark as on the way', reached: 'On the way', remarks: 'Rider Hari, Pathao' },
    { button: 'Mark as delivered', reached: 'Delivered' },
  ];
  for (const [index, step] of steps.entries()) {
    // Only the one allowed next step is offered.
    await expect(advanceButtons(page)).toHaveCount(1);
    await expect(advanceButtons(page)).toHaveText(step.button);
    await advanceButtons(page).click();
    const dialog = page.getByRole('dialog', { name: step.button });
    await expect(dialog).toBeVisible();
    if (step.remarks) await dialog.getByLabel('Remarks').fill(step.remarks);
    if (index === 0) await expectAccessible(page);
    await dialog.getByRole('button', { name: step.button }).click();
    // The API answers 202 and the page follows the request until the move is done.
    await expect(dialog).toBeHidden();
    await expect(timeline.locator('[aria-current="step"]')).toContainText(step.reached, { timeout: 15_000 });
  }

  // Delivered: nothing more to do, every step done, the remarks kept with their steps.
  await expect(advanceButtons(page)).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Order, payment and fulfilment status' })).toContainText(
    'Delivered',
  );
  for (const item of await timeline.getByRole('listitem').all()) await expect(item).toContainText('Done');
  await expect(timeline.getByRole('listitem').nth(4)).toContainText('Delivered');
  await expect(timeline).toContainText('Packed at the Thamel counter');
  await expect(timeline).toContainText('Rider Hari, Pathao');
  // A delivered order cannot be cancelled any more.
  await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);

  // The invoice comes through the session as a PDF download.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Invoice (PDF)' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);

  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'order-detail');
});

test('the orders list filtered by a status keeps the filter in the address', async ({ page }, testInfo) => {
  await signIn(page);
  await openOrdersFromMenu(page);
  const table = page.getByRole('table', { name: 'Orders' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText(/^Showing 1–\d+ of \d+$/)).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'orders-list');

  // The demo store has an order its customer cancelled.
  await page.getByLabel('Order status').selectOption({ label: 'Cancelled' });
  await expect(page).toHaveURL(/status=cancelled/);
  const rows = table.getByRole('row');
  // Until the filtered page arrives, the previous one stays on screen (marked busy).
  await expectListsSettled(page);
  await expect(rows.nth(1)).toBeVisible();
  await expect(rows.first().getByRole('columnheader', { name: 'Order status' })).toBeVisible();
  for (const row of (await rows.all()).slice(1)) {
    await expect(row.getByRole('cell').nth(5)).toHaveText('Cancelled');
  }

  // Into an order and Back: the list comes back filtered.
  await rows.nth(1).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Order ORD-/ })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Order, payment and fulfilment status' })).toContainText(
    'Cancelled',
  );
  await page.goBack();
  await expect(page.getByLabel('Order status')).toHaveValue('cancelled');
  await expectListsSettled(page);
  await expect(rows.nth(1).getByRole('cell').nth(5)).toHaveText('Cancelled');

  // A status no order has: the list says so.
  await page.getByLabel('Order status').selectOption({ label: 'Refund rejected' });
  await expect(page.getByText('No orders match these filters.')).toBeVisible();
  await expectAccessible(page);

  // In Nepali: the same list, its words and figures in the shop's language.
  await page.getByLabel('Order status').selectOption({ label: 'Any' });
  await page.getByLabel('Language').selectOption({ label: 'नेपाली' });
  await expect(page.getByRole('heading', { name: 'अर्डरहरू', level: 1 })).toBeVisible();
  const firstOrder = page.getByRole('table', { name: 'अर्डरहरू' }).getByRole('row').nth(1);
  await expect(firstOrder).toContainText('रु');
  await expect(firstOrder).toContainText('वि.सं.');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'orders-list-nepali');
});

interface RefundRow {
  status: string;
  settlement: { method: string; reference: string | null; remarks: string } | null;
}

test('an owed refund is recorded as given back from the order page (issue 27, item 2)', async ({
  page,
  request,
}, testInfo) => {
  // COD cash collected, then the shop cancels the order: the money is owed back.
  const { orderId, orderNumber, token } = await collectedCodOrder(request);
  await apiCall(request, 'POST', `/api/admin/orders/${orderId}/cancel`, token, {
    reason: 'Damaged in the store',
  });
  const refunds = async () =>
    (await adminGet<{ refunds: RefundRow[] }>(request, token, `/api/admin/orders/${orderId}`)).refunds;
  // The cancellation runs as a job: asked until its refund is recorded.
  await expect.poll(async () => (await refunds()).map((r) => r.status)).toEqual(['pending']);

  await signIn(page);
  await page.goto(`/admin/orders/${orderId}`);
  await expect(page.getByRole('heading', { name: `Order ${orderNumber}`, level: 1 })).toBeVisible();
  await expect(page.getByText('Owed', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Mark as given back' }).click();
  const dialog = page.getByRole('dialog', { name: `Money given back for order ${orderNumber}` });
  await dialog.getByRole('combobox', { name: 'How it was given back' }).click();
  await page.getByRole('option', { name: 'Bank transfer' }).click();
  await dialog.getByLabel('Reference').fill('NIC-ASIA-88231');
  await dialog.getByLabel('Remarks for the customer and the records').fill('Sent to the account on file');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Mark as given back' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(/Given back by Bank transfer · NIC-ASIA-88231/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as given back' })).toHaveCount(0);
  expect((await refunds())[0]!.settlement).toMatchObject({
    method: 'bank_transfer',
    reference: 'NIC-ASIA-88231',
    remarks: 'Sent to the account on file',
  });
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'refund-given-back');
});
