// Signing in to the console, the dashboard it lands on, and the console in Nepali.
import { expect, test } from '@playwright/test';
import {
  DEMO_ADMIN,
  expectAccessible,
  keepScreenshot,
  SIGN_IN_JS_BUDGET_KB,
  signIn,
  signInScripts,
} from './console';

test('a superadmin signs in and lands on the dashboard with the store’s figures @smoke', async ({
  page,
}, testInfo) => {
  await signIn(page);
  await expect(
    page.getByRole('region', { name: 'Revenue after refunds, by day, last 30 days' }),
  ).toBeVisible();
  await expect(page.getByText(/NPR \d/).first()).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'dashboard');
});

test('a wrong password is refused with a clear message and no session', async ({ page }) => {
  await page.goto('/admin/');
  await page.getByLabel('Email').fill(DEMO_ADMIN.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Email or password is not correct.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toHaveCount(0);
  await expectAccessible(page);
});

test('in Nepali, money is grouped in lakhs and dates carry the Bikram Sambat date', async ({
  page,
}, testInfo) => {
  await signIn(page);
  await page.getByLabel('Language').selectOption({ label: 'नेपाली' });
  // Lakh grouping: 1,23,456 rather than 123,456.
  await expect(page.getByText(/रु\s?\d{1,2},\d{2},\d{3}/).first()).toBeVisible();
  await expect(page.getByText(/वि\.सं\./).first()).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'dashboard-nepali');
});

test('the sign-in screen loads less than its JavaScript budget', async ({ page }, testInfo) => {
  const scripts = await signInScripts(page);
  testInfo.annotations.push({
    type: 'sign-in JavaScript',
    description: `${scripts.gzipKb} kB gzip, ${scripts.rawKb} kB raw, ${scripts.files} files`,
  });
  expect(scripts.files).toBeGreaterThan(0);
  expect(scripts.gzipKb).toBeLessThan(SIGN_IN_JS_BUDGET_KB);
});
