// A repair's status as a badge: yellow while it waits for the shop, blue in the workshop,
// green done, grey over.
import type { MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { StateBadge } from '../../components/StateBadge';
import type { RepairStatus } from './repairs-api';

const COLOURS: Record<RepairStatus, MantineColor> = {
  request_received: 'yellow',
  picked_up: 'blue',
  dropped_off: 'blue',
  under_repair: 'indigo',
  repaired: 'green',
  unrepairable: 'orange',
  returned: 'teal',
  cancelled: 'gray',
};

export function RepairStatusBadge({ status }: { status: RepairStatus }) {
  const { t } = useTranslation('repairs');
  return (
    <StateBadge size="lg" color={COLOURS[status]}>
      {t(`status.${status}`)}
    </StateBadge>
  );
}
