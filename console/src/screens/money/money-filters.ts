// The money lists' filters as they live in the address (`/admin/money/payments?gateway=…`), so a
// filtered list can be bookmarked and comes back with Back. Pure functions: whatever a
// hand-edited address holds, only values the API accepts reach it.
import {
  PAYMENT_GATEWAYS,
  PAYMENT_STATUSES,
  type Payment,
  type PaymentListQuery,
  type PaymentStatus,
  REFUND_STATES,
  type RefundQueueQuery,
  type RefundState,
} from './money-api';

/** The API caps `search` at 100 characters. */
export const SEARCH_MAX = 100;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(values: readonly T[], value: unknown): T | null {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : null;
}

/** The router reads `?search=1042` as a number: a search is taken as text whatever its type. */
function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number'
    ? String(value).trim().slice(0, SEARCH_MAX)
    : '';
}

const dayOf = (value: unknown) => (typeof value === 'string' && DAY.test(value) ? value : '');

export interface PaymentFilters {
  search: string;
  gateway: Payment['gateway'] | null;
  status: PaymentStatus | null;
  /** `overdue`: only payments reconciliation should have settled; `current`: the others. */
  overdue: 'overdue' | 'current' | null;
  fromDate: string;
  toDate: string;
}

export const NO_PAYMENT_FILTERS: PaymentFilters = {
  search: '',
  gateway: null,
  status: null,
  overdue: null,
  fromDate: '',
  toDate: '',
};

export function paymentFiltersFrom(search: Record<string, unknown>): PaymentFilters {
  return {
    search: textOf(search.search),
    gateway: oneOf(PAYMENT_GATEWAYS, search.gateway),
    status: oneOf(PAYMENT_STATUSES, search.status),
    overdue: oneOf(['overdue', 'current'] as const, search.overdue),
    fromDate: dayOf(search.fromDate),
    toDate: dayOf(search.toDate),
  };
}

/** Only what differs from no filter; the page is left out (a new filter starts at page 1). */
export function searchOfPayments(f: PaymentFilters): Record<string, string | undefined> {
  return {
    search: f.search || undefined,
    gateway: f.gateway ?? undefined,
    status: f.status ?? undefined,
    overdue: f.overdue ?? undefined,
    fromDate: f.fromDate || undefined,
    toDate: f.toDate || undefined,
    page: undefined,
  };
}

export function paymentQueryOf(f: PaymentFilters, page: number, size: number): PaymentListQuery {
  const query: PaymentListQuery = { page, size };
  if (f.search) query.search = f.search;
  if (f.gateway) query.gateway = f.gateway;
  if (f.status) query.status = f.status;
  if (f.overdue) query.stale = f.overdue === 'overdue' ? 'true' : 'false';
  if (f.fromDate) query.fromDate = f.fromDate;
  if (f.toDate) query.toDate = f.toDate;
  return query;
}

/** How many of the folded filters narrow the list (the search box shows itself). */
export function foldedPaymentFilters(f: PaymentFilters): number {
  return [f.gateway, f.status, f.overdue, f.fromDate || null, f.toDate || null].filter((v) => v !== null)
    .length;
}

export const paymentsFiltered = (f: PaymentFilters) => f.search !== '' || foldedPaymentFilters(f) > 0;

export interface RefundFilters {
  search: string;
  /** Null: every refund. */
  state: RefundState | null;
}

export function refundFiltersFrom(search: Record<string, unknown>): RefundFilters {
  return { search: textOf(search.search), state: oneOf(REFUND_STATES, search.state) };
}

export function searchOfRefunds(f: RefundFilters): Record<string, string | undefined> {
  return { search: f.search || undefined, state: f.state ?? undefined, page: undefined };
}

export function refundQueryOf(f: RefundFilters, page: number, size: number): RefundQueueQuery {
  const query: RefundQueueQuery = { page, size };
  if (f.search) query.search = f.search;
  if (f.state) query.state = f.state;
  return query;
}
