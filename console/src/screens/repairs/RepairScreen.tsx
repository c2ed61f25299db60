// One repair request: its devices, the customer, the linked order, the staff's notes and the
// status timeline, with only the moves the workshop may make from where it is (as the order
// page offers only the next fulfilment step). Each move is told to the customer by the API (in
// the app and on their phone); the page says so before and after.
import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { LongTextarea } from '../../components/LongTextarea';
import { Screen } from '../../components/Screen';
import { ErrorState, FormError, LoadingState } from '../../components/StatePanels';
import { StoreDateInput } from '../../components/StoreDateInput';
import { textField, useFormErrors } from '../../lib/form-errors';
import { Can, useClient } from '../../session/session';
import { CommandModal, useCommand } from '../orders/order-commands';
import { RepairStatusBadge } from './RepairBadges';
import {
  COLLECTION_METHODS,
  type CollectionMethod,
  fetchRepair,
  NEXT_STEPS,
  type RepairDetail,
  type RepairStatus,
} from './repairs-api';

export function RepairScreen() {
  const { t } = useTranslation('repairs');
  const client = useClient();
  const params = useParams({ strict: false }) as { repairId?: string };
  const id = Number(params.repairId);
  const repair = useQuery({
    queryKey: ['repairs', 'detail', id],
    queryFn: () => fetchRepair(client, id),
    enabled: Number.isInteger(id) && id > 0,
    meta: { action: t('actions.load') },
  });
  if (!Number.isInteger(id) || id <= 0) return <ErrorState error={new Error('bad id')} />;
  if (repair.isPending) return <LoadingState />;
  if (repair.isError) return <ErrorState error={repair.error} onRetry={() => repair.refetch()} />;
  const r = repair.data;
  return (
    <Screen
      title={t('detail.title', { ticket: r.ticketNumber })}
      actions={<RepairStatusBadge status={r.status} />}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="md">
          <Section id="repair-steps" title={t('detail.steps')}>
            <NextSteps repair={r} />
          </Section>
          <Section id="repair-timeline" title={t('detail.timeline')}>
            <Timeline repair={r} />
          </Section>
        </Stack>
        <Stack gap="md">
          <Section id="repair-devices" title={t('detail.devices')}>
            <Devices repair={r} />
          </Section>
          <Section id="repair-customer" title={t('detail.customer')}>
            <Stack gap={4}>
              <Can
                permission="Customers_READ"
                fallback={<Text fw={600}>{r.customer.name ?? t('detail.noName')}</Text>}
              >
                <Anchor component={Link} to={`/customers/${r.customer.id}`} fw={600}>
                  {r.customer.name ?? t('detail.noName')}
                </Anchor>
              </Can>
              <Text size="sm">{r.customer.email}</Text>
              <Text size="sm">
                {t('detail.booked')} <StoreDateTime value={r.createdAt} />
              </Text>
              <Text size="sm">
                {t('detail.source')}: {t(`source.${r.sourceType}`)}
              </Text>
              <Text size="sm">
                {t('detail.order')}:{' '}
                {r.orderId === null ? (
                  t('detail.noOrder')
                ) : (
                  <Can permission="Orders_READ" fallback={r.orderId}>
                    <Anchor component={Link} to={`/orders/${r.orderId}`}>
                      {t('detail.orderLink', { id: r.orderId })}
                    </Anchor>
                  </Can>
                )}
              </Text>
              {r.estimatedDeliveryAt && (
                <Text size="sm">
                  {t('detail.estimated')} <StoreDateTime value={r.estimatedDeliveryAt} />
                </Text>
              )}
            </Stack>
          </Section>
          <Section id="repair-collection" title={t('detail.collection')}>
            <Collection repair={r} />
          </Section>
          <Section id="repair-notes" title={t('detail.notes')}>
            <Notes repair={r} />
          </Section>
        </Stack>
      </SimpleGrid>
    </Screen>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" mb="sm" id={id}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Devices({ repair }: { repair: RepairDetail }) {
  const { t } = useTranslation('repairs');
  return (
    <Stack gap="sm">
      {repair.devices.map((device, index) => (
        <Stack key={device.id} gap={2}>
          <Text fw={600}>
            {index + 1}. {device.brandName} {device.laptopModel}
          </Text>
          <Text size="sm">{device.problemDescription}</Text>
          {device.orderItemId !== null && (
            <Text size="xs" c="dimmed">
              {t('detail.orderItem', { id: device.orderItemId })}
            </Text>
          )}
        </Stack>
      ))}
      {repair.sharedDescription && (
        <Alert variant="light" color="gray" title={t('detail.shared')}>
          {repair.sharedDescription}
        </Alert>
      )}
    </Stack>
  );
}

function Timeline({ repair }: { repair: RepairDetail }) {
  const { t } = useTranslation('repairs');
  const moves = [...repair.statusHistory].reverse();
  return (
    <Stack
      component="ol"
      gap="sm"
      aria-label={t('detail.timeline')}
      style={{ listStyle: 'none', margin: 0, padding: 0 }}
    >
      {moves.map((move, index) => (
        <Group
          component="li"
          key={`${move.createdAt}-${move.toStatus}`}
          gap="sm"
          wrap="nowrap"
          align="flex-start"
          aria-current={index === 0 ? 'step' : undefined}
        >
          <ThemeIcon radius="xl" size="md" color={index === 0 ? 'blue.8' : 'green.8'} aria-hidden>
            <Text size="xs" fw={700} c="inherit">
              {moves.length - index}
            </Text>
          </ThemeIcon>
          <Stack gap={0}>
            <Text fw={index === 0 ? 700 : 500}>{t(`status.${move.toStatus}`)}</Text>
            <Text size="xs" c="dimmed">
              {t('detail.from', { status: t(`status.${move.fromStatus}`) })} ·{' '}
              <StoreDateTime value={move.createdAt} />
            </Text>
            {move.notes && <Text size="sm">{move.notes}</Text>}
            <Text size="xs" fw={move.actorType === 'admin' ? 600 : undefined}>
              {move.actorType === 'admin'
                ? t('detail.notified')
                : t(`actor.${move.actorType}`, { defaultValue: move.actorType })}
            </Text>
          </Stack>
        </Group>
      ))}
      <Group component="li" gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon radius="xl" size="md" color="gray" variant="outline" aria-hidden>
          <Text size="xs" fw={700} c="inherit">
            0
          </Text>
        </ThemeIcon>
        <Stack gap={0}>
          <Text fw={500}>{t('status.request_received')}</Text>
          <Text size="xs" c="dimmed">
            <StoreDateTime value={repair.createdAt} />
          </Text>
        </Stack>
      </Group>
    </Stack>
  );
}

function NextSteps({ repair }: { repair: RepairDetail }) {
  const { t } = useTranslation('repairs');
  const next = NEXT_STEPS[repair.status];
  if (next.length === 0) return <Text c="dimmed">{t('steps.final')}</Text>;
  return (
    <Stack gap="sm">
      <Text size="sm">{t('steps.notifyHint')}</Text>
      <Can
        permission="RepairRequests_UPDATE"
        fallback={
          <Text size="sm" c="dimmed">
            {t('steps.readOnly')}
          </Text>
        }
      >
        <Group gap="sm">
          {next.map((to) => (
            <MoveButton key={to} repair={repair} to={to} />
          ))}
        </Group>
      </Can>
    </Stack>
  );
}

function MoveButton({ repair, to }: { repair: RepairDetail; to: RepairStatus }) {
  const { t } = useTranslation('repairs');
  const client = useClient();
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState('');
  const [eta, setEta] = useState('');
  const label = t(`steps.to.${to}`);
  const move = useCommand({
    fields: ['status', 'notes', 'estimatedDeliveryAt'],
    mutationFn: () =>
      client.patch('/api/admin/repair-requests/{id}/status', {
        params: { path: { id: repair.id } },
        body: {
          status: to,
          ...(notes.trim() ? { notes: notes.trim() } : {}),
          ...(eta ? { estimatedDeliveryAt: `${eta}T12:00:00.000Z` } : {}),
        },
      }),
    action: t('actions.move', { ticket: repair.ticketNumber }),
    onSuccess: () => {
      setNotes('');
      setEta('');
      notifications.show({
        color: 'green',
        // Title only, as the order page's commands do: Mantine's dimmed description text fails
        // the contrast check on the green notification. The page says the customer was told.
        title: `${t('steps.moved', { ticket: repair.ticketNumber, status: t(`status.${to}`) })} ${t('steps.customerTold')}`,
        message: null,
        closeButtonProps: { 'aria-label': t('steps.dismiss') },
      });
      void queryClient.invalidateQueries({ queryKey: ['repairs'] });
    },
  });
  const destructive = to === 'cancelled' || to === 'unrepairable';
  return (
    <>
      <Button
        variant={destructive ? 'default' : 'filled'}
        color={destructive ? 'red' : undefined}
        onClick={move.open}
      >
        {label}
      </Button>
      <CommandModal
        {...move.modal}
        title={label}
        confirmLabel={label}
        destructive={destructive}
        formError={move.errors.formError ?? move.errors.of('status') ?? null}
      >
        <Text size="sm">
          {t('steps.confirm', {
            ticket: repair.ticketNumber,
            from: t(`status.${repair.status}`),
            to: t(`status.${to}`),
          })}
        </Text>
        <LongTextarea
          limit={2000}
          label={t('steps.notes')}
          description={t('steps.notesHint')}
          {...textField(move.errors, 'notes', notes, setNotes)}
        />
        {(to === 'under_repair' || to === 'picked_up' || to === 'dropped_off') && (
          <StoreDateInput
            label={t('steps.eta')}
            value={eta}
            onChange={setEta}
            error={move.errors.of('estimatedDeliveryAt')}
          />
        )}
      </CommandModal>
    </>
  );
}

function Collection({ repair }: { repair: RepairDetail }) {
  const { t } = useTranslation('repairs');
  const client = useClient();
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<CollectionMethod>(repair.collectionMethod);
  const errors = useFormErrors(['collectionMethod']);
  const save = useMutation({
    mutationFn: () =>
      client.patch('/api/admin/repair-requests/{id}/collection-method', {
        params: { path: { id: repair.id } },
        body: { collectionMethod: method },
      }),
    meta: { action: t('actions.collection', { ticket: repair.ticketNumber }) },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['repairs'] }),
    onError: errors.show,
  });
  if (repair.status !== 'request_received') {
    return (
      <Text size="sm">
        {t(`method.${repair.collectionMethod}`)} ·{' '}
        <Text span c="dimmed">
          {t('collection.locked')}
        </Text>
      </Text>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <FormError message={errors.formError ?? errors.of('collectionMethod') ?? null} />
        <NativeSelect
          label={t('collection.label')}
          data={COLLECTION_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) }))}
          value={method}
          onChange={(event) => setMethod(event.currentTarget.value as CollectionMethod)}
        />
        <Can permission="RepairRequests_UPDATE">
          <Group>
            <Button
              type="submit"
              variant="default"
              loading={save.isPending}
              disabled={method === repair.collectionMethod}
            >
              {t('collection.save')}
            </Button>
          </Group>
        </Can>
      </Stack>
    </form>
  );
}

function Notes({ repair }: { repair: RepairDetail }) {
  const { t } = useTranslation('repairs');
  const client = useClient();
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState(repair.adminNotes ?? '');
  const errors = useFormErrors(['adminNotes']);
  const save = useMutation({
    mutationFn: () =>
      client.patch('/api/admin/repair-requests/{id}/notes', {
        params: { path: { id: repair.id } },
        body: { adminNotes: notes.trim() || null },
      }),
    meta: { action: t('actions.notes', { ticket: repair.ticketNumber }) },
    onSuccess: () => {
      notifications.show({
        color: 'green',
        title: t('notes.saved'),
        message: null,
        closeButtonProps: { 'aria-label': t('steps.dismiss') },
      });
      void queryClient.invalidateQueries({ queryKey: ['repairs'] });
    },
    onError: errors.show,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <FormError message={errors.formError} />
        <LongTextarea
          limit={5000}
          label={t('notes.label')}
          description={t('notes.hint')}
          minRows={3}
          {...textField(errors, 'adminNotes', notes, setNotes)}
        />
        <Can permission="RepairRequests_UPDATE">
          <Group>
            <Button type="submit" variant="default" loading={save.isPending}>
              {t('notes.save')}
            </Button>
          </Group>
        </Can>
      </Stack>
    </form>
  );
}
