// The support inbox: a guest's inquiry arrives while staff have the inbox open, and is answered;
// account holders' conversations carry the customer's name.
import { expect, test } from '@playwright/test';
import { DEMO_AGENT, expectAccessible, keepScreenshot, signIn } from './console';
import { stringsOf, useLanguage } from './staff-api';

test('answer a guest inquiry that arrives live while the inbox is open', async ({
  page,
  request,
}, testInfo) => {
  await signIn(page);
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Support inbox' })
    .click();
  await expect(page.getByRole('heading', { name: 'Support inbox' })).toBeVisible();
  // The realtime connection is up before the guest writes.
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();

  // A guest writes in through the storefront's public API while the inbox stays open.
  const subject = `Delivery to Jumla before Dashain? (${testInfo.workerIndex}-${Date.now()})`;
  const created = await request.post('/api/support-inquiries', {
    data: {
      category: 'order',
      subject,
      message: 'Can you deliver a singing bowl to Jumla within a week?',
      guestName: 'Dawa Lama',
      guestEmail: 'dawa.lama@example.com',
    },
  });
  expect(created.status()).toBe(201);
  const inquiry = (await created.json()).data as { id: number; inquiryAccessToken: string };
  const guest = { authorization: `Bearer ${inquiry.inquiryAccessToken}` };

  // It appears without a reload, and opens.
  const conversations = page.getByRole('navigation', { name: 'Conversations' });
  const line = conversations.getByRole('link', { name: new RegExp(subject.replace(/[()?]/g, '\\$&')) });
  await expect(line).toBeVisible({ timeout: 20_000 });
  await expect(line.getByText('Waiting for reply')).toBeVisible();
  await line.click();
  await expect(page.getByRole('heading', { name: subject })).toBeVisible();
  const messages = page.getByRole('log', { name: 'Messages' });
  await expect(messages.getByText('Can you deliver a singing bowl to Jumla within a week?')).toBeVisible();
  await expect(page.getByText('Dawa Lama · dawa.lama@example.com')).toBeVisible();

  // The guest adds a line while the conversation is open: it arrives on the socket.
  const more = await request.post(`/api/support-inquiries/${inquiry.id}/messages`, {
    headers: guest,
    data: { body: 'It is for my uncle in Jumla bazaar.' },
  });
  expect(more.status()).toBe(201);
  await expect(messages.getByText('It is for my uncle in Jumla bazaar.')).toBeVisible();

  // Staff answer; the guest reads the answer through the public API.
  const reply = 'Namaste Dawa ji, yes: Jumla takes four to five days by courier. We can send it tomorrow.';
  await page.getByLabel('Your reply').fill(reply);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(messages.getByText(reply)).toBeVisible();
  await expect(page.getByLabel('Your reply')).toHaveValue('');

  const seen = await request.get(`/api/support-inquiries/${inquiry.id}/messages`, { headers: guest });
  expect(seen.status()).toBe(200);
  const bodies = (await seen.json()).data as Array<{ authorType: string; body: string }>;
  expect(bodies).toContainEqual(expect.objectContaining({ authorType: 'admin', body: reply }));

  // Assign it to oneself: the list marks it as mine.
  await page.getByRole('button', { name: 'Assign to me' }).click();
  await expect(line.getByText('Mine')).toBeVisible();

  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'support-inbox');
});

for (const language of ['en', 'ne'] as const) {
  test(`the inbox names account holders by their account's name (${language})`, async ({
    page,
  }, testInfo) => {
    const { area } = stringsOf('support', language);
    await signIn(page, DEMO_AGENT);
    await useLanguage(page, language);
    await page.goto('/admin/support');
    const conversations = page.getByRole('navigation', { name: area.inbox.listLabel });
    // seed:demo: Sita Shrestha's inquiry (signed in, no guest name) and Ram Thapa's ticket.
    const sita = conversations.getByRole('link', { name: /Gift wrapping for my singing bowl order/ });
    const ram = conversations.getByRole('link', { name: /Charged twice for one order/ });
    await expect(sita).toContainText('Sita Shrestha');
    await expect(ram).toContainText('Ram Thapa');
    for (const line of [sita, ram]) {
      await expect(line.getByText(area.inbox.customer, { exact: true })).toHaveCount(0);
    }
    // The open ticket names its customer too, for a role that may not read customer accounts.
    await ram.click();
    const account = page
      .getByText(area.conversation.account, { exact: true })
      .locator('xpath=following-sibling::*[1]');
    await expect(account).toHaveText('Ram Thapa');
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `support-inbox-names-${language}`);
  });
}
