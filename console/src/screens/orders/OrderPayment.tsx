// Money: the order's totals, how it is paid, the cash of a COD order (recorded by staff when
// the rider hands it in), and refunds with the shop's decision on a customer's request.
import { Button, Divider, Group, Radio, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money, StoreDateTime } from '../../components/Formatted';
import { LongTextarea } from '../../components/LongTextarea';
import { USER_TEXT } from '../../components/UserText';
import { textField } from '../../lib/form-errors';
import { Can, useClient } from '../../session/session';
import { PaymentMethodLabel, PaymentStatusBadge, useGatewayName } from './OrderBadges';
import { Section } from './OrderSection';
import { CommandModal, type OrderCommands, useCommand } from './order-commands';
import { awaitsCodCash, awaitsRefundDecision } from './order-rules';
import type { OrderDetail } from './orders-api';

export function OrderPayment({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const gatewayName = useGatewayName();
  return (
    <Section title={t('payment.title')}>
      <Stack gap="sm">
        <Totals order={order} />
        <Divider />
        <Line label={t('payment.method')}>
          <PaymentMethodLabel method={order.paymentMethod} />
          {order.gateway && order.paymentMethod !== 'cod' ? ` (${gatewayName(order.gateway)})` : ''}
        </Line>
        <Line label={t('payment.status')}>
          <PaymentStatusBadge status={order.paymentStatus} />
        </Line>
        {order.paidAt && (
          <Line label={t('payment.paidAt')}>
            <StoreDateTime value={order.paidAt} size="sm" />
          </Line>
        )}
        {order.codCollection && (
          <Text size="sm" className={USER_TEXT}>
            {t('payment.codCollected', { remarks: order.codCollection.remarks ?? '' })}{' '}
            <Money amount={order.codCollection.amount} fw={600} />
          </Text>
        )}
        {awaitsCodCash(order) && (
          <Can permission="Orders_UPDATE">
            <CollectCod order={order} commands={commands} />
          </Can>
        )}
        <Refunds order={order} commands={commands} />
      </Stack>
    </Section>
  );
}

function Line({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm" fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Text span size="sm" fw={strong ? 700 : undefined} ta="right">
        {children}
      </Text>
    </Group>
  );
}

function Totals({ order }: { order: OrderDetail }) {
  const { t } = useTranslation('orders');
  return (
    <Stack gap={4}>
      {order.totalMrp > order.totalSp && (
        <Line label={t('totals.mrp')}>
          <Money amount={order.totalMrp} />
        </Line>
      )}
      <Line label={t('totals.items')}>
        <Money amount={order.totalSp} />
      </Line>
      {order.couponDiscount > 0 && (
        <Line
          label={order.couponCode ? t('totals.couponCode', { code: order.couponCode }) : t('totals.coupon')}
        >
          <Money amount={-order.couponDiscount} />
        </Line>
      )}
      {order.carePackageTotal > 0 && (
        <Line label={t('totals.carePackages')}>
          <Money amount={order.carePackageTotal} />
        </Line>
      )}
      <Line label={t('totals.shipping')}>
        <Money amount={order.shippingFee} />
      </Line>
      <Line label={t('totals.total')} strong>
        <Money amount={order.finalPayable} />
      </Line>
    </Stack>
  );
}

/** The required remarks of a money command (COD cash, refund decision, refund given back): 2,000 characters at most, as the API. */
function RemarksField(props: { label: string; description?: string; field: ReturnType<typeof textField> }) {
  return (
    <LongTextarea
      limit={2000}
      label={props.label}
      description={props.description}
      {...props.field}
      required
    />
  );
}

function CollectCod({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [remarks, setRemarks] = useState('');
  const collect = useCommand({
    fields: ['remarks'],
    mutationFn: () =>
      client.put('/api/admin/orders/{id}/cod-collect', {
        params: { path: { id: order.id } },
        body: { remarks: remarks.trim() },
      }),
    action: t('actions.cod', { orderNumber: order.orderNumber }),
    onSuccess: () => {
      setRemarks('');
      commands.done(t('cod.done', { orderNumber: order.orderNumber }));
    },
  });
  return (
    <>
      <Button variant="light" onClick={collect.open} disabled={commands.busy}>
        {t('cod.action')}
      </Button>
      <CommandModal
        {...collect.modal}
        title={t('cod.title', { orderNumber: order.orderNumber })}
        confirmLabel={t('cod.confirm')}
      >
        <Text size="sm">
          {t('cod.explain')} <Money amount={order.finalPayable} fw={700} />
        </Text>
        <RemarksField
          label={t('cod.remarks')}
          description={t('cod.remarksHint')}
          field={textField(collect.errors, 'remarks', remarks, setRemarks)}
        />
      </CommandModal>
    </>
  );
}

function Refunds({ order, commands }: { order: OrderDetail; commands: OrderCommands }) {
  const { t } = useTranslation('orders');
  if (order.refunds.length === 0 && !awaitsRefundDecision(order)) return null;
  return (
    <Stack gap="xs">
      <Divider />
      <Text fw={600} size="sm">
        {t('refunds.title')}
      </Text>
      {order.refundReason && (
        <Text size="sm">
          {t('refunds.customerReason')}: {order.refundReason}
        </Text>
      )}
      {order.refunds.length > 0 && (
        <Table fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('refunds.status')}</Table.Th>
              <Table.Th ta="right">{t('refunds.amount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.refunds.map((refund) => (
              <Table.Tr key={refund.id}>
                <Table.Td className={USER_TEXT}>
                  <Text size="sm">
                    {refund.settlement ? t('refundStatus.settled') : t(`refundStatus.${refund.status}`)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`refundReason.${refund.reason}`, { defaultValue: refund.reason })}
                    {refund.remarks ? ` · ${refund.remarks}` : ''}
                  </Text>
                  <Text size="xs" c="dimmed">
                    <StoreDateTime value={refund.processedAt ?? refund.createdAt} />
                  </Text>
                  {refund.settlement ? (
                    <Text size="xs">
                      {t('refunds.settledVia', { method: t(`settlement.${refund.settlement.method}`) })}
                      {refund.settlement.reference ? ` · ${refund.settlement.reference}` : ''} ·{' '}
                      <StoreDateTime value={refund.settlement.settledAt} />
                    </Text>
                  ) : (
                    OWED.has(refund.status) && (
                      <Can permission="Orders_UPDATE">
                        <SettleRefund order={order} refund={refund} commands={commands} />
                      </Can>
                    )
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Money amount={refund.amount} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {awaitsRefundDecision(order) && (
        <Can permission="Orders_UPDATE">
          <ProcessRefund order={order} commands={commands} />
        </Can>
      )}
    </Stack>
  );
}

/** Refund records whose money is still with the shop until someone gives it back. */
const OWED = new Set(['pending', 'approved']);
const SETTLEMENT_METHODS = ['cash', 'wallet', 'bank_transfer'] as const;
type SettlementMethod = (typeof SETTLEMENT_METHODS)[number];

/** "Mark as given back" and its dialog, for an owed refund: on the order's page and in the refunds queue. */
export function SettleRefund({
  order,
  refund,
  commands,
}: {
  order: Pick<OrderDetail, 'id' | 'orderNumber'>;
  refund: Pick<OrderDetail['refunds'][number], 'id' | 'amount'>;
  commands: OrderCommands;
}) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [method, setMethod] = useState<SettlementMethod>('cash');
  const [reference, setReference] = useState('');
  const [remarks, setRemarks] = useState('');
  const settle = useCommand({
    fields: ['method', 'reference', 'remarks'],
    mutationFn: () =>
      client.post('/api/admin/orders/{id}/refunds/{refundId}/settle', {
        params: { path: { id: order.id, refundId: refund.id } },
        body: {
          method,
          remarks: remarks.trim(),
          ...(reference.trim() ? { reference: reference.trim() } : {}),
        },
      }),
    action: t('actions.settle', { orderNumber: order.orderNumber }),
    onSuccess: () => {
      setRemarks('');
      setReference('');
      commands.done(t('refunds.settled', { orderNumber: order.orderNumber }));
    },
  });
  return (
    <>
      <Button size="xs" variant="light" mt={4} onClick={settle.open} disabled={commands.busy}>
        {t('refunds.settle')}
      </Button>
      <CommandModal
        {...settle.modal}
        title={t('refunds.settleTitle', { orderNumber: order.orderNumber })}
        confirmLabel={t('refunds.settle')}
      >
        <Text size="sm">
          {t('refunds.settleExplain')} <Money amount={refund.amount} fw={700} />
        </Text>
        <Select
          label={t('refunds.method')}
          data={SETTLEMENT_METHODS.map((m) => ({ value: m, label: t(`settlement.${m}`) }))}
          value={method}
          onChange={(value) => value && setMethod(value as SettlementMethod)}
          allowDeselect={false}
          error={settle.errors.of('method')}
        />
        <TextInput
          label={t('refunds.reference')}
          description={t('refunds.referenceHint')}
          {...textField(settle.errors, 'reference', reference, setReference)}
          maxLength={255}
        />
        <RemarksField
          label={t('refunds.remarks')}
          field={textField(settle.errors, 'remarks', remarks, setRemarks)}
        />
      </CommandModal>
    </>
  );
}

/** "Decide the refund" and its dialog, for a requested refund: on the order's page and in the refunds queue. */
export function ProcessRefund({
  order,
  commands,
}: {
  order: Pick<OrderDetail, 'id' | 'orderNumber' | 'finalPayable'>;
  commands: OrderCommands;
}) {
  const { t } = useTranslation('orders');
  const client = useClient();
  const [decision, setDecision] = useState<'approve' | 'reject'>('approve');
  const [remarks, setRemarks] = useState('');
  const label = t('refunds.decide');
  const decide = useCommand({
    fields: ['action', 'remarks'],
    mutationFn: () =>
      client.post('/api/admin/orders/{id}/process-refund', {
        params: { path: { id: order.id } },
        body: { action: decision, remarks: remarks.trim() },
      }),
    action: t('actions.refund', { orderNumber: order.orderNumber }),
    onSuccess: (accepted) => {
      setRemarks('');
      commands.follow(
        accepted,
        t(`refunds.${decision}`),
        t(decision === 'approve' ? 'refunds.approved' : 'refunds.rejected', {
          orderNumber: order.orderNumber,
        }),
      );
    },
  });
  return (
    <>
      <Group>
        <Button variant="light" onClick={decide.open} disabled={commands.busy}>
          {label}
        </Button>
      </Group>
      <CommandModal
        {...decide.modal}
        title={t('refunds.decideTitle', { orderNumber: order.orderNumber })}
        confirmLabel={t(`refunds.${decision}`)}
        destructive={decision === 'reject'}
      >
        <Text size="sm">
          {t('refunds.explain')} <Money amount={order.finalPayable} fw={700} />
        </Text>
        <Radio.Group
          label={t('refunds.decision')}
          value={decision}
          onChange={(value) => setDecision(value === 'reject' ? 'reject' : 'approve')}
          error={decide.errors.of('action')}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="approve" label={t('refunds.approve')} />
            <Radio value="reject" label={t('refunds.reject')} />
          </Stack>
        </Radio.Group>
        <RemarksField
          label={t('refunds.remarks')}
          field={textField(decide.errors, 'remarks', remarks, setRemarks)}
        />
      </CommandModal>
    </>
  );
}
