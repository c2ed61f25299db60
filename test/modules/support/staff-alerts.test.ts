// A new conversation reaches staff at once: a new inquiry alerts the admins who may read
// inquiries, a new ticket those who may read tickets (their feed, read here; the same
// notification reaches their sockets as `admin.notification`, which admin-notifications.test.ts
// covers for every notification), and nobody else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { type SignedIn, signedInAdmin, signedInCustomer } from '../../helpers/factories';
import { caller } from './support-helpers';

describe('staff alerts for new support conversations', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let inquiryReader: SignedIn;
  let ticketReader: SignedIn;
  let customer: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    call = caller(t);
    inquiryReader = await signedInAdmin(t, { permissions: ['SupportInquiries_READ'] });
    ticketReader = await signedInAdmin(t, { permissions: ['SupportRequests_READ'] });
    customer = await signedInCustomer(t);
  });
  afterAll(() => t.close());

  const feed = async (who: SignedIn) =>
    (await call('GET', '/api/admin/notifications', { headers: who.headers })).json().data as Array<{
      type: string;
      title: string;
      body: string;
      data: Record<string, unknown>;
    }>;

  it('a guest inquiry alerts the inquiry readers with its id, not the ticket readers', async () => {
    const created = await call('POST', '/api/support-inquiries', {
      payload: { category: 'order', subject: 'Late delivery', message: 'Where is it?', guestName: 'Ram' },
    });
    expect(created.statusCode).toBe(201);
    const [newest] = await feed(inquiryReader);
    expect(newest).toMatchObject({
      type: 'support.inquiry.created',
      title: 'New support inquiry',
      body: 'Ram: Late delivery',
      data: { inquiryId: created.json().data.id },
    });
    expect((await feed(ticketReader)).map((n) => n.type)).not.toContain('support.inquiry.created');
  });

  it('a customer ticket alerts the ticket readers with its id, not the inquiry readers', async () => {
    const created = await call('POST', '/api/mobile/support-requests', {
      headers: customer.headers,
      payload: { category: 'technical', subject: 'App crashes', message: 'On launch' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    const [newest] = await feed(ticketReader);
    expect(newest).toMatchObject({
      type: 'support.request.created',
      body: `Ticket #${id}: App crashes`,
      data: { requestId: id },
    });
    expect((await feed(inquiryReader)).map((n) => n.type)).not.toContain('support.request.created');
  });
});
