// Banner performance: impressions, clicks and click-through rate per day, per campaign or per
// banner, from the daily figures (rolled-up days, today live), as a chart and a table, and as
// CSV. The range, the grouping and the campaign filter live in the address. Its own chunk, with
// the chart library, loaded only here.
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import {
  Button,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, LoadingState } from '../../components/StatePanels';
import { formatCount, formatDate, formatShortDate, type Language, localDigits } from '../../lib/format';
import { useSession } from '../../session/session';
import { useUrlFilters } from '../catalog/catalog-ui';
import { downloadCsv } from '../reports/csv';
import type { DailyFigures } from './banners-api';
import { type FigureRow, figureRows, rangeOf } from './figures';

const RANGES = ['7', '30', '90'] as const;

/** "2.5%" (one decimal), "—" without impressions. */
function rate(row: { impressions: number; clicks: number }, language: Language): string {
  if (row.impressions === 0) return '—';
  return localDigits(`${((row.clicks / row.impressions) * 100).toFixed(1)}%`, language);
}

export function PerformanceScreen() {
  const { t } = useTranslation('banners');
  const { client } = useSession();
  const language = useLanguage();
  const { values, set } = useUrlFilters(['days', 'by', 'campaign'] as const);
  const days = (RANGES as readonly string[]).includes(values.days ?? '') ? Number(values.days) : 30;
  const by = values.by === 'banner' ? 'banner' : 'campaign';
  const range = rangeOf(new Date(), days);
  const campaigns = useQuery({
    queryKey: ['banners', 'campaigns', 'choices'],
    queryFn: async () =>
      (await client.list('/api/admin/campaigns', { params: { query: { size: 100 } } })).data,
  });
  const figures = useQuery({
    queryKey: ['banners', 'figures', range, values.campaign],
    queryFn: () =>
      client.get('/api/admin/banner-stats/daily', {
        params: { query: { ...range, ...(values.campaign ? { campaignPublicId: values.campaign } : {}) } },
      }),
    meta: { action: t('actions.loadFigures') },
  });
  return (
    <Screen title={t('performance.title')}>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <NativeSelect
          label={t('performance.range')}
          value={String(days)}
          onChange={(event) =>
            set('days', event.currentTarget.value === '30' ? null : event.currentTarget.value)
          }
          data={RANGES.map((r) => ({ value: r, label: t('performance.lastDays', { count: Number(r) }) }))}
        />
        <NativeSelect
          label={t('performance.campaign')}
          value={values.campaign ?? ''}
          onChange={(event) => set('campaign', event.currentTarget.value)}
          data={[
            { value: '', label: t('performance.allCampaigns') },
            ...(campaigns.data ?? []).map((c) => ({ value: c.publicId, label: c.name })),
          ]}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="performance-by">
            {t('performance.by')}
          </Text>
          <SegmentedControl
            aria-labelledby="performance-by"
            value={by}
            onChange={(next) => set('by', next === 'campaign' ? null : next)}
            data={[
              { value: 'campaign', label: t('performance.byCampaign') },
              { value: 'banner', label: t('performance.byBanner') },
            ]}
          />
        </Stack>
      </SimpleGrid>
      <Text size="sm">{t('performance.utcNote')}</Text>
      {figures.isPending ? (
        <LoadingState />
      ) : figures.isError ? (
        <ErrorState error={figures.error} onRetry={() => figures.refetch()} />
      ) : (
        <Figures data={figures.data} by={by} language={language} />
      )}
    </Screen>
  );
}

function Figures({
  data,
  by,
  language,
}: {
  data: DailyFigures;
  by: 'campaign' | 'banner';
  language: Language;
}) {
  const { t } = useTranslation('banners');
  const rows = figureRows(data.rows, by);
  if (rows.length === 0) return <EmptyState message={t('performance.none')} />;
  const totals = new Map<string, { impressions: number; clicks: number }>();
  for (const r of rows) {
    const day = totals.get(r.date) ?? { impressions: 0, clicks: 0 };
    day.impressions += r.impressions;
    day.clicks += r.clicks;
    totals.set(r.date, day);
  }
  const all = [...totals.values()].reduce(
    (sum, d) => ({ impressions: sum.impressions + d.impressions, clicks: sum.clicks + d.clicks }),
    { impressions: 0, clicks: 0 },
  );
  const nameHeader = by === 'campaign' ? t('performance.campaign') : t('performance.banner');
  return (
    <Paper withBorder p="md" component="section" aria-label={t('performance.figures')}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('performance.figures')}
        </Title>
        <Text size="sm">
          {t('performance.totals', {
            impressions: formatCount(all.impressions),
            clicks: formatCount(all.clicks),
            rate: rate(all, language),
          })}
        </Text>
        <div
          role="img"
          aria-label={t('performance.chartSummary', {
            impressions: formatCount(all.impressions),
            clicks: formatCount(all.clicks),
          })}
        >
          <LineChart
            h={220}
            data={[...totals.entries()].map(([date, d]) => ({ day: formatShortDate(date, language), ...d }))}
            dataKey="day"
            series={[
              { name: 'impressions', label: t('performance.impressions'), color: 'indigo.6' },
              { name: 'clicks', label: t('performance.clicks'), color: 'teal.7' },
            ]}
            valueFormatter={(value) => formatCount(value)}
            yAxisProps={{ allowDecimals: false }}
            withLegend
          />
        </div>
        <Group justify="flex-end">
          <Button
            variant="light"
            size="xs"
            onClick={() =>
              downloadCsv(
                `banner-performance-by-${by}-${data.from}-${data.to}.csv`,
                ['Date (UTC)', by === 'campaign' ? 'Campaign' : 'Banner', 'Impressions', 'Clicks', 'CTR (%)'],
                rows.map((r) => [
                  r.date,
                  r.name,
                  r.impressions,
                  r.clicks,
                  r.impressions ? ((r.clicks / r.impressions) * 100).toFixed(2) : '',
                ]),
              )
            }
          >
            {t('performance.csv')}
          </Button>
        </Group>
        <Table.ScrollContainer minWidth={340}>
          <Table striped aria-label={t('performance.tableCaption', { by: nameHeader })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('performance.date')}</Table.Th>
                <Table.Th>{nameHeader}</Table.Th>
                <Table.Th ta="right">{t('performance.impressions')}</Table.Th>
                <Table.Th ta="right">{t('performance.clicks')}</Table.Th>
                <Table.Th ta="right">{t('performance.ctr')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r: FigureRow) => (
                <Table.Tr key={`${r.date}-${r.id}`}>
                  <Table.Td>{formatDate(r.date, language)}</Table.Td>
                  <Table.Td>{r.name}</Table.Td>
                  <Table.Td ta="right">{formatCount(r.impressions)}</Table.Td>
                  <Table.Td ta="right">{formatCount(r.clicks)}</Table.Td>
                  <Table.Td ta="right">{rate(r, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}
