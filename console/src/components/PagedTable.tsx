// The list page pattern: a server-paginated table with loading, empty and error states (a table
// on a laptop, cards on a phone: DataTable).
//
//   const list = usePagedList({
//     queryKey: ['orders', filters],
//     fetchPage: ({ page, size }) => client.list('/api/admin/orders', { params: { query: { page, size, ...filters } } }),
//     action: t('orders:actions.load'),
//   });
//   <PagedTable list={list} caption={t('orders:list.caption')} rowKey={(o) => o.id} columns={[…]} />
//
// The page number lives in the URL (`?page=3`), so Back, reload-free links and bookmarks keep
// it; a filter change should reset it with `list.setPage(1)`.
import { Box, Group, Pagination, Text } from '@mantine/core';
import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../lib/format';
import { useNarrowScreen } from '../lib/narrow-screen';
import { type Column, DataTable } from './DataTable';
import { EmptyState, ErrorState, LoadingState } from './StatePanels';

/** A page of a list as `client.list(...)` answers it: rows and the API's `meta`. */
export interface ListPage<Row> {
  data: Row[];
  meta?: { count: number; page?: number; size?: number };
}

export type { Column } from './DataTable';

export interface PagedList<Row> {
  query: UseQueryResult<ListPage<Row>>;
  page: number;
  size: number;
  setPage(page: number): void;
}

const DEFAULT_PAGE_SIZE = 20;

function pageFromUrl(value: unknown): number {
  const page = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function usePagedList<Row>(opts: {
  queryKey: readonly unknown[];
  fetchPage(window: { page: number; size: number }): Promise<ListPage<Row>>;
  /** Page size; the API allows 1 to 100. */
  size?: number;
  /** What loading this list is, in the admin's language, named if the API refuses it. */
  action?: string;
}): PagedList<Row> {
  const search = useSearch({ strict: false }) as { page?: unknown };
  const navigate = useNavigate();
  const page = pageFromUrl(search.page);
  const size = opts.size ?? DEFAULT_PAGE_SIZE;
  const query = useQuery({
    queryKey: [...opts.queryKey, { page, size }],
    queryFn: () => opts.fetchPage({ page, size }),
    // The previous page stays on screen (with a spinner) while the next one loads.
    placeholderData: keepPreviousData,
    meta: { action: opts.action },
  });
  const setPage = (next: number) => {
    void navigate({
      to: '.',
      search: (previous: Record<string, unknown>) => ({ ...previous, page: next > 1 ? next : undefined }),
    } as never);
  };
  return { query, page, size, setPage };
}

export function PagedTable<Row>(props: {
  list: PagedList<Row>;
  columns: Column<Row>[];
  rowKey(row: Row): string | number;
  /** Names the table for screen readers ("Orders"). */
  caption: string;
  /** What an empty list means here ("No orders match these filters"). */
  emptyMessage?: string;
}) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const { query, page, size, setPage } = props.list;

  if (query.isPending) return <LoadingState />;
  if (query.isError && !query.data) return <ErrorState error={query.error} onRetry={() => query.refetch()} />;

  const rows = query.data?.data ?? [];
  const count = query.data?.meta?.count ?? rows.length;
  const totalPages = Math.max(1, Math.ceil(count / size));
  if (rows.length === 0 && page === 1) return <EmptyState message={props.emptyMessage} />;

  const first = (page - 1) * size + 1;
  return (
    <Box>
      {query.isError && <ErrorState error={query.error} onRetry={() => query.refetch()} />}
      <DataTable
        rows={rows}
        columns={props.columns}
        rowKey={props.rowKey}
        caption={props.caption}
        busy={query.isPlaceholderData}
        striped
      />
      {rows.length === 0 && <EmptyState message={t('list.pastTheEnd')} />}
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed">
          {rows.length > 0
            ? t('list.showing', {
                from: formatCount(first),
                to: formatCount(first + rows.length - 1),
                total: formatCount(count),
              })
            : null}
        </Text>
        {totalPages > 1 && (
          <nav aria-label={t('list.pages')}>
            <Pagination
              total={totalPages}
              value={Math.min(page, totalPages)}
              onChange={setPage}
              // On a phone: first, current and last pages only, so the row fits 390 px.
              siblings={narrow ? 0 : 1}
              boundaries={1}
              getItemProps={(item) => ({ 'aria-label': t('list.page', { page: item }) })}
              getControlProps={(control) => ({ 'aria-label': t(`list.${control}`) })}
            />
          </nav>
        )}
      </Group>
    </Box>
  );
}
