// Staff and their roles: a limited admin sees only what the role allows; a superadmin makes a
// role with permissions, gives it to a new staff member, and finds that in the activity log. The
// role editor and the activity log speak words, not codes, in English and Nepali (issue 27, item 6).
import { expect, type Page, test } from '@playwright/test';
import { DEMO_AGENT, expectAccessible, keepScreenshot, signIn } from './console';
import { collectedCodOrder, stringsOf, useLanguage } from './staff-api';

test('a limited admin who cannot see what their role forbids', async ({ page }, testInfo) => {
  await signIn(page, DEMO_AGENT);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Support inbox' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Feedback' })).toBeVisible();
  await expect(
    menu.getByRole('link', { name: /orders|catalog|products|staff|roles|activity|customers/i }),
  ).toHaveCount(0);
  // Their dashboard shows the support figures and nothing about sales.
  await expect(page.getByRole('region', { name: 'Support' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Revenue after refunds, by day, last 30 days' })).toHaveCount(
    0,
  );
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'limited-admin-dashboard');

  // Typed addresses (a bookmark, a link from a colleague): the session survives the load (the
  // refresh cookie, issue 27 item 10) and the console says plainly that the role does not allow
  // the screen.
  for (const address of ['/admin/orders', '/admin/staff']) {
    await page.goto(address);
    await expect(page.getByRole('alert').filter({ hasText: 'Not available for your role' })).toBeVisible();
    // Asked once the app has drawn the screen: no sign-in form came back.
    await expect(page.getByLabel('Email')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(0);
  }
  await expectAccessible(page);
});

test('a superadmin makes a role with permission codes and gives it to a new staff member', async ({
  page,
}, testInfo) => {
  const stamp = `${testInfo.workerIndex}${Date.now()}`;
  const roleName = `Catalog clerk ${stamp}`;
  await signIn(page);
  const menu = page.getByRole('navigation', { name: 'Main menu' });

  await menu.getByRole('link', { name: 'Roles' }).click();
  await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Support agent/ })).toContainText(
    'Support inquiries: see, change',
  );
  await page.getByRole('button', { name: 'Add role' }).click();
  const roleForm = page.getByRole('dialog', { name: 'Add a role' });
  await roleForm.getByLabel('Name').fill(roleName);
  await roleForm.getByLabel('Description').fill('Keeps products and stock up to date.');
  await roleForm.getByLabel('See products').check();
  await roleForm.getByLabel('Change products').check();
  await roleForm.getByLabel('Adjust stock').check();
  await expect(roleForm.getByText('3 permissions')).toBeVisible();
  await roleForm.getByRole('button', { name: 'Add role' }).click();
  await expect(roleForm).toHaveCount(0);
  await page.getByLabel('Search roles').fill(stamp);
  const row = page.getByRole('row', { name: new RegExp(roleName) });
  await expect(row).toContainText('Products: see, change');
  await expect(row).toContainText('Stock: change');
  await page.getByLabel('Search roles').fill('');
  await expect(page.getByRole('row', { name: /superadmin/ })).toContainText('Every permission');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'staff-roles');

  // A new staff member with that role, with a password (no invitation needed).
  await menu.getByRole('link', { name: 'Staff' }).click();
  await page.getByRole('button', { name: 'Add staff member' }).click();
  const adminForm = page.getByRole('dialog', { name: 'Add a staff member' });
  await adminForm.getByLabel('Full name').fill(`Bikash Rai ${stamp}`);
  await adminForm.getByLabel('Email').fill(`bikash.${stamp}@pasal.demo`);
  await adminForm.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: roleName }).click();
  await adminForm.getByLabel('Password', { exact: true }).fill('a-long-clerk-password');
  await adminForm.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(adminForm).toHaveCount(0);
  await page.getByLabel('Search').fill(stamp);
  await expect(page.getByRole('row', { name: new RegExp(`Bikash Rai ${stamp}`) })).toContainText(roleName);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'staff');

  // The activity log holds both writes.
  await menu.getByRole('link', { name: 'Activity log' }).click();
  await page.getByRole('combobox', { name: 'Kind of record' }).click();
  await page.getByRole('option', { name: 'Role', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(roleName) }).first()).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'activity-log');
});

/** Today in the store's calendar (the e2e store runs on Asia/Kathmandu), as "2026-11-29". */
function storeToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kathmandu' }).format(new Date());
}

/** Nothing in the element is wider than the element: it scrolls down, never sideways. */
async function expectNoSidewaysScroll(page: Page, selector: string) {
  const overflow = await page
    .locator(selector)
    .evaluateAll((nodes) => nodes.map((node) => node.scrollWidth - node.clientWidth));
  expect(overflow.length).toBeGreaterThan(0);
  for (const extra of overflow) expect(extra).toBeLessThanOrEqual(1);
}

for (const language of ['en', 'ne'] as const) {
  test(`the role editor names permissions by area, without customers' codes (${language})`, async ({
    page,
  }, testInfo) => {
    const { area } = stringsOf('staff', language);
    await signIn(page);
    await useLanguage(page, language);
    await page.goto('/admin/roles');
    // The list reads in words too: the demo support agent's role.
    const agentRow = page.getByRole('row', { name: /Support agent/ });
    await expect(agentRow).toContainText(
      `${area.permissionGroups.SupportInquiries}: ${area.permissionActions.READ}, ${area.permissionActions.UPDATE}`,
    );
    await agentRow.getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel(area.permissions.SupportInquiries_UPDATE)).toBeChecked();
    // Areas of the back office, each a titled section.
    for (const key of ['sales', 'catalog', 'customers', 'staff'] as const) {
      await expect(
        dialog.getByRole('heading', { name: area.permissionAreas[key], exact: true }),
      ).toBeVisible();
    }
    await expect(dialog.getByLabel(area.permissions.Orders_READ, { exact: true })).not.toBeChecked();
    // No code is shown: not Orders_READ, not the customers' ORDERS_REORDER.
    await expect(dialog).not.toContainText(/[A-Za-z]+_[A-Z]+/);
    await expect(dialog.getByText(/REORDER/)).toHaveCount(0);
    // Areas without a screen here are folded away until asked for.
    await expect(dialog.getByLabel(area.permissions.Banners_READ)).toBeHidden();
    await dialog.getByRole('button', { name: area.permissionAreas.apiOnly }).click();
    await expect(dialog.getByLabel(area.permissions.Banners_READ)).toBeVisible();
    await expectNoSidewaysScroll(page, '.mantine-Modal-content, .mantine-Modal-body');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `role-editor-${language}`);
  });

  test(`the activity log names what happened, with money and BS dates as elsewhere (${language})`, async ({
    page,
    request,
  }, testInfo) => {
    const { area } = stringsOf('staff', language);
    const { orderId, orderNumber } = await collectedCodOrder(request);
    await signIn(page);
    await useLanguage(page, language);
    await page.goto('/admin/activity');
    await page.getByRole('combobox', { name: area.activity.entityType }).click();
    await page.getByRole('option', { name: area.activity.kinds.order, exact: true }).click();
    await page.getByLabel(area.activity.entityId).fill(String(orderId));
    // From today, picked in the calendar: its header names the BS months, its days their BS day.
    const today = storeToday();
    await page.getByRole('textbox', { name: area.activity.from }).click();
    // Mantine's calendar dropdown (a popover without a role of its own).
    const calendar = page.locator('.mantine-Popover-dropdown').filter({ visible: true });
    await expect(calendar).toContainText(language === 'ne' ? 'वि.सं.' : 'BS');
    const dayOfMonth = Number(today.slice(8));
    await calendar
      .getByRole('button', { name: new RegExp(`^${dayOfMonth} \\S+ ${today.slice(0, 4)} · \\d+`) })
      .and(page.locator(':not([data-outside])'))
      .click();
    // "29 Nov 2026" / "29 नोभेम्बर 2026", never "11/29/2026"; the BS date under it.
    await expect(page.getByRole('textbox', { name: area.activity.from })).toHaveValue(
      new RegExp(`^${dayOfMonth} [^\\d/]+ ${today.slice(0, 4)}$`),
    );
    await expect(
      page.getByText(language === 'ne' ? /^\d+ \S+ \d{4} वि\.सं\.$/ : /^\d+ \S+ \d{4} BS$/),
    ).toBeVisible();

    const row = page.getByRole('row', { name: new RegExp(orderNumber) });
    await expect(row).toContainText(area.activity.actions.cod_collect);
    await expect(row.getByRole('link', { name: `${area.activity.kinds.order} ${orderId}` })).toBeVisible();
    // "Collected NPR 2,500 cash …" / "रु 2,500": never the raw "2500 NPR".
    await expect(row).toContainText(language === 'ne' ? /रु [\d,]+/ : /NPR [\d,]+/);
    await expect(row).not.toContainText(/\d NPR/);
    await expect(row).not.toContainText('cod_collect');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `activity-log-${language}`);
  });
}
