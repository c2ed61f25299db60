// One webhook endpoint: its state and health, the events it hears, sending a test, pausing and
// resuming, rotating the secret, removing it; and its delivery log (filtered by status), where
// each delivery opens with its payload and every attempt, and can be delivered again.
import {
  Anchor,
  Button,
  Code,
  Group,
  Modal,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { StateBadge } from '../../components/StateBadge';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { describeError, isPasalError } from '../../lib/api-errors';
import { formatCount } from '../../lib/format';
import { useSession } from '../../session/session';
import { WebhookSecret } from './WebhookSecret';
import {
  DELIVERY_COLOURS,
  endpointState,
  STATE_COLOURS,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './webhooks-api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type DeliveryFilter = 'pending' | 'succeeded' | 'failed';

export function WebhookScreen() {
  const { t } = useTranslation('settings');
  const { client } = useSession();
  const { webhookId } = useParams({ strict: false }) as { webhookId?: string };
  const valid = typeof webhookId === 'string' && UUID.test(webhookId);
  const endpoint = useQuery({
    queryKey: ['webhooks', webhookId],
    queryFn: () => client.get('/api/admin/webhooks/{id}', { params: { path: { id: webhookId! } } }),
    enabled: valid,
    meta: { action: t('detail.action') },
  });
  if (!valid) {
    return (
      <Screen title={t('detail.notFound')}>
        <EmptyState message={t('detail.notFoundText')} />
      </Screen>
    );
  }
  if (endpoint.isPending) return <LoadingState />;
  if (endpoint.isError) {
    const missing = isPasalError(endpoint.error, 'WEBHOOK_NOT_FOUND');
    return (
      <Screen title={missing ? t('detail.notFound') : t('detail.title')}>
        {missing ? (
          <EmptyState message={t('detail.notFoundText')} />
        ) : (
          <ErrorState error={endpoint.error} onRetry={() => endpoint.refetch()} />
        )}
      </Screen>
    );
  }
  return <Endpoint endpoint={endpoint.data} />;
}

function Endpoint({ endpoint: w }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('settings');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [secret, setSecret] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const path = { params: { path: { id: w.id } } };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const state = endpointState(w);

  const test = useMutation({
    mutationFn: () => client.post('/api/admin/webhooks/{id}/test', path),
    meta: { action: t('detail.testAction') },
    onSuccess: () => {
      setNotice('detail.testSent');
      setTimeout(refresh, 1000);
      refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: () => client.patch('/api/admin/webhooks/{id}', { ...path, body: { isActive: !w.isActive } }),
    meta: { action: w.isActive ? t('detail.pauseAction') : t('detail.resumeAction') },
    onSuccess: refresh,
  });
  const rotate = useMutation({
    mutationFn: () => client.post('/api/admin/webhooks/{id}/rotate-secret', path),
    meta: { action: t('detail.rotateAction') },
    onSuccess: (answer) => {
      setSecret(answer.secret);
      refresh();
    },
  });
  const mayUpdate = can('Webhooks_UPDATE');

  return (
    <Screen
      title={t('detail.title')}
      actions={
        <Group gap="xs">
          {mayUpdate && (
            <>
              <Button variant="default" onClick={() => test.mutate()} loading={test.isPending}>
                {t('detail.test')}
              </Button>
              <Button variant="default" onClick={() => toggle.mutate()} loading={toggle.isPending}>
                {w.isActive ? t('detail.pause') : t('detail.resume')}
              </Button>
              <Button variant="default" onClick={() => rotate.mutate()} loading={rotate.isPending}>
                {t('detail.rotate')}
              </Button>
            </>
          )}
          {can('Webhooks_DELETE') && (
            <Button variant="default" color="red" onClick={() => setRemoving(true)}>
              {t('detail.remove')}
            </Button>
          )}
        </Group>
      }
    >
      <Anchor component={Link} to="/settings/webhooks" size="sm">
        {t('detail.back')}
      </Anchor>
      {notice && (
        <Text size="sm" role="status">
          {t(notice)}
        </Text>
      )}
      <Paper withBorder p="md" component="section" aria-label={t('detail.endpoint')}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          <Field label={t('webhooks.url')}>
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {w.url}
            </Text>
          </Field>
          <Field label={t('webhooks.state')}>
            <StateBadge color={STATE_COLOURS[state]}>{t(`state.${state}`)}</StateBadge>
          </Field>
          <Field label={t('webhooks.health')}>
            {w.lastDeliveryAt ? (
              <>
                {t(`deliveryStatus.${w.lastDeliveryStatus ?? 'pending'}`)} ·{' '}
                <StoreDateTime value={w.lastDeliveryAt} />
              </>
            ) : (
              t('webhooks.noDelivery')
            )}
            {w.consecutiveFailures > 0 &&
              ` · ${t('webhooks.failuresInRow', { count: w.consecutiveFailures, n: formatCount(w.consecutiveFailures) })}`}
          </Field>
          {w.description && <Field label={t('form.description')}>{w.description}</Field>}
          {w.secretRotatedUntil && (
            <Field label={t('detail.rotating')}>
              <StoreDateTime value={w.secretRotatedUntil} />
            </Field>
          )}
          <Field label={t('webhooks.events')}>{w.events.join(', ')}</Field>
        </SimpleGrid>
      </Paper>
      <Deliveries endpoint={w} />
      {secret && (
        <WebhookSecret secret={secret} title={t('secret.rotatedTitle')} onClose={() => setSecret(null)} />
      )}
      {removing && (
        <RemoveEndpoint
          endpoint={w}
          onClose={() => setRemoving(false)}
          onRemoved={() => {
            refresh();
            void navigate({ to: '/settings/webhooks' });
          }}
        />
      )}
    </Screen>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('settings');
  const { client } = useSession();
  const [status, setStatus] = useState<DeliveryFilter | null>(null);
  const [open, setOpen] = useState<WebhookDelivery | null>(null);
  const list = usePagedList<WebhookDelivery>({
    queryKey: ['webhooks', endpoint.id, 'deliveries', { status }],
    fetchPage: ({ page, size }) =>
      client.list('/api/admin/webhooks/{id}/deliveries', {
        params: { path: { id: endpoint.id }, query: { page, size, status: status ?? undefined } },
      }),
    action: t('deliveries.action'),
  });
  const columns: Column<WebhookDelivery>[] = [
    { key: 'event', header: t('deliveries.event'), cell: (d) => <Text size="sm">{d.eventType}</Text> },
    {
      key: 'status',
      header: t('deliveries.status'),
      cell: (d) => (
        <StateBadge color={DELIVERY_COLOURS[d.status]}>{t(`deliveryStatus.${d.status}`)}</StateBadge>
      ),
    },
    {
      key: 'attempts',
      header: t('deliveries.attempts'),
      align: 'right',
      cell: (d) => <Text size="sm">{formatCount(d.attempts)}</Text>,
    },
    {
      key: 'last',
      header: t('deliveries.lastAttempt'),
      cell: (d) => (
        <Text size="sm">
          {d.lastAttemptAt ? <StoreDateTime value={d.lastAttemptAt} /> : '—'}
          {d.lastStatusCode !== null && ` · HTTP ${d.lastStatusCode}`}
          {d.lastError && ` · ${d.lastError}`}
        </Text>
      ),
    },
    {
      key: 'created',
      header: t('deliveries.created'),
      cell: (d) => <StoreDateTime value={d.createdAt} />,
    },
    {
      key: 'open',
      header: t('deliveries.details'),
      cell: (d) => (
        <Button
          size="xs"
          variant="default"
          onClick={() => setOpen(d)}
          aria-label={t('deliveries.openNamed', { type: d.eventType, id: d.messageId })}
        >
          {t('deliveries.open')}
        </Button>
      ),
    },
  ];
  return (
    <Paper withBorder p="md" component="section" aria-label={t('deliveries.title')}>
      <Group justify="space-between" mb="sm" align="flex-end">
        <Title order={2} size="h4">
          {t('deliveries.title')}
        </Title>
        <Group gap="xs" align="flex-end">
          <NativeSelect
            label={t('deliveries.status')}
            value={status ?? 'all'}
            data={[
              { value: 'all', label: t('deliveries.anyStatus') },
              { value: 'pending', label: t('deliveryStatus.pending') },
              { value: 'succeeded', label: t('deliveryStatus.succeeded') },
              { value: 'failed', label: t('deliveryStatus.failed') },
            ]}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setStatus(value !== 'all' ? (value as DeliveryFilter) : null);
              list.setPage(1);
            }}
            w={200}
          />
          <Button variant="default" onClick={() => list.query.refetch()} loading={list.query.isFetching}>
            {t('deliveries.refresh')}
          </Button>
        </Group>
      </Group>
      <PagedTable
        list={list}
        columns={columns}
        rowKey={(d) => d.id}
        caption={t('deliveries.caption')}
        emptyMessage={t('deliveries.empty')}
      />
      {open && <DeliveryDetail endpointId={endpoint.id} delivery={open} onClose={() => setOpen(null)} />}
    </Paper>
  );
}

function DeliveryDetail(props: { endpointId: string; delivery: WebhookDelivery; onClose: () => void }) {
  const { t } = useTranslation('settings');
  const { client, can } = useSession();
  const queryClient = useQueryClient();
  const [redelivered, setRedelivered] = useState(false);
  const path = { id: props.endpointId, deliveryId: props.delivery.id };
  const detail = useQuery({
    queryKey: ['webhooks', props.endpointId, 'delivery', props.delivery.id],
    queryFn: () => client.get('/api/admin/webhooks/{id}/deliveries/{deliveryId}', { params: { path } }),
    meta: { action: t('deliveries.detailAction') },
  });
  const redeliver = useMutation({
    mutationFn: () =>
      client.post('/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path } }),
    meta: { action: t('deliveries.redeliverAction') },
    onSuccess: () => {
      setRedelivered(true);
      void queryClient.invalidateQueries({ queryKey: ['webhooks', props.endpointId] });
    },
  });
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('form.close') }}
      opened
      onClose={props.onClose}
      size="xl"
      title={t('deliveries.detailTitle', { type: props.delivery.eventType })}
    >
      {detail.isPending ? (
        <LoadingState />
      ) : detail.isError ? (
        <ErrorState error={detail.error} onRetry={() => detail.refetch()} />
      ) : (
        <Stack>
          <Text size="sm">
            {t('deliveries.messageId')}: <Code>{detail.data.messageId}</Code>
          </Text>
          <Title order={3} size="h5">
            {t('deliveries.attemptLog')}
          </Title>
          {detail.data.attemptLog.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('deliveries.noAttempts')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={480}>
              <Table>
                <Table.Caption>{t('deliveries.attemptLog')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('deliveries.at')}</Table.Th>
                    <Table.Th>{t('deliveries.statusCode')}</Table.Th>
                    <Table.Th>{t('deliveries.duration')}</Table.Th>
                    <Table.Th>{t('deliveries.error')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {detail.data.attemptLog.map((a) => (
                    <Table.Tr key={a.at}>
                      <Table.Td>
                        <StoreDateTime value={a.at} />
                      </Table.Td>
                      <Table.Td>{a.statusCode ?? '—'}</Table.Td>
                      <Table.Td>{t('deliveries.ms', { n: formatCount(a.durationMs) })}</Table.Td>
                      <Table.Td>{a.error ?? '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Title order={3} size="h5" id="webhook-payload">
            {t('deliveries.payload')}
          </Title>
          <Code
            block
            aria-labelledby="webhook-payload"
            style={{ maxHeight: 320, overflow: 'auto' }}
            tabIndex={0}
          >
            {JSON.stringify(detail.data.payload, null, 2)}
          </Code>
          {redeliver.error && <FormError message={describeError(redeliver.error, t)} />}
          {redelivered && (
            <Text size="sm" role="status">
              {t('deliveries.redelivered')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('form.close')}
            </Button>
            {can('Webhooks_UPDATE') && (
              <Button onClick={() => redeliver.mutate()} loading={redeliver.isPending} disabled={redelivered}>
                {t('deliveries.redeliver')}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function RemoveEndpoint(props: { endpoint: WebhookEndpoint; onClose: () => void; onRemoved: () => void }) {
  const { t } = useTranslation('settings');
  const { client } = useSession();
  const remove = useMutation({
    mutationFn: () =>
      client.delete('/api/admin/webhooks/{id}', { params: { path: { id: props.endpoint.id } } }),
    meta: { action: t('detail.removeAction') },
    onSuccess: props.onRemoved,
  });
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('form.close') }}
      opened
      onClose={props.onClose}
      title={t('detail.removeTitle')}
    >
      <Stack>
        <Text size="sm">{t('detail.removeText', { url: props.endpoint.url })}</Text>
        {remove.error && <FormError message={describeError(remove.error, t)} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('form.cancel')}
          </Button>
          <Button color="red.8" onClick={() => remove.mutate()} loading={remove.isPending}>
            {t('detail.remove')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
