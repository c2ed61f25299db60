// The counter's sales: the day's (or a chosen range's) in-store sales with their receipts and
// pickups, the range as a CSV file (at most 90 days, the API's limit), and the takings by
// gateway and by district. The range lives in the address, like the orders list's filters.

import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Figure } from '../../components/Figure';
import { FilterFold } from '../../components/FilterFold';
import { Money, StoreDateTime, useDistrictName, useLanguage } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { StoreDateInput } from '../../components/StoreDateInput';
import { describeError } from '../../lib/api-errors';
import { formatCount, formatMoney, storeDateOf } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { Can, useClient } from '../../session/session';
import { FulfillmentBadge, PaymentStatusBadge } from '../orders/OrderBadges';
import type { FulfillmentStatus, PaymentStatus } from '../orders/orders-api';
import { fetchAnalytics, fetchSales, fetchSalesCsv, isGateway, type SaleListItem } from './counter-api';
import { printReceipt, saveFile } from './receipt';
import { PickupConfirm } from './SaleDone';
import { daysIn, MAX_EXPORT_DAYS, rangeFromSearch, type SalesRange, searchFromRange } from './sales-filters';

export function CounterSalesScreen() {
  const { t } = useTranslation('counter');
  const client = useClient();
  const navigate = useNavigate();
  const timeZone = useStoreTimeZone();
  const today = storeDateOf(new Date(), timeZone);
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const range = useMemo(() => rangeFromSearch(search, today), [search, today]);
  const setRange = (next: SalesRange) =>
    void navigate({ to: '.', search: searchFromRange(next, today) } as never);

  const list = usePagedList<SaleListItem>({
    queryKey: ['counter', 'sales', range.from, range.to],
    fetchPage: ({ page, size }) =>
      fetchSales(client, { page, limit: size, startDate: range.from, endDate: range.to }),
    action: t('actions.loadSales'),
  });

  const columns: Column<SaleListItem>[] = [
    {
      key: 'order',
      header: t('sales.columns.order'),
      cell: (sale) => (
        <Can permission="Orders_READ" fallback={<Text fw={600}>{sale.orderNumber}</Text>}>
          <Anchor component={Link} to={`/orders/${sale.id}`} fw={600} style={{ whiteSpace: 'nowrap' }}>
            {sale.orderNumber}
          </Anchor>
        </Can>
      ),
    },
    {
      key: 'at',
      header: t('sales.columns.at'),
      cell: (sale) => <StoreDateTime value={sale.createdAt} size="sm" stacked />,
    },
    {
      key: 'customer',
      header: t('sales.columns.customer'),
      cell: (sale) => (
        <Stack gap={0}>
          <Text size="sm">{sale.customer.name}</Text>
          <Text size="xs" c="dimmed">
            {sale.customer.email}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'total',
      header: t('sales.columns.total'),
      align: 'right',
      cell: (sale) => <Money amount={sale.finalPayable} fw={600} style={{ whiteSpace: 'nowrap' }} />,
    },
    {
      key: 'payment',
      header: t('sales.columns.payment'),
      cell: (sale) => (
        <Stack gap={2} align="flex-start">
          <PaymentStatusBadge status={sale.paymentStatus as PaymentStatus} />
          <Text size="xs" c="dimmed">
            {isGateway(sale.paymentMethod) ? t(`gateway.${sale.paymentMethod}`) : t('sales.unpaid')}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'fulfilment',
      header: t('sales.columns.fulfilment'),
      cell: (sale) => <FulfillmentBadge status={sale.fulfillmentStatus as FulfillmentStatus | null} />,
    },
    {
      key: 'actions',
      header: t('sales.columns.actions'),
      cell: (sale) => <SaleActions sale={sale} />,
    },
  ];

  return (
    <Screen title={t('sales.title')}>
      <RangeForm range={range} today={today} onChange={setRange} />
      <Can permission="Pos_READ">
        <Analytics range={range} onDistrict={(district) => setRange({ ...range, district })} />
      </Can>
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(sale) => sale.id}
        caption={t('sales.caption', { from: range.from, to: range.to })}
        emptyMessage={t('sales.none')}
      />
    </Screen>
  );
}

function SaleActions({ sale }: { sale: SaleListItem }) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const print = useMutation({
    mutationFn: () => printReceipt(client, sale.id, t('done.receiptFrame')),
    meta: { action: t('actions.receipt') },
  });
  const inStore =
    sale.orderStatus === 'paid' &&
    (sale.fulfillmentStatus === 'received' || sale.fulfillmentStatus === 'ready');
  return (
    <Group gap="xs">
      <Button
        size="xs"
        variant="default"
        onClick={() => print.mutate()}
        loading={print.isPending}
        aria-label={t('sales.receiptOf', { orderNumber: sale.orderNumber })}
      >
        {t('sales.receipt')}
      </Button>
      {inStore && (
        <Can permission="Pos_UPDATE">
          <PickupConfirm orderId={sale.id} compact />
        </Can>
      )}
    </Group>
  );
}

function RangeForm({
  range,
  today,
  onChange,
}: {
  range: SalesRange;
  today: string;
  onChange(range: SalesRange): void;
}) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const days = daysIn({ from, to });
  const tooLong = days > MAX_EXPORT_DAYS;
  const backwards = to < from;
  const exportCsv = useMutation({
    mutationFn: () => fetchSalesCsv(client, range.from, range.to),
    meta: { action: t('actions.export') },
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
  });
  const exportTooLong = daysIn(range) > MAX_EXPORT_DAYS;
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      role="search"
      aria-label={t('sales.range')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!backwards && from && to) onChange({ ...range, from, to });
      }}
    >
      <Stack gap="sm">
        <Group align="flex-end" gap="sm">
          {/* The period folds on a phone like a list's filters: any but today counts as one. */}
          <FilterFold active={range.from !== today || range.to !== today ? 1 : 0}>
            <StoreDateInput label={t('sales.from')} value={from} maxDate={today} onChange={setFrom} />
            <StoreDateInput
              label={t('sales.to')}
              value={to}
              onChange={setTo}
              error={backwards ? t('sales.backwards') : undefined}
            />
            <Button type="submit" variant="default" disabled={backwards}>
              {t('sales.show')}
            </Button>
            <Button
              variant="subtle"
              onClick={() => {
                setFrom(today);
                setTo(today);
                onChange({ ...range, from: today, to: today });
              }}
            >
              {t('sales.today')}
            </Button>
          </FilterFold>
          <Button onClick={() => exportCsv.mutate()} loading={exportCsv.isPending} disabled={exportTooLong}>
            {t('sales.export')}
          </Button>
        </Group>
        <Text size="sm" c={tooLong || exportTooLong ? 'red.8' : 'dimmed'}>
          {t('sales.exportHint', { max: MAX_EXPORT_DAYS, days: formatCount(daysIn(range)) })}
        </Text>
        {exportCsv.isError && (
          <FormError message={describeError(exportCsv.error, t)} title={t('sales.exportFailed')} />
        )}
      </Stack>
    </Paper>
  );
}

function Analytics({ range, onDistrict }: { range: SalesRange; onDistrict(district: string): void }) {
  const { t } = useTranslation('counter');
  const districtName = useDistrictName();
  const client = useClient();
  const language = useLanguage();
  const [all, setAll] = useState(false);
  const analytics = useQuery({
    queryKey: ['counter', 'analytics', range],
    queryFn: () =>
      fetchAnalytics(client, {
        startDate: range.from,
        endDate: range.to,
        ...(range.district ? { district: range.district } : {}),
      }),
    meta: { action: t('actions.analytics') },
  });
  if (analytics.isPending) return <LoadingState />;
  if (analytics.isError) return <ErrorState error={analytics.error} onRetry={() => analytics.refetch()} />;
  const data = analytics.data;
  const districts = all ? data.districtBreakdown : data.districtBreakdown.filter((d) => d.orderCount > 0);
  return (
    <Stack gap="md" component="section" aria-labelledby="counter-analytics">
      <Group justify="space-between">
        <Title order={2} size="h4" id="counter-analytics">
          {t('analytics.title')}
        </Title>
        {range.district && (
          <Alert color="blue" variant="light" p="xs">
            <Group gap="xs">
              <Text size="sm">{t('analytics.filtered', { district: districtName(range.district) })}</Text>
              <Button size="compact-xs" variant="white" onClick={() => onDistrict('')}>
                {t('analytics.allDistricts')}
              </Button>
            </Group>
          </Alert>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Figure
          label={t('analytics.revenue')}
          value={formatMoney(data.totalRevenue, language)}
          hint={t('analytics.revenueHint')}
        />
        <Figure label={t('analytics.orders')} value={formatCount(data.orderCount)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Table>
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
            {t('analytics.byGateway')}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('analytics.gateway')}</Table.Th>
              <Table.Th ta="right">{t('analytics.count')}</Table.Th>
              <Table.Th ta="right">{t('analytics.revenue')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.gatewayBreakdown.map((row) => (
              <Table.Tr key={row.gateway}>
                <Table.Td>{isGateway(row.gateway) ? t(`gateway.${row.gateway}`) : row.gateway}</Table.Td>
                <Table.Td ta="right">{formatCount(row.count)}</Table.Td>
                <Table.Td ta="right">
                  <Money amount={row.revenue} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Stack gap="xs">
          <Table>
            <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
              {t('analytics.byDistrict')}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('analytics.district')}</Table.Th>
                <Table.Th ta="right">{t('analytics.count')}</Table.Th>
                <Table.Th ta="right">{t('analytics.revenue')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {districts.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text size="sm" c="dimmed">
                      {t('analytics.noDistrict')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {districts.map((row) => (
                <Table.Tr key={row.districtName}>
                  <Table.Td>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() => onDistrict(row.districtName)}
                    >
                      {districtName(row.districtName)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{formatCount(row.orderCount)}</Table.Td>
                  <Table.Td ta="right">
                    <Money amount={row.revenue} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group>
            <Button size="xs" variant="subtle" onClick={() => setAll((shown) => !shown)}>
              {all ? t('analytics.servedOnly') : t('analytics.everyDistrict')}
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
