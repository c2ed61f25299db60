// Tax documents (TAX_INVOICES_ENABLED, as the e2e store runs): a COD order's cash is collected
// (a tax invoice), the order page links to it, it is printed (the original, then copies as the
// API counts), a credit note is issued against it with a reason and appears in the sales return
// register; and, in Nepali, the invoices list and the sales register with its CSV download.
import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  chooseLanguage,
  expectAccessible,
  expectNoSidewaysScroll,
  keepScreenshot,
  MENU_BUTTON,
  PHONE,
  signIn,
} from './console';
import { adminToken, apiCall, collectedCodOrder, stringsOf } from './staff-api';

/** A COD order of the demo customer bought by a company (PAN), its cash collected: paid, so invoiced. */
async function paidCodOrder(request: APIRequestContext) {
  const order = await collectedCodOrder(request, {
    buyerName: 'Kathmandu Crafts Pvt. Ltd.',
    buyerPan: '612345678',
  });
  return { id: order.orderId, orderNumber: order.orderNumber, admin: order.token };
}

interface Doc {
  id: number;
  number: string;
  fiscalYear: string;
  reason: string | null;
  printCount: number;
  referenceInvoiceNumber: string | null;
}

test('an invoice linked from its order is printed and a credit note issued with its reason', async ({
  page,
  request,
}, testInfo) => {
  const order = await paidCodOrder(request);
  const admin = order.admin;
  const [invoice] = await apiCall<Doc[]>(request, 'GET', `/api/admin/invoices?orderId=${order.id}`, admin);
  expect(invoice).toBeDefined();

  await signIn(page);
  // Through the orders list (a reload would end the session: tokens live in memory only).
  await page.getByRole('link', { name: 'Orders', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(order.orderNumber);
  await page.getByRole('link', { name: order.orderNumber }).click();
  await expect(page.getByRole('heading', { name: `Order ${order.orderNumber}`, level: 1 })).toBeVisible();
  await page.getByRole('link', { name: `Tax invoice ${invoice!.number}` }).click();
  await expect(page.getByRole('heading', { name: `Tax invoice ${invoice!.number}`, level: 1 })).toBeVisible();
  const document = page.getByRole('region', { name: 'Document' });
  await expect(document).toContainText('Kathmandu Crafts Pvt. Ltd.');
  await expect(document).toContainText('612345678');
  await expect(page.getByRole('region', { name: 'Lines and amounts' })).toContainText('Silver Om Pendant');

  // Print: the first is the original, the next a numbered copy, as the API counts them.
  const print = page.getByRole('region', { name: 'Print' });
  await expect(print).toContainText('Not printed yet');
  const popup = page.waitForEvent('popup');
  await print.getByRole('button', { name: 'Print the original' }).click();
  await (await popup).close();
  await expect(print.getByRole('button', { name: 'Print Copy of Original – 1' })).toBeVisible();
  expect((await apiCall<Doc>(request, 'GET', `/api/admin/invoices/${invoice!.id}`, admin)).printCount).toBe(
    1,
  );

  // CBMS is not configured on this store: the document says so, and no retry is offered.
  const sync = page.getByRole('region', { name: 'CBMS (IRD)' });
  await expect(sync).toContainText('Not sent');
  await expect(sync.getByRole('button', { name: 'Retry now' })).toHaveCount(0);

  // The return: the order is paid and its goods have not left, so the whole of it is returned.
  const returns = page.getByRole('region', { name: 'Return (credit note)' });
  await returns.getByRole('button', { name: 'Issue a credit note' }).click();
  const dialog = page.getByRole('dialog', { name: `Credit note against ${invoice!.number}` });
  const reason = `Wrong size, returned at the shop (${testInfo.workerIndex}-${Date.now()})`;
  await dialog.getByLabel('Reason for the return').fill(reason);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Issue the credit note' }).click();
  await expect(dialog).toBeHidden();
  await expect(returns.getByText('Credit note issued:')).toBeVisible({ timeout: 20_000 });
  await expect(returns).toContainText(reason);

  // Through the API: the credit note is there, against this invoice, with the reason…
  const [creditNote] = await apiCall<Doc[]>(
    request,
    'GET',
    `/api/admin/credit-notes?orderId=${order.id}`,
    admin,
  );
  expect(creditNote).toMatchObject({ referenceInvoiceNumber: invoice!.number, reason });
  // …and the sales return register of the fiscal year lists it.
  const csv = await request.get(
    `/api/admin/tax-reports/sales-return-register?fiscalYear=${encodeURIComponent(creditNote!.fiscalYear)}`,
    { headers: { authorization: `Bearer ${admin}` } },
  );
  expect(csv.ok()).toBe(true);
  expect(await csv.text()).toContain(`${creditNote!.fiscalYear},${creditNote!.number},${invoice!.number},`);

  // The screen's register shows it too.
  await returns.getByRole('link', { name: creditNote!.number }).click();
  await expect(
    page.getByRole('heading', { name: `Credit note ${creditNote!.number}`, level: 1 }),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Tax registers' }).click();
  await page.getByLabel('Register', { exact: true }).selectOption({ label: 'Sales return register' });
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: creditNote!.number })).toContainText(invoice!.number);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'sales-return-register');
});

test('in Nepali: the tax invoices list and the sales register, downloaded as the API names it', async ({
  page,
  request,
}, testInfo) => {
  const admin = await adminToken(request);
  await signIn(page);
  await page.getByLabel('Language').selectOption({ label: 'नेपाली' });
  await page.getByRole('link', { name: 'कर बीजकहरू' }).click();
  await expect(page.getByRole('heading', { name: 'कर बीजकहरू', level: 1 })).toBeVisible();
  const invoices = page.getByRole('table', { name: 'कर बीजकहरू, नयाँ पहिले' });
  await expect(invoices.getByRole('row').nth(1)).toBeVisible();
  await expect(invoices.getByRole('columnheader', { name: 'मू.अ.कर' })).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'invoices-ne');

  // The register of the current fiscal year: the table, then the CSV under the API's name.
  await page.getByRole('link', { name: 'कर खाताहरू' }).click();
  await expect(page.getByRole('heading', { name: 'कर खाताहरू', level: 1 })).toBeVisible();
  const fiscalYear = await page.getByLabel('आर्थिक वर्ष', { exact: true }).inputValue();
  const register = page.getByRole('table');
  await expect(register.getByRole('columnheader', { name: 'खरिदकर्ताको प्यान' })).toBeVisible();
  const shown = await register.locator('tbody tr').count();
  expect(shown).toBeGreaterThan(0);
  await expectAccessible(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV डाउनलोड गर्नुहोस्' }).click();
  expect((await download).suggestedFilename()).toBe(`sales-register-${fiscalYear.replace('/', '-')}.csv`);

  // The API's register has the rows the screen shows.
  const csv = await request.get(
    `/api/admin/tax-reports/sales-register?fiscalYear=${encodeURIComponent(fiscalYear)}`,
    {
      headers: { authorization: `Bearer ${admin}` },
    },
  );
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines.length - 1).toBeGreaterThanOrEqual(shown);
});

test('on a 390 px phone the invoices and credit notes lists scroll only down, in English and Nepali', async ({
  page,
  request,
}, testInfo) => {
  // An invoice, and a credit note against it (the paid order cancelled before it left), so both
  // lists have a card whose date carries the time issued in AD and BS, the longest line of one.
  const order = await paidCodOrder(request);
  await apiCall(request, 'POST', `/api/admin/orders/${order.id}/cancel`, order.admin, {
    reason: 'Changed her mind at the shop',
  });
  await expect
    .poll(
      async () =>
        (await apiCall<Doc[]>(request, 'GET', `/api/admin/credit-notes?orderId=${order.id}`, order.admin))
          .length,
      { timeout: 20_000 },
    )
    .toBe(1);

  await page.setViewportSize(PHONE);
  await signIn(page);
  for (const language of ['en', 'ne'] as const) {
    const { area: s, common } = stringsOf('tax', language);
    await chooseLanguage(page, language);
    for (const [menu, caption, screenshot] of [
      [s.menu.invoices, s.list.caption.invoice, 'invoices'],
      [s.menu.creditNotes, s.list.caption.creditNote, 'credit-notes'],
    ] as const) {
      await page.getByRole('banner').getByRole('button', { name: MENU_BUTTON }).click();
      await page
        .getByRole('navigation', { name: common.layout.menu })
        .getByRole('link', { name: menu, exact: true })
        .click();
      await expect(page.getByRole('heading', { name: menu, level: 1 })).toBeVisible();
      // On a phone the list is cards, under the list's caption.
      await expect(page.getByText(caption, { exact: true })).toBeVisible();
      await expect(page.getByRole('link', { name: /^(INV|CN)-/ }).first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await keepScreenshot(page, testInfo, `${screenshot}-${language}-390`);
    }
  }
});
