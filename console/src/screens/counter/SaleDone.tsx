// A paid sale: the change to hand back, the receipt to print, and, for a sale the customer
// takes with them, the pickup to confirm. F2 (or "Next sale") clears the till.
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Formatted';
import { FormError } from '../../components/StatePanels';
import { describeError } from '../../lib/api-errors';
import { useFormErrors } from '../../lib/form-errors';
import { Can, useClient, useSession } from '../../session/session';
import { confirmPickup, fetchSales, type Gateway, type PosCustomer } from './counter-api';
import { printReceipt } from './receipt';
import { AttemptKeys, type SaleLine } from './sale-rules';

export interface PaidSale {
  orderId: number;
  total: number;
  gateway: Gateway;
  change: number | null;
  handover: 'pickup' | 'delivery';
  lines: SaleLine[];
  customer: PosCustomer;
}

export function SaleDone({ sale, onNext }: { sale: PaidSale; onNext(): void }) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const printRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    printRef.current?.focus();
  }, []);

  // The order's number, as the receipt and the customer's app show it.
  const can = useSession().can;
  const number = useQuery({
    queryKey: ['counter', 'sale-number', sale.orderId],
    queryFn: async () => {
      const page = await fetchSales(client, { page: 1, limit: 20 });
      return page.data.find((row) => row.id === sale.orderId)?.orderNumber ?? null;
    },
    enabled: can('Pos_READ'),
    meta: { action: t('actions.loadSales') },
  });

  const print = useMutation({
    mutationFn: () => printReceipt(client, sale.orderId, t('done.receiptFrame')),
    meta: { action: t('actions.receipt') },
    onError: (error) =>
      notifications.show({ color: 'red', title: t('done.printFailed'), message: describeError(error, t) }),
  });

  const physical = sale.lines.some((l) => l.productKind !== 'digital');
  return (
    <Paper withBorder p="lg" maw={640}>
      <Stack gap="md">
        <div role="status" aria-live="polite">
          <Title order={2} size="h3">
            {number.data ? t('done.titleNumber', { orderNumber: number.data }) : t('done.title')}
          </Title>
          <Text>
            {t('done.paidBy', { gateway: t(`gateway.${sale.gateway}`) })} ·{' '}
            <Money amount={sale.total} fw={700} /> · {sale.customer.name}
          </Text>
        </div>
        {sale.change !== null && (
          <Paper withBorder p="md">
            <Text size="sm">{t('done.change')}</Text>
            <Money amount={sale.change} size="xl" fw={700} />
          </Paper>
        )}
        <Group>
          <Can permission="Pos_READ">
            <Button ref={printRef} onClick={() => print.mutate()} loading={print.isPending}>
              {t('done.print')}
            </Button>
          </Can>
          <Button variant="default" onClick={onNext}>
            {t('done.next')}
          </Button>
        </Group>
        {sale.handover === 'pickup' && physical && (
          <Can permission="Pos_UPDATE">
            <PickupConfirm orderId={sale.orderId} />
          </Can>
        )}
      </Stack>
    </Paper>
  );
}

/** The customer collected the goods: fulfilment moves to picked up (through ready). */
export function PickupConfirm({ orderId, compact = false }: { orderId: number; compact?: boolean }) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const queryClient = useQueryClient();
  const keys = useRef(new AttemptKeys());
  const errors = useFormErrors([]);
  const pickup = useMutation({
    mutationFn: () => confirmPickup(client, keys.current.keyFor({ orderId }), orderId),
    meta: { action: t('actions.pickup') },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['counter'] });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
    onError: errors.show,
  });
  if (pickup.isSuccess) {
    return (
      <Text size="sm" fw={600} role="status">
        {t('pickup.done')}
      </Text>
    );
  }
  return (
    <Stack gap="xs" align="flex-start">
      <Button
        variant={compact ? 'light' : 'default'}
        size={compact ? 'xs' : 'sm'}
        onClick={() => pickup.mutate()}
        loading={pickup.isPending}
      >
        {t('pickup.confirm')}
      </Button>
      <FormError message={errors.formError} title={t('pickup.notDone')} />
    </Stack>
  );
}
