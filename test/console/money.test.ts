// The money screens' pure parts: the payments list's and the refunds queue's filters as they
// travel through the address and on to the API.
import { describe, expect, it } from 'vitest';
import {
  foldedPaymentFilters,
  NO_PAYMENT_FILTERS,
  paymentFiltersFrom,
  paymentQueryOf,
  paymentsFiltered,
  refundFiltersFrom,
  refundQueryOf,
  searchOfPayments,
  searchOfRefunds,
} from '../../console/src/screens/money/money-filters';

describe('payments list filters in the address', () => {
  it('reads the filters the API accepts and drops anything else', () => {
    expect(
      paymentFiltersFrom({
        gateway: 'gateway_card',
        status: 'refunded',
        overdue: 'overdue',
        fromDate: '2026-04-01',
        toDate: 'yesterday',
        search: 20260415,
      }),
    ).toEqual({
      search: '20260415',
      gateway: 'gateway_card',
      status: null,
      overdue: 'overdue',
      fromDate: '2026-04-01',
      toDate: '',
    });
    expect(paymentFiltersFrom({ gateway: 'cod', overdue: 'true' })).toEqual(NO_PAYMENT_FILTERS);
  });

  it('writes only what narrows the list, and starts again at page 1', () => {
    expect(searchOfPayments(NO_PAYMENT_FILTERS)).toEqual({
      search: undefined,
      gateway: undefined,
      status: undefined,
      overdue: undefined,
      fromDate: undefined,
      toDate: undefined,
      page: undefined,
    });
    const filters = { ...NO_PAYMENT_FILTERS, status: 'pending' as const, overdue: 'current' as const };
    expect(searchOfPayments(filters)).toMatchObject({ status: 'pending', overdue: 'current' });
    expect(paymentFiltersFrom(searchOfPayments(filters))).toEqual(filters);
  });

  it('asks the API for overdue payments with stale', () => {
    expect(paymentQueryOf({ ...NO_PAYMENT_FILTERS, overdue: 'overdue', search: 'ORD-1' }, 2, 20)).toEqual({
      page: 2,
      size: 20,
      stale: 'true',
      search: 'ORD-1',
    });
    expect(paymentQueryOf({ ...NO_PAYMENT_FILTERS, overdue: 'current' }, 1, 20)).toMatchObject({
      stale: 'false',
    });
    expect(paymentQueryOf(NO_PAYMENT_FILTERS, 1, 20)).toEqual({ page: 1, size: 20 });
  });

  it('counts the folded filters and knows when the list is narrowed', () => {
    expect(foldedPaymentFilters(NO_PAYMENT_FILTERS)).toBe(0);
    expect(paymentsFiltered(NO_PAYMENT_FILTERS)).toBe(false);
    const narrowed = { ...NO_PAYMENT_FILTERS, gateway: 'pos_cash' as const, fromDate: '2026-04-01' };
    expect(foldedPaymentFilters(narrowed)).toBe(2);
    expect(paymentsFiltered({ ...NO_PAYMENT_FILTERS, search: 'PSL' })).toBe(true);
  });
});

describe('refunds queue filters in the address', () => {
  it('keeps a known state and the search, and asks the API for them', () => {
    const filters = refundFiltersFrom({ state: 'owed', search: ' sita ' });
    expect(filters).toEqual({ state: 'owed', search: 'sita' });
    expect(refundFiltersFrom({ state: 'pending' })).toEqual({ state: null, search: '' });
    expect(searchOfRefunds(filters)).toEqual({ state: 'owed', search: 'sita', page: undefined });
    expect(refundQueryOf(filters, 3, 20)).toEqual({ page: 3, size: 20, state: 'owed', search: 'sita' });
    expect(refundQueryOf({ state: null, search: '' }, 1, 20)).toEqual({ page: 1, size: 20 });
  });
});
