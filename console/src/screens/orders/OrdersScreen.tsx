// The orders list: every filter and the search of GET /api/admin/orders, kept in the address,
// one request per page (the list item carries the customer, so no row asks for more). Kept
// light on purpose: it is the screen staff open most, on whatever laptop the shop has.
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
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterFold } from '../../components/FilterFold';
import { Money, StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { USER_TEXT } from '../../components/UserText';
import { useAddressFilters } from '../../lib/address-filters';
import { formatCount } from '../../lib/format';
import { useSearchBox } from '../../lib/search-box';
import { useClient } from '../../session/session';
import { FulfillmentBadge, OrderStatusBadge, PaymentMethodLabel, PaymentStatusBadge } from './OrderBadges';
import {
  filtersFromSearch,
  foldedActive,
  isFiltered,
  listQueryOf,
  NO_FILTERS,
  type OrderFilters,
  SEARCH_MAX,
  SORTS,
  searchFromFilters,
} from './order-filters';
import {
  FULFILLMENT_STATUSES,
  fetchOrders,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderListItem,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from './orders-api';

export function OrdersScreen() {
  const { t } = useTranslation('orders');
  const client = useClient();
  const { filters, apply: applyFilters } = useAddressFilters(filtersFromSearch, searchFromFilters);

  const list = usePagedList<OrderListItem>({
    queryKey: ['orders', 'list', filters],
    fetchPage: ({ page, size }) => fetchOrders(client, listQueryOf(filters, page, size)),
    action: t('actions.loadList'),
  });

  const columns: Column<OrderListItem>[] = [
    {
      key: 'order',
      header: t('list.columns.order'),
      cell: (order) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/orders/${order.id}`} fw={600} style={{ whiteSpace: 'nowrap' }}>
            {order.orderNumber}
          </Anchor>
          <Text size="xs" c="dimmed">
            {t(`orderType.${order.orderType}`)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'placed',
      header: t('list.columns.placed'),
      cell: (order) => <StoreDateTime value={order.createdAt} size="sm" stacked />,
    },
    {
      key: 'customer',
      header: t('list.columns.customer'),
      cell: (order) => (
        <Stack gap={0}>
          <Text size="sm" className={USER_TEXT}>
            {order.customer.name || t('detail.customer.noName')}
          </Text>
          <Text size="xs" c="dimmed">
            {order.customer.phone ?? order.customer.email}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'items',
      header: t('list.columns.items'),
      align: 'right',
      cell: (order) => formatCount(order.itemCount),
    },
    {
      key: 'total',
      header: t('list.columns.total'),
      align: 'right',
      cell: (order) => <Money amount={order.finalPayable} fw={600} style={{ whiteSpace: 'nowrap' }} />,
    },
    {
      key: 'status',
      header: t('list.columns.status'),
      cell: (order) => <OrderStatusBadge status={order.orderStatus} />,
    },
    {
      key: 'payment',
      header: t('list.columns.payment'),
      cell: (order) => (
        <Stack gap={2} align="flex-start">
          <PaymentStatusBadge status={order.paymentStatus} />
          <Text size="xs" c="dimmed">
            <PaymentMethodLabel method={order.paymentMethod} />
          </Text>
        </Stack>
      ),
    },
    {
      key: 'fulfilment',
      header: t('list.columns.fulfilment'),
      cell: (order) => <FulfillmentBadge status={order.fulfillmentStatus} />,
    },
  ];

  return (
    <Screen title={t('list.title')}>
      <Filters filters={filters} onChange={applyFilters} />
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(order) => order.id}
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
  filters: OrderFilters;
  onChange(next: OrderFilters, replace?: boolean): void;
}) {
  const { t } = useTranslation('orders');
  const box = useSearchBox(filters.search, (search) => onChange({ ...filters, search }, true));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    box.commit();
  };

  const any = t('filters.any');
  const choices = <T extends string>(values: readonly T[], labelKey: string) => [
    { value: '', label: any },
    ...values.map((value) => ({ value: value as string, label: t(`${labelKey}.${value as string}`) })),
  ];
  const pick =
    <K extends keyof OrderFilters>(key: K) =>
    (event: { currentTarget: { value: string } }) =>
      onChange({ ...filters, [key]: event.currentTarget.value || null });

  return (
    <Paper withBorder p="md" component="form" role="search" aria-label={t('filters.title')} onSubmit={submit}>
      <Stack gap="sm">
        <TextInput
          type="search"
          label={t('filters.search')}
          placeholder={t('filters.searchPlaceholder')}
          value={box.text}
          maxLength={SEARCH_MAX}
          onChange={(event) => box.setText(event.currentTarget.value)}
        />
        <FilterFold active={foldedActive(filters)}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} spacing="sm">
            <NativeSelect
              label={t('filters.status')}
              data={choices(ORDER_STATUSES, 'orderStatus')}
              value={filters.status ?? ''}
              onChange={pick('status')}
            />
            <NativeSelect
              label={t('filters.paymentStatus')}
              data={choices(PAYMENT_STATUSES, 'paymentStatus')}
              value={filters.paymentStatus ?? ''}
              onChange={pick('paymentStatus')}
            />
            <NativeSelect
              label={t('filters.paymentMethod')}
              data={choices(PAYMENT_METHODS, 'paymentMethod')}
              value={filters.paymentMethod ?? ''}
              onChange={pick('paymentMethod')}
            />
            <NativeSelect
              label={t('filters.orderType')}
              data={choices(ORDER_TYPES, 'orderType')}
              value={filters.orderType ?? ''}
              onChange={pick('orderType')}
            />
            <NativeSelect
              label={t('filters.fulfilment')}
              data={choices(FULFILLMENT_STATUSES, 'fulfillmentStatus')}
              value={filters.fulfillmentStatus ?? ''}
              onChange={pick('fulfillmentStatus')}
            />
            <NativeSelect
              label={t('filters.sort')}
              data={SORTS.map((sort) => ({ value: sort, label: t(`filters.sorts.${sort}`) }))}
              value={filters.sort}
              onChange={(event) =>
                onChange({
                  ...filters,
                  sort: (event.currentTarget.value as OrderFilters['sort']) || 'newest',
                })
              }
            />
          </SimpleGrid>
        </FilterFold>
        {isFiltered(filters) && (
          <Group>
            <Button
              variant="subtle"
              size="xs"
              onClick={() => onChange({ ...NO_FILTERS, sort: filters.sort })}
            >
              {t('filters.clear')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
