// The back office on a shop owner's phone (390 px, issue 27 item 9), in English and Nepali: the
// header keeps its controls whole (the language switch and sign-out move into the menu), the
// orders list folds its filters behind a "Filters" button and shows cards instead of a table
// that scrolls sideways, and an order's items show their line total and serial number. And the
// main menu marks exactly one entry as the current page.
import { expect, type Locator, test } from '@playwright/test';
import {
  chooseLanguage,
  expectAccessible,
  expectListsSettled,
  expectNoSidewaysScroll,
  MENU_BUTTON,
  PHONE,
  signIn,
} from './console';
import { placeCodOrder } from './orders-api';
import { shot, stringsOf } from './staff-api';

// The little of the DOM these checks read in the page (the tests compile without the DOM's
// types, as the server does).
interface Element {
  tagName: string;
  textContent: string | null;
  offsetParent: unknown;
  clientWidth: number;
  scrollWidth: number;
  getBoundingClientRect(): { top: number; bottom: number };
  querySelectorAll(selector: string): Iterable<Element>;
}
interface Window {
  innerHeight: number;
  scrollBy(x: number, y: number): void;
  getComputedStyle(element: Element): { overflowX: string };
  document: { activeElement: unknown; documentElement: Element };
}

/** The control is wholly on the screen: not cut by the screen's edge nor by a scrolling box. */
async function expectWhole(control: Locator) {
  await expect(control).toBeVisible();
  // Brought into view by scrolling the page down only: scrolling a box sideways to it would
  // hide the very fault this looks for.
  await control.evaluate((element) => {
    const view = globalThis as unknown as Window;
    const { top, bottom } = (element as Element).getBoundingClientRect();
    if (top < 0 || bottom > view.innerHeight) view.scrollBy(0, top - view.innerHeight / 3);
  });
  const box = await control.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  await expect(control).toBeInViewport({ ratio: 1 });
}

/**
 * Nothing in the region is cut: no element that clips what overflows it (a button's label
 * squeezed by its neighbours) holds more than its width shows, as "Sign ou" did.
 */
async function expectNothingCut(region: Locator) {
  const cut = await region.evaluate((root) => {
    const view = globalThis as unknown as Window;
    return [root as Element, ...(root as Element).querySelectorAll('*')]
      .filter((el) => el.offsetParent != null) // shown, and an HTML element (SVG has none)
      .filter((el) => view.getComputedStyle(el).overflowX !== 'visible')
      .filter((el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
  });
  expect(cut).toEqual([]);
}

for (const language of ['en', 'ne'] as const) {
  const { area: s, common } = stringsOf('orders', language);

  test(`on a phone the header's controls are whole and the menu holds language and sign-out (${language})`, async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await signIn(page);
    await chooseLanguage(page, language);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, `phone-header-${language}`);

    await expectNoSidewaysScroll(page);
    // Every control the header shows is whole on the screen.
    const header = page.getByRole('banner');
    const controls = header.locator('button:visible, select:visible, a:visible, input:visible');
    expect(await controls.count()).toBeGreaterThanOrEqual(2);
    for (const control of await controls.all()) await expectWhole(control);
    await expectNothingCut(header);
    const menuButton = header.getByRole('button', { name: MENU_BUTTON });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    // By keyboard: the menu opens, and Tab reaches the language switch and then sign-out.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('navigation', { name: common.layout.menu })).toBeVisible();
    const signOut = page.getByRole('button', { name: common.actions.signOut });
    const languageSwitch = page.getByLabel('Language');
    let reached = false;
    for (let presses = 0; presses < 60 && !reached; presses++) {
      await page.keyboard.press('Tab');
      reached = await signOut.evaluate(
        (element) => element === (globalThis as unknown as Window).document.activeElement,
      );
    }
    expect(reached).toBe(true);
    await expectWhole(signOut);
    await expectWhole(languageSwitch);
    await expectNothingCut(page.getByRole('group', { name: common.layout.account }));
    await expect(languageSwitch).toHaveValue(language);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await shot(page, `phone-menu-${language}`);
  });

  test(`on a phone the orders list folds its filters and shows cards (${language})`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signIn(page);
    await chooseLanguage(page, language);
    await page.goto('/admin/orders');
    await expect(page.getByRole('heading', { name: s.list.title, level: 1 })).toBeVisible();
    await expectListsSettled(page);
    await expect(page.getByText(s.list.columns.total).first()).toBeVisible();
    await shot(page, `phone-orders-${language}`);

    await expectNoSidewaysScroll(page);
    // The filters are folded: one button, the search box still at hand.
    const filters = page.getByRole('button', { name: common.filters.toggle, exact: true });
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByLabel(s.filters.status)).toBeHidden();
    await expect(page.getByRole('searchbox', { name: s.filters.search })).toBeVisible();

    // Cards, each field with its column's label, instead of a table that scrolls sideways.
    await expect(page.getByRole('table')).toHaveCount(0);
    const cards = page.getByRole('list', { name: s.list.caption }).getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    const card = cards.first();
    for (const label of Object.values(s.list.columns) as string[]) {
      await expect(card.getByText(label, { exact: true })).toBeVisible();
    }
    await expectWhole(card.getByText(s.list.columns.total, { exact: true }));
    await expectWhole(card.getByText(s.list.columns.fulfilment, { exact: true }));
    await expectAccessible(page);

    // Unfolded, a status chosen: the address keeps it and the button counts it.
    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    await page.getByLabel(s.filters.status).selectOption({ label: s.orderStatus.payment_pending });
    await expect(page).toHaveURL(/status=payment_pending/);
    const counted = common.filters.toggleActive.replace('{{shown}}', '1');
    await expect(page.getByRole('button', { name: counted })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await shot(page, `phone-orders-filters-${language}`);

    // From the address alone (a bookmark, Back): folded, and still saying one is on.
    await page.goto('/admin/orders?status=payment_pending&paymentMethod=cod');
    await expect(page.getByRole('heading', { name: s.list.title, level: 1 })).toBeVisible();
    const two = page.getByRole('button', { name: common.filters.toggleActive.replace('{{shown}}', '2') });
    await expect(two).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByLabel(s.filters.status)).toBeHidden();
  });

  test(`on a phone an order's items show the line total and serial number (${language})`, async ({
    page,
    baseURL,
  }) => {
    const order = await placeCodOrder(baseURL!);
    await page.setViewportSize(PHONE);
    await signIn(page);
    await chooseLanguage(page, language);
    await page.goto(`/admin/orders/${order.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(order.orderNumber);
    const main = page.getByRole('main');
    await expect(main.getByText('Silver Om Pendant').first()).toBeVisible();
    await shot(page, `phone-order-${language}`);

    await expectNoSidewaysScroll(page);
    const items = main.getByRole('list', { name: s.items.title });
    const line = items.getByRole('listitem').filter({ hasText: 'Silver Om Pendant' });
    await expectWhole(line.getByText(s.items.lineTotal, { exact: true }));
    await expectWhole(line.getByText(s.items.serial, { exact: true }));
    await expectWhole(line.getByText(s.items.noSerial, { exact: true }));
    await expectWhole(line.getByRole('button', { name: `${s.serial.record}: Silver Om Pendant` }));
    await expectAccessible(page);
  });
}

test('the main menu marks exactly one entry as the current page', async ({ page, baseURL }) => {
  const { area: counter } = stringsOf('counter', 'en');
  const { area: orders, common } = stringsOf('orders', 'en');
  const order = await placeCodOrder(baseURL!);
  await signIn(page);
  const menu = page.getByRole('navigation', { name: common.layout.menu });
  const current = menu.locator('[aria-current="page"]');

  // "Counter" (/counter) is a prefix of "Counter sales" (/counter/sales): only the deeper one.
  await menu.getByRole('link', { name: counter.menu.sales, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText(counter.menu.sales);

  await menu.getByRole('link', { name: counter.menu.counter, exact: true }).click();
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText(counter.menu.counter);

  // A page under an entry (an order) marks that entry; so does its list with filters.
  await page.goto(`/admin/orders/${order.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(order.orderNumber);
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText(orders.menu.orders);
  await page.goto('/admin/orders?status=payment_pending');
  await expect(page.getByRole('heading', { name: orders.list.title, level: 1 })).toBeVisible();
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText(orders.menu.orders);
  await expectAccessible(page);
});
