import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Figure } from '../../components/Figure';
import { StoreDate, useLanguage } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanels';
import { formatCount, formatMoney, formatShortDate } from '../../lib/format';
import { rememberStoreTimeZone } from '../../lib/store-time-zone';
import { useSession } from '../../session/session';
import { type Dashboard, fetchDashboard } from './dashboard-api';

export function DashboardScreen() {
  const { t } = useTranslation('dashboard');
  const { client } = useSession();
  const queryClient = useQueryClient();
  const dashboard = useQuery({
    queryKey: ['dashboard'],
    queryFn: () => fetchDashboard(client),
    // A shop's day moves on while the screen stays open.
    refetchInterval: 60_000,
    meta: { action: t('action') },
  });
  const timeZone = dashboard.data?.timeZone;
  useEffect(() => {
    if (timeZone) rememberStoreTimeZone(queryClient, timeZone);
  }, [queryClient, timeZone]);

  return (
    <Screen title={t('title')}>
      {dashboard.isPending ? (
        <LoadingState />
      ) : dashboard.isError ? (
        <ErrorState error={dashboard.error} onRetry={() => dashboard.refetch()} title={t('loadFailed')} />
      ) : (
        <DashboardSections data={dashboard.data} />
      )}
    </Screen>
  );
}

/** The order figures: both periods come together, with the orders read permission. */
interface OrderFigures {
  timeZone: string;
  today: NonNullable<Dashboard['today']>;
  last30Days: NonNullable<Dashboard['last30Days']>;
}
type OrderStatus = keyof OrderFigures['today']['ordersByStatus'];

function DashboardSections({ data }: { data: Dashboard }) {
  const { t } = useTranslation('dashboard');
  const orders: OrderFigures | null =
    data.today && data.last30Days
      ? { timeZone: data.timeZone, today: data.today, last30Days: data.last30Days }
      : null;
  if (!orders && !data.lowStock && !data.support) return <EmptyState message={t('nothingForRole')} />;
  return (
    <Stack gap="lg">
      {orders && (
        <>
          <Text c="dimmed" size="sm">
            {t('today')}: <StoreDate date={orders.today.date} /> ({orders.timeZone})
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <Figure label={t('figures.ordersToday')} value={formatCount(orders.today.orders)} />
            <RevenueFigure label={t('figures.revenueToday')} period={orders.today} />
            <Figure label={t('figures.orders30')} value={formatCount(orders.last30Days.orders)} />
            <RevenueFigure label={t('figures.revenue30')} period={orders.last30Days} />
          </SimpleGrid>
          <RevenueChart data={orders} />
          <OrdersByStatus data={orders} />
        </>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {data.lowStock && <LowStock items={data.lowStock} />}
        {data.support && <Support support={data.support} />}
      </SimpleGrid>
    </Stack>
  );
}

/**
 * Revenue as the shop keeps it: net of the refunds owed or given back on the same orders, with
 * the sales and the refunds beside it, so money owed back never reads as money earned.
 */
function RevenueFigure({
  label,
  period,
}: {
  label: string;
  period: Pick<OrderFigures['today'], 'revenue' | 'refunds' | 'refundsOwed' | 'netRevenue'>;
}) {
  const { t } = useTranslation('dashboard');
  const language = useLanguage();
  const money = (amount: number) => formatMoney(amount, language);
  const split = t('figures.split', { sales: money(period.revenue), refunds: money(period.refunds) });
  const owed = period.refundsOwed > 0 ? ` ${t('figures.owed', { owed: money(period.refundsOwed) })}` : '';
  return <Figure label={label} value={money(period.netRevenue)} hint={`${split}${owed}`} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function RevenueChart({ data }: { data: OrderFigures }) {
  const { t } = useTranslation('dashboard');
  const language = useLanguage();
  const days = data.last30Days.revenueByDay.map((day) => ({
    ...day,
    day: formatShortDate(day.date, language),
  }));
  const title = t('chart.title');
  return (
    <Section title={title}>
      <Text size="sm" c="dimmed" mb="sm">
        <StoreDate date={data.last30Days.from} /> – <StoreDate date={data.last30Days.to} />
      </Text>
      {/* The chart is a picture of the figures: its words for screen readers are the totals. */}
      <div
        role="img"
        aria-label={t('chart.summary', {
          revenue: formatMoney(data.last30Days.netRevenue, language),
          orders: formatCount(data.last30Days.orders),
        })}
      >
        <AreaChart
          h={260}
          data={days}
          dataKey="day"
          series={[{ name: 'netRevenue', label: t('chart.revenue'), color: 'indigo.6' }]}
          curveType="monotone"
          valueFormatter={(value) => formatMoney(value, language)}
          // The axis shows grouped figures only: "NPR" on every tick would crowd it.
          yAxisProps={{ width: 80, tickFormatter: (value: number) => formatCount(value) }}
          withDots={false}
        />
      </div>
    </Section>
  );
}

function OrdersByStatus({ data }: { data: OrderFigures }) {
  const { t } = useTranslation(['dashboard', 'common']);
  // The API lists every status, zeros included; the table shows those with orders.
  const statuses = (Object.keys(data.last30Days.ordersByStatus) as OrderStatus[]).filter(
    (status) => data.last30Days.ordersByStatus[status] > 0 || data.today.ordersByStatus[status] > 0,
  );
  return (
    <Section title={t('byStatus.title')}>
      {statuses.length === 0 ? (
        <EmptyState message={t('byStatus.none')} />
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('byStatus.status')}</Table.Th>
              <Table.Th ta="right">{t('byStatus.today')}</Table.Th>
              <Table.Th ta="right">{t('byStatus.last30')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {statuses.map((status) => (
              <Table.Tr key={status}>
                <Table.Td>
                  {t(`common:orderStatus.${status}`, { defaultValue: status.replaceAll('_', ' ') })}
                </Table.Td>
                <Table.Td ta="right">{formatCount(data.today.ordersByStatus[status])}</Table.Td>
                <Table.Td ta="right">{formatCount(data.last30Days.ordersByStatus[status])}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

function LowStock({ items }: { items: NonNullable<Dashboard['lowStock']> }) {
  const { t } = useTranslation('dashboard');
  const { can } = useSession();
  return (
    <Section title={t('lowStock.title')}>
      {items.length === 0 ? (
        <EmptyState message={t('lowStock.none')} />
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('lowStock.product')}</Table.Th>
              <Table.Th ta="right">{t('lowStock.stock')}</Table.Th>
              <Table.Th ta="right">{t('lowStock.threshold')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.productId}>
                <Table.Td>
                  {can('Products_READ') ? (
                    <Anchor component={Link} to={`/catalog/products/${item.productId}`}>
                      {item.name}
                    </Anchor>
                  ) : (
                    item.name
                  )}
                </Table.Td>
                <Table.Td ta="right" c={item.stock <= 0 ? 'red' : undefined} fw={700}>
                  {formatCount(item.stock)}
                </Table.Td>
                <Table.Td ta="right">{formatCount(item.threshold)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}

function Support({ support }: { support: NonNullable<Dashboard['support']> }) {
  const { t } = useTranslation('dashboard');
  const { can } = useSession();
  const inbox = can('SupportInquiries_READ') || can('SupportRequests_READ');
  return (
    <Section title={t('support.title')}>
      <Group grow align="stretch">
        {support.openInquiries !== null && (
          <Figure label={t('support.openInquiries')} value={formatCount(support.openInquiries)} />
        )}
        {support.ticketsWaitingForStaff !== null && (
          <Figure label={t('support.ticketsWaiting')} value={formatCount(support.ticketsWaitingForStaff)} />
        )}
      </Group>
      {inbox && (
        <Anchor component={Link} to="/support" size="sm" mt="sm" display="inline-block">
          {t('support.openInbox')}
        </Anchor>
      )}
    </Section>
  );
}
