// Reviews and testimonials: a customer's review waits in the queue (with the name masked as the
// storefront shows it and the order it came from), is approved in the console and then appears
// on the product's public reviews; testimonials are added and reordered and the storefront's list
// follows; a review rejected with a reason shows it in the queue and leaves the storefront, a
// deleted one leaves the queue; a role that may only read sees no moderation buttons, and the
// API agrees.
import { expect, test } from '@playwright/test';
import { expectAccessible, expectListsSettled, keepScreenshot, signIn } from './console';
import { adminApi, api, chooseLanguage, customerApi, limitedStaff } from './marketing';

test('a customer review is approved in the queue and appears on the product', async ({
  page,
  baseURL,
}, testInfo) => {
  // The demo customer reviews the delivered laptop of their seeded orders.
  const customer = await customerApi(baseURL!);
  const [delivered] = await customer.data('GET', '/api/mobile/orders?fulfillmentStatus=delivered');
  const order = await customer.data('GET', `/api/mobile/orders/${delivered.id}`);
  const item = order.items[0];
  const comment = `Fast, quiet and the battery lasts all day ${Date.now().toString(36)}`;
  await customer.data('POST', '/api/mobile/reviews', { orderItemId: item.id, rating: 4, comment });

  await signIn(page);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Reviews' }).click();
  await expect(page.getByRole('heading', { name: 'Reviews', level: 1 })).toBeVisible();
  // The queue opens on the reviews waiting for a decision.
  await expect(page.getByLabel('Review status')).toHaveValue('pending');
  const card = page.getByRole('listitem').filter({ hasText: comment });
  await expect(card).toBeVisible();
  await expect(card).toContainText('By S*** S***');
  await expect(card).toContainText('4 out of 5');
  await expect(card).toContainText('Waiting for a decision');
  await expect(card.getByRole('link', { name: `Order #${delivered.id}` })).toBeVisible();

  // Filters live in the address: a rating the review does not have finds nothing.
  await page.getByLabel('Stars').selectOption({ label: '1 star' });
  await expect(page).toHaveURL(/rating=/);
  await expect(page.getByText('No review matches these filters.')).toBeVisible();
  await page.getByLabel('Stars').selectOption({ label: '4 stars' });
  await expectListsSettled(page);
  await expect(card).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'reviews-queue');

  await card.getByRole('button', { name: /^Approve the review by S\*\*\* S\*\*\*/ }).click();
  await expect(card).toHaveCount(0);
  await page.getByLabel('Review status').selectOption({ label: 'Approved' });
  await expect(page.getByRole('listitem').filter({ hasText: comment })).toContainText('Approved');

  // The storefront now shows it, under the masked name.
  const reviews = await api(baseURL!).call('GET', `/api/products/id/${item.productId}/reviews?size=100`);
  expect(reviews.status).toBe(200);
  expect(reviews.body.data).toContainEqual(
    expect.objectContaining({ comment, rating: 4, customerDisplayName: 'S*** S***' }),
  );

  // In Nepali, and on a phone: the same queue, its approve and reject buttons in reach.
  await chooseLanguage(page, 'ne');
  await expect(page.getByRole('heading', { name: 'समीक्षाहरू', level: 1 })).toBeVisible();
  await page.getByLabel('समीक्षाको अवस्था').selectOption({ label: 'सबै अवस्था' });
  await page.getByLabel('तारा').selectOption({ label: 'जुनसुकै' });
  await expectListsSettled(page);
  const approved = page.getByRole('listitem').filter({ hasText: comment });
  await expect(approved).toContainText('स्वीकृत');
  await expect(approved).toContainText('५ मध्ये 4');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(approved.getByRole('button', { name: /अस्वीकृत गर्नुहोस्/ })).toBeInViewport({ ratio: 1 });
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'reviews-queue-nepali-390');
});

test('a review rejected with a reason shows why and leaves the storefront; a deleted one is gone', async ({
  page,
  baseURL,
}, testInfo) => {
  const admin = await adminApi(baseURL!);
  // A published product: the newest one may be another spec's draft, whose public reviews 404.
  const [product] = await admin.data('GET', '/api/admin/products?size=1&status=published');
  const stamp = Date.now().toString(36);
  const review = await admin.data('POST', '/api/admin/reviews', {
    productId: product.id,
    reviewerName: 'Kamala Thapa',
    rating: 2,
    comment: `Mentions another shop ${stamp}`,
  });
  const publicComments = async () =>
    (await api(baseURL!).data('GET', `/api/products/id/${product.id}/reviews?size=100`)).map(
      (r: { comment: string }) => r.comment,
    );
  expect(await publicComments()).toContain(review.comment);

  await signIn(page);
  await page.goto(`/admin/reviews?status=all&search=${stamp}`);
  const card = page.getByRole('listitem').filter({ hasText: review.comment });
  await card.getByRole('button', { name: /^Reject the review by Kamala Thapa/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject this review?' });
  await dialog.getByLabel('Reason (optional)').fill('Names a competitor shop');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card).toContainText('Rejected');
  await expect(card).toContainText('Why it was rejected: Names a competitor shop');
  expect(await publicComments()).not.toContain(review.comment);

  await chooseLanguage(page, 'ne');
  await expect(card).toContainText('अस्वीकृत गर्नुको कारण: Names a competitor shop');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'reviews-rejected-reason-nepali');

  await card.getByRole('button', { name: /मेटाउनुहोस्$/ }).click();
  await page
    .getByRole('dialog', { name: 'यो समीक्षा सधैँका लागि मेटाउने?' })
    .getByRole('button', { name: 'मेटाउनुहोस्' })
    .click();
  await expect(card).toHaveCount(0);
  expect((await admin.call('GET', `/api/admin/reviews/${review.id}`)).status).toBe(404);
});

test('testimonials are added, reordered and shown on the storefront in that order', async ({
  page,
  baseURL,
}, testInfo) => {
  const stamp = Date.now().toString(36);
  const first = `Sunita ${stamp}`;
  const second = `Bikash ${stamp}`;
  await signIn(page);
  await page.getByRole('link', { name: 'Testimonials' }).click();
  await expect(page.getByRole('heading', { name: 'Testimonials', level: 1 })).toBeVisible();
  for (const [name, words] of [
    [first, 'The thangka arrived rolled in a tube, perfect.'],
    [second, 'Helpful staff on the phone.'],
  ] as const) {
    await page.getByRole('button', { name: 'Add testimonial' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a testimonial' });
    await dialog.getByLabel("Customer's name").fill(name);
    await dialog.getByLabel('What they said').fill(words);
    await dialog.getByLabel('Rating').selectOption({ label: '5 stars' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toHaveCount(0);
  }
  // A position takes whole numbers only.
  await page.getByRole('button', { name: 'Add testimonial' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a testimonial' });
  await dialog.getByLabel('Position').fill('');
  await dialog.getByLabel('Position').pressSequentially('-2.5');
  // Kept as typed and refused under the box, never read as 25 (issue 27, item 1).
  await expect(dialog.getByLabel('Position')).toHaveValue('-2.5');
  await expect(dialog.getByLabel('Position')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Position').fill('25');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByLabel("Customer's name")).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('What they said')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expectAccessible(page);

  await page.getByLabel('Search testimonials').fill(stamp);
  await expectListsSettled(page);
  const table = page.getByRole('table', { name: /^Testimonials/ });
  await expect(table.getByRole('row').nth(1)).toContainText(first);
  await expect(table.getByRole('row').nth(2)).toContainText(second);
  // Reordering is for the whole list, not a search of it.
  await expect(page.getByRole('button', { name: `Move ${second} up` })).toHaveCount(0);
  await page.getByLabel('Search testimonials').fill('');
  await expectListsSettled(page);
  await page.getByRole('button', { name: `Move ${second} up` }).click();
  // The move is saved, then the list is read again: asked until it shows the new order (a
  // single read can land between the click and the refetch).
  await expect
    .poll(async () => {
      const names = await table.getByRole('row').allInnerTexts();
      const [at, before] = [second, first].map((name) => names.findIndex((row) => row.includes(name)));
      return at! >= 0 && at! < before!;
    })
    .toBe(true);
  await expectListsSettled(page);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'testimonials');

  const shown = await api(baseURL!).data('GET', '/api/reviews/testimonials?size=100');
  const order = shown.map((row: { name: string }) => row.name);
  expect(order.indexOf(second)).toBeGreaterThanOrEqual(0);
  expect(order.indexOf(second)).toBeLessThan(order.indexOf(first));

  await chooseLanguage(page, 'ne');
  await expect(page.getByRole('heading', { name: 'ग्राहकका भनाइहरू', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'भनाइ थप्नुहोस्' })).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'testimonials-nepali');
});

test('a role that may only read reviews sees no moderation, and the API refuses it too', async ({
  page,
  baseURL,
}) => {
  const reader = await limitedStaff(baseURL!, 'Review reader', ['Reviews_READ']);
  const admin = await adminApi(baseURL!);
  const [product] = await admin.data('GET', '/api/admin/products?size=1');
  const review = await admin.data('POST', '/api/admin/reviews', {
    productId: product.id,
    reviewerName: 'Ram Bahadur',
    rating: 3,
    comment: `Seeded for the reader ${Date.now().toString(36)}`,
  });

  await signIn(page, reader);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Reviews' }).click();
  await page.getByLabel('Review status').selectOption({ label: 'Approved' });
  const card = page.getByRole('listitem').filter({ hasText: review.comment });
  // Seeded reviews show the name as typed; no product link without Products_READ.
  await expect(card).toContainText('By Ram Bahadur');
  await expect(card.getByRole('button')).toHaveCount(0);
  await expect(page.getByLabel('Product', { exact: true })).toHaveCount(0);
  await chooseLanguage(page, 'ne');
  await expect(card.getByRole('button')).toHaveCount(0);
  await expectAccessible(page);
  await chooseLanguage(page, 'en');
  await menu.getByRole('link', { name: 'Testimonials' }).click();
  await expect(page.getByRole('heading', { name: 'Testimonials', level: 1 })).toBeVisible();
  await expectListsSettled(page);
  await expect(page.getByRole('button', { name: 'Add testimonial' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Edit|Delete|Move) / })).toHaveCount(0);

  // What the console hides, the API refuses.
  const asReader = await adminApi(baseURL!, reader);
  const refused = await asReader.call('PATCH', `/api/admin/reviews/${review.id}/status`, {
    status: 'rejected',
  });
  expect(refused.status).toBe(403);
  expect(
    (await asReader.call('POST', '/api/admin/reviews/testimonials', { name: 'X', rating: 5, comment: 'Y' }))
      .status,
  ).toBe(403);
  expect((await asReader.call('GET', '/api/admin/reviews?size=1')).status).toBe(200);
});
