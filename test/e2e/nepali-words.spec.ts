// The back office in Nepali says everything in Nepali (issue 27, item 5): the notes the server
// wrote in an order's history, the payment gateway, the district, the file picker; and with the
// language switch's "नेपाली (०१२)" its figures and dates in Devanagari digits.
import { expect, type Page, test } from '@playwright/test';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './console';

/** Where the screenshots for the issue go too, when asked (SHOTS_DIR=/work/shots/c). */
async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  // From the top, so the fixed header sits where it belongs in a full-page picture.
  await page.evaluate('window.scrollTo(0, 0)');
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** The demo store's online order paid by card and delivered (scripts/seed-demo-orders.ts). */
async function paidOnlineOrder(baseURL: string): Promise<{ id: number; orderNumber: string }> {
  const login = await fetch(`${baseURL}/api/auth/login/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_ADMIN),
  });
  const token = ((await login.json()) as { data: { tokens: { accessToken: string } } }).data.tokens
    .accessToken;
  const list = await fetch(
    `${baseURL}/api/admin/orders?paymentMethod=online&fulfillmentStatus=delivered&orderType=physical`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  const [order] = ((await list.json()) as { data: { id: number; orderNumber: string }[] }).data;
  if (!order) throw new Error('the demo store has no delivered online order');
  return order;
}

async function inNepali(page: Page, label: 'नेपाली' | 'नेपाली (०१२)' = 'नेपाली') {
  await page.getByLabel('Language').selectOption({ label });
  await expect(page.getByRole('heading', { name: 'ड्यासबोर्ड', level: 1 })).toBeVisible();
}

test('an order in Nepali: the server’s history notes, the gateway and the district in Nepali', async ({
  page,
  baseURL,
}, testInfo) => {
  const order = await paidOnlineOrder(baseURL ?? '');
  await signIn(page);
  await inNepali(page);
  await page.goto(`/admin/orders/${order.id}`);
  await expect(page.getByRole('heading', { name: `अर्डर ${order.orderNumber}`, level: 1 })).toBeVisible();

  const history = page.getByRole('region', { name: 'स्थितिको इतिहास' });
  await expect(history).toBeVisible();
  await shoot(page, 'order-history-nepali');
  // Placed by card, then the payment verified: both worded in Nepali, no English left.
  await expect(history).toContainText('अर्डर गरियो; कार्ड बाट अनलाइन भुक्तानी हुँदै');
  await expect(history).toContainText(/भुक्तानी \S+ प्रमाणित भयो/);
  await expect(history).not.toContainText('Payment by');
  await expect(history).not.toContainText('verified');

  const payment = page.getByRole('region', { name: 'भुक्तानी', exact: true });
  await expect(payment).toContainText('अनलाइन (कार्ड)');
  await expect(payment).not.toContainText('gateway_card');
  // Latin digits by default, as staff copy them into spreadsheets.
  await expect(payment).toContainText(/रु [0-9]/);

  const customer = page.getByRole('region', { name: 'ग्राहक', exact: true });
  await expect(customer).toContainText('काठमाडौं');
  await expect(customer).not.toContainText('Kathmandu,');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'order-nepali');
});

test('with "नेपाली (०१२)" figures and dates use Devanagari digits, kept after a reload', async ({
  page,
  baseURL,
}, testInfo) => {
  const order = await paidOnlineOrder(baseURL ?? '');
  await signIn(page);
  await inNepali(page, 'नेपाली (०१२)');
  await page.goto(`/admin/orders/${order.id}`);
  const payment = page.getByRole('region', { name: 'भुक्तानी', exact: true });
  await expect(payment).toContainText(/रु [०-९]/);
  await expect(payment).not.toContainText(/रु [0-9]/);
  // Dates too: the Gregorian and the BS year.
  const history = page.getByRole('region', { name: 'स्थितिको इतिहास' });
  await expect(history).toContainText(/२०[०-९]{2}, [०-९]{2}:[०-९]{2}/);
  await expect(history).toContainText(/[०-९]+ \S+ २०[०-९]{2} वि\.सं\./);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'order-devanagari-digits');
  await shoot(page, 'order-devanagari-digits');

  // A choice of this browser: still there after a reload.
  await page.reload();
  await expect(page.getByLabel('Language')).toHaveValue('ne-devanagari');
  await expect(page.getByRole('region', { name: 'भुक्तानी', exact: true })).toContainText(/रु [०-९]/);

  // Back to plain Nepali: Latin digits again.
  await page.getByLabel('Language').selectOption({ label: 'नेपाली' });
  await expect(page.getByRole('region', { name: 'भुक्तानी', exact: true })).toContainText(/रु [0-9]/);
});

test('a support conversation in Nepali: the automatic greeting and its sender in Nepali', async ({
  page,
  request,
}) => {
  const created = await request.post('/api/support-inquiries', {
    data: {
      category: 'order',
      subject: 'Jumla delivery',
      message: 'Do you deliver to Jumla?',
      guestName: 'Dawa',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()).data as { id: number };
  await signIn(page);
  await inNepali(page);
  await page.goto(`/admin/support/inquiries/${id}`);
  const messages = page.getByRole('log', { name: 'सन्देशहरू' });
  await expect(messages.getByText('Do you deliver to Jumla?')).toBeVisible();
  await expect(messages).toContainText('हामीलाई सम्पर्क गर्नुभएकोमा धन्यवाद।');
  await expect(messages).toContainText('सहयोग (स्वचालित)');
  await expect(messages).not.toContainText('Thank you for contacting us');
  await expectAccessible(page);
});

test('the image picker of a new product speaks Nepali and takes a file', async ({ page }, testInfo) => {
  await signIn(page);
  await inNepali(page);
  await page.goto('/admin/catalog/products/new');
  await expect(page.getByRole('heading', { name: 'नयाँ सामान', level: 1 })).toBeVisible();
  await shoot(page, 'file-picker-nepali');
  const picker = page.getByRole('button', { name: 'तस्बिर थप्नुहोस्' });
  await expect(picker).toBeVisible();
  await expect(picker).toContainText('फाइलहरू छान्नुहोस्…');
  // No browser-made "Choose Files / No file chosen" on the screen.
  await expect(page.locator('input[type="file"]:visible')).toHaveCount(0);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'file-picker-nepali');

  const chooser = page.waitForEvent('filechooser');
  await picker.click();
  await (await chooser).setFiles({ name: 'bowl.png', mimeType: 'image/png', buffer: onePixelPng() });
  // Uploaded: the form shows it, with a box for its description.
  await expect(page.getByLabel('तस्बिर 1 को वर्णन (alt पाठ)')).toBeVisible();
  await shoot(page, 'file-picker-nepali-uploaded');
});

test('the staff form checks an e-mail address in Nepali, not with the browser’s bubble', async ({ page }) => {
  await signIn(page);
  await inNepali(page);
  await page.goto('/admin/staff');
  await page.getByRole('button', { name: 'कर्मचारी थप्नुहोस्' }).click();
  const dialog = page.getByRole('dialog', { name: 'कर्मचारी थप्नुहोस्' });
  await dialog.getByLabel('पूरा नाम').fill('Hari Thapa');
  await dialog.getByLabel('इमेल').fill('hari.example.com');
  await dialog.getByRole('button', { name: 'थपेर निमन्त्रणा पठाउनुहोस्' }).click();
  // The console's own message under the field, in Nepali. (The browser's bubble would have
  // stopped the submit before the console could check anything.)
  await expect(dialog.getByText('इमेल इमेल ठेगाना होइन (name@example.com)।')).toBeVisible();
  await expect(dialog.locator('form')).toHaveAttribute('novalidate', '');
  await expectAccessible(page);
});

/** The smallest PNG: one white pixel. */
function onePixelPng(): Buffer {
  return Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
    'base64',
  );
}
