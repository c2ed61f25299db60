// `npm run seed:demo` on a fresh database: the store it builds is what the API then serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  DEMO_CUSTOMER,
  DemoSeedRefused,
  type SeedDeps,
  seedDemoStore,
} from '../../../scripts/seed-demo';
import { DEMO_HOME_TITLE } from '../../../scripts/seed-demo-content';
import { seedDemoOrders } from '../../../scripts/seed-demo-orders';
import type { ApiApp } from '../../../src/platform/module';
import { createTestApp, type TestApp } from '../../helpers/app';
import { demoSeedDeps } from '../../helpers/demo';

describe('seed:demo', () => {
  let t: TestApp;
  let deps: SeedDeps;
  beforeAll(async () => {
    t = await createTestApp();
    deps = demoSeedDeps(t);
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
      payload: {
        email: DEMO_CUSTOMER.email,
        password: DEMO_CUSTOMER.password,
        deviceInfo: { deviceId: 'seed-test', deviceType: 'test', deviceName: 'Vitest' },
      },
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

    // Blog: two published posts, one with FAQs and a linked demo product.
    expect(summary.blogPosts).toBe(2);
    const blog = await t.app.inject({ method: 'GET', url: '/api/blogs' });
    expect(blog.json().count).toBe(2);
    const bowlPost = await t.app.inject({
      method: 'GET',
      url: '/api/blogs/how-to-care-for-your-singing-bowl',
    });
    expect(bowlPost.statusCode).toBe(200);
    expect(bowlPost.json().data.faqs).toHaveLength(2);
    expect(bowlPost.json().data.structuredData.faq['@type']).toBe('FAQPage');
    expect(bowlPost.json().data.linkedProducts).toEqual([
      expect.objectContaining({ title: 'Seven Metal Singing Bowl, 15 cm', position: 0 }),
    ]);
    const thangkaPost = await t.app.inject({
      method: 'GET',
      url: '/api/mobile/blogs/the-story-behind-thangka-painting',
    });
    expect(thangkaPost.statusCode).toBe(200);

    // The demo coupon applies to the demo customer's cart.
    expect(summary.coupon).toBe('DASHAIN10');
    const customer = { authorization: `Bearer ${customerLogin.json().data.tokens.accessToken}` };
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/cart/items',
      headers: customer,
      payload: { productId: thinkpad.id },
    });
    expect(added.statusCode, added.body).toBe(200);
    const applied = await t.app.inject({
      method: 'POST',
      url: '/api/cart/coupon',
      headers: customer,
      payload: { code: 'dashain10' },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data.appliedCoupon).toEqual({ code: 'DASHAIN10', discount: 5_000 });

    // The home page with every home section, in order, on both surfaces.
    for (const url of ['/api/content/pages/home', '/api/mobile/content/pages/home']) {
      const home = await t.app.inject({ method: 'GET', url });
      expect(home.statusCode).toBe(200);
      expect(home.json().data.title).toBe(DEMO_HOME_TITLE);
      expect(home.json().data.sections.map((s: { sectionKey: string }) => s.sectionKey)).toEqual([
        'hero',
        'top_picks',
        'categories',
        'heritage',
        'why_us',
        'faq_intro',
        'blogs',
      ]);
      expect(home.json().data.sections[0].payloadJson.cta).toEqual({
        label: expect.objectContaining({ type: 'doc' }),
        href: '/products',
      });
    }

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

    // The demo orders, made through the API, end in the states the back office should show.
    const orders = await seedDemoOrders(
      t.app as unknown as ApiApp,
      summary,
      summary.orderProducts,
      'http://localhost:3001/checkout/result',
    );
    expect(orders.map((o) => [o.orderStatus, o.paymentStatus, o.fulfillmentStatus])).toEqual([
      ['payment_pending', 'cod_pending', 'received'],
      ['paid', 'cod_collected', 'in_transit'],
      ['paid', 'completed', 'delivered'],
      ['paid', 'completed', 'key_sent'],
      ['cancelled', 'cod_pending', 'cancelled'],
      ['payment_pending', 'pending', null],
    ]);
    const mine = await t.app.inject({ method: 'GET', url: '/api/orders', headers: customer });
    expect(mine.json().meta.count).toBe(6);
    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/orders', headers: admin });
    expect(
      listed
        .json()
        .data.map((o: { orderNumber: string }) => o.orderNumber)
        .sort(),
    ).toEqual(orders.map((o) => o.orderNumber).sort());

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
