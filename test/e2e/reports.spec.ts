// Reports: sales by period and by district with their CSV downloads (English), and the system
// information superadmins check for running jobs (Nepali); the figures are the API's.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './console';

async function adminGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const login = await request.post('/api/auth/login/email', { data: DEMO_ADMIN });
  const token = (await login.json()).data.tokens.accessToken as string;
  const answer = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBe(true);
  return (await answer.json()).data as T;
}

test('sales by period and by district, as tables and CSV', async ({ page, request }, testInfo) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Sales reports' }).click();
  await expect(page.getByRole('heading', { name: 'Sales reports', level: 1 })).toBeVisible();
  await page.getByLabel('Period', { exact: true }).selectOption({ label: 'Last 7 days' });
  const byDistrict = page.getByRole('region', { name: 'Sales by district' });
  const districts = await adminGet<{ districtName: string; orderCount: number }[]>(
    request,
    '/api/admin/orders/analytics/districts?range=7d',
  );
  const table = byDistrict.getByRole('table', { name: 'Sales by district' });
  if (districts.length > 0) {
    await expect(table.locator('tbody tr')).toHaveCount(districts.length);
    await expect(table.locator('tbody tr').first()).toContainText(districts[0]!.districtName);
    const download = page.waitForEvent('download');
    await byDistrict.getByRole('button', { name: 'Download CSV (by district)' }).click();
    expect((await download).suggestedFilename()).toBe('sales-by-district-7d.csv');
  } else {
    await expect(byDistrict).toContainText('No order with a shipping district');
  }
  const series = await adminGet<{ series: unknown[] }>(request, '/api/admin/orders/analytics?range=7d');
  const byPeriod = page.getByRole('region', { name: 'Sales by period' });
  await expect(byPeriod.getByRole('table').locator('tbody tr')).toHaveCount(series.series.length);
  const download = page.waitForEvent('download');
  await byPeriod.getByRole('button', { name: 'Download CSV (by period)' }).click();
  expect((await download).suggestedFilename()).toBe('sales-by-period-7d.csv');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'sales-report');
});

test('in Nepali: system information shows the engines and the worker heartbeat', async ({
  page,
  request,
}, testInfo) => {
  await signIn(page);
  await page.getByLabel('Language').selectOption({ label: 'नेपाली' });
  await page.getByRole('link', { name: 'प्रणाली', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'प्रणाली', level: 1 })).toBeVisible();
  const info = await adminGet<{ drivers: Record<string, string>; lastJobHeartbeatAt: string | null }>(
    request,
    '/api/admin/system/info',
  );
  const engines = page.getByRole('table', { name: 'प्रयोगमा रहेका इन्जिनहरू' });
  await expect(engines.getByRole('row').filter({ hasText: 'डाटाबेस' })).toContainText(info.drivers.database!);
  await expect(engines.getByRole('row').filter({ hasText: 'कामको लाइन' })).toContainText(info.drivers.jobs!);
  await expect(page.getByRole('region', { name: 'पृष्ठभूमिका कामहरू' })).toContainText(
    info.lastJobHeartbeatAt ? /कामहरू चलिरहेका छन्|हालै कुनै संकेत/ : /अहिलेसम्म कुनै वर्कर/,
  );
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'system-ne');
});
