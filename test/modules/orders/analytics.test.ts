// Order analytics: store-local buckets (Asia/Kathmandu, UTC+05:45) around a local midnight and
// a Sunday week start, empty buckets, the revenue rule, the district filter, every range, and
// what a bad range answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid } from '../../../src/modules/orders';
import { resolveRange, storeDate } from '../../../src/modules/orders/analytics/analytics.service';
import { TestClock } from '../../../src/platform/clock';
import { inTransaction } from '../../../src/platform/db/transaction';
import { type SignedIn, signedInAdmin } from '../../helpers/factories';
import { expectError } from '../cart/calls';
import { fakeInitiator, type OrdersTestApp, ordersTestApp, RETURN_URL } from './calls';

// Tuesday 10 March 2026, 11:45 in Kathmandu.
const NOW = '2026-03-10T06:00:00.000Z';
const clock = new TestClock(NOW);
let c: OrdersTestApp;
let reader: SignedIn;
let productId: number;

const ANALYTICS = '/api/admin/orders/analytics';

interface Series {
  totals: { revenue: number; orderCount: number; averageOrderValue: number };
  series: Array<{ bucketStart: string; revenue: number; orderCount: number }>;
}

async function analytics(query: string): Promise<Series> {
  const res = await c.http.call('GET', `${ANALYTICS}?${query}`, reader.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** One order of one unit (1000 NPR plus the district's fee), placed at `instant`. */
async function placeAt(instant: string, opts: { district: string; gateway: string }) {
  clock.set(instant);
  const who = await c.customer();
  await c.cartCall(who, 'POST', '/items', { productId, quantity: 1 });
  await c.cartCall(who, 'POST', '/location', {
    districtName: opts.district,
    addressLine1: 'Ward 4',
    city: opts.district,
    postalCode: '44600',
  });
  const res = await c.http.call('POST', '/api/orders/checkout', who.headers, {
    gateway: opts.gateway,
    returnUrl: RETURN_URL,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.orderId as number;
}

const paidOnline = (orderId: number) =>
  inTransaction(c.db, (tx, ac) =>
    markOrderPaid(c.deps, tx, ac, { orderId, paymentReference: `ref-${orderId}` }),
  );

beforeAll(async () => {
  c = await ordersTestApp({ initiator: fakeInitiator(), clock });
  productId = await c.product({ onHand: 50, mrp: 1000 });
  await c.district('Kathmandu', 100);
  await c.district('Lalitpur', 150);

  // Saturday 28 Feb, 23:59 local: the week that started on Sunday 22 Feb. COD, collected.
  const saturday = await placeAt('2026-02-28T18:14:00.000Z', { district: 'Kathmandu', gateway: 'cod' });
  await c.forceOrder(saturday, { status: 'paid', paymentStatus: 'cod_collected' });
  // Sunday 1 Mar, 00:00 local: a new day and a new week. Online, never paid.
  await placeAt('2026-02-28T18:15:00.000Z', { district: 'Kathmandu', gateway: 'gateway_card' });
  // Sunday 1 Mar, 23:59:59 local. Online, paid.
  const sundayNight = await placeAt('2026-03-01T18:14:59.000Z', {
    district: 'Kathmandu',
    gateway: 'gateway_card',
  });
  await paidOnline(sundayNight);
  // Monday 2 Mar, 00:00 local. COD, not yet collected.
  await placeAt('2026-03-01T18:15:00.000Z', { district: 'Kathmandu', gateway: 'cod' });
  // Thursday 5 Mar, 10:45 local, another district. Online, paid.
  const lalitpur = await placeAt('2026-03-05T05:00:00.000Z', {
    district: 'Lalitpur',
    gateway: 'gateway_wallet_a',
  });
  await paidOnline(lalitpur);

  clock.set(NOW);
  reader = await signedInAdmin(c.t, { permissions: ['Orders_READ'] });
});
afterAll(() => c?.t.close());

describe('GET /api/admin/orders/analytics', () => {
  it('days are store-local: an order at 23:59:59 and one at 00:00 fall on different days', async () => {
    const data = await analytics('range=custom&fromDate=2026-02-28&toDate=2026-03-02&bucket=day');
    expect(data.series).toEqual([
      // Each local day starts at 18:15 UTC the day before (UTC+05:45).
      { bucketStart: '2026-02-27T18:15:00.000Z', revenue: 1100, orderCount: 1 },
      { bucketStart: '2026-02-28T18:15:00.000Z', revenue: 1100, orderCount: 2 },
      { bucketStart: '2026-03-01T18:15:00.000Z', revenue: 0, orderCount: 1 },
    ]);
    // Revenue: the collected COD order and the paid online one; the unpaid online order and the
    // uncollected COD order count as orders only.
    expect(data.totals).toEqual({ revenue: 2200, orderCount: 4, averageOrderValue: 1100 });
  });

  it('weeks start on Sunday, store-local; the first week may start before fromDate', async () => {
    const data = await analytics('range=custom&fromDate=2026-02-28&toDate=2026-03-02&bucket=week');
    expect(data.series).toEqual([
      // Sunday 22 Feb local: only Saturday 28 Feb 23:59 lies inside the range.
      { bucketStart: '2026-02-21T18:15:00.000Z', revenue: 1100, orderCount: 1 },
      // Sunday 1 Mar 00:00 local.
      { bucketStart: '2026-02-28T18:15:00.000Z', revenue: 1100, orderCount: 3 },
    ]);
    // A range of one Saturday: one week bucket, from the Sunday before.
    const saturday = await analytics('range=custom&fromDate=2026-02-28&toDate=2026-02-28&bucket=week');
    expect(saturday.series).toEqual([
      { bucketStart: '2026-02-21T18:15:00.000Z', revenue: 1100, orderCount: 1 },
    ]);
  });

  it('months are store-local calendar months', async () => {
    const data = await analytics('range=custom&fromDate=2026-02-01&toDate=2026-03-31&bucket=month');
    expect(data.series).toEqual([
      { bucketStart: '2026-01-31T18:15:00.000Z', revenue: 1100, orderCount: 1 },
      { bucketStart: '2026-02-28T18:15:00.000Z', revenue: 2250, orderCount: 4 },
    ]);
    expect(data.totals).toEqual({ revenue: 3350, orderCount: 5, averageOrderValue: 1117 });
  });

  it('empty buckets are listed with zeros; an empty range has zero totals', async () => {
    const data = await analytics('range=custom&fromDate=2026-01-01&toDate=2026-01-03');
    expect(data.series).toEqual([
      { bucketStart: '2025-12-31T18:15:00.000Z', revenue: 0, orderCount: 0 },
      { bucketStart: '2026-01-01T18:15:00.000Z', revenue: 0, orderCount: 0 },
      { bucketStart: '2026-01-02T18:15:00.000Z', revenue: 0, orderCount: 0 },
    ]);
    expect(data.totals).toEqual({ revenue: 0, orderCount: 0, averageOrderValue: 0 });
  });

  it('district filters by the shipping district, whatever its letter case', async () => {
    const lalitpur = await analytics('range=30d&district=Lalitpur');
    expect(lalitpur.totals).toEqual({ revenue: 1150, orderCount: 1, averageOrderValue: 1150 });
    const kathmandu = await analytics('range=30d&district=kathmandu');
    expect(kathmandu.totals).toEqual({ revenue: 2200, orderCount: 4, averageOrderValue: 1100 });
    const none = await analytics('range=30d&district=Jhapa');
    expect(none.totals).toEqual({ revenue: 0, orderCount: 0, averageOrderValue: 0 });
    expect(none.series).toHaveLength(30);
  });

  it('7d: the last 7 local days including today, by day', async () => {
    const data = await analytics('range=7d');
    expect(data.series).toHaveLength(7);
    expect(data.series[0]!.bucketStart).toBe('2026-03-03T18:15:00.000Z'); // Wednesday 4 Mar
    expect(data.series[6]!.bucketStart).toBe('2026-03-09T18:15:00.000Z'); // today, 10 Mar
    expect(data.series[1]).toEqual({ bucketStart: '2026-03-04T18:15:00.000Z', revenue: 1150, orderCount: 1 });
    expect(data.totals).toEqual({ revenue: 1150, orderCount: 1, averageOrderValue: 1150 });
  });

  it('30d: 30 local days by day, holding every order', async () => {
    const data = await analytics('range=30d');
    expect(data.series).toHaveLength(30);
    expect(data.series[0]!.bucketStart).toBe('2026-02-08T18:15:00.000Z'); // 9 Feb
    expect(data.totals).toEqual({ revenue: 3350, orderCount: 5, averageOrderValue: 1117 });
    const weekly = await analytics('range=30d&bucket=week');
    // 9 Feb is a Monday: the first week starts on Sunday 8 Feb; today's week on Sunday 8 Mar.
    expect(weekly.series.map((b) => b.bucketStart)).toEqual([
      '2026-02-07T18:15:00.000Z',
      '2026-02-14T18:15:00.000Z',
      '2026-02-21T18:15:00.000Z',
      '2026-02-28T18:15:00.000Z',
      '2026-03-07T18:15:00.000Z',
    ]);
    expect(weekly.series.map((b) => b.orderCount)).toEqual([0, 0, 1, 4, 0]);
  });

  it('90d: weeks by default, from the Sunday on or before the first day', async () => {
    const data = await analytics('range=90d');
    // 11 Dec 2025 (a Thursday) to 10 Mar 2026: weeks from Sunday 7 Dec to Sunday 8 Mar.
    expect(data.series).toHaveLength(14);
    expect(data.series[0]!.bucketStart).toBe('2025-12-06T18:15:00.000Z');
    expect(data.series[13]!.bucketStart).toBe('2026-03-07T18:15:00.000Z');
    expect(data.totals.orderCount).toBe(5);
  });

  it('12m: this month and the 11 before it, by month', async () => {
    const data = await analytics('range=12m');
    expect(data.series).toHaveLength(12);
    expect(data.series[0]!.bucketStart).toBe('2025-03-31T18:15:00.000Z'); // 1 Apr 2025
    expect(data.series[11]).toEqual({
      bucketStart: '2026-02-28T18:15:00.000Z',
      revenue: 2250,
      orderCount: 4,
    });
    expect(data.series[10]).toEqual({
      bucketStart: '2026-01-31T18:15:00.000Z',
      revenue: 1100,
      orderCount: 1,
    });
    const daily = await analytics('range=12m&bucket=day');
    expect(daily.series).toHaveLength(344); // 1 Apr 2025 to 10 Mar 2026
  });

  it('the default is the last 30 days by day', async () => {
    expect(await analytics('')).toEqual(await analytics('range=30d&bucket=day'));
  });

  it('bad ranges: 400 VALIDATION_ERROR, or ORDER_DATE_RANGE_TOO_LARGE beyond 366 days', async () => {
    const call = (query: string) => c.http.call('GET', `${ANALYTICS}?${query}`, reader.headers);
    const missing = await call('range=custom');
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(
      missing
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['fromDate', 'toDate']);
    const reversed = await call('range=custom&fromDate=2026-03-02&toDate=2026-03-01');
    expectError(reversed, 400, 'VALIDATION_ERROR');
    expect(reversed.json().details[0].path).toBe('toDate');
    const stray = await call('range=7d&fromDate=2026-03-01');
    expectError(stray, 400, 'VALIDATION_ERROR');
    expect(stray.json().details[0].path).toBe('fromDate');
    expectError(await call('range=custom&fromDate=2026-02-30&toDate=2026-03-01'), 400, 'VALIDATION_ERROR');
    expectError(await call('range=custom&fromDate=1%2F3%2F2026&toDate=2026-03-01'), 400, 'VALIDATION_ERROR');
    expectError(await call('range=1y'), 400, 'VALIDATION_ERROR');
    expectError(await call('bucket=hour'), 400, 'VALIDATION_ERROR');
    const tooLong = await call('range=custom&fromDate=2025-01-01&toDate=2026-01-02');
    expectError(tooLong, 400, 'ORDER_DATE_RANGE_TOO_LARGE');
    expect(tooLong.json().maxDays).toBe(366);
    // 366 days (a leap year) is the longest allowed.
    const leapYear = await analytics('range=custom&fromDate=2024-01-01&toDate=2024-12-31&bucket=month');
    expect(leapYear.series).toHaveLength(12);
  });

  it('needs Orders_READ', async () => {
    await c.http.expectGuarded('GET', `${ANALYTICS}?range=7d`, 'Orders_READ', await c.customer());
  });
});

describe('GET /api/admin/orders/analytics/districts', () => {
  it('per district, most revenue first; same range rules and filter', async () => {
    const res = await c.http.call('GET', `${ANALYTICS}/districts?range=30d`, reader.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { districtName: 'Kathmandu', revenue: 2200, orderCount: 4 },
      { districtName: 'Lalitpur', revenue: 1150, orderCount: 1 },
    ]);
    const week = await c.http.call(
      'GET',
      `${ANALYTICS}/districts?range=custom&fromDate=2026-03-02&toDate=2026-03-08`,
      reader.headers,
    );
    expect(week.json().data).toEqual([
      { districtName: 'Lalitpur', revenue: 1150, orderCount: 1 },
      { districtName: 'Kathmandu', revenue: 0, orderCount: 1 },
    ]);
    const filtered = await c.http.call(
      'GET',
      `${ANALYTICS}/districts?range=30d&district=LALITPUR`,
      reader.headers,
    );
    expect(filtered.json().data).toEqual([{ districtName: 'Lalitpur', revenue: 1150, orderCount: 1 }]);
    const empty = await c.http.call('GET', `${ANALYTICS}/districts?range=7d&district=Jhapa`, reader.headers);
    expect(empty.json().data).toEqual([]);
    expectError(
      await c.http.call('GET', `${ANALYTICS}/districts?range=custom&fromDate=2026-03-01`, reader.headers),
      400,
      'VALIDATION_ERROR',
    );
    await c.http.expectGuarded('GET', `${ANALYTICS}/districts`, 'Orders_READ', await c.customer());
  });
});

describe('store calendar arithmetic', () => {
  it('storeDate reads the local date of an instant', () => {
    expect(storeDate(new Date('2026-03-01T18:14:59Z'), 'Asia/Kathmandu')).toBe('2026-03-01');
    expect(storeDate(new Date('2026-03-01T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-03-02');
    expect(storeDate(new Date('2026-03-08T04:59:00Z'), 'America/New_York')).toBe('2026-03-07');
  });

  it('resolveRange: presets end today; 12m starts on the 1st eleven months back, across a year', () => {
    expect(resolveRange({ range: '7d' }, '2026-03-01')).toEqual({
      fromDate: '2026-02-23',
      toDate: '2026-03-01',
    });
    expect(resolveRange({ range: '30d' }, '2024-03-01')).toEqual({
      fromDate: '2024-02-01',
      toDate: '2024-03-01',
    });
    expect(resolveRange({ range: '90d' }, '2026-01-15')).toEqual({
      fromDate: '2025-10-18',
      toDate: '2026-01-15',
    });
    expect(resolveRange({ range: '12m' }, '2026-01-31')).toEqual({
      fromDate: '2025-02-01',
      toDate: '2026-01-31',
    });
    expect(resolveRange({ range: '12m' }, '2026-12-05')).toEqual({
      fromDate: '2026-01-01',
      toDate: '2026-12-05',
    });
  });
});
