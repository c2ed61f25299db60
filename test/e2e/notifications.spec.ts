// Staff notifications: a guest's inquiry reaches the bell live (unread count, the feed), one is
// marked read, then all; in English and in Nepali, at desktop and phone width. Each test signs
// in as a superadmin of its own, so the feed holds only what arrives during the test.
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { chooseLanguage, DEMO_ADMIN, expectAccessible, keepScreenshot, signIn } from './console';

interface FeedItem {
  id: string;
  type: string;
  body: string;
  isRead: boolean;
}

async function tokenOf(request: APIRequestContext, who: { email: string; password: string }) {
  const login = await request.post('/api/auth/login/email', { data: who });
  expect(login.ok()).toBe(true);
  return (await login.json()).data.tokens.accessToken as string;
}

/** A new superadmin, made through the API by the demo superadmin: its feed starts empty. */
async function freshAdmin(request: APIRequestContext, label: string) {
  const token = await tokenOf(request, DEMO_ADMIN);
  const who = { email: `bell-${label}-${Date.now()}@pasal.demo`, password: 'a-long-staff-password' };
  const created = await request.post('/api/admin/users', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `Bell ${label}`, email: who.email, role: 'superadmin', password: who.password },
  });
  expect(created.status()).toBe(201);
  return who;
}

/** A guest's inquiry through the storefront's public API: every superadmin is told of it. */
async function guestWrites(request: APIRequestContext, subject: string) {
  const created = await request.post('/api/support-inquiries', {
    data: {
      category: 'product',
      subject,
      message: 'Do you sell Lokta paper notebooks?',
      guestName: 'Pema Sherpa',
      guestEmail: 'pema.sherpa@example.com',
    },
  });
  expect(created.status()).toBe(201);
}

async function feedOf(request: APIRequestContext, token: string) {
  const answer = await request.get('/api/admin/notifications?size=50', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.ok()).toBe(true);
  const body = await answer.json();
  return { items: body.data as FeedItem[], unread: body.meta.unreadCount as number };
}

const bell = (page: Page, name: RegExp) => page.getByRole('banner').getByRole('button', { name });

test('a new inquiry rings the bell live; one is marked read, then all (English)', async ({
  page,
  request,
}, testInfo) => {
  const who = await freshAdmin(request, 'en');
  const token = await tokenOf(request, who);
  await signIn(page, who);
  // Other tests' guests may write at any time and reach this admin too: counts are never assumed.
  await expect(bell(page, /^Notifications(, \d+ unread)?$/)).toBeVisible();

  const stamp = `${testInfo.workerIndex}-${Date.now()}`;
  const first = `Lokta notebooks? (${stamp}a)`;
  const second = `Thangka framing? (${stamp}b)`;
  await guestWrites(request, first);
  await guestWrites(request, second);
  // Without a reload: the socket's `admin.notification` makes the bell read the feed again.
  // (Other tests' guests may write meanwhile and reach this superadmin too: counts are read
  // from the feed, not assumed.)
  await expect(bell(page, /^Notifications, \d+ unread$/)).toBeVisible({ timeout: 20_000 });

  await bell(page, /unread/).click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByText(`Pema Sherpa: ${first}`)).toBeVisible();
  await expect(panel.getByText(`Pema Sherpa: ${second}`)).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'notifications-en');

  // One read: the second's own button (the newest is first).
  const items = panel.getByRole('listitem');
  await items
    .filter({ hasText: first })
    .getByRole('button', { name: 'Mark read: New support inquiry' })
    .click();
  await expect(items.filter({ hasText: first }).getByRole('button')).toHaveCount(0);
  let feed = await feedOf(request, token);
  expect(feed.items.find((n) => n.body.endsWith(first))?.isRead).toBe(true);
  expect(feed.items.find((n) => n.body.endsWith(second))?.isRead).toBe(false);

  await panel.getByRole('button', { name: 'Mark all read' }).click();
  await expect(items.filter({ hasText: stamp }).getByRole('button')).toHaveCount(0);
  feed = await feedOf(request, token);
  expect(feed.items.filter((n) => n.body.includes(stamp)).map((n) => n.isRead)).toEqual([true, true]);
});

test('the bell on a phone, in Nepali: the panel fits and a notification is marked read', async ({
  page,
  request,
}, testInfo) => {
  const who = await freshAdmin(request, 'ne');
  const token = await tokenOf(request, who);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, who);
  await chooseLanguage(page, 'ne');
  // Other tests' guests may write at any time and reach this admin too: counts are never assumed.
  await expect(bell(page, /^सूचनाहरू(, \d+ नपढिएको)?$/)).toBeVisible();

  const subject = `Pashmina sizes? (${testInfo.workerIndex}-${Date.now()})`;
  await guestWrites(request, subject);
  await expect(bell(page, /^सूचनाहरू, \d+ नपढिएको$/)).toBeVisible({ timeout: 20_000 });
  await bell(page, /नपढिएको/).click();
  const panel = page.getByRole('dialog', { name: 'सूचनाहरू' });
  const item = panel.getByRole('listitem').filter({ hasText: subject });
  await expect(item.getByText('नयाँ सहायता सोधपुछ')).toBeVisible({ timeout: 20_000 });
  const box = await panel.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'notifications-ne-390');

  await item.getByRole('button', { name: 'पढियो: नयाँ सहायता सोधपुछ' }).click();
  await expect(item.getByRole('button')).toHaveCount(0);
  const feed = await feedOf(request, token);
  expect(feed.items.find((n) => n.body.endsWith(subject))?.isRead).toBe(true);
});
