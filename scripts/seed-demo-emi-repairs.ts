// The demo store's instalment offer and a repair ticket (part of `npm run seed:demo`), made
// through the API like the demo orders: EMI enabled for 3 to 24 months with four partner banks,
// and the demo customer's repair request for a Dell laptop, already picked up by the workshop.
// Run again, it adds nothing: the config is kept once saved, banks only when there are none,
// the repair request only when the customer has none.
import type { ApiApp } from '../src/platform/module';

const BANKS = [
  { name: 'Nabil Bank', displayOrder: 1 },
  { name: 'Global IME Bank', displayOrder: 2 },
  { name: 'NIC Asia Bank', displayOrder: 3 },
  { name: 'Himalayan Bank', displayOrder: 4 },
];
const DEVICE = { deviceId: 'seed-demo', deviceType: 'web', deviceName: 'seed:demo' };

export interface DemoEmiRepairs {
  banks: number;
  repairTicket: string | null;
}

export async function seedDemoEmiRepairs(
  app: ApiApp,
  people: { admin: { email: string; password: string }; customer: { email: string; password: string } },
): Promise<DemoEmiRepairs> {
  const call = async (
    method: string,
    url: string,
    token?: string,
    payload?: unknown,
    expect = [200, 201],
  ) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (!expect.includes(res.statusCode)) {
      throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 400)}`);
    }
    return res;
  };
  const admin = (await call('POST', '/api/auth/login/email', undefined, people.admin)).json().data.tokens
    .accessToken as string;
  const me = (
    await call('POST', '/api/mobile/auth/login/email', undefined, { ...people.customer, deviceInfo: DEVICE })
  ).json().data.tokens.accessToken as string;

  if ((await call('GET', '/api/admin/emi/config', admin, undefined, [200, 404])).statusCode === 404) {
    await call('PUT', '/api/admin/emi/config', admin, { isEnabled: true, periods: [3, 6, 9, 12, 18, 24] });
  }
  let banks = (await call('GET', '/api/admin/emi/banks?pagination=false', admin)).json().meta.count as number;
  if (banks === 0) {
    for (const bank of BANKS) await call('POST', '/api/admin/emi/banks', admin, bank);
    banks = BANKS.length;
  }

  const own = (await call('GET', '/api/repair-requests', me)).json();
  if (own.meta.count > 0) return { banks, repairTicket: own.data[0].ticketNumber };
  const brands = (await call('GET', '/api/admin/brands?pagination=false', admin)).json().data as Array<{
    id: number;
    name: string;
  }>;
  const dell = brands.find((b) => b.name === 'Dell');
  const created = (
    await call('POST', '/api/repair-requests', me, {
      devices: [
        {
          ...(dell ? { brandId: dell.id } : { customBrandName: 'Dell' }),
          laptopModel: 'Latitude 5420',
          problemDescription: 'The battery lasts under an hour and the fan is loud.',
        },
      ],
      collectionMethod: 'pickup',
      sourceType: 'direct_booking',
      sharedDescription: 'Please call before the pickup; the office is on the third floor.',
    })
  ).json().data as { ticketNumber: string };
  const [found] = (
    await call('GET', `/api/admin/repair-requests?search=${created.ticketNumber}`, admin)
  ).json().data as Array<{ id: number }>;
  await call('PATCH', `/api/admin/repair-requests/${found!.id}/status`, admin, {
    status: 'picked_up',
    notes: 'Collected by our rider; diagnosis within two days.',
  });
  return { banks, repairTicket: created.ticketNumber };
}
