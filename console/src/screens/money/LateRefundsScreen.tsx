// Refunds late payments owe (GET /api/admin/payments/late-refunds): money that reached a
// gateway after its order was given up (cancelled, or its payment marked failed). Each shows
// the payment that came in late beside the refund, which staff mark as given back here.
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Money, StoreDateTime } from '../../components/Formatted';
import { type Column, PagedTable, usePagedList } from '../../components/PagedTable';
import { Screen } from '../../components/Screen';
import { useClient } from '../../session/session';
import { useGatewayLabel } from '../orders/OrderBadges';
import { CommandStatus, useOrderCommands } from '../orders/order-commands';
import { fetchLateRefunds, type LateRefund } from './money-api';
import { useRefundColumns } from './refund-columns';

const STATES = ['owed', 'settled'] as const;
type LateState = (typeof STATES)[number];

export function LateRefundsScreen() {
  const { t } = useTranslation('money');
  const client = useClient();
  const navigate = useNavigate();
  const gatewayName = useGatewayLabel();
  const commands = useOrderCommands();
  const search = useSearch({ strict: false }) as { state?: unknown };
  const state = (STATES as readonly unknown[]).includes(search.state) ? (search.state as LateState) : null;
  const list = usePagedList<LateRefund>({
    queryKey: ['orders', 'late-refunds', state],
    fetchPage: ({ page, size }) => fetchLateRefunds(client, { page, size, ...(state ? { state } : {}) }),
    action: t('actions.loadLateRefunds'),
  });
  const columns = useRefundColumns<LateRefund>(commands);
  const payment: Column<LateRefund> = {
    key: 'payment',
    header: t('late.columns.payment'),
    cell: (r) => (
      <Stack gap={4}>
        {r.payments.map((p) => (
          <Stack key={p.id} gap={0}>
            <Text size="sm">
              {gatewayName(p.gateway)} · <Money amount={p.amount} />
            </Text>
            <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {p.reference}
            </Text>
            {p.completedAt && (
              <Text size="xs" c="dimmed">
                {t('late.paidAt')} <StoreDateTime value={p.completedAt} span />
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
    ),
  };
  return (
    <Screen title={t('late.title')}>
      <Text size="sm" c="dimmed">
        {t('late.intro')}
      </Text>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="late-state">
          {t('refunds.show')}
        </Text>
        <SegmentedControl
          aria-labelledby="late-state"
          value={state ?? 'all'}
          onChange={(value) =>
            void navigate({
              to: '.',
              search: { state: value === 'all' ? undefined : value },
              replace: true,
            } as never)
          }
          data={[
            { value: 'all', label: t('refundState.all') },
            ...STATES.map((s) => ({ value: s, label: t(`refundState.${s}`) })),
          ]}
        />
      </Stack>
      <CommandStatus commands={commands} />
      <PagedTable
        list={list}
        columns={[columns.order, payment, columns.amount, columns.state]}
        rowKey={(r) => r.id}
        caption={t('late.caption')}
        emptyMessage={t(`late.empty.${state ?? 'all'}`)}
      />
    </Screen>
  );
}
