// One order (`/orders/$orderId`): what was bought and by whom, what it costs and how it is
// paid, where it is in fulfilment with the next step staff may take, its history and notes,
// and the commands a role allows (each section says which permission it needs).
import { Anchor, Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoreDateTime, useDistrictName } from '../../components/Formatted';
import { LongTextarea } from '../../components/LongTextarea';
import { Screen } from '../../components/Screen';
import { ErrorState, LoadingState } from '../../components/StatePanels';
import { USER_TEXT } from '../../components/UserText';
import { isPasalError } from '../../lib/api-errors';
import { textField } from '../../lib/form-errors';
import { Can, useClient, useSession } from '../../session/session';
import { OrderTaxLinks } from '../tax/OrderTaxLinks';
import { FulfillmentBadge, OrderStatusBadge, PaymentStatusBadge } from './OrderBadges';
import { OrderFulfilment } from './OrderFulfilment';
import { OrderHistory } from './OrderHistory';
import { OrderItems } from './OrderItems';
import { OrderPayment } from './OrderPayment';
import { Section } from './OrderSection';
import {
  CommandModal,
  CommandStatus,
  type OrderCommands,
  useCommand,
  useOrderCommands,
} from './order-commands';
import { canBeCancelled } from './order-rules';
import { fetchInvoice, fetchOrder, type OrderDetail } from './orders-api';

function orderIdOf(params: { orderId?: unknown }): number | null {
  const id = Number(params.orderId);
  return Number.isInteger(id) && id >= 1 ? id : null;
}

export function OrderScreen() {
  const { t } = useTranslation('orders');
  const id = orderIdOf(useParams({ strict: false }) as { orderId?: unknown });
  if (id === null) {
    return (
      <Screen title={t('detail.notFoundTitle')}>
        <Text>{t('detail.notFound')}</Text>
        <BackToList />
      </Screen>
    );
  }
  return <OrderLoader id={id} />;
}

function BackToList() {
  const { t } = useTranslation('orders');
  return (
    <Anchor component={Link} to="/orders" size="sm">
      {t('detail.backToList')}
    </Anchor>
  );
}

function OrderLoader({ id }: { id: number }) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const order = useQuery({
    queryKey: ['orders', 'detail', id],
    queryFn: () => fetchOrder(client, id),
    meta: { action: t('actions.loadOrder') },
  });
  if (order.isPending) {
    return (
      <Screen title={t('detail.loadingTitle')}>
        <LoadingState />
      </Screen>
    );
  }
  if (order.isError) {
    const missing = isPasalError(order.error, 'ORDER_NOT_FOUND');
    return (
      <Screen title={missing ? t('detail.notFoundTitle') : t('detail.loadingTitle')}>
        {missing ? (
          <Text>{t('detail.notFound')}</Text>
        ) : (
          <ErrorState error={order.error} onRetry={() => order.refetch()} title={t('detail.loadFailed')} />
        )}
        <BackToList />
      </Screen>
    );
  }
  return <OrderView order={order.data} />;
}

function OrderView({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  const commands = useOrderCommands();
  return (
    <Screen
      title={t('detail.title', { orderNumber: order.orderNumber })}
      actions={
        <Group gap="sm">
          <InvoiceButton order={order} />
          <OrderTaxLinks orderId={order.id} />
          <Can permission="Orders_UPDATE">
            {canBeCancelled(order) && <CancelOrder order={order} commands={commands} />}
          </Can>
        </Group>
      }
    >
      <BackToList />
      <Group gap="sm" aria-label={t('detail.states')} role="group">
        <OrderStatusBadge status={order.orderStatus} />
        <PaymentStatusBadge status={order.paymentStatus} />
        <FulfillmentBadge status={order.fulfillmentStatus} />
        <Text size="sm" c="dimmed">
          {t('detail.placed')} <StoreDateTime value={order.createdAt} /> · {t(`orderType.${order.orderType}`)}{' '}
          · {t(`orderSource.${order.orderSource}`)}
        </Text>
      </Group>
      <CommandStatus commands={commands} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <OrderFulfilment order={order} commands={commands} />
            <OrderItems order={order} commands={commands} />
            <OrderHistory order={order} commands={commands} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <Customer order={order} />
            <OrderPayment order={order} commands={commands} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Screen>
  );
}

function Customer({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  const { can } = useSession();
  const { customer } = order;
  const districtName = useDistrictName();
  const address = [
    order.shippingAddressLine1,
    order.shippingAddressLine2,
    order.shippingLandmark,
    [order.shippingCity, order.shippingPostalCode].filter(Boolean).join(' '),
    order.shippingDistrict && districtName(order.shippingDistrict),
    order.shippingState,
  ].filter((line): line is string => Boolean(line));
  return (
    <Section title={t('detail.customer.title')}>
      <Stack gap={4} className={USER_TEXT}>
        <Text fw={600}>{customer.name || t('detail.customer.noName')}</Text>
        {customer.email && (
          <Anchor href={`mailto:${customer.email}`} size="sm">
            {customer.email}
          </Anchor>
        )}
        {customer.phone && (
          <Anchor href={`tel:${customer.phone}`} size="sm">
            {customer.phone}
          </Anchor>
        )}
        {can('Customers_READ') && (
          <Anchor component={Link} to={`/customers/${customer.id}`} size="sm">
            {t('detail.customer.open')}
          </Anchor>
        )}
      </Stack>
      <Title order={3} size="h5" mt="md" mb={4}>
        {t('detail.shipping.title')}
      </Title>
      {address.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.shipping.none')}
        </Text>
      ) : (
        <Stack gap={2} className={USER_TEXT}>
          {(order.receiver || order.contactNumber) && (
            <Text size="sm">{[order.receiver, order.contactNumber].filter(Boolean).join(' · ')}</Text>
          )}
          {address.map((line) => (
            <Text size="sm" key={line}>
              {line}
            </Text>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/**
 * The invoice PDF. A plain link would not carry the session's token, so the file is fetched
 * through the client and handed to the browser as a download.
 */
function InvoiceButton({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const download = useMutation({
    mutationFn: () => fetchInvoice(client, order.id),
    meta: { action: t('actions.invoice', { orderNumber: order.orderNumber }) },
    onSuccess: ({ blob, fileName }) => {
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      // The browser has started the download by now; the object URL can go a little later.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
  });
  return (
    <Stack gap={4} align="flex-end">
      <Button variant="default" onClick={() => download.mutate()} loading={download.isPending}>
        {t('detail.invoice')}
      </Button>
      {download.isError && !isPasalError(download.error, 'AUTH_PERMISSION_DENIED') && (
        <Text size="xs" c="red.8" role="alert">
          {t('detail.invoiceFailed')}
        </Text>
      )}
    </Stack>
  );
}

function CancelOrder({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [reason, setReason] = useState('');
  const label = t('cancel.action');
  const cancel = useCommand({
    fields: ['reason'],
    mutationFn: () =>
      client.post('/api/admin/orders/{id}/cancel', {
        params: { path: { id: order.id } },
        body: reason.trim() ? { reason: reason.trim() } : {},
      }),
    action: t('actions.cancel', { orderNumber: order.orderNumber }),
    onSuccess: (accepted) => {
      setReason('');
      commands.follow(accepted, label, t('cancel.done', { orderNumber: order.orderNumber }));
    },
  });
  return (
    <>
      <Button color="red.8" variant="outline" onClick={cancel.open} disabled={commands.busy}>
        {label}
      </Button>
      <CommandModal
        {...cancel.modal}
        title={t('cancel.title', { orderNumber: order.orderNumber })}
        confirmLabel={t('cancel.confirm')}
        destructive
      >
        <Text size="sm">{order.orderStatus === 'paid' ? t('cancel.explainPaid') : t('cancel.explain')}</Text>
        <LongTextarea
          limit={1000}
          label={t('cancel.reason')}
          description={t('cancel.reasonHint')}
          {...textField(cancel.errors, 'reason', reason, setReason)}
        />
      </CommandModal>
    </>
  );
}
