// The customer list: search by name, email or phone, filter by account state, newest first.
import { Anchor, Box, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { USER_TEXT } from '../../components/UserText';
import { useSession } from '../../session/session';
import { AccountState, type Customer } from './CustomerBadges';

export function CustomersScreen() {
  const { t } = useTranslation('customers');
  const { client } = useSession();
  const navigate = useNavigate();
  // Search and state live in the address, so Back from a customer returns to the same list.
  const urlSearch = useSearch({ strict: false }) as { q?: unknown; state?: unknown };
  const q = typeof urlSearch.q === 'string' ? urlSearch.q : '';
  const state = urlSearch.state === 'active' || urlSearch.state === 'inactive' ? urlSearch.state : null;
  const [searchText, setSearchText] = useState(q);
  const [debounced] = useDebouncedValue(searchText.trim(), 300);

  const list = usePagedList<Customer>({
    queryKey: ['customers', 'list', { q, state }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/customers', {
        params: {
          query: {
            page,
            size,
            search: q || undefined,
            isActive: state === null ? undefined : state === 'active' ? 'true' : 'false',
            sort: 'createdAt',
            order: 'desc',
          },
        },
      }),
    action: t('list.action'),
  });
  const setFilters = (next: { q?: string; state?: string | null }) =>
    void navigate({
      to: '.',
      search: (previous: Record<string, unknown>) => ({
        ...previous,
        ...('q' in next ? { q: next.q || undefined } : {}),
        ...('state' in next ? { state: next.state ?? undefined } : {}),
        page: undefined,
      }),
      replace: true,
    } as never);
  const setFiltersRef = useRef(setFilters);
  setFiltersRef.current = setFilters;
  useEffect(() => {
    if (debounced !== q) setFiltersRef.current({ q: debounced });
  }, [debounced, q]);

  const columns: Column<Customer>[] = [
    {
      key: 'name',
      header: t('list.name'),
      cell: (c) => (
        <Box className={USER_TEXT}>
          <Anchor component={Link} to={`/customers/${c.id}`} fw={600}>
            {c.name}
          </Anchor>
        </Box>
      ),
    },
    {
      key: 'email',
      header: t('list.email'),
      cell: (c) => (
        <Text size="sm" className={USER_TEXT}>
          {c.email}
        </Text>
      ),
    },
    { key: 'phone', header: t('list.phone'), cell: (c) => c.phone ?? '—' },
    { key: 'state', header: t('list.state'), cell: (c) => <AccountState customer={c} /> },
    { key: 'joined', header: t('list.joined'), cell: (c) => <StoreDateTime value={c.createdAt} size="sm" /> },
    {
      key: 'lastLogin',
      header: t('list.lastLogin'),
      cell: (c) =>
        c.lastLoginAt ? (
          <StoreDateTime value={c.lastLoginAt} size="sm" />
        ) : (
          <Text span size="sm" c="dimmed">
            {t('list.never')}
          </Text>
        ),
    },
  ];

  return (
    <Screen title={t('list.title')}>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('list.search')}
          description={t('list.searchHint')}
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={300}
        />
        <Select
          label={t('list.state')}
          placeholder={t('list.anyState')}
          data={[
            { value: 'active', label: t('state.active') },
            { value: 'inactive', label: t('state.inactive') },
          ]}
          value={state}
          onChange={(value) => setFilters({ state: value })}
          clearable
          w={200}
        />
      </Group>
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(c) => c.id}
        caption={t('list.caption')}
        emptyMessage={q || state ? t('list.noMatch') : t('list.empty')}
      />
    </Screen>
  );
}
