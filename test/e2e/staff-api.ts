// What the counter, repairs and EMI specs ask the API directly: the demo superadmin's token,
// reads to check that an action on screen took effect, and the console's strings per language.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { chooseLanguage, DEMO_ADMIN } from './console';

// biome-ignore lint/suspicious/noExplicitAny: JSON of the locale files
export type Strings = any;

/** An area's strings (`counter`, `repairs`, …) and the console's own, in one language. */
export function stringsOf(area: string, language: 'en' | 'ne'): { area: Strings; common: Strings } {
  const file = (name: string): Strings =>
    JSON.parse(readFileSync(path.join(import.meta.dirname, '../../console/src', name), 'utf8'));
  return { area: file(`screens/${area}/locales/${language}.json`), common: file(`locales/${language}.json`) };
}

/** The console in this language (the switch in the header, or in the menu on a phone). */
export async function useLanguage(page: Page, language: 'en' | 'ne') {
  if (language === 'ne') await chooseLanguage(page, 'ne');
}

export async function adminToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/auth/login/email', { data: DEMO_ADMIN });
  expect(login.ok()).toBe(true);
  return (await login.json()).data.tokens.accessToken as string;
}

/** `data` of an admin GET, failing the test on any error. */
export async function adminGet<T>(request: APIRequestContext, token: string, url: string): Promise<T> {
  const answer = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.ok(), `GET ${url}: ${answer.status()} ${await answer.text()}`).toBe(true);
  return (await answer.json()).data as T;
}

export interface AdminProductRow {
  id: number;
  title: string;
  effectivePrice: number;
  stock: { onHand: number; available: number } | null;
}

/** A demo product by its exact title. */
export async function productTitled(request: APIRequestContext, token: string, title: string) {
  const found = await adminGet<AdminProductRow[]>(
    request,
    token,
    `/api/admin/products?search=${encodeURIComponent(title)}&size=20`,
  );
  const product = found.find((p) => p.title === title);
  if (!product) throw new Error(`the demo store has no ${title}`);
  return product;
}

/** A screenshot for the closing note, when asked (E2E_SHOTS_DIR), at the page's size. */
export async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * Signs in as the demo superadmin (console.ts's signIn), waiting longer for the dashboard: on
 * the shared test machine its first load can take more than the default 10 s.
 */
export async function signInPatiently(page: Page) {
  await page.goto('/admin/');
  await page.getByLabel('Email').fill(DEMO_ADMIN.email);
  await page.getByLabel('Password').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible({ timeout: 60_000 });
}

/** `data` of an API call with an optional bearer token, failing the test on any error. */
export async function apiCall<T>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  token?: string,
  data?: unknown,
): Promise<T> {
  const answer = await request.fetch(path, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    data,
  });
  expect(answer.ok(), `${method} ${path}: ${await answer.text()}`).toBe(true);
  return (await answer.json()).data as T;
}

/**
 * A COD order of the demo customer (`npm run seed:demo`), a Silver Om Pendant bought now, its
 * cash collected by the demo superadmin (`buyNow` adds to the buy-now body, e.g. a buyer's PAN).
 * Answers the order and the superadmin's token.
 */
export async function collectedCodOrder(request: APIRequestContext, buyNow: Record<string, unknown> = {}) {
  const token = await adminToken(request);
  const login = await apiCall<{ tokens: { accessToken: string } }>(
    request,
    'POST',
    '/api/mobile/auth/login/email',
    undefined,
    {
      email: 'customer@pasal.demo',
      password: 'pasal-demo-customer',
      deviceInfo: { deviceId: 'e2e-staff-api', deviceType: 'web', deviceName: 'staff-api.ts' },
    },
  );
  const products = await apiCall<{ id: number; title: string }[]>(
    request,
    'GET',
    `/api/products?search=${encodeURIComponent('Silver Om Pendant')}`,
  );
  const pendant = products.find((p) => p.title === 'Silver Om Pendant');
  if (!pendant) throw new Error('the demo store has no Silver Om Pendant');
  const placed = await apiCall<{ orderId: number }>(
    request,
    'POST',
    '/api/orders/buy-now',
    login.tokens.accessToken,
    // An entry of PAYMENT_RETURN_URL_ALLOWLIST's default (the development storefront).
    { productId: pendant.id, gateway: 'cod', returnUrl: 'http://localhost:3001/orders', ...buyNow },
  );
  const collected = await apiCall<{ orderNumber: string; orderStatus: string }>(
    request,
    'PUT',
    `/api/admin/orders/${placed.orderId}/cod-collect`,
    token,
    { remarks: 'Cash at the counter' },
  );
  expect(collected.orderStatus).toBe('paid');
  return { orderId: placed.orderId, orderNumber: collected.orderNumber, token };
}
