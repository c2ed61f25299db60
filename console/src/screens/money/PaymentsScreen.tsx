// Payments across orders (GET /api/admin/payments): gateway, status, our reference and the
// provider's, the amount and when; filters and the page kept in the address. A payment still
// pending after the reconciliation age carries an "Overdue" badge: the provider should have
// answered by now, so someone should look at the order.
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
import { StateBadge } from '../../components/StateBadge';
import { StoreDateInput } from '../../components/StoreDateInput';
import { useAddressFilters } from '../../lib/address-filters';
import { useSearchBox } from '../../lib/search-box';
import { useClient } from '../../session/session';
import { useGatewayLabel } from '../orders/OrderBadges';
import {
  fetchPayments,
  PAYMENT_GATEWAYS,
  PAYMENT_STATUSES,
  type Payment,
  type PaymentStatus,
} from './money-api';
import {
  foldedPaymentFilters,
  NO_PAYMENT_FILTERS,
  type PaymentFilters,
  paymentFiltersFrom,
  paymentQueryOf,
  paymentsFiltered,
  SEARCH_MAX,
  searchOfPayments,
} from './money-filters';

const STATUS_COLOURS: Record<PaymentStatus, string> = {
  pending: 'yellow',
  completed: 'green',
  failed: 'red',
  cancelled: 'gray',
};

export function PaymentsScreen() {
  const { t } = useTranslation('money');
  const client = useClient();
  const gatewayName = useGatewayLabel();
  const { filters, apply } = useAddressFilters(paymentFiltersFrom, searchOfPayments);
  const list = usePagedList<Payment>({
    queryKey: ['orders', 'payments', filters],
    fetchPage: ({ page, size }) => fetchPayments(client, paymentQueryOf(filters, page, size)),
    action: t('actions.loadPayments'),
  });

  const columns: Column<Payment>[] = [
    {
      key: 'order',
      header: t('payments.columns.order'),
      cell: (p) => (
        <Anchor component={Link} to={`/orders/${p.orderId}`} fw={600} style={{ whiteSpace: 'nowrap' }}>
          {p.orderNumber}
        </Anchor>
      ),
    },
    {
      key: 'made',
      header: t('payments.columns.made'),
      cell: (p) => <StoreDateTime value={p.createdAt} size="sm" stacked />,
    },
    {
      key: 'gateway',
      header: t('payments.columns.gateway'),
      cell: (p) => (
        <Stack gap={0}>
          <Text size="sm">{gatewayName(p.gateway)}</Text>
          <Text size="xs" c="dimmed">
            {t(`provider.${p.provider}`, { defaultValue: p.provider })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'status',
      header: t('payments.columns.status'),
      cell: (p) => (
        <Stack gap={4} align="flex-start">
          <StateBadge color={STATUS_COLOURS[p.status]} variant="light">
            {t(`paymentStatus.${p.status}`)}
          </StateBadge>
          {p.stale && (
            <StateBadge color="red" variant="light">
              {t('payments.overdue')}
            </StateBadge>
          )}
          {p.completedAt && (
            <Text size="xs" c="dimmed">
              {t('payments.completedAt')} <StoreDateTime value={p.completedAt} span />
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'reference',
      header: t('payments.columns.reference'),
      cell: (p) => (
        <Stack gap={0}>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {p.reference}
          </Text>
          {p.providerReference && (
            <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {p.providerReference}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'amount',
      header: t('payments.columns.amount'),
      align: 'right',
      cell: (p) => <Money amount={p.amount} fw={600} style={{ whiteSpace: 'nowrap' }} />,
    },
  ];

  return (
    <Screen title={t('payments.title')}>
      <Text size="sm" c="dimmed">
        {t('payments.intro')}
      </Text>
      <PaymentFilterForm filters={filters} onChange={apply} />
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(p) => p.id}
        caption={t('payments.caption')}
        emptyMessage={paymentsFiltered(filters) ? t('payments.noMatch') : t('payments.none')}
      />
    </Screen>
  );
}

function PaymentFilterForm({
  filters,
  onChange,
}: {
  filters: PaymentFilters;
  onChange(next: PaymentFilters, replace?: boolean): void;
}) {
  const { t } = useTranslation('money');
  const gatewayName = useGatewayLabel();
  const box = useSearchBox(filters.search, (search) => onChange({ ...filters, search }, true));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    box.commit();
  };
  const any = { value: '', label: t('filters.any') };
  const pick =
    <K extends keyof PaymentFilters>(key: K) =>
    (event: { currentTarget: { value: string } }) =>
      onChange({ ...filters, [key]: event.currentTarget.value || null });
  return (
    <Paper withBorder p="md" component="form" role="search" aria-label={t('filters.title')} onSubmit={submit}>
      <Stack gap="sm">
        <TextInput
          type="search"
          label={t('filters.search')}
          placeholder={t('payments.searchPlaceholder')}
          value={box.text}
          maxLength={SEARCH_MAX}
          onChange={(event) => box.setText(event.currentTarget.value)}
        />
        <FilterFold active={foldedPaymentFilters(filters)}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} spacing="sm">
            <NativeSelect
              label={t('payments.columns.gateway')}
              data={[any, ...PAYMENT_GATEWAYS.map((g) => ({ value: g, label: gatewayName(g) }))]}
              value={filters.gateway ?? ''}
              onChange={pick('gateway')}
            />
            <NativeSelect
              label={t('payments.columns.status')}
              data={[any, ...PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`paymentStatus.${s}`) }))]}
              value={filters.status ?? ''}
              onChange={pick('status')}
            />
            <NativeSelect
              label={t('payments.overdueFilter')}
              data={[
                any,
                { value: 'overdue', label: t('payments.onlyOverdue') },
                { value: 'current', label: t('payments.notOverdue') },
              ]}
              value={filters.overdue ?? ''}
              onChange={pick('overdue')}
            />
            <StoreDateInput
              label={t('filters.from')}
              value={filters.fromDate}
              onChange={(fromDate) => onChange({ ...filters, fromDate })}
            />
            <StoreDateInput
              label={t('filters.to')}
              value={filters.toDate}
              onChange={(toDate) => onChange({ ...filters, toDate })}
            />
          </SimpleGrid>
        </FilterFold>
        {paymentsFiltered(filters) && (
          <Group>
            <Button variant="subtle" size="xs" onClick={() => onChange(NO_PAYMENT_FILTERS)}>
              {t('filters.clear')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
