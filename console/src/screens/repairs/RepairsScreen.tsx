// The repairs desk: every repair request, latest change first, by status, ticket number and the
// days it was booked, all kept in the address.

import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterFold } from '../../components/FilterFold';
import { StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StoreDateInput } from '../../components/StoreDateInput';
import { USER_TEXT } from '../../components/UserText';
import { useAddressFilters } from '../../lib/address-filters';
import { useClient } from '../../session/session';
import { RepairStatusBadge } from './RepairBadges';
import {
  filtersFromSearch,
  isFiltered,
  listQueryOf,
  NO_FILTERS,
  type RepairFilters,
  SEARCH_MAX,
  searchFromFilters,
} from './repair-filters';
import { fetchRepairs, REPAIR_STATUSES, type RepairListItem } from './repairs-api';

const SEARCH_DELAY_MS = 350;

export function RepairsScreen() {
  const { t } = useTranslation('repairs');
  const client = useClient();
  const { filters, apply } = useAddressFilters(filtersFromSearch, searchFromFilters);
  const list = usePagedList<RepairListItem>({
    queryKey: ['repairs', 'list', filters],
    fetchPage: ({ page, size }) => fetchRepairs(client, listQueryOf(filters, page, size)),
    action: t('actions.loadList'),
  });

  const columns: Column<RepairListItem>[] = [
    {
      key: 'ticket',
      header: t('list.columns.ticket'),
      cell: (repair) => (
        <Anchor component={Link} to={`/repairs/${repair.id}`} fw={600} style={{ whiteSpace: 'nowrap' }}>
          {repair.ticketNumber}
        </Anchor>
      ),
    },
    {
      key: 'customer',
      header: t('list.columns.customer'),
      cell: (repair) => (
        <Stack gap={0} className={USER_TEXT}>
          <Text size="sm">{repair.customer.name ?? t('detail.noName')}</Text>
          <Text size="xs" c="dimmed">
            {repair.customer.email}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'devices',
      header: t('list.columns.devices'),
      cell: (repair) => (
        <Text size="sm" className={USER_TEXT}>
          {repair.devices.map((d) => `${d.brandName} ${d.laptopModel}`).join(', ')}
        </Text>
      ),
    },
    {
      key: 'method',
      header: t('list.columns.method'),
      cell: (repair) => <Text size="sm">{t(`method.${repair.collectionMethod}`)}</Text>,
    },
    {
      key: 'status',
      header: t('list.columns.status'),
      cell: (repair) => <RepairStatusBadge status={repair.status} />,
    },
    {
      key: 'updated',
      header: t('list.columns.updated'),
      cell: (repair) => <StoreDateTime value={repair.updatedAt} size="sm" stacked />,
    },
  ];

  return (
    <Screen title={t('list.title')}>
      <Filters filters={filters} onChange={apply} />
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(repair) => repair.id}
        caption={t('list.caption')}
        emptyMessage={isFiltered(filters) ? t('list.noMatch') : t('list.none')}
      />
    </Screen>
  );
}

function Filters({
  filters,
  onChange,
}: {
  filters: RepairFilters;
  onChange(next: RepairFilters, replace?: boolean): void;
}) {
  const { t } = useTranslation('repairs');
  const [text, setText] = useState(filters.search);
  useEffect(() => {
    setText((typed) => (typed.trim() === filters.search ? typed : filters.search));
  }, [filters.search]);
  useEffect(() => {
    if (text.trim() === filters.search) return;
    const timer = setTimeout(() => onChange({ ...filters, search: text.trim() }, true), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== filters.search) onChange({ ...filters, search: text.trim() });
  };
  return (
    <Paper withBorder p="md" component="form" role="search" aria-label={t('filters.title')} onSubmit={submit}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <TextInput
            type="search"
            label={t('filters.search')}
            placeholder={t('filters.searchPlaceholder')}
            value={text}
            maxLength={SEARCH_MAX}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <FilterFold active={[filters.status, filters.dateFrom, filters.dateTo].filter(Boolean).length}>
            <NativeSelect
              label={t('filters.status')}
              data={[
                { value: '', label: t('filters.any') },
                ...REPAIR_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })),
              ]}
              value={filters.status ?? ''}
              onChange={(event) =>
                onChange({
                  ...filters,
                  status: (event.currentTarget.value || null) as RepairFilters['status'],
                })
              }
            />
            <StoreDateInput
              label={t('filters.from')}
              value={filters.dateFrom}
              onChange={(dateFrom) => onChange({ ...filters, dateFrom })}
            />
            <StoreDateInput
              label={t('filters.to')}
              value={filters.dateTo}
              onChange={(dateTo) => onChange({ ...filters, dateTo })}
            />
          </FilterFold>
        </SimpleGrid>
        {isFiltered(filters) && (
          <Group>
            <Button variant="subtle" size="xs" onClick={() => onChange(NO_FILTERS)}>
              {t('filters.clear')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
