// Product reviews: customer submission of delivered order items, the customer's own list,
// admin list, detail, seeding and moderation, the public lists by slug (with slug history)
// and by id on both surfaces, masked names, the summary, and the catalog aggregates (lists,
// admin list and detail, cached pages included) through approve and reject.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../src/modules/identity/identity.table';
import { productReviews } from '../../../src/modules/reviews/product-reviews/product-reviews.table';
import { TestClock } from '../../../src/platform/clock';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { PRODUCT_REVIEW_ITEM_KEYS, type ReviewsTestApp, reviewsTestApp } from './calls';

const clock = new TestClock('2026-06-01T08:00:00.000Z');
let c: ReviewsTestApp;
let ramesh: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  c = await reviewsTestApp({ clock });
  ramesh = await c.namedCustomer('Ramesh Shrestha');
  other = await c.namedCustomer('Gita Kumari Tamang');
});
afterAll(() => c?.t.close());

const tick = () => clock.advance(60_000);

describe('POST /api/mobile/reviews (customer submission)', () => {
  it('a delivered item of your own order: 201, pending, markup stripped, your name kept', async () => {
    const productId = await c.product();
    const { orderId, orderItemId } = await c.deliveredOrder(ramesh, productId);
    const res = await c.submit(ramesh, {
      orderItemId,
      rating: 4,
      comment:
        '  <b>Great</b> laptop <script>alert(1)</script>&amp; <a href="javascript:x">fast</a> delivery ',
    });
    expect(res.statusCode, res.body).toBe(201);
    const review = res.json().data;
    expect(review).toMatchObject({
      orderId,
      orderItemId,
      productId,
      customerId: ramesh.userId,
      reviewSource: 'customer',
      reviewerName: 'Ramesh Shrestha',
      rating: 4,
      comment: 'Great laptop & fast delivery',
      status: 'pending',
    });
    expect(Object.keys(review).sort()).toEqual(
      [
        'comment',
        'createdAt',
        'customerId',
        'id',
        'orderId',
        'orderItemId',
        'productId',
        'rating',
        'reviewSource',
        'reviewerImageUrl',
        'reviewerName',
        'status',
        'updatedAt',
      ].sort(),
    );

    // One review per order item.
    expectError(await c.submit(ramesh, { orderItemId, rating: 5 }), 409, 'REVIEW_ALREADY_EXISTS');

    // Pending: neither public nor counted.
    const slug = await c.slugOf(productId);
    const list = await c.http.call('GET', `/api/products/${slug}/reviews`);
    expect(list.json().data.items).toEqual([]);
    expect(await c.productDetail(slug)).toMatchObject({
      totalReviews: 0,
      averageRating: 0,
      reviewStatus: 'No reviews yet',
    });
  });

  it('a comment that is only markup is stored as null; no comment at all is fine', async () => {
    const a = await c.deliveredOrder(ramesh, await c.product());
    expect(
      (await c.submitted(ramesh, { orderItemId: a.orderItemId, rating: 3, comment: '<img src=x onerror=y>' }))
        .comment,
    ).toBeNull();
    const b = await c.deliveredOrder(ramesh, await c.product());
    const res = await c.submitted(ramesh, { orderItemId: b.orderItemId, rating: 2 });
    expect(res).toMatchObject({ comment: null, rating: 2 });
  });

  it('an item not delivered, of another customer, or unknown: 400 REVIEW_NOT_ALLOWED', async () => {
    const productId = await c.product();
    const pendingItem = await c.undeliveredItem(ramesh, productId);
    expectError(await c.submit(ramesh, { orderItemId: pendingItem, rating: 5 }), 400, 'REVIEW_NOT_ALLOWED');
    const theirs = await c.deliveredOrder(other, productId);
    expectError(
      await c.submit(ramesh, { orderItemId: theirs.orderItemId, rating: 5 }),
      400,
      'REVIEW_NOT_ALLOWED',
    );
    expectError(await c.submit(ramesh, { orderItemId: 2_000_000_000, rating: 5 }), 400, 'REVIEW_NOT_ALLOWED');
    // The owner still may.
    expect((await c.submitted(other, { orderItemId: theirs.orderItemId, rating: 5 })).status).toBe('pending');
  });

  it('refuses bad bodies with 400 VALIDATION_ERROR', async () => {
    for (const body of [
      {},
      { orderItemId: 1 },
      { orderItemId: 1, rating: 0 },
      { orderItemId: 1, rating: 6 },
      { orderItemId: 1, rating: 4.5 },
      { orderItemId: 1, rating: '5' },
      { orderItemId: 0, rating: 5 },
      { orderItemId: 'abc', rating: 5 },
      { orderItemId: 1, rating: 5, comment: 'x'.repeat(1001) },
      { orderItemId: 1, rating: 5, customerId: ramesh.userId },
    ]) {
      expectError(await c.submit(ramesh, body), 400, 'VALIDATION_ERROR');
    }
  });

  it('needs a customer: 401 without a token, 403 AUTH_FORBIDDEN for an admin', async () => {
    expectError(
      await c.http.call('POST', '/api/mobile/reviews', {}, { orderItemId: 1, rating: 5 }),
      401,
      'AUTH_UNAUTHORIZED',
    );
    expectError(await c.submit(c.admin, { orderItemId: 1, rating: 5 }), 403, 'AUTH_FORBIDDEN');
    expectError(await c.http.call('GET', '/api/mobile/reviews'), 401, 'AUTH_UNAUTHORIZED');
    expectError(await c.http.call('GET', '/api/mobile/reviews', c.admin.headers), 403, 'AUTH_FORBIDDEN');
  });
});

describe('GET /api/mobile/reviews (own reviews)', () => {
  it('lists only your own reviews, whatever their status, newest first, paginated', async () => {
    const me = await c.namedCustomer('Hari Bahadur');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      tick();
      const { orderItemId } = await c.deliveredOrder(me, await c.product());
      ids.push((await c.submitted(me, { orderItemId, rating: i + 3 })).id);
    }
    await c.setStatus(ids[0]!, 'approved');
    await c.setStatus(ids[1]!, 'rejected');
    const res = await c.http.call('GET', '/api/mobile/reviews', me.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: { id: number }) => r.id)).toEqual([...ids].reverse());
    expect(res.json().data.map((r: { status: string }) => r.status)).toEqual([
      'pending',
      'rejected',
      'approved',
    ]);
    expect(res.json().meta).toEqual({ count: 3, page: 1, size: 20 });

    const page2 = await c.http.call('GET', '/api/mobile/reviews?page=2&size=2', me.headers);
    expect(page2.json().data.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    expect(page2.json().meta).toEqual({ count: 3, page: 2, size: 2 });
    const all = await c.http.call('GET', '/api/mobile/reviews?pagination=false', me.headers);
    expect(all.json().meta).toEqual({ count: 3 });
    expect(all.json().data).toHaveLength(3);

    // Another customer sees none of them.
    const stranger = await c.customer();
    const theirs = await c.http.call('GET', '/api/mobile/reviews', stranger.headers);
    expect(theirs.json()).toMatchObject({ data: [], meta: { count: 0 } });
    expectError(
      await c.http.call('GET', '/api/mobile/reviews?size=101', me.headers),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('admin reviews', () => {
  it('seeds a review: 201, admin_seeded, approved, counted at once', async () => {
    const productId = await c.product();
    const slug = await c.slugOf(productId);
    const res = await c.http.call('POST', '/api/admin/reviews', c.admin.headers, {
      productId,
      reviewerName: '  Anita <i>Gurung</i> ',
      reviewerImageUrl: 'https://cdn.example.com/anita.png',
      rating: 5,
      comment: 'Lovely <b>craft</b>',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      productId,
      orderId: null,
      orderItemId: null,
      customerId: null,
      reviewSource: 'admin_seeded',
      reviewerName: 'Anita Gurung',
      reviewerImageUrl: 'https://cdn.example.com/anita.png',
      rating: 5,
      comment: 'Lovely craft',
      status: 'approved',
      createdByAdminId: c.admin.userId,
    });
    expect(await c.productDetail(slug)).toMatchObject({
      averageRating: 5,
      totalReviews: 1,
      reviewStatus: 'Reviews available',
    });
    const pub = await c.http.call('GET', `/api/products/${slug}/reviews`);
    // Seeded reviews show the exact name.
    expect(pub.json().data.items[0].customerDisplayName).toBe('Anita Gurung');

    // An order reference is kept when it names an order.
    const { orderId } = await c.placed(ramesh, 'cod', { productId });
    expect((await c.seeded({ productId, orderId })).id).toBeGreaterThan(0);
    const activity = await c.http.activityOf(c.admin, 'product_review', res.json().data.id);
    expect(activity[0]).toMatchObject({ action: 'create', adminId: c.admin.userId });
  });

  it('refuses a seeded review with bad fields, an unknown product or order, or a customerId', async () => {
    const productId = await c.product();
    const post = (body: Record<string, unknown>) =>
      c.http.call('POST', '/api/admin/reviews', c.admin.headers, {
        productId,
        reviewerName: 'R',
        rating: 4,
        ...body,
      });
    for (const body of [
      { productId: undefined },
      { productId: 0 },
      { reviewerName: undefined },
      { reviewerName: '   ' },
      { reviewerName: 'x'.repeat(121) },
      { reviewerImageUrl: 'not a url' },
      { reviewerImageUrl: `https://cdn.example.com/${'a'.repeat(480)}.png` },
      { rating: 0 },
      { rating: 6 },
      { rating: undefined },
      { comment: 'x'.repeat(1001) },
      { orderId: 0 },
      { customerId: ramesh.userId },
      { status: 'pending' },
    ]) {
      expectError(await post(body), 400, 'VALIDATION_ERROR');
    }
    expectError(await post({ orderId: 2_000_000_000 }), 400, 'VALIDATION_ERROR');
    expectError(await post({ productId: 2_000_000_000 }), 404, 'PRODUCT_NOT_FOUND');
    // Limits are inclusive.
    const max = await post({ reviewerName: ` ${'n'.repeat(120)} `, comment: 'c'.repeat(1000) });
    expect(max.statusCode, max.body).toBe(201);
  });

  it('approve and reject move the aggregates of the product lists (cached pages too), the admin list and the detail', async () => {
    const productId = await c.product();
    const slug = await c.slugOf(productId);
    const buyers = [ramesh, other, await c.namedCustomer('Maya Rai')];
    const reviews: number[] = [];
    for (const [i, who] of buyers.entries()) {
      const { orderItemId } = await c.deliveredOrder(who, productId);
      reviews.push((await c.submitted(who, { orderItemId, rating: [5, 4, 4][i] })).id);
    }
    // Fill the cached list pages of both surfaces before anything changes.
    expect(await c.listItem(productId)).toMatchObject({ averageRating: null, reviewCount: 0 });
    expect(await c.listItem(productId, '/api/mobile')).toMatchObject({ averageRating: null, reviewCount: 0 });

    const approved = await c.setStatus(reviews[0]!, 'approved');
    expect(approved).toMatchObject({ status: 'approved', moderatedByAdminId: c.admin.userId });
    expect(await c.listItem(productId)).toMatchObject({ averageRating: 5, reviewCount: 1 });

    await c.setStatus(reviews[1]!, 'approved');
    await c.setStatus(reviews[2]!, 'approved');
    for (const prefix of ['/api', '/api/mobile']) {
      expect(await c.listItem(productId, prefix)).toMatchObject({ averageRating: 4.33, reviewCount: 3 });
    }
    expect(await c.adminListItem(productId)).toMatchObject({ averageRating: 4.33, reviewCount: 3 });
    expect(await c.productDetail(slug)).toEqual(
      expect.objectContaining({ averageRating: 4.33, totalReviews: 3, reviewStatus: 'Reviews available' }),
    );

    // Rejecting an approved review takes it out of the figures.
    expect((await c.setStatus(reviews[0]!, 'rejected')).status).toBe('rejected');
    expect(await c.listItem(productId)).toMatchObject({ averageRating: 4, reviewCount: 2 });
    expect(await c.adminListItem(productId)).toMatchObject({ averageRating: 4, reviewCount: 2 });
    expect(await c.productDetail(slug)).toMatchObject({ averageRating: 4, totalReviews: 2 });

    // Rejecting the rest leaves the product without reviews.
    await c.setStatus(reviews[1]!, 'rejected');
    await c.setStatus(reviews[2]!, 'rejected');
    expect(await c.listItem(productId)).toMatchObject({ averageRating: null, reviewCount: 0 });
    expect(await c.productDetail(slug)).toMatchObject({
      averageRating: 0,
      totalReviews: 0,
      reviewStatus: 'No reviews yet',
    });

    // A rejected review may be approved again.
    await c.setStatus(reviews[2]!, 'approved');
    expect(await c.productDetail(slug)).toMatchObject({ averageRating: 4, totalReviews: 1 });
    const trail = await c.http.activityOf(c.admin, 'product_review', reviews[2]!);
    expect(trail.map((e) => e.action)).toEqual(['approve', 'reject', 'approve']);
  });

  it('rejecting a seeded review takes it off the storefront and out of the aggregates', async () => {
    const productId = await c.product();
    const slug = await c.slugOf(productId);
    const keep = await c.seeded({ productId, rating: 2 });
    const drop = await c.seeded({ productId, rating: 5 });
    expect(await c.productDetail(slug)).toMatchObject({ averageRating: 3.5, totalReviews: 2 });
    await c.setStatus(drop.id, 'rejected');
    expect(await c.productDetail(slug)).toMatchObject({ averageRating: 2, totalReviews: 1 });
    const pub = await c.http.call('GET', `/api/products/${slug}/reviews`);
    expect(pub.json().data.items.map((r: { id: number }) => r.id)).toEqual([keep.id]);
  });

  it('setting the status a review already has answers it unchanged', async () => {
    const productId = await c.product();
    const seeded = await c.seeded({ productId });
    const before = (await c.http.call('GET', `/api/admin/reviews/${seeded.id}`, c.admin.headers)).json().data;
    tick();
    const again = await c.setStatus(seeded.id, 'approved');
    expect(again).toEqual(before);
    expect(await c.productDetail(await c.slugOf(productId))).toMatchObject({ totalReviews: 1 });
  });

  it('status update refuses unknown ids (404 REVIEW_NOT_FOUND) and bad bodies (400)', async () => {
    const seeded = await c.seeded({ productId: await c.product() });
    const patch = (id: number | string, body: unknown) =>
      c.http.call('PATCH', `/api/admin/reviews/${id}/status`, c.admin.headers, body);
    expectError(await patch(2_000_000_000, { status: 'approved' }), 404, 'REVIEW_NOT_FOUND');
    for (const body of [
      {},
      { status: 'pending' },
      { status: 'APPROVED' },
      { status: 'approved', extra: 1 },
    ]) {
      expectError(await patch(seeded.id, body), 400, 'VALIDATION_ERROR');
    }
    expectError(await patch('abc', { status: 'approved' }), 400, 'VALIDATION_ERROR');
  });

  it('a rejection keeps its reason (plain, trimmed, in the activity); approving clears it', async () => {
    const productId = await c.product();
    const seeded = await c.seeded({ productId });
    const patch = (body: unknown) =>
      c.http.call('PATCH', `/api/admin/reviews/${seeded.id}/status`, c.admin.headers, body);
    const read = async () =>
      (await c.http.call('GET', `/api/admin/reviews/${seeded.id}`, c.admin.headers)).json().data;
    expect((await read()).rejectionReason).toBeNull();

    const rejected = await patch({ status: 'rejected', reason: '  Names a <b>competitor</b> shop ' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Names a competitor shop',
    });
    expect(await read()).toMatchObject({ rejectionReason: 'Names a competitor shop' });
    const listed = await c.http.call('GET', `/api/admin/reviews?productId=${productId}`, c.admin.headers);
    expect(listed.json().data[0].rejectionReason).toBe('Names a competitor shop');
    let trail = await c.http.activityOf(c.admin, 'product_review', seeded.id);
    expect(trail[0]).toMatchObject({ action: 'reject' });
    expect(trail[0]!.summary).toContain('reason: Names a competitor shop');

    // The same decision again changes nothing; another reason (or none) replaces it.
    tick();
    expect((await patch({ status: 'rejected', reason: 'Names a competitor shop' })).json().data).toEqual(
      rejected.json().data,
    );
    expect((await patch({ status: 'rejected', reason: 'Off topic' })).json().data.rejectionReason).toBe(
      'Off topic',
    );
    expect((await patch({ status: 'rejected', reason: '   ' })).json().data.rejectionReason).toBeNull();
    await patch({ status: 'rejected', reason: 'Off topic' });

    // Approving again clears the reason.
    const approved = await c.setStatus(seeded.id, 'approved');
    expect(approved).toMatchObject({ status: 'approved', rejectionReason: null });
    trail = await c.http.activityOf(c.admin, 'product_review', seeded.id);
    expect(trail.map((e) => e.action)).toEqual(['approve', 'reject', 'reject', 'reject', 'reject', 'create']);

    // At most 500 characters once plain; only a rejection takes one.
    expect((await patch({ status: 'rejected', reason: `<i>${'r'.repeat(500)}</i>` })).statusCode).toBe(200);
    await c.setStatus(seeded.id, 'approved');
    for (const body of [
      { status: 'rejected', reason: 'r'.repeat(501) },
      { status: 'rejected', reason: 5 },
      { status: 'approved', reason: 'Looks fine' },
    ]) {
      expectError(await patch(body), 400, 'VALIDATION_ERROR');
    }
    expect(await read()).toMatchObject({ status: 'approved', rejectionReason: null });
  });

  it('deletes a review for good: the aggregates and the storefront follow, the activity records it', async () => {
    const productId = await c.product();
    const slug = await c.slugOf(productId);
    const keep = await c.seeded({ productId, rating: 3 });
    const five = await c.seeded({ productId, rating: 5, reviewerName: 'Five Stars' });
    const { orderItemId } = await c.deliveredOrder(other, productId);
    const pending = await c.submitted(other, { orderItemId, rating: 1 });
    // Fill the cached list page before the delete.
    expect(await c.listItem(productId)).toMatchObject({ averageRating: 4, reviewCount: 2 });

    const res = await c.http.call('DELETE', `/api/admin/reviews/${five.id}`, c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: five.id, status: 'approved', reviewerName: 'Five Stars' });
    expect(await c.productDetail(slug)).toMatchObject({ averageRating: 3, totalReviews: 1 });
    expect(await c.listItem(productId)).toMatchObject({ averageRating: 3, reviewCount: 1 });
    expect(await c.adminListItem(productId)).toMatchObject({ averageRating: 3, reviewCount: 1 });
    const pub = await c.http.call('GET', `/api/products/id/${productId}/reviews`);
    expect(pub.json().data.map((r: { id: number }) => r.id)).toEqual([keep.id]);
    expectError(
      await c.http.call('GET', `/api/admin/reviews/${five.id}`, c.admin.headers),
      404,
      'REVIEW_NOT_FOUND',
    );
    const trail = await c.http.activityOf(c.admin, 'product_review', five.id);
    expect(trail[0]).toMatchObject({ action: 'delete', adminId: c.admin.userId });
    expect(trail[0]!.summary).toContain('5-star');

    // A pending review goes without touching the figures; its order item may be reviewed again.
    expect(
      (await c.http.call('DELETE', `/api/admin/reviews/${pending.id}`, c.admin.headers)).statusCode,
    ).toBe(200);
    expect(await c.productDetail(slug)).toMatchObject({ averageRating: 3, totalReviews: 1 });
    expect((await c.submitted(other, { orderItemId, rating: 4 })).status).toBe('pending');

    // Gone is gone: a second delete, an unknown or a bad id.
    for (const id of [five.id, 2_000_000_000]) {
      expectError(
        await c.http.call('DELETE', `/api/admin/reviews/${id}`, c.admin.headers),
        404,
        'REVIEW_NOT_FOUND',
      );
    }
    expectError(
      await c.http.call('DELETE', '/api/admin/reviews/x1', c.admin.headers),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('reads one review; unknown id 404 REVIEW_NOT_FOUND, bad id 400', async () => {
    const seeded = await c.seeded({ productId: await c.product(), reviewerName: 'One Review' });
    const res = await c.http.call('GET', `/api/admin/reviews/${seeded.id}`, c.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: seeded.id, reviewerName: 'One Review', moderatedAt: null });
    expectError(
      await c.http.call('GET', '/api/admin/reviews/2000000000', c.admin.headers),
      404,
      'REVIEW_NOT_FOUND',
    );
    expectError(await c.http.call('GET', '/api/admin/reviews/01', c.admin.headers), 400, 'VALIDATION_ERROR');
  });

  it('lists reviews with filters, search, sorts and pagination', async () => {
    const productId = await c.product();
    const { orderItemId } = await c.deliveredOrder(other, productId);
    tick();
    const pending = await c.submitted(other, { orderItemId, rating: 1, comment: 'Broke after a week' });
    tick();
    const seededA = await c.seeded({ productId, rating: 3, reviewerName: 'Zed Filterson', comment: 'fine' });
    tick();
    const seededB = await c.seeded({ productId, rating: 5, reviewerName: 'Amy 100%_match' });
    const list = async (query: string) => {
      const res = await c.http.call(
        'GET',
        `/api/admin/reviews?productId=${productId}&${query}`,
        c.admin.headers,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Array<{ id: number }>; meta: Record<string, number> };
    };
    const ids = (body: { data: Array<{ id: number }> }) => body.data.map((r) => r.id);
    expect(ids(await list(''))).toEqual([seededB.id, seededA.id, pending.id]);
    expect(ids(await list('order=asc'))).toEqual([pending.id, seededA.id, seededB.id]);
    expect(ids(await list('sort=rating&order=desc'))).toEqual([seededB.id, seededA.id, pending.id]);
    expect(ids(await list('status=pending'))).toEqual([pending.id]);
    expect(ids(await list('status=approved&order=asc'))).toEqual([seededA.id, seededB.id]);
    expect(ids(await list('reviewSource=customer'))).toEqual([pending.id]);
    expect(ids(await list('reviewSource=admin_seeded&rating=3'))).toEqual([seededA.id]);
    expect(ids(await list('search=broke'))).toEqual([pending.id]);
    expect(ids(await list('search=filterson'))).toEqual([seededA.id]);
    // A customer review is found by its customer's name.
    expect(ids(await list('search=kumari'))).toEqual([pending.id]);
    // Wildcards are taken literally.
    expect(ids(await list('search=100%25_'))).toEqual([seededB.id]);
    const paged = await list('size=2&page=2');
    expect(ids(paged)).toEqual([pending.id]);
    expect(paged.meta).toEqual({ count: 3, page: 2, size: 2 });
    expect((await list('pagination=false')).meta).toEqual({ count: 3 });
    for (const bad of [
      'status=deleted',
      'sort=name',
      'rating=6',
      'size=101',
      'productId=x',
      'reviewSource=x',
    ]) {
      expectError(
        await c.http.call('GET', `/api/admin/reviews?${bad}`, c.admin.headers),
        400,
        'VALIDATION_ERROR',
      );
    }
  });

  it('every admin route: 401 without a token, 403 for a customer, 403 AUTH_PERMISSION_DENIED without its permission', async () => {
    const seeded = await c.seeded({ productId: await c.product() });
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, string, unknown?]> = [
      ['GET', '/api/admin/reviews', 'Reviews_READ'],
      ['DELETE', `/api/admin/reviews/${seeded.id}`, 'Reviews_DELETE'],
      ['GET', `/api/admin/reviews/${seeded.id}`, 'Reviews_READ'],
      ['PATCH', `/api/admin/reviews/${seeded.id}/status`, 'Reviews_UPDATE', { status: 'rejected' }],
      [
        'POST',
        '/api/admin/reviews',
        'Reviews_UPDATE',
        { productId: seeded.productId, reviewerName: 'X', rating: 3 },
      ],
    ];
    for (const [method, url, permission, payload] of routes) {
      await c.http.expectGuarded(method, url, permission, ramesh, payload);
    }
    // Holding the other Reviews permissions is not enough.
    const readerOnly = await signedInAdmin(c.t, {
      permissions: ['Reviews_READ', 'Reviews_CREATE', 'Reviews_DELETE'],
    });
    expectError(
      await c.http.call('PATCH', `/api/admin/reviews/${seeded.id}/status`, readerOnly.headers, {
        status: 'rejected',
      }),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expectError(
      await c.http.call('POST', '/api/admin/reviews', readerOnly.headers, {
        productId: seeded.productId,
        reviewerName: 'X',
        rating: 3,
      }),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    // The right permission is enough.
    const moderator = await signedInAdmin(c.t, { permissions: ['Reviews_READ', 'Reviews_UPDATE'] });
    expect((await c.setStatus(seeded.id, 'rejected', moderator)).status).toBe('rejected');
    expect((await c.http.call('GET', '/api/admin/reviews', moderator.headers)).statusCode).toBe(200);
    // Moderating is not deleting; Reviews_DELETE is.
    expectError(
      await c.http.call('DELETE', `/api/admin/reviews/${seeded.id}`, moderator.headers),
      403,
      'AUTH_PERMISSION_DENIED',
    );
    expect(
      (await c.http.call('DELETE', `/api/admin/reviews/${seeded.id}`, readerOnly.headers)).statusCode,
    ).toBe(200);
  });
});

describe('public product reviews', () => {
  let productId: number;
  let slug: string;
  const expected: Array<{ id: number; name: string }> = [];

  beforeAll(async () => {
    productId = await c.product();
    slug = await c.slugOf(productId);
    const maya = await c.namedCustomer('Maya  Devi Rai');
    for (const [who, rating, name] of [
      [ramesh, 5, 'R*** S***'],
      [maya, 4, 'M*** D*** R***'],
      [other, 4, 'G*** K*** T***'],
    ] as const) {
      tick();
      const { orderItemId } = await c.deliveredOrder(who, productId);
      const review = await c.submitted(who, { orderItemId, rating, comment: `from ${name}` });
      await c.setStatus(review.id, 'approved');
      expected.unshift({ id: review.id, name });
    }
    tick();
    const seeded = await c.seeded({ productId, rating: 2, reviewerName: 'Store Visitor' });
    expected.unshift({ id: seeded.id, name: 'Store Visitor' });
    tick();
    // Neither pending nor rejected reviews are public.
    const hidden = await c.namedCustomer('Hidden Person');
    const a = await c.deliveredOrder(hidden, productId);
    await c.submitted(hidden, { orderItemId: a.orderItemId, rating: 1 });
    const rejected = await c.seeded({ productId, rating: 1, reviewerName: 'Rejected One' });
    await c.setStatus(rejected.id, 'rejected');
  });

  it('by slug: productId, productSlug, summary (2 decimals, count per star) and approved items newest first, masked names', async () => {
    const res = await c.http.call('GET', `/api/products/${slug}/reviews`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data).toEqual({
      productId,
      productSlug: slug,
      summary: {
        averageRating: 3.75,
        totalReviews: 4,
        ratingCounts: { '1': 0, '2': 1, '3': 0, '4': 2, '5': 1 },
      },
      items: expect.any(Array),
    });
    expect(body.meta).toEqual({ count: 4, page: 1, size: 20 });
    const items = body.data.items as Array<Record<string, unknown>>;
    expect(items.map((r) => r.id)).toEqual(expected.map((e) => e.id));
    expect(items.map((r) => r.customerDisplayName)).toEqual(expected.map((e) => e.name));
    for (const item of items) expect(Object.keys(item).sort()).toEqual(PRODUCT_REVIEW_ITEM_KEYS);
    // The customer's real name never appears.
    expect(res.body).not.toContain('Ramesh');
    expect(res.body).not.toContain('Shrestha');
  });

  it('by slug: pagination keeps the summary of every approved review', async () => {
    const res = await c.http.call('GET', `/api/products/${slug}/reviews?page=2&size=3`);
    expect(res.json().data.items.map((r: { id: number }) => r.id)).toEqual([expected[3]!.id]);
    expect(res.json().data.summary.totalReviews).toBe(4);
    expect(res.json().meta).toEqual({ count: 4, page: 2, size: 3 });
    const all = await c.http.call('GET', `/api/products/${slug}/reviews?pagination=false`);
    expect(all.json().meta).toEqual({ count: 4 });
    expect(all.json().data.items).toHaveLength(4);
    for (const bad of ['page=0', 'size=0', 'size=101', 'page=x', 'pagination=maybe']) {
      expectError(await c.http.call('GET', `/api/products/${slug}/reviews?${bad}`), 400, 'VALIDATION_ERROR');
    }
  });

  it('by an old slug: the same reviews, with the current slug', async () => {
    const productId2 = await c.product();
    const oldSlug = await c.slugOf(productId2);
    await c.seeded({ productId: productId2, rating: 4 });
    const renamed = await c.http.call('PATCH', `/api/admin/products/${productId2}`, c.admin.headers, {
      slug: `${oldSlug}-renamed`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const res = await c.http.call('GET', `/api/products/${oldSlug}/reviews`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      productId: productId2,
      productSlug: `${oldSlug}-renamed`,
      summary: { totalReviews: 1, averageRating: 4 },
    });
    const current = await c.http.call('GET', `/api/products/${oldSlug}-renamed/reviews`);
    expect(current.json().data.items).toEqual(res.json().data.items);
  });

  it('unknown, draft or archived products: 404 PRODUCT_NOT_FOUND', async () => {
    expectError(await c.http.call('GET', '/api/products/no-such-product/reviews'), 404, 'PRODUCT_NOT_FOUND');
    expectError(await c.http.call('GET', '/api/products/id/2000000000/reviews'), 404, 'PRODUCT_NOT_FOUND');
    const draft = await c.product({ status: 'draft' });
    await c.seeded({ productId: draft });
    expectError(
      await c.http.call('GET', `/api/products/${await c.slugOf(draft)}/reviews`),
      404,
      'PRODUCT_NOT_FOUND',
    );
    expectError(
      await c.http.call('GET', `/api/mobile/products/id/${draft}/reviews`),
      404,
      'PRODUCT_NOT_FOUND',
    );
    expectError(await c.http.call('GET', '/api/products/id/0/reviews'), 400, 'VALIDATION_ERROR');
    expectError(await c.http.call('GET', '/api/mobile/products/id/1e3/reviews'), 400, 'VALIDATION_ERROR');
  });

  it('by id on both surfaces: the items, totalReviews and summary in the envelope', async () => {
    for (const prefix of ['/api/products', '/api/mobile/products']) {
      const res = await c.http.call('GET', `${prefix}/id/${productId}/reviews?size=2`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.totalReviews).toBe(4);
      expect(body.summary).toEqual({
        averageRating: 3.75,
        totalReviews: 4,
        ratingCounts: { '1': 0, '2': 1, '3': 0, '4': 2, '5': 1 },
      });
      expect(body.meta).toEqual({ count: 4, page: 1, size: 2 });
      expect(body.data.map((r: { id: number }) => r.id)).toEqual(expected.slice(0, 2).map((e) => e.id));
      expect(body.data.map((r: { customerDisplayName: string }) => r.customerDisplayName)).toEqual(
        expected.slice(0, 2).map((e) => e.name),
      );
    }
  });

  it('a product without reviews: an empty list and a zero summary', async () => {
    const empty = await c.product();
    const res = await c.http.call('GET', `/api/products/${await c.slugOf(empty)}/reviews`);
    expect(res.json().data).toMatchObject({
      items: [],
      summary: {
        averageRating: 0,
        totalReviews: 0,
        ratingCounts: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
      },
    });
    const byId = await c.http.call('GET', `/api/mobile/products/id/${empty}/reviews`);
    expect(byId.json()).toMatchObject({ data: [], totalReviews: 0, meta: { count: 0 } });
  });

  it('customer reviews copy nothing of the account: the name shown follows it, anonymised too', async () => {
    const [row] = await c.db.select().from(productReviews).where(eq(productReviews.id, expected[3]!.id));
    expect(row).toMatchObject({ reviewerName: null, reviewerImageUrl: null, customerId: ramesh.userId });
    const admin = await c.http.call('GET', `/api/admin/reviews/${expected[3]!.id}`, c.admin.headers);
    expect(admin.json().data.reviewerName).toBe('Ramesh Shrestha');

    const someone = await c.namedCustomer('Kiran Basnet');
    const { orderItemId } = await c.deliveredOrder(someone, productId);
    const review = await c.submitted(someone, { orderItemId, rating: 3 });
    await c.setStatus(review.id, 'approved');
    const shown = async () =>
      (
        (await c.http.call('GET', `/api/products/${slug}/reviews`)).json().data.items as Array<{
          id: number;
          customerDisplayName: string;
        }>
      ).find((r) => r.id === review.id)!.customerDisplayName;
    expect(await shown()).toBe('K*** B***');
    // What the account deletion job writes into an anonymised account.
    await c.db
      .update(users)
      .set({ name: 'Deleted user', anonymizedAt: new Date() })
      .where(eq(users.id, someone.userId));
    expect(await shown()).toBe('D*** u***');
    const own = await c.http.call('GET', `/api/admin/reviews/${review.id}`, c.admin.headers);
    expect(own.json().data.reviewerName).toBe('Deleted user');
    await c.setStatus(review.id, 'rejected');
  });
});
