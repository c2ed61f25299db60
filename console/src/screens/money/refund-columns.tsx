// The columns the refunds queue and the late-payment refunds share: the order and its customer,
// when and why, the amount, where the refund stands, and what staff may do about it. The
// actions are the order page's own (decide, mark as given back), so one rule decides whichever
// screen asks; after one, the list refreshes with the orders (query keys under 'orders').
import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Money, StoreDateTime } from '../../components/Formatted';
import type { Column } from '../../components/PagedTable';
import { StateBadge } from '../../components/StateBadge';
import { USER_TEXT } from '../../components/UserText';
import { Can } from '../../session/session';
import { ProcessRefund, SettleRefund } from '../orders/OrderPayment';
import type { OrderCommands } from '../orders/order-commands';
import type { QueuedRefund, RefundState } from './money-api';

const STATE_COLOURS: Record<RefundState, string> = {
  to_decide: 'orange',
  owed: 'red',
  settled: 'green',
  rejected: 'gray',
};

export function RefundStateBadge({ state }: { state: RefundState }) {
  const { t } = useTranslation('money');
  return (
    <StateBadge color={STATE_COLOURS[state]} variant="light">
      {t(`refundState.${state}`)}
    </StateBadge>
  );
}

export function useRefundColumns<Row extends QueuedRefund>(commands: OrderCommands) {
  const { t } = useTranslation('money');
  const { t: orders } = useTranslation('orders');
  const order: Column<Row> = {
    key: 'order',
    header: t('refunds.columns.order'),
    cell: (r) => (
      <Stack gap={0}>
        <Anchor component={Link} to={`/orders/${r.orderId}`} fw={600} style={{ whiteSpace: 'nowrap' }}>
          {r.orderNumber}
        </Anchor>
        <Text size="sm" className={USER_TEXT}>
          {r.customer.name || orders('detail.customer.noName')}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {r.customer.phone ?? r.customer.email}
        </Text>
      </Stack>
    ),
  };
  const reason: Column<Row> = {
    key: 'reason',
    header: t('refunds.columns.reason'),
    cell: (r) => (
      <Stack gap={0}>
        <Text size="sm" className={USER_TEXT}>
          {orders(`refundReason.${r.reason}`, { defaultValue: r.reason })}
        </Text>
        {r.remarks && (
          <Text size="xs" c="dimmed" className={USER_TEXT}>
            {r.remarks}
          </Text>
        )}
        <StoreDateTime value={r.createdAt} size="xs" c="dimmed" />
      </Stack>
    ),
  };
  const amount: Column<Row> = {
    key: 'amount',
    header: t('refunds.columns.amount'),
    align: 'right',
    cell: (r) => <Money amount={r.amount} fw={600} style={{ whiteSpace: 'nowrap' }} />,
  };
  const state: Column<Row> = {
    key: 'state',
    header: t('refunds.columns.state'),
    cell: (r) => (
      <Stack gap={4} align="flex-start">
        <RefundStateBadge state={r.state} />
        {r.settlement && (
          <Text size="xs">
            {orders('refunds.settledVia', { method: orders(`settlement.${r.settlement.method}`) })}
            {r.settlement.reference ? ` · ${r.settlement.reference}` : ''}
          </Text>
        )}
        {r.state === 'to_decide' && (
          <Can permission="Orders_UPDATE">
            <ProcessRefund
              order={{ id: r.orderId, orderNumber: r.orderNumber, finalPayable: r.amount }}
              commands={commands}
            />
          </Can>
        )}
        {r.state === 'owed' && (
          <Can permission="Orders_UPDATE">
            <SettleRefund
              order={{ id: r.orderId, orderNumber: r.orderNumber }}
              refund={r}
              commands={commands}
            />
          </Can>
        )}
      </Stack>
    ),
  };
  return { order, reason, amount, state };
}
