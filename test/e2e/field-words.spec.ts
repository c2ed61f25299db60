// Issue 27, items 1 and 4: money and quantity inputs take whole numbers only and say so (99.50
// is refused, never read as 9,950), and the API's field errors reach staff as words in their
// language with the field's own label, from the stable `code` of each `details` entry.
import { expect, type Page, test } from '@playwright/test';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './console';

async function adminToken(baseURL: string | undefined): Promise<string> {
  const login = await fetch(`${baseURL}/api/auth/login/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_ADMIN),
  });
  const { data } = (await login.json()) as { data: { tokens: { accessToken: string } } };
  return data.tokens.accessToken;
}

async function productsTitled(baseURL: string | undefined, token: string, title: string) {
  const res = await fetch(`${baseURL}/api/admin/products?search=${encodeURIComponent(title)}&limit=50`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await res.json()) as { data: { title: string; mrp: number }[] };
  return data.filter((product) => product.title === title);
}

async function openNewProduct(page: Page) {
  await page.getByRole('link', { name: /^(Products|सामानहरू)$/ }).click();
  await page.getByRole('link', { name: /^(New product|नयाँ सामान)$/ }).click();
}

test('a decimal point in a money or quantity input is refused, never read as a bigger whole number', async ({
  page,
  baseURL,
}, testInfo) => {
  const title = `Tingsha pair ${Date.now().toString(36)}`;
  await signIn(page);
  await openNewProduct(page);
  await expect(page.getByRole('heading', { name: 'New product', level: 1 })).toBeVisible();
  await page.getByLabel('Product name').fill(title);
  const mrp = page.getByLabel('MRP (maximum retail price)');
  await mrp.fill('99.50');
  // What was typed stays as typed, with the refusal under it.
  await expect(mrp).toHaveValue('99.50');
  await expect(mrp).toHaveAttribute('aria-invalid', 'true');
  await expect(mrp).toHaveAccessibleDescription(/Whole numbers only: remove the decimal point/);
  await mrp.blur();
  await expect(mrp).toHaveValue('99.50');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'mrp-decimal-refused');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page).toHaveURL(/\/catalog\/products\/new$/);
  await expect(mrp).toHaveAccessibleDescription(/Whole numbers only/);
  const token = await adminToken(baseURL);
  expect(await productsTitled(baseURL, token, title)).toEqual([]);

  // Letters are refused by name; fixed, the price is saved as typed and grouped when left.
  await mrp.fill('99a');
  await expect(mrp).toHaveAccessibleDescription(/^Digits only: remove “a”\./);
  await mrp.fill('9950');
  await mrp.blur();
  await expect(mrp).toHaveValue('9,950');
  await expect(mrp).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  expect((await productsTitled(baseURL, token, title)).map((p) => p.mrp)).toEqual([9950]);

  // Stock units: 2.5 is refused too; a minus sign is taken only for a change, not a count.
  await page.getByRole('tab', { name: 'Stock' }).click();
  const units = page.getByLabel('Units', { exact: true });
  await units.fill('2.5');
  await expect(units).toHaveAccessibleDescription(/Whole numbers only/);
  await page.getByLabel('Reason').fill('Counted twice');
  await page.getByRole('button', { name: 'Save the change' }).click();
  await expect(page.getByText('No stock changes yet.')).toBeVisible();
  await units.fill('-2');
  await expect(units).not.toHaveAttribute('aria-invalid', 'true');

  // A district's shipping fee: 150.75 is refused, nothing is saved.
  await page.getByRole('link', { name: 'Shipping districts' }).click();
  await page.getByLabel('Search districts').fill('Mugu');
  await page.getByRole('row').filter({ hasText: 'Mugu' }).getByRole('button', { name: 'Edit Mugu' }).click();
  const dialog = page.getByRole('dialog');
  const fee = dialog.getByLabel('Shipping fee');
  await fee.fill('150.75');
  await expect(fee).toHaveAccessibleDescription(/Whole numbers only/);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeVisible();
  const districts = await fetch(`${baseURL}/api/admin/shipping-districts?search=Mugu`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const mugu = ((await districts.json()) as { data: { name: string; shippingFee: number }[] }).data.find(
    (d) => d.name === 'Mugu',
  );
  expect(mugu?.shippingFee).not.toBe(15075);
});

test('in Nepali, the API’s field errors read in Nepali with the field’s label', async ({
  page,
}, testInfo) => {
  await signIn(page);
  await page.getByLabel('Language').selectOption('ne');
  await openNewProduct(page);
  const name = page.getByLabel('सामानको नाम');
  const slug = page.getByLabel('वेब ठेगाना (स्लग)');
  const mrp = page.getByLabel('MRP (अधिकतम खुद्रा मूल्य)');
  const sp = page.getByLabel('बिक्री मूल्य');
  // The browser's own check, worded from the same codes.
  await page.getByRole('button', { name: 'सामान बनाउनुहोस्' }).click();
  await expect(name).toHaveAccessibleDescription(/^सामानको नाम खाली हुनु हुँदैन।/);
  await expect(mrp).toHaveAccessibleDescription(/^MRP \(अधिकतम खुद्रा मूल्य\) आवश्यक छ।/);
  await name.fill('पित्तलको बटुको');
  await mrp.fill('500');
  await sp.fill('700');
  await page.getByRole('button', { name: 'सामान बनाउनुहोस्' }).click();
  await expect(sp).toHaveAccessibleDescription(/^बिक्री मूल्य MRP भन्दा बढी हुनु हुँदैन।/);
  // A rule only the API knows (the slug's format) comes back as a code and is worded here.
  await sp.fill('450');
  await slug.fill('Not A Slug!');
  const answered = page.waitForResponse(
    (response) => response.url().endsWith('/api/admin/products') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'सामान बनाउनुहोस्' }).click();
  const response = await answered;
  expect(response.status()).toBe(400);
  const details = ((await response.json()) as { details: { path: string; code: string }[] }).details;
  expect(details).toContainEqual(expect.objectContaining({ path: 'slug', code: 'invalid_format' }));
  await expect(slug).toHaveAccessibleDescription(/^वेब ठेगाना \(स्लग\) सही ढाँचामा छैन।/);
  await expect(page.getByText(/Too small|Invalid input|expected|must not be above/)).toHaveCount(0);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'product-errors-nepali');
});
