// The demo store's support desk and staff (part of `npm run seed:demo`), made through the API
// like the demo orders, so every back-office screen has something: a limited "Support agent"
// role and an admin who holds it, a second customer, a guest's inquiry and a customer's inquiry
// with a few messages each, a ticket waiting for staff, and feedback to review.
// Run again, it adds nothing: each part is made only when it is not there yet.

import { createCustomerAccount, findCustomerIdByEmail } from '../src/modules/identity';
import type { Db } from '../src/platform/db/database';
import type { ApiApp } from '../src/platform/module';

export const DEMO_SUPPORT_ROLE = {
  name: 'Support agent',
  description: 'Answers inquiries, tickets and feedback; sees nothing else of the store.',
  permissions: [
    'SupportInquiries_READ',
    'SupportInquiries_UPDATE',
    'SupportRequests_READ',
    'SupportRequests_UPDATE',
    'Feedback_READ',
    'Feedback_UPDATE',
  ],
};
export const DEMO_AGENT = { email: 'agent@pasal.demo', password: 'pasal-demo-agent', name: 'Anita Gurung' };
export const DEMO_CUSTOMER_2 = {
  email: 'ram@pasal.demo',
  password: 'pasal-demo-customer-2',
  name: 'Ram Thapa',
};

const DEVICE = { deviceId: 'seed-demo', deviceType: 'web', deviceName: 'seed:demo' };

export interface DemoSupport {
  agent: typeof DEMO_AGENT;
  secondCustomer: typeof DEMO_CUSTOMER_2;
  inquiries: number;
  tickets: number;
  feedback: number;
}

export async function seedDemoSupport(
  app: ApiApp,
  db: Db,
  people: { admin: { email: string; password: string }; customer: { email: string; password: string } },
): Promise<DemoSupport> {
  const call = async (method: string, url: string, token?: string, payload?: unknown) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (res.statusCode !== 200 && res.statusCode !== 201) {
      throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 400)}`);
    }
    return res.json();
  };
  const admin = (await call('POST', '/api/auth/login/email', undefined, people.admin)).data.tokens
    .accessToken as string;

  // The limited role and its admin, for trying the console as someone who may not see everything.
  const roles = (
    await call('GET', `/api/admin/roles?search=${encodeURIComponent(DEMO_SUPPORT_ROLE.name)}`, admin)
  ).data as Array<{ name: string }>;
  if (!roles.some((role) => role.name === DEMO_SUPPORT_ROLE.name)) {
    await call('POST', '/api/admin/roles', admin, DEMO_SUPPORT_ROLE);
  }
  const agents = (await call('GET', `/api/admin/users?search=${encodeURIComponent(DEMO_AGENT.email)}`, admin))
    .data as Array<{ email: string }>;
  if (!agents.some((user) => user.email === DEMO_AGENT.email)) {
    await call('POST', '/api/admin/users', admin, { ...DEMO_AGENT, role: DEMO_SUPPORT_ROLE.name });
  }

  if (!(await findCustomerIdByEmail(db, DEMO_CUSTOMER_2.email))) {
    await createCustomerAccount({ db, ...DEMO_CUSTOMER_2, phone: '+9779812345678', emailVerified: true });
  }
  const signIn = async (who: { email: string; password: string }) =>
    (await call('POST', '/api/mobile/auth/login/email', undefined, { ...who, deviceInfo: DEVICE })).data
      .tokens.accessToken as string;
  const sita = await signIn(people.customer);
  const ram = await signIn(DEMO_CUSTOMER_2);

  const count = async (url: string) => (await call('GET', `${url}?size=1`, admin)).meta.count as number;

  if ((await count('/api/admin/support-inquiries')) === 0) {
    // A guest asks about a product before buying, then adds a detail: waiting for staff.
    const guest = (
      await call('POST', '/api/support-inquiries', undefined, {
        category: 'product',
        subject: 'Is the Medicine Buddha thangka sold with a frame?',
        message:
          'Hello, I would like to hang the Medicine Buddha thangka in our living room. Does it come framed?',
        guestName: 'Pemba Sherpa',
        guestEmail: 'pemba.sherpa@example.com',
        guestPhone: '+9779801234567',
      })
    ).data as { id: number; inquiryAccessToken: string };
    await call('POST', `/api/support-inquiries/${guest.id}/messages`, guest.inquiryAccessToken, {
      body: 'Also, can you deliver it to Pokhara before Tihar?',
    });

    // A signed-in customer asks about an order; staff answered, and she wrote back.
    const sitaInquiry = (
      await call('POST', '/api/support-inquiries', sita, {
        category: 'order',
        subject: 'Gift wrapping for my singing bowl order',
        message: 'Could the singing bowl I ordered be gift wrapped? It is a present for my mother.',
      })
    ).data as { id: number };
    await call('POST', `/api/admin/support-inquiries/${sitaInquiry.id}/messages`, admin, {
      body: 'Namaste Sita ji, yes: we wrap it in lokta paper at no charge. We will add a card too.',
    });
    await call('POST', `/api/support-inquiries/${sitaInquiry.id}/messages`, sita, {
      body: 'Thank you! Please write "Happy birthday, Aama" on the card.',
    });
  }

  if ((await count('/api/admin/support-requests')) === 0) {
    // Ram's ticket about a payment: nobody of the staff has answered yet.
    await call('POST', '/api/mobile/support-requests', ram, {
      category: 'payment',
      subject: 'Charged twice for one order',
      message:
        'My bank statement shows two payments of the same amount for one order yesterday. Please check and refund one.',
    });
  }

  if ((await count('/api/admin/feedback')) === 0) {
    await call('POST', '/api/mobile/feedback', sita, {
      category: 'feature_request',
      subject: 'Prices in Nepali numerals',
      message: 'It would be lovely to see the shop in Nepali, with dates in Bikram Sambat.',
    });
    await call('POST', '/api/mobile/feedback', ram, {
      category: 'bug_report',
      subject: 'Photos load slowly on mobile data',
      message: 'On NTC mobile data the product photos take a long time to appear.',
    });
  }

  return {
    agent: DEMO_AGENT,
    secondCustomer: DEMO_CUSTOMER_2,
    inquiries: await count('/api/admin/support-inquiries'),
    tickets: await count('/api/admin/support-requests'),
    feedback: await count('/api/admin/feedback'),
  };
}
