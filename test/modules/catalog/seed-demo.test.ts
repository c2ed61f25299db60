// `npm run seed:demo` on a fresh database: the store it builds is what the API then serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  DEMO_CUSTOMER,
  DemoSeedRefused,
  type SeedDeps,
  seedDemoStore,
} from '../../../scripts/seed-demo';
import { createTestApp, type TestApp } from '../../helpers/app';

describe('seed:demo', () => {
  let t: TestApp;
  let deps: SeedDeps;
  beforeAll(async () => {
    t = await createTestApp();
    const { platform } = t;
    deps = {
      db: platform.database.db,
      clock: platform.clock,
      storage: platform.storage,
      config: platform.config,
    };
  });
  afterAll(() => t.close());

  it('builds a store the API serves, and refuses to run twice', async () => {
    const summary = await seedDemoStore(deps);
    expect(summary).toMatchObject({ products: 15, digitalKeys: 25, districts: 7 });

    // The superadmin signs in with the printed password.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/email',
      payload: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
    });
    expect(login.statusCode).toBe(200);
    const admin = { authorization: `Bearer ${login.json().data.tokens.accessToken}` };
    const customerLogin = await t.app.inject({
      method: 'POST',
      url: '/api/mobile/auth/login/email',
      payload: { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password },
    });
    expect(customerLogin.statusCode).toBe(200);

    for (const url of ['/api/products?pagination=false', '/api/mobile/products?pagination=false']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json().meta.count).toBe(15);
      const titles = res.json().data.map((p: { title: string }) => p.title);
      expect(titles).toEqual(
        expect.arrayContaining([
          'Medicine Buddha Thangka',
          'Seven Metal Singing Bowl, 15 cm',
          'Copper Buddha Statue, 30 cm',
          'Silver Om Pendant',
          'Lenovo ThinkPad E14 Gen 5',
          'Microsoft Office Home 2024 (licence key)',
        ]),
      );
    }

    const search = await t.app.inject({ method: 'GET', url: '/api/products?search=singing' });
    expect(
      search
        .json()
        .data.map((p: { title: string }) => p.title)
        .sort(),
    ).toEqual(['Full Moon Singing Bowl, 25 cm', 'Seven Metal Singing Bowl, 15 cm']);

    // Stock, keys, the care package and shipping fees are in place.
    const laptops = await t.app.inject({
      method: 'GET',
      url: '/api/admin/products?search=ThinkPad',
      headers: admin,
    });
    const thinkpad = laptops.json().data[0];
    expect(thinkpad.stock).toEqual({ onHand: 5, reserved: 0, available: 5 });
    const offers = await t.app.inject({
      method: 'GET',
      url: `/api/mobile/products/id/${thinkpad.id}/care-packages`,
    });
    expect(offers.json().data).toEqual([
      expect.objectContaining({
        name: 'Laptop Care',
        tiers: [expect.objectContaining({ label: '1 year' }), expect.objectContaining({ label: '2 years' })],
      }),
    ]);
    const office = await t.app.inject({
      method: 'GET',
      url: '/api/admin/products?search=Office',
      headers: admin,
    });
    const keys = await t.app.inject({
      method: 'GET',
      url: `/api/admin/products/${office.json().data[0].id}/digital-keys?status=available`,
      headers: admin,
    });
    expect(keys.json().meta.count).toBe(10);
    const districts = await t.app.inject({ method: 'GET', url: '/api/cart/location/districts' });
    expect(districts.json().data).toContainEqual({
      id: expect.any(Number),
      name: 'Kathmandu',
      province: 'Bagmati',
      shippingFee: 100,
    });
    expect(districts.json().data).toHaveLength(7);

    // The home slider serves the running campaign's banners at once.
    expect(summary.bannerPlacement).toBe('home-hero');
    const served = await t.app.inject({ method: 'GET', url: '/api/banners/serve/home-hero' });
    expect(served.statusCode).toBe(200);
    expect(served.json().data.placement).toMatchObject({ slug: 'home-hero', maxBanners: 3 });
    expect(served.json().data.banners.map((b: { title: string }) => b.title)).toEqual([
      'Thangkas from Bhaktapur',
      'Singing bowls',
      'Laptops for work from home',
    ]);

    await expect(seedDemoStore(deps)).rejects.toThrow(DemoSeedRefused);
    await expect(seedDemoStore(deps)).rejects.toThrow(/already seeded/);
    const after = await t.app.inject({ method: 'GET', url: '/api/products' });
    expect(after.json().meta.count).toBe(15);
  });

  it('refuses in production', async () => {
    await expect(
      seedDemoStore({ ...deps, config: { ...deps.config, NODE_ENV: 'production' } }),
    ).rejects.toThrow(/production/);
  });
});
