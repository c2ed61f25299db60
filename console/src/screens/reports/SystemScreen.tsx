// System information (System_READ, superadmins): the API's version and role, the engines in use
// (database, cache, jobs, mail, SMS, realtime) and when a worker last ran the heartbeat job, so an
// owner can see that background jobs are running. Read again every 30 s.
import { Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { ErrorState, LoadingState } from '../../components/StatePanels';
import { formatCount } from '../../lib/format';
import { useClient } from '../../session/session';

/** A heartbeat older than this means no worker is running jobs. */
export const HEARTBEAT_STALE_MS = 5 * 60_000;

export function heartbeatState(last: string | null, now: number): 'never' | 'stale' | 'fresh' {
  if (!last) return 'never';
  return now - new Date(last).getTime() > HEARTBEAT_STALE_MS ? 'stale' : 'fresh';
}

const DRIVERS = ['database', 'cache', 'jobs', 'mail', 'sms', 'realtime'] as const;

export function SystemScreen() {
  const { t } = useTranslation('reports');
  const client = useClient();
  const info = useQuery({
    queryKey: ['reports', 'system'],
    queryFn: () => client.get('/api/admin/system/info'),
    refetchInterval: 30_000,
    meta: { action: t('actions.loadSystem') },
  });
  if (info.isPending || info.isError) {
    return (
      <Screen title={t('system.title')}>
        {info.isPending ? (
          <LoadingState />
        ) : (
          <ErrorState error={info.error} onRetry={() => void info.refetch()} />
        )}
      </Screen>
    );
  }
  const data = info.data;
  const beat = heartbeatState(data.lastJobHeartbeatAt, info.dataUpdatedAt);
  return (
    <Screen title={t('system.title')}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="md" component="section" aria-label={t('system.jobs')}>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('system.jobs')}
            </Title>
            <StateBadge color={beat === 'fresh' ? 'green' : 'red'}>
              {t(`system.heartbeat.${beat}`)}
            </StateBadge>
            {data.lastJobHeartbeatAt && (
              <Text size="sm">
                {t('system.lastHeartbeat')} <StoreDateTime value={data.lastJobHeartbeatAt} inherit />
              </Text>
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="md" component="section" aria-label={t('system.server')}>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('system.server')}
            </Title>
            <Text size="sm">
              {data.name} {data.version} · {t(`system.environment.${data.environment}`)} ·{' '}
              {t(`system.role.${data.role}`)}
            </Text>
            <Text size="sm">
              {t('system.startedAt')} <StoreDateTime value={data.startedAt} inherit /> ·{' '}
              {t('system.uptime', { hours: formatCount(Math.floor(data.uptimeSeconds / 3600)) })}
            </Text>
          </Stack>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="md" component="section" aria-label={t('system.engines')}>
        <Title order={2} size="h4" mb="sm">
          {t('system.engines')}
        </Title>
        <Table aria-label={t('system.engines')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('system.service')}</Table.Th>
              <Table.Th>{t('system.engine')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {DRIVERS.map((d) => (
              <Table.Tr key={d}>
                <Table.Td>{t(`system.drivers.${d}`)}</Table.Td>
                <Table.Td>
                  <code>{data.drivers[d]}</code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </Screen>
  );
}
