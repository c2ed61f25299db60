// Content pages: sections are added with the form of their type (the API's validation shown
// under the field it names), reordered from the keyboard, switched off, and the page's public
// payload follows each change, and the page lists who changed what; a role that may only read
// sees no editing, and the API agrees.
import { expect, test } from '@playwright/test';
import { expectAccessible, keepScreenshot, signIn } from './console';
import { adminApi, api, chooseLanguage, limitedStaff } from './marketing';

const PAGE = 'products_statues';

test('a page is built from sections and the storefront receives them in order', async ({
  page,
  baseURL,
}, testInfo) => {
  // The longest walk of the console's specs (two languages, a tall page screenshotted whole):
  // on a loaded two-core machine it can pass the default minute.
  test.slow();
  // A page of this test's own: empty it first (a re-run on the same store starts clean).
  const admin = await adminApi(baseURL!);
  const before = await admin.data('GET', `/api/admin/content/pages/${PAGE}`);
  for (const section of before.sections) {
    await admin.data('DELETE', `/api/admin/content/pages/${PAGE}/sections/${section.sectionKey}`);
  }
  if (before.seoId) await admin.data('PATCH', `/api/admin/content/pages/${PAGE}/meta`, { seoId: null });

  await signIn(page);
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Content pages' })
    .click();
  await expect(page.getByRole('heading', { name: 'Content pages', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Storefront pages' });
  await expect(table.getByRole('row').filter({ hasText: 'Home' })).toContainText(/Live, \d+ sections/);
  await expect(table.getByRole('row').filter({ hasText: 'Statues page' })).toContainText(
    'No section shown yet',
  );
  await expectAccessible(page);
  await table.getByRole('link', { name: 'Statues page' }).click();
  await expect(page.getByRole('heading', { name: 'Statues page', level: 1 })).toBeVisible();
  await expect(page.getByText('This page has no sections yet.')).toBeVisible();

  // A products header.
  await page.getByLabel('Add a section').selectOption({ label: 'Products header' });
  let form = page.getByRole('form', { name: 'Section Products header' });
  await form.getByRole('textbox', { name: 'Heading', exact: true }).fill('Statues cast in Patan');
  await form.getByRole('button', { name: 'Save section' }).click();
  await expect(page.getByRole('listitem', { name: 'Products header' })).toBeVisible();

  // A hero with a link the API refuses: the message sits under that field.
  await page.getByLabel('Add a section').selectOption({ label: 'Hero' });
  form = page.getByRole('form', { name: 'Section Hero' });
  await form.getByRole('textbox', { name: 'Small label', exact: true }).first().fill('New this season');
  await form.getByRole('textbox', { name: 'Heading', exact: true }).fill('Buddha statues, lost-wax cast');
  await form
    .getByRole('textbox', { name: 'Description', exact: true })
    .fill('Each one finished by hand.\n\nGilded to order.');
  const button = form.getByRole('group', { name: 'Button' });
  await button.getByRole('textbox', { name: 'Small label', exact: true }).fill('See the statues');
  await button.getByLabel('Link address').fill('javascript:alert(1)');
  await form.getByRole('button', { name: 'Save section' }).click();
  await expect(form.getByRole('alert')).toContainText('1 value needs fixing');
  await expect(button.getByLabel('Link address')).toHaveAccessibleDescription(/must be an http\(s\) URL/);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'content-section-error');
  await button.getByLabel('Link address').fill('/collections/statues');
  await form.getByRole('button', { name: 'Save section' }).click();
  const hero = page.getByRole('listitem', { name: 'Hero' });
  await expect(hero).toBeVisible();

  // Reorder from the keyboard: the hero goes first.
  await hero.getByRole('button', { name: 'Move Hero up' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Hero is now number 1 of 2.' })).toBeVisible();
  const publicPage = async () => (await api(baseURL!).data('GET', `/api/content/pages/${PAGE}`)).sections;
  await expect
    .poll(async () => (await publicPage()).map((s: { sectionKey: string }) => s.sectionKey))
    .toEqual(['hero', 'products_header']);
  const [publicHero] = await publicPage();
  expect(publicHero.payloadJson.cta.href).toBe('/collections/statues');
  expect(publicHero.payloadJson.description.content).toHaveLength(2);

  // Switched off: the storefront no longer receives it; the preview shows what it receives.
  await page.getByRole('switch', { name: 'Show Products header on the storefront' }).click();
  await expect
    .poll(async () => (await publicPage()).map((s: { sectionKey: string }) => s.sectionKey))
    .toEqual(['hero']);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(
    page.getByRole('region', { name: 'As the storefront receives it' }).locator('pre'),
  ).toContainText('Buddha statues, lost-wax cast');
  await expect(
    page.getByRole('region', { name: 'As the storefront receives it' }).locator('pre'),
  ).not.toContainText('Statues cast in Patan');
  // An SEO record made from the page and linked to it; the storefront receives it.
  const seo = page.getByRole('region', { name: 'SEO record' });
  await seo.getByLabel('Title for search engines').fill('Buddha statues from Patan');
  await seo.getByRole('button', { name: 'Create SEO record' }).click();
  await expect(seo.getByRole('button', { name: 'Unlink' })).toBeVisible();
  await expect
    .poll(async () => (await api(baseURL!).data('GET', `/api/content/pages/${PAGE}`)).seo?.metaTitle)
    .toBe('Buddha statues from Patan');

  // Who changed what: the switch just made, in words.
  const history = page.getByRole('table', { name: 'Changes to this page, newest first' });
  await expect(history.getByRole('row').nth(1)).toContainText('Changed: SEO record');
  await expect(history.getByRole('row').nth(2)).toContainText('Section changed: Products header (hidden)');
  await expect(page.getByRole('status').filter({ hasText: 'Live, 1 section' })).toContainText(
    '1 section hidden.',
  );
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'content-page');

  await chooseLanguage(page, 'ne');
  await expect(page.getByRole('heading', { name: 'मूर्ति पृष्ठ', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'मुख्य ब्यानर खण्ड माथि सार्नुहोस्' })).toBeDisabled();
  const historyNe = page.getByRole('table', { name: 'यो पृष्ठका परिवर्तनहरू, नयाँ पहिले' });
  await expect(historyNe.getByRole('row').nth(1)).toContainText('बदलियो: SEO विवरण');
  await expect(historyNe.getByRole('row').nth(2)).toContainText('खण्ड बदलियो: उत्पादन शीर्ष भाग (लुकेको)');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'content-page-nepali');
});

test('a role that may only read content sees the sections but cannot change them', async ({
  page,
  baseURL,
}) => {
  const reader = await limitedStaff(baseURL!, 'Content reader', ['Content_READ']);
  await signIn(page, reader);
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Content pages' })
    .click();
  await page.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const first = page.getByRole('listitem').first();
  await expect(first.getByRole('switch')).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Move |^Delete |Save title/ })).toHaveCount(0);
  await expect(page.getByLabel('Add a section')).toHaveCount(0);
  await first.getByRole('button', { name: /^View / }).click();
  await expect(page.getByRole('button', { name: 'Save section' })).toHaveCount(0);
  await chooseLanguage(page, 'ne');
  await expectAccessible(page);
  const asReader = await adminApi(baseURL!, reader);
  const home = await asReader.data('GET', '/api/admin/content/pages/home');
  const [section] = home.sections;
  const refused = await asReader.call('PUT', `/api/admin/content/pages/home/sections/${section.sectionKey}`, {
    payloadJson: section.payloadJson,
    isEnabled: false,
  });
  expect(refused.status).toBe(403);
});
