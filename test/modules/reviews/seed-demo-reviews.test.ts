// `npm run seed:demo` gives the demo store approved reviews (with the products' ratings) and
// visible testimonials; running the reviews part again adds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, type SeedDeps, seedDemoStore } from '../../../scripts/seed-demo';
import { DEMO_REVIEWS, DEMO_TESTIMONIALS, seedDemoReviews } from '../../../scripts/seed-demo-reviews';
import { createTestApp, type TestApp } from '../../helpers/app';
import { demoSeedDeps } from '../../helpers/demo';

describe('seed:demo reviews and testimonials', () => {
  let t: TestApp;
  let deps: SeedDeps;
  beforeAll(async () => {
    t = await createTestApp();
    deps = demoSeedDeps(t);
  });
  afterAll(() => t.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('seeds approved reviews the storefront lists and rates, and visible testimonials', async () => {
    await seedDemoStore(deps);
    const list = (await get('/api/products?pagination=false')).data as Array<{
      id: number;
      slug: string;
      title: string;
      reviewCount: number;
      averageRating: number | null;
    }>;
    const bowl = list.find((p) => p.title === 'Seven Metal Singing Bowl, 15 cm')!;
    expect(bowl).toMatchObject({ reviewCount: 2, averageRating: 4.5 });
    const reviews = await get(`/api/products/${bowl.slug}/reviews`);
    expect(reviews.data.summary).toMatchObject({ totalReviews: 2, averageRating: 4.5 });
    expect(
      reviews.data.items.map((r: { customerDisplayName: string }) => r.customerDisplayName).sort(),
    ).toEqual(['Anjali Maharjan', 'Tom Becker']);
    const rated = list.filter((p) => p.reviewCount > 0).map((p) => p.title);
    expect(rated.sort()).toEqual(Object.keys(DEMO_REVIEWS).sort());

    const shown = await get('/api/reviews/testimonials');
    expect(shown.data.map((x: { name: string }) => x.name)).toEqual(DEMO_TESTIMONIALS.map((x) => x.name));

    // Again: nothing new.
    const again = await seedDemoReviews(deps, {
      actor: 'admin',
      userId: await adminId(),
      sessionId: 'seed-demo',
      role: 'superadmin',
      permissions: new Set(),
    });
    expect(again).toEqual({ reviews: 0, testimonials: 0 });
    expect((await get('/api/reviews/testimonials')).meta.count).toBe(DEMO_TESTIMONIALS.length);
    expect((await get(`/api/products/${bowl.slug}/reviews`)).meta.count).toBe(2);
  });

  async function adminId(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/email',
      payload: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
    });
    return res.json().data.user.id;
  }
});
