// The orders list's filters as they live in the address (`/admin/orders?status=paid&search=sita`),
// so a filtered list can be bookmarked, shared with a colleague and come back with Back. Pure
// functions: whatever a hand-edited address holds, only values the API accepts reach it.
import {
  FULFILLMENT_STATUSES,
  type FulfillmentStatus,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderListQuery,
  type OrderStatus,
  type OrderType,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  type PaymentMethod,
  type PaymentStatus,
} from './orders-api';

/** How the list is sorted: the API's `sort` and `order` as one choice. */
export const SORTS = ['newest', 'oldest', 'updated', 'leastUpdated'] as const;
export type Sort = (typeof SORTS)[number];

const SORT_QUERY: Record<Sort, Pick<OrderListQuery, 'sort' | 'order'>> = {
  newest: { sort: 'createdAt', order: 'desc' },
  oldest: { sort: 'createdAt', order: 'asc' },
  updated: { sort: 'updatedAt', order: 'desc' },
  leastUpdated: { sort: 'updatedAt', order: 'asc' },
};

export interface OrderFilters {
  search: string;
  status: OrderStatus | null;
  paymentStatus: PaymentStatus | null;
  paymentMethod: PaymentMethod | null;
  orderType: OrderType | null;
  fulfillmentStatus: FulfillmentStatus | null;
  sort: Sort;
}

export const NO_FILTERS: OrderFilters = {
  search: '',
  status: null,
  paymentStatus: null,
  paymentMethod: null,
  orderType: null,
  fulfillmentStatus: null,
  sort: 'newest',
};

/** The API caps `search` at 100 characters. */
export const SEARCH_MAX = 100;

function oneOf<T extends string>(values: readonly T[], value: unknown): T | null {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : null;
}

/**
 * The filters in the router's parsed search. The router reads `?search=1042` as the number
 * 1042, so a search is taken as text whatever its type.
 */
export function filtersFromSearch(search: Record<string, unknown>): OrderFilters {
  const text =
    typeof search.search === 'string' || typeof search.search === 'number' ? String(search.search) : '';
  return {
    search: text.trim().slice(0, SEARCH_MAX),
    status: oneOf(ORDER_STATUSES, search.status),
    paymentStatus: oneOf(PAYMENT_STATUSES, search.paymentStatus),
    paymentMethod: oneOf(PAYMENT_METHODS, search.paymentMethod),
    orderType: oneOf(ORDER_TYPES, search.orderType),
    fulfillmentStatus: oneOf(FULFILLMENT_STATUSES, search.fulfillmentStatus),
    sort: oneOf(SORTS, search.sort) ?? 'newest',
  };
}

/**
 * The address's search for these filters: only what differs from no filter at all, so the
 * plain list is plainly `/admin/orders`. The page is left out: a new filter starts at page 1.
 */
export function searchFromFilters(filters: OrderFilters): Record<string, string | undefined> {
  return {
    search: filters.search.trim() || undefined,
    status: filters.status ?? undefined,
    paymentStatus: filters.paymentStatus ?? undefined,
    paymentMethod: filters.paymentMethod ?? undefined,
    orderType: filters.orderType ?? undefined,
    fulfillmentStatus: filters.fulfillmentStatus ?? undefined,
    sort: filters.sort === 'newest' ? undefined : filters.sort,
    page: undefined,
  };
}

/** The API query of a page of the list with these filters. */
export function listQueryOf(filters: OrderFilters, page: number, size: number): OrderListQuery {
  const query: OrderListQuery = { page, size, ...SORT_QUERY[filters.sort] };
  if (filters.search) query.search = filters.search;
  if (filters.status) query.status = filters.status;
  if (filters.paymentStatus) query.paymentStatus = filters.paymentStatus;
  if (filters.paymentMethod) query.paymentMethod = filters.paymentMethod;
  if (filters.orderType) query.orderType = filters.orderType;
  if (filters.fulfillmentStatus) query.fulfillmentStatus = filters.fulfillmentStatus;
  return query;
}

/** True when any filter narrows the list (the sort does not). */
export function isFiltered(filters: OrderFilters): boolean {
  return (
    filters.search !== '' ||
    filters.status !== null ||
    filters.paymentStatus !== null ||
    filters.paymentMethod !== null ||
    filters.orderType !== null ||
    filters.fulfillmentStatus !== null
  );
}

/**
 * How many of the selects narrow the list (the search box shows itself; a sort other than
 * newest first counts, since it changes what the first screen shows): the number on the
 * folded "Filters" button of a phone.
 */
export function foldedActive(filters: OrderFilters): number {
  return [
    filters.status,
    filters.paymentStatus,
    filters.paymentMethod,
    filters.orderType,
    filters.fulfillmentStatus,
    filters.sort === 'newest' ? null : filters.sort,
  ].filter((value) => value !== null).length;
}
