// Webhooks in the back office: a superadmin adds an endpoint (events picked by area), copies
// its secret shown once, sends a test that a local receiver gets, reads the delivery log with
// the attempt and the payload, redelivers, pauses and resumes, rotates the secret; in English
// and Nepali, and on a phone-sized screen.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { chooseLanguage, expectAccessible, expectListsSettled, keepScreenshot, signIn } from './console';

test('a superadmin connects another system with a webhook and follows its deliveries', async ({
  page,
}, testInfo) => {
  // The whole story of an endpoint, in two languages and two widths: longer than one screen.
  test.slow();
  const received: Array<{ id: string; body: string }> = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/pasal-${Date.now()}`;
  try {
    await signIn(page);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await form.getByLabel('URL').fill(url);
    await form.getByLabel('Description').fill('Courier portal');
    await expect(form.getByRole('group', { name: 'Orders' })).toBeVisible();
    await form.getByLabel('order.paid').check();
    await form.getByLabel('order.fulfillment_changed').check();
    await form.getByLabel('product.stock_low').check();
    await expect(form.getByText('3 events')).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'webhooks-add');
    await form.getByRole('button', { name: 'Add endpoint' }).click();

    const secret = page.getByRole('dialog', { name: 'Endpoint added: its signing secret' });
    await expect(secret.getByText(/^whsec_[A-Za-z0-9+/]{43}=$/)).toBeVisible();
    await expect(secret.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    await expectAccessible(page);
    await secret.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: new RegExp(url) });
    await expect(row).toContainText('3 events');
    await expect(row).toContainText('Active');
    await expect(row).toContainText('No delivery yet');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'webhooks-list');

    // Its page: a test message reaches the receiver, and the log shows it with its attempt.
    await row.getByRole('link', { name: url }).click();
    await expect(page.getByRole('heading', { name: 'Webhook endpoint', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByRole('status')).toContainText('A test message is on its way');
    await expect.poll(() => received.length).toBe(1);
    const log = page.getByRole('table', { name: 'Deliveries, newest first' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(log.getByRole('row').nth(1)).toContainText('Succeeded', { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(log.getByRole('row').nth(1)).toContainText('webhook.test');
    await expect(log.getByRole('row').nth(1)).toContainText('HTTP 200');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'webhooks-endpoint');

    await log.getByRole('button', { name: /Open the webhook.test delivery/ }).click();
    const delivery = page.getByRole('dialog', { name: 'Delivery of webhook.test' });
    await expect(delivery.getByText(received[0]!.id)).toBeVisible();
    await expect(delivery.getByRole('table', { name: 'Attempts' })).toContainText('200');
    await expect(delivery.getByText('"type": "webhook.test"')).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'webhooks-delivery');
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await expect(delivery.getByRole('status')).toContainText('same webhook-id');
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]!.id).toBe(received[0]!.id);
    await delivery.locator('button', { hasText: 'Close' }).click();

    // The status filter: nothing failed.
    await page.getByLabel('Status').selectOption({ label: 'Failed' });
    await expectListsSettled(page);
    await expect(page.getByText('No deliveries match.')).toBeVisible();
    await page.getByLabel('Status').selectOption({ label: 'Any status' });

    // Pause and resume; rotate the secret (shown once again).
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('region', { name: 'Endpoint' })).toContainText('Paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByRole('region', { name: 'Endpoint' })).toContainText('Active');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    await expect(rotated.getByText(/^whsec_/)).toBeVisible();
    await rotated.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('region', { name: 'Endpoint' })).toContainText(
      'The old secret also signs until',
    );

    // In Nepali, and on a phone.
    await page.getByLabel('Language').selectOption({ label: 'नेपाली' });
    await expect(page.getByRole('heading', { name: 'वेबहुक इन्डपोइन्ट', level: 1 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'पठाइहरू, नयाँ पहिले' })).toContainText('सफल');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'webhooks-endpoint-nepali');
    await page.getByRole('link', { name: '← सबै वेबहुकहरू' }).click();
    await expect(page.getByRole('heading', { name: 'वेबहुकहरू', level: 1 })).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'webhooks-list-nepali-390');
    await chooseLanguage(page, 'en');
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
