// The repairs desk, in English and in Nepali: a customer's new repair request found by its
// ticket, moved one step (only the allowed steps are offered) with a note the customer is
// told, at desk and at phone width; the API then has the request in its new status.
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './console';
import { adminGet, adminToken, shot, signInPatiently, stringsOf, useLanguage } from './staff-api';

const expect = baseExpect.configure({ timeout: 30_000 });
test.setTimeout(180_000);

const DEMO_CUSTOMER = { email: 'customer@pasal.demo', password: 'pasal-demo-customer' };

/** A fresh repair request of the demo customer (only this test moves it). */
async function newRepair(page: Page, label: string): Promise<string> {
  const login = await page.request.post('/api/mobile/auth/login/email', {
    data: {
      ...DEMO_CUSTOMER,
      deviceInfo: { deviceId: `e2e-repairs-${label}`, deviceType: 'web', deviceName: 'repairs.spec' },
    },
  });
  expect(login.ok()).toBe(true);
  const token = (await login.json()).data.tokens.accessToken as string;
  const created = await page.request.post('/api/repair-requests', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      devices: [
        {
          customBrandName: 'Asus',
          laptopModel: `VivoBook ${label}`,
          problemDescription: 'The screen flickers.',
        },
      ],
      collectionMethod: 'dropoff',
      sourceType: 'direct_booking',
      sharedDescription: 'I will bring it on Sunday.',
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).data.ticketNumber as string;
}

for (const language of ['en', 'ne'] as const) {
  const s = stringsOf('repairs', language).area;

  test(`a repair request is found by its ticket and moved one allowed step (${language})`, async ({
    page,
    request,
  }, testInfo) => {
    const ticket = await newRepair(page, language);
    await signInPatiently(page);
    await useLanguage(page, language);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('link', { name: s.menu.repairs, exact: true }).click();
    await expect(page.getByRole('heading', { name: s.list.title, level: 1 })).toBeVisible();
    await page.getByRole('searchbox', { name: s.filters.search }).fill(ticket);
    await expect(page).toHaveURL(new RegExp(`search=${ticket}`));
    const table = page.getByRole('table', { name: s.list.caption });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expectAccessible(page);
    if (language === 'ne') await shot(page, 'repairs-list');
    await table.getByRole('link', { name: ticket }).click();

    await expect(
      page.getByRole('heading', { name: s.detail.title.replace('{{ticket}}', ticket), level: 1 }),
    ).toBeVisible();
    // From "request received" only these three moves are offered.
    const steps = page.getByRole('region', { name: s.detail.steps });
    await expect(steps.getByRole('button')).toHaveText([
      s.steps.to.picked_up,
      s.steps.to.dropped_off,
      s.steps.to.cancelled,
    ]);
    await steps.getByRole('button', { name: s.steps.to.dropped_off }).click();
    const dialog = page.getByRole('dialog', { name: s.steps.to.dropped_off });
    await dialog.getByLabel(s.steps.notes).fill('Received at the Thamel desk');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: s.steps.to.dropped_off }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(s.steps.customerTold)).toBeVisible();
    const timeline = page.getByRole('list', { name: s.detail.timeline });
    await expect(timeline.locator('[aria-current="step"]')).toContainText(s.status.dropped_off);
    await expect(timeline.locator('[aria-current="step"]')).toContainText(s.detail.notified);
    // Next, only the workshop's steps from "dropped off".
    await expect(steps.getByRole('button')).toHaveText([s.steps.to.under_repair, s.steps.to.cancelled]);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `repair-${language}`);
    if (language === 'ne') await shot(page, 'repair-detail');

    // Phone width: one column, the steps still reachable.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(steps.getByRole('button', { name: s.steps.to.under_repair })).toBeVisible();
    await expectAccessible(page);
    if (language === 'ne') {
      await shot(page, 'repair-detail-390');
      await page.goBack();
      await expect(page.getByRole('heading', { name: s.list.title, level: 1 })).toBeVisible();
      await shot(page, 'repairs-list-390');
    }

    // Through the API: the request is dropped off, the move recorded with the note by staff.
    const token = await adminToken(request);
    const [found] = await adminGet<{ id: number }[]>(
      request,
      token,
      `/api/admin/repair-requests?search=${ticket}`,
    );
    const repair = await adminGet<{
      status: string;
      statusHistory: { toStatus: string; notes: string | null; actorType: string }[];
    }>(request, token, `/api/admin/repair-requests/${found?.id}`);
    expect(repair.status).toBe('dropped_off');
    expect(repair.statusHistory.at(-1)).toMatchObject({
      toStatus: 'dropped_off',
      notes: 'Received at the Thamel desk',
      actorType: 'admin',
    });
  });
}
