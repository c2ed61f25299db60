// EMI, in English and in Nepali: a partner bank is added in the settings and offered to the
// storefront, then deactivated and no longer offered; an instalment inquiry that came from the
// storefront is moved to "contacted" with a note. Each step ends by asking the API.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './console';
import {
  adminGet,
  adminToken,
  apiCall,
  productTitled,
  signInPatiently,
  stringsOf,
  useLanguage,
} from './staff-api';

interface PublicBank {
  id: number;
  name: string;
}

interface AdminInquiry {
  id: number;
  customerName: string;
  status: string;
  statusNote: string | null;
}

async function openFromMenu(page: Page, name: string, title: string) {
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

for (const language of ['en', 'ne'] as const) {
  const s = stringsOf('emi', language);

  test(`a partner bank is offered to the storefront until it is deactivated (${language})`, async ({
    page,
    request,
  }, testInfo) => {
    const name = `Nabil Bank ${language} ${Date.now().toString(36)}`;
    const offered = async () =>
      (await apiCall<PublicBank[]>(request, 'GET', '/api/mobile/emi/banks')).map((bank) => bank.name);

    await signInPatiently(page);
    await useLanguage(page, language);
    await openFromMenu(page, s.area.menu.settings, s.area.settings.title);
    await page.getByRole('button', { name: s.area.banks.add }).click();
    const dialog = page.getByRole('dialog', { name: s.area.banks.addTitle });
    await dialog.getByLabel(s.area.banks.name).fill(name);
    await dialog.getByLabel(s.area.banks.order).fill('1');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: s.area.banks.save }).click();
    await expect(dialog).toHaveCount(0);
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText(s.area.banks.active);
    await expect.poll(offered).toContain(name);
    await keepScreenshot(page, testInfo, `emi-banks-${language}`);

    await row.getByRole('button', { name: `${s.area.banks.deactivate}: ${name}` }).click();
    await expect(row).toContainText(s.area.banks.inactive);
    await expect(row.getByRole('button', { name: `${s.area.banks.reactivate}: ${name}` })).toBeVisible();
    await expect.poll(offered).not.toContain(name);
    await expectAccessible(page);
  });

  test(`an EMI inquiry from the storefront is moved to contacted with a note (${language})`, async ({
    page,
    request,
  }, testInfo) => {
    const token = await adminToken(request);
    const product = await productTitled(request, token, 'Ganesh Brass Statue, 20 cm');
    const [bank] = await apiCall<PublicBank[]>(request, 'GET', '/api/mobile/emi/banks');
    const customerName = `Maya Gurung ${language} ${Date.now().toString(36)}`;
    const asked = await apiCall<{ id: number }>(request, 'POST', '/api/mobile/emi/inquiries', undefined, {
      productId: product.id,
      customerName,
      customerEmail: 'maya.gurung@example.com',
      customerMobile: '+977 9841000000',
      bankIds: [bank!.id],
      hasCreditCard: false,
      downPaymentAmount: 2000,
    });

    await signInPatiently(page);
    await useLanguage(page, language);
    await openFromMenu(page, s.area.menu.inquiries, s.area.inquiries.title);
    await page.getByRole('searchbox', { name: s.area.inquiries.search }).fill(customerName);
    await page.getByRole('button', { name: s.area.inquiries.find }).click();
    const row = page.getByRole('row').filter({ hasText: customerName });
    await expect(row).toContainText(s.area.status.new);
    await row
      .getByRole('button', { name: s.area.inquiries.changeFor.replace('{{name}}', customerName) })
      .click();
    const dialog = page.getByRole('dialog', {
      name: s.area.inquiries.changeOf.replace('{{name}}', customerName),
    });
    await dialog.getByLabel(s.area.inquiries.status).selectOption('contacted');
    await dialog.getByLabel(s.area.inquiries.note).fill('Called back; wants 12 months with Nabil Bank.');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: s.area.inquiries.save }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row).toContainText(s.area.status.contacted);
    const stored = await adminGet<AdminInquiry>(request, token, `/api/admin/emi/inquiries/${asked.id}`);
    expect(stored).toMatchObject({
      status: 'contacted',
      statusNote: 'Called back; wants 12 months with Nabil Bank.',
    });
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `emi-inquiries-${language}`);
  });
}
