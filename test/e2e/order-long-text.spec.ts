// The order page with long text people typed (issue 27): a staff note of one 2,000-character
// "word" (the longest the API takes; a 20,000-character paste used to be cut to it silently and
// made the page 15,098 px wide) and a 1,000-character fulfilment remark break inside their cards,
// at 1366 px and on a phone; a note too long or empty is refused under the box, and not sent;
// a fulfilment remark pasted too long stays whole and is flagged under its box.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, keepScreenshot, signIn } from './console';
import { adminToken, api, placeCodOrder } from './orders-api';

const NOTE = `NOTE${'x'.repeat(1992)}DONE`;
const REMARK = `PACK${'y'.repeat(992)}DONE`;

/** How far the page reaches sideways beyond the window (0: nothing to scroll to). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

/** Whether the region lies within the window's width. */
async function withinWidth(page: Page, name: string) {
  const box = await page.getByRole('region', { name }).boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

test('a long unbroken note and remark wrap on the order page; an empty or too long note gets a message', async ({
  page,
  baseURL,
}, testInfo) => {
  const base = baseURL ?? '';
  const order = await placeCodOrder(base);
  const token = await adminToken(base);
  await api(base, 'POST', `/api/admin/orders/${order.id}/notes`, token, { note: NOTE });
  await api(base, 'POST', `/api/admin/orders/${order.id}/fulfillment-status`, token, {
    status: 'ready',
    remarks: REMARK,
  });
  await expect
    .poll(async () => {
      const detail = await api<{ fulfillmentStatus: string }>(
        base,
        'GET',
        `/api/admin/orders/${order.id}`,
        token,
      );
      return detail.fulfillmentStatus;
    })
    .toBe('ready');

  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page);
  await page.goto(`/admin/orders/${order.id}`);
  const notes = page.getByRole('region', { name: 'Staff notes' });
  await expect(notes.getByRole('listitem')).toHaveCount(1);
  await expect(notes.getByRole('listitem')).toContainText('NOTExxxx');
  await expect(page.getByRole('region', { name: 'Fulfilment' })).toContainText('PACKyyyy');
  expect(await sidewaysOverflow(page)).toBe(0);
  for (const region of ['Customer', 'Payment', 'Staff notes', 'Fulfilment']) {
    expect(await withinWidth(page, region), region).toBe(true);
  }
  // The whole note is there, broken over lines inside its card: its last characters too.
  expect(await notes.getByRole('listitem').innerText()).toContain(`${'x'.repeat(20)}DONE`);
  await keepScreenshot(page, testInfo, 'order-long-note-1366');

  // An empty note: a message under the box, nothing sent.
  const box = page.getByLabel('New note');
  const add = page.getByRole('button', { name: 'Add note' });
  await add.click();
  await expect(notes.getByText('New note must not be empty.')).toBeVisible();
  // A 20,000-character paste stays whole in the box and is refused with the limit, not cut short.
  await box.fill('z'.repeat(20_000));
  expect((await box.inputValue()).length).toBe(20_000);
  await expect(notes.getByText('New note must not be empty.')).toHaveCount(0);
  await add.click();
  await expect(notes.getByText('New note can have at most 2,000 characters.')).toBeVisible();
  await expect(notes.getByRole('listitem')).toHaveCount(1);
  expect(await sidewaysOverflow(page)).toBe(0);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'order-note-too-long-1366');

  // A note within the limit still goes through.
  await box.fill('Call before 5pm');
  await add.click();
  await expect(notes.getByRole('listitem')).toHaveCount(2);
  await expect(notes.getByText('New note can have at most 2,000 characters.')).toHaveCount(0);

  // A fulfilment remark pasted longer than the API's 1,000 characters stays whole in its box,
  // which says so before anything is sent (it used to be cut at 1,000 as it was pasted).
  await page.getByRole('button', { name: 'Mark as picked up' }).click();
  const step = page.getByRole('dialog');
  const remarks = step.getByLabel('Remarks');
  await remarks.fill('r'.repeat(1_500));
  expect((await remarks.inputValue()).length).toBe(1_500);
  await expect(step.getByText('Remarks can have at most 1,000 characters.')).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'order-remark-too-long-1366');
  await page.keyboard.press('Escape');
  await expect(step).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(notes.getByRole('listitem')).toHaveCount(2);
  expect(await sidewaysOverflow(page)).toBe(0);
  for (const region of ['Customer', 'Staff notes', 'Fulfilment']) {
    expect(await withinWidth(page, region), region).toBe(true);
  }
  await keepScreenshot(page, testInfo, 'order-long-note-390');
});
