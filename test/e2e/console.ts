// What every console test does: sign in as someone, check the screen for accessibility
// problems, and keep a screenshot of it next to the test's output.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/** The superadmin `npm run seed:demo` creates (scripts/seed-demo.ts). */
export const DEMO_ADMIN = { email: 'admin@pasal.demo', password: 'pasal-demo-admin' };

/** The support agent `npm run seed:demo` creates, with a role limited to support (scripts/seed-demo-support.ts). */
export const DEMO_AGENT = { email: 'agent@pasal.demo', password: 'pasal-demo-agent' };

export async function signIn(page: Page, who: { email: string; password: string } = DEMO_ADMIN) {
  await page.goto('/admin/');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/** The header's menu button, in either language (on a phone it opens the menu). */
export const MENU_BUTTON = new RegExp(
  `^(${['en', 'ne']
    .map(
      (language) =>
        JSON.parse(
          readFileSync(path.join(import.meta.dirname, `../../console/src/locales/${language}.json`), 'utf8'),
        ).layout.toggleMenu as string,
    )
    .join('|')})$`,
);

/**
 * Switches the console's language with its switch: in the header, or on a phone in the menu
 * the header's button opens (closed again afterwards).
 */
export async function chooseLanguage(page: Page, language: 'en' | 'ne') {
  const label = language === 'en' ? 'English' : 'नेपाली';
  const select = page.getByLabel('Language');
  if (await select.isVisible()) {
    await select.selectOption({ label });
    return;
  }
  const menuButton = page.getByRole('banner').getByRole('button', { name: MENU_BUTTON });
  await menuButton.click();
  await select.selectOption({ label });
  await menuButton.click();
  await expect(select).toBeHidden();
}

/**
 * The lists are settled: no table is still showing the previous page (`aria-busy`) while the
 * next one loads. Assertions on rows need the list the screen means.
 */
export async function expectListsSettled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** No serious or critical axe violation on the page once its lists have settled. */
export async function expectAccessible(page: Page) {
  await expectListsSettled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

/** A shop owner's phone (issue 27 item 9). */
export const PHONE = { width: 390, height: 844 };

/** Nothing on the page is wider than the phone: the page itself does not scroll sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const width = await page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
        .documentElement.scrollWidth,
  );
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

/** A full-page screenshot under the test's output folder (test-results/e2e/…). */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** The sign-in screen's budget for JavaScript, gzip-compressed (issue 18). */
export const SIGN_IN_JS_BUDGET_KB = 200;

/**
 * What the sign-in screen makes a browser download and run: its script files, their raw size
 * and their size gzip-compressed (level 9, as a server or CDN would send them). `page` is fresh.
 */
export async function signInScripts(page: Page, consoleUrl = '/admin/') {
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  });
  await page.goto(consoleUrl);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.waitForLoadState('networkidle');
  const files = await Promise.all(bodies);
  const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
  return {
    files: files.length,
    rawKb: kb(files.reduce((sum, body) => sum + body.length, 0)),
    gzipKb: kb(files.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0)),
  };
}
