// `npm run seed:demo`'s support and staff part on the demo store: a limited role with an admin
// who signs in and sees only support, a second customer, inquiries with messages, a ticket
// waiting for staff, feedback; a second run adds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoStore } from '../../../scripts/seed-demo';
import {
  DEMO_AGENT,
  DEMO_CUSTOMER_2,
  DEMO_SUPPORT_ROLE,
  seedDemoSupport,
} from '../../../scripts/seed-demo-support';
import { createTestApp, type TestApp } from '../../helpers/app';
import { demoSeedDeps } from '../../helpers/demo';

describe('seed:demo, support and staff', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('seeds a limited support agent, conversations and feedback, once', async () => {
    const summary = await seedDemoStore(demoSeedDeps(t));
    const first = await seedDemoSupport(t.app, t.platform.database.db, summary);
    expect(first).toMatchObject({ inquiries: 2, tickets: 1, feedback: 2 });

    // The agent signs in with the printed password and holds only the support codes.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/email',
      payload: { email: DEMO_AGENT.email, password: DEMO_AGENT.password },
    });
    expect(login.statusCode).toBe(200);
    const agent = { authorization: `Bearer ${login.json().data.tokens.accessToken}` };
    const granted = await t.app.inject({ method: 'GET', url: '/api/auth/permissions', headers: agent });
    expect(granted.json().data).toEqual({
      role: DEMO_SUPPORT_ROLE.name,
      permissions: [...DEMO_SUPPORT_ROLE.permissions].sort(),
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/orders', headers: agent })).statusCode).toBe(
      403,
    );

    // What the inbox shows: a guest's inquiry and a customer's, each with the greeting and messages.
    const inquiries = (
      await t.app.inject({ method: 'GET', url: '/api/admin/support-inquiries', headers: agent })
    ).json().data as Array<{ id: number; guestName: string | null; customerId: string | null }>;
    expect(inquiries.filter((i) => i.guestName === 'Pemba Sherpa' && i.customerId === null)).toHaveLength(1);
    expect(inquiries.filter((i) => i.customerId !== null)).toHaveLength(1);
    for (const inquiry of inquiries) {
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/admin/support-inquiries/${inquiry.id}`,
        headers: agent,
      });
      const authors = detail.json().data.messages.map((m: { authorType: string }) => m.authorType);
      expect(authors[0]).toBe('system');
      expect(authors.length).toBeGreaterThanOrEqual(3);
    }
    const tickets = (
      await t.app.inject({ method: 'GET', url: '/api/admin/support-requests', headers: agent })
    ).json().data as Array<{
      status: string;
      lastCustomerMessageAt: string | null;
      lastAdminMessageAt: string | null;
    }>;
    expect(tickets).toEqual([
      expect.objectContaining({
        status: 'open',
        lastAdminMessageAt: null,
        lastCustomerMessageAt: expect.any(String),
      }),
    ]);
    const feedback = (
      await t.app.inject({ method: 'GET', url: '/api/admin/feedback', headers: agent })
    ).json().data;
    expect(feedback.map((f: { status: string }) => f.status)).toEqual(['new', 'new']);

    // The second customer signs in too.
    const ram = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/login/email',
      payload: {
        ...DEMO_CUSTOMER_2,
        deviceInfo: { deviceId: 'x', deviceType: 'test', deviceName: 'Vitest' },
      },
    });
    expect(ram.statusCode).toBe(200);

    const again = await seedDemoSupport(t.app, t.platform.database.db, summary);
    expect(again).toEqual(first);
  });
});
