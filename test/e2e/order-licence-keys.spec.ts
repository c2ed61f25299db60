// Licence keys on the order page (issue 27): a member of staff whose role may read orders but
// not digital keys sees each key masked with a hint saying which permission shows whole keys
// (English and Nepali); the demo superadmin sees the whole keys. The role editor says so too.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, keepScreenshot, signIn } from './console';
import { adminToken, api } from './orders-api';
import { useLanguage } from './staff-api';

// Unique per run: a retry on CI meets the first try's role and account.
const RUN = Date.now().toString(36);
const READER = { email: `order-reader-${RUN}@pasal.demo`, password: 'order-reader-password-1' };

test('whole licence keys need “Digital keys: read”; without it the order page shows them masked with a hint', async ({
  page,
  baseURL,
}, testInfo) => {
  const base = baseURL ?? '';
  const token = await adminToken(base);
  const orders = await api<{ id: number; fulfillmentStatus: string | null }[]>(
    base,
    'GET',
    '/api/admin/orders?fulfillmentStatus=key_sent&size=1',
    token,
  );
  const order = orders[0];
  if (!order) throw new Error('the demo store has no order whose keys were sent');
  await api(base, 'POST', '/api/admin/roles', token, {
    name: `order-reader-${RUN}`,
    permissions: ['Orders_READ'],
  });
  await api(base, 'POST', '/api/admin/users', token, {
    name: 'Order Reader',
    role: `order-reader-${RUN}`,
    ...READER,
  });

  const keysOf = (page: Page) => page.getByRole('table', { name: 'Licence keys sold with this order' });

  // The superadmin: whole keys (the demo's start with DEMO-), no hint.
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  await page.goto(`/admin/orders/${order.id}`);
  await page.getByRole('button', { name: 'Show the licence keys' }).click();
  await expect(keysOf(page)).toContainText('DEMO-');
  await expect(page.getByText(/Only the end of each key is shown/)).toHaveCount(0);

  // The order reader: the same keys masked, and the hint.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, READER);
  await page.goto(`/admin/orders/${order.id}`);
  await page.getByRole('button', { name: 'Show the licence keys' }).click();
  await expect(keysOf(page)).toContainText('****');
  await expect(keysOf(page)).not.toContainText('DEMO-');
  await expect(page.getByText(/Only the end of each key is shown/)).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'order-keys-masked-en');

  await useLanguage(page, 'ne');
  await expect(page.getByText(/हरेक कीको अन्तिम भाग मात्र देखाइएको छ/)).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'order-keys-masked-ne');
});
