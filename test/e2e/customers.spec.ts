// Customers: find one, and see their orders and their conversations with support.
import { expect, test } from '@playwright/test';
import { expectAccessible, keepScreenshot, signIn } from './console';

test('find a customer and see their orders, inquiries and tickets', async ({ page }, testInfo) => {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
  // Both demo customers are listed.
  await expect(page.getByRole('link', { name: 'Sita Shrestha' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ram Thapa' })).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'customers');

  await page.getByLabel('Search').fill('ram@pasal');
  await expect(page.getByRole('link', { name: 'Sita Shrestha' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Ram Thapa' }).click();
  await expect(page.getByRole('heading', { name: 'Ram Thapa' })).toBeVisible();
  const tickets = page.getByRole('region', { name: 'Tickets' });
  await expect(tickets.getByRole('link', { name: 'Charged twice for one order' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Orders' }).getByText('This customer has no orders yet.'),
  ).toBeVisible();

  // Sita has the demo orders, each linked to its order screen, and her inquiry.
  await page.getByRole('link', { name: '← All customers' }).click();
  await page.getByLabel('Search').fill('customer@pasal.demo');
  await page.getByRole('link', { name: 'Sita Shrestha' }).click();
  const orders = page.getByRole('region', { name: 'Orders' });
  await expect(orders.getByRole('link').first()).toHaveAttribute('href', /\/admin\/orders\/\d+$/);
  await expect(orders.getByText(/NPR \d/).first()).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Inquiries' })
      .getByRole('link', { name: 'Gift wrapping for my singing bowl order' }),
  ).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'customer');

  // A conversation opens in the inbox.
  await page
    .getByRole('region', { name: 'Inquiries' })
    .getByRole('link', { name: 'Gift wrapping for my singing bowl order' })
    .click();
  await expect(page.getByRole('heading', { name: 'Gift wrapping for my singing bowl order' })).toBeVisible();
  await expect(page.getByRole('log', { name: 'Messages' }).getByText(/Happy birthday, Aama/)).toBeVisible();
});
