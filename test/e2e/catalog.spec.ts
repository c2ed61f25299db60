// The catalog screens: a product made entirely in the console (with an image uploaded through
// the uploads API) and found again in the list, and the API's validation shown under the fields.
import { deflateSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, expectAccessible, expectListsSettled, keepScreenshot, signIn } from './console';

test('create a product with an image and find it in the list', async ({ page }, testInfo) => {
  const title = `Copper singing bowl ${Date.now().toString(36)}`;
  const alt = `${title} on a red cloth`;
  await signIn(page);

  await page.getByRole('link', { name: 'Products' }).click();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'New product' }).click();
  await expect(page.getByRole('heading', { name: 'New product', level: 1 })).toBeVisible();

  await page.getByLabel('Product name').fill(title);
  await page.getByLabel('MRP (maximum retail price)').fill('125000');
  await page.getByLabel('Selling price').fill('115000');
  // Lakh grouping as staff type it.
  await expect(page.getByLabel('MRP (maximum retail price)')).toHaveValue('1,25,000');
  await page.getByRole('combobox', { name: 'Category' }).click();
  await page.getByRole('option', { name: 'Singing Bowls' }).click();

  // Mantine's file picker (a button that opens the browser's file chooser).
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Add images' }).click();
  await (await chooser).setFiles({ name: 'bowl.png', mimeType: 'image/png', buffer: bowlPng() });
  // The upload answers the stored key and a URL; the form shows the image from it.
  const preview = page.getByRole('img', { name: `Image 1 of ${title}` });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate(naturalWidth)).toBeGreaterThan(0);
  await page.getByLabel('Description of image 1 (alt text)').fill(alt);
  await page.getByLabel('Publish now (otherwise it is saved as a draft)').check();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'product-form');

  await page.getByRole('button', { name: 'Create product' }).click();
  // The new product's own screen, at its id.
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/catalog\/products\/\d+$/);
  await expect(page.getByText('Published', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Products' }).click();
  await page.getByLabel('Search products').fill(title);
  await expect(page).toHaveURL(/search=/);
  await expectListsSettled(page);
  const table = page.getByRole('table', { name: 'Products' });
  // The search also finds products like it (the "Singing Bowls" category, close titles); the
  // best match comes first.
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText(title);
  await expect(row.getByRole('link', { name: title })).toBeVisible();
  await expect(row).toContainText('NPR 1,15,000');
  const thumbnail = row.getByRole('img', { name: alt });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate(naturalWidth)).toBeGreaterThan(0);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'products-list');
});

test('field errors are worded from their code with the field’s label, before the API is asked', async ({
  page,
}, testInfo) => {
  await signIn(page);
  // Tokens live in memory only: the console is reached by its links, not by reloading an address.
  await page.getByRole('link', { name: 'Products' }).click();
  await page.getByRole('link', { name: 'New product' }).click();
  await expect(page.getByRole('heading', { name: 'New product', level: 1 })).toBeVisible();
  const name = page.getByLabel('Product name');
  const mrp = page.getByLabel('MRP (maximum retail price)');
  // A price cannot be negative: the minus sign is refused as it is typed.
  await mrp.fill('-500');
  await expect(mrp).toHaveAttribute('aria-invalid', 'true');
  await expect(mrp).toHaveAccessibleDescription(/cannot be negative: remove the minus sign/);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/admin/products'))
      asked.push(request.url());
  });
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription('Product name must not be empty.');
  // The browser refused it with the API's own rules: nothing was sent, nothing created.
  expect(asked).toEqual([]);
  await expect(page).toHaveURL(/\/catalog\/products\/new$/);

  // Typing in a field clears its message; the other stays until it is fixed.
  await name.fill('Brass bowl');
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  await expect(mrp).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'product-form-errors');
});

test('stock is changed with a reason and shows in the ledger; a district gets its fee', async ({
  page,
  baseURL,
}, testInfo) => {
  // A product of this test's own, made through the API (quicker than the form shown above).
  const title = `Brass butter lamp ${Date.now().toString(36)}`;
  const login = await fetch(`${baseURL}/api/auth/login/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_ADMIN),
  });
  const { data: session } = (await login.json()) as { data: { tokens: { accessToken: string } } };
  const created = await fetch(`${baseURL}/api/admin/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.tokens.accessToken}` },
    body: JSON.stringify({ title, productKind: 'physical', mrp: 4500 }),
  });
  expect(created.status).toBe(201);

  await signIn(page);
  await page.getByRole('link', { name: 'Products' }).click();
  await page.getByLabel('Search products').fill(title);
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Stock' }).click();
  await expect(page.getByText('No stock changes yet.')).toBeVisible();
  await page.getByLabel('Units', { exact: true }).fill('12');
  await page.getByLabel('Reason').fill('Delivery from supplier');
  await page.getByRole('button', { name: 'Save the change' }).click();

  const ledger = page.getByRole('table', { name: `Every change to the stock of ${title}, newest first` });
  const entry = ledger.getByRole('row').filter({ hasText: 'Delivery from supplier' });
  await expect(entry).toContainText('Adjustment by staff');
  await expect(entry).toContainText('+12');
  await expect(entry).toContainText('12 on hand, 0 reserved');
  // Removing more than there is: the API refuses, the form says why.
  await page.getByLabel('Units', { exact: true }).fill('-20');
  await page.getByLabel('Reason').fill('Broken in transit');
  await page.getByRole('button', { name: 'Save the change' }).click();
  await expect(page.getByRole('alert')).toContainText('Not saved');
  await expect(ledger.getByRole('row')).toHaveCount(2);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'product-stock');

  await page.getByRole('link', { name: 'Shipping districts' }).click();
  await expect(page.getByRole('heading', { name: 'Shipping districts', level: 1 })).toBeVisible();
  await page.getByLabel('Search districts').fill('Humla');
  const humla = page.getByRole('row').filter({ hasText: 'Humla' });
  await expect(humla).toHaveCount(1);
  await humla.getByRole('button', { name: 'Edit Humla' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Shipping fee').fill('1250');
  await dialog.getByLabel('The store delivers to this district').check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(humla).toContainText('NPR 1,250');
  await expect(humla).toContainText('Delivers here');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'shipping-districts');
});

/** How many pixels wide the image is as the browser decoded it (0 when it did not load). */
const naturalWidth = (img: unknown) => (img as { naturalWidth: number }).naturalWidth;

/** A 32×32 PNG (a copper disc on a pale ground), made here so the test needs no fixture file. */
function bowlPng(): Buffer {
  const size = 32;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) {
      const inside = (x - 15.5) ** 2 + (y - 15.5) ** 2 < 13 ** 2;
      rows.push(...(inside ? [184, 115, 51] : [245, 240, 225]));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
