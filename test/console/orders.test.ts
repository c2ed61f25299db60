// The orders screens' pure parts: the list's filters as they travel through the address, which
// commands an order's page offers, and when an async command counts as done.
import { describe, expect, it } from 'vitest';
import {
  filtersFromSearch,
  foldedActive,
  isFiltered,
  listQueryOf,
  NO_FILTERS,
  searchFromFilters,
} from '../../console/src/screens/orders/order-filters';
import { requestSucceeded } from '../../console/src/screens/orders/order-requests';
import {
  awaitsCodCash,
  canBeCancelled,
  digitalDelivery,
  nextFulfilmentStep,
} from '../../console/src/screens/orders/order-rules';
import type { OrderDetail } from '../../console/src/screens/orders/orders-api';

describe('order list filters in the address', () => {
  it('reads the filters the API accepts and drops anything else', () => {
    expect(
      filtersFromSearch({
        status: 'paid',
        paymentStatus: 'cod_pending',
        paymentMethod: 'bitcoin',
        orderType: 'physical',
        fulfillmentStatus: 'in_transit',
        sort: 'sideways',
        search: '  sita  ',
        page: 3,
      }),
    ).toEqual({
      search: 'sita',
      status: 'paid',
      paymentStatus: 'cod_pending',
      paymentMethod: null,
      orderType: 'physical',
      fulfillmentStatus: 'in_transit',
      sort: 'newest',
    });
  });

  it('takes a search the router parsed as a number as text, cut to the API’s 100 characters', () => {
    expect(filtersFromSearch({ search: 9841000000 }).search).toBe('9841000000');
    expect(filtersFromSearch({ search: 'x'.repeat(150) }).search).toHaveLength(100);
    expect(filtersFromSearch({ search: { nested: true } }).search).toBe('');
  });

  it('writes only what narrows the list, and starts again at page 1', () => {
    expect(searchFromFilters(NO_FILTERS)).toEqual({
      search: undefined,
      status: undefined,
      paymentStatus: undefined,
      paymentMethod: undefined,
      orderType: undefined,
      fulfillmentStatus: undefined,
      sort: undefined,
      page: undefined,
    });
    const filters = {
      ...NO_FILTERS,
      status: 'cancelled' as const,
      sort: 'oldest' as const,
      search: ' ORD-1 ',
    };
    expect(searchFromFilters(filters)).toMatchObject({
      status: 'cancelled',
      sort: 'oldest',
      search: 'ORD-1',
    });
    expect(filtersFromSearch(searchFromFilters(filters))).toEqual({ ...filters, search: 'ORD-1' });
  });

  it('turns the filters into the API query, sort and order included', () => {
    expect(listQueryOf(NO_FILTERS, 1, 20)).toEqual({ page: 1, size: 20, sort: 'createdAt', order: 'desc' });
    expect(
      listQueryOf({ ...NO_FILTERS, sort: 'leastUpdated', paymentMethod: 'cod', search: 'sita' }, 4, 50),
    ).toEqual({ page: 4, size: 50, sort: 'updatedAt', order: 'asc', paymentMethod: 'cod', search: 'sita' });
  });

  it('counts the sort as no filter', () => {
    expect(isFiltered({ ...NO_FILTERS, sort: 'oldest' })).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, orderType: 'digital' })).toBe(true);
  });

  it('counts for the folded Filters button the selects that are set, the search left out', () => {
    expect(foldedActive(NO_FILTERS)).toBe(0);
    expect(foldedActive({ ...NO_FILTERS, search: 'sita' })).toBe(0);
    expect(foldedActive({ ...NO_FILTERS, status: 'paid', paymentMethod: 'cod' })).toBe(2);
    // A sort other than newest first changes what the first screen shows: it counts.
    expect(foldedActive({ ...NO_FILTERS, sort: 'oldest', fulfillmentStatus: 'ready' })).toBe(2);
  });
});

const physicalPath = ['received', 'ready', 'picked_up', 'in_transit', 'delivered'] as const;

function order(over: Partial<OrderDetail>): OrderDetail {
  const fulfillmentStatus = over.fulfillmentStatus ?? null;
  const at = physicalPath.indexOf(fulfillmentStatus as (typeof physicalPath)[number]);
  return {
    orderStatus: 'paid',
    paymentStatus: 'completed',
    paymentMethod: 'online',
    fulfillmentStatus,
    fulfillmentTimeline: physicalPath.map((status, index) => ({
      status,
      label: status,
      completed: at >= 0 && index <= at,
      current: index === at,
    })),
    eligibleFulfillmentActions: [],
    items: [],
    ...over,
  } as OrderDetail;
}

describe('which commands an order offers', () => {
  it.each([
    ['payment_pending', null, true],
    ['payment_pending', 'received', true],
    ['paid', 'received', true],
    ['paid', 'ready', true],
    ['paid', 'picked_up', false],
    ['paid', 'delivered', false],
    ['cancelled', 'cancelled', false],
    ['refund_requested', 'received', false],
  ] as const)('cancel, %s with fulfilment %s: %s', (orderStatus, fulfillmentStatus, expected) => {
    expect(canBeCancelled(order({ orderStatus, fulfillmentStatus }))).toBe(expected);
  });

  it('offers the one next fulfilment step, only when the API says it may advance', () => {
    expect(
      nextFulfilmentStep(order({ fulfillmentStatus: 'ready', eligibleFulfillmentActions: ['advance'] })),
    ).toBe('picked_up');
    expect(
      nextFulfilmentStep(order({ fulfillmentStatus: 'in_transit', eligibleFulfillmentActions: ['advance'] })),
    ).toBe('delivered');
    expect(
      nextFulfilmentStep(order({ fulfillmentStatus: 'delivered', eligibleFulfillmentActions: [] })),
    ).toBeNull();
    expect(
      nextFulfilmentStep(order({ fulfillmentStatus: 'ready', eligibleFulfillmentActions: [] })),
    ).toBeNull();
  });

  it('offers COD cash only while it is due', () => {
    expect(
      awaitsCodCash(
        order({ paymentMethod: 'cod', paymentStatus: 'cod_pending', orderStatus: 'payment_pending' }),
      ),
    ).toBe(true);
    expect(awaitsCodCash(order({ paymentMethod: 'cod', paymentStatus: 'cod_collected' }))).toBe(false);
    expect(
      awaitsCodCash(order({ paymentMethod: 'cod', paymentStatus: 'cod_pending', orderStatus: 'cancelled' })),
    ).toBe(false);
  });

  it('sends digital keys as the step of a digital order, or again for a paid order with digital lines', () => {
    const digitalLine = { productKind: 'digital' } as OrderDetail['items'][number];
    expect(digitalDelivery(order({ eligibleFulfillmentActions: ['send-digital-delivery'] }))).toBe('send');
    expect(digitalDelivery(order({ orderStatus: 'paid', items: [digitalLine] }))).toBe('resend');
    expect(digitalDelivery(order({ orderStatus: 'payment_pending', items: [digitalLine] }))).toBeNull();
    expect(digitalDelivery(order({ orderStatus: 'paid' }))).toBeNull();
  });
});

describe('when an async command is done', () => {
  it.each([
    [{ status: 'completed', error: null }, true],
    [{ status: 'failed', error: 'already_at_target_status' }, true],
    [{ status: 'failed', error: 'invalid_transition' }, false],
    [{ status: 'pending', error: null }, false],
  ] as const)('%o: %s', (request, expected) => {
    expect(requestSucceeded(request)).toBe(expected);
  });
});
