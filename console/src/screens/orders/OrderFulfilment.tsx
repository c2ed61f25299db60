// Fulfilment: the order's path (received → … → delivered; a licence's received → key sent; a
// care package's received → activated) with when each step was taken and by whom, and only the
// next action the API allows (`eligibleFulfillmentActions`). Steps go one way only, so each
// asks for confirmation.
import { Alert, Button, Group, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime } from '../../components/Formatted';
import { LongTextarea } from '../../components/LongTextarea';
import { ErrorState, LoadingState } from '../../components/StatePanels';
import { USER_TEXT } from '../../components/UserText';
import { textField } from '../../lib/form-errors';
import { formatCount } from '../../lib/format';
import { Can, useClient } from '../../session/session';
import { useHistoryNote } from './OrderHistory';
import { Section } from './OrderSection';
import { CommandModal, type OrderCommands, useCommand } from './order-commands';
import { canActivateCarePackage, digitalDelivery, hasDigitalLines, nextFulfilmentStep } from './order-rules';
import {
  type DigitalKeyLine,
  type FulfillmentStatus,
  fetchDigitalKeys,
  type OrderDetail,
} from './orders-api';

export function OrderFulfilment({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const next = nextFulfilmentStep(order);
  const delivery = digitalDelivery(order);
  return (
    <Section title={t('fulfilment.title')}>
      <Stack gap="md">
        {order.fulfillmentStatus === null && (
          <Text size="sm" c="dimmed">
            {t('fulfilment.notStarted')}
          </Text>
        )}
        {order.fulfillmentStatus === 'cancelled' && (
          <Alert color="gray" variant="light">
            {t('fulfilment.cancelled')}
          </Alert>
        )}
        <Timeline order={order} />
        <Group gap="sm">
          {next && (
            <Can permission="Orders_UPDATE">
              <AdvanceFulfilment order={order} to={next} commands={commands} />
            </Can>
          )}
          {delivery && (
            <Can permission="DigitalKeys_SEND_DELIVERY">
              <SendDigitalKeys order={order} resend={delivery === 'resend'} commands={commands} />
            </Can>
          )}
          {canActivateCarePackage(order) && (
            <Can permission="CarePackageSubscriptions_UPDATE">
              <ActivateCarePackage order={order} commands={commands} />
            </Can>
          )}
        </Group>
        {hasDigitalLines(order) && <DigitalKeys order={order} />}
      </Stack>
    </Section>
  );
}

function Timeline({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  const noteOf = useHistoryNote();
  // When each step was reached: the latest move into it (steps are taken once, but a history
  // is a history).
  const reached = new Map<FulfillmentStatus, OrderDetail['fulfillmentHistory'][number]>();
  for (const move of order.fulfillmentHistory) reached.set(move.toStatus, move);
  return (
    <Stack
      component="ol"
      gap="sm"
      aria-label={t('fulfilment.timeline')}
      style={{ listStyle: 'none', margin: 0, padding: 0 }}
    >
      {order.fulfillmentTimeline.map((step, index) => {
        const move = reached.get(step.status);
        const state = step.current ? 'current' : step.completed ? 'done' : 'todo';
        return (
          <Group
            component="li"
            key={step.status}
            gap="sm"
            wrap="nowrap"
            align="flex-start"
            aria-current={step.current ? 'step' : undefined}
          >
            <ThemeIcon
              radius="xl"
              size="md"
              color={step.completed ? 'green.8' : 'gray'}
              variant={step.completed ? 'filled' : 'outline'}
              aria-hidden
            >
              <Text size="xs" fw={700} c="inherit">
                {step.completed ? '✓' : index + 1}
              </Text>
            </ThemeIcon>
            <Stack gap={0}>
              <Text fw={step.current ? 700 : 500}>{t(`fulfillmentStatus.${step.status}`)}</Text>
              <Text size="xs" c="dimmed">
                {t(`fulfilment.state.${state}`)}
                {move && (
                  <>
                    {' · '}
                    <StoreDateTime value={move.createdAt} />
                  </>
                )}
              </Text>
              {move?.remarks && (
                <Text size="sm" className={USER_TEXT}>
                  {/* Remarks the server wrote are worded from their code; typed ones show as typed. */}
                  {noteOf({ notes: move.remarks, noteCode: move.remarksCode })}
                </Text>
              )}
            </Stack>
          </Group>
        );
      })}
    </Stack>
  );
}

function AdvanceFulfilment({
  order,
  to,
  commands,
}: {
  order: OrderDetail;
  to: FulfillmentStatus;
  commands: OrderCommands;
}) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [remarks, setRemarks] = useState('');
  const label = t(`fulfilment.advance.${to}`, { defaultValue: t('fulfilment.advance.other') });
  const move = useCommand({
    fields: ['status', 'remarks'],
    mutationFn: () =>
      client.post('/api/admin/orders/{id}/fulfillment-status', {
        params: { path: { id: order.id } },
        body: remarks.trim() ? { status: to, remarks: remarks.trim() } : { status: to },
      }),
    action: t('actions.advance', { orderNumber: order.orderNumber }),
    onSuccess: (accepted) => {
      setRemarks('');
      commands.follow(
        accepted,
        label,
        t('fulfilment.moved', {
          orderNumber: order.orderNumber,
          status: t(`fulfillmentStatus.${to}`),
        }),
      );
    },
  });
  return (
    <>
      <Button onClick={move.open} disabled={commands.busy}>
        {label}
      </Button>
      <CommandModal
        {...move.modal}
        title={label}
        confirmLabel={label}
        formError={move.errors.formError ?? move.errors.of('status') ?? null}
      >
        <Text size="sm">
          {t('fulfilment.confirm', {
            orderNumber: order.orderNumber,
            from: t(`fulfillmentStatus.${order.fulfillmentStatus ?? 'received'}`),
            to: t(`fulfillmentStatus.${to}`),
          })}
        </Text>
        <LongTextarea
          limit={1000}
          label={t('fulfilment.remarks')}
          description={t('fulfilment.remarksHint')}
          {...textField(move.errors, 'remarks', remarks, setRemarks)}
        />
      </CommandModal>
    </>
  );
}

function SendDigitalKeys({
  order,
  resend,
  commands,
}: {
  order: OrderDetail;
  resend: boolean;
  commands: OrderCommands;
}) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const label = resend ? t('digital.resend') : t('digital.send');
  const send = useCommand({
    mutationFn: () =>
      client.post('/api/admin/orders/{id}/send-digital-delivery', { params: { path: { id: order.id } } }),
    action: t('actions.sendKeys', { orderNumber: order.orderNumber }),
    onSuccess: (delivery) => {
      commands.done(
        delivery.emailSentTo
          ? t('digital.sentTo', { email: delivery.emailSentTo, count: delivery.deliveredItems.length })
          : t('digital.sentNoEmail', { count: delivery.deliveredItems.length }),
      );
    },
  });
  return (
    <>
      <Button variant={resend ? 'default' : 'filled'} onClick={send.open} disabled={commands.busy}>
        {label}
      </Button>
      <CommandModal {...send.modal} title={label} confirmLabel={label}>
        <Text size="sm">
          {resend
            ? t('digital.explainResend', { email: order.customer.email })
            : t('digital.explain', { email: order.customer.email })}
        </Text>
      </CommandModal>
    </>
  );
}

function ActivateCarePackage({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const activate = useCommand({
    mutationFn: () =>
      client.post('/api/admin/orders/{id}/activate-care-package', { params: { path: { id: order.id } } }),
    action: t('actions.activate', { orderNumber: order.orderNumber }),
    onSuccess: (result) => {
      commands.done(t('carePackage.done', { count: result.activatedCount }));
    },
  });
  return (
    <>
      <Button onClick={activate.open} disabled={commands.busy}>
        {t('carePackage.activate')}
      </Button>
      <CommandModal
        {...activate.modal}
        title={t('carePackage.activate')}
        confirmLabel={t('carePackage.activate')}
      >
        <Text size="sm">{t('carePackage.explain')}</Text>
      </CommandModal>
    </>
  );
}

/** The keys sold with the digital lines, read only when staff ask (support reads them out). */
function DigitalKeys({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [shown, setShown] = useState(false);
  const keys = useQuery({
    queryKey: ['orders', 'digital-keys', order.id],
    queryFn: () => fetchDigitalKeys(client, order.id),
    enabled: shown,
    meta: { action: t('actions.loadKeys', { orderNumber: order.orderNumber }) },
  });
  if (!shown) {
    return (
      <Group>
        <Button variant="subtle" size="xs" onClick={() => setShown(true)}>
          {t('digital.showKeys')}
        </Button>
      </Group>
    );
  }
  if (keys.isPending) return <LoadingState />;
  if (keys.isError) return <ErrorState error={keys.error} onRetry={() => keys.refetch()} />;
  // The API leaves `value` out (null) for a role without DigitalKeys_READ: the masked form shows.
  const masked = keys.data.some((line) => line.keys.some((key) => key.value === null));
  return (
    <Stack gap="xs">
      {masked && (
        <Text size="sm" c="dimmed">
          {t('digital.maskedHint')}
        </Text>
      )}
      <KeysTable lines={keys.data} />
    </Stack>
  );
}

function KeysTable({ lines }: { lines: DigitalKeyLine[] }) {
  const { t } = useTranslation('orders');
  return (
    <Table>
      <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
        {t('digital.keysCaption')}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('digital.product')}</Table.Th>
          <Table.Th ta="right">{t('digital.quantity')}</Table.Th>
          <Table.Th>{t('digital.keys')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((line) => (
          <Table.Tr key={line.orderItemId}>
            <Table.Td className={USER_TEXT}>{line.productTitle}</Table.Td>
            <Table.Td ta="right">{formatCount(line.quantity)}</Table.Td>
            <Table.Td>
              {line.keys.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('digital.noKeys')}
                </Text>
              ) : (
                <Stack gap={2} className={USER_TEXT}>
                  {line.keys.map((key) => (
                    <Text key={key.keyId} size="sm" ff="monospace">
                      {key.value ?? key.maskedValue}
                    </Text>
                  ))}
                </Stack>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
