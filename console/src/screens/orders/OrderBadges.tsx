// The three states of an order as badges: the order's own status, its payment and its
// fulfilment. Colours group what needs the shop's attention (yellow/orange: waiting for someone,
// red: failed) from what is settled (green) or over (grey); the words carry the meaning, in
// dark text (coloured text on a tint of its own colour is too faint to read, and fails WCAG AA),
// whole (never cut off with an ellipsis) and in sentence case.
import type { MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { StateBadge } from '../../components/StateBadge';
import type { FulfillmentStatus, OrderStatus, PaymentMethod, PaymentStatus } from './orders-api';

const ORDER_COLOURS: Record<OrderStatus, MantineColor> = {
  created: 'gray',
  payment_pending: 'yellow',
  paid: 'green',
  payment_failed: 'red',
  cancelled: 'gray',
  refund_requested: 'orange',
  refund_pending: 'orange',
  refund_approved: 'violet',
  refund_rejected: 'gray',
};

const PAYMENT_COLOURS: Record<PaymentStatus, MantineColor> = {
  pending: 'yellow',
  cod_pending: 'orange',
  cod_collected: 'teal',
  completed: 'green',
  failed: 'red',
};

const FULFILLMENT_COLOURS: Record<FulfillmentStatus, MantineColor> = {
  received: 'blue',
  ready: 'cyan',
  picked_up: 'indigo',
  in_transit: 'grape',
  delivered: 'green',
  key_sent: 'green',
  activated: 'green',
  cancelled: 'gray',
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('orders');
  return (
    <StateBadge size="lg" color={ORDER_COLOURS[status]} variant="light">
      {t(`orderStatus.${status}`)}
    </StateBadge>
  );
}

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation('orders');
  return (
    <StateBadge size="lg" color={PAYMENT_COLOURS[status]} variant="light">
      {t(`paymentStatus.${status}`)}
    </StateBadge>
  );
}

/** Fulfilment has not started (an unpaid online order) when `status` is null. */
export function FulfillmentBadge({ status }: { status: FulfillmentStatus | null }) {
  const { t } = useTranslation('orders');
  return (
    <StateBadge size="lg" color={status ? FULFILLMENT_COLOURS[status] : 'gray'} variant="outline">
      {status ? t(`fulfillmentStatus.${status}`) : t('fulfillmentStatus.notStarted')}
    </StateBadge>
  );
}

export function PaymentMethodLabel({ method }: { method: PaymentMethod }) {
  const { t } = useTranslation('orders');
  return <>{t(`paymentMethod.${method}`)}</>;
}

/** A gateway value (`gateway_wallet_a`, `pos_cash`) named in the admin's language; an unknown one as the API gave it. */
export function useGatewayName() {
  const { t } = useTranslation('orders');
  return (gateway: string) => t(`gateway.${gateway}`, { defaultValue: gateway });
}

/**
 * A gateway named where in-store and online ones sit side by side (the payments list, sales by
 * gateway): a counter gateway says so ("Card at the counter"), so it is not taken for the
 * online one of the same name.
 */
export function useGatewayLabel() {
  const { t } = useTranslation('orders');
  const name = useGatewayName();
  return (gateway: string) =>
    gateway.startsWith('pos_') ? t('gatewayAtCounter', { gateway: name(gateway) }) : name(gateway);
}
