// The repairs list's filters as they live in the address (`/admin/repairs?status=under_repair`).
import { REPAIR_STATUSES, type RepairListQuery, type RepairStatus } from './repairs-api';

export interface RepairFilters {
  search: string;
  status: RepairStatus | null;
  dateFrom: string;
  dateTo: string;
}

export const NO_FILTERS: RepairFilters = { search: '', status: null, dateFrom: '', dateTo: '' };
/** The API takes up to 50 characters of a ticket number. */
export const SEARCH_MAX = 50;

const day = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

export function filtersFromSearch(search: Record<string, unknown>): RepairFilters {
  const text =
    typeof search.search === 'string' || typeof search.search === 'number' ? String(search.search) : '';
  const status = (REPAIR_STATUSES as readonly unknown[]).includes(search.status)
    ? (search.status as RepairStatus)
    : null;
  return {
    search: text.trim().slice(0, SEARCH_MAX),
    status,
    dateFrom: day(search.dateFrom),
    dateTo: day(search.dateTo),
  };
}

export function searchFromFilters(filters: RepairFilters): Record<string, string | undefined> {
  return {
    search: filters.search || undefined,
    status: filters.status ?? undefined,
    dateFrom: filters.dateFrom || undefined,
    dateTo: filters.dateTo || undefined,
    page: undefined,
  };
}

export function listQueryOf(filters: RepairFilters, page: number, size: number): RepairListQuery {
  const query: RepairListQuery = { page, size, sort: 'updatedAt', order: 'desc' };
  if (filters.search) query.search = filters.search;
  if (filters.status) query.status = filters.status;
  if (filters.dateFrom) query.dateFrom = filters.dateFrom;
  if (filters.dateTo) query.dateTo = filters.dateTo;
  return query;
}

export const isFiltered = (f: RepairFilters) =>
  f.search !== '' || f.status !== null || f.dateFrom !== '' || f.dateTo !== '';
