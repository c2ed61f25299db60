// A reload, a new tab or a Ctrl-click keeps the admin signed in: the console's refresh token is
// an HttpOnly cookie for the refresh route (docs/api-notes.md, "Console sessions: the refresh
// cookie"); signing out clears it, so a reload after that shows the sign-in screen.
import { expect, test } from '@playwright/test';
import { expectAccessible, signIn } from './console';

test('a reload and a new tab stay signed in; after signing out a reload shows sign-in', async ({
  page,
  context,
}) => {
  await signIn(page);
  const cookies = await context.cookies();
  const refresh = cookies.find((c) => c.name === 'pasal_admin_refresh');
  expect(refresh).toMatchObject({
    httpOnly: true,
    secure: true,
    sameSite: 'Strict',
    path: '/api/auth/refresh',
  });
  // Page script cannot read it.
  expect(await page.evaluate('document.cookie')).not.toContain('pasal_admin_refresh');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);

  const tab = await context.newPage();
  await tab.goto('/admin/orders');
  await expect(tab.getByRole('heading', { name: 'Orders' })).toBeVisible();
  await expectAccessible(tab);
  await tab.close();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect((await context.cookies()).find((c) => c.name === 'pasal_admin_refresh')).toBeUndefined();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toHaveCount(0);
  await expectAccessible(page);
});
