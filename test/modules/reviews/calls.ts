// Helpers of the reviews tests: customers with delivered order items (placed COD and walked
// through every fulfilment step by the admin routes), and review calls.
import { expect } from 'vitest';
import type { TestAppOptions } from '../../helpers/app';
import { type SignedIn, signedInCustomer } from '../../helpers/factories';
import { ordersTestApp } from '../orders/calls';

export const PRODUCT_REVIEW_ITEM_KEYS = ['comment', 'createdAt', 'customerDisplayName', 'id', 'rating'];

export async function reviewsTestApp(opts: TestAppOptions = {}) {
  const c = await ordersTestApp(opts);

  /** A customer with a name (masked names are built from it). */
  const namedCustomer = (name: string) => signedInCustomer(c.t, { name });

  /** Places a COD order of one unit of `productId` and walks it to `delivered` through the admin routes. */
  async function deliveredOrder(
    who: SignedIn,
    productId: number,
  ): Promise<{ orderId: number; orderItemId: number }> {
    const { orderId } = await c.placed(who, 'cod', { productId });
    for (const step of ['ready', 'picked_up', 'in_transit', 'delivered']) {
      const request = await c.fulfil(orderId, step);
      expect(request.status, JSON.stringify(request)).toBe('completed');
    }
    const order = await c.order(who, orderId);
    expect(order.fulfillmentStatus).toBe('delivered');
    return { orderId, orderItemId: order.items[0].id as number };
  }

  /** A COD order left at `received` (not delivered): answers its item. */
  async function undeliveredItem(who: SignedIn, productId: number): Promise<number> {
    const { orderId } = await c.placed(who, 'cod', { productId });
    return (await c.order(who, orderId)).items[0].id as number;
  }

  const submit = (who: SignedIn, body: Record<string, unknown>) =>
    c.http.call('POST', '/api/mobile/reviews', who.headers, body);

  /** A customer review that must be accepted; answers it. */
  async function submitted(who: SignedIn, body: Record<string, unknown>) {
    const res = await submit(who, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; status: string; productId: number; comment: string | null };
  }

  /** An admin-seeded review that must be accepted; answers it. */
  async function seeded(body: Record<string, unknown>, who: SignedIn = c.admin) {
    const res = await c.http.call('POST', '/api/admin/reviews', who.headers, {
      reviewerName: 'Seeded Reviewer',
      rating: 5,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; productId: number; rating: number };
  }

  async function setStatus(id: number, status: 'approved' | 'rejected', who: SignedIn = c.admin) {
    const res = await c.http.call('PATCH', `/api/admin/reviews/${id}/status`, who.headers, { status });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: number; status: string };
  }

  /** The public detail of a product (its review aggregates). */
  async function productDetail(slug: string) {
    const res = await c.http.call('GET', `/api/products/${slug}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { averageRating: number; totalReviews: number; reviewStatus: string };
  }

  /** A product's item in a public list (`prefix` /api or /api/mobile), found by title search. */
  async function listItem(productId: number, prefix = '/api') {
    const res = await c.http.call('GET', `${prefix}/products?pagination=false`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Array<{ id: number; averageRating: number | null; reviewCount: number }>).find(
      (p) => p.id === productId,
    );
  }

  /** A product's row in the admin list. */
  async function adminListItem(productId: number) {
    const res = await c.http.call('GET', '/api/admin/products?pagination=false', c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Array<{ id: number; averageRating: number | null; reviewCount: number }>).find(
      (p) => p.id === productId,
    );
  }

  /** A product's current slug, as the back office shows it. */
  async function slugOf(productId: number): Promise<string> {
    const res = await c.http.call('GET', `/api/admin/products/${productId}`, c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.slug;
  }

  return {
    ...c,
    slugOf,
    namedCustomer,
    deliveredOrder,
    undeliveredItem,
    submit,
    submitted,
    seeded,
    setStatus,
    productDetail,
    listItem,
    adminListItem,
  };
}

export type ReviewsTestApp = Awaited<ReturnType<typeof reviewsTestApp>>;
