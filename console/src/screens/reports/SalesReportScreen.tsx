// Sales over a range (the API's order analytics, Orders_READ): revenue and orders by day (week,
// month for the longer ranges) and by shipping district, each as a chart and a table; sales by
// payment gateway (gross, refunds, net) and by product (top ten a page), as tables. Each is
// downloadable as CSV. The range lives in the address.
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Button, Group, NativeSelect, Pagination, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { operations, paths } from '@pasal/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDistrictName, useLanguage } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanels';
import { formatCount, formatDate, formatMoney, storeDateOf } from '../../lib/format';
import { useStoreTimeZone } from '../../lib/store-time-zone';
import { useClient } from '../../session/session';
import { useGatewayLabel } from '../orders/OrderBadges';
import { downloadCsv } from './csv';

type Range = NonNullable<NonNullable<operations['adminGetOrdersAnalytics']['parameters']['query']>['range']>;
type Data<Answer> = Answer extends { content: { 'application/json': { data: infer D } } } ? D : never;
type Series = Data<paths['/api/admin/orders/analytics']['get']['responses'][200]>;

const RANGES = ['7d', '30d', '90d', '12m'] as const satisfies readonly Range[];

export function SalesReportScreen() {
  const { t } = useTranslation('reports');
  const client = useClient();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { range?: unknown };
  const range: Range = (RANGES as readonly unknown[]).includes(search.range)
    ? (search.range as Range)
    : '30d';
  const query = { range };
  const series = useQuery({
    queryKey: ['reports', 'series', range],
    queryFn: () => client.get('/api/admin/orders/analytics', { params: { query } }),
    meta: { action: t('actions.load') },
  });
  const districts = useQuery({
    queryKey: ['reports', 'districts', range],
    queryFn: () => client.get('/api/admin/orders/analytics/districts', { params: { query } }),
    meta: { action: t('actions.load') },
  });
  const gateways = useQuery({
    queryKey: ['reports', 'gateways', range],
    queryFn: () => client.get('/api/admin/orders/analytics/gateways', { params: { query } }),
    meta: { action: t('actions.load') },
  });
  return (
    <Screen title={t('sales.title')}>
      <Group>
        <NativeSelect
          label={t('sales.range')}
          data={RANGES.map((r) => ({ value: r, label: t(`sales.ranges.${r}`) }))}
          value={range}
          onChange={(e) =>
            void navigate({ to: '.', search: { range: e.currentTarget.value }, replace: true } as never)
          }
        />
      </Group>
      <Block title={t('sales.byPeriod')} query={series}>
        {(data) => <BySeries data={data} range={range} />}
      </Block>
      <Block title={t('sales.byDistrict')} query={districts}>
        {(data) => <ByDistrict rows={data} range={range} />}
      </Block>
      <Block title={t('sales.byGateway')} query={gateways}>
        {(data) => <ByGateway rows={data} range={range} />}
      </Block>
      {/* A new range starts the products at their first page. */}
      <ByProduct key={range} range={range} />
    </Screen>
  );
}

function Block<T>({
  title,
  query,
  children,
}: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; refetch(): unknown };
  children(data: T): ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {query.isPending ? (
          <LoadingState />
        ) : query.isError || query.data === undefined ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          children(query.data)
        )}
      </Stack>
    </Paper>
  );
}

function BySeries({ data, range }: { data: Series; range: Range }) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  const timeZone = useStoreTimeZone();
  const rows = data.series.map((b) => ({ ...b, day: storeDateOf(b.bucketStart, timeZone) }));
  const header = [t('columns.period'), t('columns.orders'), t('columns.revenue')];
  return (
    <>
      <Text size="sm">
        {t('sales.totals', {
          revenue: formatMoney(data.totals.revenue, language),
          orders: formatCount(data.totals.orderCount),
          average: formatMoney(data.totals.averageOrderValue, language),
        })}
      </Text>
      <div
        role="img"
        aria-label={t('sales.chartSummary', { revenue: formatMoney(data.totals.revenue, language) })}
      >
        <BarChart
          h={220}
          data={rows.map((r) => ({ label: formatDate(r.day, language), revenue: r.revenue }))}
          dataKey="label"
          series={[{ name: 'revenue', label: t('columns.revenue'), color: 'indigo.6' }]}
          valueFormatter={(value) => formatMoney(value, language)}
          yAxisProps={{ width: 80, tickFormatter: (value: number) => formatCount(value) }}
        />
      </div>
      <Group justify="flex-end">
        <Button
          variant="light"
          size="xs"
          onClick={() =>
            downloadCsv(
              `sales-by-period-${range}.csv`,
              ['Start', 'Orders', 'Revenue (NPR)'],
              rows.map((r) => [r.day, r.orderCount, r.revenue]),
            )
          }
        >
          {t('actions.csvPeriod')}
        </Button>
      </Group>
      <FigureTable
        header={header}
        rows={rows.map((r) => [formatDate(r.day, language), r.orderCount, r.revenue])}
        caption={t('sales.byPeriod')}
      />
    </>
  );
}

function ByDistrict({
  rows,
  range,
}: {
  rows: Data<paths['/api/admin/orders/analytics/districts']['get']['responses'][200]>;
  range: Range;
}) {
  const { t } = useTranslation('reports');
  const language = useLanguage();
  const districtName = useDistrictName();
  if (rows.length === 0) return <EmptyState message={t('sales.noDistricts')} />;
  return (
    <>
      <div role="img" aria-label={t('sales.districtChartSummary', { count: rows.length })}>
        <BarChart
          h={Math.max(160, rows.length * 28)}
          data={rows.map((r) => ({ district: districtName(r.districtName), revenue: r.revenue }))}
          dataKey="district"
          orientation="vertical"
          series={[{ name: 'revenue', label: t('columns.revenue'), color: 'teal.7' }]}
          valueFormatter={(value) => formatMoney(value, language)}
          yAxisProps={{ width: 110 }}
        />
      </div>
      <Group justify="flex-end">
        <Button
          variant="light"
          size="xs"
          onClick={() =>
            downloadCsv(
              `sales-by-district-${range}.csv`,
              ['District', 'Orders', 'Revenue (NPR)'],
              rows.map((r) => [r.districtName, r.orderCount, r.revenue]),
            )
          }
        >
          {t('actions.csvDistrict')}
        </Button>
      </Group>
      <FigureTable
        header={[t('columns.district'), t('columns.orders'), t('columns.revenue')]}
        rows={rows.map((r) => [districtName(r.districtName), r.orderCount, r.revenue])}
        caption={t('sales.byDistrict')}
      />
    </>
  );
}

function ByGateway({
  rows,
  range,
}: {
  rows: Data<paths['/api/admin/orders/analytics/gateways']['get']['responses'][200]>;
  range: Range;
}) {
  const { t } = useTranslation('reports');
  const gatewayName = useGatewayLabel();
  if (rows.length === 0) return <EmptyState message={t('sales.noOrders')} />;
  return (
    <>
      <Group justify="flex-end">
        <Button
          variant="light"
          size="xs"
          onClick={() =>
            downloadCsv(
              `sales-by-gateway-${range}.csv`,
              ['Gateway', 'Orders', 'Paid orders', 'Gross sales (NPR)', 'Refunds (NPR)', 'Net sales (NPR)'],
              rows.map((r) => [
                r.gateway,
                r.orderCount,
                r.paidOrderCount,
                r.grossSales,
                r.refunds,
                r.netSales,
              ]),
            )
          }
        >
          {t('actions.csvGateway')}
        </Button>
      </Group>
      <FigureTable
        header={[
          t('columns.gateway'),
          t('columns.orders'),
          t('columns.paidOrders'),
          t('columns.grossSales'),
          t('columns.refunds'),
          t('columns.netSales'),
        ]}
        kinds={['count', 'count', 'money', 'money', 'money']}
        rows={rows.map((r) => [
          gatewayName(r.gateway),
          r.orderCount,
          r.paidOrderCount,
          r.grossSales,
          r.refunds,
          r.netSales,
        ])}
        caption={t('sales.byGateway')}
      />
    </>
  );
}

/** How many products a page of the products table shows: the top ten first. */
const PRODUCTS_PER_PAGE = 10;

/** Units and sales per product, most sales first, ten at a time; the CSV holds them all. */
function ByProduct({ range }: { range: Range }) {
  const { t } = useTranslation('reports');
  const { t: common } = useTranslation();
  const client = useClient();
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const products = useQuery({
    queryKey: ['reports', 'products', range, page],
    queryFn: () =>
      client.list('/api/admin/orders/analytics/products', {
        params: { query: { range, page, size: PRODUCTS_PER_PAGE } },
      }),
    placeholderData: keepPreviousData,
    meta: { action: t('actions.load') },
  });
  const header = [t('columns.product'), t('columns.units'), t('columns.orders'), t('columns.sales')];
  const download = async () => {
    setExporting(true);
    try {
      const all = await client.list('/api/admin/orders/analytics/products', {
        params: { query: { range, pagination: 'false' } },
      });
      downloadCsv(
        `sales-by-product-${range}.csv`,
        ['Product ID', 'Product', 'Units', 'Orders', 'Sales (NPR)'],
        all.data.map((r) => [r.productId, r.productTitle, r.quantity, r.orderCount, r.sales]),
      );
    } finally {
      setExporting(false);
    }
  };
  return (
    <Block title={t('sales.byProduct')} query={products}>
      {({ data, meta }) => {
        if (data.length === 0) return <EmptyState message={t('sales.noProducts')} />;
        const pages = Math.max(1, Math.ceil((meta?.count ?? data.length) / PRODUCTS_PER_PAGE));
        return (
          <>
            <Text size="sm">{t('sales.productsNote')}</Text>
            <Group justify="flex-end">
              <Button variant="light" size="xs" onClick={() => void download()} loading={exporting}>
                {t('actions.csvProduct')}
              </Button>
            </Group>
            <FigureTable
              header={header}
              kinds={['count', 'count', 'money']}
              rows={data.map((r) => [r.productTitle, r.quantity, r.orderCount, r.sales])}
              caption={t('sales.byProduct')}
            />
            {pages > 1 && (
              <nav aria-label={t('sales.productPages')}>
                <Pagination
                  total={pages}
                  value={Math.min(page, pages)}
                  onChange={setPage}
                  siblings={0}
                  getItemProps={(item) => ({ 'aria-label': common('list.page', { page: item }) })}
                  getControlProps={(control) => ({ 'aria-label': common(`list.${control}`) })}
                />
              </nav>
            )}
          </>
        );
      }}
    </Block>
  );
}

/** What a figure column holds: a count, or an amount of money. */
type FigureKind = 'count' | 'money';

/** A label and figures per row; `kinds` says how each figure column reads. */
function FigureTable({
  header,
  rows,
  caption,
  kinds = ['count', 'money'],
}: {
  header: string[];
  rows: [string, ...number[]][];
  caption: string;
  kinds?: FigureKind[];
}) {
  const language = useLanguage();
  const format = (kind: FigureKind | undefined, value: number) =>
    kind === 'money' ? formatMoney(value, language) : formatCount(value);
  return (
    // Three columns fit a phone (390 px); a wider table scrolls inside its box, not the page.
    <Table.ScrollContainer minWidth={kinds.length > 2 ? 520 : 300}>
      <Table striped aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {header.map((h, i) => (
              <Table.Th key={h} ta={i === 0 ? undefined : 'right'}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([label, ...figures]) => (
            <Table.Tr key={label}>
              <Table.Td>{label}</Table.Td>
              {figures.map((value, i) => (
                <Table.Td key={header[i + 1]} ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {format(kinds[i], value)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
