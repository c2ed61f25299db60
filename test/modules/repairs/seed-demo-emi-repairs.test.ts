// `npm run seed:demo`'s EMI and repair part on the demo store: EMI on with four banks, one
// repair request of the demo customer; a second run adds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CUSTOMER, seedDemoStore } from '../../../scripts/seed-demo';
import { seedDemoEmiRepairs } from '../../../scripts/seed-demo-emi-repairs';
import { createTestApp, type TestApp } from '../../helpers/app';
import { demoSeedDeps } from '../../helpers/demo';

describe('seed:demo, EMI and repairs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('seeds the EMI offer and a repair request, once', async () => {
    const summary = await seedDemoStore(demoSeedDeps(t));
    const first = await seedDemoEmiRepairs(t.app, summary);
    expect(first.banks).toBe(4);
    expect(first.repairTicket).toMatch(/^TR-[0-9A-Z]{8}$/);

    const config = await t.app.inject({ method: 'GET', url: '/api/mobile/emi/config' });
    expect(config.json().data).toMatchObject({ isEnabled: true, periods: [3, 6, 9, 12, 18, 24] });
    const banks = await t.app.inject({ method: 'GET', url: '/api/mobile/emi/banks' });
    expect(banks.json().data.map((b: { name: string }) => b.name)).toEqual([
      'Nabil Bank',
      'Global IME Bank',
      'NIC Asia Bank',
      'Himalayan Bank',
    ]);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/login/email',
      payload: { ...DEMO_CUSTOMER, deviceInfo: { deviceId: 'x', deviceType: 'test', deviceName: 'Vitest' } },
    });
    const headers = { authorization: `Bearer ${login.json().data.tokens.accessToken}` };
    const list = await t.app.inject({ method: 'GET', url: '/api/repair-requests', headers });
    expect(list.json().meta.count).toBe(1);
    expect(list.json().data[0]).toMatchObject({
      ticketNumber: first.repairTicket,
      status: 'picked_up',
      devices: [expect.objectContaining({ brandName: 'Dell', laptopModel: 'Latitude 5420' })],
    });

    const again = await seedDemoEmiRepairs(t.app, summary);
    expect(again).toEqual(first);
    expect((await t.app.inject({ method: 'GET', url: '/api/mobile/emi/banks' })).json().data).toHaveLength(4);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/repair-requests', headers })).json().meta.count,
    ).toBe(1);
  });
});
